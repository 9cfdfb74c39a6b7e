import LayoutCore

/// A byte buffer the writers format into, handed to a sink in large chunks so that a
/// million-element layout never exists as one string. Without a sink it keeps everything
/// (for tests and for `-o`, which writes a temporary file the same way).
public final class OutputBuffer {
    /// Bytes not yet handed to the sink.
    public private(set) var bytes: [UInt8] = []
    /// Decimals of every number written.
    public let precision: NumberPrecision
    private let sink: ((UnsafeBufferPointer<UInt8>) throws -> Void)?
    private let chunkSize: Int

    /// Creates a buffer.
    /// - Parameters:
    ///   - precision: how numbers are formatted.
    ///   - chunkSize: bytes gathered before each hand-over to `sink`. Default 1 MiB.
    ///   - sink: receives the bytes; `nil` keeps them in `bytes`. Errors it throws propagate
    ///     out of the writer.
    public init(precision: NumberPrecision = .standard, chunkSize: Int = 1 << 20,
                sink: ((UnsafeBufferPointer<UInt8>) throws -> Void)? = nil) {
        self.precision = precision
        self.chunkSize = chunkSize
        self.sink = sink
        bytes.reserveCapacity(sink == nil ? 4096 : chunkSize + 4096)
    }

    /// Appends ASCII or UTF-8 text.
    @inline(__always)
    public func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a string's UTF-8 bytes as they are (no escaping).
    public func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends one byte.
    @inline(__always)
    public func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `value` at the buffer's precision.
    @inline(__always)
    public func append(number value: Double) {
        NumberFormat.append(value, precision: precision, to: &bytes)
    }

    /// Appends a non-negative or negative integer.
    public func append(integer value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        NumberFormat.appendDigits(UInt64(value.magnitude), to: &bytes)
    }

    /// Hands the gathered bytes to the sink once a chunk is full.
    @inline(__always)
    public func flushIfFull() throws {
        if sink != nil && bytes.count >= chunkSize { try flush() }
    }

    /// Hands everything gathered to the sink (no-op without one).
    public func flush() throws {
        guard let sink, !bytes.isEmpty else { return }
        try bytes.withUnsafeBufferPointer { try sink($0) }
        bytes.removeAll(keepingCapacity: true)
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

/// Calls `body` with each selected element position, in order.
@inline(__always)
func forEachSelected(_ layout: CollectionLayout, _ selection: [Int]?, _ body: (Int) throws -> Void) rethrows {
    if let selection {
        for i in selection { try body(i) }
    } else {
        for i in layout.elements.indices { try body(i) }
    }
}
