import LayoutCore

/// A byte buffer the writers format into, handed to a sink in large chunks so that a
/// million-element layout never exists as one string. Without a sink it keeps everything
/// (for tests and for in-memory comparisons).
///
/// The bytes live in one manually managed allocation written through a pointer: no array
/// appends and no exclusivity checks on the hot path.
public final class OutputBuffer {
    /// Decimals of every number written.
    public let precision: NumberPrecision
    private let sink: ((UnsafeBufferPointer<UInt8>) throws -> Void)?
    private let chunkSize: Int
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0

    /// Creates a buffer.
    /// - Parameters:
    ///   - precision: how numbers are formatted.
    ///   - chunkSize: bytes gathered before each hand-over to `sink`. Default 1 MiB.
    ///   - sink: receives the bytes; `nil` keeps them all (see `bytes`). Errors it throws
    ///     propagate out of the writer.
    public init(precision: NumberPrecision = .standard, chunkSize: Int = 1 << 20,
                sink: ((UnsafeBufferPointer<UInt8>) throws -> Void)? = nil) {
        self.precision = precision
        self.chunkSize = chunkSize
        self.sink = sink
        capacity = (sink == nil ? 1 << 16 : chunkSize) + 2 * NumberFormat.maximumLength
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes not yet handed to the sink (everything, without a sink).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// Makes room for `n` more bytes.
    @inline(__always)
    private func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    /// Appends raw bytes.
    @inline(__always)
    public func append(_ buffer: UnsafeBufferPointer<UInt8>) {
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
    @inline(__always)
    public func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes as they are (no escaping). Labelled, so that string
    /// literals pick the `StaticString` overload (no String is built for them).
    public func append(string text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends one byte.
    @inline(__always)
    public func append(byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    /// Appends `value` at the buffer's precision.
    @inline(__always)
    public func append(number value: Double) {
        reserve(NumberFormat.maximumLength)
        count += NumberFormat.write(value, precision: precision, to: storage + count)
    }

    /// Appends an integer.
    @inline(__always)
    public func append(integer value: Int) {
        reserve(21)
        if value < 0 {
            storage[count] = UInt8(ascii: "-")
            count += 1
        }
        count += NumberFormat.writeDigits(UInt64(value.magnitude), to: storage + count)
    }

    /// Hands the gathered bytes to the sink once a chunk is full.
    @inline(__always)
    public func flushIfFull() throws {
        if count >= chunkSize, sink != nil { try flush() }
    }

    /// Hands everything gathered to the sink (no-op without one).
    public func flush() throws {
        guard let sink, count > 0 else { return }
        try sink(UnsafeBufferPointer(start: storage, count: count))
        count = 0
    }
}

/// How a layout is written.
public struct OutputOptions: Sendable {
    /// Decimals of every number. Default 3.
    public var precision: NumberPrecision = .standard
    /// SVG: label each shape with its item number. Default true.
    public var labels = true
    /// SVG: the `--rect` query area to outline, if any.
    public var queryRect: Rect? = nil

    /// Creates the default options.
    public init() {}
}

/// The three output formats (SPEC section 4).
public enum OutputFormat: String, Sendable, CaseIterable {
    case json, csv, svg

    /// Writes the elements at `selection` (positions in `layout.elements`, ascending; `nil`
    /// for all) to `out`.
    /// - Throws: whatever the buffer's sink throws.
    /// - Complexity: O(selected elements) (SVG: O(k log k) for the zIndex sort).
    public func write(_ layout: CollectionLayout, selection: [Int]?, options: OutputOptions,
                      to out: OutputBuffer) throws {
        switch self {
        case .json: try JSONLayoutWriter.write(layout, selection: selection, to: out)
        case .csv: try CSVLayoutWriter.write(layout, selection: selection, to: out)
        case .svg: try SVGLayoutWriter.write(layout, selection: selection, options: options, to: out)
        }
        try out.flush()
    }
}

/// Calls `body` with each selected element and its position, in order. The element is read
/// in place (borrowed from the array's storage), not copied.
@inline(__always)
func forEachSelected(_ layout: CollectionLayout, _ selection: [Int]?,
                     _ body: (borrowing LayoutAttributes, Int) throws -> Void) rethrows {
    try layout.elements.withUnsafeBufferPointer { elements in
        if let selection {
            for i in selection { try body(elements[i], i) }
        } else {
            for i in elements.indices { try body(elements[i], i) }
        }
    }
}
