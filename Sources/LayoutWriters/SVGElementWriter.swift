import LayoutCore
import FastText

/// Writes the still SVG's element groups (as `PlainLayoutWriter.svg`) straight into a buffer's
/// reserved space: literals, palette words, repeated numbers from a table; no allocation.
struct SVGElementWriter {
    let precision: NumberPrecision
    /// Draw cells round (ring and circle layouts).
    let round: Bool
    let labels: SVGLabels
    /// Where the next byte goes, in the space reserved for the element.
    private var position: UnsafeMutablePointer<UInt8>
    /// Recently written numbers and their text: a repeat is a 24-byte copy.
    private let cache: UnsafeMutablePointer<CachedNumber>
    /// The digits of the last element's item.
    private var items = CountingDigits()
    /// The precision is the default, 3 decimals.
    private let standard: Bool
    private let digits: UnsafePointer<UInt32>
    private let palette: UnsafePointer<UInt64>
    /// The last rect's and label's y, repeated along a row (`RecentNumber.write`).
    private var lastY = RecentNumber(), lastLabelY = RecentNumber()
    /// The buffer's frame texts, when every element has the default appearance and cells are square.
    private let frames: UnsafeMutablePointer<SVGFrameText>?
    /// Where labels the outline would cross go; `nil`: every label in its group.
    fileprivate(set) var above: SVGLabelsAboveOutline? = nil

    private init(precision: NumberPrecision, round: Bool, labels: SVGLabels, cache: UnsafeMutablePointer<CachedNumber>,
                 frames: UnsafeMutablePointer<SVGFrameText>?) {
        self.frames = frames
        self.precision = precision
        self.round = round
        self.labels = labels
        self.cache = cache
        standard = precision == .standard
        digits = DigitTable.digits
        palette = SVGPaint.fillWords
        position = UnsafeMutablePointer(bitPattern: 1)!
    }

    /// Calls `body` with a writer whose tables live on the stack: one per chunk and thread.
    @inline(__always)
    static func withWriter(precision: NumberPrecision, round: Bool, labels: SVGLabels,
                           frames: UnsafeMutablePointer<SVGFrameText>? = nil, above: SVGLabelsAboveOutline? = nil,
                           _ body: (inout SVGElementWriter) -> Void) {
        withUnsafeTemporaryAllocation(byteCount: CachedNumber.slots * MemoryLayout<CachedNumber>.stride,
                                      alignment: 64) { raw in  // no entry split across cache lines
            let table = raw.bindMemory(to: CachedNumber.self)
            // Empty entries hold a NaN's bits and the text NumberFormat writes for it, "0".
            let empty = CachedNumber(bits: .max, length: 1, text: (UInt64(UInt8(ascii: "0")), 0, 0))
            table.initialize(repeating: empty)
            var writer = SVGElementWriter(precision: precision, round: round, labels: labels, cache: table.baseAddress!,
                                          frames: frames)
            writer.above = above
            body(&writer)
        }
    }

    @inline(never)
    mutating func append(_ element: UnsafePointer<LayoutAttributes>, to out: OutputBuffer) {
        position = out.cursor(reserving: OutputBuffer.elementBound).position
        // The frame's stored parts (Rect's computed ones are calls across modules).
        let x = element.pointee.frame.origin.x, y = element.pointee.frame.origin.y
        let width = element.pointee.frame.size.width, height = element.pointee.frame.size.height
        let isCell = element.pointee.category == .cell
        let t = element.pointee.transform
        let item = element.pointee.indexPath.item
        // The item's digits, written twice, formatted once (usually counted on from the last).
        let itemText = items.digits(item)
        append("<g><rect data-index-path=\"")
        append(integer: element.pointee.indexPath.section)
        append(byte: UInt8(ascii: ":"))
        append(item, itemText)
        append(byte: UInt8(ascii: "\""))
        if !isCell { appendKindName(element, " data-kind=\"", "\"") }
        // (A block of the default appearance, `frames`, has the identity throughout.)
        if frames == nil && !(t.a == 1 && t.b == 0 && t.c == 0 && t.d == 1 && t.tx == 0 && t.ty == 0) {
            appendTransform(t, centerX: x + width / 2, centerY: y + height / 2)
        }
        let alpha = element.pointee.alpha
        if alpha < 1 {
            append(" opacity=\"")
            append(factor: SVGPaint.opacity(alpha))
            append(byte: UInt8(ascii: "\""))
        }
        // A cell of the default appearance: the texts around its y from the table of frames.
        let key = FrameKey(x: x, width: width, height: height)
        let entry = isCell ? frames.map { $0 + key.slot } : nil
        appendFrame(x: x, y: y, width: width, height: height, isCell: isCell, key: key, entry: entry)
        appendFill(element, isCell: isCell, itemText: itemText, width: width, height: height)
        let label: (characters: Int, size: Double)?
        if isCell && labels == .item, let itemText, alpha > 0,
           minimum(width, height) * 0.45 >= 14 && width >= 8.5 * Double(itemText.length) {
            label = (itemText.length, 14)  // `label(_:_:)`'s usual case, the digits already counted
        } else {
            label = Self.label(element.pointee, labels)
        }
        // A label the visible bounds' outline would run through is drawn after the outline.
        if let label, let above, above.crosses(element.pointee, label) {
            above.add(element.pointee)
            append("</g>\n")
        } else if let label {
            appendLabel(element, label: label, isCell: isCell, itemText: itemText, key: key, entry: entry)
        } else {
            append("</g>\n")
        }
        out.commit(ByteCursor(start: position, precision: precision, cache: cache))
    }

    /// ` x="…" y="…" width="…" height="…"` and any radius (left open); the texts around y
    /// from `entry` when it holds `key`, else stored there.
    @inline(__always)
    private mutating func appendFrame(x: Double, y: Double, width: Double, height: Double, isCell: Bool, key: FrameKey,
                                      entry: UnsafeMutablePointer<SVGFrameText>?) {
        if let entry, entry.pointee.key == key {
            let lengths = entry.pointee.lengths
            UnsafeMutableRawPointer(position).storeBytes(of: entry.pointee.before, as: (UInt64, UInt64, UInt64).self)
            position += Int(truncatingIfNeeded: lengths & 0xFF)
            lastY.write(y, at: &position, standard: standard, digits: digits, precision: precision)
            UnsafeMutableRawPointer(position).storeBytes(of: entry.pointee.after, as: (UInt64, UInt64, UInt64, UInt64, UInt64).self)
            position += Int(truncatingIfNeeded: lengths >> 8 & 0xFF)
        } else {
            let beforeStart = position
            if entry != nil { UnsafeMutableRawPointer(position).storeBytes(of: (0, 0, 0), as: (UInt64, UInt64, UInt64).self) }
            append(" x=\"")
            append(number: x)
            append("\" y=\"")
            let beforeLength = position - beforeStart
            lastY.write(y, at: &position, standard: standard, digits: digits, precision: precision)
            let afterStart = position
            if entry != nil {
                UnsafeMutableRawPointer(position).storeBytes(of: (0, 0, 0, 0, 0), as: (UInt64, UInt64, UInt64, UInt64, UInt64).self)
            }
            append("\" width=\"")
            append(number: width)
            append("\" height=\"")
            append(number: height)
            if round {
                append("\" rx=\"")
                append(number: width / 2)
            } else if isCell {
                append("\" rx=\"")
                append(number: SVGPaint.cellCornerRadius(width: width, height: height))
            }
            let afterLength = position - afterStart
            if let entry, beforeLength <= 24 && afterLength <= 40 {
                // Read back from the group just written (bytes past the lengths never copied out).
                entry.pointee.key = key
                entry.pointee.before = UnsafeRawPointer(beforeStart).loadUnaligned(as: (UInt64, UInt64, UInt64).self)
                entry.pointee.after = UnsafeRawPointer(afterStart).loadUnaligned(as: (UInt64, UInt64, UInt64, UInt64, UInt64).self)
                entry.pointee.lengths = UInt64(truncatingIfNeeded: beforeLength) | UInt64(truncatingIfNeeded: afterLength) << 8
            }
        }
    }

    /// `" fill="…"/>`: a cell's palette entry (by its item's last digit), a view's paint, a
    /// badge's pill radius before it.
    @inline(__always)
    private mutating func appendFill(_ element: UnsafePointer<LayoutAttributes>, isCell: Bool,
                                     itemText: (text: UInt64, length: Int)?, width: Double, height: Double) {
        if isCell {
            append("\" fill=\"")
            if let itemText {
                // The palette entry of the item's last digit, 7 bytes of a word.
                let digit = Int(truncatingIfNeeded: itemText.text >> UInt64(truncatingIfNeeded: (itemText.length &- 1) &* 8) & 0x0F)
                UnsafeMutableRawPointer(position).storeBytes(of: palette[digit], as: UInt64.self)
                position += 7
            } else {
                append(SVGPaint.fill(item: element.pointee.indexPath.item))
            }
            append("\"/>")
        } else {
            if !round && element.pointee.kind?.role == .badge {
                // A badge: a pill over its item (round layouts drew its corners already).
                append("\" rx=\"")
                append(number: SVGPaint.badgeCornerRadius(width: width, height: height))
            }
            append("\" fill=\"")
            append(SVGPaint.viewPaint(element.pointee.kind))
            append("\"/>")
        }
    }

    /// The label `<text …>…</text></g>`; its opening from `entry` when that holds it.
    @inline(__always)
    private mutating func appendLabel(_ element: UnsafePointer<LayoutAttributes>, label: (characters: Int, size: Double),
                                      isCell: Bool, itemText: (text: UInt64, length: Int)?, key: FrameKey,
                                      entry: UnsafeMutablePointer<SVGFrameText>?) {
        let x = element.pointee.frame.origin.x, y = element.pointee.frame.origin.y
        let width = element.pointee.frame.size.width, height = element.pointee.frame.size.height
        let t = element.pointee.transform, alpha = element.pointee.alpha, item = element.pointee.indexPath.item
        if let entry, entry.pointee.key == key && entry.pointee.lengths >> 16 != 0 {
            UnsafeMutableRawPointer(position).storeBytes(of: entry.pointee.label, as: (UInt64, UInt64, UInt64, UInt64).self)
            position += Int(truncatingIfNeeded: entry.pointee.lengths >> 16 & 0xFF)
        } else {
            let labelStart = position
            if entry != nil {
                UnsafeMutableRawPointer(position).storeBytes(of: (0, 0, 0, 0), as: (UInt64, UInt64, UInt64, UInt64).self)
            }
            append("<text x=\"")
            append(number: x + width / 2 + t.tx)
            append("\" y=\"")
            let labelLength = position - labelStart
            if let entry, entry.pointee.key == key && labelLength <= 32 {
                entry.pointee.label = UnsafeRawPointer(labelStart).loadUnaligned(as: (UInt64, UInt64, UInt64, UInt64).self)
                entry.pointee.lengths |= UInt64(truncatingIfNeeded: labelLength) << 16
            }
        }
        lastLabelY.write(y + height / 2 + t.ty + label.size * 0.35, at: &position, standard: standard, digits: digits,
                         precision: precision)
        append("\" font-family=\"sans-serif\" font-size=\"")
        append(number: label.size)
        append("\" text-anchor=\"middle\" fill=\"")
        if isCell {
            let lastDigitIsZero = itemText.map { $0.text >> UInt64(truncatingIfNeeded: ($0.length &- 1) &* 8) & 0xFF == 0x30 }
                ?? (item % 10 == 0)
            append(SVGPaint.cellLabelColour(lastDigitIsZero: lastDigitIsZero, alpha: alpha))
            append("\">")
            if labels == .indexPath {
                append(integer: element.pointee.indexPath.section)
                append(byte: UInt8(ascii: ":"))
            }
            append(item, itemText)
        } else {
            append("#333333\">")
            appendKindName(element, "", " ")
            append(integer: element.pointee.indexPath.section)
        }
        append("</text></g>\n")
    }

    /// An element's label length in characters and font size, points (`PlainLayoutWriter.svgLabel`).
    @inline(__always)
    static func label(_ element: LayoutAttributes, _ labels: SVGLabels) -> (characters: Int, size: Double)? {
        let width = element.frame.size.width, height = element.frame.size.height
        guard labels != .none && width >= 4 && height >= 4 && element.alpha > 0 && element.kind?.role != .decoration else { return nil }
        let path = element.indexPath
        var characters = decimalLength(path.item)
        if element.category != .cell {
            let word = (element.kind?.rawValue ?? element.category.rawValue).utf8.count
            characters = word + 1 + decimalLength(path.section)
        } else if labels == .indexPath {
            characters += 1 + decimalLength(path.section)
        }
        // Most cells: 14 points, without the division (8.5 points a character fits 14 / 0.6).
        let side = Swift.min(width, height) * 0.45
        if side >= 14 && width >= 8.5 * Double(characters) { return (characters, 14) }
        var fitted = Swift.min(14, side, width / (0.6 * Double(characters)))
        if fitted < 10 && element.category == .cell && Swift.min(width, height) >= 20 {
            let colons = labels == .indexPath ? 1 : 0
            let em = 0.56 * Double(characters - colons) + 0.28 * Double(colons)
            fitted = Swift.max(fitted, Swift.min(10, width / em))
        }
        if fitted < 4 && element.category != .cell { return nil }
        return (characters, Swift.max(4, fitted))
    }

    /// Digits of `value` in decimal, with its sign: ⌊b·log₁₀2⌋ or one more for a bit length b
    /// (1233 / 4096 ≈ log₁₀2, exact in the floor for b ≤ 64), told apart by a power of ten.
    @inline(__always)
    static func decimalLength(_ value: Int) -> Int {
        let magnitude = value.magnitude
        let bits = UInt64.bitWidth - (UInt64(magnitude) | 1).leadingZeroBitCount
        let floor = (bits &* 1233) >> 12
        let digits = floor + (UInt64(magnitude) >= NumberFormat.powerOfTen(floor) ? 1 : 0)
        return Swift.max(digits, 1) + (value < 0 ? 1 : 0)
    }

    /// ` transform="matrix(…)"` about the centre, T(c) · M · T(−c) as one matrix, or the three
    /// steps when its translation would not be finite.
    @inline(never)
    private mutating func appendTransform(_ t: AffineTransform, centerX: Double, centerY: Double) {
        let e = centerX + t.tx - t.a * centerX - t.c * centerY
        let f = centerY + t.ty - t.b * centerX - t.d * centerY
        let combined = e.isFinite && f.isFinite
        append(combined ? " transform=\"matrix(" : " transform=\"translate(")
        if !combined { appendPair(centerX, centerY, then: ") matrix(") }
        // The linear part at full precision: factors, not points.
        for factor in [t.a, t.b, t.c, t.d] {
            append(factor: factor)
            append(byte: UInt8(ascii: " "))
        }
        appendPair(combined ? e : t.tx, combined ? f : t.ty, then: ")")
        if !combined {
            append(" translate(")
            appendPair(-centerX, -centerY, then: ")")
        }
        append(byte: UInt8(ascii: "\""))
    }

    private mutating func appendPair(_ x: Double, _ y: Double, then text: StaticString) {
        append(number: x)
        append(byte: UInt8(ascii: " "))
        append(number: y)
        append(text)
    }

    /// `prefix`, a view's kind name or its category's when it has none (valid names need no
    /// escaping: `ElementKind.isValidName`), `suffix`.
    @inline(never)
    private mutating func appendKindName(_ element: UnsafePointer<LayoutAttributes>, _ prefix: StaticString,
                                         _ suffix: StaticString) {
        append(prefix)
        if let kind = element.pointee.kind {
            withCursor { $0.append(kindName: kind) }
        } else {
            withCursor { $0.append(string: element.pointee.category.rawValue) }
        }
        append(suffix)
    }

    /// `Swift.min(x, y)` for Doubles, inlined.
    @inline(__always)
    private func minimum(_ x: Double, _ y: Double) -> Double { y < x ? y : x }

    @inline(__always)
    private mutating func append(_ text: StaticString) {
        UnsafeMutableRawPointer(position).copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
        position += text.utf8CodeUnitCount
    }

    @inline(__always)
    private mutating func append(byte: UInt8) {
        position.pointee = byte
        position += 1
    }

    /// Runs `write` with a cursor at `position` (numbers through `cache`), then moves past its text.
    @inline(__always)
    private mutating func withCursor(_ write: (inout ByteCursor) -> Void) {
        var cursor = ByteCursor(start: position, precision: precision, cache: cache)
        write(&cursor)
        position = cursor.position
    }

    /// Appends `item`, from its digits when they were formatted (`NumberFormat.shortDigitsText`).
    @inline(__always)
    private mutating func append(_ item: Int, _ digits: (text: UInt64, length: Int)?) {
        if let digits {
            UnsafeMutableRawPointer(position).storeBytes(of: digits.text.littleEndian, as: UInt64.self)
            position += digits.length
        } else {
            append(integer: item)
        }
    }

    @inline(__always)
    private mutating func append(integer value: Int) {
        withCursor { $0.append(integer: value) }
    }

    /// Appends `value` as `NumberFormat.write` writes it, from the table when written recently
    /// (`ByteCursor.append(number:)`).
    @inline(__always)
    private mutating func append(number value: Double) {
        withCursor { $0.append(number: value) }
    }

    /// Appends `value` at full precision (a factor: a matrix's linear part, an opacity).
    @inline(never)
    private mutating func append(factor value: Double) {
        position += NumberFormat.write(value, precision: .full, to: position)
    }
}
