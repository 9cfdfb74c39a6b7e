import LayoutCore
import FastText

/// The CSV of docs/REFERENCE.md, "CSV": LF line endings, a header row (`columns`), one row
/// per element.
public enum CSVLayoutWriter {
    /// The header row's column names, in order (`ElementColumn.csvName`).
    public static let columns = ElementColumn.allCases.map(\.csvName)

    /// The header row (what comes before the first element's row).
    static func appendHeader(to out: OutputBuffer) {
        out.append(string: columns.joined(separator: ",") + "\n")
    }

    /// The rows of a streamed block; `allDefaultAppearance`: every row ends with the same constant.
    static func appendRows(_ block: UnsafeBufferPointer<LayoutAttributes>, allDefaultAppearance: Bool,
                           to out: OutputBuffer) {
        if allDefaultAppearance {
            appendDefaultAppearanceRows(block, to: out)
        } else {
            var items = CountingDigits()
            for k in block.indices { appendRow(block[k], to: out, items: &items) }
        }
    }

    /// The rows of elements with the default appearance, as `appendRow` writes them: x,
    /// width, height and centerX from the table of frames (`FrameText`), y and centerY as
    /// `RecentNumber`s, items counted on. One loop, so that its state stays in registers.
    static func appendDefaultAppearanceRows(_ block: UnsafeBufferPointer<LayoutAttributes>, to out: OutputBuffer) {
        guard let base = block.baseAddress else { return }
        let comma = UInt8(ascii: ",")
        let frames = out.frameTexts
        let standard = out.precision == .standard
        let digitTable = DigitTable.digits
        var items = CountingDigits()
        var y = RecentNumber(), centerY = RecentNumber()
        for k in 0..<block.count {
            var w = out.cursor(reserving: OutputBuffer.elementBound)
            let e = base + k
            appendLead(e.pointee, to: &w, items: &items)
            w.append(byte: comma)
            // Rect's stored parts, with midX's and midY's arithmetic.
            let x = e.pointee.frame.origin.x, minY = e.pointee.frame.origin.y
            let width = e.pointee.frame.size.width, height = e.pointee.frame.size.height
            let key = FrameKey(x: x, width: width, height: height)
            let entry = frames + key.slot
            if entry.pointee.key == key {
                let lengths = entry.pointee.lengths
                w.append(eight: entry.pointee.xText, count: Int(truncatingIfNeeded: lengths & 0xFF))
                w.append(byte: comma)
                w.append(number: minY, after: &y, standard: standard, digits: digitTable)
                w.append(twentyFour: entry.pointee.middle, count: Int(truncatingIfNeeded: lengths >> 8))
            } else {
                let xStart = w.position
                w.append(number: x)
                let xLength = w.position - xStart
                w.append(byte: comma)
                w.append(number: minY, after: &y, standard: standard, digits: digitTable)
                let middleStart = w.position
                // Zeros first, so that the entry is read from initialised bytes whatever the length.
                w.append(twentyFour: (0, 0, 0), count: 0)
                w.append(byte: comma); w.append(number: width)
                w.append(byte: comma); w.append(number: height)
                w.append(byte: comma); w.append(number: x + width / 2)
                w.append(byte: comma)
                let middleLength = w.position - middleStart
                if xLength <= 8 && middleLength <= 24 {
                    // Read back from the row just written (bytes past the lengths never copied out).
                    entry.pointee.key = key
                    entry.pointee.xText = UnsafeRawPointer(xStart).loadUnaligned(as: UInt64.self)
                    entry.pointee.middle = UnsafeRawPointer(middleStart).loadUnaligned(as: (UInt64, UInt64, UInt64).self)
                    entry.pointee.lengths = UInt64(truncatingIfNeeded: xLength) | UInt64(truncatingIfNeeded: middleLength) << 8
                }
            }
            w.append(number: minY + height / 2, after: &centerY, standard: standard, digits: digitTable)
            w.append(",1,0,0,1,0,0,1,0,false\n")
            out.commit(w)
        }
    }

    /// Appends `e`'s row (without its line feed when not `terminated`); `items` holds the last
    /// row's item digits (a new one: none).
    @inline(__always)
    static func appendRow(_ e: LayoutAttributes, to out: OutputBuffer, terminated: Bool = true,
                          items: inout CountingDigits) {
        let comma = UInt8(ascii: ",")
        var w = out.cursor(reserving: OutputBuffer.elementBound)
        appendLead(e, to: &w, items: &items)
        let f = e.frame, t = e.transform
        w.append(field: f.minX); w.append(field: f.minY); w.append(field: f.width); w.append(field: f.height)
        w.append(field: f.midX); w.append(field: f.midY)
        if e.hasDefaultAppearance {
            // Most elements: the rest of the row is a constant.
            if terminated { w.append(",1,0,0,1,0,0,1,0,false\n") } else { w.append(",1,0,0,1,0,0,1,0,false") }
            out.commit(w)
            return
        }
        if t == .identity {
            w.append(",1,0,0,1,0,0")  // an identity with another alpha, zIndex or hidden: no formatting
        } else {
            w.append(field: t.a); w.append(field: t.b); w.append(field: t.c); w.append(field: t.d)
            w.append(field: t.tx); w.append(field: t.ty)
        }
        w.append(byte: comma)
        if e.alpha == 1 { w.append(byte: UInt8(ascii: "1")) } else { w.append(number: e.alpha) }
        w.append(byte: comma)
        w.append(integer: e.zIndex)
        // Two constant-length copies, not one of a length chosen at run time (a memcpy call).
        if e.isHidden { w.append(",true") } else { w.append(",false") }
        if terminated { w.append(byte: 0x0A) }
        out.commit(w)
    }
}

extension ByteCursor {
    /// A comma, then `value`: the next number of a CSV row or a JSON array.
    @inline(__always)
    mutating func append(field value: Double) {
        append(byte: UInt8(ascii: ","))
        append(number: value)
    }

    /// A kind's name as it is (valid names need no quoting or escaping: `ElementKind.isValidName`),
    /// the usual ones copied from literals.
    @inline(__always)
    mutating func append(kindName kind: ElementKind) {
        switch kind {
        case .header: append("header")
        case .footer: append("footer")
        case .badge: append("badge")
        case .background: append("background")
        default: append(string: kind.rawValue)
        }
    }
}

extension CSVLayoutWriter {
    /// Appends a row's section, item, category and kind, with commas between (not after the kind).
    @inline(__always)
    static func appendLead(_ e: LayoutAttributes, to w: inout ByteCursor, items: inout CountingDigits) {
        w.append(integer: e.indexPath.section)
        w.append(byte: UInt8(ascii: ","))
        if let digits = items.digits(e.indexPath.item) { w.append(eight: digits.text, count: digits.length) } else { w.append(integer: e.indexPath.item) }
        switch e.category {
        case .cell: w.append(",cell,")
        case .supplementaryView: w.append(",supplementaryView,")
        case .decorationView: w.append(",decorationView,")
        }
        if let kind = e.kind { w.append(kindName: kind) }
    }
}

/// Writes the samples as CSV, in place of the elements: `t,x,y,angle`, then a row per sample.
/// - Complexity: O(samples).
func writeHeartSamples(_ samples: [PathSample], to out: OutputBuffer) throws {
    out.append("t,x,y,angle\n")
    for sample in samples {
        out.append(number: sample.t)
        out.append(byte: UInt8(ascii: ","))
        out.append(number: sample.point.x)
        out.append(byte: UInt8(ascii: ","))
        out.append(number: sample.point.y)
        out.append(byte: UInt8(ascii: ","))
        out.append(number: sample.angle)
        out.append(byte: 0x0A)
        try out.flushIfFull()
    }
}
