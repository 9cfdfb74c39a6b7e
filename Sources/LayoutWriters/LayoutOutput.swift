import LayoutCore
import FastText

/// Where a writer's text goes, for the command line (without FastText): handed to `sink` in
/// 1 MiB chunks, or kept (`bytes`); numbers at `precision`.
public struct LayoutOutput {
    /// The buffer the writers format into.
    let buffer: OutputBuffer

    /// An output at `precision` to `sink` (`nil`: kept); `sink`'s errors propagate.
    public init(precision: NumberPrecision = .standard, sink: ((UnsafeBufferPointer<UInt8>) throws -> Void)? = nil) {
        buffer = OutputBuffer(precision: precision, sink: sink)
    }

    /// Decimals of every number written.
    public var precision: NumberPrecision { buffer.precision }

    /// The bytes not yet handed to the sink (everything, without a sink).
    public var bytes: [UInt8] { buffer.bytes }
}

extension NumberPrecision {
    /// `value`'s text at this precision, as the writers write it (`1e-7` at `.full`:
    /// `0.0000001`; 2.675 at `.decimals(2)`: `2.67`).
    public func text(_ value: Double) -> String { NumberFormat.string(value, precision: self) }
}

extension LayoutPipeline {
    /// `write(_:selection:options:to:)` to `output`.
    public func write(_ format: OutputFormat, selection: [Int]?, options: OutputOptions, to output: LayoutOutput) throws {
        try write(format, selection: selection, options: options, to: output.buffer)
    }
}

extension TransitionWriter {
    /// `write(_:format:options:to:)` to `output`.
    public static func write(_ transition: LayoutTransition, format: OutputFormat, options: TransitionOutputOptions,
                             to output: LayoutOutput) throws {
        try write(transition, format: format, options: options, to: output.buffer)
    }
}

extension ScrollSVGWriter {
    /// `write(_:layout:movesWithOffset:tolerance:limits:statistics:streamed:options:to:)` to `output`.
    @discardableResult
    public static func write(_ animation: ScrollAnimation, layout: (Point) throws -> CollectionLayout,
                             movesWithOffset: Bool = true, tolerance: Double = refinementTolerance,
                             limits: Limits = .standard, statistics: Statistics? = nil, streamed: StreamedShapes? = nil,
                             options: OutputOptions, to output: LayoutOutput) throws -> Bool {
        try write(animation, layout: layout, movesWithOffset: movesWithOffset, tolerance: tolerance, limits: limits,
                  statistics: statistics, streamed: streamed, options: options, to: output.buffer)
    }
}
