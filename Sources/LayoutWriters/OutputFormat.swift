import LayoutCore
import FastText

/// Where a writer's text goes, for the command line: `LayoutOutput(precision:sink:)` hands it
/// to `sink` in 1 MiB chunks, or keeps it (`bytes`); numbers at `precision`.
public typealias LayoutOutput = OutputBuffer

extension NumberPrecision {
    /// `value`'s text at this precision, as the writers write it (`1e-7` at `.full`:
    /// `0.0000001`; 2.675 at `.decimals(2)`: `2.67`).
    public func text(_ value: Double) -> String { NumberFormat.string(value, precision: self) }
}

/// How a layout is written.
public struct OutputOptions: Sendable {
    /// Decimals of every number. Default 3.
    public var precision: NumberPrecision = .standard
    /// SVG: what each shape is labelled with (`--labels`); `nil`, the default, picks index
    /// paths for a layout of more than one section and item numbers otherwise.
    public var labels: SVGLabels? = nil
    /// SVG: the `--rect` query area to outline, if any.
    public var queryRect: Rect? = nil
    /// SVG: the area the picture shows (`--canvas`). Default `.all`.
    public var canvas = SVGCanvas.all
    /// SVG, streamed with `canvas == .all`: what the elements draw, measured before writing
    /// (`SVGLayoutWriter.DrawnBounds`; a kept layout's writer measures itself); `nil`: nothing.
    public var drawnBounds: Rect? = nil

    /// Creates the default options.
    public init() {}
}

/// The three output formats (SPEC section 4).
public enum OutputFormat: String, Sendable, CaseIterable {
    case json, csv, svg

    /// Writes `layout` (its summary) with the elements `produce` appends, formatted on `pipeline`
    /// (a new one when `nil`) as the engine goes on, or `serially` on this thread: byte for
    /// byte what `write(_:selection:options:to:)` writes for the layout with its elements.
    /// - Precondition: for SVG, the visible elements come in drawing order.
    /// - Throws: what `produce` or the buffer's sink throws.
    /// - Complexity: O(n); memory for a few blocks, whatever n.
    func write(_ layout: CollectionLayout, streaming produce: StreamedElements, options: OutputOptions,
               to out: OutputBuffer, on pipeline: BlockPipeline? = nil, serially: Bool = false) throws {
        if self == .csv && layout.heartSamples != nil {
            // `--heart-samples` as CSV: the samples table, without the elements.
            return try write(layout, selection: nil, options: options, to: out)
        }
        let parts = streamParts(layout, options: options)
        parts.start(layout, out)
        try appendBlocks(produce, parts: parts, to: out, on: pipeline, serially: serially)
        parts.end(layout, out)
        try out.flush()
    }

    /// The elements' text alone (`parts.block`), on `pipeline` or, `serially`, this thread: for
    /// a scroll's still shapes, `streamParts(_:options:labelsAboveOutline: false)` (its outline moves).
    func appendBlocks(_ produce: StreamedElements, parts: StreamParts, to out: OutputBuffer, on pipeline: BlockPipeline?,
                      serially: Bool) throws {
        if serially {
            var position = 0
            var sink = ElementBlocks(blockSize: BlockPipeline.blockSize) { block in
                parts.block(block, position, false, out)  // every element stored whole, checked
                position += block.count
            }
            try produce(&sink)
            sink.finish()
        } else {
            let owned = pipeline == nil ? BlockPipeline(precision: out.precision) : nil
            defer { owned?.stop() }
            try (pipeline ?? owned!).run(to: out, formatBlock: parts.block, produce)
        }
    }

    /// A streamed write's text before the elements, of a block (given its first's output
    /// position and whether all have the default appearance), and after them.
    struct StreamParts {
        let start: (CollectionLayout, OutputBuffer) -> Void
        let block: (UnsafeBufferPointer<LayoutAttributes>, Int, Bool, OutputBuffer) -> Void
        let end: (CollectionLayout, OutputBuffer) -> Void
    }

    /// The parts of a streamed write of `layout` (its summary); an SVG's labels that cross the
    /// visible bounds' outline drawn after it when `labelsAboveOutline`.
    func streamParts(_ layout: CollectionLayout, options: OutputOptions, labelsAboveOutline: Bool = true) -> StreamParts {
        switch self {
        case .json:
            return StreamParts(start: { JSONLayoutWriter.appendStart($0, to: $1) }, block: { block, first, _, out in
                for k in block.indices { JSONLayoutWriter.appendElementLine(block[k], position: first + k, to: out) }
            }, end: { JSONLayoutWriter.appendEnd($0, to: $1) })
        case .csv:
            return StreamParts(start: { CSVLayoutWriter.appendHeader(to: $1) }, block: { block, _, defaultAppearance, out in
                CSVLayoutWriter.appendRows(block, allDefaultAppearance: defaultAppearance, to: out)
            }, end: { _, _ in })
        case .svg:
            let labels = SVGLabels.resolved(options.labels, numberOfSections: layout.numberOfSections)
            let round = layout.drawsCellsRound
            let above = labelsAboveOutline && labels != .none ? SVGLabelsAboveOutline(outline: layout.visibleRect) : nil
            return StreamParts(start: { SVGLayoutWriter.appendStart($0, options: options, drawn: options.drawnBounds, to: $1) },
                               block: { block, _, defaultAppearance, out in
                SVGLayoutWriter.appendBlock(block, round: round, labels: labels, allDefaultAppearance: defaultAppearance,
                                            above: above, to: out)
            }, end: { SVGLayoutWriter.appendEnd($0, options: options, above: above, to: $1) })
        }
    }

    /// Writes the elements at `selection` (positions in `layout.elements`, ascending; `nil`
    /// for all) to `out`.
    /// - Throws: whatever the buffer's sink throws.
    /// - Complexity: O(selected elements), no allocation per element (SVG: O(k log k) for the zIndex sort).
    public func write(_ layout: CollectionLayout, selection: [Int]?, options: OutputOptions,
                      to out: OutputBuffer) throws {
        switch self {
        case .json:
            JSONLayoutWriter.appendStart(layout, to: out)
            try appendSelected(layout, selection, to: out) { JSONLayoutWriter.appendElementLine($0, position: $2, to: $1) }
            JSONLayoutWriter.appendEnd(layout, to: out)
        case .csv:
            if let samples = layout.heartSamples {
                try writeHeartSamples(samples, to: out)  // `--heart-samples`: the samples table instead
            } else {
                CSVLayoutWriter.appendHeader(to: out)
                try appendSelected(layout, selection, to: out) { element, buffer, _ in
                    var items = CountingDigits()
                    CSVLayoutWriter.appendRow(element, to: buffer, items: &items)
                }
            }
        case .svg: try SVGLayoutWriter.write(layout, selection: selection, options: options, to: out)
        }
        try out.flush()
    }
}

/// Formats each selected element (all when `selection` is nil) with `format` (given the
/// element, the buffer and its output position) on every core (`appendInParallel`), in order.
func appendSelected(_ layout: CollectionLayout, _ selection: [Int]?, to out: OutputBuffer,
                    _ format: (LayoutAttributes, OutputBuffer, Int) -> Void) throws {
    try layout.elements.withUnsafeBufferPointer { elements in
        if let selection {
            try selection.withUnsafeBufferPointer { selection in
                try appendInParallel(count: selection.count, to: out) { position, buffer in
                    format(elements[selection[position]], buffer, position)
                }
            }
        } else {
            try appendInParallel(count: elements.count, to: out) { position, buffer in
                format(elements[position], buffer, position)
            }
        }
    }
}
