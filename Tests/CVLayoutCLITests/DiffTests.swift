import Foundation
import Testing
import LayoutCore
import FastText
import LayoutComparison
@testable import CVLayoutCLI

/// `cvlayout diff`, `--check GOLDEN`, the layout reader and the CI example script.
struct DiffTests {
    // MARK: - Fixtures

    /// One element line of cvlayout JSON.
    static func element(_ section: Int, _ item: Int, _ x: Double, _ y: Double, _ w: Double, _ h: Double,
                        category: String = "cell", kind: String? = nil, alpha: Double = 1) -> String {
        func n(_ v: Double) -> String { NumberFormat.string(v, precision: .full) }
        let kindText = kind.map { ",\"kind\":\"\($0)\"" } ?? ""
        return "{\"indexPath\":[\(section),\(item)],\"category\":\"\(category)\"\(kindText),"
            + "\"frame\":{\"x\":\(n(x)),\"y\":\(n(y)),\"width\":\(n(w)),\"height\":\(n(h))},"
            + "\"center\":{\"x\":\(n(x + w / 2)),\"y\":\(n(y + h / 2))},\"transform\":[1,0,0,1,0,0],"
            + "\"alpha\":\(n(alpha)),\"zIndex\":0,\"hidden\":false}"
    }

    /// A cvlayout JSON layout around `elements`.
    static func layout(_ elements: [String], contentHeight: Double = 300, heart: Bool = false) -> String {
        var text = "{\"engine\":\"waterfall\",\"bounds\":{\"width\":390,\"height\":844},\"contentOffset\":{\"x\":0,\"y\":0},\n"
            + "\"contentSize\":{\"width\":390,\"height\":\(NumberFormat.string(contentHeight, precision: .full))},\n"
            + "\"elements\":[\n" + elements.joined(separator: ",\n") + "\n]"
        if heart {
            text += ",\n\"heartPath\":{\"from\":[0,2],\"to\":[0,0],\"style\":\"seed\",\"start\":{\"x\":295,\"y\":205},"
                + "\"segments\":[{\"control1\":{\"x\":200,\"y\":150},\"control2\":{\"x\":120,\"y\":120},"
                + "\"end\":{\"x\":95,\"y\":100}}],\"d\":\"M 295 205 C 200 150 120 120 95 100\"}"
        }
        return text + "}\n"
    }

    /// A header and three cells: the layout most tests start from.
    static let header = element(0, 0, 0, 0, 390, 40, category: "supplementaryView", kind: "header")
    static let cell0 = element(0, 0, 0, 40, 190, 120)
    static let cell1 = element(0, 1, 200, 40, 190, 80)
    static let cell2 = element(0, 2, 200, 130, 190, 150)
    static let base = layout([header, cell0, cell1, cell2])

    /// A fresh temporary directory holding `files` (name → contents).
    static func directory(_ files: [String: String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, contents) in files {
            try Data(contents.utf8).write(to: url.appendingPathComponent(name))
        }
        return url
    }

    /// `cvlayout diff a.json b.json EXTRA…` on the two texts; returns the result and both paths.
    static func diff(_ a: String, _ b: String, names: (String, String) = ("a.json", "b.json"),
                     _ extra: [String] = []) throws -> (CommandResult, String, String) {
        let dir = try directory([names.0: a, names.1: b])
        let pa = dir.appendingPathComponent(names.0).path, pb = dir.appendingPathComponent(names.1).path
        return (run(arguments: ["diff", pa, pb] + extra), pa, pb)
    }

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    // MARK: - Same

    /// A golden printed at --precision 0 against the layout at 3 decimals: every difference is
    /// within half a unit, and the report's last line says so (for --check, streamed or not,
    /// and diff); a real difference leaves it out.
    @Test func aGoldenOfFewerDecimalsIsToldApart() throws {
        let dir = try Self.directory([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("g0.json").path, csv = dir.appendingPathComponent("g0.csv").path
        let full = dir.appendingPathComponent("a.json").path
        #expect(run(arguments: ["waterfall", "--precision", "0", "-o", json]).status == 0)
        #expect(run(arguments: ["waterfall", "--precision", "0", "-o", csv]).status == 0)
        #expect(run(arguments: ["waterfall", "-o", full]).status == 0)
        for golden in [json, csv] {
            for extra in [[], ["--rect", "0,0,390,10000"]] {  // streamed, and kept whole
                let check = run(arguments: ["waterfall", "--check", golden] + extra)
                #expect(check.status == 1)
                #expect(check.stderr.hasSuffix("\n50 of 50 elements differ; largest delta 0.5 pt at 0:0 center.y\n"
                    + "every difference is within half a unit of the golden's precision (\(golden) prints a whole number: ±0.5); "
                    + "it was likely written with --precision 0: compare with --check-tolerance 0.5, or record it again at this precision\n"),
                        "\(check.stderr.suffix(300))")
            }
            #expect(run(arguments: ["waterfall", "--check", golden, "--check-tolerance", "0.5"]).status == 0)
            let moved = run(arguments: ["waterfall", "--width", "391", "--check", golden])
            #expect(moved.status == 1 && !moved.stderr.contains("half a unit"))
        }
        let diff = run(arguments: ["diff", json, full])
        #expect(diff.stdoutText.hasSuffix("compare with --tolerance 0.5, or record it again at this precision\n"))
        #expect(!run(arguments: ["diff", full, json]).stdoutText.contains("half a unit"))  // 3 decimals: ±0.0005
    }

    /// A field that some elements of a side give is compared (the others' missing value is a
    /// difference) and not named as not compared, whichever element gives it: the reader's
    /// quickest path (an element as cvlayout writes it, after the first) counts as giving it.
    @Test func aFieldSomeElementsGiveIsComparedWhereverItIs() throws {
        let golden = run(arguments: ["waterfall", "--count", "30"]).stdoutText
        var lines = golden.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let elements = lines.indices.filter { lines[$0].hasPrefix("{\"indexPath\"") }
        for given in [0, 2, 29] {
            for (n, i) in elements.enumerated() where n != given {
                lines[i] = lines[i].replacingOccurrences(of: ",\"alpha\":1", with: "")
            }
            let (result, _, _) = try Self.diff(lines.joined(separator: "\n"), golden)
            #expect(result.status == 1)
            #expect(result.stdoutText.hasSuffix("\n29 of 30 elements differ\n"), "alpha on element \(given): \(result.stdoutText.suffix(120))")
            lines = golden.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// A FIFO as a side is spooled and streamed (REFERENCE, `diff`'s Streaming): the same
    /// report as the plain file gives, with the FIFO's name in it.
    @Test func aFIFOSideGivesThePlainFilesReport() throws {
        let golden = run(arguments: ["waterfall", "--count", "40"]).stdoutText
        let changed = run(arguments: ["waterfall", "--count", "40", "--width", "400"]).stdoutText
        let dir = try Self.directory(["golden.json": golden, "changed.json": changed])
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo.json").path, file = dir.appendingPathComponent("changed.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            try? handle.write(contentsOf: Data(changed.utf8))
            try? handle.close()
        }
        writer.start()
        let expected = dir.appendingPathComponent("golden.json").path
        let throughFIFO = run(arguments: ["diff", expected, fifo, "--report", "json"])
        let plain = run(arguments: ["diff", expected, file, "--report", "json"])
        #expect(throughFIFO.status == 1 && plain.status == 1, "\(throughFIFO.stderr)")
        #expect(throughFIFO.stdoutText.contains("40 of 40 elements differ"))
        #expect(throughFIFO.stdoutText == plain.stdoutText.replacingOccurrences(of: file, with: fifo)
            .replacingOccurrences(of: "changed.json", with: "fifo.json"))
    }

    @Test func identicalFilesAreTheSameInOneLine() throws {
        let (result, _, _) = try Self.diff(Self.base, Self.base)
        #expect(result.status == 0)
        #expect(result.stdoutText == "same: 4 elements within tolerance 0.001\n")
        #expect(result.stderr == "")
    }

    @Test func nudgeWithinTheToleranceIsTheSame() throws {
        let nudged = Self.layout([Self.header, Self.cell0, Self.element(0, 1, 200, 40.0005, 190, 80), Self.cell2])
        let (result, _, _) = try Self.diff(Self.base, nudged)
        #expect(result.status == 0)
        #expect(result.stdoutText == "same: 4 elements within tolerance 0.001\n")
    }

    @Test func reorderedElementsAreTheSame() throws {
        let (result, _, _) = try Self.diff(Self.base, Self.layout([Self.cell2, Self.cell1, Self.header, Self.cell0]))
        #expect(result.status == 0)
        #expect(result.stdoutText == "same: 4 elements within tolerance 0.001 (in a different order)\n")
    }

    @Test func csvAgainstJSONOfTheSameLayoutIsTheSame() throws {
        let json = Self.examples.appendingPathComponent("ring-seed000/layout.json").path
        let csv = Self.examples.appendingPathComponent("ring-seed000/layout.csv").path
        let result = run(arguments: ["diff", json, csv])
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderr)")
        #expect(result.stdoutText == "same: 37 elements within tolerance 0.001; "
                + "not compared: engine, bounds, contentOffset, contentSize, heartPath (not in \(csv))\n")
        #expect(run(arguments: ["diff", csv, json]).status == 0)
    }

    @Test func everyExampleGoldenJSONMatchesItsCSV() throws {
        for name in GoldenTests.exampleNames {
            let dir = Self.examples.appendingPathComponent(name)
            // Engines' element tables only (not transitions, not heart samples).
            let command = try String(contentsOf: dir.appendingPathComponent("command"), encoding: .utf8)
            guard let first = command.split(separator: " ").first, engine(named: String(first)) != nil,
                  !command.contains("--heart-samples"),
                  FileManager.default.fileExists(atPath: dir.appendingPathComponent("layout.json").path) else { continue }
            let result = run(arguments: ["diff", dir.appendingPathComponent("layout.csv").path,
                                         dir.appendingPathComponent("layout.json").path])
            #expect(result.status == 0, "\(name): \(result.stdoutText)\(result.stderr)")
        }
    }

    @Test func anElementListExportedFromElsewhereCompares() throws {
        // Flat keys as the CSV columns, only frames: an app's dump.
        let dump = """
            [{"section":0,"item":0,"category":"supplementaryView","kind":"header","x":0,"y":0,"width":390,"height":40},
             {"section":0,"item":0,"category":"cell","x":0,"y":40,"width":190,"height":120},
             {"section":0,"item":1,"category":"cell","x":200,"y":40.0004,"width":190,"height":80},
             {"section":0,"item":2,"category":"cell","x":200,"y":130,"width":190,"height":150}]
            """
        let (result, _, dumpPath) = try Self.diff(Self.base, dump, names: ("golden.json", "dump.json"))
        #expect(result.status == 0)
        #expect(result.stdoutText == "same: 4 elements within tolerance 0.001; not compared: "
                + "engine, bounds, contentOffset, contentSize (not in \(dumpPath)), "
                + "center, transform, alpha, zIndex, hidden (not in \(dumpPath))\n")
    }

    // MARK: - Different

    @Test func nudgeBeyondTheToleranceIsReportedWithItsDelta() throws {
        let nudged = Self.layout([Self.header, Self.cell0, Self.element(0, 1, 200, 52.5, 190, 80), Self.cell2])
        let (result, a, b) = try Self.diff(Self.base, nudged)
        #expect(result.status == 1)
        #expect(result.stdoutText == """
            --- \(a)
            +++ \(b)
            ~ 0:1
                frame.y   40 → 52.5  (+12.5)
                center.y  80 → 92.5  (+12.5)
            1 of 4 elements differs; largest delta 12.5 pt at 0:1 frame.y

            """)
        // A wider tolerance accepts it.
        let (wide, _, _) = try Self.diff(Self.base, nudged, ["--tolerance", "12.5"])
        #expect(wide.status == 0)
        #expect(wide.stdoutText == "same: 4 elements within tolerance 12.5\n")
    }

    @Test func missingAndExtraElementsAreListedInElementOrder() throws {
        let changed = Self.layout([Self.cell0, Self.cell1, Self.element(0, 3, 0, 170, 190, 60)])
        let (result, a, b) = try Self.diff(Self.base, changed)
        #expect(result.status == 1)
        #expect(result.stdoutText == """
            --- \(a)
            +++ \(b)
            - header 0:0  missing (frame 0,0,390,40)
            - 0:2  missing (frame 200,130,190,150)
            + 0:3  extra (frame 0,170,190,60)
            3 of 5 elements differ (2 missing, 1 extra)

            """)
    }

    @Test func contentSizeAndHeartPathAreCompared() throws {
        let (result, a, b) = try Self.diff(Self.layout([Self.header, Self.cell0, Self.cell1, Self.cell2], heart: true),
                                           Self.layout([Self.header, Self.cell0, Self.cell1, Self.cell2],
                                                       contentHeight: 310))
        #expect(result.status == 1)
        #expect(result.stdoutText == """
            --- \(a)
            +++ \(b)
            ~ contentSize
                contentSize.height  300 → 310  (+10)
            - heartPath  missing
            0 of 4 elements differ; contentSize differs; heartPath missing; largest delta 10 pt at contentSize.height

            """)
    }

    @Test func fieldsRestrictTheComparison() throws {
        let faded = Self.layout([Self.header, Self.cell0, Self.element(0, 1, 200, 40, 190, 80, alpha: 0.5), Self.cell2])
        let (all, _, _) = try Self.diff(Self.base, faded)
        #expect(all.status == 1)
        #expect(all.stdoutText.hasSuffix("~ 0:1\n    alpha  1 → 0.5  (-0.5)\n1 of 4 elements differs; largest delta 0.5 at 0:1 alpha\n"))
        let (frames, _, _) = try Self.diff(Self.base, faded, ["--fields", "frame,contentSize"])
        #expect(frames.status == 0)
        #expect(frames.stdoutText == "same: 4 elements within tolerance 0.001\n")
    }

    @Test func jsonReportForMachines() throws {
        let nudged = Self.layout([Self.header, Self.cell0, Self.element(0, 1, 200, 52.5, 190, 80), Self.cell2])
        let (result, a, b) = try Self.diff(Self.base, nudged, ["-f", "json"])
        #expect(result.status == 1)
        #expect(result.stdoutText == """
            {"same":false,"expected":"\(a)","actual":"\(b)","tolerance":0.001,
            "counts":{"expected":4,"actual":4,"matched":4,"differ":1,"missing":0,"extra":0,"changed":1},
            "largestDelta":{"element":"0:1","field":"frame.y","delta":12.5,"unit":"pt"},
            "differences":[
            {"element":{"indexPath":[0,1],"category":"cell"},"name":"0:1","change":"changed","fields":[{"field":"frame.y","expected":40,"actual":52.5,"delta":12.5},{"field":"center.y","expected":80,"actual":92.5,"delta":12.5}]}
            ],
            "notCompared":[],"reordered":false,
            "summary":"1 of 4 elements differs; largest delta 12.5 pt at 0:1 frame.y"}

            """)
        let (same, _, _) = try Self.diff(Self.base, Self.base, ["--format=json"])
        #expect(same.status == 0)
        #expect(same.stdoutText.hasPrefix("{\"same\":true,"))
        #expect(same.stdoutText.contains("\"differences\":[],\n\"notCompared\":[]"))
    }

    // MARK: - Trouble

    /// A malformed file and the message `cvlayout diff` must give (after the file's path).
    struct Malformed: CustomTestStringConvertible, Sendable {
        let name: String
        let contents: String
        let message: String
        var testDescription: String { name + ": " + message }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "b.json", contents: "{\"elements\":[\n{\"indexPath\":[0,0],}\n]}",
                  message: ":2:20: invalid JSON: unexpected character '}': expected a string key"),
        Malformed(name: "b.json", contents: "{\"elements\":[", message: ":1:14: invalid JSON: "),
        Malformed(name: "b.json", contents: "42", message: ": expected a cvlayout layout (an object with \"elements\") or a list of elements, got 42"),
        Malformed(name: "b.json", contents: "{\"elements\":[{\"indexPath\":[0,0],\"category\":\"cell\",\"frame\":{\"x\":\"a\"}}]}",
                  message: ": elements[0].frame.x: expected a finite number, got \"a\""),
        Malformed(name: "b.json", contents: "[{\"indexPath\":[0,1],\"category\":\"cell\"},{\"indexPath\":[0,1],\"category\":\"cell\"}]",
                  message: ": [1]: duplicate element 0:1 (also at [0])"),
        Malformed(name: "b.json", contents: "[{\"frame\":{\"x\":1}}]",
                  message: ": [0]: expected \"indexPath\": [section, item] or \"section\" and \"item\""),
        Malformed(name: "b.csv", contents: "section,item,x\n0,0,1\n0,1\n",
                  message: ":3: expected 3 fields as in the header, got 2"),
        Malformed(name: "b.csv", contents: "section,item,x\n0,0,abc\n",
                  message: ": row 2: x: expected a finite number, got abc"),
        Malformed(name: "b.csv", contents: "x,y\n1,2\n",
                  message: ":1: the header row needs 'section' and 'item' columns, or t,x,y,angle for heart samples (got x,y)"),
        Malformed(name: "b.csv", contents: String(repeating: "\u{0}", count: 1_000) + "\n",
                  message: ":1: the header row needs 'section' and 'item' columns, or t,x,y,angle for heart samples (got \(String(repeating: "?", count: 80))…)"),
        Malformed(name: "b.csv", contents: "section,item,kind\n0,0,\"header\n",
                  message: ":2: unterminated quoted field (a '\"' is never closed)"),
        Malformed(name: "b.csv", contents: "section,item\n0,-1\n", message: ": row 2: item: expected an integer ≥ 0, got -1"),
        Malformed(name: "b.svg", contents: "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
                  message: ": looks like SVG or XML; only cvlayout JSON or CSV can be compared"),
        Malformed(name: "b.json", contents: " \n", message: ": empty file: expected a layout (JSON or CSV)"),
    ]

    @Test(arguments: malformed)
    func malformedInputIsTroubleWithAClearMessage(_ testCase: Malformed) throws {
        let (result, _, b) = try Self.diff(Self.base, testCase.contents, names: ("a.json", testCase.name))
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("cvlayout: error: \(b)\(testCase.message)"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("\n") && result.stderr.split(separator: "\n").count == 1)
    }

    @Test func badArgumentsAreTroubleToo() throws {
        let dir = try Self.directory(["a.json": Self.base])
        let a = dir.appendingPathComponent("a.json").path
        let missing = run(arguments: ["diff", a, dir.appendingPathComponent("nope.json").path])
        #expect(missing.status == 2)
        #expect(missing.stderr == "cvlayout: error: \(dir.appendingPathComponent("nope.json").path): cannot open: no such file\n")
        let one = run(arguments: ["diff", a])
        #expect(one.status == 2)
        #expect(one.stderr == "cvlayout: error: expected two layouts, EXPECTED and ACTUAL; got 1\n"
                + "Run 'cvlayout diff --help' for usage.\n")
        let typo = run(arguments: ["diff", a, a, "--tolerence", "1"])
        #expect(typo.status == 2)
        #expect(typo.stderr.hasPrefix("cvlayout: error: unknown option '--tolerence'; did you mean '--tolerance'?\n"))
        let negative = run(arguments: ["diff", a, a, "--tolerance", "-1"])
        #expect(negative.status == 2)
        #expect(negative.stderr.hasPrefix("cvlayout: error: --tolerance: expected a finite number ≥ 0, got '-1'\n"))
        let field = run(arguments: ["diff", a, a, "--fields", "fram,alpha"])
        #expect(field.status == 2)
        #expect(field.stderr.hasPrefix("cvlayout: error: --fields: unknown field 'fram'; did you mean 'frame'?"))
        let format = run(arguments: ["diff", a, a, "-f", "csv"])
        #expect(format.status == 2)
        let help = run(arguments: ["diff", "--help"])
        #expect(help.status == 0)
        #expect(help.stdoutText.hasPrefix("USAGE: cvlayout diff EXPECTED ACTUAL"))
        #expect(help.stdoutText.contains("--tolerance PT"))
    }

    @Test func oneSideMayComeFromStandardInput() throws {
        let dir = try Self.directory(["a.json": Self.base])
        let a = dir.appendingPathComponent("a.json").path
        let result = run(arguments: ["diff", a, "-"], stdin: { Data(Self.base.utf8) })
        #expect(result.status == 0)
        #expect(result.stdoutText == "same: 4 elements within tolerance 0.001\n")
        #expect(run(arguments: ["diff", "-", "-"]).status == 2)
    }

    // MARK: - Hand-edited goldens

    /// A golden holding what no layout contains, and the one line that refuses it (after the
    /// file's path): the row (CSV, by line, the header being row 1) or element (JSON) and the
    /// column or key. Issue 19.
    static let handEdited: [Malformed] = [
        Malformed(name: "golden.csv", contents: "section,item,category,kind,x\n0,0,cell,,0\n0,1,banana,,1\n",
                  message: ": row 3: category: expected cell, supplementaryView or decorationView, got banana"),
        Malformed(name: "golden.csv", contents: "section,item,category,kind,x\n0,0,cell,,0\n0,1,,,1\n",
                  message: ": row 3: category: expected cell, supplementaryView or decorationView, got an empty field"),
        Malformed(name: "golden.csv", contents: "section,item,category,kind,x\n0,0,cell,,0\n0,1,cell,header,1\n",
                  message: ": row 3: kind: a cell has no kind, got header"),
        Malformed(name: "golden.csv", contents: "section,item,zIndex\n0,0,0\n0,1,1.5\n",
                  message: ": row 3: zIndex: expected an integer, got 1.5"),
        Malformed(name: "golden.csv", contents: "section,item,zIndex\n0,0,1e2\n",
                  message: ": row 2: zIndex: expected an integer, got 1e2"),
        Malformed(name: "golden.csv", contents: "section,item,x\n0:1,0,1\n",
                  message: ": row 2: section: expected an integer ≥ 0, got 0:1"),
        Malformed(name: "golden.csv", contents: "section,item,x\n0,1.0,1\n",
                  message: ": row 2: item: expected an integer ≥ 0, got 1.0"),
        Malformed(name: "golden.csv", contents: "section,item,x\n0,+1,1\n",
                  message: ": row 2: item: expected an integer ≥ 0, got +1"),
        Malformed(name: "golden.csv", contents: "section,item,x\n0,,1\n",
                  message: ": row 2: item: expected an integer ≥ 0, got an empty field"),
        Malformed(name: "golden.csv", contents: "section,item,x\n0,99999999999999999999,1\n",
                  message: ": row 2: item: expected an integer ≥ 0, got 99999999999999999999"),
        Malformed(name: "golden.csv", contents: "section,item,x\n0,0,1\n0,0,2\n",
                  message: ": row 3: duplicate element 0:0 (also on row 2)"),
        Malformed(name: "golden.csv", contents: "section,item,hidden\n0,0,yes\n",
                  message: ": row 2: hidden: expected true or false, got yes"),
        Malformed(name: "golden.json", contents: #"[{"indexPath":[0,0],"frame":{"x":1}}]"#,
                  message: #": [0]: expected "category": cell, supplementaryView or decorationView"#),
        Malformed(name: "golden.json",
                  contents: "{\"elements\":[\n" + element(0, 0, 0, 0, 10, 10) + ",\n"
                    + #"{"indexPath":[0,1],"frame":{"x":1,"y":0,"width":10,"height":10}}"# + "\n]}",
                  message: #": elements[1]: expected "category": cell, supplementaryView or decorationView"#),
        Malformed(name: "golden.json", contents: #"[{"indexPath":[0,0],"category":"banana"}]"#,
                  message: #": [0].category: expected cell, supplementaryView or decorationView, got "banana""#),
        Malformed(name: "golden.json", contents: #"[{"indexPath":[0,0],"category":"cell","kind":"header"}]"#,
                  message: #": [0].kind: a cell has no kind, got "header""#),
        Malformed(name: "golden.json", contents: #"[{"indexPath":[0,0],"category":"cell","zIndex":1.5}]"#,
                  message: ": [0].zIndex: expected an integer, got 1.5"),
        Malformed(name: "golden.json", contents: #"[{"indexPath":[0,-1],"category":"cell"}]"#,
                  message: ": [0].indexPath[1]: expected an integer ≥ 0, got -1"),
        Malformed(name: "golden.json", contents: #"[{"indexPath":[0,0.5],"category":"cell"}]"#,
                  message: ": [0].indexPath[1]: expected an integer ≥ 0, got 0.5"),
        Malformed(name: "golden.json", contents: #"[{"indexPath":[0,1,2],"category":"cell"}]"#,
                  message: ": [0].indexPath: expected [section, item], got an array of 3 values"),
    ]

    /// `cvlayout diff` and `--check` refuse a hand-edited golden as trouble (2), with one
    /// line and nothing on stdout, whichever side it is on.
    @Test(arguments: handEdited)
    func aGoldenNoLayoutContainsIsRefused(_ testCase: Malformed) throws {
        let dir = try Self.directory([testCase.name: testCase.contents, "a.json": Self.base])
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = dir.appendingPathComponent(testCase.name).path, other = dir.appendingPathComponent("a.json").path
        let line = "cvlayout: error: \(golden)\(testCase.message)\n"
        for arguments in [["diff", golden, other], ["diff", other, golden], ["flow", "--count", "2", "--check", golden]] {
            let result = run(arguments: arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == line)
        }
    }

    /// A column or key cvlayout does not know (an app's export may carry `name`) is no error:
    /// it is named once on stderr as not compared, and the verdict and the report are what
    /// they are without it. Issue 19.
    @Test func unknownColumnsAndKeysAreNamedOnceAndNotCompared() throws {
        let flowCSV = run(arguments: ["flow", "--count", "3", "-f", "csv"]).stdoutText
        let flowJSON = run(arguments: ["flow", "--count", "3"]).stdoutText
        var rows = flowCSV.split(separator: "\n").map(String.init)
        rows[0] += ",name,note"
        for k in 1..<rows.count { rows[k] += ",item \(k),x" }
        let namedCSV = rows.joined(separator: "\n") + "\n"
        // The same with item 0:1 moved down by 5: a difference.
        let movedCSV = namedCSV.replacingOccurrences(of: "0,1,cell,,68,0,50,50,93,25,", with: "0,1,cell,,68,5,50,50,93,30,")
        #expect(movedCSV != namedCSV)
        let plainMovedCSV = flowCSV.replacingOccurrences(of: "0,1,cell,,68,0,50,50,93,25,", with: "0,1,cell,,68,5,50,50,93,30,")
        let namedJSON = flowJSON.replacingOccurrences(of: "\"category\":\"cell\",", with: "\"category\":\"cell\",\"name\":\"x\",")
            .replacingOccurrences(of: "{\"engine\"", with: "{\"comment\":\"by hand\",\"engine\"")
        #expect(namedJSON != flowJSON)
        let dir = try Self.directory(["named.csv": namedCSV, "moved.csv": movedCSV, "plain-moved.csv": plainMovedCSV,
                                      "named.json": namedJSON, "flow.json": flowJSON, "flow.csv": flowCSV])
        defer { try? FileManager.default.removeItem(at: dir) }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let csvWarning = "cvlayout: warning: \(path("named.csv")): columns 'name', 'note' are not compared (cvlayout does not know them)\n"

        let same = run(arguments: ["diff", path("named.csv"), path("flow.csv")])
        #expect(same.status == 0)
        #expect(same.stdoutText == "same: 3 elements within tolerance 0.001\n")
        #expect(same.stderr == csvWarning)

        let moved = run(arguments: ["diff", path("moved.csv"), path("flow.csv")])
        let plain = run(arguments: ["diff", path("plain-moved.csv"), path("flow.csv")])
        #expect(moved.status == 1 && plain.status == 1)
        #expect(moved.stdoutText.replacingOccurrences(of: "moved.csv", with: "plain-moved.csv") == plain.stdoutText)
        #expect(moved.stdoutText.contains("~ 0:1\n    frame.y   5 → 0  (-5)\n    center.y  30 → 25  (-5)\n"),
                "\(moved.stdoutText)")
        #expect(moved.stderr == "cvlayout: warning: \(path("moved.csv")): columns 'name', 'note' are not compared "
                + "(cvlayout does not know them)\n")
        #expect(plain.stderr.isEmpty)

        let json = run(arguments: ["diff", path("flow.json"), path("named.json")])
        #expect(json.status == 0)
        #expect(json.stdoutText == "same: 3 elements within tolerance 0.001\n")
        #expect(json.stderr == "cvlayout: warning: \(path("named.json")): keys 'elements[].name', 'comment' are not compared "
                + "(cvlayout does not know them)\n")

        let itself = run(arguments: ["diff", path("named.csv"), path("named.csv")])
        #expect(itself.status == 0)
        #expect(itself.stderr == csvWarning)  // one file, named once

        let check = run(arguments: ["flow", "--count", "3", "--check", path("named.csv")])
        #expect(check.status == 0)
        #expect(check.stdout.isEmpty)
        #expect(check.stderr == "cvlayout: warning: --check: \(path("named.csv")): columns 'name', 'note' are not compared "
                + "(cvlayout does not know them)\n")
        let checkMoved = run(arguments: ["flow", "--count", "3", "--check", path("moved.csv")])
        #expect(checkMoved.status == 1)
        #expect(checkMoved.stderr.hasPrefix("cvlayout: warning: --check: \(path("moved.csv")): columns 'name', 'note' "
                                            + "are not compared (cvlayout does not know them)\n--- \(path("moved.csv"))\n"))
        #expect(checkMoved.stderr.contains("~ 0:1\n"))
        let checkJSON = run(arguments: ["flow", "--count", "3", "--check", path("named.json")])
        #expect(checkJSON.status == 0)
        #expect(checkJSON.stderr == "cvlayout: warning: --check: \(path("named.json")): keys 'elements[].name', 'comment' "
                + "are not compared (cvlayout does not know them)\n")
    }

    /// The reader's record of unknown names: each once, in order, frame members included;
    /// a CSV without a category column is all cells.
    @Test func theReaderNamesUnknownColumnsAndKeysOnce() throws {
        let csv = try LayoutReader.read(Data("section,item,name,x,name2\n0,0,a,1,b\n0,1,c,2,d\n".utf8), format: .csv)
        #expect(csv.unknownNames == ["name", "name2"])
        #expect(csv.elements.map(\.key.category) == ["cell", "cell"])
        let json = try LayoutReader.read(Data(#"""
            [{"indexPath":[0,0],"category":"cell","frame":{"x":1,"z":2},"b2":1,"a2":2},
             {"indexPath":[0,1],"category":"cell","frame":{"x":1,"z":3},"a2":2,"c2":true}]
            """#.utf8), format: .json)
        #expect(json.unknownNames == ["[].frame.z", "[].a2", "[].b2", "[].c2"])
        #expect(json.elements.count == 2 && json.elements[0][.x] == .number(1))
        let known = try LayoutReader.read(Data(Self.base.utf8), format: .json)
        #expect(known.unknownNames.isEmpty)
        #expect(LayoutDiff.unknownNamesText(known, name: "a.json") == nil)
        #expect(LayoutDiff.unknownNamesText(csv, name: "b.csv") == "b.csv: columns 'name', 'name2' are not compared (cvlayout does not know them)")
    }

    // MARK: - Comparison details

    @Test func toleranceIsInclusiveDespiteBinaryRounding() throws {
        let a = try LayoutReader.read(Data("section,item,y\n0,0,120\n".utf8), format: .csv)
        let exact = try LayoutReader.read(Data("section,item,y\n0,0,120.001\n".utf8), format: .csv)
        let beyond = try LayoutReader.read(Data("section,item,y\n0,0,120.0011\n".utf8), format: .csv)
        #expect(try LayoutDiff.compare(a, exact).result.isSame)
        let result = try LayoutDiff.compare(a, beyond).result
        #expect(!result.isSame)
        #expect(result.largestDelta?.change.name == "frame.y")
        #expect(LayoutDiff.summary(result, expectedName: "a", actualName: "b")
                == "1 of 1 element differs; largest delta 0.0011 pt at 0:0 frame.y")
    }

    @Test func csvQuotingAndTheWritersApostropheReadBack() throws {
        let csv = "section,item,category,kind,x\r\n0,0,supplementaryView,\"'=odd, \"\"kind\"\"\",1\r\n\r\n"
        let document = try LayoutReader.read(Data(csv.utf8), format: nil)
        #expect(document.shape == .csv)
        #expect(document.elements.count == 1)
        #expect(document.elements[0].key.kind == "=odd, \"kind\"")
        #expect(document.elements[0][.x] == .number(1))
        #expect(document.presentFields == [.x])
        // A quoted field reads as the same field unquoted, in every column.
        let change = try LayoutReader.read(Data("section,item,change\n0,0,\"disappear\"\n0,0,appear\n".utf8), format: .csv)
        #expect(change.elements.map(\.key.disappearing) == [true, false])
    }

    @Test func coloursOnlyWhenAskedAndNeverInRun() throws {
        let changed = Self.layout([Self.cell0, Self.cell1, Self.cell2, Self.element(0, 3, 0, 170, 190, 60)])
        let (result, a, b) = try Self.diff(Self.base, changed)
        #expect(!result.stdoutText.contains("\u{1B}"))
        let expected = try LayoutReader.read(Data(Self.base.utf8), format: .json)
        let actual = try LayoutReader.read(Data(changed.utf8), format: .json)
        let coloured = try LayoutDiff.compare(expected, actual, style: .text(color: true), expectedName: a, actualName: b).report
        #expect(coloured.contains("\u{1B}[31m- header 0:0  missing (frame 0,0,390,40)\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[32m+ 0:3  extra (frame 0,170,190,60)\u{1B}[0m"))
        #expect(ColorPolicy.forProcess(environment: [:], isTerminal: { _ in true }) == ColorPolicy(stdout: true, stderr: true))
        #expect(ColorPolicy.forProcess(environment: ["NO_COLOR": "1"], isTerminal: { _ in true }) == .never)
        #expect(ColorPolicy.forProcess(environment: ["NO_COLOR": ""], isTerminal: { _ in true }).stdout)
        #expect(ColorPolicy.forProcess(environment: ["TERM": "dumb"], isTerminal: { _ in true }) == .never)
        #expect(ColorPolicy.forProcess(environment: [:], isTerminal: { $0 == 2 }) == ColorPolicy(stdout: false, stderr: true))
    }

    // MARK: - --check

    /// Two files are compared as streams, and so is one of them on stdin; files out of
    /// element order are sorted on the way. The reports are those of the layouts read whole
    /// (`LayoutDiff.compare` of `LayoutReader.read`), in every format, for layouts
    /// of every engine against moved, thinned, reordered and shuffled versions of themselves;
    /// with stdin the same but for the name.
    @Test func streamedDiffEqualsTheWholeFileDiff() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        func path(_ name: String) -> String { out.appendingPathComponent(name).path }
        var files: [String] = []
        for (k, arguments) in [["flow", "--count", "40"], ["flow", "--count", "41", "--width", "300"],
                               ["waterfall", "--count", "60"], ["ring", "--width", "428", "--height", "926"],
                               ["ring", "--width", "420", "--heart-samples", "5"], ["carousel", "--count", "30"]].enumerated() {
            for format in ["json", "csv"] where !(format == "csv" && arguments.contains("--heart-samples")) {
                let name = path("l\(k).\(format)")
                #expect(run(arguments: arguments + ["-o", name]).status == 0)
                files.append(name)
            }
        }
        // A reordered copy, shuffled copies (one without an element) and a thinned CSV
        // (index paths only).
        let flowJSON = try String(contentsOfFile: files[0], encoding: .utf8)
        var lines = flowJSON.split(separator: "\n", omittingEmptySubsequences: false)
        lines.swapAt(5, 6)
        try lines.joined(separator: "\n").write(toFile: path("reordered.json"), atomically: true, encoding: .utf8)
        var rng = SplitMix64(seed: 9)
        let elementLines = flowJSON.split(separator: "\n").filter { $0.hasPrefix("{\"indexPath\"") }
            .map { $0.hasSuffix(",") ? $0.dropLast() : $0 }.shuffled(using: &rng)
        try Self.layout(elementLines.dropFirst().map(String.init), contentHeight: 300)
            .replacingOccurrences(of: "\"engine\":\"waterfall\"", with: "\"engine\":\"flow\"")
            .write(toFile: path("l0-shuffled.json"), atomically: true, encoding: .utf8)
        let flowCSV = try String(contentsOfFile: files[1], encoding: .utf8)
        let rows = flowCSV.split(separator: "\n")
        try ([String(rows[0])] + rows.dropFirst().shuffled(using: &rng).map(String.init)).joined(separator: "\n")
            .appending("\n").write(toFile: path("l0-shuffled.csv"), atomically: true, encoding: .utf8)
        let thin = flowCSV.split(separator: "\n").map { $0.split(separator: ",").prefix(4).joined(separator: ",") }
        try (thin.joined(separator: "\n") + "\n").write(toFile: path("thin.csv"), atomically: true, encoding: .utf8)
        files += [path("reordered.json"), path("l0-shuffled.json"), path("l0-shuffled.csv"), path("thin.csv")]
        for a in files {
            for b in files where b != a && (b.hasPrefix(a.dropLast(5)) || a.contains("l0") || b.contains("l0")) {
                for extra in [[], ["-f", "json"], ["--fields", "frame,contentSize", "--tolerance", "0.5"]] {
                    let streamed = run(arguments: ["diff", a, b] + extra)
                    let piped = run(arguments: ["diff", "-", b] + extra, stdin: { try Data(contentsOf: URL(fileURLWithPath: a)) })
                    // The whole-file comparison (the thinned CSV of a layout with headers is
                    // no layout: trouble).
                    let options = try #require(try DiffArguments.parse([a, b] + extra)).options
                    func read(_ path: String) throws -> LayoutDocument {
                        try LayoutReader.read(Data(contentsOf: URL(fileURLWithPath: path)), format: LayoutFileFormat(pathExtension: path))
                    }
                    if let expected = try? read(a), let actual = try? read(b) {
                        let (result, whole) = try LayoutDiff.compare(expected, actual, options: options,
                                                                     style: extra.contains("json") ? .json : .text(color: false),
                                                                     expectedName: a, actualName: b)
                        #expect(streamed.status == (result.isSame ? 0 : 1), "\(a) \(b) \(extra)")
                        #expect(streamed.stdoutText == whole, "\(a) \(b) \(extra)")
                    } else {
                        #expect(streamed.status == 2, "\(a) \(b) \(extra)")
                    }
                    #expect(streamed.status == piped.status, "\(a) \(b) \(extra)")
                    let name = extra.contains("json") ? "\"expected\":\"\(a)\"" : "--- \(a)"
                    let pipedName = extra.contains("json") ? "\"expected\":\"<stdin>\"" : "--- <stdin>"
                    #expect(streamed.stdoutText == piped.stdoutText.replacingOccurrences(of: pipedName, with: name)
                                .replacingOccurrences(of: "(not in <stdin>)", with: "(not in \(a))")
                                .replacingOccurrences(of: "\"missingIn\":\"<stdin>\"", with: "\"missingIn\":\"\(a)\""),
                            "\(a) \(b) \(extra)")
                    #expect(streamed.stderr == piped.stderr.replacingOccurrences(of: "<stdin>", with: a), "\(a) \(b) \(extra)")
                }
            }
        }
    }

    /// A file out of element order that repeats an element, or is malformed, on stdin or
    /// not: status 2 and the whole-file reader's message, naming the file.
    @Test func shuffledDuplicatesAndMalformedFilesOnStdinAreTrouble() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("diff-dup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.json").path
        try Self.base.write(toFile: good, atomically: true, encoding: .utf8)
        let cases: [(String, String)] = [
            (Self.layout([Self.cell2, Self.header, Self.cell0, Self.cell2, Self.cell1]),
             "elements[3]: duplicate element 0:2 (also at elements[0])"),
            (String(Self.layout([Self.cell2, Self.header, Self.cell0]).dropLast(4)), "invalid JSON"),
        ]
        for (k, (text, message)) in cases.enumerated() {
            let file = dir.appendingPathComponent("bad\(k).json").path
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let named = run(arguments: ["diff", file, good])
            let piped = run(arguments: ["diff", good, "-"], stdin: { Data(text.utf8) })
            #expect(named.status == 2 && piped.status == 2)
            #expect(named.stdout.isEmpty && piped.stdout.isEmpty)
            #expect(named.stderr.hasPrefix("cvlayout: error: \(file)") && named.stderr.contains(message), "\(named.stderr)")
            #expect(piped.stderr == named.stderr.replacingOccurrences(of: file, with: "<stdin>"), "\(piped.stderr)")
        }
    }

    /// `--check-tolerance` and `--check-fields` are diff's `--tolerance` and `--fields`
    /// (waterfall's own `--tolerance` stays its column tolerance); the report equals the
    /// one `diff` gives with the same options, streamed or not.
    @Test func checkTakesTheComparisonSettings() throws {
        let dir = Self.examples.appendingPathComponent("ring-seed000")
        let rings = dir.appendingPathComponent("rings.json").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("check-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        for golden in ["layout.json", "layout.csv"] {
            let path = dir.appendingPathComponent(golden).path
            let moved = out.appendingPathComponent("moved." + (golden.hasSuffix("json") ? "json" : "csv")).path
            let base = ["ring", "--width", "420", "--height", "926", rings]
            #expect(run(arguments: base + ["-o", moved]).status == 0)
            // Within 4 pt for frames and centres: x moved by 4, the bounds by 8.
            let loose = run(arguments: base + ["--check", path, "--check-tolerance", "4", "--check-fields", "frame,center"])
            #expect(loose.status == 0, "\(golden): \(loose.stderr)")
            let viaDiff = run(arguments: ["diff", path, moved, "--tolerance", "4", "--fields", "frame,center"])
            #expect(viaDiff.status == 0)
            for (tolerance, fields) in [("3", "frame"), ("0", "center.x,alpha"), ("0.5", "x,bounds,contentSize")] {
                let check = run(arguments: base + ["--check", path, "--check-tolerance", tolerance, "--check-fields", fields])
                let diff = run(arguments: ["diff", path, moved, "--tolerance", tolerance, "--fields", fields])
                #expect(check.status == diff.status, "\(golden) \(tolerance) \(fields)")
                #expect(check.stderr == diff.stdoutText.replacingOccurrences(of: "+++ \(moved)", with: "+++ cvlayout ring"),
                        "\(golden) \(tolerance) \(fields)")
            }
        }
        // Waterfall: --tolerance is the engine's; --check-tolerance the comparison's.
        let golden = out.appendingPathComponent("w.json").path
        #expect(run(arguments: ["waterfall", "--count", "50", "-o", golden]).status == 0)
        #expect(run(arguments: ["waterfall", "--count", "50", "--tolerance", "0", "--check", golden,
                                "--check-tolerance", "0"]).status == 0)
        for (arguments, message) in [
            (["--check-tolerance", "-1"], "--check-tolerance: expected a finite number ≥ 0, got '-1'"),
            (["--check-fields", "frme"], "--check-fields: unknown field 'frme'; did you mean 'frame'?"),
        ] {
            let result = run(arguments: ["waterfall", "--count", "5", "--check", golden] + arguments)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("cvlayout: error: " + message), "\(result.stderr)")
        }
        let alone = run(arguments: ["waterfall", "--count", "5", "--check-tolerance", "1"])
        #expect(alone.status == 64)
        #expect(alone.stderr.hasPrefix("cvlayout: error: --check-tolerance is used only with --check GOLDEN"))
    }

    /// `--report-file` naming a layout being compared (diff's EXPECTED or ACTUAL, the golden
    /// or `-o`'s file of `--check`) is a usage error, and the file is left as it was.
    @Test func theReportFileIsNeverALayoutCompared() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = dir.appendingPathComponent("g.json").path, other = dir.appendingPathComponent("o.json").path
        #expect(run(arguments: ["flow", "--count", "5", "-o", golden]).status == 0)
        #expect(run(arguments: ["flow", "--count", "6", "-o", other]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: golden))
        for (arguments, status, message) in [
            (["diff", golden, other, "--report-file", golden], Int32(2), "--report-file \(golden) is EXPECTED"),
            (["diff", other, golden, "--report-file", dir.path + "/./g.json"], 2, "--report-file \(dir.path)/./g.json is ACTUAL"),
            (["flow", "--count", "6", "--check", golden, "--report-file", golden], 64, "--report-file \(golden) is the golden"),
            (["flow", "--count", "6", "--check", golden, "-o", other, "--report-file", other], 64,
             "--report-file \(other) is -o's file"),
        ] {
            let result = run(arguments: arguments)
            #expect(result.status == status && result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr.hasPrefix("cvlayout: error: \(message): it would be replaced by the report\n"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: golden)) == before)
    }

    @Test func checkAgainstTheGoldenInOneStep() throws {
        let dir = Self.examples.appendingPathComponent("ring-seed000")
        let rings = dir.appendingPathComponent("rings.json").path
        for golden in ["layout.json", "layout.csv"] {
            let path = dir.appendingPathComponent(golden).path
            let same = run(arguments: ["ring", "--width", "428", "--height", "926", rings, "--check", path])
            #expect(same.status == 0, "\(golden): \(same.stderr)")
            #expect(same.stdout.isEmpty)
            #expect(same.stderr == "")
            let moved = run(arguments: ["ring", "--width", "420", "--height", "926", rings, "--check", path])
            #expect(moved.status == 1)
            #expect(moved.stdout.isEmpty)
            #expect(moved.stderr.hasPrefix("--- \(path)\n+++ cvlayout ring\n"))
            #expect(moved.stderr.contains("~ 0:0\n    frame.x   194 → 190  (-4)\n    center.x  214 → 210  (-4)\n"))
            // The largest delta over elements and parts (the bounds, in a JSON golden).
            #expect(moved.stderr.hasSuffix(golden.hasSuffix("json")
                ? "37 of 37 elements differ; bounds, contentSize, heartPath differ; largest delta 8 pt at bounds.width\n"
                : "37 of 37 elements differ; largest delta 4 pt at 0:0 frame.x\n"), "\(moved.stderr.suffix(200))")
        }
    }

    /// Two finite values further apart than the largest Double: the delta is said in words
    /// (text) or `null` (JSON), never printed as 0.
    @Test func deltasPastTheLargestDouble() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-overflow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        let a = url.appendingPathComponent("a.json"), b = url.appendingPathComponent("b.json")
        try Data(#"[{"indexPath":[0,0],"category":"cell","frame":{"x":1.7e308,"y":0,"width":10,"height":10}}]"#.utf8).write(to: a)
        try Data(#"[{"indexPath":[0,0],"category":"cell","frame":{"x":-1.7e308,"y":0,"width":10,"height":10}}]"#.utf8).write(to: b)
        let text = run(arguments: ["diff", a.path, b.path])
        #expect(text.status == 1)
        #expect(text.stdoutText.contains("  (-past the largest double)\n"), "\(text.stdoutText)")
        #expect(text.stdoutText.hasSuffix("largest delta past the largest double at 0:0 frame.x\n"), "\(text.stdoutText)")
        let json = run(arguments: ["diff", "-f", "json", a.path, b.path])
        #expect(json.stdoutText.contains(#""largestDelta":{"element":"0:0","field":"frame.x","delta":null,"unit":"pt"}"#))
        #expect(try JSONSerialization.jsonObject(with: Data(json.stdout)) is [String: Any])
        // Never "infinity" (SPEC section 3), and no tolerance covers such a delta (the largest
        // Double plus the rounding slack overflowed, and they were "same"). Found by a tester.
        for result in [text, json] { #expect(!result.stdoutText.lowercased().contains("inf")) }
        #expect(run(arguments: ["diff", "--tolerance", "1.7976931348623157e308", a.path, b.path]).status == 1)
    }

    /// `--tolerance 0` is exact (the rounding slack of a positive tolerance let 0.3 and
    /// 0.30000000000000004 be the same), and a delta too small or too large for its operands'
    /// decimals prints in its shortest digits (it printed `+0`, and past 2⁵³ the binary
    /// value's digits). Found by a tester.
    @Test func toleranceZeroIsExactAndEveryDeltaShows() throws {
        let (tiny, _, _) = try Self.diff("section,item,x\n0,0,0.3\n", "section,item,x\n0,0,0.30000000000000004\n",
                                         names: ("a.csv", "b.csv"), ["--tolerance", "0"])
        #expect(tiny.status == 1)
        #expect(tiny.stdoutText.contains("frame.x  0.3 → 0.30000000000000004  (+0.00000000000000005551115123125783)\n"),
                "\(tiny.stdoutText)")
        let (same, _, _) = try Self.diff("section,item,x\n0,0,0.3\n", "section,item,x\n0,0,0.30000000000000004\n",
                                         names: ("a.csv", "b.csv"))
        #expect(same.status == 0)
        let (small, _, _) = try Self.diff("section,item,x\n0,0,0\n", "section,item,x\n0,0,1e-20\n",
                                          names: ("a.csv", "b.csv"), ["--tolerance", "0"])
        #expect(small.stdoutText.contains("  (+0.00000000000000000001)\n"), "\(small.stdoutText)")
        #expect(small.stdoutText.hasSuffix("largest delta 0.00000000000000000001 pt at 0:0 frame.x\n"))
        let (large, _, _) = try Self.diff("section,item,x\n0,0,1e300\n", "section,item,x\n0,0,2e300\n",
                                          names: ("a.csv", "b.csv"))
        #expect(large.stdoutText.contains("  (+1" + String(repeating: "0", count: 300) + ")\n"), "\(large.stdoutText)")
    }

    /// A report whose reader went away keeps the verdict (it exited 0, "same", for layouts
    /// that differ), and one that cannot be written is trouble (it was 74). Found by a tester.
    @Test func theStatusIsTheVerdictWhateverBecomesOfTheReport() throws {
        let dir = try Self.directory(["a.csv": "section,item,x\n0,0,1\n", "b.csv": "section,item,x\n0,0,2\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.csv").path, b = dir.appendingPathComponent("b.csv").path
        var messages = ""
        let closed = run(arguments: ["diff", a, b], stdin: { Data() }, stdout: { _ in throw BrokenPipe() },
                         stderr: { messages += $0 })
        #expect(closed == 1 && messages.isEmpty)
        #expect(run(arguments: ["diff", a, a], stdin: { Data() }, stdout: { _ in throw BrokenPipe() }, stderr: { _ in }) == 0)
        let full = run(arguments: ["diff", a, b], stdin: { Data() },
                       stdout: { _ in throw CLIError.status(74, "cannot write to standard output: No space left on device") },
                       stderr: { messages += $0 })
        #expect(full == 2)
        #expect(messages == "cvlayout: error: cannot write to standard output: No space left on device\n")
    }

    /// A transition mid-deletion holds the disappearing element at its old index path, which
    /// the element moving in also holds: the two are told apart (`change`), in JSON and CSV.
    @Test func transitionsMidDeletionCompare() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-transition-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        func write(_ name: String, _ arguments: [String]) throws -> String {
            let path = url.appendingPathComponent(name).path
            let result = run(arguments: ["transition", "--from", "circle", "--delete", "0:3", "--count", "5"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            try Data(result.stdout).write(to: URL(fileURLWithPath: path))
            return path
        }
        let json = try write("half.json", ["--progress", "0.5"])
        let csv = try write("half.csv", ["--progress", "0.5", "-f", "csv"])
        let later = try write("later.json", ["--progress", "0.6"])
        let same = run(arguments: ["diff", json, csv])
        #expect(same.status == 0 && same.stdoutText.hasPrefix("same: 5 elements"), "\(same.stdoutText)\(same.stderr)")
        let moved = run(arguments: ["diff", json, later])
        #expect(moved.status == 1 && moved.stdoutText.contains("~ 0:3 (disappearing)\n    alpha"), "\(moved.stdoutText)")
    }

    /// `--heart-samples` makes the CSV a table of samples: against a CSV golden of elements
    /// that is a usage error, not "the golden is unreadable"; a JSON golden still compares,
    /// samples included (they were not compared), and so does a CSV golden of samples (it
    /// could not be read). Found by testers.
    @Test func checkWithHeartSamples() throws {
        let dir = Self.examples.appendingPathComponent("ring-seed000")
        let rings = dir.appendingPathComponent("rings.json").path
        let csv = run(arguments: ["ring", "--width", "428", "--height", "926", rings, "--heart-samples", "5",
                                  "--check", dir.appendingPathComponent("layout.csv").path])
        #expect(csv.status == 64 && csv.stdout.isEmpty, "\(csv.stderr)")
        #expect(csv.stderr.hasPrefix("cvlayout: error: --check: with --heart-samples the CSV is a table of samples"))
        let json = run(arguments: ["ring", "--width", "428", "--height", "926", rings, "--heart-samples", "5",
                                   "--check", dir.appendingPathComponent("layout.json").path])
        // A golden without samples is thin: it matches, and the check says what it did not compare.
        #expect(json.status == 0 && json.stderr == "cvlayout: warning: --check: not compared: heartSamples "
                + "(not in \(dir.appendingPathComponent("layout.json").path))\n", "\(json.stderr)")
        let golden = try Self.directory([:]).appendingPathComponent("samples.json").path
        let record = ["ring", "--width", "428", "--height", "926", rings, "--heart-samples", "5"]
        #expect(run(arguments: record + ["-o", golden]).status == 0)
        #expect(run(arguments: record + ["--check", golden]).status == 0)
        let six = run(arguments: ["ring", "--width", "428", "--height", "926", rings, "--heart-samples", "6", "--check", golden])
        #expect(six.status == 1 && six.stderr.contains("    heartSamples[5].t      (none) → 1\n"), "\(six.stderr)")
        // Units: a sample's t is a fraction and its angle degrees, not points.
        #expect(six.stderr.hasSuffix("largest delta 35.376 pt at heartSamples[4].x\n"), "\(six.stderr.suffix(120))")
        let samplesCSV = golden.replacingOccurrences(of: ".json", with: ".csv")
        #expect(run(arguments: record + ["-f", "csv", "-o", samplesCSV]).status == 0)
        #expect(run(arguments: record + ["--check", samplesCSV]).status == 0)
        let sixCSV = run(arguments: ["ring", "--width", "428", "--height", "926", rings, "--heart-samples", "6", "--check", samplesCSV])
        #expect(sixCSV.status == 1 && sixCSV.stderr.contains("    heartSamples[5].t      (none) → 1\n"), "\(sixCSV.stderr)")
        let none = run(arguments: ["ring", "--width", "428", "--height", "926", rings, "--check", samplesCSV])
        #expect(none.status == 64 && none.stderr.hasPrefix("cvlayout: error: --check: GOLDEN is a CSV of heart samples"))
        #expect(run(arguments: ["diff", samplesCSV, samplesCSV]).status == 0)
    }

    /// Names read from a file reach the text report with their control characters escaped
    /// (an escape sequence or a line break went out raw). Found by a tester.
    @Test func controlCharactersInNamesAreEscapedInTheReport() throws {
        func dump(_ height: Int) -> String {
            #"[{"indexPath":[0,0],"category":"supplementaryView","kind":"\u001b[31mred\r\n","frame":{"x":0,"y":0,"width":1,"height":"#
                + "\(height)}}]"
        }
        let (result, _, _) = try Self.diff(dump(1), dump(2))
        #expect(result.status == 1)
        #expect(result.stdoutText.contains("~ \\u001b[31mred\\u000d\\u000a 0:0\n"), "\(result.stdoutText)")
        #expect(!result.stdoutText.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    /// Issue 28: error messages and warnings show control characters as `?`, as every
    /// message does (the reports escape them).
    @Test func messagesShowControlCharactersAsQuestionMarks() throws {
        let base = "section,item,category,kind,x\n0,0,cell,,1\n"
        let (category, _, _) = try Self.diff(base, "section,item,category,kind,x\n0,0,c\u{1}x,,1\n", names: ("a.csv", "b.csv"))
        #expect(category.status == 2)
        #expect(category.stderr.hasSuffix("b.csv: row 2: category: expected cell, supplementaryView or decorationView, got c?x\n"))
        let (number, _, _) = try Self.diff(base, "section,item,category,kind,x\n0,0,cell,,1\u{1}\n", names: ("a.csv", "b.csv"))
        #expect(number.stderr.hasSuffix("b.csv: row 2: x: expected a finite number, got 1?\n"), "\(number.stderr)")
        let twice = #"{"indexPath":[0,0],"category":"supplementaryView","kind":"h\u0001\u009b","frame":{"x":0,"y":0,"width":1,"height":1}}"#
        let (duplicate, _, _) = try Self.diff("[\(twice)]", "[\(twice),\(twice)]")
        #expect(duplicate.stderr.hasSuffix("b.json: [1]: duplicate element h?? 0:0 (also at [0])\n"), "\(duplicate.stderr)")
        let (unknown, _, _) = try Self.diff(base, "section,item,category,kind,x,n\u{7}ame\n0,0,cell,,1,2\n", names: ("a.csv", "b.csv"))
        #expect(unknown.status == 0)
        #expect(unknown.stderr.hasSuffix("b.csv: column 'n?ame' is not compared (cvlayout does not know it)\n"), "\(unknown.stderr)")
    }

    /// Issue 28: a supplementary or decoration view without a kind is matched by its category
    /// and index path, and named by its category, in JSON and CSV, streamed or whole.
    @Test func viewsWithoutAKindAreMatchedByCategory() throws {
        func json(_ height: Int) -> String {
            #"[{"indexPath":[0,0],"category":"supplementaryView","frame":{"x":0,"y":0,"width":1,"height":"# + "\(height)}},"
                + #"{"indexPath":[0,0],"category":"decorationView","kind":null,"frame":{"x":0,"y":0,"width":1,"height":1}},"#
                + #"{"indexPath":[0,0],"category":"supplementaryView","kind":"header","frame":{"x":0,"y":0,"width":1,"height":1}}]"#
        }
        let (same, _, _) = try Self.diff(json(1), json(1))
        #expect(same.status == 0 && same.stdoutText == "same: 3 elements within tolerance 0.001\n", "\(same.stdoutText)")
        let (changed, _, _) = try Self.diff(json(1), json(2))
        #expect(changed.status == 1)
        #expect(changed.stdoutText.contains("~ supplementaryView 0:0\n    frame.height  1 → 2  (+1)\n"), "\(changed.stdoutText)")
        let csv = "section,item,category,kind,height\n0,0,supplementaryView,,2\n0,0,decorationView,,1\n0,0,supplementaryView,header,1\n"
        let (mixed, _, _) = try Self.diff(json(2), csv, names: ("a.json", "b.csv"))
        #expect(mixed.status == 0, "\(mixed.stdoutText) \(mixed.stderr)")
        let (missing, _, _) = try Self.diff(json(2), "section,item,category,kind,height\n0,0,supplementaryView,header,1\n",
                                            names: ("a.json", "b.csv"))
        #expect(missing.stdoutText.contains("- supplementaryView 0:0  missing"), "\(missing.stdoutText)")
        #expect(missing.stdoutText.contains("- decorationView 0:0  missing"), "\(missing.stdoutText)")
    }

    /// `diff -f svg --report-file FILE`: when FILE cannot be created, no picture is written
    /// either (nothing is written on an error); when it can, the picture is the one without it.
    @Test func thePictureWaitsForTheReportFile() throws {
        let (plain, pa, pb) = try Self.diff("t,x,y,angle\n0,1,2,90\n", "t,x,y,angle\n0,1,2,80\n", names: ("a.csv", "b.csv"), ["-f", "svg"])
        let folder = URL(fileURLWithPath: pa).deletingLastPathComponent()
        let failed = run(arguments: ["diff", pa, pb, "-f", "svg", "--report-file", folder.path + "/no/r.txt"])
        #expect(failed.status == 2 && failed.stdout.isEmpty, "\(failed.stderr)")
        let written = run(arguments: ["diff", pa, pb, "-f", "svg", "--report-file", folder.path + "/r.txt"])
        #expect(written.status == 1 && written.stdout == plain.stdout && plain.stdoutText.hasPrefix("<?xml"))
        #expect(try String(contentsOf: folder.appendingPathComponent("r.txt"), encoding: .utf8).hasPrefix("--- "))
    }

    /// An artifact that cannot be written is trouble (2) after the report, which is not lost,
    /// and the message names the folder as given.
    @Test func aFailedArtifactComesAfterTheReport() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = dir.appendingPathComponent("g.json").path, artifacts = dir.path + "/./art"
        #expect(run(arguments: ["flow", "--count", "5", "-o", golden]).status == 0)
        try FileManager.default.createDirectory(atPath: artifacts + "/g.diff.svg", withIntermediateDirectories: true)
        let result = run(arguments: ["flow", "--count", "6", "--check", golden, "--artifacts", artifacts])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("--- \(golden)\n+++ cvlayout flow\n"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("1 of 6 elements differs (1 extra)\ncvlayout: error: --artifacts: cannot create output file "
                                        + "'\(artifacts)/g.diff.svg': is a directory\n"), "\(result.stderr)")
    }

    /// A file name's control characters are escaped in the report (`\u001b`, as JSON does):
    /// the `---` line and the github summary line stay one line each.
    @Test func controlCharactersInFileNamesAreEscapedInReports() throws {
        let a = "t,x,y,angle\n0,1,2,90\n", b = "t,x,y,angle\n0,1,2,80\n"
        let (text, pa, _) = try Self.diff(a, b, names: ("e\u{1B}x\ny.csv", "b.csv"))
        let folder = String(pa.dropLast("e\u{1B}x\ny.csv".count))
        #expect(text.status == 1 && text.stdoutText.hasPrefix("--- \(folder)e\\u001bx\\u000ay.csv\n+++ "), "\(text.stdoutText)")
        let (github, pg, _) = try Self.diff(a, b, names: ("e\u{1B}x\ny.csv", "b.csv"), ["--report", "github"])
        let escaped = String(pg.dropLast("e\u{1B}x\ny.csv".count)) + "e\\u001bx\\u000ay.csv: "
        #expect(github.stdoutText.split(separator: "\n").last?.hasPrefix(escaped) == true,
                "\(github.stdoutText)")
    }

    /// A heart sample's angle is compared the shorter way round: 180 and −180 are one
    /// direction (it was a 360° difference). Found by a tester.
    @Test func sampleAnglesWrapAround() throws {
        let (same, _, _) = try Self.diff("t,x,y,angle\n0,1,2,180\n", "t,x,y,angle\n0,1,2,-180\n", names: ("a.csv", "b.csv"))
        #expect(same.status == 0, "\(same.stdoutText)")
        let (turned, _, _) = try Self.diff("t,x,y,angle\n0,1,2,170\n", "t,x,y,angle\n0,1,2,-170\n", names: ("a.csv", "b.csv"))
        #expect(turned.status == 1 && turned.stdoutText.contains("heartSamples[0].angle  170 → -170  (+20)\n"), "\(turned.stdoutText)")
        #expect(turned.stdoutText.hasSuffix("largest delta 20 at heartSamples[0].angle\n"), "\(turned.stdoutText)")
        // Far from (−360, 360): each angle is turned in first, exactly; 1e300 (a multiple of
        // 360 as a Double) is 0°, 90° from 90 (it compared as the same), and 7290 is 90.
        let (far, _, _) = try Self.diff("t,x,y,angle\n0,1,2,90\n", "t,x,y,angle\n0,1,2,1e300\n", names: ("a.csv", "b.csv"))
        #expect(far.status == 1 && far.stdoutText.hasSuffix("largest delta 90 at heartSamples[0].angle\n"), "\(far.stdoutText)")
        let (turns, _, _) = try Self.diff("t,x,y,angle\n0,1,2,90\n", "t,x,y,angle\n0,1,2,7290\n", names: ("a.csv", "b.csv"))
        #expect(turns.status == 0, "\(turns.stdoutText)")
    }

    /// The engine is compared, and a golden that lacks fields (only index paths) matches but
    /// says what it did not compare. Found by a tester.
    @Test func checkComparesTheEngineAndWarnsOfAThinGolden() throws {
        let dir = try Self.directory(["thin.csv": "section,item\n0,0\n0,1\n0,2\n", "flow.json": ""])
        defer { try? FileManager.default.removeItem(at: dir) }
        let flow = dir.appendingPathComponent("flow.json").path
        #expect(run(arguments: ["flow", "--count", "3", "-o", flow]).status == 0)
        let engine = run(arguments: ["stack", "--count", "3", "--check", flow])
        #expect(engine.status == 1 && engine.stderr.contains("~ engine\n    engine  \"flow\" → \"stack\"\n"), "\(engine.stderr)")
        let thin = dir.appendingPathComponent("thin.csv").path
        let result = run(arguments: ["waterfall", "--count", "3", "--check", thin])
        #expect(result.status == 0 && result.stdout.isEmpty)
        #expect(result.stderr == "cvlayout: warning: --check: not compared: frame, center, transform, alpha, zIndex, hidden "
                + "(not in \(thin))\n")
    }

    /// A golden out of element order (shuffled from the start, or with one element moved to
    /// the end) is sorted on the way: `--check` says what `diff` of the golden against the
    /// layout says, in JSON and CSV.
    @Test func checkSortsAGoldenNotInElementOrder() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("check-sorted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        var rng = SplitMix64(seed: 21)
        let engine = ["waterfall", "--count", "300", "--header-height", "20", "--footer-height", "10"]
        for format in ["json", "csv"] {
            let layout = out.appendingPathComponent("layout.\(format)").path, source = out.appendingPathComponent("w.\(format)").path
            #expect(run(arguments: engine + ["-o", layout]).status == 0)
            #expect(run(arguments: engine + ["--width", "391", "-o", source]).status == 0)
            let text = try String(contentsOfFile: source, encoding: .utf8)
            let original = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let elements = format == "csv" ? 1..<original.count - 1 : 3..<original.count - 2
            var body = original[elements].map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
            for (k, shuffle) in [true, false].enumerated() {
                if shuffle { body.shuffle(using: &rng) } else { body.append(body.remove(at: 0)) }
                body.remove(at: 7)  // one extra in the layout
                var lines = original
                lines.replaceSubrange(elements, with: format == "csv" ? body : [body.joined(separator: ",\n")])
                let golden = out.appendingPathComponent("golden\(k).\(format)").path
                try lines.joined(separator: "\n").write(toFile: golden, atomically: true, encoding: .utf8)
                let check = run(arguments: engine + ["--check", golden])
                let diff = run(arguments: ["diff", golden, layout])
                #expect(check.status == 1 && diff.status == 1, "\(golden): \(check.stderr)")
                #expect(check.stderr == diff.stdoutText.replacingOccurrences(of: "+++ \(layout)", with: "+++ cvlayout waterfall"),
                        "\(golden)")
                #expect(check.stderr.contains(" extra"))
            }
        }
    }

    @Test func checkTroubleAndOutputFile() throws {
        let dir = try Self.directory(["golden.svg": "<svg/>", "golden.json": Self.base])
        let missing = run(arguments: ["stack", "--check", dir.appendingPathComponent("none.json").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasSuffix("none.json: cannot open: no such file\n"))
        let svg = run(arguments: ["stack", "--check", dir.appendingPathComponent("golden.svg").path])
        #expect(svg.status == 2)
        #expect(svg.stderr.contains("looks like SVG or XML"))
        // -o still writes the layout, so that CI can keep it.
        let output = dir.appendingPathComponent("actual.json").path
        let differ = run(arguments: ["stack", "--check", dir.appendingPathComponent("golden.json").path, "-o", output])
        #expect(differ.status == 1)
        #expect(FileManager.default.contents(atPath: output) == Data(run(arguments: ["stack"]).stdout))
        // The option is for the command line only.
        let dataset = try Self.directory(["d.json": "{\"options\":{\"check\":\"x.json\"},\"count\":3}"])
        let fromDataset = run(arguments: ["waterfall", dataset.appendingPathComponent("d.json").path])
        #expect(fromDataset.status == 65)
        #expect(fromDataset.stderr.contains("'check' can only be given on the command line"))
    }

    // MARK: - The CI example

    /// The built `cvlayout` next to the test bundle.
    static var builtBinary: String? { builtCvlayout?.path }

    static func shell(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
        try runProcess("/bin/sh", arguments, environment: environment)
    }

    @Test func ciScriptChecksEveryExampleAndCatchesAMove() throws {
        let binary = try #require(Self.builtBinary, "the cvlayout binary is not next to the test bundle")
        let script = Self.examples.appendingPathComponent("ci/check-goldens.sh").path
        let (status, stdout, stderr) = try Self.shell([script, Self.examples.path], environment: ["CVLAYOUT": binary])
        #expect(status == 0, "\(stdout)\(stderr)")
        let lines = stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("ok       ") }.count >= 28)
        #expect(lines.allSatisfy { $0.hasPrefix("ok       ") || $0.hasPrefix("skip     ") })
        #expect(lines.contains("ok       ring-seed000/layout.csv"))

        // A copy whose JSON golden has a taller content size: that golden differs, the CSV does not.
        let copy = try Self.directory([:]).appendingPathComponent("waterfall-seed001")
        try FileManager.default.copyItem(at: Self.examples.appendingPathComponent("waterfall-seed001"), to: copy)
        let golden = copy.appendingPathComponent("layout.json")
        var text = try String(contentsOf: golden, encoding: .utf8)
        let range = try #require(text.range(of: "\"contentSize\":{\"width\":390,\"height\":"))
        text.insert(contentsOf: "1", at: range.upperBound)
        try Data(text.utf8).write(to: golden)
        let (moved, movedOut, movedErr) = try Self.shell([script, copy.deletingLastPathComponent().path],
                                                         environment: ["CVLAYOUT": binary])
        #expect(moved == 1)
        #expect(movedOut == "DIFFERS  waterfall-seed001/layout.json\nok       waterfall-seed001/layout.csv\n")
        #expect(movedErr.contains("~ contentSize\n    contentSize.height  "))
        #expect(movedErr.contains("0 of 20 elements differ; contentSize differs; largest delta 10000 pt at contentSize.height\n"))

        let (empty, _, emptyErr) = try Self.shell([script, copy.path], environment: ["CVLAYOUT": binary])
        #expect(empty == 2)
        #expect(emptyErr.contains("no cases under"))

        // A `command` saved with CRLF endings is still checked (it was skipped as "not an
        // engine", status 0), and a command that is no engine is trouble. Found by a tester.
        try Data("waterfall --width 390 --height 844 photos.json\r\n".utf8).write(to: copy.appendingPathComponent("command"))
        let typo = copy.deletingLastPathComponent().appendingPathComponent("typo")
        try FileManager.default.createDirectory(at: typo, withIntermediateDirectories: true)
        try Data("waterfal\n".utf8).write(to: typo.appendingPathComponent("command"))
        try Data("{}".utf8).write(to: typo.appendingPathComponent("layout.json"))
        let (crlf, crlfOut, _) = try Self.shell([script, copy.deletingLastPathComponent().path], environment: ["CVLAYOUT": binary])
        #expect(crlf == 2)
        #expect(crlfOut.contains("TROUBLE  typo ('waterfal' is not an engine or transition)\n"), "\(crlfOut)")
        #expect(crlfOut.contains("DIFFERS  waterfall-seed001/layout.json\nok       waterfall-seed001/layout.csv\n"), "\(crlfOut)")
    }

    /// The README shows how to call the script, not its text (one home for each fact).
    @Test func theReadmeCallsTheScriptWithoutCopyingIt() throws {
        let script = try String(contentsOf: Self.examples.appendingPathComponent("ci/check-goldens.sh"), encoding: .utf8)
        let document = try String(contentsOf: Self.examples.deletingLastPathComponent().appendingPathComponent("README.md"),
                                  encoding: .utf8)
        #expect(document.contains("Examples/ci/check-goldens.sh "), "README.md must show a call of the script")
        let body = script.split(separator: "\n").filter { $0.count > 30 && !$0.hasPrefix("#!") }
        #expect(body.count > 10)
        #expect(body.allSatisfy { !document.contains($0) }, "README.md copies Examples/ci/check-goldens.sh")
        for name in ["check-goldens.sh", "github-actions.yml", "gitlab-ci.yml"] {
            #expect(FileManager.default.fileExists(atPath: Self.examples.appendingPathComponent("ci/\(name)").path), "\(name)")
            #expect(document.contains("](Examples/ci/\(name))"), "README.md must link to Examples/ci/\(name)")
        }
    }

    @Test func ciScriptWritesArtifactsAndOneJUnitSuite() throws {
        let binary = try #require(Self.builtBinary, "the cvlayout binary is not next to the test bundle")
        let script = Self.examples.appendingPathComponent("ci/check-goldens.sh").path
        let root = try Self.directory([:])
        for name in ["waterfall-seed001", "stack-seed002"] {
            try FileManager.default.copyItem(at: Self.examples.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
        // The waterfall laid out 10 points wider: both its goldens differ; the stack matches.
        let command = root.appendingPathComponent("waterfall-seed001/command")
        let words = try String(contentsOf: command, encoding: .utf8)
        try Data(words.replacingOccurrences(of: "--width 390", with: "--width 400").utf8).write(to: command)
        #expect(words.contains("--width 390"))
        let artifacts = root.appendingPathComponent("artifacts"), junit = root.appendingPathComponent("goldens.xml")
        let (status, stdout, _) = try Self.shell([script, "--artifacts", artifacts.path, "--junit", junit.path, root.path],
                                                 environment: ["CVLAYOUT": binary])
        #expect(status == 1, "\(stdout)")
        #expect(stdout == "ok       stack-seed002/layout.json\nok       stack-seed002/layout.csv\n"
                + "DIFFERS  waterfall-seed001/layout.json\nDIFFERS  waterfall-seed001/layout.csv\n")
        for format in ["json", "csv"] {
            let folder = artifacts.appendingPathComponent("waterfall-seed001/\(format)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                    == ["layout.actual.\(format)", "layout.diff.svg", "layout.report.txt"])
        }
        #expect(!FileManager.default.fileExists(atPath: artifacts.appendingPathComponent("stack-seed002").path))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testsuite ").count == 2)
        #expect(xml.contains("<testsuite name=\"check-goldens\" tests=\"4\" failures=\"2\" errors=\"0\""))
        for name in ["waterfall-seed001/layout.json", "waterfall-seed001/layout.csv", "stack-seed002/layout.json",
                     "stack-seed002/layout.csv"] {
            #expect(xml.contains("name=\"\(name)\">"), "\(name)")
        }
        #expect(xml.components(separatedBy: "<failure ").count == 3)
        for tool in ["/usr/bin/xmllint", "/usr/local/bin/xmllint"] where FileManager.default.isExecutableFile(atPath: tool) {
            #expect(try runProcess(tool, ["--noout", junit.path]).status == 0)
            break
        }
        // --record missing: a missing golden is recorded (status 1, a failing test case).
        try FileManager.default.removeItem(at: root.appendingPathComponent("stack-seed002/layout.csv"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("waterfall-seed001"))
        let (recorded, recordedOut, recordedErr) = try Self.shell([script, "--record", "missing", "--junit", junit.path, root.path],
                                                                 environment: ["CVLAYOUT": binary])
        #expect(recorded == 1, "\(recordedOut)\(recordedErr)")
        #expect(recordedOut == "ok       stack-seed002/layout.json\nRECORDED stack-seed002/layout.csv\n")
        #expect(recordedErr == "recorded layout.csv\n")
        #expect(FileManager.default.contents(atPath: root.appendingPathComponent("stack-seed002/layout.csv").path)
                == FileManager.default.contents(atPath: Self.examples.appendingPathComponent("stack-seed002/layout.csv").path))
        let junitText = try String(contentsOf: junit, encoding: .utf8)
        #expect(junitText.contains("tests=\"2\" failures=\"1\" errors=\"0\""))
        #expect(junitText.contains("<testcase classname=\"check-goldens\" name=\"stack-seed002/layout.csv\">\n<failure message=\"recorded layout.csv\">"))
        let (bad, _, badErr) = try Self.shell([script, "--record", "sometimes", root.path], environment: ["CVLAYOUT": binary])
        #expect(bad == 2 && badErr.contains("--record: expected never, missing, failed or all"))
    }
}

extension LayoutDiff {
    /// Two documents compared as streams, and the report in `style`.
    static func compare(_ expected: LayoutDocument, _ actual: LayoutDocument, options: DiffOptions = DiffOptions(),
                        style: StreamedReportStyle = .text(color: false), expectedName: String = "a",
                        actualName: String = "b") throws -> (result: LayoutDiffResult, report: String) {
        let diff = try compareStreams(expected: .document(expected), expectedFormat: nil, actual: .document(actual),
                                      actualFormat: nil, options: options, style: style)
        var report: [UInt8] = []
        try diff.writeReport(expectedName, actualName) { report += $0 }
        return (diff.result, String(decoding: report, as: UTF8.self))
    }
}
