// The CSV layout reader: CSV layouts row by row, in bounded memory.
import Foundation
import FastText
import LayoutDatasets
import LayoutWriters

/// CSV layouts row by row (RFC 4180: `"…"` quoting with `""` for a quote, LF, CRLF or CR
/// ending a record, blank lines skipped). A row as cvlayout writes it is read in one pass
/// (`standardRow`); any other as the header places its columns (`readRow`). A CSV of heart
/// samples has no elements: its rows are the `heartSamples` part.
final class CSVLayoutStream: LayoutElementStream {
    private let w: ByteWindow
    // Unchecked: a stream is read by one thread, never reentrantly.
    @exclusivity(unchecked) private var pos: Int
    private let header: CSVColumns.Analysis
    @exclusivity(unchecked) private var present: UInt16 = 0
    /// The lines read (the row just read is on line `lines`).
    @exclusivity(unchecked) private var lines = 0
    private var done = false
    /// The fields of the record just read, as ranges of the window (quotes included).
    private var fields: [Range<Int>] = []
    /// The header is cvlayout's own: `standardRow` is tried first.
    private let standard: Bool
    var isHeartSamples: Bool { if case .heartSamples = header { true } else { false } }
    /// The header's field count, and the heart samples read (a CSV of heart samples).
    private let fieldCount: Int
    private var samples: [NamedValue] = []

    /// - Throws: `LayoutReadError` for a header that is not a layout's.
    init(_ window: ByteWindow, position: Int) throws {
        w = window
        pos = position
        guard let line = try Self.record(w, &pos, &lines, into: &fields) else {
            throw LayoutReadError.notALayout(message: "empty file: expected a CSV header row")
        }
        let names = fields.map { [w] in Self.text(w.base, $0) }
        header = try CSVColumns.analyse(names, line: line)
        fieldCount = names.count
        standard = names == CSVLayoutWriter.columns
    }

    /// A field's text: its bytes, or a quoted field's without the quotes, `""` read as `"`.
    private static func text(_ b: UnsafeMutablePointer<UInt8>, _ range: Range<Int>) -> String {
        let bytes = UnsafeBufferPointer(start: b + range.lowerBound, count: range.count)
        guard bytes.first == UInt8(ascii: "\"") else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self).replacingOccurrences(of: "\"\"", with: "\"")
    }

    /// Reads the next record at `pos` into `fields`, moving the window as it needs (`lines`: the
    /// lines read): the line it starts on, `nil` at the end.
    /// - Throws: `LayoutReadError.syntax` for a stray or unterminated quote.
    private static func record(_ w: ByteWindow, _ pos: inout Int, _ lines: inout Int,
                               into fields: inout [Range<Int>]) throws -> Int? {
        while true {
            var i = pos, line = lines + 1, start = 0
            switch try parseRecord(w.base, w.end, atEOF: w.atEOF, &i, &line, &start, into: &fields) {
            case true?:
                pos = i
                lines = line - 1
                return start
            case false?:
                return nil
            case nil:  // the record may run past the window
                guard let shift = try w.refill(keepingFrom: pos) else { return nil }
                pos -= shift
            }
        }
    }

    /// The record at `i` in the `end` bytes at `b` (`line`: the line of the byte at `i`;
    /// `start`: the record's first line); `false` at the end, `nil` when it may run past the
    /// bytes (more follow unless `atEOF`).
    private static func parseRecord(_ b: UnsafeMutablePointer<UInt8>, _ end: Int, atEOF: Bool, _ i: inout Int,
                                    _ line: inout Int, _ start: inout Int, into fields: inout [Range<Int>]) throws -> Bool? {
        @inline(__always) func isDelimiter(_ byte: UInt8) -> Bool { byte == 0x2C || byte == 0x0A || byte == 0x0D }
        /// Consumes one line ending (LF, CRLF or CR); `false` when a CR ends the bytes.
        func endLine() -> Bool {
            if b[i] == 0x0D {
                if i + 1 == end && !atEOF { return false }
                if i + 1 < end && b[i + 1] == 0x0A { i += 1 }
            }
            i += 1
            line += 1
            return true
        }
        while i < end, b[i] == 0x0A || b[i] == 0x0D {
            guard endLine() else { return nil }
        }
        guard i < end else { return atEOF ? false : nil }
        start = line
        fields.removeAll(keepingCapacity: true)
        while true {
            let fieldStart = i
            if i < end && b[i] == UInt8(ascii: "\"") {
                let quoteLine = line
                i += 1
                while true {
                    guard i < end else {
                        guard atEOF else { return nil }
                        throw LayoutReadError.syntax(line: quoteLine, column: nil,
                                                     message: "unterminated quoted field (a '\"' is never closed)")
                    }
                    if b[i] == UInt8(ascii: "\"") {
                        if i + 1 == end && !atEOF { return nil }
                        if i + 1 < end && b[i + 1] == UInt8(ascii: "\"") {
                            i += 2
                            continue
                        }
                        i += 1
                        break
                    }
                    if b[i] == 0x0A { line += 1 }
                    i += 1
                }
                if i == end && !atEOF { return nil }
                if i < end, !isDelimiter(b[i]) {
                    throw LayoutReadError.syntax(line: line, column: nil,
                                                 message: "unexpected text after a closing quote (a quote inside a field is written \"\")")
                }
            } else {
                while i < end, !isDelimiter(b[i]) {
                    if b[i] == UInt8(ascii: "\"") {
                        throw LayoutReadError.syntax(line: line, column: nil,
                                                     message: "a quote inside an unquoted field (quote the field and write \"\")")
                    }
                    i += 1
                }
                if i == end && !atEOF { return nil }
            }
            fields.append(fieldStart..<i)
            if i < end && b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if i < end {
                guard endLine() else { return nil }
            }
            return true
        }
    }

    func next(into element: inout StreamedElement) throws -> Bool {
        guard !done else { return false }
        // The usual case: a row as cvlayout writes it and its line ending, well inside the window.
        if standard, w.end - pos >= 4096 {
            let p = w.base + pos
            let n = Self.standardRow(p, w.end - pos, &element)  // under 400 bytes
            if n > 0 && n + 1 < w.end - pos {
                let ending = p[n] == 0x0A ? 1 : p[n] == 0x0D && p[n + 1] == 0x0A ? 2 : 0
                if ending > 0 {
                    pos += n + ending
                    present |= 0x7FFF
                    lines += 1
                    element.ordinal = lines
                    return true
                }
            }
        }
        while let line = try Self.record(w, &pos, &lines, into: &fields) {
            guard fields.count == fieldCount else {
                throw LayoutReadError.syntax(line: line, column: nil,
                                             message: "expected \(fieldCount) fields as in the header, got \(fields.count)")
            }
            switch header {
            case .elements(let columns):
                try readRow(columns, line: line, into: &element)
                element.ordinal = line
                present |= element.mask
                return true
            case .heartSamples(let columns, _):
                // `heartSamples[k].t`, `.x`, `.y`, `.angle` for the k-th row, as a JSON layout gives them.
                let k = samples.count / columns.count
                for (name, column) in columns {
                    let text = Self.text(w.base, fields[column]).trimmingCharacters(in: .whitespaces)
                    guard let v = ValueSyntax.number(text), v.isFinite else {
                        throw LayoutReadError.invalidValue(
                            location: "row \(line)", message: "\(name): expected a finite number, got \(Self.shown(text))")
                    }
                    samples.append(NamedValue("heartSamples[\(k)].\(name)", .number(v)))
                }
            }
        }
        done = true
        return false
    }

    /// A row as `CSVLayoutWriter` writes it at the start of the `n` bytes at `p`: the bytes it
    /// takes up to its last field (the caller checks the line ends there); 0 for anything else.
    @inline(__always)
    private static func standardRow(_ p: UnsafeMutablePointer<UInt8>, _ n: Int, _ element: inout StreamedElement) -> Int {
        var c = ReadCursor(b: p, end: n, i: 0)
        guard let section = c.integer(), let item = c.integer() else { return 0 }
        guard let category = c.choice("cell,", "supplementaryView,", "decorationView,"),
              let kind = c.choice(",", "header,", "footer,").map(Int32.init),
              (kind == 0) == (category == 0) else { return 0 }
        // Named, not stored by index into a vector (which goes through memory each time).
        guard let x = c.number(), let y = c.number(), let width = c.number(),
              let height = c.number(), let cx = c.number(), let cy = c.number(),
              let ta = c.number(), let tb = c.number(), let tc = c.number(), let td = c.number(),
              let tx = c.number(), let ty = c.number(), let alpha = c.number(),
              let z = c.integer(signed: true) else { return 0 }
        guard let hidden = c.choice("false", "true") else { return 0 }
        element.setKey(section: section, item: item, category: category, kind: kind)
        element.values = SIMD16(x, y, width, height, cx, cy, ta, tb, tc, td, tx, ty, alpha, Double(z), Double(hidden), 0)
        element.mask = 0x7FFF
        return c.i
    }

    /// Reads the row in `fields` (on `line`) as `columns` places it: a plain field from its
    /// bytes, any other (quoted, spaced, `1e3`, `TRUE`) from its text.
    /// - Throws: `LayoutReadError` at the first field at fault: section, item, category, kind, fields.
    private func readRow(_ columns: CSVColumns, line: Int, into element: inout StreamedElement) throws {
        let b = w.base
        func invalid(_ column: String, _ message: String) -> LayoutReadError {
            .invalidValue(location: "row \(line)", message: "\(column): \(message)")
        }
        func bytes(_ column: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: b + fields[column].lowerBound, count: fields[column].count)
        }
        func text(_ column: Int) -> String { Self.text(b, fields[column]) }
        func isText(_ column: Int, _ literal: StaticString) -> Bool {
            fields[column].count == literal.utf8CodeUnitCount
                && memcmp(b + fields[column].lowerBound, literal.utf8Start, literal.utf8CodeUnitCount) == 0
        }
        func index(_ column: Int, _ name: String) throws -> Int {
            if let n = Self.integer(bytes(column), negative: false) ?? Self.integer(text(column).utf8, negative: false) { return n }
            throw invalid(name, "expected an integer ≥ 0, got \(Self.shown(text(column)))")
        }
        let section = try index(columns.section, "section"), item = try index(columns.item, "item")
        // No category column: cells (a CSV of index paths only).
        var category: UInt8 = 0, kind: Int32 = 0
        if let column = columns.category, !isText(column, "cell") {
            let name = isText(column, "supplementaryView") ? supplementaryCategory
                : isText(column, "decorationView") ? decorationCategory : text(column)
            guard let code = categoryCode(name) else {
                throw invalid("category", "\(LayoutReader.expectedCategory), got \(Self.shown(name))")
            }
            category = code
        }
        if let column = columns.kind, !fields[column].isEmpty {
            var name = isText(column, "header") ? headerKind : isText(column, "footer") ? footerKind : text(column)
            // The writer neutralises formula-like text with a leading apostrophe; undo it.
            if name.hasPrefix("'"), let second = name.unicodeScalars.dropFirst().first, "=+-@\t\r".unicodeScalars.contains(second) {
                name.removeFirst()
            }
            if category == 0 && !name.isEmpty { throw invalid("kind", "a cell has no kind, got \(Self.shown(name))") }
            kind = kindCode(name)
        }
        element.setKey(section: section, item: item, category: category, kind: kind,
                       disappearing: columns.change.map { text($0) == "disappear" } ?? false)
        element.values = SIMD16()
        element.mask = 0
        for (field, column) in columns.fields where !fields[column].isEmpty {
            let plain: Double?
            switch field {
            case .hidden: plain = isText(column, "true") ? 1 : isText(column, "false") ? 0 : nil
            case .zIndex: plain = Self.integer(bytes(column), negative: true).map(Double.init)
            default:  // the byte after the field (a delimiter or the window's zero) ends the number
                let end = fields[column].upperBound
                var c = ReadCursor(b: b, end: end + 1, i: fields[column].lowerBound)
                let v = c.number(then: Unicode.Scalar(b[end]), json: true)
                plain = c.i == end + 1 ? v : nil
            }
            if let plain {
                element.set(field, plain)
                continue
            }
            let text = text(column).trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            let value: Double?, what: String
            switch field {
            case .hidden: (value, what) = (["true": 1, "1": 1, "false": 0, "0": 0][text.lowercased()], "true or false")
            case .zIndex: (value, what) = (Self.integer(text.utf8, negative: true).map(Double.init), "an integer")
            default: (value, what) = (ValueSyntax.number(text).flatMap { $0.isFinite ? $0 : nil }, "a finite number")
            }
            guard let value else { throw invalid(field.csvColumn, "expected \(what), got \(Self.shown(text))") }
            element.set(field, value)
        }
    }

    func finish() throws -> (document: LayoutDocument, present: UInt16) {
        guard done else { throw LayoutStreamFallback("not at the end") }
        switch header {
        case .elements(let columns):
            return (LayoutDocument(shape: .csv, unknownNames: columns.unknownNames), present)
        case .heartSamples(_, let unknown):
            return (LayoutDocument(shape: .heartSamples, parts: [LayoutPart(name: "heartSamples", values: samples)],
                                   presentFields: [], unknownNames: Array(unknown.prefix(UnknownNames.limit))), 0)
        }
    }

    // MARK: The header

    /// What a CSV header says: where each column cvlayout reads is, and the others.
    struct CSVColumns {
        var section: Int, item: Int
        var category: Int?, kind: Int?, change: Int?
        /// The element fields given, in field order, with their columns.
        var fields: [(ElementField, Int)]
        /// Columns cvlayout does not know (at most `UnknownNames.limit`).
        var unknownNames: [String]

        enum Analysis {
            case elements(CSVColumns)
            case heartSamples([(String, Int)], unknown: [String])
        }

        /// Reads a header row.
        /// - Throws: `LayoutReadError.syntax` for a repeated column or one without `section` and `item`.
        static func analyse(_ header: [String], line headerLine: Int) throws -> Analysis {
            // Column positions by name; the CSV names, or the JSON paths (`frame.x`).
            let names = header.map { $0.trimmingCharacters(in: .whitespaces) }
            var columns: [String: Int] = [:]
            for (k, name) in names.enumerated() {
                if columns.updateValue(k, forKey: name) != nil {
                    throw LayoutReadError.syntax(line: headerLine, column: nil, message: "column '\(name)' appears twice in the header")
                }
            }
            let heart = ["t", "x", "y", "angle"]
            if columns["section"] == nil, columns["item"] == nil, heart.allSatisfy({ columns[$0] != nil }) {
                return .heartSamples(heart.map { ($0, columns[$0]!) }, unknown: names.filter { !heart.contains($0) })
            }
            guard let section = columns["section"], let item = columns["item"] else {
                throw LayoutReadError.syntax(line: headerLine, column: nil,
                                             message: "the header row needs 'section' and 'item' columns, or t,x,y,angle for heart samples "
                                                 + "(got \(truncated(header.joined(separator: ","), 80)))")
            }
            let fields = ElementField.allCases.compactMap { field in
                (columns[field.csvColumn] ?? columns[field.name]).map { (field, $0) }
            }
            // Columns cvlayout does not know: named once, not compared.
            let known = Set(TransitionWriter.csvColumns + ElementField.names)
            return .elements(CSVColumns(section: section, item: item, category: columns["category"], kind: columns["kind"],
                                        change: columns["change"], fields: fields,
                                        unknownNames: Array(names.filter { !known.contains($0) }.prefix(UnknownNames.limit))))
        }
    }

    /// A CSV field as a message shows it: at most 60 characters, control characters as `?`.
    static func shown(_ text: String) -> String {
        text.isEmpty ? "an empty field" : questioningControlCharacters(truncated(text, 60))
    }

    /// An integer in decimal digits (after a `-` when `negative` is allowed), spaces around it
    /// allowed; not `1.0`, `1e2` or `+1`, which no layout writes for an index or a zIndex.
    static func integer<Bytes: Sequence<UInt8>>(_ bytes: Bytes, negative: Bool) -> Int? {
        var value = 0, sign = 1, digits = 0
        var stage = 0  // 0: leading spaces, 1: sign and digits, 2: trailing spaces
        for byte in bytes {
            if byte == 0x20 || byte == 0x09 {
                if stage == 1 { stage = 2 }
                continue
            }
            guard stage < 2 else { return nil }
            if byte == UInt8(ascii: "-") && negative && stage == 0 {
                sign = -1
                stage = 1
                continue
            }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            stage = 1
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            value = sum
            digits += 1
        }
        return digits > 0 ? sign * value : nil
    }
}
