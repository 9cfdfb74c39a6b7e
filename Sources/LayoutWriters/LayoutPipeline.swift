import LayoutCore
import FastText

/// How a layout is produced and written, following the run's `PassPlan`: a streamed layout is
/// checked here (block by block, snapped as it will be written, or vouched for) and laid out
/// again in `write`, formatted as it comes; a kept one is laid out, snapped and checked here.
/// Nothing is written when a number is not finite.
public struct LayoutPipeline {
    /// An engine's entry points, its input (settings, data, bounds, offset) already bound.
    public struct Engine {
        /// Lays out, keeping the elements.
        public var layout: () throws -> CollectionLayout
        /// Lays out into a sink (the result's `elements` empty); `nil` for an engine that
        /// must see all its elements before it is done (flow pins headers afterwards).
        public var stream: ((inout ElementBlocks) throws -> CollectionLayout)?
        /// The same layout, its elements only counted and checked; set with `stream`.
        public var check: ((inout FiniteCheckSink) throws -> CollectionLayout)?
        /// For a CSV or SVG, without laying out: `QuickCheck` when every element is surely
        /// finite once snapped to the scale given; `nil` when unsure.
        public var quickCheck: ((Double?) throws -> QuickCheck?)?
        /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)` given the
        /// layout, the proposed offset and the velocity; `nil`: the proposed offset.
        public var targetContentOffset: ((CollectionLayout, Point, Point) -> Point)?
        /// What the entry points can do for the plan (`PassPlan.make`).
        public var capabilities: PassCapabilities

        /// The entry points; `capabilities` by default from those given (no summary check).
        public init(layout: @escaping () throws -> CollectionLayout,
                    stream: ((inout ElementBlocks) throws -> CollectionLayout)? = nil,
                    check: ((inout FiniteCheckSink) throws -> CollectionLayout)? = nil,
                    quickCheck: ((Double?) throws -> QuickCheck?)? = nil,
                    targetContentOffset: ((CollectionLayout, Point, Point) -> Point)? = nil,
                    capabilities: PassCapabilities? = nil) {
            self.layout = layout
            self.stream = stream
            self.check = check
            self.quickCheck = quickCheck
            self.targetContentOffset = targetContentOffset
            self.capabilities = capabilities
                ?? PassCapabilities(streams: stream != nil && check != nil, vouchesWithoutLayingOut: quickCheck != nil)
        }
    }

    /// What `Engine.quickCheck` vouches for: the counts, and whether the visible elements surely
    /// come in zIndex order (`false` when unsure).
    public typealias QuickCheck = (elementCount: Int, numberOfSections: Int, isInDrawingOrder: Bool)

    /// What is asked of the run.
    public struct Request {
        /// The format the layout will be written in.
        public var format: OutputFormat
        /// The screen scale frames are snapped to (`--scale`), finite and > 0, or `nil`.
        public var scale: Double?
        /// What the run asks that bears on its passes (`PassPlan.make`); `targetOffset` and
        /// `rightToLeft` are read from `target` and `mirrorsForRightToLeft`.
        public var passes: PassOptions
        /// `--target-offset` and `--velocity`, when asked.
        public var target: (offset: Point, velocity: Point)?
        /// The summary of a layout vouched for without laying out (its content size the bounds).
        public var engine: String, bounds: Size, contentOffset: Point
        /// Mirror the layout for a right-to-left language (`CollectionLayout.mirroredForRightToLeft()`),
        /// before snapping; the elements are then kept. Default `false`.
        public var mirrorsForRightToLeft = false

        /// A request; `keepsElements`: a caller reads them (`passes.callerReadsElements`).
        public init(format: OutputFormat, scale: Double?, keepsElements: Bool, target: (offset: Point, velocity: Point)?,
                    engine: String, bounds: Size, contentOffset: Point) {
            self.format = format
            self.scale = scale
            self.passes = PassOptions(callerReadsElements: keepsElements)
            self.target = target
            self.engine = engine
            self.bounds = bounds
            self.contentOffset = contentOffset
        }
    }

    /// The layout, pixel-snapped, with `targetContentOffset` when asked; streamed, its summary
    /// (`elements` empty; vouched for without laying out, the bounds as content size).
    public let layout: CollectionLayout
    private let engine: Engine
    private let scale: Double?
    /// The passes planned (`PassPlan.make`); an SVG not in drawing order is kept after all.
    public let plan: PassPlan
    /// Whether the elements are streamed (not in `layout`).
    public let isStreamed: Bool
    private var inDrawingOrder = false
    private var contentSizeDeferred = false
    /// When the check counted them.
    private var streamedCount: Int? = nil
    /// Of a layout vouched for without laying out.
    private var deferredNumberOfSections: Int? = nil

    /// Up to this many elements a streamed layout is formatted on the calling thread: starting
    /// the pipeline (about a millisecond) would cost more than it saves.
    static let serialElementLimit = 8 * BlockPipeline.blockSize

    /// Runs the engine as the request needs: checked and summarised when streamed, laid out,
    /// snapped and checked when kept.
    /// - Throws: `LayoutError` from the engine, or for a number that is not finite.
    /// - Complexity: one pass of the engine (none for a vouched-for CSV or SVG).
    public init(engine: Engine, request: Request) throws {
        self.engine = engine
        scale = request.scale
        var passes = request.passes
        passes.targetOffset = request.target != nil
        passes.rightToLeft = request.mirrorsForRightToLeft
        plan = PassPlan.make(capabilities: engine.capabilities, options: passes, format: request.format)
        var checked: CollectionLayout? = nil
        var vouched: QuickCheck? = nil
        if case .vouchedWithoutLayingOut = plan.check { vouched = try engine.quickCheck?(request.scale) }
        if let counts = vouched, !plan.needsDrawingOrder || counts.isInDrawingOrder {
            // Sound without laying out; `write` runs the check pass if the format shows the summary.
            streamedCount = counts.elementCount
            deferredNumberOfSections = counts.numberOfSections
            checked = CollectionLayout(engine: request.engine, bounds: request.bounds, contentOffset: request.contentOffset,
                                       contentSize: request.bounds, elements: [], cellRanges: [])
            inDrawingOrder = true
            contentSizeDeferred = true
        } else if plan.streams, let check = engine.check {
            var sink = FiniteCheckSink(scale: request.scale)
            let summary = try check(&sink)
            try summary.validateFinite(streamedElement: sink.firstNonFinite)
            inDrawingOrder = sink.zIndicesAreNonDecreasing
            streamedCount = sink.count
            // An SVG draws by zIndex: a layout out of that order is kept, to be sorted.
            if !plan.needsDrawingOrder || sink.zIndicesAreNonDecreasing { checked = summary }
        }
        if let checked {
            layout = checked
            isStreamed = true
        } else {
            var kept = try engine.layout()
            if request.mirrorsForRightToLeft { kept = kept.mirroredForRightToLeft() }
            if let scale = request.scale { kept.snapToPixels(scale: scale) }
            if let target = request.target {
                kept.targetContentOffset = engine.targetContentOffset?(kept, target.offset, target.velocity) ?? target.offset
            }
            try kept.validateFinite()
            layout = kept
            isStreamed = false
        }
    }

    /// The summary, its content size computed by the check pass when it was deferred and
    /// `format` on `options.canvas` shows it (`PassPlan.deferredSummaryNeedsCheckPass`); for an
    /// SVG on `.all`, with what it draws (`drawnBounds`), measured on `pipeline`.
    private func summary(writing format: OutputFormat, options: OutputOptions, on pipeline: BlockPipeline?,
                         precision: NumberPrecision) throws -> (layout: CollectionLayout, drawn: Rect?) {
        if format == .svg && options.canvas == .all, let stream = engine.stream {
            return try drawnBounds(labels: svgLabels(options), stream: stream, on: pipeline, precision: precision)
        }
        guard contentSizeDeferred, PassPlan.deferredSummaryNeedsCheckPass(writing: format, canvas: options.canvas),
              let check = engine.check else { return (layout, nil) }
        var sink = FiniteCheckSink(scale: scale)
        return (try check(&sink), nil)
    }

    /// `stream` into a sink that snaps frames as they will be written.
    private func producer(_ stream: @escaping (inout ElementBlocks) throws -> CollectionLayout) -> StreamedElements {
        { [scale] sink in
            sink.scale = scale
            _ = try stream(&sink)
        }
    }

    /// For streamed elements, not an SVG: the summary (`summary(writing:options:on:precision:)`) and a
    /// producer running the engine again, frames snapped: for comparing as it goes (`--check`).
    /// - Throws: what the engine throws.
    public func streamedElements(for format: OutputFormat) throws
        -> (layout: CollectionLayout, produce: (inout ElementBlocks) throws -> Void)? {
        guard isStreamed, let stream = engine.stream, format != .svg else { return nil }
        return (try summary(writing: format, options: OutputOptions(), on: nil, precision: .standard).layout,
                producer(stream))
    }

    /// Writes the layout as `format` (the elements at `selection` when kept) to `buffer`;
    /// streamed, running the engine again: for a deferred summary the format shows, for an
    /// SVG's canvas (`.all`: what is drawn, measured before the first line), then to write.
    /// - Throws: what the engine or the buffer's sink throws.
    public func write(_ format: OutputFormat, selection: [Int]?, options: OutputOptions, to buffer: OutputBuffer) throws {
        guard isStreamed, let stream = engine.stream else {
            return try format.write(layout, selection: selection, options: options, to: buffer)
        }
        // A job streams an SVG only after the check found it in drawing order (a golden is JSON or CSV).
        precondition(format != .svg || inDrawingOrder, "an SVG is streamed only in drawing order")
        var options = options
        try withPipeline(precision: buffer.precision) { pipeline in
            let layout: CollectionLayout
            (layout, options.drawnBounds) = try summary(writing: format, options: options, on: pipeline,
                                                        precision: buffer.precision)
            try format.write(layout, streaming: producer(stream), options: options, to: buffer, on: pipeline,
                             serially: pipeline == nil)
        }
    }

    /// For an SVG whose elements are streamed (in drawing order): runs `body` with the summary
    /// and the still picture's shapes (`ScrollSVGWriter.StreamedShapes`, their text written by
    /// another run of the engine), for a scroll of a layout that does not move with the offset.
    /// `false`, and `body` not run, when the elements are kept.
    /// - Throws: what the engine, `body` or the buffer's sink throws.
    /// - Complexity: O(n) time, memory for a few blocks.
    public func withStreamedShapes(options: OutputOptions, precision: NumberPrecision,
                                   _ body: (CollectionLayout, ScrollSVGWriter.StreamedShapes) throws -> Void) throws -> Bool {
        guard isStreamed, inDrawingOrder, let stream = engine.stream else { return false }
        let labels = svgLabels(options)
        try withPipeline(precision: precision) { pipeline in
            let (summary, drawn) = try self.summary(writing: .svg, options: options, on: pipeline, precision: precision)
            let shapes = ScrollSVGWriter.StreamedShapes(drawn: drawn, labels: labels) { [summary] out in
                let parts = OutputFormat.svg.streamParts(summary, options: options, labelsAboveOutline: false)
                try OutputFormat.svg.appendBlocks(producer(stream), parts: parts, to: out, on: pipeline, serially: pipeline == nil)
            }
            try body(summary, shapes)
        }
        return true
    }

    /// Runs `body` with a new `BlockPipeline` (stopped after), or `nil` (format on this thread)
    /// for at most `serialElementLimit` elements.
    private func withPipeline(precision: NumberPrecision, _ body: (BlockPipeline?) throws -> Void) throws {
        let pipeline = (streamedCount ?? .max) <= Self.serialElementLimit ? nil : BlockPipeline(precision: precision)
        defer { pipeline?.stop() }
        try body(pipeline)
    }

    /// `SVGLabels.resolved` (by the sections a quick check counted).
    private func svgLabels(_ options: OutputOptions) -> SVGLabels {
        SVGLabels.resolved(options.labels, numberOfSections: deferredNumberOfSections ?? layout.numberOfSections)
    }

    /// What the streamed elements' SVG draws (`SVGLayoutWriter.DrawnBounds`) and the summary
    /// (that run's when deferred), from another run of the engine, on `pipeline` (each slot
    /// measuring its own) or this thread.
    private func drawnBounds(labels: SVGLabels, stream: (inout ElementBlocks) throws -> CollectionLayout,
                             on pipeline: BlockPipeline?, precision: NumberPrecision) throws
        -> (layout: CollectionLayout, drawn: Rect?) {
        let measured = OutputBuffer(precision: precision, capacity: 0)
        let slotBuffers = pipeline?.slotBuffers ?? [measured]
        var drawn = SVGLayoutWriter.DrawnBounds(labels: labels)
        let drawnPerSlot = UnsafeMutablePointer<SVGLayoutWriter.DrawnBounds>.allocate(capacity: slotBuffers.count)
        drawnPerSlot.initialize(repeating: drawn, count: slotBuffers.count)
        defer { drawnPerSlot.deallocate() }
        var summary: CollectionLayout? = nil
        let parts = OutputFormat.StreamParts(start: { _, _ in }, block: { block, _, defaultAppearance, slotBuffer in
            let slot = slotBuffers.firstIndex { $0 === slotBuffer }!
            var drawn = drawnPerSlot[slot]
            if defaultAppearance {
                drawn.addDefaultAppearance(block)
            } else {
                for k in block.indices { drawn.add(block[k]) }
            }
            drawnPerSlot[slot] = drawn
        }, end: { _, _ in })
        try OutputFormat.svg.appendBlocks({ [scale] sink in
            sink.scale = scale
            summary = try stream(&sink)
        }, parts: parts, to: measured, on: pipeline, serially: pipeline == nil)
        for slot in slotBuffers.indices { drawn.add(drawnPerSlot[slot]) }
        return (contentSizeDeferred ? summary! : layout, drawn.bounds)
    }
}
