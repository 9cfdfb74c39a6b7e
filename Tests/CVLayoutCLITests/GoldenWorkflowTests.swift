import Foundation
import Testing
import LayoutCore
import FastText
import LayoutComparison
@testable import CVLayoutCLI

/// The golden workflow around `diff` and `--check`: the diff picture (`diff -f svg`),
/// `--artifacts`, `--record`, `--report` and `--report-file`.
struct GoldenWorkflowTests {
    // MARK: - Fixtures

    static let header = "section,item,category,kind,x,y,width,height,centerX,centerY,a,b,c,d,tx,ty,alpha,zIndex,hidden"

    /// A CSV row of a cell (or a supplementary view with `kind`).
    static func row(_ section: Int, _ item: Int, _ x: Double, _ y: Double, _ w: Double, _ h: Double,
                    kind: String? = nil, scale: Double = 1, alpha: Double = 1, zIndex: Int = 0, hidden: Bool = false) -> String {
        func n(_ v: Double) -> String { NumberFormat.string(v, precision: .full) }
        return "\(section),\(item),\(kind == nil ? "cell" : "supplementaryView"),\(kind ?? ""),\(n(x)),\(n(y)),\(n(w)),\(n(h)),"
            + "\(n(x + w / 2)),\(n(y + h / 2)),\(n(scale)),0,0,\(n(scale)),0,0,\(n(alpha)),\(zIndex),\(hidden)"
    }

    /// The golden: a header and six cells.
    static let goldenRows = [
        row(0, 0, 0, 0, 390, 40, kind: "header"),
        row(0, 0, 10, 50, 100, 100), row(0, 1, 120, 50, 100, 100), row(0, 2, 230, 50, 100, 100),
        row(0, 3, 10, 160, 100, 100), row(0, 4, 120, 160, 100, 100), row(0, 5, 230, 160, 100, 100),
    ]

    /// The new layout: 0:1 moved, 0:2 resized, 0:3 deleted, 0:4 faded, 0:5 scaled, 0:6 inserted.
    static let newRows = [
        row(0, 0, 0, 0, 390, 40, kind: "header"),
        row(0, 0, 10, 50, 100, 100), row(0, 1, 140, 80, 100, 100), row(0, 2, 230, 50, 150, 120),
        row(0, 4, 120, 160, 100, 100, alpha: 0.5), row(0, 5, 230, 160, 100, 100, scale: 1.2),
        row(0, 6, 10, 270, 100, 100),
    ]

    static func csv(_ rows: [String]) -> String { ([header] + rows).joined(separator: "\n") + "\n" }

    /// The same rows as a JSON list of element objects.
    static func jsonList(_ rows: [String]) -> String {
        let names = header.split(separator: ",").map(String.init)
        let objects = rows.map { row -> String in
            let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var pairs: [String] = []
            for (name, cell) in zip(names, cells) where !cell.isEmpty {
                let quoted = name == "category" || name == "kind"
                pairs.append("\"\(name)\":" + (quoted ? "\"\(cell)\"" : cell))
            }
            return "{" + pairs.joined(separator: ",") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    func write(_ text: String, _ url: URL) throws { try Data(text.utf8).write(to: url) }

    /// `dir/golden.csv` and `dir/new.csv` holding `goldenRows` and `newRows` (the fixtures by default).
    func goldenAndNew(in dir: URL, _ goldenRows: [String] = GoldenWorkflowTests.goldenRows,
                      _ newRows: [String] = GoldenWorkflowTests.newRows) throws -> (golden: URL, new: URL) {
        let golden = dir.appendingPathComponent("golden.csv"), new = dir.appendingPathComponent("new.csv")
        try write(Self.csv(goldenRows), golden)
        try write(Self.csv(newRows), new)
        return (golden, new)
    }

    /// The picture's shapes: each tag with its attributes.
    struct Shape {
        var tag: String
        var attributes: [String: String]
        func number(_ name: String) -> Double? { attributes[name].flatMap(Double.init) }
    }

    static func shapes(_ svg: String) -> [Shape] {
        var shapes: [Shape] = []
        let pattern = try! NSRegularExpression(pattern: #"<(rect|line|text)((?: [a-z0-9-]+="[^"]*")*)"#)
        let attribute = try! NSRegularExpression(pattern: #" ([a-z0-9-]+)="([^"]*)""#)
        let ns = svg as NSString
        for match in pattern.matches(in: svg, range: NSRange(location: 0, length: ns.length)) {
            let tag = ns.substring(with: match.range(at: 1)), text = ns.substring(with: match.range(at: 2))
            var attributes: [String: String] = [:]
            let inner = text as NSString
            for a in attribute.matches(in: text, range: NSRange(location: 0, length: inner.length)) {
                attributes[inner.substring(with: a.range(at: 1))] = inner.substring(with: a.range(at: 2))
            }
            shapes.append(Shape(tag: tag, attributes: attributes))
        }
        return shapes
    }

    /// The element shapes (those with `data-change`) of `path`'s element.
    static func shapes(_ all: [Shape], _ path: String, kind: String? = nil) -> [Shape] {
        all.filter { $0.attributes["data-index-path"] == path && $0.attributes["data-kind"] == kind
            && $0.attributes["data-change"] != nil }
    }

    // MARK: - The picture

    /// Checks the picture of golden → new (in any of the files' forms).
    func checkPicture(_ svg: String) {
        let all = Self.shapes(svg)
        func change(_ path: String, kind: String? = nil) -> Set<String> {
            Set(Self.shapes(all, path, kind: kind).compactMap { $0.attributes["data-change"] })
        }
        #expect(change("0:0", kind: "header") == ["same"])
        #expect(change("0:0") == ["same"])
        #expect(change("0:1") == ["moved"])
        #expect(change("0:2") == ["resized"])
        #expect(change("0:3") == ["removed"])
        #expect(change("0:4") == ["changed"])
        #expect(change("0:5") == ["changed"])
        #expect(change("0:6") == ["added"])
        // A moved element: the golden's frame dashed, the new one solid, an arrow between centres.
        let moved = Self.shapes(all, "0:1")
        let dashed = moved.first { $0.tag == "rect" && $0.attributes["stroke-dasharray"] != nil }
        let solid = moved.first { $0.tag == "rect" && $0.attributes["stroke-dasharray"] == nil }
        #expect(dashed?.attributes["data-side"] == "expected")
        #expect([dashed?.number("x"), dashed?.number("y"), dashed?.number("width"), dashed?.number("height")] == [120, 50, 100, 100])
        #expect(solid?.attributes["data-side"] == "actual")
        #expect([solid?.number("x"), solid?.number("y"), solid?.number("width"), solid?.number("height")] == [140, 80, 100, 100])
        let arrow = moved.first { $0.tag == "line" }
        #expect([arrow?.number("x1"), arrow?.number("y1"), arrow?.number("x2"), arrow?.number("y2")] == [170, 100, 190, 130])
        #expect(!moved.contains { $0.tag == "text" })  // nothing but the frame changed: no marker
        // A resized one: both boxes.
        let resized = Self.shapes(all, "0:2").filter { $0.tag == "rect" }
        #expect(resized.map { [$0.number("width"), $0.number("height")] } == [[100, 100], [150, 120]])
        #expect(resized.map { $0.attributes["stroke-dasharray"] != nil } == [true, false])
        // Removed (dashed, red) and added (solid, green) in two colours.
        guard let removed = Self.shapes(all, "0:3").first, let added = Self.shapes(all, "0:6").first else {
            Issue.record("no shapes for 0:3 or 0:6")
            return
        }
        #expect(removed.attributes["stroke-dasharray"] != nil && added.attributes["stroke-dasharray"] == nil)
        #expect(removed.attributes["stroke"] != added.attributes["stroke"])
        #expect([removed.number("x"), removed.number("y")] == [10, 160])
        #expect([added.number("x"), added.number("y")] == [10, 270])
        // Other attributes: marked with their names.
        #expect(svg.contains(">alpha</text>") && svg.contains(">transform</text>"))
        #expect(svg.contains("0:4 changed: alpha 1 → 0.5 (-0.5)"))
        // The canvas holds both layouts and the legend above them.
        let viewBox = svg.firstMatch(of: /viewBox="([-0-9.]+) ([-0-9.]+) ([0-9.]+) ([0-9.]+)"/)
        let box = viewBox.map { [Double($0.1)!, Double($0.2)!, Double($0.3)!, Double($0.4)!] } ?? []
        #expect(box.count == 4 && box[0] <= 0 && box[0] + box[2] >= 390 && box[1] + box[3] >= 370)
        #expect(svg.contains("id=\"legend\"") && svg.contains("moved (1)") && svg.contains("added (1)"))
    }

    @Test func thePictureShowsEveryKindOfChange() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (golden, new) = try goldenAndNew(in: dir)
        let result = run(arguments: ["diff", golden.path, new.path, "-f", "svg"])
        #expect(result.status == 1, "\(result.stderr)")
        checkPicture(result.stdoutText)

        // CSV against a JSON list and files in another order draw the same picture.
        let json = dir.appendingPathComponent("new.json"), reversed = dir.appendingPathComponent("reversed.csv")
        try write(Self.jsonList(Self.newRows), json)
        try write(Self.csv(Self.newRows.reversed()), reversed)
        let reversedGolden = dir.appendingPathComponent("reversed-golden.csv")
        try write(Self.csv(Self.goldenRows.reversed()), reversedGolden)
        for (g, other) in [(golden, json), (golden, reversed), (reversedGolden, new), (reversedGolden, json)] {
            let again = run(arguments: ["diff", g.path, other.path, "-f", "svg"])
            #expect(again.status == 1, "\(again.stderr)")
            checkPicture(again.stdoutText)
            #expect(again.stdoutText.replacingOccurrences(of: other.path, with: new.path)
                .replacingOccurrences(of: g.path, with: golden.path) == result.stdoutText)
        }
        // The layouts read whole (what the streams leave to the reader) draw it too.
        let expected = try LayoutReader.read(Data(Self.csv(Self.goldenRows).utf8), format: .csv)
        let actual = try LayoutReader.read(Data(Self.jsonList(Self.newRows.reversed()).utf8), format: .json)
        var whole: [UInt8] = []
        try LayoutDiffPicture.drawStreams(expected: .document(expected), expectedFormat: nil, actual: .document(actual),
                                          actualFormat: nil, options: DiffOptions(), expectedName: golden.path,
                                          actualName: new.path) {
            whole.append(contentsOf: $0)
        }
        #expect(String(decoding: whole, as: UTF8.self) == result.stdoutText)
    }

    @Test func aMoveThatAlsoFadesIsMarked() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (golden, new) = try goldenAndNew(in: dir, [Self.row(0, 0, 10, 10, 50, 50)],
                                             [Self.row(0, 0, 30, 10, 50, 50, alpha: 0.4, zIndex: 2)])
        let shapes = Self.shapes(run(arguments: ["diff", golden.path, new.path, "-f", "svg"]).stdoutText)
        #expect(Set(Self.shapes(shapes, "0:0").compactMap { $0.attributes["data-change"] }) == ["moved"])
        let svg = run(arguments: ["diff", golden.path, new.path, "-f", "svg"]).stdoutText
        #expect(svg.contains(">alpha, zIndex</text>"))
        #expect(svg.contains("<title>0:0 moved: frame.x 10 → 30 (+20); center.x 35 → 55 (+20); alpha 1 → 0.4 (-0.6); zIndex 0 → 2 (+2)</title>"))
    }

    @Test func thePictureFollowsTheToleranceAndTheFields() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (golden, new) = try goldenAndNew(in: dir)
        // Only alpha: the moves are not differences.
        var all = Self.shapes(run(arguments: ["diff", golden.path, new.path, "-f", "svg", "--fields", "alpha"]).stdoutText)
        #expect(Set(Self.shapes(all, "0:1").compactMap { $0.attributes["data-change"] }) == ["same"])
        #expect(Set(Self.shapes(all, "0:4").compactMap { $0.attributes["data-change"] }) == ["changed"])
        #expect(Set(Self.shapes(all, "0:5").compactMap { $0.attributes["data-change"] }) == ["same"])
        // A tolerance of 25 (an absolute bound, for alpha and scales too) hides the fade and
        // the scale, not the move by 30 points or the resize by 50.
        all = Self.shapes(run(arguments: ["diff", golden.path, new.path, "-f", "svg", "--tolerance", "25"]).stdoutText)
        #expect(Set(Self.shapes(all, "0:1").compactMap { $0.attributes["data-change"] }) == ["moved"])
        #expect(Set(Self.shapes(all, "0:2").compactMap { $0.attributes["data-change"] }) == ["resized"])
        #expect(Set(Self.shapes(all, "0:4").compactMap { $0.attributes["data-change"] }) == ["same"])
        #expect(Set(Self.shapes(all, "0:5").compactMap { $0.attributes["data-change"] }) == ["same"])
        // At 60 only the inserted and deleted elements remain.
        all = Self.shapes(run(arguments: ["diff", golden.path, new.path, "-f", "svg", "--tolerance", "60"]).stdoutText)
        #expect(Set(all.compactMap { $0.attributes["data-change"] }) == ["same", "added", "removed"])
        // The same layouts: status 0, everything faded.
        let same = run(arguments: ["diff", golden.path, golden.path, "-f", "svg"])
        #expect(same.status == 0)
        #expect(Set(Self.shapes(same.stdoutText).compactMap { $0.attributes["data-change"] }) == ["same"])
    }

    @Test func thePictureOfAnEngineChangeReadsBackAsTheTextReportSays() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try writeOutput(of: ["waterfall", "--count", "40"], to: dir.appendingPathComponent("a.json"))
        let b = try writeOutput(of: ["waterfall", "--count", "41", "--width", "400"], to: dir.appendingPathComponent("b.json"))
        let text = run(arguments: ["diff", a.path, b.path]).stdoutText
        let svg = run(arguments: ["diff", a.path, b.path, "-f", "svg"]).stdoutText
        // Each element the report names as changed, missing or extra is drawn as a change.
        var reported: [String: String] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("~ ") { reported[String(line.dropFirst(2))] = "changed" }
            if line.hasPrefix("+ ") { reported[String(line.dropFirst(2).prefix { $0 != " " })] = "added" }
            if line.hasPrefix("- ") { reported[String(line.dropFirst(2).prefix { $0 != " " })] = "removed" }
        }
        reported["bounds"] = nil
        reported["contentSize"] = nil
        var drawn: [String: String] = [:]
        for shape in Self.shapes(svg) where shape.attributes["data-change"] != nil && shape.attributes["data-change"] != "same" {
            drawn[shape.attributes["data-index-path"]!] = shape.attributes["data-change"]!
        }
        #expect(!reported.isEmpty)
        #expect(Set(drawn.keys) == Set(reported.keys))
        for (path, change) in reported where change != "changed" { #expect(drawn[path] == change) }
    }

    @Test func thePictureOptionsAreChecked() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = dir.appendingPathComponent("golden.csv")
        try write(Self.csv(Self.goldenRows), golden)
        let noFile = run(arguments: ["diff", golden.path, golden.path, "-f", "svg", "--report", "junit"])
        #expect(noFile.status == 2 && noFile.stdout.isEmpty && noFile.stderr.contains("--report-file"))
        let disagree = run(arguments: ["diff", golden.path, golden.path, "-f", "json", "--report", "text"])
        #expect(disagree.status == 2 && disagree.stderr.contains("disagree"))
        let bad = run(arguments: ["diff", golden.path, golden.path, "--report", "junitt"])
        #expect(bad.status == 2 && bad.stderr.contains("did you mean 'junit'?"))
        // The picture on stdout and the report in a file.
        let report = dir.appendingPathComponent("report.xml")
        let both = run(arguments: ["diff", golden.path, golden.path, "-f", "svg", "--report", "junit", "--report-file", report.path])
        #expect(both.status == 0 && both.stdoutText.hasPrefix("<?xml"))
        #expect(try String(contentsOf: report, encoding: .utf8).contains("<testcase classname=\"cvlayout diff\""))
    }

    // MARK: - Artifacts

    @Test func artifactsAreWrittenExactlyWhenTheCheckFails() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in ["json", "csv"] {
            let golden = try writeOutput(of: ["flow", "--count", "30", "-f", format], to: dir.appendingPathComponent("grid.golden.\(format)"))
            let artifacts = dir.appendingPathComponent("artifacts-\(format)")
            // The same layout: nothing written, not even the folder.
            let same = run(arguments: ["flow", "--count", "30", "--check", golden.path, "--artifacts", artifacts.path])
            #expect(same.status == 0 && same.stderr.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: artifacts.path))
            // Another layout: the three files.
            let arguments = ["flow", "--count", "31", "--width", "400", "--precision", "2"]
            let differs = run(arguments: arguments + ["--check", golden.path, "--artifacts", artifacts.path])
            #expect(differs.status == 1)
            let names = try FileManager.default.contentsOfDirectory(atPath: artifacts.path).sorted()
            #expect(names == ["grid.golden.actual.\(format)", "grid.golden.diff.svg", "grid.golden.report.txt"])
            let actual = FileManager.default.contents(atPath: artifacts.appendingPathComponent("grid.golden.actual.\(format)").path)
            #expect(actual == Data(run(arguments: arguments + ["-f", format]).stdout))
            let report = try String(contentsOf: artifacts.appendingPathComponent("grid.golden.report.txt"), encoding: .utf8)
            #expect(report == differs.stderr)
            let svg = try String(contentsOf: artifacts.appendingPathComponent("grid.golden.diff.svg"), encoding: .utf8)
            #expect(svg.contains("data-change=\"added\"") && svg.contains("data-change=\"moved\""))
        }
        // CVLAYOUT_ARTIFACTS is the default; --artifacts wins.
        let golden = try writeOutput(of: ["flow", "--count", "5"], to: dir.appendingPathComponent("g.json"))
        let fromEnvironment = dir.appendingPathComponent("env"), fromFlag = dir.appendingPathComponent("flag")
        _ = run(arguments: ["flow", "--count", "6", "--check", golden.path], environment: ["CVLAYOUT_ARTIFACTS": fromEnvironment.path])
        #expect(FileManager.default.fileExists(atPath: fromEnvironment.appendingPathComponent("g.diff.svg").path))
        _ = run(arguments: ["flow", "--count", "6", "--check", golden.path, "--artifacts", fromFlag.path],
                environment: ["CVLAYOUT_ARTIFACTS": fromEnvironment.path + "2"])
        #expect(FileManager.default.fileExists(atPath: fromFlag.appendingPathComponent("g.report.txt").path))
        #expect(!FileManager.default.fileExists(atPath: fromEnvironment.path + "2"))
        // Without --check, a usage error.
        #expect(run(arguments: ["flow", "--artifacts", dir.path]).status == 64)
    }

    /// Frames whose union is past a double's range still give a picture with a size: the
    /// legend's, never 0 × 0.
    @Test func thePictureOfFramesPastEveryRangeHasTheLegendsSize() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.csv"), b = dir.appendingPathComponent("b.csv")
        try Data("section,item,category,kind,x,y,width,height\n0,0,cell,,0,0,10,10\n".utf8).write(to: a)
        try Data("section,item,category,kind,x,y,width,height\n0,0,cell,,-1e308,-1e308,1,1\n0,1,cell,,1e308,1e308,1,1\n".utf8)
            .write(to: b)
        let picture = run(arguments: ["diff", a.path, b.path, "-f", "svg"])
        #expect(picture.status == 1, "\(picture.stderr)")
        #expect(picture.stdoutText.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"360\" height=\"156\""))
    }

    // MARK: - Recording

    /// A recording never replaces a picture or a document; `-o` never replaces the golden it
    /// is compared with; mode and report names take any case, as `-f` does.
    @Test func recordingAndOutputSpareWhatIsNotTheirs() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = dir.appendingPathComponent("screen.svg"), bare = dir.appendingPathComponent("screen")
        let svg = Data(run(arguments: ["flow", "--count", "3", "-f", "svg"]).stdout)
        try svg.write(to: picture)
        try svg.write(to: bare)
        for path in [picture, bare] {
            let recorded = run(arguments: ["flow", "--count", "3", "--check", path.path, "--record", "all"])
            #expect(recorded.status == 2, "\(recorded.stderr)")
            #expect(recorded.stderr.contains("is not a layout file (a picture or a document): it is not replaced"))
            #expect(FileManager.default.contents(atPath: path.path) == svg)
        }
        let golden = dir.appendingPathComponent("g.json")
        let layout = Data(run(arguments: ["flow", "--count", "3"]).stdout)
        try layout.write(to: golden)
        let overwrite = run(arguments: ["flow", "--count", "4", "--check", golden.path, "-o", dir.path + "/./g.json"])
        #expect(overwrite.status == 64, "\(overwrite.stderr)")
        #expect(FileManager.default.contents(atPath: golden.path) == layout)
        #expect(run(arguments: ["flow", "--count", "3", "--check", golden.path, "--report", "JUnit"]).status == 0)
        #expect(run(arguments: ["flow", "--count", "3", "--check", golden.path, "--record", "NEVER"]).status == 0)
    }

    @Test(arguments: [false, true])
    func everyRecordMode(ci: Bool) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = ci ? ["CI": "true"] : [:]
        let layout = run(arguments: ["flow", "--count", "8"]).stdout
        let other = run(arguments: ["flow", "--count", "9"]).stdout
        func contents(_ url: URL) -> [UInt8]? { FileManager.default.contents(atPath: url.path).map { [UInt8]($0) } }
        for (mode, fromEnvironment) in [("never", false), ("missing", false), ("failed", false), ("all", false),
                                        ("never", true), ("missing", true), ("failed", true), ("all", true)] {
            let flag = fromEnvironment ? [] : ["--record", mode]
            let environment = fromEnvironment ? base.merging(["CVLAYOUT_RECORD": mode]) { $1 } : base
            // Under CI=true the environment's missing and all are ignored, with a note.
            let ignored = ci && fromEnvironment && (mode == "missing" || mode == "all")
            let effective = ignored ? "never" : mode
            let label = "\(mode) env=\(fromEnvironment) ci=\(ci)"

            // A missing golden.
            let missing = dir.appendingPathComponent("missing-\(mode)-\(fromEnvironment).json")
            let first = run(arguments: ["flow", "--count", "8", "--check", missing.path] + flag, environment: environment)
            if effective == "missing" || effective == "all" {
                #expect(first.status == 1, "\(label)")
                #expect(first.stderr == "recorded \(missing.path)\n", "\(label)")
                #expect(contents(missing) == layout, "\(label)")
            } else {
                #expect(first.status == 2, "\(label)")
                #expect(contents(missing) == nil, "\(label)")
            }
            #expect(first.stderr.contains("is ignored under CI=true") == ignored, "\(label): \(first.stderr)")

            // A golden that differs.
            let differs = dir.appendingPathComponent("differs-\(mode)-\(fromEnvironment).json")
            try Data(other).write(to: differs)
            let second = run(arguments: ["flow", "--count", "8", "--check", differs.path] + flag, environment: environment)
            #expect(second.status == 1, "\(label)")
            let recorded = effective == "failed" || effective == "all"
            #expect(second.stderr.hasSuffix("recorded \(differs.path)\n") == recorded, "\(label)")
            #expect(contents(differs) == (recorded ? layout : [UInt8](other)), "\(label)")
            if effective == "failed" { #expect(second.stderr.contains("+++ cvlayout flow"), "\(label)") }

            // A golden that matches: only all writes it again, and says so.
            let matches = try writeOutput(of: ["flow", "--count", "8", "-f", "csv"],
                                          to: dir.appendingPathComponent("matches-\(mode)-\(fromEnvironment).csv"))
            let third = run(arguments: ["flow", "--count", "8", "--check", matches.path] + flag, environment: environment)
            #expect(third.status == (effective == "all" ? 1 : 0), "\(label)")
            #expect(third.stderr.contains("recorded") == (effective == "all"), "\(label)")
            #expect(contents(matches) == run(arguments: ["flow", "--count", "8", "-f", "csv"]).stdout, "\(label)")
        }
        // A mode that is none of the four.
        let bad = run(arguments: ["flow", "--check", dir.appendingPathComponent("x.json").path], environment: ["CVLAYOUT_RECORD": "1"])
        #expect(bad.status == 64 && bad.stderr.contains("CVLAYOUT_RECORD: expected one of never, missing, failed, all, got '1'"))
    }

    @Test func aTransitionRecordsAndReportsToo() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = dir.appendingPathComponent("t.json")
        let arguments = ["transition", "--from", "stack", "--to", "circle", "--progress", "0.5"]
        let recorded = run(arguments: arguments + ["--check", golden.path, "--record", "missing"])
        #expect(recorded.status == 1 && recorded.stderr == "recorded \(golden.path)\n")
        #expect(FileManager.default.contents(atPath: golden.path) == Data(run(arguments: arguments).stdout))
        let artifacts = dir.appendingPathComponent("artifacts")
        let differs = run(arguments: ["transition", "--from", "stack", "--to", "circle", "--progress", "0.6",
                                      "--check", golden.path, "--artifacts", artifacts.path, "--report", "github"])
        #expect(differs.status == 1)
        #expect(differs.stderr.hasPrefix("::error file=\(golden.path),title="))
        #expect(FileManager.default.fileExists(atPath: artifacts.appendingPathComponent("t.diff.svg").path))
    }

    // MARK: - Reports

    /// The elements and fields a text report names, in order.
    static func textChanges(_ report: String) -> [String] {
        var changes: [String] = []
        var current = ""
        for line in report.split(separator: "\n") {
            if line.hasPrefix("~ ") { current = String(line.dropFirst(2)) }
            else if line.hasPrefix("    ") { changes.append(current + " " + line.dropFirst(4).prefix { $0 != " " }) }
            else if line.hasPrefix("- ") || line.hasPrefix("+ ") {
                let name = line.dropFirst(2).components(separatedBy: "  ")[0]
                changes.append(name + (line.hasPrefix("- ") ? " missing" : " extra"))
            }
        }
        return changes
    }

    /// The same from a JSON report.
    static func jsonChanges(_ report: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(report.utf8)) as! [String: Any]
        var changes: [String] = []
        for difference in object["differences"] as! [[String: Any]] {
            let name = (difference["name"] as? String) ?? (difference["part"] as! String)
            switch difference["change"] as! String {
            case "missing", "extra": changes.append(name + " " + (difference["change"] as! String))
            default:
                for field in difference["fields"] as! [[String: Any]] { changes.append(name + " " + (field["field"] as! String)) }
            }
        }
        return changes
    }

    @Test func theJSONReportOfACheckListsTheTextReportsChanges() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in ["json", "csv"] {
            let golden = try writeOutput(of: ["waterfall", "--count", "30", "-f", format], to: dir.appendingPathComponent("g.\(format)"))
            let arguments = ["waterfall", "--count", "32", "--width", "400", "--check", golden.path]
            let text = run(arguments: arguments)
            let json = run(arguments: arguments + ["--report", "json"])
            #expect(text.status == 1 && json.status == 1)
            let changes = Self.textChanges(text.stderr)
            #expect(changes.count > 10)
            #expect(try Self.jsonChanges(json.stderr) == changes)
            // What `diff -f json` writes for the same two layouts.
            let actual = try writeOutput(of: ["waterfall", "--count", "32", "--width", "400", "-f", format],
                                         to: dir.appendingPathComponent("actual.\(format)"))
            let diff = run(arguments: ["diff", golden.path, actual.path, "-f", "json"]).stdoutText
            #expect(diff.replacingOccurrences(of: "\"actual\":\"\(actual.path)\"", with: "\"actual\":\"cvlayout waterfall\"")
                    .replacingOccurrences(of: "(not in \(actual.path))", with: "(not in cvlayout waterfall)") == json.stderr)
            // --report-file: the report there, nothing on stderr.
            let file = dir.appendingPathComponent("report.json")
            let toFile = run(arguments: arguments + ["--report", "json", "--report-file", file.path])
            #expect(toFile.status == 1 && toFile.stderr.isEmpty)
            #expect(try String(contentsOf: file, encoding: .utf8) == json.stderr)
        }
    }

    @Test func theJUnitReportIsWellFormed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = dir.appendingPathComponent("g.csv")
        try write(Self.csv(Self.goldenRows + [Self.row(1, 0, 0, 400, 10, 10, kind: "a<b&c")]), golden)
        let new = dir.appendingPathComponent("n.csv")
        try write(Self.csv(Self.newRows), new)
        let failed = run(arguments: ["diff", golden.path, new.path, "--report", "junit"])
        #expect(failed.status == 1)
        let xml = failed.stdoutText
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"cvlayout\" tests=\"1\" failures=\"1\""))
        #expect(xml.components(separatedBy: "<testcase ").count == 2)
        #expect(xml.contains("<failure type=\"layout differs\" message=\"7 of 9 elements differ (2 missing, 1 extra)"))
        #expect(xml.contains("a&lt;b&amp;c 1:0  missing"))
        #expect(xml.hasSuffix("</failure>\n</testcase>\n</testsuite>\n"))
        let passed = run(arguments: ["diff", golden.path, golden.path, "--report", "junit"]).stdoutText
        #expect(passed.contains("failures=\"0\"") && !passed.contains("<failure"))
        for document in [xml, passed] {
            let file = dir.appendingPathComponent("report.xml")
            try write(document, file)
            if let status = xmllint(file.path) { #expect(status == 0, "\(document)") }
        }
    }

    /// `xmllint --noout PATH`'s status, or `nil` when xmllint is not installed.
    func xmllint(_ path: String) -> Int32? {
        for directory in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let tool = directory + "/xmllint"
            guard FileManager.default.isExecutableFile(atPath: tool) else { continue }
            return try? runProcess(tool, ["--noout", path]).status
        }
        return nil
    }

    @Test func gitHubAnnotationsAreOneLineEachAndAtMostFifty() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = try writeOutput(of: ["flow", "--count", "100"], to: dir.appendingPathComponent("golden, v1.json"))
        let result = run(arguments: ["flow", "--count", "100", "--width", "400", "--check", golden.path, "--report", "github"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == 51)
        let escapedFile = golden.path.replacingOccurrences(of: ",", with: "%2C")
        for line in lines.prefix(50) {
            #expect(line.hasPrefix("::error file=\(escapedFile),title="), "\(line)")
            #expect(line.firstMatch(of: /^::error file=[^,:]+,title=[^,:]+::[^\r\n]+$/) != nil, "\(line)")
        }
        #expect(lines[0] == "::error file=\(escapedFile),title=bounds changed::bounds.width  390 → 400  (+10)")
        #expect(lines[2] == "::error file=\(escapedFile),title=0%3A1 changed::frame.x   68 → 70  (+2)%0Acenter.x  93 → 95  (+2)")
        let text = run(arguments: ["flow", "--count", "100", "--width", "400", "--check", golden.path]).stderr
        let total = Self.textChanges(text).map { $0.components(separatedBy: " ").dropLast().joined(separator: " ") }
        let count = Set(total).count
        #expect(count > 50)
        #expect(lines[50] == "\(golden.path): \(text.split(separator: "\n").last!) (50 of \(count) differences annotated)")
        // Missing and extra elements.
        let fewer = run(arguments: ["flow", "--count", "98", "--check", golden.path, "--report", "github"]).stderr
        #expect(fewer.hasPrefix("::error file=\(escapedFile),title=0%3A98 missing::0:98  missing (frame 136,960,50,50)\n"))
        #expect(fewer.contains("title=0%3A99 missing::0:99  missing (frame 204,960,50,50)\n"))
        // The same layout: the summary only.
        let same = run(arguments: ["flow", "--count", "100", "--check", golden.path, "--report", "github"])
        #expect(same.status == 0 && same.stderr == "\(golden.path): same: 100 elements within tolerance 0.001\n")
    }

    // MARK: - Bad input

    @Test func badDestinationsAndValuesAreClearErrors() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = try writeOutput(of: ["flow", "--count", "5"], to: dir.appendingPathComponent("g.json"))
        let file = dir.appendingPathComponent("file")
        try write("x", file)
        let differs = ["flow", "--count", "6", "--check", golden.path]
        func expectError(_ arguments: [String], environment: [String: String] = [:], status: Int32, _ message: String) {
            let result = run(arguments: arguments, environment: environment)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr.hasPrefix("cvlayout: error: " + message), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // After the report, which comes first.
        let blocked = run(arguments: differs + ["--artifacts", file.path + "/sub"])
        #expect(blocked.status == 2 && blocked.stdout.isEmpty && blocked.stderr.hasPrefix("--- \(golden.path)\n"))
        #expect(blocked.stderr.hasSuffix("\ncvlayout: error: --artifacts: cannot create '\(file.path)/sub': a file is in the way\n"),
                "\(blocked.stderr)")
        expectError(differs + ["--artifacts", ""], status: 64, "--artifacts: expected a directory, got ''")
        expectError(differs + ["--report", "xml"], status: 64, "--report: expected one of text, json, junit, github, got 'xml'")
        expectError(differs + ["--record", "sometimes"], status: 64, "--record: expected one of never, missing, failed, all")
        expectError(differs + ["--report-file", "-"], status: 64, "--report-file: expected a file, got '-'")
        expectError(differs + ["--report-file", dir.path + "/no/such/folder/r.xml"], status: 2,
                    "--report-file: cannot create output file")
        expectError(["flow", "--count", "5", "--check", file.path + "/g.json", "--record", "missing"], status: 2,
                    "--record: cannot create the folder of '\(file.path)/g.json': a file is in the way\n")
        for option in ["--artifacts", "--record", "--report", "--report-file"] {
            expectError(["flow", option, "x"], status: 64, "\(option) is used only with --check GOLDEN")
        }
        // In a dataset's options they are refused as --check is.
        let dataset = dir.appendingPathComponent("d.json")
        try write(#"{"options": {"record": "all"}, "items": [{"height": 10}]}"#, dataset)
        expectError(["flow", dataset.path], status: 65, "\(dataset.path): options.record: 'record' can only be given on the command line")
        // The environment's artifacts folder is used only by --check.
        #expect(run(arguments: ["flow", "--count", "5"], environment: ["CVLAYOUT_ARTIFACTS": file.path + "/sub"]).status == 0)
    }

    @Test func thePictureTakesStandardInputAndWritesNothingOnTrouble() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (golden, new) = try goldenAndNew(in: dir)
        let fromFile = run(arguments: ["diff", golden.path, new.path, "-f", "svg"]).stdoutText
        let fromStdin = run(arguments: ["diff", golden.path, "-", "-f", "svg"]) { Data(Self.csv(Self.newRows).utf8) }
        #expect(fromStdin.status == 1)
        #expect(fromStdin.stdoutText == fromFile.replacingOccurrences(of: new.path, with: "&lt;stdin&gt;"))
        let broken = dir.appendingPathComponent("broken.csv")
        try write(Self.header + "\n0,0,cell,,1,2,3\n", broken)
        let trouble = run(arguments: ["diff", golden.path, broken.path, "-f", "svg"])
        #expect(trouble.status == 2 && trouble.stdout.isEmpty && trouble.stderr.hasPrefix("cvlayout: error: \(broken.path)"))
    }
}
