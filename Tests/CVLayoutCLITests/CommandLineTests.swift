import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import CVLayoutCLI
@testable import LayoutCore
import LayoutDatasets

/// The command line, in process: formats, queries, options from datasets, output files.
struct CommandLineTests {
    func json(_ result: CommandResult) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
    }

    func frames(_ object: [String: Any]) -> [[String: Double]] {
        (object["elements"] as? [[String: Any]] ?? []).map { ($0["frame"] as? [String: Double]) ?? [:] }
    }

    @Test func theReadmeCommandPrintsTheSeedRingsWithTheAnimatedHeart() throws {
        let result = run(arguments: ["ring", "-f", "svg"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let svg = result.stdoutText
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.contains("xmlns=\"http://www.w3.org/2000/svg\""))
        // Ring 3's avatars at 3 and 9 o'clock reach 11.965 points past the 390-point bounds
        // (x = −11.965 and 381.485 + 20.48), and the 10-point labels "3:13" and "3:14" on the
        // left 1.76 further (0.3 · 10 · 4 = 12 from the centre, the avatar's radius 10.24):
        // the canvas holds them, out to whole points.
        #expect(svg.contains("width=\"416\" height=\"844\" viewBox=\"-14 0 416 844\""))
        #expect(svg.contains("class=\"heart-path\""))
        #expect(svg.contains("stroke-dasharray=\"4 4\""))
        // The heart: resting on the start avatar in an outer group, the motion alone in the
        // middle group (a browser turns the motion's group's own transform by `rotate="auto"`),
        // the pulse inside.
        #expect(svg.contains("<g class=\"heart\" transform=\"translate(195 222.24)\">\n<g><animateMotion dur=\"2s\""))
        #expect(svg.contains("rotate=\"auto\"") && svg.contains("fill=\"freeze\""))
        #expect(svg.contains("path=\"M 0 0 C 68.6 80.941 72.746 157.76 0 199.76\""))
        #expect(svg.contains("<g><animateTransform attributeName=\"transform\" type=\"scale\" values=\"0.6;1;1.2;1;0.6\" dur=\"1.5s\" repeatCount=\"indefinite\""))
        // 37 avatars, each drawn round, labelled by index path (four rings are four sections).
        #expect(svg.components(separatedBy: "<g><rect").count - 1 == 37)
        #expect(svg.contains(">3:14</text>"))
        let xml = try XMLDocument(xmlString: svg)
        #expect(xml.rootElement()?.name == "svg")
    }

    /// A whole JSON or CSV layout is streamed (laid out twice, never kept); a `--rect` query
    /// keeps the elements. A rect that holds everything must give the same bytes, snapped or
    /// not, for every engine that streams, past the size where formatting goes parallel.
    @Test(arguments: ["waterfall", "ring", "flow", "line", "carousel", "stack", "circle"])
    func streamedOutputEqualsTheKeptLayout(engine: String) throws {
        let size = engine == "ring" ? ["--count", "60"]
            : engine == "flow" ? ["--count", "20000", "--header-size", "0,40", "--pin-headers", "--offset", "0,3000"]
            : ["--count", "20000"]
        for extra in [[], ["--scale", "3"], ["-f", "csv", "--precision", "full"]] {
            let streamed = run(arguments: [engine] + size + extra)
            let kept = run(arguments: [engine] + size + extra + ["--rect", "-1e12,-1e12,3e12,3e12"])
            #expect(streamed.status == 0 && kept.status == 0)
            #expect(streamed.stdout.count > 100_000)
            #expect(streamed.stdout == kept.stdout, "\(engine) \(extra)")
        }
        // Up to 8,192 elements (as the check, or the waterfall CSV's count without laying
        // out, tells) the calling thread formats alone; the same bytes.
        for format in ["json", "csv"] {
            let streamed = run(arguments: [engine, "--count", "100", "-f", format])
            let kept = run(arguments: [engine, "--count", "100", "-f", format, "--rect", "-1e12,-1e12,3e12,3e12"])
            #expect(streamed.status == 0 && streamed.stdout.count > 1_000 && streamed.stdout == kept.stdout, "\(engine) \(format)")
        }
        // SVG has no --rect here (it would be outlined): --target-offset keeps the elements
        // and changes nothing an SVG shows. Stack and carousel are not in zIndex order, so
        // their SVG is always drawn from kept, sorted elements.
        let svgSize = engine == "ring" ? ["--count", "40"] : ["--count", "5000"]
        let streamed = run(arguments: [engine, "-f", "svg"] + svgSize)
        let kept = run(arguments: [engine, "-f", "svg", "--target-offset", "0,0"] + svgSize)
        #expect(streamed.status == 0 && kept.status == 0)
        #expect(streamed.stdout == kept.stdout, "\(engine) svg")
    }

    /// An SVG transform is applied about the element's centre as one matrix; when that
    /// matrix's translation would overflow, as three steps (it was written as 0, scaling the
    /// item about the origin). Found by a tester.
    @Test func svgTransformsAboutTheCentreNeverOverflow() throws {
        let small = run(arguments: ["line", "--min-scale", "2", "--count", "2", "-f", "svg"])
        #expect(small.status == 0 && small.stdoutText.contains(#"transform="matrix(2 0 0 2 -195 -422)""#))
        let huge = run(arguments: ["line", "--min-scale", "1e308", "--count", "2", "-f", "svg"])
        #expect(huge.status == 0)
        let first = huge.stdoutText.components(separatedBy: "transform=\"").dropFirst().first ?? ""
        #expect(first.hasPrefix("translate(195 422) matrix(1000000"), "\(first.prefix(60))")
        #expect(first.contains(" 0 0) translate(-195 -422)\""), "\(first.suffix(60))")
        #expect(try XMLDocument(xmlString: huge.stdoutText).rootElement()?.name == "svg")
    }

    /// `-o -` is standard output, as in most Unix tools (it wrote a file named `-`). Found by
    /// a tester.
    @Test func outputDashIsStandardOutput() throws {
        for arguments in [["stack", "--count", "2"], ["stack", "--count", "2", "-f", "csv"],
                          ["transition", "--from", "stack", "--to", "circle", "--count", "2"]] {
            let plain = run(arguments: arguments), dash = run(arguments: arguments + ["-o", "-"])
            #expect(plain.status == 0 && dash.status == 0 && !dash.stdout.isEmpty && dash.stdout == plain.stdout, "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    /// `cvlayout --help COMMAND` is `cvlayout COMMAND --help` for subcommands too (it printed
    /// the general help), and an empty file name is shown as `''`. Found by a tester.
    @Test func helpForEveryCommandAndEmptyNames() throws {
        for command in ["diff", "transition", "ring", "engines", "manpage"] {
            let viaHelp = run(arguments: ["--help", command]), direct = run(arguments: [command, "--help"])
            #expect(viaHelp.status == 0 && viaHelp.stdout == direct.stdout, "\(command)")
            #expect(viaHelp.stdoutText.hasPrefix("USAGE: cvlayout \(command)"), "\(command)")
        }
        let dataset = run(arguments: ["waterfall", ""])
        #expect(dataset.status == 66 && dataset.stderr == "cvlayout: error: '': cannot open: no such file\n")
        let diff = run(arguments: ["diff", "", "-"])
        #expect(diff.status == 2 && diff.stderr == "cvlayout: error: '': cannot open: no such file\n")
    }

    /// A waterfall CSV is vouched for without its content size; when the same job must also
    /// give its JSON (`--check` with a JSON golden) the content size is computed then, and
    /// `-o` still gets the CSV.
    @Test func csvJobComparedWithAJSONGolden() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = try writeOutput(of: ["waterfall", "--count", "3000", "--scale", "3"], to: dir.appendingPathComponent("golden.json"))
        let csv = dir.appendingPathComponent("out.csv")
        let same = run(arguments: ["waterfall", "--count", "3000", "--scale", "3", "-f", "csv",
                                   "--check", golden.path, "-o", csv.path])
        #expect(same.status == 0 && same.stdout.isEmpty && same.stderr.isEmpty, "\(same.stderr)")
        #expect(try Data(contentsOf: csv) == Data(run(arguments: ["waterfall", "--count", "3000", "--scale", "3", "-f", "csv"]).stdout))
        let different = run(arguments: ["waterfall", "--count", "3000", "--item-spacing", "11", "-f", "csv", "--check", golden.path])
        #expect(different.status == 1 && different.stderr.contains("contentSize"), "\(different.stderr)")
    }

    @Test func jsonHasOneElementPerLineInKeyOrder() throws {
        let result = run(arguments: ["waterfall", "--count", "5"])
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == 3 + 5 + 1)
        #expect(lines[0] == #"{"engine":"waterfall","bounds":{"width":390,"height":844},"contentOffset":{"x":0,"y":0},"#)
        #expect(lines[2] == #""elements":["#)
        #expect(lines[3].hasPrefix(#"{"indexPath":[0,0],"category":"cell","frame":{"x":0,"y":0,"width":123.333,"#))
        #expect(lines[3].hasSuffix(#""transform":[1,0,0,1,0,0],"alpha":1,"zIndex":0,"hidden":false},"#))
        #expect(lines.last == "]}")
        let object = try json(result)
        #expect((object["elements"] as? [Any])?.count == 5)
    }

    @Test func embeddedWaterfallDataIsTheSeedsRandomHeights() throws {
        // SplitMix64 from seed 1: the first output is 0x910A2DEC89025CC1.
        var g = SplitMix64(seed: 1)
        let first = g.next()
        #expect(first == 0x910A_2DEC_8902_5CC1)
        let object = try json(run(arguments: ["waterfall", "--count", "1"]))
        #expect(frames(object)[0]["height"] == 50 + Double(first % 100))
        let other = try json(run(arguments: ["waterfall", "--count", "1", "--seed", "2"]))
        var g2 = SplitMix64(seed: 2)
        #expect(frames(other)[0]["height"] == 50 + Double(g2.next() % 100))
    }

    /// Issue 28: `--seed` reads integers as every integer flag does (`1e3`, `1000.0`), and
    /// plain digits exactly up to 2⁶⁴ − 1.
    @Test func seedTakesTheIntegerSyntaxOfEveryFlag() throws {
        var g = SplitMix64(seed: 1000)
        let height = 50 + Double(g.next() % 100)
        for text in ["1000", "1e3", "1000.0", "+1000"] {
            let result = run(arguments: ["waterfall", "--count", "1", "--seed", text])
            #expect(result.status == 0, "\(text)")
            #expect(try frames(json(result))[0]["height"] == height, "\(text)")
        }
        var top = SplitMix64(seed: UInt64.max)
        let last = try json(run(arguments: ["waterfall", "--count", "1", "--seed", "18446744073709551615"]))
        #expect(frames(last)[0]["height"] == 50 + Double(top.next() % 100))
        #expect(ValueSyntax.unsignedInteger("9007199254740993") == 9_007_199_254_740_993)
        #expect(ValueSyntax.unsignedInteger("1e16") == nil && ValueSyntax.isOutOfRangeInteger("1e16"))
        #expect(ValueSyntax.integer("9007199254740991") == 9_007_199_254_740_991)
        #expect(ValueSyntax.integer("9007199254740992") == nil && ValueSyntax.isOutOfRangeInteger("9007199254740992"))
        #expect(!ValueSyntax.isOutOfRangeInteger("2.5") && !ValueSyntax.isOutOfRangeInteger("12x"))
    }

    @Test func csvHasTheHeaderAndOneRowPerElement() throws {
        let result = run(arguments: ["waterfall", "--count", "3", "--header-height", "20", "-f", "csv"])
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "section,item,category,kind,x,y,width,height,centerX,centerY,a,b,c,d,tx,ty,alpha,zIndex,hidden")
        #expect(lines[1] == "0,0,supplementaryView,header,0,0,390,20,195,10,1,0,0,1,0,0,1,0,false")
        #expect(lines[2].hasPrefix("0,0,cell,,0,20,123.333,"))
        #expect(lines.count == 1 + 4 + 1 && lines.last == "")
        #expect(!result.stdoutText.contains("\r"))
    }

    @Test func rectQueryEqualsTheBruteForceFilter() throws {
        var g = SplitMix64(seed: 11)
        for _ in 0..<25 {
            let base = ["waterfall", "--count", "\(g.next() % 200)", "--columns", "\(1 + g.next() % 4)",
                        "--seed", "\(g.next() % 1000)", "--precision", "full", "--header-height", "30"]
            let x = Double(g.next() % 400) - 20, y = Double(g.next() % 3000) - 20
            let w = Double(g.next() % 300), h = Double(g.next() % 900)
            let everything = try json(run(arguments: base))["elements"] as! [[String: Any]]
            let brute = everything.filter { e in
                let f = e["frame"] as! [String: Double]
                return f["x"]! < x + w && x < f["x"]! + f["width"]! && f["y"]! < y + h && y < f["y"]! + f["height"]!
            }
            let answer = try json(run(arguments: base + ["--rect", "\(x),\(y),\(w),\(h)"]))["elements"] as! [[String: Any]]
            #expect(answer.map { $0["indexPath"] as! [Int] } == brute.map { $0["indexPath"] as! [Int] })
            #expect(answer.map { $0["category"] as! String } == brute.map { $0["category"] as! String })
        }
    }

    @Test func touchingEdgesDoNotIntersect() throws {
        // Heights 100 in one column: item 0 spans 0…100; a rect starting at y = 100 misses it.
        let dir = try temporaryDirectory()
        let data = dir.appendingPathComponent("d.json")
        try Data("[100, 100]".utf8).write(to: data)
        let result = try json(run(arguments: ["waterfall", "--columns", "1", "--item-spacing", "0", "--rect", "0,100,10,10", data.path]))
        #expect((result["elements"] as! [[String: Any]]).map { $0["indexPath"] as! [Int] } == [[0, 1]])
    }

    @Test func itemReturnsTheOneCell() throws {
        let all = try json(run(arguments: ["ring"]))["elements"] as! [[String: Any]]
        let one = try json(run(arguments: ["ring", "--item", "2:5"]))["elements"] as! [[String: Any]]
        #expect(one.count == 1)
        #expect(one[0]["indexPath"] as! [Int] == [2, 5])
        let expected = all.first { ($0["indexPath"] as! [Int]) == [2, 5] }!
        #expect(NSDictionary(dictionary: one[0]) == NSDictionary(dictionary: expected))
        // `I` alone means `0:I`: ring 0 has one item, so 0:0 exists and 0:3 does not.
        let short = try json(run(arguments: ["ring", "--item", "0"]))["elements"] as! [[String: Any]]
        #expect(short.map { $0["indexPath"] as! [Int] } == [[0, 0]])
        #expect(run(arguments: ["ring", "--item", "3"]).status == 64)
    }

    @Test func ringJSONCarriesTheHeartPath() throws {
        let object = try json(run(arguments: ["ring", "--width", "428", "--height", "926"]))
        let heart = try #require(object["heartPath"] as? [String: Any])
        #expect(heart["from"] as? [Int] == [3, 0])
        #expect(heart["to"] as? [Int] == [0, 0])
        #expect(heart["style"] as? String == "seed")
        #expect(heart["d"] as? String == "M 214 263.24 C 282.6 344.181 286.746 421 214 463")
        let none = try json(run(arguments: ["ring", "--no-heart"]))
        #expect(none["heartPath"] == nil)
        let from = try json(run(arguments: ["ring", "--heart-from", "1:3", "--width", "428", "--height", "926"]))
        #expect((from["heartPath"] as? [String: Any])?["d"] as? String == "M 214 547 C 214 519 214 491 214 463")
    }

    @Test func datasetOptionsApplyAndTheCommandLineWins() throws {
        let dir = try temporaryDirectory()
        let data = dir.appendingPathComponent("d.json")
        try Data(#"{"options": {"columns": 2, "insets": "10,10,10,10", "format": "csv"}, "heights": [10, 20, 30]}"#.utf8).write(to: data)
        let csv = run(arguments: ["waterfall", data.path])
        #expect(csv.status == 0)
        // Two columns of (390 − 20 − 10)/2 = 180.
        #expect(csv.stdoutText.split(separator: "\n")[1] == "0,0,cell,,10,10,180,10,100,15,1,0,0,1,0,0,1,0,false")
        let overridden = run(arguments: ["waterfall", "--columns", "1", "-f", "json", data.path])
        #expect(try frames(json(overridden))[0]["width"] == 370)
    }

    @Test func stdinIsReadForDash() throws {
        let result = run(arguments: ["ring", "-"], stdin: { Data("[1, 3]".utf8) })
        #expect(result.status == 0)
        #expect((try json(result)["elements"] as? [Any])?.count == 4)
        let bad = run(arguments: ["ring", "-"], stdin: { Data("[1, x]".utf8) })
        #expect(bad.status == 65 && bad.stderr.hasPrefix("cvlayout: error: <stdin>:1:5: invalid JSON"))
    }

    @Test func precisionAndPixelSnapping() throws {
        let full = try frames(json(run(arguments: ["waterfall", "--count", "1", "--precision", "full"])))
        #expect(full[0]["width"] == 370.0 / 3)
        let zero = run(arguments: ["waterfall", "--count", "1", "--precision", "0", "-f", "csv"])
        #expect(zero.stdoutText.split(separator: "\n")[1].hasPrefix("0,0,cell,,0,0,123,"))
        let snapped = try frames(json(run(arguments: ["waterfall", "--count", "3", "--scale", "2", "--precision", "full"])))
        // Edges 0, 123.333 → 123.5; 133.333 → 133.5; 256.667 → 256.5; 266.667 → 266.5, 390.
        #expect(snapped[0]["width"] == 123.5)
        #expect(snapped[1]["x"] == 133.5 && snapped[1]["width"] == 123)
        #expect(snapped[2]["x"] == 266.5 && snapped[2]["x"]! + snapped[2]["width"]! == 390)
    }

    @Test func outputFileIsWrittenAtomicallyAndLeftAloneOnError() throws {
        let dir = try temporaryDirectory()
        let out = dir.appendingPathComponent("layout.csv")
        let ok = run(arguments: ["waterfall", "--count", "2", "-o", out.path])
        #expect(ok.status == 0 && ok.stdout.isEmpty)
        let written = try String(contentsOf: out, encoding: .utf8)
        #expect(written.hasPrefix("section,item,category"))  // format from the extension
        for args in [["waterfall", "--columns", "0"], ["waterfall", "--bogus"], ["waterfall", "/nonexistent.json"],
                     ["ring", "--heart-from", "9:9"], ["waterfall", "--item", "5:5"]] {
            let failed = run(arguments: args + ["-o", out.path])
            #expect(failed.status != 0)
            #expect(try String(contentsOf: out, encoding: .utf8) == written)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["layout.csv"])
    }

    @Test func writeErrorsGive74AndLeaveNoTemporaryFile() throws {
        let full = run(arguments: ["waterfall", "-o", "/dev/full"])
        #expect(full.status == 74)
        #expect(full.stderr.hasPrefix("cvlayout: error: cannot write '/dev/full'"))
    }

    @Test func outputIsIdenticalOnEveryRun() {
        for args in [["ring", "-f", "svg"], ["waterfall", "-f", "csv"], ["waterfall", "--precision", "full"]] {
            #expect(run(arguments: args).stdout == run(arguments: args).stdout)
        }
    }

    @Test func helpListsEveryOptionWithItsDefault() {
        for descriptor in engineRegistry {
            let help = run(arguments: [descriptor.name, "--help"])
            #expect(help.status == 0 && help.stderr.isEmpty)
            for option in descriptor.options + globalOptions {
                #expect(help.stdoutText.contains("--\(option.name)"), "\(descriptor.name) --help lacks --\(option.name)")
                if option.valueName != nil {
                    #expect(help.stdoutText.contains("(default: \(option.defaultText))"))
                }
            }
        }
        let global = run(arguments: ["--help"])
        #expect(global.status == 0 && global.stdoutText.contains("USAGE: cvlayout ENGINE [OPTIONS] [DATASET]"))
        #expect(run(arguments: ["--version"]).stdoutText == "cvlayout \(cvlayoutVersion)\n")
        let engines = run(arguments: ["engines"]).stdoutText.split(separator: "\n")
        #expect(engines.count == engineRegistry.count)
        #expect(engines.first?.hasPrefix("waterfall ") == true)
    }

    @Test func theLastOfARepeatedFlagWinsAndHelpTakesAnEngine() {
        #expect(run(arguments: ["waterfall", "--columns", "5", "--columns", "2"]).stdout
                == run(arguments: ["waterfall", "--columns", "2"]).stdout)
        #expect(run(arguments: ["--help", "ring"]).stdout == run(arguments: ["ring", "--help"]).stdout)
        #expect(run(arguments: ["--help", "ring"]).stdoutText.hasPrefix("USAGE: cvlayout ring"))
    }

    @Test func flagSyntaxes() throws {
        let a = run(arguments: ["ring", "--start-angle", "-45", "--item", "1:0"])
        let b = run(arguments: ["ring", "--start-angle=-45", "--item=1:0"])
        #expect(a.status == 0 && a.stdout == b.stdout)
        let c = run(arguments: ["ring", "-fcsv"])
        let d = run(arguments: ["ring", "-f", "csv"])
        #expect(c.stdout == d.stdout && c.status == 0)
        let dir = try temporaryDirectory()
        let dash = dir.appendingPathComponent("-rings.json")
        try Data("[1, 2]".utf8).write(to: dash)
        let e = run(arguments: ["ring", "--", dash.path])
        #expect(e.status == 0)
        let rect = run(arguments: ["waterfall", "--rect", "-12,0,10,10"])
        #expect(rect.status == 0)
    }
}
