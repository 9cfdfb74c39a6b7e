// The CSV side of the streamed layout readers: CSV layouts row by row, in bounded memory.
import Foundation
import FastText
import LayoutDatasets
import LayoutWriters

/// CSV layouts row by row, as RFC 4180 has them: comma-separated fields, `"…"` quoting with
/// `""` for a quote, LF or CRLF (or a lone CR) ending a record, blank lines skipped. A row as
/// cvlayout writes it is read from its bytes in one pass (`standardRow`); any other through
/// `record` and the header's columns (`LayoutReader.CSVColumns`), which word what is wrong
/// with the line it is on (`LayoutReadError`). A CSV of heart samples has no elements: its
/// rows are the `heartSamples` part.
final class CSVLayoutStream: LayoutElementStream {
    private let w: ByteWindow
    // Unchecked: a stream is read by one thread, never reentrantly.
    @exclusivity(unchecked) private var pos: Int
    private let header: LayoutReader.CSVColumns.Analysis
    @exclusivity(unchecked) private var present: UInt16 = 0
    /// The lines read (the row just read is on line `lines`).
    @exclusivity(unchecked) private var lines = 0
    private var done = false
    /// The fields of the record just read, as ranges of the window (a quoted one with its
    /// quotes, `text`).
    private var fields: [Range<Int>] = []
    /// The header is cvlayout's own: rows are read by `standardRow` first.
    private let standard: Bool
    /// For each column: 0 none, 1 section, 2 item, 3 category, 4 kind, 5 change, 16 + field.
    private let roles: [Int]
    /// Whether it is a CSV of heart samples.
    var isHeartSamples: Bool {
        if case .heartSamples = header { return true }
        return false
    }
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
        header = try LayoutReader.CSVColumns.analyse(names, line: line)
        fieldCount = names.count
        standard = names == CSVLayoutWriter.columns
        var roles = [Int](repeating: 0, count: fieldCount)
        if case .elements(let columns) = header {
            roles[columns.section] = 1
            roles[columns.item] = 2
            for (role, column) in [(3, columns.category), (4, columns.kind), (5, columns.change)] {
                if let column { roles[column] = role }
            }
            for (field, column) in columns.fields { roles[column] = 16 + field.rawValue }
        }
        self.roles = roles
    }

    /// A field's text: its bytes, or a quoted field's without the quotes, `""` read as `"`.
    private static func text(_ b: UnsafeMutablePointer<UInt8>, _ range: Range<Int>) -> String {
        let bytes = UnsafeBufferPointer(start: b + range.lowerBound, count: range.count)
        guard bytes.first == UInt8(ascii: "\"") else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self).replacingOccurrences(of: "\"\"", with: "\"")
    }

    /// Reads the next record (RFC 4180, after any blank lines) at `pos` into `fields`, moving
    /// the window as it needs. `lines` counts the lines read.
    /// - Returns: the line the record starts on; `nil` at the end.
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
        // The usual case in one pass, without looking for the line's end first: a row as
        // cvlayout writes it and its line ending, well inside the window.
        if standard, w.end - pos >= 4096 {
            let p = w.base + pos
            let n = Self.standardRow(p, w.end - pos, &element)  // under 400 bytes
            if n > 0 && n + 1 < w.end - pos {
                if p[n] == 0x0A {
                    pos += n + 1
                    present |= 0x7FFF
                    lines += 1
                    element.ordinal = lines
                    return true
                }
                if p[n] == 0x0D && p[n + 1] == 0x0A {
                    pos += n + 2
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
                if !plainRow(into: &element) {
                    element = try columns.element(fields.map { Self.text(w.base, $0) }, line: line)
                }
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
                            location: "row \(line)", message: "\(name): expected a finite number, got \(LayoutReader.shownField(text))")
                    }
                    samples.append(NamedValue("heartSamples[\(k)].\(name)", .number(v)))
                }
            }
        }
        done = true
        return false
    }

    /// A row as `CSVLayoutWriter` writes it at the start of the `n` bytes at `p`, read in
    /// one pass: the bytes it takes up to its last field (`true` or `false`), which the
    /// caller checks end the line; 0 (and `element` untouched) for anything else.
    @inline(__always)
    private static func standardRow(_ p: UnsafeMutablePointer<UInt8>, _ n: Int, _ element: inout StreamedElement) -> Int {
        // The position is passed to the pieces, never captured (a captured variable would
        // be boxed and its accesses checked at run time).
        var i = 0
        guard let section = rowInteger(p, &i), let item = rowInteger(p, &i) else { return 0 }
        let category: UInt8
        if rowLiteral(p, n, &i, "cell,") {
            category = 0
        } else if rowLiteral(p, n, &i, "supplementaryView,") {
            category = 1
        } else if rowLiteral(p, n, &i, "decorationView,") {
            category = 2
        } else {
            return 0
        }
        var kind: Int32 = 0
        if rowLiteral(p, n, &i, "header,") {
            kind = 1
        } else if rowLiteral(p, n, &i, "footer,") {
            kind = 2
        } else if !rowLiteral(p, n, &i, ",") {
            return 0
        }
        guard (kind == 0) == (category == 0) else { return 0 }
        // Named, not stored by index into a vector (which goes through memory each time).
        guard let x = rowNumber(p, &i), let y = rowNumber(p, &i), let width = rowNumber(p, &i),
              let height = rowNumber(p, &i), let cx = rowNumber(p, &i), let cy = rowNumber(p, &i),
              let ta = rowNumber(p, &i), let tb = rowNumber(p, &i), let tc = rowNumber(p, &i), let td = rowNumber(p, &i),
              let tx = rowNumber(p, &i), let ty = rowNumber(p, &i), let alpha = rowNumber(p, &i),
              let z = rowInteger(p, &i, signed: true, maximumDigits: 15) else { return 0 }
        let zIndex = Double(z)
        let hidden: Double
        if rowLiteral(p, n, &i, "false") {
            hidden = 0
        } else if rowLiteral(p, n, &i, "true") {
            hidden = 1
        } else {
            return 0
        }
        element.setKey(section: section, item: item, category: category, kind: kind)
        element.values = SIMD16(x, y, width, height, cx, cy, ta, tb, tc, td, tx, ty, alpha, zIndex, hidden, 0)
        element.mask = 0x7FFF
        return i
    }

    // The pieces of a standard row at `p + i` (`standardRow`), each moving `i` past itself
    // and its comma. Runs of digits stop without a bound check: the byte after a row is a
    // line ending or the window's zero (`ByteWindow`), never a digit, a point or a comma.

    /// An integer of 1 to `maximumDigits` (at most 18) digits, with a `-` if `signed`, and its
    /// comma: an index path's part, a zIndex.
    @inline(__always)
    private static func rowInteger(_ p: UnsafeMutablePointer<UInt8>, _ i: inout Int, signed: Bool = false,
                                   maximumDigits: Int = 18) -> Int? {
        var j = i
        let negative = signed && p[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        var v: UInt64 = 0
        let start = j
        digits(p, &j, &v)
        guard j - start > 0, j - start <= maximumDigits, p[j] == UInt8(ascii: ",") else { return nil }
        i = j + 1
        return negative ? -Int(v) : Int(v)
    }

    /// `text`, if the `n` bytes at `p` hold it at `i`.
    @inline(__always)
    private static func rowLiteral(_ p: UnsafeMutablePointer<UInt8>, _ n: Int, _ i: inout Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard n - i >= count, equalBytes(p + i, text.utf8Start, count) else { return false }
        i += count
        return true
    }

    /// `-?digits(.digits)?` of at most 15 digits and its comma, as `Double(text)` reads it.
    @inline(__always)
    private static func rowNumber(_ p: UnsafeMutablePointer<UInt8>, _ i: inout Int) -> Double? {
        var j = i
        let negative = p[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        var significand: UInt64 = 0
        let start = j
        digits(p, &j, &significand)
        let integerDigits = j - start
        var fraction = 0
        if p[j] == UInt8(ascii: ".") {
            j += 1
            let fractionStart = j
            digits(p, &j, &significand)
            fraction = j - fractionStart
            if fraction == 0 { return nil }
        }
        // At most 15 digits in all: no overflow, and ≤ 2⁵³.
        guard integerDigits > 0, integerDigits + fraction <= 15, p[j] == UInt8(ascii: ",") else { return nil }
        i = j + 1
        var v = Double(Int64(bitPattern: significand))  // < 10¹⁵: a signed conversion, exact
        if fraction > 0 { v /= powersOfTen[fraction] }
        return negative ? -v : v
    }

    /// Reads the run of digits at `p + j` into `significand` (times ten per digit, plus the
    /// digit; wrapping past 19 digits) and moves `j` past it. (Eight at a time, SWAR, took
    /// more instructions: most numbers of a layout have one to four digits.)
    @inline(__always)
    private static func digits(_ p: UnsafeMutablePointer<UInt8>, _ j: inout Int, _ significand: inout UInt64) {
        while true {
            let d = p[j] &- 0x30
            if d >= 10 { return }
            significand = significand &* 10 &+ UInt64(d)
            j += 1
        }
    }

    /// The row in `fields` read from its bytes when every field is written plainly (digits,
    /// cvlayout's names, no quotes); `false` for anything else, which `CSVColumns.record`
    /// reads or refuses in words.
    private func plainRow(into element: inout StreamedElement) -> Bool {
        let b = w.base
        var section = -1, item = -1, category: UInt8 = 0, kind: Int32 = 0, disappearing = false
        var values = SIMD16<Double>(), mask: UInt16 = 0
        for (k, range) in fields.enumerated() where roles[k] != 0 {
            let p = b + range.lowerBound, n = range.count
            @inline(__always) func isText(_ text: StaticString) -> Bool {
                n == text.utf8CodeUnitCount && memcmp(p, text.utf8Start, n) == 0
            }
            switch roles[k] {
            case 1, 2:
                guard n > 0 && n <= 18 else { return false }
                var v = 0
                for j in 0..<n {
                    guard isDigit(p[j]) else { return false }
                    v = v &* 10 &+ Int(p[j] &- 0x30)
                }
                if roles[k] == 1 { section = v } else { item = v }
            case 3:
                if isText("cell") { category = 0 } else if isText("supplementaryView") { category = 1 } else if isText("decorationView") {
                    category = 2
                } else {
                    return false
                }
            case 4:
                if n == 0 { kind = 0 } else if isText("header") { kind = 1 } else if isText("footer") { kind = 2 } else { return false }
            case 5:
                disappearing = isText("disappear")
            default:
                let field = roles[k] - 16
                guard n > 0 else { continue }
                if field == ElementField.hidden.rawValue {
                    guard isText("true") || isText("false") else { return false }
                    values[field] = isText("true") ? 1 : 0
                } else if field == ElementField.zIndex.rawValue {
                    let negative = p[0] == UInt8(ascii: "-")
                    var j = negative ? 1 : 0, v = 0
                    guard n - j <= 15 else { return false }
                    while j < n, isDigit(p[j]) {
                        v = v &* 10 &+ Int(p[j] &- 0x30)
                        j += 1
                    }
                    guard j == n, n > (negative ? 1 : 0) else { return false }
                    values[field] = Double(negative ? -v : v)
                } else {
                    guard let v = Self.plainNumber(p, n) else { return false }
                    values[field] = v
                }
                mask |= 1 << UInt16(field)
            }
        }
        guard category != 0 || kind == 0 else { return false }  // a kind on a cell: refused in words
        element.setKey(section: section, item: item, category: category, kind: kind, disappearing: disappearing)
        element.values = values
        element.mask = mask
        return true
    }

    /// `-?digits(.digits)?` as `Double(text)` reads it (correctly rounded: Clinger's fast
    /// path), or `nil` for anything else.
    @inline(__always)
    static func plainNumber(_ p: UnsafeMutablePointer<UInt8>, _ n: Int) -> Double? {
        var j = 0
        let negative = p[0] == UInt8(ascii: "-")
        if negative { j = 1 }
        var significand: UInt64 = 0
        var digits = 0, fraction = 0, integerDigits = 0
        while j < n, isDigit(p[j]) {
            significand = significand &* 10 &+ UInt64(p[j] &- 0x30)
            if significand != 0 { digits += 1 }
            integerDigits += 1
            j += 1
        }
        if j < n && p[j] == UInt8(ascii: ".") {
            j += 1
            let fractionStart = j
            while j < n, isDigit(p[j]) {
                significand = significand &* 10 &+ UInt64(p[j] &- 0x30)
                if significand != 0 { digits += 1 }
                j += 1
            }
            fraction = j - fractionStart
            if fraction == 0 { return nil }
        }
        guard j == n, integerDigits > 0, digits <= 18, significand <= 1 << 53, fraction <= 22 else { return nil }
        var v = Double(significand)
        if fraction > 0 { v /= powersOfTen[fraction] }
        return negative ? -v : v
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    func finish() throws -> (document: LayoutDocument, present: UInt16) {
        guard done else { throw LayoutStreamFallback("not at the end") }
        switch header {
        case .elements(let columns):
            return (LayoutDocument(shape: .csv, elements: [], presentFields: [], unknownNames: columns.unknownNames), present)
        case .heartSamples(_, let unknown):
            return (LayoutDocument(shape: .heartSamples, elements: [], parts: [LayoutPart(name: "heartSamples", values: samples)],
                                   presentFields: [], unknownNames: Array(unknown.prefix(UnknownNames.limit))), 0)
        }
    }

    func duplicate(_ key: ElementKey, at ordinal: Int, first: Int) -> LayoutReadError {
        .invalidValue(location: "row \(ordinal)", message: "duplicate element \(key.messageText) (also on row \(first))")
    }
}
