import FastText
import LayoutCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `--scroll-to X,Y -f svg`: a standalone SVG 1.1 document in which the content offset moves
/// through a `ScrollAnimation`'s keyframes and every element takes, at each keyframe, the
/// attributes its engine gives at that offset (SMIL; it plays once and holds the last
/// keyframe, `fill="freeze"`).
///
/// Samples: the keyframes, and between two of them the moments where a browser's
/// straight-line interpolation would stray `refinementTolerance` or more from the engine
/// (found by halving, `isHalfway`), so every moment is within twice that.
///
/// The static document is the first keyframe, drawn exactly as `SVGLayoutWriter` draws that
/// layout, so a renderer without animation (rsvg-convert) shows it. Elements whose attributes
/// are the same at every sample are written just so and not animated. An element that
/// changes is a group `translate(centre + transform translation) [rotate(θ)] [skewX(φ)]
/// [scale(sx sy)]` around a rect centred on the origin (`TransformComponents`' decomposition),
/// its label untransformed in the outer group; each part that changes has one
/// `<animate>`/`<animateTransform>` with its values at the samples around the element's
/// changes and their times as `keyTimes`, at full precision (linear in between, rotations
/// unwrapped along the shorter turn; a run of equal values keeps only its ends). Points are
/// written at the output precision, factors (opacity, angles, scales) at full precision.
///
/// Painting order follows the zIndex of each sample: an element whose zIndex changes is
/// written once per zIndex it takes, each copy shown (`opacity`, discrete) only at the
/// samples where the element has that zIndex, and the copies sorted with everything else by
/// (zIndex, element order). A hidden element's copies are not shown at that sample; they
/// hold their last shown values there, so nothing drifts toward a hidden state.
///
/// The visible bounds' outline (class `visible-bounds`) moves with the offset. The canvas:
/// `.all` is the union of every sample's `.all` canvas; `.content` the union of the content
/// rects; `.visible` the screen, the viewBox itself animated with the offset (over a white
/// background that covers every sample's bounds). The ring's heart is the first keyframe's.
public enum ScrollSVGWriter {
    /// The layouts of the keyframes do not hold the same elements (an engine whose elements
    /// depend on the offset: none does).
    public struct ElementsDiffer: Error {
        /// The keyframe whose elements differ from the first keyframe's.
        public let keyframe: Int
    }

    /// The still picture of a layout that does not move with the offset, streamed rather
    /// than kept (`LayoutPipeline.withStreamedShapes`): its shapes are those of the first
    /// keyframe, written as the still SVG streams them.
    public struct StreamedShapes {
        /// What the shapes draw, labels included (for the canvas `.all`); `nil` when nothing
        /// is drawn or the canvas is another.
        public var drawn: Rect?
        /// The labels the shapes carry.
        public var labels: SVGLabels
        /// Writes the shapes, in drawing order, to the buffer.
        public var append: (OutputBuffer) throws -> Void

        /// The shapes; see the properties.
        public init(drawn: Rect?, labels: SVGLabels, append: @escaping (OutputBuffer) throws -> Void) {
            self.drawn = drawn
            self.labels = labels
            self.append = append
        }
    }

    /// The animation cannot be written within the bounds: its keyframes alone would lay out
    /// more than `keyframeWork` elements, or would make a document of more than
    /// `maximumBytes` (as `write` estimates it). Bad data: fewer keyframes, fewer elements or
    /// a shorter scroll fit.
    public enum TooLarge: Error, Equatable {
        /// `keyframes` keyframes of `elements` elements would lay out more than `limit` elements.
        case keyframeWork(keyframes: Int, elements: Int, limit: Int)
        /// The document would be larger than `limit` bytes.
        case bytes(limit: Int, elements: Int, keyframes: Int)
    }

    /// Writes the animated document of `animation`, `layout(offset)` giving the layout at each
    /// sample's content offset (snapped and checked as it will be drawn). When the layout does
    /// not move with the offset (`movesWithOffset` false: no pinned header, no scaling) it is
    /// laid out once and only its visible bounds move. `tolerance` is how far, points, the
    /// middle of two samples may stray from halfway between them before it becomes a sample
    /// (`refinementTolerance`; more with coarse pixel snapping, whose steps are not lines).
    /// - Returns: `false` when a budget of the samples between keyframes (`sampleWork`
    ///   elements laid out in all, `maximumSamples` samples, `refinementBytes` of estimated
    ///   output) ran out before every moment was within twice `tolerance`; the document is
    ///   complete either way.
    /// - Throws: what `layout` or the buffer's sink throws; `ElementsDiffer`; `TooLarge`
    ///   when the keyframes of a layout that moves would lay out more than `keyframeWork`
    ///   elements, or the estimated document would pass `maximumBytes` (thrown as soon as it
    ///   does, before anything is written).
    /// - Complexity: a layout per sample and per middle moment looked at, one at a time, each
    ///   compared with the one before in O(n): at most `keyframeWork + sampleWork` elements
    ///   laid out; memory for a few layouts and, per element that changes, its attributes
    ///   each time they change; output O(n) plus at most `maximumBytes` (estimated
    ///   generously, `estimatedChangeBytes` and `estimatedScreenBytes`).
    ///
    /// `limits` are the bounds (`Limits.standard` from the command line); `statistics`, when
    /// given, receives the samples taken and the estimated size. With `streamed` (a layout
    /// that does not move, `movesWithOffset` false), `layout` gives the layout's summary
    /// (no elements) and the shapes are streamed: memory for a few blocks, whatever n.
    @discardableResult
    public static func write(_ animation: ScrollAnimation, layout: (Point) throws -> CollectionLayout,
                             movesWithOffset: Bool = true, tolerance: Double = refinementTolerance,
                             limits: Limits = .standard, statistics: Statistics? = nil, streamed: StreamedShapes? = nil,
                             options: OutputOptions, to out: OutputBuffer) throws -> Bool {
        precondition(streamed == nil || !movesWithOffset, "only a layout that does not move is streamed")
        let keyframeWork = limits.keyframeWork, sampleWork = limits.sampleWork, maximumSamples = limits.maximumSamples
        let refinementBytes = limits.refinementBytes, maximumBytes = limits.maximumBytes
        let offsets = animation.offsets, keyTimes = animation.keyTimes
        let first = try layout(offsets[0])
        let n = first.elements.count
        if movesWithOffset && n > keyframeWork / offsets.count {
            throw TooLarge.keyframeWork(keyframes: offsets.count, elements: n, limit: keyframeWork)
        }
        // The document's size as it grows, estimated generously (`estimatedChangeBytes`, `estimatedScreenBytes`): the
        // samples between keyframes stop at `refinementBytes`, and the whole is refused past
        // `maximumBytes`.
        var bytes = 0
        let precision = out.precision
        func grow(_ amount: Int) throws {
            bytes += amount
            guard bytes <= maximumBytes else {
                throw TooLarge.bytes(limit: maximumBytes, elements: n, keyframes: offsets.count)
            }
        }
        let labels = streamed?.labels ?? SVGLabels.resolved(options.labels, for: first)
        /// The layout at `offset`: the first one with the offset moved when nothing else moves.
        func layoutAt(_ offset: Point) throws -> CollectionLayout {
            guard movesWithOffset else {
                var moved = first
                moved.contentOffset = offset
                return moved
            }
            return try layout(offset)
        }

        // One pass over the samples, in time order: which elements change (for each, its
        // attributes from each sample at which they differ from the sample before: the first
        // sample's, then every change), what is drawn, and where the screen is.
        var times: [Double] = []
        var track = [Int](repeating: -1, count: n)
        var tracks: [Track] = []
        var visibleRects: [Rect] = []
        var canvas = Rect(x: 0, y: 0, width: 0, height: 0)
        func add(_ frame: CollectionLayout, at time: Double) throws {
            let k = times.count
            guard frame.elements.count == n else { throw ElementsDiffer(keyframe: k) }
            times.append(time)
            visibleRects.append(frame.visibleRect)
            try grow(estimatedScreenBytes(visibleRects[k], viewBox: options.canvas == .visible, precision: precision))
            // What is drawn: at the first sample everything; later only what differs from it
            // (the rest draws what the first sample drew).
            var drawn = SVGLayoutWriter.DrawnBounds(labels: labels)
            if k == 0 && options.canvas == .all {
                for element in frame.elements { drawn.add(element) }
            }
            if k > 0 && movesWithOffset {
                try recordChanges(frame, sample: k, first: first, track: &track, tracks: &tracks, drawn: &drawn,
                                  precision: precision, grow: grow)
            }
            let frameCanvas = sampleCanvas(frame, visible: visibleRects[k], options: options,
                                           drawn: k == 0 && streamed != nil ? streamed!.drawn : drawn.bounds)
            canvas = k == 0 ? frameCanvas : canvas.union(frameCanvas)
        }
        // The samples between keyframes: a budget of them, shared out as the keyframes go
        // (elements laid out, and samples, whatever the count), and a budget of bytes.
        let intervals = offsets.count - 1
        var budget = min(movesWithOffset ? max(intervals, sampleWork / max(n, 1)) : maximumSamples,
                         maximumSamples - offsets.count)
        var accurate = true
        /// Adds the samples strictly between two samples (`a` at time `ta`, `b` at `tb`) that
        /// the straight line between them needs, at most `allowed`: the layout at the middle
        /// moment is laid out and, when a drawn box or the offset there strays `tolerance` or
        /// more from halfway between the ends, kept, and each half refined the same way (the
        /// first half with the whole allowance, the second with what the first left: the
        /// kinks of a fast scroll want depth, and a jump costs only one sample a level).
        /// - Returns: the samples added.
        func refine(_ a: CollectionLayout, _ ta: Double, _ b: CollectionLayout, _ tb: Double, allowed: Int) throws -> Int {
            guard a.contentOffset != b.contentOffset || a.elements != b.elements else { return 0 }
            let tm = (ta + tb) / 2
            guard ta < tm && tm < tb else { return 0 }  // no moment between them
            let middle = try layoutAt(animation.offset(atTime: tm))
            guard !isHalfway(middle, between: a, and: b, tolerance: tolerance) else { return 0 }
            guard allowed > 0 && bytes < refinementBytes else {
                accurate = false
                return 0
            }
            let left = try refine(a, ta, middle, tm, allowed: allowed - 1)
            try add(middle, at: tm)
            let right = try refine(middle, tm, b, tb, allowed: allowed - 1 - left)
            return left + 1 + right
        }
        try add(first, at: 0)
        var previous = first
        for k in 1..<offsets.count {
            let next = try layoutAt(offsets[k])
            budget -= try refine(previous, keyTimes[k - 1], next, keyTimes[k], allowed: budget / (intervals - k + 1))
            try add(next, at: keyTimes[k])
            previous = next
        }
        statistics?.samples = times.count
        statistics?.estimatedBytes = bytes
        if options.canvas == .visible { canvas = visibleRects[0] }
        let timing = Timing(keyTimes: times, duration: animation.duration)
        let screens = appendOpening(canvas: canvas, screens: visibleRects, timing: timing, engine: first.engine,
                                    options: options, to: out)
        // A layout that does not move, streamed: the still picture's shapes, as it streams them.
        try streamed?.append(out)
        try appendShapes(paintingOrder(first, track: track, tracks: tracks), first: first, tracks: tracks,
                         style: Style(round: first.drawsCellsRound, labels: labels), timing: timing, to: out)
        appendScreenOutline(first, screens: screens, to: out)
        try out.flush()
        return accurate
    }

    /// One element's attributes at the sample it first differs from the first sample, and at
    /// each later sample at which it differs from the sample before: `(0, first)` first.
    private typealias Track = [(sample: Int, attributes: LayoutAttributes)]

    /// Records what changes at sample `k` of a layout that moves: each element that differs
    /// from the sample before gets (or extends) its track, `track[i]` naming it, and is added
    /// to `drawn`, as is every element already tracked; `grow` counts the bytes the changes add.
    /// - Throws: `ElementsDiffer` when an element changes its index path, category or kind;
    ///   what `grow` throws.
    /// - Complexity: O(n).
    private static func recordChanges(_ frame: CollectionLayout, sample k: Int, first: CollectionLayout,
                                      track: inout [Int], tracks: inout [Track], drawn: inout SVGLayoutWriter.DrawnBounds,
                                      precision: NumberPrecision, grow: (Int) throws -> Void) throws {
        try frame.elements.withUnsafeBufferPointer { elements in
            try first.elements.withUnsafeBufferPointer { initial in
                for i in 0..<elements.count {
                    if track[i] >= 0 {
                        if elements[i] != tracks[track[i]][tracks[track[i]].count - 1].attributes {
                            tracks[track[i]].append((k, elements[i]))
                            try grow(estimatedChangeBytes(elements[i], precision: precision))
                        }
                        drawn.add(elements[i])
                    } else if elements[i] != initial[i] {
                        drawn.add(elements[i])
                        let a = elements[i], b = initial[i]
                        guard a.indexPath == b.indexPath && a.category == b.category && a.kind == b.kind else {
                            throw ElementsDiffer(keyframe: k)
                        }
                        track[i] = tracks.count
                        tracks.append([(0, b), (k, a)])
                        try grow(estimatedChangeBytes(a, precision: precision) + estimatedChangeBytes(b, precision: precision))
                    }
                }
            }
        }
    }

    /// The canvas one sample needs: with `.all` what is drawn (`drawn`) and the screen's
    /// outline, which is drawn too; with `.visible` the screen; otherwise the content.
    private static func sampleCanvas(_ frame: CollectionLayout, visible: Rect, options: OutputOptions, drawn: Rect?) -> Rect {
        switch options.canvas {
        case .all: return SVGLayoutWriter.canvas(frame, options: options, drawn: drawn).union(visible)
        case .visible: return visible
        case .content, .rect: return Rect(x: 0, y: 0, width: frame.contentSize.width, height: frame.contentSize.height)
        }
    }

    /// The document's start on `canvas` and, with the canvas `.visible`, the background under
    /// every screen and the viewBox moving with them.
    /// - Returns: the screens at the samples where the screen moves (`timing.restricted`).
    private static func appendOpening(canvas: Rect, screens visibleRects: [Rect], timing: Timing, engine: String,
                                      options: OutputOptions, to out: OutputBuffer) -> (timing: Timing, screens: [Rect]) {
        let background = visibleRects.dropFirst().reduce(visibleRects[0]) { $0.union($1) }
        appendDocumentStart(canvas: canvas, title: "cvlayout " + engine + " scrolling", to: out,
                            background: options.canvas == .visible ? background : nil)
        let (screenTiming, screenSamples) = timing.restricted { k in visibleRects[k] != visibleRects[k - 1] }
        let screens = screenSamples.map { visibleRects[$0] }
        if options.canvas == .visible {
            screenTiming.animate("animate", "viewBox", values: screens.map {
                [$0.minX, $0.minY, max($0.width, 1), max($0.height, 1)]
            }, to: out)
            out.append(byte: UInt8(ascii: "\n"))
        }
        return (screenTiming, screens)
    }

    /// What is drawn, in painting order (zIndex, then element order): each static element
    /// shown at the first sample, and each tracked element once per zIndex it is shown with.
    /// - Returns: (zIndex, element, its track or -1 when static).
    private static func paintingOrder(_ first: CollectionLayout, track: [Int], tracks: [Track])
        -> [(z: Int, element: Int, track: Int)] {
        var draws: [(z: Int, element: Int, track: Int)] = []
        draws.reserveCapacity(track.count)
        for i in track.indices {
            if track[i] < 0 {
                if !first.elements[i].isHidden { draws.append((first.elements[i].zIndex, i, -1)) }
            } else {
                var zs = Set<Int>()
                for change in tracks[track[i]] where !change.attributes.isHidden { zs.insert(change.attributes.zIndex) }
                for z in zs { draws.append((z, i, track[i])) }
            }
        }
        draws.sort { ($0.z, $0.element) < ($1.z, $1.element) }
        return draws
    }

    /// The shapes in painting order: each run of static elements as the still picture draws
    /// the first sample's, each tracked element's copy animated (`appendAnimated`).
    private static func appendShapes(_ draws: [(z: Int, element: Int, track: Int)], first: CollectionLayout,
                                     tracks: [Track], style: Style, timing: Timing, to out: OutputBuffer) throws {
        try first.elements.withUnsafeBufferPointer { elements in
            guard let base = elements.baseAddress else { return }
            var k = 0
            while k < draws.count {
                if draws[k].track < 0 {
                    // A run of static elements: the first keyframe's shapes, as a picture draws them.
                    SVGElementWriter.withWriter(precision: out.precision, round: style.round, labels: style.labels) { writer in
                        while k < draws.count && draws[k].track < 0 {
                            writer.append(base + draws[k].element, to: out)
                            k += 1
                        }
                    }
                } else {
                    let draw = draws[k]
                    appendAnimated(tracks[draw.track], layer: draw.z, style: style, times: timing.times,
                                   duration: timing.duration, to: out)
                    k += 1
                }
                try out.flushIfFull()
            }
        }
    }

    /// The screen's outline, moving with the offset, the heart when the layout has one, and
    /// the document's end.
    private static func appendScreenOutline(_ first: CollectionLayout, screens: (timing: Timing, screens: [Rect]),
                                            to out: OutputBuffer) {
        appendVisibleBounds(first, to: out)
        out.append(">")
        screens.timing.animate("animate", "x", values: screens.screens.map { [$0.minX] }, to: out)
        screens.timing.animate("animate", "y", values: screens.screens.map { [$0.minY] }, to: out)
        out.append("</rect>\n")
        if let heart = first.heartPath {
            SVGLayoutWriter.appendHeart(heart, to: out)
        }
        out.append("</svg>\n")
    }

    // MARK: - Private

    /// The samples' times and the animation's duration; restricted to the samples one
    /// element's animations need (`restricted(changes:)`).
    private struct Timing {
        /// The samples' times, 0…1.
        let times: [Double]
        let duration: Double
        /// `keyTimes="0;…;1"`, full precision, ready to append.
        let keyTimesText: String

        init(keyTimes: [Double], duration: Double) {
            times = keyTimes
            self.duration = duration
            keyTimesText = keyTimes.map { NumberFormat.string($0, precision: .full) }.joined(separator: ";")
        }

        /// The samples at which `changes(k)` (something differs between samples k − 1 and k)
        /// or its neighbour does, with the first and the last, and a timing over only them: a
        /// run of equal values keeps its two ends, and the straight line between them is the
        /// same run. The animations written with that timing take their values at those
        /// samples only.
        func restricted(changes: (Int) -> Bool) -> (timing: Timing, kept: [Int]) {
            let n = times.count
            var keep = [Bool](repeating: false, count: n)
            keep[0] = true
            keep[n - 1] = true
            for k in 1..<n where changes(k) {
                keep[k - 1] = true
                keep[k] = true
            }
            let kept = keep.indices.filter { keep[$0] }
            return (Timing(keyTimes: kept.map { times[$0] }, duration: duration), kept)
        }

        /// `<TAG attributeName="ATTRIBUTE" [type] [calcMode="discrete"] values="…" keyTimes="…"
        /// begin="0s" dur="…s" fill="freeze"/>` when the values change; nothing otherwise.
        /// Each keyframe's value is a list of numbers (space-separated); `factor`s at full
        /// precision, points at the output's.
        func animate(_ tag: StaticString, _ attribute: StaticString, type: StaticString? = nil, values: [[Double]],
                     factor: Bool = false, discrete: Bool = false, to out: OutputBuffer) {
            guard values.contains(where: { $0 != values[0] }) else { return }
            appendAnimationStart(tag, attribute, type: type, discrete: discrete, to: out)
            for (k, value) in values.enumerated() {
                if k > 0 { out.append(byte: UInt8(ascii: ";")) }
                for (j, v) in value.enumerated() {
                    if j > 0 { out.append(byte: UInt8(ascii: " ")) }
                    if factor { out.append(number: v, precision: .full) } else { out.append(number: v) }
                }
            }
            appendTiming(to: out)
            out.append("/>")
        }

        /// A discrete animation of a text attribute (a fill colour) through `values`.
        func animate(_ attribute: StaticString, texts values: [StaticString], to out: OutputBuffer) {
            guard values.contains(where: { $0.description != values[0].description }) else { return }
            out.append("<animate attributeName=\"")
            out.append(attribute)
            out.append("\" calcMode=\"discrete\" values=\"")
            for (k, value) in values.enumerated() {
                if k > 0 { out.append(byte: UInt8(ascii: ";")) }
                out.append(value)
            }
            appendTiming(to: out)
            out.append("/>")
        }

        private func appendTiming(to out: OutputBuffer) {
            out.append("\" keyTimes=\"")
            out.append(string: keyTimesText)
            out.append("\" begin=\"0s\" dur=\"")
            out.append(number: duration, precision: .full)
            out.append("s\" fill=\"freeze\"")
        }
    }

    /// How the shapes look, as `SVGLayoutWriter` draws them.
    private struct Style {
        let round: Bool
        let labels: SVGLabels
    }

    /// One element's values at each sample, shown where it is visible with zIndex `layer`.
    /// Its animations use only the samples around its changes (`Timing.restricted`).
    private static func appendAnimated(_ changes: Track, layer: Int, style: Style,
                                       times: [Double], duration: Double, to out: OutputBuffer) {
        let (timing, held, shown) = heldValues(changes, layer: layer, times: times, duration: duration)
        let e0 = held[0]
        let parts = held.map { TransformComponents(decomposing: $0.transform) }
        let centres = held.indices.map { k in [held[k].center.x + parts[k].tx, held[k].center.y + parts[k].ty] }
        let isCell = e0.category == .cell

        // The group at the drawn centre: shown or not, and its translation.
        out.append("<g transform=\"translate(")
        out.append(number: centres[0][0])
        out.append(byte: UInt8(ascii: " "))
        out.append(number: centres[0][1])
        out.append(shown[0] ? ")\">" : ")\" opacity=\"0\">")
        timing.animate("animate", "opacity", values: shown.map { [$0 ? 1 : 0] }, factor: true, discrete: true, to: out)
        timing.animate("animateTransform", "transform", type: "translate", values: centres, to: out)
        let groups = appendTransformGroups(parts, timing: timing, to: out)

        // The shape, centred on the origin.
        func radius(_ e: LayoutAttributes) -> Double? { SVGPaint.cornerRadius(e, size: e.size, round: style.round) }
        func opacity(_ e: LayoutAttributes) -> Double { SVGPaint.opacity(e.alpha) }
        appendCentredRect(e0, size: e0.size, to: out)
        if let r = radius(e0) {
            out.append("\" rx=\"")
            out.append(number: r)
        }
        out.append("\" fill=\"")
        out.append(isCell ? SVGPaint.fill(item: e0.indexPath.item) : SVGPaint.viewPaint(e0.kind))
        if opacity(e0) < 1 {
            out.append("\" opacity=\"")
            out.append(number: opacity(e0), precision: .full)
        }
        out.append("\">")
        timing.animate("animate", "x", values: held.map { [-$0.size.width / 2] }, to: out)
        timing.animate("animate", "y", values: held.map { [-$0.size.height / 2] }, to: out)
        timing.animate("animate", "width", values: held.map { [$0.size.width] }, to: out)
        timing.animate("animate", "height", values: held.map { [$0.size.height] }, to: out)
        if radius(e0) != nil {
            timing.animate("animate", "rx", values: held.map { [radius($0)!] }, to: out)
        }
        timing.animate("animate", "opacity", values: held.map { [opacity($0)] }, factor: true, to: out)
        out.append("</rect>")
        for _ in 0..<groups { out.append("</g>") }
        appendAnimatedLabel(held, style: style, timing: timing, to: out)
        out.append("</g>\n")
    }

    /// One element's values at the samples its animations need, and whether its copy with
    /// zIndex `layer` is shown at each, with the timing over those samples.
    @inline(__always)
    private static func heldValues(_ changes: Track, layer: Int, times: [Double], duration: Double)
        -> (timing: Timing, held: [LayoutAttributes], shown: [Bool]) {
        // The samples that matter: the first, the last, and both sides of each change; the
        // values between two of them are those of the first (nothing changes there).
        let last = times.count - 1
        var samples = [0]
        for change in changes.dropFirst() {
            if change.sample - 1 > samples[samples.count - 1] { samples.append(change.sample - 1) }
            if change.sample > samples[samples.count - 1] { samples.append(change.sample) }
        }
        if samples[samples.count - 1] != last { samples.append(last) }
        var track: [LayoutAttributes] = []
        track.reserveCapacity(samples.count)
        var j = 0
        for sample in samples {
            while j + 1 < changes.count && changes[j + 1].sample <= sample { j += 1 }
            track.append(changes[j].attributes)
        }
        let sampleTiming = Timing(keyTimes: samples.map { times[$0] }, duration: duration)
        let sampleCount = track.count
        let shown = track.map { !$0.isHidden && $0.zIndex == layer }
        // What is drawn matters where the copy is shown and at the sample after (its values
        // there are where it moves toward until it goes); elsewhere the values hold those of
        // the last sample that matters (the first one's before it), so they do not change.
        var held = track
        if let first = track.indices.first(where: { shown[$0] }) {
            var last = track[first]
            for k in 0..<sampleCount {
                if shown[k] || (k > 0 && shown[k - 1] && !track[k].isHidden) { last = track[k] } else { held[k] = last }
            }
        }
        // From here on, only the samples the animations need.
        let (timing, kept) = sampleTiming.restricted { k in held[k] != held[k - 1] || shown[k] != shown[k - 1] }
        return (timing, kept.map { held[$0] }, kept.map { shown[$0] })
    }

    /// The groups that rotate, shear and scale an element (each only when some value needs
    /// it), their animations inside.
    /// - Returns: how many groups were opened.
    @inline(__always)
    private static func appendTransformGroups(_ parts: [TransformComponents], timing: Timing, to out: OutputBuffer) -> Int {
        var groups = 0
        if parts.contains(where: { $0.rotation != 0 }) {
            var rotations = [parts[0].rotation]
            for k in 1..<parts.count { rotations.append(rotations[k - 1] + parts[k - 1].rotationChange(to: parts[k])) }
            appendTransformGroup("rotate", rotations[0], to: out)
            timing.animate("animateTransform", "transform", type: "rotate", values: rotations.map { [$0] }, factor: true,
                           to: out)
            groups += 1
        }
        if parts.contains(where: { $0.shear != 0 }) {
            appendTransformGroup("skewX", skewAngle(parts[0].shear), to: out)
            timing.animate("animateTransform", "transform", type: "skewX", values: parts.map { [skewAngle($0.shear)] },
                           factor: true, to: out)
            groups += 1
        }
        if parts.contains(where: { $0.scaleX != 1 || $0.scaleY != 1 }) {
            appendTransformGroup("scale", parts[0].scaleX, parts[0].scaleY, to: out)
            timing.animate("animateTransform", "transform", type: "scale", values: parts.map { [$0.scaleX, $0.scaleY] },
                           factor: true, to: out)
            groups += 1
        }
        return groups
    }

    /// The label, untransformed and at full opacity on the drawn centre, sized by the frame;
    /// not shown at samples where the picture would not label the element.
    @inline(__always)
    private static func appendAnimatedLabel(_ held: [LayoutAttributes], style: Style, timing: Timing, to out: OutputBuffer) {
        let e0 = held[0], isCell = e0.category == .cell
        let sizes = held.map { SVGElementWriter.label($0, style.labels) }
        if let firstSize = sizes.compactMap({ $0 }).first {
            var size = sizes[0] ?? firstSize
            let heldSizes = sizes.map { label -> Double in
                if let label { size = label }
                return size.size
            }
            let text: String
            if isCell {
                text = style.labels == .indexPath ? "\(e0.indexPath.section):\(e0.indexPath.item)" : "\(e0.indexPath.item)"
            } else {
                text = "\(e0.kind?.rawValue ?? e0.category.rawValue) \(e0.indexPath.section)"
            }
            let colours: [StaticString] = held.map(SVGPaint.labelColour)
            appendCentredTextStart(size: heldSizes[0], to: out)
            out.append(colours[0])
            out.append(sizes[0] == nil ? "\" opacity=\"0\">" : "\">")
            timing.animate("animate", "opacity", values: sizes.map { [$0 == nil ? 0 : 1] }, factor: true, discrete: true,
                           to: out)
            timing.animate("animate", "font-size", values: heldSizes.map { [$0] }, to: out)
            timing.animate("animate", "y", values: heldSizes.map { [$0 * 0.35] }, to: out)
            timing.animate("fill", texts: colours, to: out)
            appendXMLText(text, to: out)
            out.append("</text>")
        }
    }
}
