import Foundation
import Testing
import LayoutCore
@testable import FastText
@testable import LayoutComparison
@testable import LayoutDatasets
@testable import LayoutWriters

/// The streamed comparison of two files (`LayoutDiff.compareStreams`) gives byte for byte the
/// reports of the same layouts read whole (`LayoutDiff.compare` of `LayoutReader.read`), or
/// gives up (`LayoutStreamFallback`) where a file must be checked: duplicates, malformed
/// files. Files out of element order are sorted on the way.
struct StreamedDiffTests {
    /// A random layout: sections with an optional header and footer, cells, values at three
    /// decimals (some long, some negative).
    struct Element {
        var section: Int, item: Int
        var category = "cell", kind: String? = nil
        var values: [Double]  // x, y, width, height, a, b, c, d, tx, ty, alpha
        var zIndex = 0, hidden = false
    }

    static func layout(_ rng: inout SplitMix64, sections: Int) -> [Element] {
        var elements: [Element] = []
        func value() -> Double {
            switch rng.next() % 6 {
            case 0: return 0
            case 1: return Double(rng.next() % 1000)
            case 2: return -Double(rng.next() % 100_000) / 1000
            default: return Double(rng.next() % 10_000_000) / 1000
            }
        }
        func values() -> [Double] {
            var v = (0..<4).map { _ in abs(value()) }
            v += rng.next() % 3 == 0 ? [1, 0, 0, 1, 0, 0] : (0..<6).map { _ in value() }
            v.append(rng.next() % 2 == 0 ? 1 : Double(rng.next() % 1000) / 1000)
            return v
        }
        for s in 0..<sections {
            if rng.next() % 2 == 0 {
                elements.append(Element(section: s, item: 0, category: "supplementaryView", kind: "header", values: values()))
            }
            for i in 0..<Int(rng.next() % 6) {
                elements.append(Element(section: s, item: i, values: values(), zIndex: Int(rng.next() % 3) - 1,
                                        hidden: rng.next() % 7 == 0))
            }
            if rng.next() % 3 == 0 {  // a kind of cvlayout's writers never write: the strict scanner's way
                elements.append(Element(section: s, item: 0, category: "decorationView", kind: "separator", values: values()))
            }
            if rng.next() % 3 == 0 {
                elements.append(Element(section: s, item: 0, category: "supplementaryView", kind: "footer", values: values()))
            }
        }
        return elements
    }

    static func n(_ v: Double) -> String { NumberFormat.string(v, precision: .standard) }

    /// As `JSONLayoutWriter` writes it (with a content size and, maybe, a heart path).
    static func json(_ elements: [Element], contentHeight: Double, heart: Bool) -> String {
        var text = "{\"engine\":\"flow\",\"bounds\":{\"width\":390,\"height\":844},\"contentOffset\":{\"x\":0,\"y\":0},\n"
        text += "\"contentSize\":{\"width\":390,\"height\":\(n(contentHeight))},\n\"elements\":["
        for (k, e) in elements.enumerated() {
            text += k == 0 ? "\n" : ",\n"
            text += "{\"indexPath\":[\(e.section),\(e.item)],\"category\":\"\(e.category)\""
            if let kind = e.kind { text += ",\"kind\":\"\(kind)\"" }
            let v = e.values
            text += ",\"frame\":{\"x\":\(n(v[0])),\"y\":\(n(v[1])),\"width\":\(n(v[2])),\"height\":\(n(v[3]))}"
            text += ",\"center\":{\"x\":\(n(v[0] + v[2] / 2)),\"y\":\(n(v[1] + v[3] / 2))}"
            text += ",\"transform\":[" + v[4..<10].map(n).joined(separator: ",") + "]"
            text += ",\"alpha\":\(n(v[10])),\"zIndex\":\(e.zIndex),\"hidden\":\(e.hidden)}"
        }
        text += "\n]"
        if heart {
            text += ",\n\"heartPath\":{\"from\":[0,0],\"to\":[0,1],\"style\":\"seed\",\"start\":{\"x\":1,\"y\":2},"
            text += "\"segments\":[{\"control1\":{\"x\":3,\"y\":4},\"control2\":{\"x\":5,\"y\":\(n(contentHeight / 7))},"
            text += "\"end\":{\"x\":7,\"y\":8}}],\"d\":\"M 1 2\"}"
        }
        return text + "}\n"
    }

    /// As `CSVLayoutWriter` writes it.
    static func csv(_ elements: [Element]) -> String {
        var text = CSVLayoutWriter.columns.joined(separator: ",") + "\n"
        for e in elements {
            let v = e.values
            text += "\(e.section),\(e.item),\(e.category),\(e.kind ?? ""),"
            text += ([v[0], v[1], v[2], v[3], v[0] + v[2] / 2, v[1] + v[3] / 2] + v[4...]).map(n).joined(separator: ",")
            text += ",\(e.zIndex),\(e.hidden)\n"
        }
        return text
    }

    /// A JSON list of elements as an app might export it: keys in another order, flat
    /// `alpha`, some without a transform (read by the strict scanner, one at a time).
    static func exported(_ elements: [Element]) -> String {
        "[" + elements.map { e in
            let v = e.values
            var text = "{\"frame\": {\"height\": \(n(v[3])), \"width\": \(n(v[2])), \"x\": \(n(v[0])), \"y\": \(n(v[1]))}, "
            text += "\"indexPath\": [\(e.section), \(e.item)], \"category\": \"\(e.category)\""
            if let kind = e.kind { text += ", \"kind\": \"\(kind)\"" }
            return text + ", \"alpha\": \(n(v[10])), \"zIndex\": \(e.zIndex), \"hidden\": \(e.hidden)}"
        }.joined(separator: ",\n") + "]\n"
    }

    let dir: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-diff-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func write(_ text: String, _ name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Both reports both ways, or `nil` when the streamed comparison gave up.
    func reports(_ a: String, _ b: String, _ options: DiffOptions) throws -> (old: [String], new: [String])? {
        let formatA = LayoutFileFormat(pathExtension: a), formatB = LayoutFileFormat(pathExtension: b)
        let expected = try LayoutReader.read(Data(contentsOf: URL(fileURLWithPath: a)), format: formatA)
        let actual = try LayoutReader.read(Data(contentsOf: URL(fileURLWithPath: b)), format: formatB)
        func whole(_ style: StreamedReportStyle) throws -> (result: LayoutDiffResult, report: String) {
            let diff = try LayoutDiff.compareStreams(expected: .document(expected), expectedFormat: nil,
                                                     actual: .document(actual), actualFormat: nil, options: options, style: style)
            var bytes: [UInt8] = []
            try diff.writeReport("E", "A") { bytes += $0 }
            return (diff.result, String(decoding: bytes, as: UTF8.self))
        }
        let result = try whole(.json).result
        let old = [try whole(.text(color: false)).report, try whole(.text(color: true)).report, try whole(.json).report,
                   LayoutDiff.unknownNamesText(expected, name: "E") ?? "-", LayoutDiff.unknownNamesText(actual, name: "A") ?? "-"]
        var new: [String] = []
        for style in [StreamedReportStyle.text(color: false), .text(color: true), .json] {
            let streamed: StreamedDiff
            do {
                streamed = try LayoutDiff.compareStreams(expected: .path(a), expectedFormat: formatA, actual: .path(b),
                                                         actualFormat: formatB, options: options, style: style)
            } catch let error as LayoutStreamFallback {
                Issue.record("gave up: \(error) on \(a) \(b)")
                return nil
            }
            var bytes: [UInt8] = []
            try streamed.writeReport("E", "A") { bytes += $0 }
            new.append(String(decoding: bytes, as: UTF8.self))
            #expect(streamed.result.isSame == result.isSame)
            if new.count == 3 {
                new.append(LayoutDiff.unknownNamesText(streamed.expected, name: "E") ?? "-")
                new.append(LayoutDiff.unknownNamesText(streamed.actual, name: "A") ?? "-")
            }
        }
        return (old, new)
    }

    /// Expects the same reports both ways for each pair of `files`.
    /// - Returns: the pairs compared (the streamed comparison gave up on none).
    func expectSameReports(_ files: [(String, String)], _ options: DiffOptions) throws -> Int {
        for (a, b) in files {
            let reports = try #require(try reports(a, b, options), "the streamed comparison gave up on \(a) \(b)")
            #expect(reports.old == reports.new, "\(a) \(b)")
        }
        return files.count
    }

    /// `base` with elements missing and extra, and fields changed.
    static func changed(_ base: [Element], _ rng: inout SplitMix64) -> [Element] {
        var other = base
        for _ in 0..<Int(rng.next() % 4) where !other.isEmpty {
            let k = Int(rng.next() % UInt64(other.count))
            switch rng.next() % 4 {
            case 0: other.remove(at: k)
            case 1: other[k].values[Int(rng.next() % 11)] += Double(rng.next() % 5000) / 1000 - 2.5
            case 2: other[k].hidden.toggle()
            default: other[k].zIndex += 1
            }
        }
        if rng.next() % 4 == 0 {
            let s = (other.last?.section ?? 0) + 1
            other.append(Element(section: s, item: 0, values: [1, 2, 3, 4, 1, 0, 0, 1, 0, 0, 1]))
        }
        return other
    }

    /// The comparison options of round `round`: tolerances and field selections in turn.
    static func options(round: Int) throws -> DiffOptions {
        var options = DiffOptions()
        switch round % 5 {
        case 1: options.tolerance = 0
        case 2: options.tolerance = 0.5
        case 3: options = try DiffOptions.selecting("frame,alpha,contentSize")
        case 4: options = try DiffOptions.selecting("y,hidden,heartPath")
        default: break
        }
        return options
    }

    @Test func streamedReportsEqualTheWholeFileReportsOnRandomPairs() throws {
        var rng = SplitMix64(seed: 14)
        var streamedCount = 0
        for round in 0..<60 {
            let base = Self.layout(&rng, sections: 1 + Int(rng.next() % 4))
            let other = Self.changed(base, &rng)
            let options = try Self.options(round: round)
            let heart = round % 2 == 0
            let pairs: [(String, String)] = [
                (Self.json(base, contentHeight: 100, heart: heart), Self.json(other, contentHeight: round % 3 == 0 ? 100 : 120, heart: heart)),
            ]
            var files: [(String, String)] = []
            for (e, a) in pairs {
                files.append((try write(e, "e\(round).json"), try write(a, "a\(round).json")))
            }
            let csvE = try write(Self.csv(base), "e\(round).csv"), csvA = try write(Self.csv(other), "a\(round).csv")
            let listE = try write(Self.exported(base), "e\(round).list.json")
            files += [(csvE, csvA), (files[0].0, csvA), (csvE, files[0].1), (listE, files[0].1), (files[0].0, listE),
                      (listE, csvA)]
            streamedCount += try expectSameReports(files, options)
        }
        #expect(streamedCount == 420)
    }

    /// Files not in element order (one side shuffled, or both, the same way or not; JSON
    /// layouts, CSVs and exported lists; elements missing, extra and changed) are sorted on
    /// the way and give the whole-file reports, "in a different order" included; with runs
    /// of a few elements, through the merge of many runs on disk.
    @Test func shuffledFilesGiveTheWholeFileReports() throws {
        var rng = SplitMix64(seed: 41)
        var streamedCount = 0
        let standardRunBytes = SortedLayoutStream.runBytes
        defer { SortedLayoutStream.runBytes = standardRunBytes }
        for round in 0..<30 {
            let base = Self.layout(&rng, sections: 2 + Int(rng.next() % 6))
            let other = Self.changed(base, &rng)
            let options = try Self.options(round: round)
            let e = base.shuffled(using: &rng), a = other.shuffled(using: &rng)
            let heart = round % 2 == 0
            func json(_ elements: [Element], _ name: String) throws -> String {
                try write(Self.json(elements, contentHeight: 100, heart: heart), "\(name)\(round).json")
            }
            let files: [(String, String)] = [
                (try json(e, "se"), try json(other, "a")), (try json(base, "e"), try json(a, "sa")),
                (try json(e, "se"), try json(a, "sa")), (try json(e, "se"), try json(e, "se2")),
                (try json(base, "e"), try json(base, "e2")),
                (try write(Self.csv(e), "se\(round).csv"), try write(Self.csv(a), "sa\(round).csv")),
                (try write(Self.csv(e), "se\(round).csv"), try json(other, "a")),
                (try write(Self.exported(e), "se\(round).list.json"), try write(Self.csv(a), "sa\(round).csv")),
                (try json(a, "sa"), try write(Self.exported(e), "se\(round).list.json")),
            ]
            SortedLayoutStream.runBytes = round % 2 == 0 ? 3 * MemoryLayout<StreamedElement>.stride : standardRunBytes
            streamedCount += try expectSameReports(files, options)
        }
        #expect(streamedCount == 270)
    }

    /// A sorted stream gives every element of its file once, in element order, each with its
    /// position in the file, however many runs it merges; pairs of positions sort the same.
    @Test func theExternalSortMergesRunsInOrder() throws {
        var rng = SplitMix64(seed: 5)
        var elements: [Element] = []
        for s in 0..<40 { elements += Self.layout(&rng, sections: 1).map { var e = $0; e.section = s; return e } }
        let shuffled = elements.shuffled(using: &rng)
        let path = try write(Self.json(shuffled, contentHeight: 1, heart: false), "sort.json")
        let keys = try LayoutReader.read(Data(contentsOf: URL(fileURLWithPath: path)), format: .json).elements.map(\.key)
        for runLength in [1, 2, 7, 1000] {
            let sorted = SortedLayoutStream(try openLayoutStream(ByteWindow(path: path), format: .json),
                                            runBytes: runLength * MemoryLayout<StreamedElement>.stride)
            var element = StreamedElement.placeholder
            var seen: [ElementKey] = []
            while try sorted.next(into: &element) {
                #expect(keys[element.ordinal] == element.key)
                seen.append(element.key)
            }
            #expect(seen == keys.sorted(), "runs of \(runLength)")
            #expect(try sorted.finish().document.shape == .layout)
        }
        let pairs = (0..<5000).map { _ in PositionPair(first: Int(rng.next() % 100_000), second: Int(rng.next() % 9)) }
        for runBytes in [16, 16 * 100, 16 << 20] {
            let sorter = ExternalSorter<PositionPair>(runBytes: runBytes)
            for pair in pairs { try sorter.append(pair) }
            var pair = PositionPair(first: 0, second: 0)
            var firsts: [Int] = []
            while try sorter.next(into: &pair) { firsts.append(pair.first) }
            #expect(firsts == pairs.map(\.first).sorted())
        }
    }

    /// CSV rows read 8 digits at a time give the numbers the whole-file reader gives, to the
    /// bit: 1 to 17 digits, with and without a point, negative, leading zeros, long index
    /// paths, CRLF line endings and a last row without a line ending.
    @Test func csvNumbersAreReadAsTheWholeFileReaderReadsThem() throws {
        var rng = SplitMix64(seed: 8)
        func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(rng.next() % 10)) }) }
        func number() -> String {
            let whole = digits(1 + Int(rng.next() % 12))
            let fraction = rng.next() % 3 == 0 ? "" : "." + digits(1 + Int(rng.next() % 9))
            return (rng.next() % 4 == 0 ? "-" : "") + whole + fraction
        }
        for ending in ["\n", "\r\n"] {
            var text = CSVLayoutWriter.columns.joined(separator: ",") + ending
            for row in 0..<3000 {
                let values = (0..<13).map { _ in number() }.joined(separator: ",")
                text += "\(row / 7),\(row % 7 == 0 ? digits(9) : String(row)),cell,,\(values),\(Int(rng.next() % 200) - 100),"
                text += rng.next() % 2 == 0 ? "true" : "false"
                if row < 2999 { text += ending }
            }
            let path = try write(text, "numbers\(ending.count).csv")
            let whole = try LayoutReader.read(Data(text.utf8), format: .csv).elements
            let stream = try openLayoutStream(ByteWindow(path: path, chunk: 1 << 14), format: .csv)  // both paths
            var element = StreamedElement.placeholder
            var k = 0
            while try stream.next(into: &element) {
                #expect(element.key == whole[k].key)
                for field in ElementField.allCases {
                    #expect(element.value(field) == whole[k][field], "row \(k) \(field)")
                }
                k += 1
            }
            #expect(k == whole.count)
        }
    }

    @Test func duplicatedOrMalformedFilesAreLeftToTheWholeFileReader() throws {
        var rng = SplitMix64(seed: 7)
        var base = Self.layout(&rng, sections: 3)
        while base.count < 4 { base = Self.layout(&rng, sections: 3) }
        let good = try write(Self.json(base, contentHeight: 10, heart: false), "good.json")
        var swapped = base
        swapped.swapAt(0, 1)
        var duplicated = base
        duplicated.insert(base[1], at: 1)
        let shuffledDuplicate = duplicated.shuffled(using: &rng)
        let json = Self.json(base, contentHeight: 10, heart: false)
        let bad: [String] = [
            Self.json(shuffledDuplicate, contentHeight: 10, heart: false),
            Self.json(duplicated, contentHeight: 10, heart: false),
            Self.json(swapped, contentHeight: 10, heart: false).replacingOccurrences(of: "\n]", with: "\n"),  // out of order, cut
            String(json.dropLast(3)),                                   // cut short
            json.replacingOccurrences(of: "\"cell\"", with: "\"banana\""),
            json.replacingOccurrences(of: "{\"engine\"", with: "{\"engine\":1,\"engine\""),
            json + "x",
            json.replacingOccurrences(of: "\"zIndex\":0", with: "\"zIndex\":0.5"),
            "",
            "<svg/>",
        ]
        for (k, text) in bad.enumerated() {
            let path = try write(text, "bad\(k).json")
            for (a, b) in [(path, good), (good, path)] {
                #expect(throws: LayoutStreamFallback.self, "case \(k)") {
                    _ = try LayoutDiff.compareStreams(expected: .path(a), expectedFormat: .json, actual: .path(b),
                                                      actualFormat: .json, options: DiffOptions(), style: .json)
                }
            }
        }
        let csv = Self.csv(base)
        for (k, text) in [Self.csv(duplicated.shuffled(using: &rng)), csv.replacingOccurrences(of: ",cell,", with: ",cell,,"),
                          "x,y\n1,2\n"].enumerated() {
            let path = try write(text, "bad\(k).csv")
            #expect(throws: (any Error).self, "csv case \(k)") {
                _ = try LayoutDiff.compareStreams(expected: .path(path), expectedFormat: .csv, actual: .path(good),
                                                  actualFormat: .json, options: DiffOptions(), style: .text(color: false))
            }
        }
        // A quoted field is read by the stream too.
        let quoted = try write(csv.replacingOccurrences(of: ",cell,", with: ",\"cell\","), "quoted.csv")
        #expect(try LayoutDiff.compareStreams(expected: .path(quoted), expectedFormat: .csv, actual: .path(good),
                                              actualFormat: .json, options: DiffOptions(), style: .json).result.isSame)
    }

    /// A layout read whole is checked whole first: a syntax error anywhere comes before an
    /// element's, and an element's before a part's; an escaped key and a list of scalars
    /// are read as the file says.
    @Test func aLayoutReadWholeSaysTheFirstErrorOfTheWholeFile() throws {
        func message(_ text: String) -> String {
            do {
                let document = try LayoutReader.read(Data(text.utf8), format: .json)
                return "\(document.shape) \(document.elements.map(\.key)) \(document.unknownNames)"
            } catch let error as LayoutReadError {
                return error.message(file: "f")
            } catch {
                return "\(error)"
            }
        }
        #expect(message("[{\"indexPath\":[0,0],\"category\":\"banana\"},\n{\"indexPath\":[0,1],\"category\":\"cell\"},]")
                == "f:2:39: invalid JSON: unexpected character ']': expected a value")
        #expect(message("[1]") == "f: [0]: expected an element object, got 1")
        #expect(message(#"{"\u0065lements":[{"indexPath":[0,0],"category":"cell","x":2}],"comment":1}"#)
                == "layout [0:0] [\"comment\"]")
        #expect(message(#"{"engine":1,"elements":[{"indexPath":[0,0],"category":"banana"}]}"#)
                == "f: elements[0].category: expected cell, supplementaryView or decorationView, got \"banana\"")
        #expect(message(#"{"engine":1,"elements":[]}"#) == "f: engine: expected an engine name, got 1")
    }

    /// Each number of an element taken as the writer would print it and the reader read it
    /// back equals the value the text gives.
    @Test func printedValuesEqualTheTextReadBack() throws {
        var rng = SplitMix64(seed: 3)
        var values: [Double] = [0, -0.0, 1, -1, 0.0005, -0.0005, 0.0015, 2.675, 1e15, 4.5e15, 1e300, .leastNonzeroMagnitude, 123456789.0625]
        for _ in 0..<5_000 {
            let bits = rng.next()
            switch bits % 3 {
            case 0: values.append(Double(bitPattern: rng.next()))
            case 1: values.append(Double(Int64(bitPattern: rng.next()) % 100_000_000) / 4096)
            default: values.append(Double(rng.next() % 10_000_000) / 1000 * (bits % 2 == 0 ? 1 : -1))
            }
        }
        for v in values where v.isFinite {
            for precision in [NumberPrecision.standard, .decimals(0), .decimals(6), .full] {
                let text = NumberFormat.string(v, precision: precision)
                #expect(printedValue(v, precision: precision, csv: true) == ValueSyntax.number(text), "\(v) \(precision)")
                let json = try StrictJSON.values(Data("[\(text)]".utf8))
                #expect(json.elements?.first == .number(printedValue(v, precision: precision, csv: false)), "\(v) \(precision)")
            }
        }
    }
}

/// `.full` takes a short cut for values of at most three decimals; it gives the same digits
/// as the shortest round-trip form.
struct FullPrecisionShortCutTests {
    @Test func theShortCutWritesTheShortestDigits() {
        var rng = SplitMix64(seed: 11)
        var values: [Double] = [0.001, 0.1, 0.3, 1180, 1192.5, 0.0005, 4503599627370.495, 999999999999.999, 2.675, -0.001]
        for _ in 0..<50_000 {
            switch rng.next() % 4 {
            case 0: values.append(Double(bitPattern: rng.next()))
            case 1: values.append(Double(Int64(bitPattern: rng.next()) % 1_000_000_000_000_000) / 1000)
            case 2: values.append(Double(rng.next() % 100_000) / 1000 - 50)
            default: values.append(Double(rng.next() % 10_000_000) / 1024)
            }
        }
        for v in values where v.isFinite {
            var reference = [UInt8](repeating: 0, count: NumberFormat.maximumLength)
            let n = reference.withUnsafeMutableBufferPointer { NumberFormat.writeShortest(v, to: $0.baseAddress!) }
            #expect(NumberFormat.string(v, precision: .full) == String(decoding: reference[..<n], as: UTF8.self), "\(v)")
        }
    }
}

/// The reader's and the diff's fields are the numeric part of the writers' one list of an
/// element's fields (`ElementColumn`), so that an attribute added there is read and compared.
struct ElementFieldListTests {
    @Test func theFieldsAreTheWritersNumericColumns() {
        let numeric = ElementColumn.allCases.filter { $0.rawValue >= ElementColumn.x.rawValue }
        #expect(ElementField.allCases.map(\.column) == numeric)
        #expect(ElementField.allCases.map { "\($0)" } == numeric.map(\.csvName))
        #expect(ElementField.allCases.map(\.csvColumn) == Array(CSVLayoutWriter.columns.dropFirst(4)))
        #expect(ElementField.allCases.map(\.name) == ["frame.x", "frame.y", "frame.width", "frame.height", "center.x", "center.y",
                                                      "transform.a", "transform.b", "transform.c", "transform.d", "transform.tx",
                                                      "transform.ty", "alpha", "zIndex", "hidden"])
    }
}
