import Foundation
import Testing
import LayoutCore
@testable import CVLayoutCLI

/// Output properties over seeded random command lines for every engine: a run either
/// succeeds or fails with a SPEC status and one message; successful output holds only finite
/// numbers (no `nan`, `inf`, `-0`), parses back (JSON with one element per line, CSV with 19
/// columns a row, SVG as XML), and is byte-identical when run twice.
struct OutputProperties {
    static let engines = ["waterfall", "ring", "flow", "line", "carousel", "stack", "circle"]

    /// A random command line and dataset for `engine`.
    static func randomRun(_ engine: String, _ generator: inout SplitMix64) -> (arguments: [String], stdin: Data?) {
        var g = generator  // the option table's closures capture a local copy
        defer { generator = g }
        func int(_ bound: Int) -> Int { Int(g.next() % UInt64(bound)) }
        func number(_ bound: Int) -> String { int(4) == 0 ? "0" : String(Double(int(bound * 100)) / 100) }
        var arguments = [engine, "-f", ["json", "csv", "svg"][int(3)]]
        let common: [() -> [String]] = [
            { ["--width", number(800)] }, { ["--height", number(900)] },
            { ["--offset", "\(int(600) - 200),\(int(600) - 200)"] }, { ["--scale", ["1", "2", "3"][int(3)]] },
            { ["--precision", int(3) == 0 ? "full" : String(int(16))] },
            { ["--rect", "\(int(400) - 50),\(int(400) - 50),\(int(500)),\(int(500))"] },
            { ["--target-offset", "\(int(800)),\(int(800))", "--velocity", "\(int(3) - 1),\(int(3) - 1)"] },
            { ["--no-labels"] }, { ["--layout-direction", LayoutDirection.allCases[int(2)].rawValue] },
        ]
        let own: [String: [() -> [String]]] = [
            "waterfall": [{ ["--columns", String(1 + int(6))] }, { ["--column-spacing", number(20)] },
                          { ["--order", WaterfallOrder.allCases[int(3)].rawValue] }, { ["--insets", number(30)] },
                          { ["--header-height", number(50)] }, { ["--footer-height", number(50)] },
                          { ["--pin-headers"] }, { ["--scroll-direction", ScrollDirection.allCases[int(2)].rawValue] }],
            "ring": [{ ["--radius", number(100)] }, { ["--shrink", number(2)] }, { ["--start-angle", String(int(720) - 360)] },
                     { ["--direction", RotationDirection.allCases[int(2)].rawValue] }, { ["--no-heart"] }],
            "flow": [{ ["--item-size", "\(1 + int(200)),\(1 + int(200))"] }, { ["--line-spacing", number(20)] },
                     { ["--alignment", FlowAlignment.allCases[int(4)].rawValue] }, { ["--header-size", "0,\(int(60))"] },
                     { ["--scroll-direction", ScrollDirection.allCases[int(2)].rawValue] }, { ["--pin-headers"] },
                     { ["--stretchy-header"] }],
            "line": [{ ["--item-size", "\(1 + int(200)),\(1 + int(200))"] }, { ["--min-scale", number(1)] },
                     { ["--spacing", number(30)] }],
            "carousel": [{ ["--item-size", "\(1 + int(300)),\(1 + int(300))"] }, { ["--standard-alpha", number(1)] },
                         { ["--standard-scale", number(1)] },
                         { ["--scroll-direction", ScrollDirection.allCases[int(2)].rawValue] }],
            "stack": [{ ["--item-size", "\(1 + int(200)),\(1 + int(200))"] },
                      { ["--angles", (0..<int(6)).map { _ in String(int(720) - 360) }.joined(separator: ",")] }],
            "circle": [{ ["--radius", number(200)] }, { ["--start-angle", String(int(720) - 360)] }, { ["--center-single"] },
                       { ["--direction", RotationDirection.allCases[int(2)].rawValue] }],
        ]
        for choice in common + own[engine]! where int(3) == 0 { arguments += choice() }
        if arguments.contains("--rect") && int(2) == 0 { arguments += ["--item", "0:\(int(4))"] }  // a conflict: 64
        guard int(2) == 0 else {
            arguments += ["--count", String(int(engine == "ring" ? 6 : 80))]
            return (arguments, nil)
        }
        let n = int(60)
        let dataset: String
        if engine == "ring" {
            dataset = "[" + (0..<int(6)).map { _ in String(int(30)) }.joined(separator: ",") + "]"
        } else if int(2) == 0 {
            dataset = "[" + (0..<n).map { _ in String(Double(int(40000)) / 100) }.joined(separator: ",") + "]"
        } else {
            dataset = "{\"sizes\": [" + (0..<n).map { _ in "[\(1 + int(400)), \(int(400))]" }.joined(separator: ",") + "]}"
        }
        return (arguments + ["-"], Data(dataset.utf8))
    }

    @Test(arguments: engines)
    func outputIsFiniteParsesBackAndIsIdenticalOnEveryRun(_ engine: String) throws {
        var g = SplitMix64(seed: UInt64(engine.utf8.reduce(7) { $0 &* 31 &+ Int($1) }.magnitude))
        var succeeded = 0
        for _ in 0..<40 {
            let (arguments, stdin) = Self.randomRun(engine, &g)
            let first = run(arguments: arguments, stdin: { stdin ?? Data() })
            let second = run(arguments: arguments, stdin: { stdin ?? Data() })
            #expect(first == second, "\(arguments): not identical on a second run")
            #expect([0, 64, 65].contains(first.status), "\(arguments): \(first.stderr)")
            guard first.status == 0 else {
                #expect(first.stdout.isEmpty && first.stderr.hasPrefix("cvlayout: error: "), "\(arguments)")
                continue
            }
            succeeded += 1
            let text = first.stdoutText
            for bad in ["nan", "inf", "-0,", "-0\"", "-0 ", "-0}", "-0]", "-0\n"] {
                #expect(!text.lowercased().contains(bad), "\(arguments): '\(bad)' in the output")
            }
            let format = arguments[arguments.firstIndex(of: "-f")! + 1]
            switch format {
            case "json":
                let object = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout)) as? [String: Any])
                let elements = try #require(object["elements"] as? [[String: Any]])
                let lines = text.split(separator: "\n").filter { $0.hasPrefix("{\"indexPath\"") }
                #expect(elements.count == lines.count, "\(arguments): one element per line")
            case "csv":
                let rows = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                #expect(rows.first == "section,item,category,kind,x,y,width,height,centerX,centerY,a,b,c,d,tx,ty,alpha,zIndex,hidden")
                for row in rows { #expect(row.split(separator: ",", omittingEmptySubsequences: false).count == 19) }
            default:
                #expect(text.hasPrefix("<?xml") && text.hasSuffix("</svg>\n"))
                #expect(XMLWellFormedness.check(first.stdout), "\(arguments): SVG is not well-formed XML")
            }
        }
        #expect(succeeded >= 15, "only \(succeeded) of 40 random runs succeeded")
    }
}

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses a document with Foundation's XMLParser.
enum XMLWellFormedness {
    static func check(_ bytes: [UInt8]) -> Bool {
        XMLParser(data: Data(bytes)).parse()
    }
}
