import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import CVLayoutCLI

/// `cvlayout transition`, `--delete/--insert/--move` and `--heart-samples` through the
/// testable entry point.
struct TransitionCommandTests {
    /// The element lines of a JSON document, without a transition's extra keys.
    func elementLines(_ json: String) -> [String] {
        json.split(separator: "\n").filter { $0.hasPrefix("{\"indexPath\"") }.map { line in
            var s = String(line).replacingOccurrences(of: "},", with: "}", options: [.backwards, .anchored])
            if let range = s.range(of: ",\"change\":") { s = String(s[..<range.lowerBound]) + "}" }
            return s
        }
    }

    @Test func endsEqualTheEnginesOutput() {
        let size = ["--width", "375", "--height", "400"]
        let stack = run(arguments: ["stack"] + size), circle = run(arguments: ["circle"] + size)
        let start = run(arguments: ["transition", "--from", "stack", "--to", "circle", "--progress", "0"] + size)
        let end = run(arguments: ["transition", "--from", "stack", "--to", "circle --radius 100"] + size)
        #expect(start.status == 0 && end.status == 0, "\(start.stderr)\(end.stderr)")
        #expect(elementLines(start.stdoutText) == elementLines(stack.stdoutText))
        #expect(elementLines(end.stdoutText) == elementLines(circle.stdoutText))
        #expect(start.stdoutText.hasPrefix("{\"engine\":\"transition\",\"from\":\"stack\",\"to\":\"circle\",\"progress\":0,"))
    }

    @Test func halfwayValues() {
        let result = run(arguments: ["transition", "--from", "stack", "--to", "circle", "--width", "375", "--height", "400",
                                     "--progress", "0.5", "-f", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdoutText.split(separator: "\n")
        #expect(rows[0] == "section,item,category,kind,x,y,width,height,centerX,centerY,a,b,c,d,tx,ty,alpha,zIndex,hidden,change,fromSection,fromItem,toSection,toItem")
        // Item 4: centre (137.5, 200), 105 × 105, rotated 30°; item 6 fades in.
        #expect(rows[5] == "0,4,cell,,85,147.5,105,105,137.5,200,0.866,0.5,-0.5,0.866,0,0,1,0,false,stay,0,4,0,4")
        #expect(rows[7].hasSuffix(",1,0,0,1,0,0,0.5,0,false,stay,0,6,0,6"))
    }

    @Test func deletingAnimatesTheUpdate() {
        let result = run(arguments: ["transition", "--from", "circle", "--delete", "3", "--width", "375", "--height", "400",
                                     "--progress", "0.5", "-f", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(rows.count == 9)
        #expect(rows[4].hasSuffix(",move,0,4,0,3"))
        #expect(rows[8].hasPrefix("0,3,cell,") && rows[8].hasSuffix(",0.5,0,false,disappear,0,3,,"))
    }

    @Test func aFadedLabelKeepsTheColourOfAlphaOneBecauseItFadesWithItsShape() {
        // The carousel's item 10 is drawn at alpha 0.5 on the first palette colour. The still
        // picture draws its label at full opacity over the lighter fill: near-black. The
        // transition fades the label with its shape (one group): white stays the better.
        let still = run(arguments: ["carousel", "--count", "11", "-f", "svg"]).stdoutText
        #expect(still.contains("opacity=\"0.5\" x=\"95\" y=\"2422\" width=\"200\" height=\"200\" rx=\"4\" fill=\"#4e79a7\"/>"
                               + "<text x=\"195\" y=\"2526.9\" font-family=\"sans-serif\" font-size=\"14\" "
                               + "text-anchor=\"middle\" fill=\"#1a1a1a\">10</text>"))
        let transition = run(arguments: ["transition", "--from", "carousel --count 11", "-f", "svg"]).stdoutText
        #expect(transition.contains("<g class=\"stay\" opacity=\"0.5\" transform=\"translate(195 2522)\">"
                                    + "<g transform=\"scale(0.5 0.5)\"><rect data-index-path=\"0:10\" x=\"-100\" y=\"-100\" "
                                    + "width=\"200\" height=\"200\" data-change=\"stay\" rx=\"4\" fill=\"#4e79a7\"></rect>"
                                    + "<text x=\"0\" y=\"4.9\" font-family=\"sans-serif\" font-size=\"14\" "
                                    + "text-anchor=\"middle\" fill=\"#ffffff\">10</text></g></g>"))
    }

    @Test func hiddenItemsThatAppearOrDisappearStayHiddenWithoutFading() {
        // The stack shows 5 angles: an inserted 6th item is hidden at the end, so nothing fades.
        let inserted = run(arguments: ["transition", "--from", "stack", "--count", "5", "--insert", "0:5",
                                       "--progress", "0.5", "-f", "csv"])
        #expect(inserted.status == 0, "\(inserted.stderr)")
        #expect(inserted.stdoutText.split(separator: "\n").last?.hasSuffix(",1,0,0,1,0,0,1,0,true,appear,,,0,5") == true)
        let deleted = run(arguments: ["transition", "--from", "stack", "--count", "6", "--delete", "0:5",
                                      "--progress", "0.25", "-f", "csv"])
        #expect(deleted.stdoutText.split(separator: "\n").last?.hasSuffix(",1,0,true,disappear,0,5,,") == true)
    }

    @Test func aDatasetInsideTheQuotesWinsOverTheSharedOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-t-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let one = directory.appendingPathComponent("one.json"), three = directory.appendingPathComponent("three.json")
        try Data("[[50,50]]".utf8).write(to: one)
        try Data("[[10,10],[20,20],[30,30]]".utf8).write(to: three)
        let result = run(arguments: ["transition", "--from", "circle \(one.path)", "--to", "stack", three.path,
                                     "--progress", "0", "-f", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        // At progress 0: the circle's single 50 × 50 item from one.json, at 0° on radius 100.
        let rows = result.stdoutText.split(separator: "\n")
        #expect(rows.count == 2 && rows[1].hasPrefix("0,0,cell,,270,397,50,50,"))
    }

    @Test func updatesOnAnyEngine() {
        let circle = run(arguments: ["circle", "--delete", "0:3", "-f", "csv"])
        #expect(circle.status == 0 && circle.stdoutText.split(separator: "\n").count == 8)
        // Delete then insert the same item restores the layout (dataset round trip).
        let heights = "[120, 80, 200, 50, 90]"
        let deleted = run(arguments: ["waterfall", "--delete", "0:2", "-"]) { Data(heights.utf8) }
        #expect(deleted.status == 0)
        let original = run(arguments: ["waterfall", "-"]) { Data(heights.utf8) }
        let replaced = run(arguments: ["waterfall", "--delete", "0:2", "--insert", "0:2=200", "-"]) { Data(heights.utf8) }
        #expect(replaced.stdout == original.stdout)
        // A move gives UIKit's index paths: 0:1 -> 0:3 on heights A B C D E is A C D B E.
        let moved = run(arguments: ["waterfall", "--columns", "1", "--item-spacing", "0", "--move", "0:1->0:3", "-f", "csv", "-"]) {
            Data(heights.utf8)
        }
        let heightsColumn = moved.stdoutText.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[7] }
        #expect(heightsColumn == ["120", "200", "50", "80", "90"])
        // Embedded data works too: ring counts, waterfall heights.
        #expect(run(arguments: ["ring", "--insert", "1:6", "-f", "csv"]).stdoutText.split(separator: "\n").count == 39)
        #expect(run(arguments: ["waterfall", "--move", "0:0->0:49"]).status == 0)
    }

    static let errorCases: [(arguments: [String], status: Int32)] = [
        (["circle", "--delete", "0:8"], 64),
        (["circle", "--delete", "0:1,0:1"], 64),
        (["circle", "--insert", "0:9"], 64),
        (["circle", "--move", "0:1-0:2"], 64),
        (["circle", "--insert", "0:2=5"], 65),
        (["waterfall", "--insert", "0:2"], 65),
        (["transition", "--to", "circle"], 64),
        (["transition", "--from", "circel"], 64),
        (["transition", "--from", "circle --rect 0,0,1,1"], 64),
        (["transition", "--from", "circle", "--progress", "1.5"], 65),
        (["transition", "--from", "circle", "--progress", "x"], 64),
        (["transition", "--from", "circle", "--duration", "0"], 65),
        (["transition", "--from", "'circle"], 64),
        (["transition", "--from", "ring", "--to", "circle", "--delete", "0:0"], 65),
        (["transition", "--from", "ring", "--to", "circle", "--delete", "1:0"], 64),
        (["ring", "--heart-samples", "0"], 65),
        (["ring", "--heart-samples", "3", "--no-heart"], 64),
        (["ring", "--heart-style", "smooth", "--heart-to", "9:0"], 64),
    ]

    @Test(arguments: errorCases)
    func errors(arguments: [String], status: Int32) {
        let result = run(arguments: arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.hasPrefix("cvlayout: error: "))
    }

    @Test func shellWordsSplitLikeAShell() throws {
        #expect(try shellWords("circle --radius 70", option: "from") == ["circle", "--radius", "70"])
        #expect(try shellWords("  flow  --insets '10, 20' \"a \\\"b\\\"\" c\\ d ", option: "from")
                == ["flow", "--insets", "10, 20", "a \"b\"", "c d"])
        #expect(try shellWords("''", option: "from") == [""])
        #expect(throws: CLIError.self) { try shellWords("a 'b", option: "from") }
    }

    @Test func stdinFeedsBothSides() {
        let result = run(arguments: ["transition", "--from", "stack", "--to", "circle", "-"]) { Data("[[40,40],[50,50]]".utf8) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(elementLines(result.stdoutText).count == 2)
    }

    /// Every usage error of a transition sends to its own help, naming the side whose words
    /// gave it; the shared options keep their own names.
    @Test(arguments: [
        (["--from", "ring --bogus"], "--from 'ring': unknown option '--bogus'"),
        (["--from", "ring", "--to", "ring --radius x"], "--to 'ring': --radius: expected a number, got 'x'"),
        (["--from", "ring", "--count", "x"], "--count: expected an integer, got 'x'"),
        (["--from", "ring", "--delete", "9"], "--delete 0:9: no such item (index path out of range: section 0 has 1 item)"),
        (["--from", "ring", "--bogus"], "unknown option '--bogus'"),
    ])
    func usageErrorsSendToTransitionsHelp(arguments: [String], message: String) {
        let result = run(arguments: ["transition"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr == "cvlayout: error: \(message)\nRun 'cvlayout transition --help' for usage.\n")
    }

    /// The dataset's options for the output apply to the transition's output (the command
    /// line wins); a query's are refused.
    @Test func theDatasetsOutputOptionsApply() {
        let dataset = #"{"rings": [1, 6], "options": {"labels": "none", "precision": 0, "format": "csv"}}"#
        let result = run(arguments: ["transition", "--from", "ring", "--to", "ring --radius 81", "-"]) { Data(dataset.utf8) }
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.first?.hasPrefix("section,item,category") == true)
        #expect(lines.count == 8, "\(result.stdoutText)")
        #expect(!lines.dropFirst().contains { $0.contains(".") }, "precision 0")
        let svg = run(arguments: ["transition", "--from", "ring", "-f", "svg", "-"]) { Data(dataset.utf8) }
        #expect(svg.status == 0 && !svg.stdoutText.contains("<text"))
        let labelled = run(arguments: ["transition", "--from", "ring", "-f", "svg", "--labels", "item", "-"]) { Data(dataset.utf8) }
        #expect(labelled.stdoutText.contains("<text"))
        let query = run(arguments: ["transition", "--from", "ring", "-"]) { Data(#"{"rings": [1], "options": {"rect": "0,0,1,1"}}"#.utf8) }
        #expect(query.status == 65 && query.stdout.isEmpty)
        #expect(query.stderr == "cvlayout: error: <stdin>: options.rect: 'rect' is not used by transitions (they write every "
                + "element of both layouts); remove it, or lay out one side with 'cvlayout ring'\n")
    }

    /// When the painting order changes, the two layers switch with `display`: a label's own
    /// `visibility="visible"` would show through a layer hidden with `visibility`.
    @Test func layersSwitchWithDisplay() {
        let svg = run(arguments: ["transition", "--from", "stack", "--to", "circle", "--delete", "0:2", "-f", "svg"]).stdoutText
        #expect(svg.contains("<g class=\"layer-start\" display=\"none\">\n<animate attributeName=\"display\" "
                             + "calcMode=\"discrete\" values=\"inline;none\" keyTimes=\"0;0.5\""), "\(svg.prefix(600))")
        #expect(svg.contains("<g class=\"layer-end\" display=\"inline\">\n<animate attributeName=\"display\" "
                             + "calcMode=\"discrete\" values=\"none;inline\" keyTimes=\"0;0.5\""))
        #expect(!svg.contains("<g class=\"layer-start\" visibility") && !svg.contains("<g class=\"layer-end\" visibility"))
    }

    @Test func heartSamplesInJSONAndCSV() {
        let args = ["ring", "--width", "428", "--height", "926", "--heart-style", "smooth", "--heart-from", "3:0",
                    "--heart-to", "3:9", "--heart-samples", "3"]
        let csv = run(arguments: args + ["-f", "csv"])
        #expect(csv.stdoutText == "t,x,y,angle\n0,214,263.24,0\n0.5,413.76,463,90\n1,214,662.76,180\n")
        let json = run(arguments: args)
        #expect(json.stdoutText.contains("\"style\":\"smooth\""))
        #expect(json.stdoutText.contains(",\n\"heartSamples\":[\n{\"t\":0,\"x\":214,\"y\":263.24,\"angle\":0},\n"))
        // The seed style is untouched.
        let seed = run(arguments: ["ring", "--width", "428", "--height", "926"])
        #expect(!seed.stdoutText.contains("heartSamples") && seed.stdoutText.contains("\"style\":\"seed\""))
    }

    @Test(arguments: [["--from", "stack", "--to", "circle"], ["--from", "circle", "--delete", "0:3", "--repeat"],
                      ["--from", "flow --header-size 0,40", "--to", "waterfall --columns 2 --header-height 40",
                       "--insert", "0:0=70"]])
    func svgIsWellFormed(arguments: [String]) throws {
        let result = run(arguments: ["transition"] + arguments + ["--count", "6", "-f", "svg"])
        #expect(result.status == 0, "\(result.stderr)")
        let parser = XMLParser(data: Data(result.stdout))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(result.stdoutText.contains("<animate"))
    }
}

/// `cvlayout transition … --check GOLDEN` compares as `cvlayout diff GOLDEN -` would.
struct TransitionCheckTests {
    @Test func transitionsTakeCheck() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transition-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = ["transition", "--from", "stack --count 5", "--to", "circle --count 5"]
        for format in ["json", "csv"] {
            let golden = dir.appendingPathComponent("t.\(format)").path
            #expect(run(arguments: base + ["--progress", "0.5", "-o", golden]).status == 0)
            let same = run(arguments: base + ["--progress", "0.5", "--check", golden])
            #expect(same.status == 0, "\(same.stderr)")
            #expect(same.stdout.isEmpty && same.stderr.isEmpty)
            let moved = run(arguments: base + ["--progress", "0.6", "--check", golden])
            let actual = run(arguments: base + ["--progress", "0.6", "-f", format])
            let diff = run(arguments: ["diff", golden, "-"], stdin: { Data(actual.stdout) })
            #expect(moved.status == 1 && diff.status == 1)
            #expect(moved.stdout.isEmpty)
            #expect(moved.stderr == diff.stdoutText.replacingOccurrences(of: "+++ <stdin>", with: "+++ cvlayout transition"))
            #expect(run(arguments: base + ["--progress", "0.6", "--check", golden, "--check-tolerance", "100"]).status == 0)
        }
        let inside = run(arguments: ["transition", "--from", "stack --check x"])
        #expect(inside.status == 64)
        #expect(inside.stderr.hasPrefix("cvlayout: error: --from: give --check to 'cvlayout transition' itself"))
        #expect(run(arguments: base + ["--check", dir.appendingPathComponent("nope.json").path]).status == 2)
    }
}
