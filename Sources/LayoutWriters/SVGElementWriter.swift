import LayoutCore
import FastText

// One element's shapes in a still SVG, written straight into an output buffer (the
// document around them is SVGLayoutWriter.swift's).

// MARK: - One element's shapes

/// Writes SVG element groups (`SVGLayoutWriter`'s shapes) straight into an output buffer's
/// reserved space (`OutputBuffer.cursor(reserving:)`): literals copied with their length known
/// at compile time, palette colours as literals, numbers of the default precision formatted
/// by `NumberFormat` and repeated ones copied from a table; nothing is checked or allocated
/// per element.
struct SVGElementWriter {
    /// How numbers are written.
    let precision: NumberPrecision
    /// Draw cells round (ring and circle layouts).
    let round: Bool
    /// Label each shape.
    let labels: SVGLabels
    /// Where the next byte goes, in the space reserved for the element being written.
    private var position: UnsafeMutablePointer<UInt8>
    /// Recently written numbers and their text: layouts repeat theirs (a column's x and
    /// width, a cell size, a corner radius), and a repeat is a 24-byte copy.
    private let cache: UnsafeMutablePointer<CachedNumber>
    /// Numbers formatted for the element being written, entered in `cache` when the next one
    /// starts: read back at once, their text would wait on the byte stores just made.
    private let pending: UnsafeMutablePointer<PendingNumber>
    private var pendingCount = 0
    /// The digits of the last element's item.
    private var items = CountingDigits()
    private static let pendingCapacity = 16
    /// The precision is the default, 3 decimals.
    private let standard: Bool
    /// `DigitTable.digits`, for the numbers that seldom repeat.
    private let digits: UnsafePointer<UInt32>
    /// `SVGPaint.fillWords`, read once per writer.
    private let palette: UnsafePointer<UInt64>
    /// The last rect's y and label's y, which seldom repeat but element after element (a row
    /// of a grid): kept apart from the table (`RecentNumber.write`).
    private var lastY = RecentNumber(), lastLabelY = RecentNumber()
    /// The buffer's table of frame texts, given when every element written has the default
    /// appearance and cells are not round; `nil` otherwise.
    private let frames: UnsafeMutablePointer<SVGFrameText>?
    /// Where a label that would cross the visible bounds' outline goes instead of its group
    /// (drawn after the outline); `nil`: every label in its group.
    fileprivate(set) var above: SVGLabelsAboveOutline? = nil

    /// A formatted number waiting to enter the table.
    struct PendingNumber {
        var slot: UnsafeMutablePointer<CachedNumber>
        var bits: UInt64
        var text: UnsafePointer<UInt8>
        var length: Int
    }

    private init(precision: NumberPrecision, round: Bool, labels: SVGLabels, cache: UnsafeMutablePointer<CachedNumber>,
                 pending: UnsafeMutablePointer<PendingNumber>, frames: UnsafeMutablePointer<SVGFrameText>?) {
        self.frames = frames
        self.precision = precision
        self.round = round
        self.labels = labels
        self.cache = cache
        self.pending = pending
        standard = precision == .standard
        digits = DigitTable.digits
        palette = SVGPaint.fillWords
        position = UnsafeMutablePointer(bitPattern: 1)!
    }

    /// Calls `body` with a writer whose tables live on the stack for the call: one writer per
    /// chunk of elements and per thread.
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
            withUnsafeTemporaryAllocation(of: PendingNumber.self, capacity: pendingCapacity) { pending in
                var writer = SVGElementWriter(precision: precision, round: round, labels: labels,
                                              cache: table.baseAddress!, pending: pending.baseAddress!, frames: frames)
                writer.above = above
                body(&writer)
            }
        }
    }

    /// Appends the group of the element at `element` to `out`.
    @inline(never)
    mutating func append(_ element: UnsafePointer<LayoutAttributes>, to out: OutputBuffer) {
        storePendingNumbers()
        position = out.cursor(reserving: OutputBuffer.elementBound).position
        // The frame's stored parts (Rect's computed ones are calls across modules), with the
        // same arithmetic as `midX` and `midY`.
        let x = element.pointee.frame.origin.x, y = element.pointee.frame.origin.y
        let width = element.pointee.frame.size.width, height = element.pointee.frame.size.height
        let isCell = element.pointee.category == .cell
        let t = element.pointee.transform
        let item = element.pointee.indexPath.item
        // The item's digits, written twice (in the index path and as the label), are
        // formatted once (most often counted on from the last element's), and counted
        // without `decimalLength`.
        let itemText = items.digits(item)
        append("<g><rect data-index-path=\"")
        append(integer: element.pointee.indexPath.section)
        append(byte: UInt8(ascii: ":"))
        append(item, itemText)
        append(byte: UInt8(ascii: "\""))
        if !isCell { appendKind(element) }
        // (A block of the default appearance, told by `frames`, has the identity throughout.)
        if frames == nil && !(t.a == 1 && t.b == 0 && t.c == 0 && t.d == 1 && t.tx == 0 && t.ty == 0) {  // not the identity
            appendTransform(t, centerX: x + width / 2, centerY: y + height / 2)
        }
        let alpha = element.pointee.alpha
        if alpha < 1 {
            append(" opacity=\"")
            append(factor: SVGPaint.opacity(alpha))
            append(byte: UInt8(ascii: "\""))
        }
        // A cell of the default appearance, not round: the texts around its y from the table
        // of frames when its frame was written recently, or written and kept.
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

    /// Stores the previous element's numbers in the table now that their bytes are written
    /// (and before the buffer can move).
    @inline(__always)
    private mutating func storePendingNumbers() {
        for k in 0..<pendingCount {
            let entry = pending[k]
            entry.slot.pointee = CachedNumber(bits: entry.bits, length: entry.length,
                                              text: UnsafeRawPointer(entry.text).loadUnaligned(as: CachedNumber.Text.self))
        }
        pendingCount = 0
    }

    /// ` x="…" y="…" width="…" height="…"` and any corner radius (the `rx` value left open):
    /// for a cell of the default appearance the texts around its y come from `entry`, the
    /// table of frames, when it holds `key`, and are kept there when written.
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
                // Read back from the group just written (bytes past the lengths are the
                // group's next ones or the zeros stored first: never copied out).
                entry.pointee.key = key
                entry.pointee.before = UnsafeRawPointer(beforeStart).loadUnaligned(as: (UInt64, UInt64, UInt64).self)
                entry.pointee.after = UnsafeRawPointer(afterStart).loadUnaligned(as: (UInt64, UInt64, UInt64, UInt64, UInt64).self)
                entry.pointee.lengths = UInt64(truncatingIfNeeded: beforeLength) | UInt64(truncatingIfNeeded: afterLength) << 8
            }
        }
    }

    /// `" fill="…"/>`: a cell's palette entry (from its item's last digit when its digits
    /// are counted), a view's paint, a badge's pill radius before it.
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

    /// The label `<text …>…</text></g>`, at full opacity and untransformed, on the drawn
    /// centre (the transform is about the centre, so its translation is all that moves it);
    /// its opening from `entry` when the table of frames holds it.
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
            // The item's last digit read off its text when there is one.
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
            appendViewLabel(element)
        }
        append("</text></g>\n")
    }

    /// The label an element gets with `labels`, if any: its length in characters and its font
    /// size, points. None for `.none`, a section background (a decoration), a cell drawn fully transparent (alpha ≤ 0: a label
    /// with no cell under it), or a frame narrower or lower than 4 points; otherwise
    /// 0.45 of the frame's smaller side, at most 14 and at least 4, and small enough that the
    /// text (about 0.6 em a character) fits the frame's width; a cell 20 points or more on
    /// its smaller side gets at least 10 where its digits (0.56 em, a colon 0.28) fit. Sizes come from the frame
    /// before its transform, so a label does not shrink away with its cell's scale.
    @inline(__always)
    static func label(_ element: LayoutAttributes, _ labels: SVGLabels) -> (characters: Int, size: Double)? {
        let width = element.frame.size.width, height = element.frame.size.height
        // A decoration (a section background) is drawn unlabelled: it lies under its
        // section's cells, which would cover its label in part.
        guard labels != .none && width >= 4 && height >= 4 && element.alpha > 0 && element.kind?.role != .decoration else { return nil }
        let path = element.indexPath
        var characters = decimalLength(path.item)
        if element.category != .cell {
            // `header 3`, `footer 3`, `supplementaryView 3`…
            let word = (element.kind?.rawValue ?? element.category.rawValue).utf8.count
            characters = word + 1 + decimalLength(path.section)
        } else if labels == .indexPath {
            characters += 1 + decimalLength(path.section)
        }
        // Most cells get the largest size, 14 points: when neither other limit can be below it
        // (a width of 8.5 points a character or more fits 14 / 0.6 ≈ 8.4 with room for the
        // rounding), that is the minimum, without the division.
        let side = Swift.min(width, height) * 0.45
        if side >= 14 && width >= 8.5 * Double(characters) { return (characters, 14) }
        var fitted = Swift.min(14, side, width / (0.6 * Double(characters)))
        if fitted < 10 && element.category == .cell && Swift.min(width, height) >= 20 {
            // A cell of 20 points or more (a ring's outer avatars) keeps a readable label, 10
            // points, where its digits fit the width at their real advance in sans-serif
            // (0.56 em a digit, 0.28 em the colon of an index path).
            let colons = labels == .indexPath ? 1 : 0
            let em = 0.56 * Double(characters - colons) + 0.28 * Double(colons)
            fitted = Swift.max(fitted, Swift.min(10, width / em))
        }
        // A view whose label would not fit at 4 points (a long kind name on a small badge) is
        // drawn unlabelled: the text would spill out of its shape.
        if fitted < 4 && element.category != .cell { return nil }
        return (characters, Swift.max(4, fitted))
    }

    /// Digits of `value` in decimal, with its sign. From the bit length: 2^(b−1) ≤ m < 2^b
    /// has ⌊b·log₁₀2⌋ or one more digits (1233 / 4096 is log₁₀2 to within 10⁻⁵, exact in the
    /// floor for b ≤ 64), told apart by one comparison with a power of ten; no loop.
    @inline(__always)
    static func decimalLength(_ value: Int) -> Int {
        let magnitude = value.magnitude
        let bits = UInt64.bitWidth - (UInt64(magnitude) | 1).leadingZeroBitCount
        let floor = (bits &* 1233) >> 12
        let digits = floor + (UInt64(magnitude) >= NumberFormat.powerOfTen(floor) ? 1 : 0)
        return Swift.max(digits, 1) + (value < 0 ? 1 : 0)
    }

    /// ` transform="matrix(…)"` for a transform other than the identity, applied about the
    /// centre: T(c) · M · T(−c), as one matrix. When that matrix's translation would not be
    /// finite (a scale of 1e308 about a centre far from the origin; the layout's own numbers
    /// all are), the three steps are written as they are:
    /// `translate(cx cy) matrix(a b c d tx ty) translate(-cx -cy)`.
    @inline(never)
    private mutating func appendTransform(_ t: AffineTransform, centerX: Double, centerY: Double) {
        let e = centerX + t.tx - t.a * centerX - t.c * centerY
        let f = centerY + t.ty - t.b * centerX - t.d * centerY
        let combined = e.isFinite && f.isFinite
        append(" transform=\"")
        if !combined {
            append("translate(")
            append(number: centerX)
            append(byte: UInt8(ascii: " "))
            append(number: centerY)
            append(") ")
        }
        append("matrix(")
        // The linear part at full precision: it multiplies coordinates, so the output
        // precision (meant for points) would turn a 15° rotation into another transform.
        append(factor: t.a)
        append(byte: UInt8(ascii: " "))
        append(factor: t.b)
        append(byte: UInt8(ascii: " "))
        append(factor: t.c)
        append(byte: UInt8(ascii: " "))
        append(factor: t.d)
        append(byte: UInt8(ascii: " "))
        append(number: combined ? e : t.tx)
        append(byte: UInt8(ascii: " "))
        append(number: combined ? f : t.ty)
        append(byte: UInt8(ascii: ")"))
        if !combined {
            append(" translate(")
            append(number: -centerX)
            append(byte: UInt8(ascii: " "))
            append(number: -centerY)
            append(byte: UInt8(ascii: ")"))
        }
        append(byte: UInt8(ascii: "\""))
    }

    /// A header's, footer's or other view's label: its kind (or its category when it has none:
    /// plain words, nothing to escape) and its section.
    @inline(never)
    private mutating func appendViewLabel(_ element: UnsafePointer<LayoutAttributes>) {
        switch element.pointee.kind {
        case .header?: append("header ")
        case .footer?: append("footer ")
        case .badge?: append("badge ")
        case .background?: append("background ")
        case let kind?:  // a valid kind name needs no escaping (`ElementKind.isValidName`)
            append(string: kind.rawValue)
            append(byte: UInt8(ascii: " "))
        case nil:
            switch element.pointee.category {
            case .cell: append("cell ")
            case .supplementaryView: append("supplementaryView ")
            case .decorationView: append("decorationView ")
            }
        }
        append(integer: element.pointee.indexPath.section)
    }

    /// ` data-kind="KIND"`: a header's, footer's or other view's kind (or its category when it
    /// has none), for tools that find elements in a browser's DOM.
    @inline(never)
    private mutating func appendKind(_ element: UnsafePointer<LayoutAttributes>) {
        switch element.pointee.kind {
        case .header?: append(" data-kind=\"header\"")
        case .footer?: append(" data-kind=\"footer\"")
        case .badge?: append(" data-kind=\"badge\"")
        case .background?: append(" data-kind=\"background\"")
        case let kind?:
            append(" data-kind=\"")
            append(string: kind.rawValue)
            append(byte: UInt8(ascii: "\""))
        case nil:
            switch element.pointee.category {
            case .cell: append(" data-kind=\"cell\"")
            case .supplementaryView: append(" data-kind=\"supplementaryView\"")
            case .decorationView: append(" data-kind=\"decorationView\"")
            }
        }
    }

    /// `Swift.min(x, y)` for Doubles (`y < x ? y : x`), inlined.
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

    /// Appends a kind's name (at most `ElementKind.maximumNameLength` bytes) as it is.
    private mutating func append(string text: String) {
        var text = text
        text.withUTF8 { bytes in
            if let base = bytes.baseAddress { position.update(from: base, count: bytes.count) }
            position += bytes.count
        }
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
        if value < 0 { append(byte: UInt8(ascii: "-")) }
        position += NumberFormat.writeDigits(UInt64(value.magnitude), to: position)
    }

    /// Appends `value` as `NumberFormat.write` writes it, from the table when it was written
    /// recently.
    @inline(__always)
    private mutating func append(number value: Double) {
        let bits = value.bitPattern
        let slot = CachedNumber.slot(for: bits, in: cache)
        if let length = slot.pointee.copy(bits, to: position) {
            position += length
            return
        }
        if case .decimals(3) = precision, let number = NumberFormat.wholeOrHalfText(value) {
            // A new whole number or half (a cell's y), built here rather than in a call.
            UnsafeMutableRawPointer(position).storeBytes(of: (number.low, number.high), as: (UInt64, UInt64).self)
            slot.pointee = CachedNumber(bits: bits, length: number.length, text: (number.low, number.high, 0))
            position += number.length
            return
        }
        appendAndRemember(value, in: slot)
    }

    /// Appends `value` at full precision (a matrix's linear part, an opacity: factors, not
    /// points).
    @inline(never)
    private mutating func append(factor value: Double) {
        position += NumberFormat.write(value, precision: .full, to: position)
    }

    /// Appends `value`, which is not a whole number or a half under 10⁸ at the default
    /// precision (`append(number:)` builds those itself), and enters its text in `slot`: at
    /// once when it was built in registers (`NumberFormat.fractionalText`, the default
    /// precision's other usual numbers), otherwise queued until the next element (`pending`).
    /// Out of line, so that the element code stays small enough for everything in it to be
    /// inlined.
    @inline(never)
    private mutating func appendAndRemember(_ value: Double, in slot: UnsafeMutablePointer<CachedNumber>) {
        if case .decimals(3) = precision, let number = NumberFormat.fractionalText(value) {
            // The usual case: the text built in registers, stored once and entered at once.
            UnsafeMutableRawPointer(position).storeBytes(of: (number.low, number.high), as: (UInt64, UInt64).self)
            slot.pointee = CachedNumber(bits: value.bitPattern, length: number.length, text: (number.low, number.high, 0))
            position += number.length
            return
        }
        // Zeros first, so the entry's text is read from initialised bytes whatever the length.
        UnsafeMutableRawPointer(position).storeBytes(of: (0, 0, 0), as: CachedNumber.Text.self)
        let start = position
        position += NumberFormat.write(value, precision: precision, to: position)
        if position - start <= CachedNumber.maximumLength && pendingCount < Self.pendingCapacity {
            pending[pendingCount] = PendingNumber(slot: slot, bits: value.bitPattern, text: start, length: position - start)
            pendingCount += 1
        }
    }
}
