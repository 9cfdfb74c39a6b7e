import Foundation
import LayoutCore

// MARK: - The buffer

/// A byte buffer the writers format into, handed to a sink in large chunks so that a
/// million-element layout never exists as one string. Without a sink it keeps everything
/// (for tests and for in-memory comparisons).
///
/// The bytes live in one manually managed allocation written through a pointer: no array
/// appends and no exclusivity checks on the hot path.
public final class OutputBuffer {
    /// Decimals of every number written.
    @usableFromInline package let precision: NumberPrecision
    @usableFromInline let sink: ((UnsafeBufferPointer<UInt8>) throws -> Void)?
    @usableFromInline let chunkSize: Int
    @usableFromInline var storage: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline private(set) var count = 0
    /// Whether `storage`, and `numberCache`, are this buffer's to free (not a `BlockPipeline`'s).
    private var ownsStorage = true
    private let ownsNumberCache: Bool

    /// Creates a buffer.
    /// - Parameters:
    ///   - precision: how numbers are formatted.
    ///   - chunkSize: bytes gathered before each hand-over to `sink`. Default 1 MiB.
    ///   - sink: receives the bytes; `nil` keeps them all (see `bytes`). Errors it throws
    ///     propagate out of the writer.
    ///   - capacity: bytes to allocate at first (default: the chunk, or 64 KiB without a
    ///     sink); the buffer grows as needed.
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

    /// A buffer without a sink in memory the caller owns and keeps until the buffer is gone:
    /// `storage` for `capacity` bytes (of which `OutputBuffer.elementBound` are kept as
    /// room), and `numberCache` for `CachedNumber.slots` entries, which this initialises. A
    /// buffer that outgrows `storage` moves to memory of its own.
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

    /// Recently formatted numbers (see `ByteCursor.append(number:)`).
    @usableFromInline let numberCache: UnsafeMutablePointer<CachedNumber>
    /// The CSV's recent frames' texts (see `FrameText`), allocated when first asked for:
    /// only a CSV's rows use it.
    private var frameTextTable: UnsafeMutablePointer<FrameText>?

    /// The SVG's recent frames' texts (see `SVGFrameText`), allocated when first asked for.
    private var svgFrameTextTable: UnsafeMutablePointer<SVGFrameText>?

    /// The buffer's table of SVG frame texts (`SVGFrameText.slots` entries, empty at first),
    /// kept from one block of elements to the next.
    package var svgFrameTexts: UnsafeMutablePointer<SVGFrameText> {
        if let svgFrameTextTable { return svgFrameTextTable }
        svgFrameTextTable = Self.table(of: SVGFrameText(), count: SVGFrameText.slots)
        return svgFrameTextTable!
    }

    /// `count` copies of `empty` in memory aligned to a cache line, for a table of entries.
    private static func table<Entry>(of empty: Entry, count: Int) -> UnsafeMutablePointer<Entry> {
        let table = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Entry>.stride, alignment: 64)
            .bindMemory(to: Entry.self, capacity: count)
        table.initialize(repeating: empty, count: count)
        return table
    }

    /// The buffer's table of frame texts (`FrameText.slots` entries, empty at first), kept
    /// from one block of rows to the next.
    package var frameTexts: UnsafeMutablePointer<FrameText> {
        if let frameTextTable { return frameTextTable }
        frameTextTable = Self.table(of: FrameText(), count: FrameText.slots)
        return frameTextTable!
    }
    /// The buffers `appendInParallel` formats into, one per worker, kept from one call to
    /// the next (a streamed layout makes one call per block).
    private var workers: [OutputBuffer] = []

    /// `count` empty buffers of this one's precision for parallel workers.
    func workerBuffers(_ count: Int) -> [OutputBuffer] {
        while workers.count < count { workers.append(OutputBuffer(precision: precision)) }
        return Array(workers.prefix(count))
    }

    /// Room enough for any one element in any format: sixteen numbers of the longest kind
    /// and the keys and punctuation around them.
    package static let elementBound = 16 * NumberFormat.maximumLength + 1024

    deinit {
        if ownsStorage { storage.deallocate() }
        if ownsNumberCache { UnsafeMutableRawPointer(numberCache).deallocate() }
        if let frameTextTable { UnsafeMutableRawPointer(frameTextTable).deallocate() }
        if let svgFrameTextTable { UnsafeMutableRawPointer(svgFrameTextTable).deallocate() }
    }

    /// The bytes not yet handed to the sink (everything, without a sink).
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// Makes room for `n` more bytes.
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

    /// Appends raw bytes.
    @inlinable @inline(__always)
    package func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        reserve(buffer.count)
        let destination = storage + count
        if buffer.count <= 32 {
            // The writers' keys and punctuation: a byte loop beats a call to memmove.
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

    /// Appends a string's UTF-8 bytes as they are (no escaping). Labelled, so that string
    /// literals pick the `StaticString` overload (no String is built for them).
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

    /// Appends `value` at `precision`, whatever the buffer's (a factor that points multiply,
    /// which the output precision, meant for points, would distort).
    @inlinable @inline(__always)
    package func append(number value: Double, precision: NumberPrecision) {
        reserve(NumberFormat.maximumLength)
        count += NumberFormat.write(value, precision: precision, to: storage + count)
    }

    /// Appends an integer.
    @inlinable @inline(__always)
    package func append(integer value: Int) {
        reserve(21)
        if value < 0 {
            storage[count] = UInt8(ascii: "-")
            count += 1
        }
        count += NumberFormat.writeDigits(UInt64(value.magnitude), to: storage + count)
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

    /// Drops everything gathered and not yet handed to the sink.
    func removeAll() {
        count = 0
    }

    /// Appends everything `other` holds (and empties it): handed straight to the sink when
    /// there is one (after what this buffer holds, so the order is kept), copied otherwise.
    func append(contentsOf other: OutputBuffer) throws {
        if sink != nil {
            try flush()
            try sink!(UnsafeBufferPointer(start: other.storage, count: other.count))
        } else {
            append(UnsafeBufferPointer(start: other.storage, count: other.count))
        }
        other.count = 0
    }

    /// A cursor at the end of the buffer with room for `maximumBytes`, for writing one
    /// element without a bounds check per key and number; `commit(_:)` keeps what it wrote.
    @inlinable @inline(__always)
    package func cursor(reserving maximumBytes: Int) -> ByteCursor {
        reserve(maximumBytes)
        return ByteCursor(start: storage + count, precision: precision, cache: numberCache)
    }

    /// Keeps the bytes written through `cursor` (from `cursor(reserving:)`, with nothing
    /// appended in between).
    @inlinable @inline(__always)
    package func commit(_ cursor: ByteCursor) {
        count = cursor.position - storage
    }
}

// MARK: - Formatting straight into the buffer

/// One entry of a buffer's table of formatted numbers: a Double's bits and its text (at most
/// 23 bytes), 32 bytes in all, so that an entry is never split across cache lines and the
/// table fits a core's first-level cache. The empty entry's bits are a NaN's, which no
/// written number has.
@usableFromInline package struct CachedNumber {
    /// Three words of text, the last byte of the third holding the length.
    @usableFromInline package typealias Text = (UInt64, UInt64, UInt64)
    /// The longest text an entry keeps: its last byte holds the length.
    package static let maximumLength = MemoryLayout<Text>.size - 1
    /// 1,024 entries (32 KB), indexed by the top 10 bits of a multiplicative hash: enough
    /// that a layout's recurring numbers (a column's x, the hundred item heights) survive
    /// between the unique ones (each y) that pass through.
    package static let slots = 1024
    @usableFromInline static let shift: UInt64 = 54
    @usableFromInline var bits: UInt64 = .max
    /// The text's bytes, then zeros or anything, then the length in the last byte.
    @usableFromInline var text: Text = (0, 0, 0)

    init() {}

    /// An entry for the number with `bits` whose text is the first `length` ≤ `maximumLength`
    /// bytes of `text`.
    @inlinable @inline(__always)
    package init(bits: UInt64, length: Int, text: Text) {
        self.bits = bits
        self.text = (text.0, text.1, text.2 & 0x00FF_FFFF_FFFF_FFFF | UInt64(truncatingIfNeeded: length) << 56)
    }

    /// The text's length.
    @usableFromInline var length: Int { Int(truncatingIfNeeded: text.2 >> 56) }

    /// The entry of a table of `slots` entries where the number with `bits` belongs.
    @inlinable @inline(__always)
    package static func slot(for bits: UInt64, in table: UnsafeMutablePointer<CachedNumber>) -> UnsafeMutablePointer<CachedNumber> {
        table + Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// When this entry holds the number with `bits`: copies its text to `destination` (24
    /// bytes stored, which must have room) and returns its length; `nil` otherwise.
    @inlinable @inline(__always)
    package func copy(_ bits: UInt64, to destination: UnsafeMutablePointer<UInt8>) -> Int? {
        guard self.bits == bits else { return nil }
        UnsafeMutableRawPointer(destination).storeBytes(of: text, as: Text.self)
        return length
    }
}

/// The last number written in a column of numbers that seldom repeat but one row or element
/// after the next (a CSV's y, an SVG cell's y and its label's), and its text (at most 16
/// bytes), kept apart from the table of recent numbers. Empty, its bits are a NaN's, which no
/// written number has.
@usableFromInline package struct RecentNumber {
    @usableFromInline var bits: UInt64 = .max
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: UInt64 = 0
    @usableFromInline var length = 0

    /// A slot that holds no number yet.
    @usableFromInline package init() {}

    /// Writes `value` at `position` as `NumberFormat.write` writes it at `precision`, and
    /// moves `position` past it: the last number's text when it is the last number again;
    /// at the default precision (`standard`), a whole number, a half or a number with 3
    /// decimals below 10⁸ built here, its integer digits from `digits` (`DigitTable.digits`),
    /// and kept as the last; any other out of line, and not kept.
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

    /// Writes `value` at `precision`, whatever it is, and returns its length: out of line.
    @inline(never)
    @usableFromInline static func writeAny(_ value: Double, precision: NumberPrecision, at position: UnsafeMutablePointer<UInt8>) -> Int {
        NumberFormat.write(value, precision: precision, to: position)
    }
}

/// One entry of a buffer's table of frame texts, for the CSV: the text of a frame's x, and
/// of its width, height and centerX with the commas around them (`,123.333,115,61.667,`),
/// by the bits of x, width and height. A layout repeats these (a column's x and width, the
/// item heights, a grid's cell size) while its y changes: one lookup then stands for four of
/// the number table, and two copies for four. 64 bytes, one cache line; 1,024 entries
/// (64 KB), indexed by a hash of the three (`FrameKey`): a waterfall's 3 columns × 100
/// heights mostly stay.
package struct FrameText {
    static let slots = FrameKey.slots
    /// The frame whose texts this entry holds.
    package var key = FrameKey()
    /// x's text, at most 8 bytes.
    package var xText: UInt64 = 0
    /// `,width,height,centerX,`, at most 24 bytes.
    package var middle: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// x's text's length in the lowest byte, the middle's in the next.
    package var lengths: UInt64 = 0

    init() {}
}

/// What a table of frame texts (`FrameText`, `SVGFrameText`) is keyed by: the bits of a
/// frame's x, width and height. The empty key's x bits are a NaN's, which no written frame has.
package struct FrameKey: Equatable {
    /// Entries of a table: 1,024.
    static let slots = 1024
    var x: UInt64 = .max
    var width: UInt64 = 0
    var height: UInt64 = 0

    init() {}

    /// The key of a frame with this x, width and height.
    @inlinable @inline(__always)
    package init(x: Double, width: Double, height: Double) {
        self.x = x.bitPattern
        self.width = width.bitPattern
        self.height = height.bitPattern
    }

    /// The entry of a table of `slots` entries where the frame belongs.
    @inlinable @inline(__always)
    package var slot: Int {
        // A double's distinguishing bits are its high ones: the width's and height's are
        // moved down onto x's low ones (a whole x has them zero), then mixed upwards.
        let mixed = (x &+ (height &>> 17) &+ (width &>> 34)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 54)
    }
}

/// One entry of a buffer's table of SVG frame texts: for a cell drawn as its frame (the
/// default appearance, not round), the text around its y that depends only on its frame's x,
/// width and height: ` x="X" y="` before it, `" width="W" height="H" rx="R` after it, and,
/// once a label was drawn in it, `<text x="CX" y="` (CX the frame's centre). As `FrameText`
/// for the CSV: one lookup for five of the number table. 128 bytes, two cache lines; 1,024
/// entries (128 KB), indexed as `FrameText`'s.
package struct SVGFrameText {
    static let slots = FrameKey.slots
    /// The frame whose texts this entry holds.
    package var key = FrameKey()
    /// The three texts' lengths, a byte each (0 for a label's not yet known).
    package var lengths: UInt64 = 0
    /// ` x="X" y="`, at most 24 bytes.
    package var before: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// `" width="W" height="H" rx="R`, at most 40 bytes.
    package var after: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    /// `<text x="CX" y="`, at most 32 bytes.
    package var label: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init() {}
}

/// A write position in an `OutputBuffer`'s reserved space (`OutputBuffer.cursor(reserving:)`):
/// string literals are copied with a length known at compile time, numbers formatted in
/// place, and nothing is checked.
@usableFromInline package struct ByteCursor {
    /// The next byte to write.
    @usableFromInline package private(set) var position: UnsafeMutablePointer<UInt8>
    /// How numbers are formatted.
    @usableFromInline let precision: NumberPrecision
    @usableFromInline let cache: UnsafeMutablePointer<CachedNumber>

    /// A cursor at `start`, formatting numbers at `precision` through the table `cache`.
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

    /// Appends `value` at the buffer's precision. Layouts repeat their numbers (a column's x
    /// and width, a ring's item size), so the text of recent ones is kept in a small table
    /// indexed by a hash of the bits: a repeat is a 24-byte copy instead of a formatting.
    @inlinable @inline(__always)
    package mutating func append(number value: Double) {
        let bits = value.bitPattern
        let slot = CachedNumber.slot(for: bits, in: cache)
        if let length = slot.pointee.copy(bits, to: position) {
            position += length
        } else if case .decimals(3) = precision, let number = NumberFormat.wholeOrHalfText(value) {
            // A new whole number or half (a y in most layouts), built here rather than in a call.
            UnsafeMutableRawPointer(position).storeBytes(of: (number.low, number.high), as: (UInt64, UInt64).self)
            slot.pointee = CachedNumber(bits: bits, length: number.length, text: (number.low, number.high, 0))
            position += number.length
        } else {
            position += Self.formatAndRemember(value, precision: precision, in: slot, at: position)
        }
    }

    /// Appends `value` at the buffer's precision without the table of recent numbers, for a
    /// column whose numbers seldom repeat but one row after the next (a CSV's y: unique in
    /// a waterfall, shared by a row of a grid): `last` holds the column's last number and
    /// its text, which a repeat copies (`RecentNumber.write`). `standard`: the precision is
    /// the default, 3 decimals (told by the caller, who tested it once); `digits`:
    /// `DigitTable.digits`.
    @inlinable @inline(__always)
    package mutating func append(number value: Double, after last: inout RecentNumber, standard: Bool,
                         digits: UnsafePointer<UInt32>) {
        last.write(value, at: &position, standard: standard, digits: digits, precision: precision)
    }

    /// Formats `value`, which is not a whole number or a half under 10⁸ at the default
    /// precision (`append(number:)` builds those itself), at `position` and keeps its text in
    /// `slot` when it fits; returns its length. Out of line: the element code keeps only the
    /// table lookup and the whole numbers inline.
    @inline(never)
    @usableFromInline static func formatAndRemember(_ value: Double, precision: NumberPrecision,
                                          in slot: UnsafeMutablePointer<CachedNumber>,
                                          at position: UnsafeMutablePointer<UInt8>) -> Int {
        if case .decimals(3) = precision, let number = NumberFormat.fractionalText(value) {
            // The usual case: the text built in registers, stored once and kept as it is.
            UnsafeMutableRawPointer(position).storeBytes(of: (number.low, number.high), as: (UInt64, UInt64).self)
            slot.pointee = CachedNumber(bits: value.bitPattern, length: number.length, text: (number.low, number.high, 0))
            return number.length
        }
        return formatAnyAndRemember(value, precision: precision, in: slot, at: position)
    }

    /// `formatAndRemember` at any precision, for any value: apart, so that the usual case
    /// has no calls to save registers for.
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

    /// Appends digits as `NumberFormat.shortDigitsText` gives them (8 bytes stored).
    @inlinable @inline(__always)
    package mutating func append(digits: (text: UInt64, length: Int)) {
        UnsafeMutableRawPointer(position).storeBytes(of: digits.text.littleEndian, as: UInt64.self)
        position += digits.length
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

    /// Appends what `write` writes at the position (within the room reserved); it returns
    /// the bytes' count.
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

/// A producer of a streamed layout's elements: called once with a sink, to which it must
/// append every element, in element order (typically by running the engine with it). The
/// writer finishes the sink.
public typealias StreamedElements = (_ sink: inout ElementBlocks) throws -> Void

/// Formats the blocks of elements `produce` appends with `formatBlock` and hands the text to
/// `out` in order; `formatBlock` gets a block, the output position of its first element,
/// whether every element of the block has the default appearance and the buffer to write
/// to. The engine fills the slots of a `BlockPipeline` directly, and the blocks are
/// formatted on every core while it goes on computing the next ones. A failure of
/// `out`'s sink stops the formatting and is rethrown once `produce` returns.
package func appendStreamed(_ produce: StreamedElements, to out: OutputBuffer,
                    _ formatBlock: @escaping (UnsafeBufferPointer<LayoutAttributes>, Int, Bool, OutputBuffer) -> Void) throws {
    let pipeline = BlockPipeline(precision: out.precision)
    defer { pipeline.stop() }
    try pipeline.run(to: out, formatBlock: formatBlock, produce)
}
