import LayoutCore
import FastText

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The plain scrolling SVG: the specification `ScrollSVGWriter` (`--scroll-to X,Y -f svg`,
// streamed or kept) must write byte for byte. See PlainLayoutWriter.swift. One rule per
// function; docs/REFERENCE.md's "Scrolling SVG" section says the same in words. Every sample's
// layout is kept whole and every element's values are read at every sample: no tracks of
// changes, no buffers.

extension PlainLayoutWriter {
    /// The scrolling SVG of `animation`, `layout(offset)` the layout at an offset; a layout
    /// that does not move with the offset (`movesWithOffset` false) is laid out once, its
    /// offset moved. The samples (`scrollSamples`) within `limits`' sample budgets; the
    /// refusals past its other bounds are the fast writer's alone.
    /// - Throws: what `layout` throws.
    public static func scrollSVG(_ animation: ScrollAnimation, layout: (Point) throws -> CollectionLayout,
                                 movesWithOffset: Bool, tolerance: Double = ScrollSVGWriter.refinementTolerance,
                                 limits: ScrollSVGWriter.Limits = .standard, options: OutputOptions) throws -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: options.precision) }
        let samples = try scrollSamples(animation, layout: layout, movesWithOffset: movesWithOffset, tolerance: tolerance,
                                        limits: limits, options: options)
        let first = samples[0].layout, times = samples.map(\.time)
        let labels = SVGLabels.resolved(options.labels, for: first)
        let screens = samples.map { $0.layout.visibleRect }
        let changing = first.elements.indices.map { i in samples.contains { $0.layout.elements[i] != first.elements[i] } }
        let canvas = scrollCanvas(samples.map(\.layout), changing: changing, labels: labels, options: options)
        var text = svgDocumentStart(canvas: canvas, title: "cvlayout " + first.engine + " scrolling",
                                    background: options.canvas == .visible ? screens.dropFirst().reduce(screens[0]) { $0.union($1) } : nil,
                                    precision: options.precision)
        // The screen's animations, over the samples where it moves.
        let screenSamples = scrollKept(samples.count) { screens[$0] != screens[$0 - 1] }
        func screenAnimation(_ attribute: String, _ values: (Rect) -> [Double]) -> String {
            scrollAnimation("animate", attribute, screenSamples.map { values(screens[$0]) }, at: screenSamples, times,
                            animation.duration, options.precision)
        }
        if options.canvas == .visible {
            text += screenAnimation("viewBox") { [$0.minX, $0.minY, max($0.width, 1), max($0.height, 1)] } + "\n"
        }
        // Painting order: (zIndex, element); an element that changes once per zIndex it takes where shown.
        var draws: [(z: Int, element: Int)] = []
        for i in first.elements.indices {
            let zs = Set(samples.map { $0.layout.elements[i] }.filter { !$0.isHidden }.map(\.zIndex))
            draws += (changing[i] ? zs.sorted() : first.elements[i].isHidden ? [] : [first.elements[i].zIndex]).map { ($0, i) }
        }
        for (z, i) in draws.sorted(by: { ($0.z, $0.element) < ($1.z, $1.element) }) {
            if changing[i] {
                text += scrollGroup(samples.map { $0.layout.elements[i] }, layer: z, round: first.drawsCellsRound,
                                    labels: labels, times: times, duration: animation.duration, precision: options.precision)
            } else {
                text += svgGroup(first.elements[i], round: first.drawsCellsRound, labels: labels, labelInGroup: true,
                                 precision: options.precision)
            }
        }
        text += "<rect class=\"visible-bounds\" x=\"\(n(screens[0].minX))\" y=\"\(n(screens[0].minY))\" "
            + "width=\"\(n(screens[0].width))\" height=\"\(n(screens[0].height))\" "
            + "fill=\"none\" stroke=\"#d62728\" stroke-width=\"1\" stroke-dasharray=\"6 3\">"
        text += screenAnimation("x") { [$0.minX] } + screenAnimation("y") { [$0.minY] } + "</rect>\n"
        if let heart = first.heartPath { text += svgHeart(heart, precision: options.precision) }
        return text + "</svg>\n"
    }

    /// The samples, in time order: the keyframes (`animation.offsets` at `animation.keyTimes`)
    /// and, between two samples, the middle moment whenever it is not halfway between them
    /// (`ScrollSVGWriter.isHalfway`, the geometry both writers share: the offset and every
    /// drawn box within `tolerance` of what a browser draws there), each half looked at the same way (the first half before the
    /// second). Budgets: `limits.maximumSamples` in all, and the samples between keyframes at
    /// most `sampleWork / n` (n elements; at least one per keyframe interval; no limit on
    /// elements for a layout that does not move), shared out as the keyframes go (each
    /// interval may use what is left divided by the intervals left); none is added once the
    /// estimated document (`ScrollSVGWriter.estimatedScreenBytes` per sample,
    /// `estimatedChangeBytes` per element's change) reaches `limits.refinementBytes`.
    static func scrollSamples(_ animation: ScrollAnimation, layout: (Point) throws -> CollectionLayout, movesWithOffset: Bool,
                              tolerance: Double, limits: ScrollSVGWriter.Limits, options: OutputOptions) throws
        -> [(time: Double, layout: CollectionLayout)] {
        let offsets = animation.offsets, keyTimes = animation.keyTimes
        let first = try layout(offsets[0])
        func at(_ offset: Point) throws -> CollectionLayout {
            var still = first
            still.contentOffset = offset
            return movesWithOffset ? try layout(offset) : still
        }
        var samples: [(time: Double, layout: CollectionLayout)] = []
        var bytes = 0
        var changedYet = [Bool](repeating: false, count: first.elements.count)
        func add(_ sample: CollectionLayout, at time: Double) {
            bytes += ScrollSVGWriter.estimatedScreenBytes(sample.visibleRect, viewBox: options.canvas == .visible,
                                                          precision: options.precision)
            // The bytes of each element's values where they differ from the sample before, once
            // it has differed from the first sample (at its first difference its first values too).
            for (i, e) in sample.elements.enumerated() where !samples.isEmpty && movesWithOffset {
                let before = samples[samples.count - 1].layout.elements[i], initial = first.elements[i]
                if changedYet[i] ? e != before : e != initial {
                    bytes += ScrollSVGWriter.estimatedChangeBytes(e, precision: options.precision)
                        + (changedYet[i] ? 0 : ScrollSVGWriter.estimatedChangeBytes(initial, precision: options.precision))
                    changedYet[i] = true
                }
            }
            samples.append((time, sample))
        }
        func refine(_ a: CollectionLayout, _ ta: Double, _ b: CollectionLayout, _ tb: Double, allowed: Int) throws -> Int {
            let tm = (ta + tb) / 2
            guard a.contentOffset != b.contentOffset || a.elements != b.elements, ta < tm && tm < tb else { return 0 }
            let middle = try at(animation.offset(atTime: tm))
            guard !ScrollSVGWriter.isHalfway(middle, between: a, and: b, tolerance: tolerance),
                  allowed > 0 && bytes < limits.refinementBytes else { return 0 }
            let left = try refine(a, ta, middle, tm, allowed: allowed - 1)
            add(middle, at: tm)
            return left + 1 + (try refine(middle, tm, b, tb, allowed: allowed - 1 - left))
        }
        let intervals = offsets.count - 1
        let n = first.elements.count
        var budget = min(movesWithOffset ? max(intervals, limits.sampleWork / max(n, 1)) : limits.maximumSamples,
                         limits.maximumSamples - offsets.count)
        add(first, at: 0)
        for k in 1..<offsets.count {
            let next = try at(offsets[k])
            budget -= try refine(samples[samples.count - 1].layout, keyTimes[k - 1], next, keyTimes[k],
                                 allowed: budget / (intervals - k + 1))
            add(next, at: keyTimes[k])
        }
        return samples
    }

    /// The viewBox: `.visible`, the first screen; `.content` (and `.rect`), the union of
    /// the content rects; `.all`, the union over the samples of each one's still canvas
    /// (`svgCanvas`, drawing at the first sample every element, later only the elements that
    /// have differed from the first sample by then) and its screen.
    static func scrollCanvas(_ samples: [CollectionLayout], changing: [Bool], labels: SVGLabels, options: OutputOptions) -> Rect {
        var changedYet = [Bool](repeating: false, count: changing.count)
        let canvases = samples.enumerated().map { k, sample -> Rect in
            switch options.canvas {
            case .visible: return samples[0].visibleRect
            case .content, .rect: return Rect(x: 0, y: 0, width: sample.contentSize.width, height: sample.contentSize.height)
            case .all:
                for i in changing.indices where sample.elements[i] != samples[0].elements[i] { changedYet[i] = true }
                let drawn = sample.elements.indices.filter { (k == 0 || changedYet[$0]) && !sample.elements[$0].isHidden }
                return svgCanvas(sample, drawn: drawn.map { sample.elements[$0] }, labels: labels, options: options)
                    .union(sample.visibleRect)
            }
        }
        return canvases.dropFirst().reduce(canvases[0]) { $0.union($1) }
    }

    /// The samples of `count` an animation needs: the first, the last, and both sides of
    /// each sample k where `changes(k)` (something differs from sample k − 1). A run of
    /// equal values keeps its two ends, whose straight line is the same run.
    static func scrollKept(_ count: Int, changes: (Int) -> Bool) -> [Int] {
        (0..<count).filter { k in k == 0 || k == count - 1 || changes(k) || (k + 1 < count && changes(k + 1)) }
    }

    /// `<TAG attributeName="ATTRIBUTE" [type] [calcMode="discrete"] values="…" keyTimes="…"
    /// begin="0s" dur="…s" fill="freeze"/>` with the values at the samples `kept` (each a
    /// list of numbers, space-separated: `factor`s at full precision, points at
    /// `precision`) and their `times` at full precision; nothing when the values never change.
    static func scrollAnimation(_ tag: String, _ attribute: String, type: String? = nil, _ values: [[Double]], at kept: [Int],
                                _ times: [Double], _ duration: Double, _ precision: NumberPrecision, factor: Bool = false,
                                discrete: Bool = false) -> String {
        guard values.contains(where: { $0 != values[0] }) else { return "" }  // numbers that differ, whatever their text
        let texts = values.map { $0.map { PlainNumberText.string($0, precision: factor ? .full : precision) }.joined(separator: " ") }
        return scrollAnimation(tag, attribute, type: type, texts: texts, at: kept, times, duration, discrete: discrete)
    }

    /// `scrollAnimation` of values already written (a fill colour's, discrete, when its texts
    /// differ); `texts` written even when equal for the numbers' overload.
    static func scrollAnimation(_ tag: String, _ attribute: String, type: String? = nil, texts: [String], at kept: [Int],
                                _ times: [Double], _ duration: Double, discrete: Bool) -> String {
        let keyTimes = kept.map { PlainNumberText.string(times[$0], precision: .full) }.joined(separator: ";")
        return "<\(tag) attributeName=\"\(attribute)\"" + (type.map { " type=\"\($0)\"" } ?? "")
            + (discrete ? " calcMode=\"discrete\"" : "") + " values=\"\(texts.joined(separator: ";"))\" keyTimes=\"\(keyTimes)\""
            + " begin=\"0s\" dur=\"\(PlainNumberText.string(duration, precision: .full))s\" fill=\"freeze\"/>"
    }

    /// One copy of an element that changes, drawn where it is shown with zIndex `layer`
    /// (`values`: its attributes at every sample). Shown at a sample: not hidden and at
    /// `layer`. Held: where not shown (and not the sample right after one where it was, unless
    /// hidden there), the values of the last sample that was (the first shown one's before
    /// it), so that nothing moves toward a state not drawn. The group: translated to the drawn
    /// centre (the frame's centre plus the transform's translation) and shown or not (a
    /// discrete opacity); inside, a group for each of rotation (unwrapped the shorter way),
    /// shear (`skewX`, degrees) and scale that some sample has; the rect centred on the origin
    /// with its corners, paint and opacity; the label upright in the outer group
    /// (`scrollLabel`). The first sample's values are the attributes, and every animation's
    /// values are taken at the samples `scrollKept` keeps of held and shown.
    static func scrollGroup(_ values: [LayoutAttributes], layer: Int, round: Bool, labels: SVGLabels, times: [Double],
                            duration: Double, precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        func factor(_ value: Double) -> String { PlainNumberText.string(value, precision: .full) }
        let allShown = values.map { !$0.isHidden && $0.zIndex == layer }
        var allHeld = values
        if let firstShown = values.indices.first(where: { allShown[$0] }) {
            var last = values[firstShown]
            for k in values.indices {
                if allShown[k] || (k > 0 && allShown[k - 1] && !values[k].isHidden) { last = values[k] } else { allHeld[k] = last }
            }
        }
        let kept = scrollKept(values.count) { allHeld[$0] != allHeld[$0 - 1] || allShown[$0] != allShown[$0 - 1] }
        let held = kept.map { allHeld[$0] }, shown = kept.map { allShown[$0] }
        func animation(_ tag: String, _ attribute: String, type: String? = nil, _ values: [[Double]], factor: Bool = false,
                       discrete: Bool = false) -> String {
            scrollAnimation(tag, attribute, type: type, values, at: kept, times, duration, precision, factor: factor,
                            discrete: discrete)
        }
        let e0 = held[0]
        let parts = held.map { TransformComponents(decomposing: $0.transform) }
        var rotations = [parts[0].rotation]
        for k in parts.indices.dropFirst() { rotations.append(rotations[k - 1] + parts[k - 1].rotationChange(to: parts[k])) }
        let centres = held.indices.map { [held[$0].center.x + parts[$0].tx, held[$0].center.y + parts[$0].ty] }
        var text = "<g transform=\"translate(\(n(centres[0][0])) \(n(centres[0][1])))\"" + (shown[0] ? ">" : " opacity=\"0\">")
            + animation("animate", "opacity", shown.map { [$0 ? 1 : 0] }, factor: true, discrete: true)
            + animation("animateTransform", "transform", type: "translate", centres)
        var closing = ""
        if parts.contains(where: { $0.rotation != 0 }) {
            text += "<g transform=\"rotate(\(factor(rotations[0])))\">"
                + animation("animateTransform", "transform", type: "rotate", rotations.map { [$0] }, factor: true)
            closing += "</g>"
        }
        if parts.contains(where: { $0.shear != 0 }) {
            func degrees(_ k: Double) -> Double { atan(k) * 180 / Double.pi }
            text += "<g transform=\"skewX(\(factor(degrees(parts[0].shear))))\">"
                + animation("animateTransform", "transform", type: "skewX", parts.map { [degrees($0.shear)] }, factor: true)
            closing += "</g>"
        }
        if parts.contains(where: { $0.scaleX != 1 || $0.scaleY != 1 }) {
            text += "<g transform=\"scale(\(factor(parts[0].scaleX)) \(factor(parts[0].scaleY)))\">"
                + animation("animateTransform", "transform", type: "scale", parts.map { [$0.scaleX, $0.scaleY] }, factor: true)
            closing += "</g>"
        }
        func radius(_ e: LayoutAttributes) -> Double? { SVGPaint.cornerRadius(e, size: e.size, round: round) }
        func opacity(_ e: LayoutAttributes) -> Double { SVGPaint.opacity(e.alpha) }
        text += "<rect data-index-path=\"\(e0.indexPath.section):\(e0.indexPath.item)\""
            + (e0.category == .cell ? "" : " data-kind=\"\(svgKindName(e0))\"")
            + " x=\"\(n(-e0.size.width / 2))\" y=\"\(n(-e0.size.height / 2))\" width=\"\(n(e0.size.width))\" height=\"\(n(e0.size.height))\""
            + (radius(e0).map { " rx=\"\(n($0))\"" } ?? "")
            + " fill=\"\(e0.category == .cell ? SVGPaint.fill(item: e0.indexPath.item) : SVGPaint.viewPaint(e0.kind))\""
            + (opacity(e0) < 1 ? " opacity=\"\(factor(opacity(e0)))\"" : "") + ">"
            + animation("animate", "x", held.map { [-$0.size.width / 2] })
            + animation("animate", "y", held.map { [-$0.size.height / 2] })
            + animation("animate", "width", held.map { [$0.size.width] })
            + animation("animate", "height", held.map { [$0.size.height] })
            + (radius(e0) == nil ? "" : animation("animate", "rx", held.map { [radius($0)!] }))
            + animation("animate", "opacity", held.map { [opacity($0)] }, factor: true)
            + "</rect>" + closing
        return text + scrollLabel(held, at: kept, labels: labels, times: times, duration: duration, precision: precision) + "</g>\n"
    }

    /// The label of an element that changes, at the origin of its outer group: shown (a
    /// discrete opacity) at the samples where a still picture would label the element; its
    /// size (`svgLabel`; where none, the last one's, or the first one there is before it)
    /// and baseline (0.35 em below the centre) animated, its colour switching with the
    /// alpha (`SVGPaint.labelColour`); its text the first sample's. None when no sample has one.
    static func scrollLabel(_ held: [LayoutAttributes], at kept: [Int], labels: SVGLabels, times: [Double], duration: Double,
                            precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        let found = held.map { svgLabel($0, labels) }
        guard let firstFound = found.compactMap({ $0 }).first else { return "" }
        var size = (found[0] ?? firstFound).size
        let sizes = found.map { label -> Double in
            if let label { size = label.size }
            return size
        }
        let colours = held.map { "\(SVGPaint.labelColour($0))" }
        let e0 = held[0]
        let words = e0.category == .cell ? (labels == .indexPath ? "\(e0.indexPath.section):\(e0.indexPath.item)" : "\(e0.indexPath.item)")
            : "\(svgKindName(e0)) \(e0.indexPath.section)"
        func animation(_ attribute: String, _ values: [[Double]], factor: Bool = false, discrete: Bool = false) -> String {
            scrollAnimation("animate", attribute, values, at: kept, times, duration, precision, factor: factor, discrete: discrete)
        }
        return "<text x=\"0\" y=\"\(n(sizes[0] * 0.35))\" font-family=\"sans-serif\" font-size=\"\(n(sizes[0]))\" "
            + "text-anchor=\"middle\" fill=\"\(colours[0])\"" + (found[0] == nil ? " opacity=\"0\">" : ">")
            + animation("opacity", found.map { [$0 == nil ? 0 : 1] }, factor: true, discrete: true)
            + animation("font-size", sizes.map { [$0] })
            + animation("y", sizes.map { [$0 * 0.35] })
            + (colours.contains { $0 != colours[0] }
                ? scrollAnimation("animate", "fill", texts: colours, at: kept, times, duration, discrete: true) : "")
            + xmlText(words) + "</text>"
    }
}
