import Foundation
import LayoutCore

/// A byte buffer the writers format into, handed to a sink in large chunks (a million-element
/// layout never exists as one string); without a sink it keeps everything. One allocation
/// written through a pointer: no array appends or exclusivity checks on the hot path.
public final class OutputBuffer {
    /// Decimals of every number written.
    @usableFromInline package let precision: NumberPrecision
    @usableFromInline let sink: ((UnsafeBufferPointer<UInt8>) throws -> Void)?
    @usableFromInline let chunkSize: Int
    /// Exclusivity unchecked: one thread writes a buffer at a time.
    @exclusivity(unchecked) @usableFromInline var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var capacity: Int
    @exclusivity(unchecked) @usableFromInline private(set) var count = 0
    /// Whether `storage` and `numberCache` are this buffer's to free (not a `BlockPipeline`'s).
    private var ownsStorage = true
    private let ownsNumberCache: Bool

    /// A buffer handing `chunkSize` bytes at a time to `sink` (`nil`: keeps them; its errors propagate
    /// out of the writer), `capacity` bytes at first (default the chunk, or 64 KiB without a sink).
    package init(precision: NumberPrecision = .standard, chunkSize: Int = 1 << 20,
                capacity: Int? = nil, sink: ((UnsafeBufferPointer<UInt8>) throws -> Void)? = nil) {
        self.precision = precision
        self.chunkSize = chunkSize
        self.sink = sink
        self.capacity = (capacity ?? (sink == nil ? 1 << 16 : chunkSize)) + OutputBuffer.elementBound
        storage = .allocate(capacity: self.capacity)
        numberCache = Self.table(of: CachedNumber(), count: CachedNumber.slots)
        ownsNumberCache = true
    }

    /// A buffer without a sink in the caller's memory, kept while the buffer lives (`numberCache`:
    /// `CachedNumber.slots` entries); outgrowing `storage`, it moves to memory of its own.
    init(precision: NumberPrecision, storage: UnsafeMutablePointer<UInt8>, capacity: Int,
         numberCache: UnsafeMutablePointer<CachedNumber>) {
        precondition(capacity > OutputBuffer.elementBound, "room for an element at least")
        self.precision = precision
        chunkSize = 1 << 20
        sink = nil
        self.storage = storage
        self.capacity = capacity
        ownsStorage = false
        self.numberCache = numberCache
        numberCache.initialize(repeating: CachedNumber(), count: CachedNumber.slots)
        ownsNumberCache = false
    }

    @usableFromInline let numberCache: UnsafeMutablePointer<CachedNumber>
    private var frameTextTable: UnsafeMutablePointer<FrameText>?
    private var svgFrameTextTable: UnsafeMutablePointer<SVGFrameText>?

    /// The buffer's table of SVG frame texts (`FrameKey.slots` entries), made on first use.
    package var svgFrameTexts: UnsafeMutablePointer<SVGFrameText> {
        if svgFrameTextTable == nil { svgFrameTextTable = Self.table(of: SVGFrameText(), count: FrameKey.slots) }
        return svgFrameTextTable!
    }

    /// `count` copies of `empty` in memory aligned to a cache line, for a table of entries.
    private static func table<Entry>(of empty: Entry, count: Int) -> UnsafeMutablePointer<Entry> {
        let table = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Entry>.stride, alignment: 64)
            .bindMemory(to: Entry.self, capacity: count)
        table.initialize(repeating: empty, count: count)
        return table
    }

    /// The buffer's table of the CSV's frame texts, as `svgFrameTexts`.
    package var frameTexts: UnsafeMutablePointer<FrameText> {
        if frameTextTable == nil { frameTextTable = Self.table(of: FrameText(), count: FrameKey.slots) }
        return frameTextTable!
    }

    /// Room for any one element in any format: sixteen of the longest numbers, and keys.
    package static let elementBound = 16 * NumberFormat.maximumLength + 1024

    deinit {
        if ownsStorage { storage.deallocate() }
        if ownsNumberCache { UnsafeMutableRawPointer(numberCache).deallocate() }
        if let frameTextTable { UnsafeMutableRawPointer(frameTextTable).deallocate() }
        if let svgFrameTextTable { UnsafeMutableRawPointer(svgFrameTextTable).deallocate() }
    }

    /// The bytes not yet handed to the sink (everything, without a sink).
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    @inlinable @inline(__always)
    func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    @usableFromInline func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        if ownsStorage { storage.deallocate() }
        ownsStorage = true
        storage = newStorage
        capacity = newCapacity
    }

    /// Appends raw bytes: up to 32 (the writers' keys and punctuation) by a byte loop, longer by memmove.
    @inlinable @inline(__always)
    package func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        reserve(buffer.count)
        let destination = storage + count
        if buffer.count <= 32 {
            for j in 0..<buffer.count { destination[j] = base[j] }
        } else {
            destination.update(from: base, count: buffer.count)
        }
        count += buffer.count
    }

    /// Appends ASCII or UTF-8 text.
    @inlinable @inline(__always)
    package func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes as they are; labelled, so that literals take `StaticString`'s.
    package func append(string text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    package func append(byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    /// Appends `value` at the buffer's precision.
    @inlinable @inline(__always)
    package func append(number value: Double) {
        reserve(NumberFormat.maximumLength)
        count += NumberFormat.write(value, precision: precision, to: storage + count)
    }

    /// Appends an integer.
    @inlinable @inline(__always)
    package func append(integer value: Int) {
        var w = cursor(reserving: 21)
        w.append(integer: value)
        commit(w)
    }

    /// Hands the gathered bytes to the sink once a chunk is full.
    @inlinable @inline(__always)
    package func flushIfFull() throws {
        if count >= chunkSize, sink != nil { try flush() }
    }

    /// Hands everything gathered to the sink (no-op without one).
    @usableFromInline package func flush() throws {
        guard let sink, count > 0 else { return }
        try sink(UnsafeBufferPointer(start: storage, count: count))
        count = 0
    }

    func removeAll() { count = 0 }

    /// Moves `other`'s bytes after this buffer's: to the sink when there is one, copied otherwise.
    func append(contentsOf other: OutputBuffer) throws {
        if sink != nil {
            try flush()
            try sink!(UnsafeBufferPointer(start: other.storage, count: other.count))
        } else {
            append(UnsafeBufferPointer(start: other.storage, count: other.count))
        }
        other.count = 0
    }

    /// A cursor at the end with room for `maximumBytes`, unchecked; `commit(_:)` keeps what it wrote.
    @inlinable @inline(__always)
    package func cursor(reserving maximumBytes: Int) -> ByteCursor {
        reserve(maximumBytes)
        return ByteCursor(start: storage + count, precision: precision, cache: numberCache)
    }

    /// Keeps the bytes written through `cursor` (nothing appended since `cursor(reserving:)`).
    @inlinable @inline(__always)
    package func commit(_ cursor: ByteCursor) {
        count = cursor.position - storage
    }
}

/// An entry of a buffer's table of formatted numbers, 32 bytes (never split across cache lines): a
/// Double's bits (empty: a NaN's) and its text (≤ 23 bytes).
@usableFromInline package struct CachedNumber {
    /// Three words of text, the last byte holding the length.
    @usableFromInline package typealias Text = (UInt64, UInt64, UInt64)
    package static let maximumLength = MemoryLayout<Text>.size - 1
    /// 1,024 entries (32 KB, a first-level cache), indexed by a multiplicative hash's top 10 bits.
    package static let slots = 1024
    @usableFromInline static let shift: UInt64 = 54
    @usableFromInline var bits: UInt64 = .max
    @usableFromInline var text: Text = (0, 0, 0)

    init() {}

    /// An entry for the number with `bits`, its text the first `length` ≤ `maximumLength` bytes of `text`.
    @inlinable @inline(__always)
    package init(bits: UInt64, length: Int, text: Text) {
        self.bits = bits
        self.text = (text.0, text.1, text.2 & 0x00FF_FFFF_FFFF_FFFF | UInt64(truncatingIfNeeded: length) << 56)
    }

    @usableFromInline var length: Int { Int(truncatingIfNeeded: text.2 >> 56) }

    @inlinable @inline(__always)
    package static func slot(for bits: UInt64, in table: UnsafeMutablePointer<CachedNumber>) -> UnsafeMutablePointer<CachedNumber> {
        table + Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// When this entry holds `bits`: stores its 24 bytes at `destination`, returns the text's length.
    @inlinable @inline(__always)
    package func copy(_ bits: UInt64, to destination: UnsafeMutablePointer<UInt8>) -> Int? {
        guard self.bits == bits else { return nil }
        UnsafeMutableRawPointer(destination).storeBytes(of: text, as: Text.self)
        return length
    }
}

/// The last number of a column whose numbers repeat only from one row to the next (a CSV's
/// y, an SVG cell's y), and its text (≤ 16 bytes). Empty, its bits are a NaN's.
@usableFromInline package struct RecentNumber {
    @usableFromInline var bits: UInt64 = .max
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: UInt64 = 0
    @usableFromInline var length = 0

    @usableFromInline package init() {}

    /// Writes `value` as `NumberFormat.write` does, moving `position` past it: the same number's text
    /// again; at the default precision (`standard`) a new text from `digits` (`DigitTable`), kept.
    @inlinable @inline(__always)
    package mutating func write(_ value: Double, at position: inout UnsafeMutablePointer<UInt8>, standard: Bool,
                        digits: UnsafePointer<UInt32>, precision: NumberPrecision) {
        let bits = value.bitPattern
        if bits == self.bits {
            UnsafeMutableRawPointer(position).storeBytes(of: (low, high), as: (UInt64, UInt64).self)
            position += length
            return
        }
        if standard, let number = NumberFormat.wholeOrHalfText(value, eightDigits: { DigitTable.eightDigits($0, digits) })
            ?? NumberFormat.fractionalText(value, eightDigits: { DigitTable.eightDigits($0, digits) }) {
            UnsafeMutableRawPointer(position).storeBytes(of: (number.low, number.high), as: (UInt64, UInt64).self)
            (self.bits, low, high, length) = (bits, number.low, number.high, number.length)
            position += number.length
            return
        }
        self = RecentNumber()
        position += Self.writeAny(value, precision: precision, at: position)
    }

    @inline(never)
    @usableFromInline static func writeAny(_ value: Double, precision: NumberPrecision, at position: UnsafeMutablePointer<UInt8>) -> Int {
        NumberFormat.write(value, precision: precision, to: position)
    }
}

/// A CSV frame's x and `,width,height,centerX,` texts by `FrameKey` (a layout repeats them while y
/// changes): one lookup for four. 64 bytes.
package struct FrameText {
    package var key = FrameKey()
    /// x's text, at most 8 bytes.
    package var xText: UInt64 = 0
    /// `,width,height,centerX,`, at most 24 bytes.
    package var middle: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// x's text's length in the lowest byte, the middle's in the next.
    package var lengths: UInt64 = 0
}

/// The bits of a frame's x (empty: a NaN's), width and height.
@usableFromInline package struct FrameKey: Equatable {
    static let slots = 1024
    @usableFromInline var x: UInt64 = .max
    @usableFromInline var width: UInt64 = 0
    @usableFromInline var height: UInt64 = 0

    init() {}

    @inlinable @inline(__always)
    package init(x: Double, width: Double, height: Double) {
        self.x = x.bitPattern
        self.width = width.bitPattern
        self.height = height.bitPattern
    }

    /// Where the frame belongs in a table of `slots` entries.
    @inlinable @inline(__always)
    package var slot: Int {
        // The width's and height's high bits moved onto x's low ones, then mixed upwards.
        let mixed = (x &+ (height &>> 17) &+ (width &>> 34)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 54)
    }
}

/// As `FrameText` for an SVG cell of the default appearance: the texts around its y, and its
/// label's once drawn. 128 bytes.
package struct SVGFrameText {
    package var key = FrameKey()
    /// The three texts' lengths, a byte each (0 for a label's not yet known).
    package var lengths: UInt64 = 0
    /// ` x="X" y="`, at most 24 bytes.
    package var before: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// `" width="W" height="H" rx="R`, at most 40 bytes.
    package var after: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    /// `<text x="CX" y="`, at most 32 bytes.
    package var label: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
}

/// A write position in an `OutputBuffer`'s reserved space (`cursor(reserving:)`), nothing checked.
@usableFromInline package struct ByteCursor {
    @usableFromInline package private(set) var position: UnsafeMutablePointer<UInt8>
    @usableFromInline let precision: NumberPrecision
    @usableFromInline let cache: UnsafeMutablePointer<CachedNumber>

    @inlinable @inline(__always)
    package init(start: UnsafeMutablePointer<UInt8>, precision: NumberPrecision, cache: UnsafeMutablePointer<CachedNumber>) {
        position = start
        self.precision = precision
        self.cache = cache
    }

    /// Appends a string literal's bytes.
    @inlinable @inline(__always)
    package mutating func append(_ text: StaticString) {
        UnsafeMutableRawPointer(position).copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
        position += text.utf8CodeUnitCount
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    package mutating func append(byte: UInt8) {
        position.pointee = byte
        position += 1
    }

    /// Appends `value` at the buffer's precision; a number in the table of recent ones
    /// (`CachedNumber`) is a 24-byte copy.
    @inlinable @inline(__always)
    package mutating func append(number value: Double) {
        let bits = value.bitPattern
        let slot = CachedNumber.slot(for: bits, in: cache)
        if let length = slot.pointee.copy(bits, to: position) {
            position += length
        } else if case .decimals(3) = precision, let number = NumberFormat.wholeOrHalfText(value) {
            // A new whole number or half (most y), built here rather than in a call.
            UnsafeMutableRawPointer(position).storeBytes(of: (number.low, number.high), as: (UInt64, UInt64).self)
            slot.pointee = CachedNumber(bits: bits, length: number.length, text: (number.low, number.high, 0))
            position += number.length
        } else {
            position += Self.formatAndRemember(value, precision: precision, in: slot, at: position)
        }
    }

    /// Appends `value` as `last.write` does (`RecentNumber`), not through the table.
    @inlinable @inline(__always)
    package mutating func append(number value: Double, after last: inout RecentNumber, standard: Bool,
                         digits: UnsafePointer<UInt32>) {
        last.write(value, at: &position, standard: standard, digits: digits, precision: precision)
    }

    /// Formats `value` at `position`, keeps its text in `slot` and returns its length. Out of line.
    @inline(never)
    @usableFromInline static func formatAndRemember(_ value: Double, precision: NumberPrecision,
                                          in slot: UnsafeMutablePointer<CachedNumber>,
                                          at position: UnsafeMutablePointer<UInt8>) -> Int {
        if case .decimals(3) = precision, let number = NumberFormat.fractionalText(value) {
            UnsafeMutableRawPointer(position).storeBytes(of: (number.low, number.high), as: (UInt64, UInt64).self)
            slot.pointee = CachedNumber(bits: value.bitPattern, length: number.length, text: (number.low, number.high, 0))
            return number.length
        }
        return formatAnyAndRemember(value, precision: precision, in: slot, at: position)
    }

    /// `formatAndRemember` at any precision: apart, so the usual case saves no registers.
    @inline(never)
    private static func formatAnyAndRemember(_ value: Double, precision: NumberPrecision,
                                             in slot: UnsafeMutablePointer<CachedNumber>,
                                             at position: UnsafeMutablePointer<UInt8>) -> Int {
        // Zeros first, so the entry's text is read from initialised bytes whatever the length.
        UnsafeMutableRawPointer(position).storeBytes(of: (0, 0, 0), as: CachedNumber.Text.self)
        let length = NumberFormat.write(value, precision: precision, to: position)
        if length <= CachedNumber.maximumLength {
            slot.pointee = CachedNumber(bits: value.bitPattern, length: length,
                                        text: UnsafeRawPointer(position).loadUnaligned(as: CachedNumber.Text.self))
        }
        return length
    }

    /// Appends an integer.
    @inlinable @inline(__always)
    package mutating func append(integer value: Int) {
        if value < 0 {
            position.pointee = UInt8(ascii: "-")
            position += 1
        }
        position += NumberFormat.writeDigits(UInt64(value.magnitude), to: position)
    }

    /// Appends the first `count` (at most 8) bytes of `text` (little-endian); all 8 are stored.
    @inlinable @inline(__always)
    package mutating func append(eight text: UInt64, count: Int) {
        UnsafeMutableRawPointer(position).storeBytes(of: text, as: UInt64.self)
        position += count
    }

    /// Appends the first `count` (at most 24) bytes of `text`; all 24 are stored.
    @inlinable @inline(__always)
    package mutating func append(twentyFour text: (UInt64, UInt64, UInt64), count: Int) {
        UnsafeMutableRawPointer(position).storeBytes(of: text, as: (UInt64, UInt64, UInt64).self)
        position += count
    }

    /// Appends the first `count` (at most 16) of `bytes`; all 16 are stored.
    @inlinable @inline(__always)
    package mutating func append(_ bytes: SIMD16<UInt8>, count: Int) {
        UnsafeMutableRawPointer(position).storeBytes(of: bytes, as: SIMD16<UInt8>.self)
        position += count
    }

    /// Appends what `write` writes at the position (within the room); it returns the count.
    @inlinable @inline(__always)
    package mutating func append(_ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        position += write(position)
    }

    /// Appends the text of a short string (an element kind, a palette colour) as it is.
    @inlinable @inline(__always)
    package mutating func append(string text: String) {
        var text = text
        text.withUTF8 { bytes in
            if let base = bytes.baseAddress { position.update(from: base, count: bytes.count) }
            position += bytes.count
        }
    }
}

/// A producer of a streamed layout's elements: called once with a sink, to which it appends
/// every element in order (typically by running the engine). The writer finishes the sink.
public typealias StreamedElements = (_ sink: inout ElementBlocks) throws -> Void
