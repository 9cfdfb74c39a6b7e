import FastText
import LayoutCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `--scroll-to X,Y -f svg` (docs/REFERENCE.md, "Scrolling SVG"): the first sample's still
/// picture, SMIL (once, frozen) moving it through the keyframes and each middle moment not
/// halfway (`isHalfway`); a changing element a group per zIndex it takes (`animated`).
public enum ScrollSVGWriter {
    /// The keyframes' layouts do not hold the same elements.
    public struct ElementsDiffer: Error {
        /// The keyframe whose elements differ from the first's.
        public let keyframe: Int
    }

    /// The streamed shapes of a layout that does not move (`LayoutPipeline.withStreamedShapes`).
    public struct StreamedShapes {
        /// What the shapes draw, labels included.
        public var drawn: Rect?
        /// The labels the shapes carry.
        public var labels: SVGLabels
        /// Writes the shapes, in drawing order, to the buffer.
        public var append: (OutputBuffer) throws -> Void
    }

    /// The animation cannot be written within `Limits` (bad data).
    public enum TooLarge: Error, Equatable {
        /// `keyframes` keyframes of `elements` elements would lay out more than `limit` elements.
        case keyframeWork(keyframes: Int, elements: Int, limit: Int)
        /// The document would be larger than `limit` bytes (as estimated).
        case bytes(limit: Int, elements: Int, keyframes: Int)
    }

    /// How far, points, a box or the offset may stray from the line between two samples before
    /// the middle becomes a sample (every moment then within twice it).
    public static let refinementTolerance = 0.25

    /// The bounds of an animation's work and size.
    public struct Limits: Sendable, Equatable {
        /// Elements the samples between keyframes may lay out (samples × n).
        public var sampleWork: Int
        /// Elements the keyframes of a layout that moves may lay out (keyframes × n).
        public var keyframeWork: Int
        /// The most samples, keyframes included.
        public var maximumSamples: Int
        /// The estimated bytes past which no sample is added between keyframes.
        public var refinementBytes: Int
        /// The estimated bytes past which the animation is refused (`TooLarge`).
        public var maximumBytes: Int

        /// 2·10⁷ elements between keyframes and 2·10⁷ for them, 100,000 samples, 32 and 256 MiB.
        public static let standard = Limits(sampleWork: 20_000_000, keyframeWork: 20_000_000, maximumSamples: 100_000,
                                            refinementBytes: 32 << 20, maximumBytes: 256 << 20)
    }

    /// What a write did (`write(statistics:)`).
    public final class Statistics {
        /// Samples taken, keyframes included.
        public var samples = 0
        /// The estimated bytes past the still picture (generous).
        public var estimatedBytes = 0
        /// An empty record.
        public init() {}
    }

    /// Writes `animation`'s document, `layout(offset)` the layout at an offset (laid out once
    /// when not `movesWithOffset`; with `streamed`, a summary whose shapes are streamed).
    /// - Returns: `false` when `limits` ran out before every moment was within twice `tolerance`.
    /// - Throws: what `layout` or the sink throws; `ElementsDiffer`; `TooLarge` before writing.
    /// - Complexity: at most `keyframeWork + sampleWork` elements laid out, each compared in
    ///   O(n); output O(n) plus `maximumBytes`.
    @discardableResult
    public static func write(_ animation: ScrollAnimation, layout: (Point) throws -> CollectionLayout,
                             movesWithOffset: Bool = true, tolerance: Double = refinementTolerance,
                             limits: Limits = .standard, statistics: Statistics? = nil, streamed: StreamedShapes? = nil,
                             options: OutputOptions, to out: OutputBuffer) throws -> Bool {
        precondition(streamed == nil || !movesWithOffset, "only a layout that does not move is streamed")
        let offsets = animation.offsets, keyTimes = animation.keyTimes, precision = out.precision
        let first = try layout(offsets[0])
        let n = first.elements.count
        if movesWithOffset && n > limits.keyframeWork / offsets.count {
            throw TooLarge.keyframeWork(keyframes: offsets.count, elements: n, limit: limits.keyframeWork)
        }
        var bytes = 0  // estimated (`estimatedChangeBytes`, `estimatedScreenBytes`)
        func grow(_ amount: Int) throws {
            bytes += amount
            guard bytes <= limits.maximumBytes else {
                throw TooLarge.bytes(limit: limits.maximumBytes, elements: n, keyframes: offsets.count)
            }
        }
        let labels = streamed?.labels ?? SVGLabels.resolved(options.labels, numberOfSections: first.numberOfSections)
        func layoutAt(_ offset: Point) throws -> CollectionLayout {
            var still = first
            still.contentOffset = offset
            return movesWithOffset ? try layout(offset) : still
        }
        // Per sample: its time and screen; per changing element, its track (`tracks[track[i]]`).
        var times: [Double] = [], screens: [Rect] = []
        var track = [Int](repeating: -1, count: n), tracks: [Track] = []
        var canvas = Rect(x: 0, y: 0, width: 0, height: 0)
        func add(_ frame: CollectionLayout, at time: Double) throws {
            let k = times.count
            guard frame.elements.count == n else { throw ElementsDiffer(keyframe: k) }
            times.append(time)
            screens.append(frame.visibleRect)
            try grow(estimatedScreenBytes(frame.visibleRect, viewBox: options.canvas == .visible, precision: precision))
            // What is drawn: at the first sample everything, later what has changed by then.
            var drawn = SVGLayoutWriter.DrawnBounds(labels: labels)
            if k == 0 && options.canvas == .all {
                for element in frame.elements { drawn.add(element) }
            }
            if k > 0 && movesWithOffset {
                try recordChanges(frame, sample: k, first: first, track: &track, tracks: &tracks, drawn: &drawn,
                                  precision: precision, grow: grow)
            }
            // Not `.all`: the content or the visible bounds (a scroll takes no `--rect`).
            var sampleCanvas = SVGLayoutWriter.canvas(frame, options: options, drawn: k == 0 && streamed != nil ? streamed!.drawn
                                                      : drawn.bounds)
            if options.canvas == .all { sampleCanvas = sampleCanvas.union(frame.visibleRect) }
            canvas = k == 0 ? sampleCanvas : canvas.union(sampleCanvas)
        }
        // Samples between keyframes: `sampleWork / n` (at least one an interval), at most
        // `maximumSamples`, shared out as the keyframes go, none past `refinementBytes`.
        let intervals = offsets.count - 1
        var budget = min(movesWithOffset ? max(intervals, limits.sampleWork / max(n, 1)) : limits.maximumSamples,
                         limits.maximumSamples - offsets.count)
        var accurate = true
        /// Adds at most `allowed` samples between `a` and `b`: the middle when not halfway,
        /// then each half. - Returns: the samples added.
        func refine(_ a: CollectionLayout, _ ta: Double, _ b: CollectionLayout, _ tb: Double, allowed: Int) throws -> Int {
            let tm = (ta + tb) / 2
            guard a.contentOffset != b.contentOffset || a.elements != b.elements, ta < tm && tm < tb else { return 0 }
            let middle = try layoutAt(animation.offset(atTime: tm))
            guard !isHalfway(middle, between: a, and: b, tolerance: tolerance) else { return 0 }
            guard allowed > 0 && bytes < limits.refinementBytes else {
                accurate = false
                return 0
            }
            let left = try refine(a, ta, middle, tm, allowed: allowed - 1)
            try add(middle, at: tm)
            return left + 1 + (try refine(middle, tm, b, tb, allowed: allowed - 1 - left))
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

        // The document.
        let background = screens.dropFirst().reduce(screens[0]) { $0.union($1) }
        appendDocumentStart(canvas: options.canvas == .visible ? screens[0] : canvas,
                            title: "cvlayout " + first.engine + " scrolling", to: out,
                            background: options.canvas == .visible ? background : nil)
        let screenSamples = kept(times.count) { screens[$0] != screens[$0 - 1] }
        let screenTiming = timing(screenSamples.map { times[$0] }, duration: animation.duration, precision: precision)
        func screenAnimation(_ attribute: String, _ values: (Rect) -> [Double]) -> String {
            screenTiming.animation("animate", attribute, screenSamples.map { values(screens[$0]) })
        }
        if options.canvas == .visible {
            out.append(string: screenAnimation("viewBox") { [$0.minX, $0.minY, max($0.width, 1), max($0.height, 1)] } + "\n")
        }
        try streamed?.append(out)
        try appendShapes(first, track: track, tracks: tracks, labels: labels, times: times, duration: animation.duration,
                         to: out)
        out.append(string: PlainLayoutWriter.svgVisibleBounds(screens[0], precision: precision) + ">"
            + screenAnimation("x") { [$0.minX] } + screenAnimation("y") { [$0.minY] } + "</rect>\n"
            + (first.heartPath.map { PlainLayoutWriter.svgHeart($0, precision: precision) } ?? "") + "</svg>\n")
        try out.flush()
        return accurate
    }

    /// One element's attributes at sample 0, then at each sample where they change.
    private typealias Track = [(sample: Int, attributes: LayoutAttributes)]

    /// Records sample `k`: a changed element starts or extends its track, tracked ones go to
    /// `drawn`, their bytes to `grow`. - Complexity: O(n).
    /// - Throws: `ElementsDiffer` when an element changes index path, category or kind; `grow`'s.
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

    /// The shapes by (zIndex, element): static ones as stills, tracked ones per zIndex (`animated`).
    private static func appendShapes(_ first: CollectionLayout, track: [Int], tracks: [Track], labels: SVGLabels,
                                     times: [Double], duration: Double, to out: OutputBuffer) throws {
        var draws: [(z: Int, element: Int, track: Int)] = []
        for i in track.indices {
            if track[i] < 0 {
                if !first.elements[i].isHidden { draws.append((first.elements[i].zIndex, i, -1)) }
            } else {
                let zs = Set(tracks[track[i]].filter { !$0.attributes.isHidden }.map(\.attributes.zIndex))
                draws += zs.map { ($0, i, track[i]) }
            }
        }
        draws.sort { ($0.z, $0.element) < ($1.z, $1.element) }
        try first.elements.withUnsafeBufferPointer { elements in
            guard let base = elements.baseAddress else { return }
            var k = 0
            while k < draws.count {
                if draws[k].track < 0 {
                    SVGElementWriter.withWriter(precision: out.precision, round: first.drawsCellsRound, labels: labels) { writer in
                        while k < draws.count && draws[k].track < 0 {
                            writer.append(base + draws[k].element, to: out)
                            k += 1
                        }
                    }
                } else {
                    out.append(string: animated(tracks[draws[k].track], layer: draws[k].z, round: first.drawsCellsRound,
                                                labels: labels, times: times, duration: duration, precision: out.precision))
                    k += 1
                }
                try out.flushIfFull()
            }
        }
    }

    /// The samples of `count` an animation needs: the ends and both sides of each k where
    /// `changes(k)` (it differs from k − 1).
    static func kept(_ count: Int, changes: (Int) -> Bool) -> [Int] {
        (0..<count).filter { k in k == 0 || k == count - 1 || changes(k) || (k + 1 < count && changes(k + 1)) }
    }

    /// The timing of animations at `times` (key times and duration at full precision), frozen.
    private static func timing(_ times: [Double], duration: Double, precision: NumberPrecision) -> SVGAnimationTiming {
        let keyTimes = times.map { NumberFormat.string($0, precision: .full) }.joined(separator: ";")
        let duration = NumberFormat.string(duration, precision: .full)
        return SVGAnimationTiming(timing: " keyTimes=\"\(keyTimes)\" begin=\"0s\" dur=\"\(duration)s\" fill=\"freeze\"",
                                  precision: precision)
    }

    /// The copy at zIndex `layer` of a changing element: shown (a discrete opacity) where not
    /// hidden and at `layer`; elsewhere (but right after a shown sample, unless hidden) held at
    /// the last shown values, so nothing moves toward a state not drawn. A group at the drawn
    /// centre, `svgTransformGroups` around the centred rect, the upright `label`.
    private static func animated(_ changes: Track, layer: Int, round: Bool, labels: SVGLabels, times: [Double],
                                 duration: Double, precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { NumberFormat.string(value, precision: precision) }
        // The samples around the changes (nothing changes between two of them).
        var samples = [0]
        for change in changes.dropFirst() {
            if change.sample - 1 > samples[samples.count - 1] { samples.append(change.sample - 1) }
            if change.sample > samples[samples.count - 1] { samples.append(change.sample) }
        }
        if samples[samples.count - 1] != times.count - 1 { samples.append(times.count - 1) }
        var j = 0
        let values = samples.map { sample -> LayoutAttributes in
            while j + 1 < changes.count && changes[j + 1].sample <= sample { j += 1 }
            return changes[j].attributes
        }
        let allShown = values.map { !$0.isHidden && $0.zIndex == layer }
        var allHeld = values
        if let firstShown = values.indices.first(where: { allShown[$0] }) {
            var last = values[firstShown]
            for k in values.indices {
                if allShown[k] || (k > 0 && allShown[k - 1] && !values[k].isHidden) { last = values[k] } else { allHeld[k] = last }
            }
        }
        let kept = kept(values.count) { allHeld[$0] != allHeld[$0 - 1] || allShown[$0] != allShown[$0 - 1] }
        let held = kept.map { allHeld[$0] }, shown = kept.map { allShown[$0] }
        let timing = Self.timing(kept.map { times[samples[$0]] }, duration: duration, precision: precision)

        let e0 = held[0]
        let transforms = svgTransformGroups(held, at: 0, timing: timing)
        func radius(_ e: LayoutAttributes) -> Double? { SVGPaint.cornerRadius(e, size: e.size, round: round) }
        func opacity(_ e: LayoutAttributes) -> Double { SVGPaint.opacity(e.alpha) }
        return "<g transform=\"\(transforms.translate)\"" + (shown[0] ? ">" : " opacity=\"0\">")
            + timing.animation("animate", "opacity", shown.map { [$0 ? 1 : 0] }, factor: true, discrete: true) + transforms.open
            + svgCentredRect(e0, precision: precision) + (radius(e0).map { " rx=\"\(n($0))\"" } ?? "")
            + PlainLayoutWriter.svgPaint(e0)
            + (opacity(e0) < 1 ? " opacity=\"\(NumberFormat.string(opacity(e0), precision: .full))\"" : "") + ">"
            + timing.animation("animate", "x", held.map { [-$0.size.width / 2] })
            + timing.animation("animate", "y", held.map { [-$0.size.height / 2] })
            + timing.animation("animate", "width", held.map { [$0.size.width] })
            + timing.animation("animate", "height", held.map { [$0.size.height] })
            + (radius(e0) == nil ? "" : timing.animation("animate", "rx", held.map { [radius($0)!] }))
            + timing.animation("animate", "opacity", held.map { [opacity($0)] }, factor: true)
            + "</rect>" + transforms.close + label(held, labels: labels, timing: timing) + "</g>\n"
    }

    /// A changing element's label: shown where a still labels it, size (`svgLabel`, else the
    /// last one's) and colour animated, the first sample's text.
    private static func label(_ held: [LayoutAttributes], labels: SVGLabels, timing: SVGAnimationTiming) -> String {
        let found = held.map { PlainLayoutWriter.svgLabel($0, labels) }
        guard let firstFound = found.compactMap({ $0 }).first else { return "" }
        var size = (found[0] ?? firstFound).size
        let sizes = found.map { label -> Double in
            if let label { size = label.size }
            return size
        }
        let colours = held.map { "\(SVGPaint.labelColour($0))" }
        return svgCentredTextStart(size: sizes[0], colour: colours[0], precision: timing.precision)
            + (found[0] == nil ? " opacity=\"0\">" : ">")
            + timing.animation("animate", "opacity", found.map { [$0 == nil ? 0 : 1] }, factor: true, discrete: true)
            + timing.animation("animate", "font-size", sizes.map { [$0] })
            + timing.animation("animate", "y", sizes.map { [$0 * 0.35] })
            + (colours.contains { $0 != colours[0] } ? timing.animation("animate", "fill", texts: colours, discrete: true) : "")
            + PlainLayoutWriter.xmlText(PlainLayoutWriter.svgLabelWords(held[0], path: held[0].indexPath, labels: labels)) + "</text>"
    }

    // MARK: - Sampling

    /// Whether `middle`'s offset and drawn boxes are, to `tolerance`, what SMIL draws halfway
    /// between `a` and `b` (hidden elements not compared). - Complexity: O(n).
    static func isHalfway(_ middle: CollectionLayout, between a: CollectionLayout, and b: CollectionLayout,
                          tolerance: Double = refinementTolerance) -> Bool {
        let o = middle.contentOffset, oa = a.contentOffset, ob = b.contentOffset
        guard abs(o.x - (oa.x / 2 + ob.x / 2)) < tolerance && abs(o.y - (oa.y / 2 + ob.y / 2)) < tolerance else { return false }
        // A layout that did not move (shared storage): nothing strays.
        if middle.elements == a.elements && a.elements == b.elements { return true }
        for i in middle.elements.indices {
            let m = middle.elements[i], ea = a.elements[i], eb = b.elements[i]
            if ea.isHidden || eb.isHidden || m.isHidden { continue }
            let drawn: Rect
            if ea == eb {
                if m == ea { continue }
                drawn = box(ea.frame, ea.transform)
            } else {
                let pa = TransformComponents(decomposing: ea.transform), pb = TransformComponents(decomposing: eb.transform)
                var halfway = pa.interpolated(to: pb, progress: 0.5)
                halfway.tx = 0
                halfway.ty = 0
                let centre = Point(x: (ea.center.x + pa.tx + eb.center.x + pb.tx) / 2,
                                   y: (ea.center.y + pa.ty + eb.center.y + pb.ty) / 2)
                let size = Size(width: (ea.size.width + eb.size.width) / 2, height: (ea.size.height + eb.size.height) / 2)
                drawn = box(Rect(x: centre.x - size.width / 2, y: centre.y - size.height / 2, width: size.width,
                                 height: size.height), halfway.transform)
            }
            let actual = box(m.frame, m.transform)
            if abs(drawn.minX - actual.minX) >= tolerance || abs(drawn.minY - actual.minY) >= tolerance
                || abs(drawn.maxX - actual.maxX) >= tolerance || abs(drawn.maxY - actual.maxY) >= tolerance {
                return false
            }
        }
        return true
    }

    /// The bounding box of `frame` under `t` applied about its centre.
    private static func box(_ frame: Rect, _ t: AffineTransform) -> Rect {
        let cx = frame.midX + t.tx, cy = frame.midY + t.ty
        let hw = (abs(t.a) * frame.width + abs(t.c) * frame.height) / 2
        let hh = (abs(t.b) * frame.width + abs(t.d) * frame.height) / 2
        return Rect(minX: cx - hw, minY: cy - hh, maxX: cx + hw, maxY: cy + hh)
    }

    /// A generous estimate of what a sample adds for the screen (x, y, and the viewBox).
    static func estimatedScreenBytes(_ screen: Rect, viewBox: Bool, precision: NumberPrecision) -> Int {
        let x = textLength(screen.minX, precision), y = textLength(screen.minY, precision)
        var total = 2 * keyTimeBytes + x + y + 2
        if viewBox {
            total += keyTimeBytes + x + y + textLength(screen.width, precision) + textLength(screen.height, precision) + 4
        }
        return total
    }

    /// A generous estimate of one change: two samples of up to 16 animations, key times included.
    static func estimatedChangeBytes(_ e: LayoutAttributes, precision: NumberPrecision) -> Int {
        let points = 3 * (textLength(e.center.x + e.transform.tx, precision) + textLength(e.center.y + e.transform.ty, precision))
            + 4 * (textLength(e.size.width, precision) + textLength(e.size.height, precision))
        let factors = 3 * (textLength(e.alpha, .full) + textLength(e.transform.a, .full) + textLength(e.transform.b, .full)
            + textLength(e.transform.c, .full) + textLength(e.transform.d, .full))
        return 2 * (16 * (keyTimeBytes + 2) + points + factors)
    }

    /// A key time at full precision and its separator, at most.
    static let keyTimeBytes = 24

    /// At least the length of `value` written at `precision` (no exponent).
    static func textLength(_ value: Double, _ precision: NumberPrecision) -> Int {
        let m = value.magnitude
        guard m.isFinite else { return 24 }
        let integerDigits = m < 10 ? 1 : Int(log10(m)) + 2
        switch precision {
        case .decimals(let d): return integerDigits + d + 2
        case .full:
            let leadingZeros = m > 0 && m < 1 ? Int(-log10(m)) + 1 : 0
            return integerDigits + leadingZeros + 19
        }
    }
}
