import Foundation
import Testing
@testable import CVLayoutCLI
import LayoutCore
import LayoutDatasets

/// Properties every engine of the registry must have, checked over random settings drawn from
/// its own option table: a new engine is covered by adding its registry line, without editing
/// this file. Every number is finite; a rect query equals the brute-force filter of the whole
/// layout; `--item` is the cell at that index path; the streamed layout (a whole JSON or CSV,
/// never kept) equals the kept one; each option refuses a malformed value, from the command
/// line (64) and from a dataset's "options" (65).
struct RegistryPropertiesTests {
    /// A random value for an option of `spec`'s kind, read off its value placeholder.
    static func randomValue(_ spec: OptionSpec, _ g: inout SplitMix64) -> String? {
        func number(_ range: ClosedRange<Int>) -> String { String(range.lowerBound + Int(g.next() % UInt64(range.count))) }
        if !spec.choices.isEmpty { return spec.choices[Int(g.next() % UInt64(spec.choices.count))] }
        switch spec.valueName {
        case "PT": return number(0...40)
        case "F": return "0.\(number(0...9))"
        case "DEG": return number(-180...180)
        case "N": return number(1...5)
        case "W,H": return "\(number(10...160)),\(number(10...160))"
        case "T,L,B,R": return [number(0...12), number(0...12), number(0...12), number(0...12)].joined(separator: ",")
        case "DEG,…": return (0..<Int(g.next() % 5)).map { _ in number(-90...90) }.joined(separator: ",")
        default: return nil  // index paths and the like: left at their defaults
        }
    }

    /// Random arguments for `engine`: some of its options, a count and an offset.
    static func randomArguments(_ engine: EngineDescriptor, seed: UInt64) -> [String] {
        var g = SplitMix64(seed: seed)
        var arguments = [engine.name, "--count", String(g.next() % (engine.name == RingLayout.name ? 6 : 120)),
                         "--offset", "\(g.next() % 400),\(g.next() % 400)"]
        for spec in engine.options where g.next() % 2 == 0 && !spec.name.hasPrefix("heart") {
            if spec.valueName == nil {
                arguments.append("--" + spec.name)
            } else if let value = randomValue(spec, &g) {
                arguments += ["--" + spec.name, value]
            }
        }
        return arguments
    }

    static let cases: [String] = engineRegistry.flatMap { engine in (1...12).map { "\(engine.name) \($0)" } }

    static func elements(_ json: [UInt8]) throws -> [[String: Any]] {
        let object = try #require(JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        return try #require(object["elements"] as? [[String: Any]])
    }

    static func frame(_ element: [String: Any]) -> (Double, Double, Double, Double) {
        let f = element["frame"] as! [String: Double]
        return (f["x"]!, f["y"]!, f["width"]!, f["height"]!)
    }

    /// The members of a small dataset of `schema`, to go beside an `"options"` object.
    static func minimalData(_ schema: DatasetSchema) -> String {
        switch schema {
        case .ringCounts: #""rings": [1, 2]"#
        case .compositional: #""sections": []"#
        case .grid: #""columns": [{"fixed": 10}], "sections": []"#
        case .items: #""heights": [1]"#
        }
    }

    /// Each engine's declared pass capabilities match its entry points (streams with `stream`
    /// and `check`, vouches without laying out with `quickCheck`), and say what each engine
    /// does today: the waterfall vouches without laying out, the ring, the circle and the
    /// justified engine check from a summary, the others visit every element.
    @Test func passCapabilitiesMatchTheEntryPoints() {
        let summaryChecks: Set = ["waterfall", "ring", "circle", "justified"]
        for engine in engineRegistry {
            let capabilities = engine.capabilities
            #expect(capabilities.streams == (engine.stream != nil && engine.check != nil), "\(engine.name)")
            #expect(capabilities.vouchesWithoutLayingOut == (engine.quickCheck != nil), "\(engine.name)")
            #expect(capabilities.vouchesWithoutLayingOut == (engine.name == "waterfall"), "\(engine.name)")
            #expect(capabilities.summaryCheck == summaryChecks.contains(engine.name), "\(engine.name)")
            #expect(capabilities.streams, "\(engine.name)")
        }
    }

    /// Each registry line's name is its descriptor's, and names are unique: `engine(named:)`
    /// finds an engine by the line's name without making the other descriptors.
    @Test func registryNamesAreTheDescriptorsNames() {
        #expect(engineEntries.map(\.name) == engineRegistry.map(\.name))
        #expect(Set(engineEntries.map(\.name)).count == engineEntries.count)
        for entry in engineEntries { #expect(engine(named: entry.name)?.name == entry.name) }
        #expect(engine(named: "nope") == nil)
    }

    @Test(arguments: cases)
    func everyEngineKeepsItsPromises(_ testCase: String) throws {
        let parts = testCase.split(separator: " ")
        let descriptor = engineRegistry.first { $0.name == parts[0] }
        let engine = try #require(descriptor)
        let arguments = Self.randomArguments(engine, seed: UInt64(parts[1])! * 7919 + UInt64(engine.name.count))
        let streamed = run(arguments: arguments + ["--precision", "full"])
        guard streamed.status == 0 else {
            // Settings the engine cannot lay out (columns that do not fit…): bad data, one line;
            // or options that cannot go together: a usage error with its help line.
            let lines = streamed.stderr.split(separator: "\n")
            #expect(streamed.status == 65 || streamed.status == 64, "\(arguments): \(streamed.stderr)")
            #expect(lines.count == (streamed.status == 64 ? 2 : 1), "\(streamed.stderr)")
            return
        }
        // Finite numbers only.
        let text = streamed.stdoutText.lowercased()
        #expect(!text.contains("nan") && !text.contains("inf"), "\(arguments)")
        // The kept layout (a --target-offset query keeps the elements) has the same bytes but
        // for the added field.
        let kept = run(arguments: arguments + ["--precision", "full", "--target-offset", "0,0"]).stdoutText
        // The added member is `,"targetContentOffset":{"x":0,"y":0}` (after a line break when
        // it follows the elements).
        let keptLayout = kept.replacingOccurrences(of: #",\n?"targetContentOffset":\{"x":0,"y":0\}"#, with: "",
                                                   options: .regularExpression)
        #expect(keptLayout == streamed.stdoutText, "\(arguments)")
        #expect(run(arguments: arguments + ["-f", "csv"]).stdout
                == run(arguments: arguments + ["-f", "csv", "--target-offset", "0,0"]).stdout)

        // A rect query is the brute-force filter (strict overlap on the frames as printed).
        let all = try Self.elements(streamed.stdout)
        var g = SplitMix64(seed: UInt64(all.count) + 17)
        for _ in 0..<3 {
            let rect = (Double(g.next() % 500) - 50, Double(g.next() % 1500) - 50,
                        Double(g.next() % 400), Double(g.next() % 900))
            let query = run(arguments: arguments + ["--precision", "full",
                                                    "--rect", "\(rect.0),\(rect.1),\(rect.2),\(rect.3)"])
            #expect(query.status == 0)
            let expected = all.filter { e in
                let (x, y, w, h) = Self.frame(e)
                return x < rect.0 + rect.2 && rect.0 < x + w && y < rect.1 + rect.3 && rect.1 < y + h
            }
            let answered = try Self.elements(query.stdout)
            #expect(answered.map { Self.frame($0).0 } == expected.map { Self.frame($0).0 }, "\(arguments) rect \(rect)")
            #expect(answered.map { $0["indexPath"] as! [Int] } == expected.map { $0["indexPath"] as! [Int] })
        }
        // --item is the cell at that index path.
        if let cell = all.first(where: { $0["category"] as? String == "cell" }) {
            let path = cell["indexPath"] as! [Int]
            let item = run(arguments: arguments + ["--precision", "full", "--item", "\(path[0]):\(path[1])"])
            let answered = try Self.elements(item.stdout)
            #expect(answered.count == 1 && answered[0]["indexPath"] as? [Int] == path)
            #expect(Self.frame(answered[0]) == Self.frame(cell))
        }
    }

    /// Every option of every engine, given a malformed value: a usage error naming it on the
    /// command line, bad data naming its JSON path in a dataset's "options".
    @Test(arguments: engineRegistry.flatMap { engine in engine.options.map { "\(engine.name) \($0.name)" } })
    func everyOptionRefusesAMalformedValue(_ testCase: String) throws {
        let parts = testCase.split(separator: " ").map(String.init)
        let descriptor = engineRegistry.first { $0.name == parts[0] }
        let engine = try #require(descriptor)
        let spec = try #require(engine.options.first { $0.name == parts[1] })
        if spec.valueName == nil {
            let given = run(arguments: [engine.name, "--\(spec.name)=yes"])
            #expect(given.status == 64 && given.stderr.hasPrefix("cvlayout: error: --\(spec.name) takes no value"))
            let data = Self.minimalData(engine.schema)
            let fromData = run(arguments: [engine.name, "-"], stdin: { Data("{\"options\": {\"\(spec.name)\": 3}, \(data)}".utf8) })
            #expect(fromData.status == 65 && fromData.stderr.contains("options.\(spec.name): expected true or false"),
                    "\(fromData.stderr)")
            return
        }
        // A file name cannot be malformed but when empty (a missing file is 66, tested with its option).
        let malformed = spec.valueName == "FILE" ? "" : "x?"
        let given = run(arguments: [engine.name, "--\(spec.name)", malformed])
        #expect(given.status == 64, "\(given.stderr)")
        #expect(given.stderr.hasPrefix("cvlayout: error: --\(spec.name)"), "\(given.stderr)")
        #expect(given.stdout.isEmpty)
        let data = Self.minimalData(engine.schema)
        let fromData = run(arguments: [engine.name, "-"], stdin: { Data("{\"options\": {\"\(spec.name)\": \"\(malformed)\"}, \(data)}".utf8) })
        #expect(fromData.status == 65, "\(fromData.stderr)")
        #expect(fromData.stderr.hasPrefix("cvlayout: error: <stdin>: options.\(spec.name): "), "\(fromData.stderr)")
        #expect(fromData.stderr.split(separator: "\n").count == 1)
    }
}
