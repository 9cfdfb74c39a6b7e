/// What an engine can do for the passes of a run (declared beside its entry points).
public struct PassCapabilities: Equatable, Sendable {
    /// It lays out into a sink, and has a check pass (elements only counted and checked).
    public var streams: Bool
    /// Its check pass vouches for every element from a summary (`WaterfallLayout.elementsAreFinite(in:scale:)`
    /// and the like), visiting them one by one only when unsure.
    public var summaryCheck: Bool
    /// It vouches for every element without laying out (`WaterfallLayout.succeedsWithFiniteElements`).
    public var vouchesWithoutLayingOut: Bool

    /// The capabilities (see the properties).
    public init(streams: Bool, summaryCheck: Bool = false, vouchesWithoutLayingOut: Bool = false) {
        self.streams = streams
        self.summaryCheck = summaryCheck
        self.vouchesWithoutLayingOut = vouchesWithoutLayingOut
    }

    /// Streams, and its check pass visits every element.
    public static let streaming = PassCapabilities(streams: true)
    /// Streams, and its check pass vouches from a summary.
    public static let streamingWithSummaryCheck = PassCapabilities(streams: true, summaryCheck: true)
}

/// What a run asks of the layout that bears on its passes.
public struct PassOptions: Equatable, Sendable {
    /// A query selects among the elements (`--rect`, `--visible`, `--item`).
    public var query = false
    /// `--target-offset`: the engine's `targetContentOffset` reads the kept layout.
    public var targetOffset = false
    /// `--layout-direction right-to-left`: the kept layout is mirrored.
    public var rightToLeft = false
    /// `--scroll-to`, and how the layout moves with the offset.
    public var scroll = Scroll.none
    /// The caller reads the elements (`cvlayout transition`; the probes of dataset options).
    public var callerReadsElements = false

    /// `--scroll-to` as the passes see it.
    public enum Scroll: String, Equatable, Sendable, CaseIterable {
        /// No scroll.
        case none
        /// A scroll of a layout that does not move with the offset: its still picture streams.
        case still
        /// A scroll of a layout that moves with the offset: every keyframe laid out and kept.
        case moving
    }

    /// Defaults: no query, no target, left to right, no scroll.
    public init(query: Bool = false, targetOffset: Bool = false, rightToLeft: Bool = false, scroll: Scroll = .none,
                callerReadsElements: Bool = false) {
        self.query = query
        self.targetOffset = targetOffset
        self.rightToLeft = rightToLeft
        self.scroll = scroll
        self.callerReadsElements = callerReadsElements
    }
}

/// The passes of one run, decided in one place (`make`; `LayoutPipeline` follows it): the
/// elements kept (one run, mirrored, snapped and checked in memory) or streamed (a check pass,
/// or none when vouched for without laying out, then the writing pass), checked before the
/// first byte is written.
public struct PassPlan: Equatable, Sendable {
    /// Where the elements live.
    public enum Elements: Equatable, Sendable {
        /// In memory (`CollectionLayout.elements`).
        case kept(because: KeepReason)
        /// Sent block by block to the writer, never all in memory.
        case streamed
    }

    /// Why the elements are kept.
    public enum KeepReason: String, Equatable, Sendable {
        /// The engine has no streaming entry point.
        case engineKeepsOnly
        /// A query selects among them.
        case query
        /// `--target-offset` reads them.
        case targetOffset
        /// Right to left mirrors them.
        case rightToLeft
        /// A scroll of a layout that moves lays out every keyframe.
        case scrollMoves
        /// The caller reads them.
        case callerReadsElements
    }

    /// How a streamed layout is checked before writing (a kept one is checked in memory).
    public enum Check: Equatable, Sendable {
        /// The kept elements, checked after laying out (no pass of its own).
        case inMemory
        /// A check pass; `summaryVouches`: from the summary when it can (else one by one).
        case checkPass(summaryVouches: Bool)
        /// No pass when the engine vouches without laying out; when it is unsure, the check pass.
        case vouchedWithoutLayingOut(fallbackSummaryVouches: Bool)
    }

    /// Kept or streamed.
    public var elements: Elements
    /// The check before writing.
    public var check: Check
    /// An SVG: a streamed layout must come in drawing order (zIndex), else it is kept.
    public var needsDrawingOrder: Bool

    /// `elements == .streamed`.
    public var streams: Bool { elements == .streamed }

    /// The plan for an engine with `capabilities`, a run asking `options`, written as `format`.
    /// - Complexity: O(1).
    public static func make(capabilities: PassCapabilities, options: PassOptions, format: OutputFormat) -> PassPlan {
        let keep: KeepReason? = !capabilities.streams ? .engineKeepsOnly
            : options.callerReadsElements ? .callerReadsElements
            : options.query ? .query
            : options.scroll == .moving ? .scrollMoves
            : options.rightToLeft ? .rightToLeft
            : options.targetOffset ? .targetOffset
            : nil
        if let keep {
            return PassPlan(elements: .kept(because: keep), check: .inMemory, needsDrawingOrder: false)
        }
        let check: Check = capabilities.vouchesWithoutLayingOut && (format == .csv || format == .svg)
            ? .vouchedWithoutLayingOut(fallbackSummaryVouches: capabilities.summaryCheck)
            : .checkPass(summaryVouches: capabilities.summaryCheck)
        return PassPlan(elements: .streamed, check: check, needsDrawingOrder: format == .svg)
    }

    /// For a layout vouched for without laying out: whether `format` needs the check pass
    /// for the summary it shows (not a CSV; not an SVG measuring its canvas, `.all`).
    public static func deferredSummaryNeedsCheckPass(writing format: OutputFormat, canvas: SVGCanvas) -> Bool {
        format != .csv && !(format == .svg && canvas == .all)
    }
}
