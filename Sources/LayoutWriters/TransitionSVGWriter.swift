import FastText
import LayoutCore

/// `cvlayout transition -f svg` (docs/REFERENCE.md, Transitions): SMIL animating each part of
/// each changing element linearly between its ends (as `TransitionElement.attributes(at:)`),
/// frozen at the end; with `repeats`, start → end → start over twice the duration, forever.
enum TransitionSVGWriter {
    /// Writes one `group` per element visible at either end in zIndex order (two layers
    /// switching halfway when the two ends' orders differ), then the final visible bounds.
    /// - Throws: what the sink throws. - Complexity: O(n log n) (the zIndex sorts).
    public static func write(_ transition: LayoutTransition, options: TransitionOutputOptions,
                             to out: OutputBuffer) throws {
        let from = transition.from, to = transition.to
        let labels = SVGLabels.resolved(options.output.labels, numberOfSections: max(from.numberOfSections, to.numberOfSections))
        appendDocumentStart(canvas: canvas(transition, options: options.output, labels: labels),
                            title: "cvlayout transition from \(from.engine) to \(to.engine)", to: out)
        let elements = transition.elements
        let drawn = elements.indices.filter { opacity(elements[$0].initial) > 0 || opacity(elements[$0].final) > 0 }
        // By zIndex, ties by the start's painting order (`initialOrder`) or element order.
        var startRank = [Int](repeating: Int.max, count: elements.count)
        for (rank, position) in transition.initialOrder.enumerated() { startRank[position] = rank }
        let startOrder = drawn.sorted { l, r in
            let a = elements[l].initial.zIndex, b = elements[r].initial.zIndex
            return a < b || (a == b && (startRank[l], l) < (startRank[r], r))
        }
        let endOrder = drawn.sorted { l, r in
            let a = elements[l].final.zIndex, b = elements[r].final.zIndex
            return a < b || (a == b && l < r)
        }
        let round = (from: from.drawsCellsRound, to: to.drawsCellsRound), timing = timing(options)
        func appendGroups(_ order: [Int]) throws {
            for position in order {
                out.append(string: group(elements[position], round: round, labels: labels, timing: timing))
                try out.flushIfFull()
            }
        }
        if startOrder == endOrder {
            try appendGroups(endOrder)
        } else {
            // `display`, not `visibility`: a label's `visibility="visible"` would show through.
            for (layer, order, values) in [("start", startOrder, ["inline", "none"]), ("end", endOrder, ["none", "inline"])] {
                out.append(string: "<g class=\"layer-\(layer)\" display=\"\(values[1])\">\n"
                    + timing.halfway.animation("animate", "display", texts: values, discrete: true) + "\n")
                try appendGroups(order)
                out.append("</g>\n")
            }
        }
        out.append(string: PlainLayoutWriter.svgVisibleBounds(to.visibleRect, precision: out.precision) + "/>\n</svg>\n")
    }

    /// The linear animations' and the discrete switches' timing.
    typealias Timing = (linear: SVGAnimationTiming, halfway: SVGAnimationTiming)

    /// From 0 over the duration, frozen; with `repeats`, forth and back over twice it, forever.
    /// A switch happens halfway (back at three quarters).
    static func timing(_ options: TransitionOutputOptions) -> Timing {
        let precision = options.output.precision, repeats = options.repeats
        let duration = NumberFormat.string(repeats ? 2 * options.duration : options.duration, precision: precision)
        let timing = " begin=\"0s\" dur=\"\(duration)s\"" + (repeats ? " repeatCount=\"indefinite\"" : " fill=\"freeze\"")
        return (SVGAnimationTiming(timing: timing, precision: precision, returns: repeats),
                SVGAnimationTiming(timing: " keyTimes=\"\(repeats ? "0;0.25;0.75" : "0;0.5")\"" + timing, precision: precision,
                                   returns: repeats))
    }

    /// The opacity drawn at one end: 0 when hidden.
    static func opacity(_ e: LayoutAttributes) -> Double {
        e.isHidden ? 0 : SVGPaint.opacity(e.alpha)
    }

    /// The corner radius at one end (`SVGPaint.cornerRadius`); 0 for views but badges.
    static func cornerRadius(_ e: LayoutAttributes, round: Bool) -> Double {
        guard e.category == .cell || e.kind?.role == .badge else { return 0 }
        return SVGPaint.cornerRadius(e, size: e.size, round: round) ?? 0
    }

    /// One element: a group at its drawn centre and opacity, animated, around
    /// `svgTransformGroups`, the rect and the labels.
    static func group(_ element: TransitionElement, round: (from: Bool, to: Bool), labels: SVGLabels,
                      timing: Timing) -> String {
        let a = element.initial, b = element.final
        let transforms = svgTransformGroups([a, b], at: 1, timing: timing.linear)
        return "<g class=\"\(element.change.rawValue)\""
            + (opacity(b) < 1 ? " opacity=\"\(NumberFormat.string(opacity(b), precision: .full))\"" : "")
            + " transform=\"\(transforms.translate)\">"
            + timing.linear.animation("animate", "opacity", [[opacity(a)], [opacity(b)]], factor: true)
            + transforms.open + rect(element, round: round, timing: timing)
            + self.labels(element, labels: labels, timing: timing) + transforms.close + "</g>\n"
    }

    /// The index paths before and after the update (each falling back on the other, then the final one).
    static func paths(_ element: TransitionElement) -> (old: IndexPath, new: IndexPath) {
        let b = element.final
        return (element.fromIndexPath ?? element.toIndexPath ?? b.indexPath, element.toIndexPath ?? element.fromIndexPath ?? b.indexPath)
    }

    /// The shape, named by the new index path, size and corners animated (an appearing or
    /// disappearing end drawn by the other engine), a cell's fill switching halfway.
    static func rect(_ element: TransitionElement, round: (from: Bool, to: Bool), timing: Timing) -> String {
        let a = element.initial, b = element.final
        let (oldPath, newPath) = paths(element)
        let ra = cornerRadius(a, round: element.change == .appear ? round.to : round.from)
        let rb = cornerRadius(b, round: element.change == .disappear ? round.from : round.to)
        var identity = b
        identity.indexPath = newPath
        let oldFill = "\(SVGPaint.fill(item: oldPath.item))", newFill = "\(SVGPaint.fill(item: newPath.item))"
        let precision = timing.linear.precision
        return svgCentredRect(identity, precision: precision)
            + " data-change=\"\(element.change.rawValue)\" rx=\"\(NumberFormat.string(rb, precision: precision))\""
            + PlainLayoutWriter.svgPaint(identity) + ">"
            + (b.category == .cell && oldFill != newFill
               ? timing.halfway.animation("animate", "fill", texts: [oldFill, newFill], discrete: true) : "")
            + timing.linear.animation("animate", "x", [[-a.size.width / 2], [-b.size.width / 2]])
            + timing.linear.animation("animate", "y", [[-a.size.height / 2], [-b.size.height / 2]])
            + timing.linear.animation("animate", "width", [[a.size.width], [b.size.width]])
            + timing.linear.animation("animate", "height", [[a.size.height], [b.size.height]])
            + timing.linear.animation("animate", "rx", [[ra], [rb]]) + "</rect>"
    }

    /// The labels, sized by `svgLabel` at each end (else the other's), coloured as at alpha 1;
    /// two when the old and new index paths' differ, the old one until halfway.
    static func labels(_ element: TransitionElement, labels: SVGLabels, timing: Timing) -> String {
        let a = element.initial, b = element.final
        let startLabel = PlainLayoutWriter.svgLabel(a, labels), endLabel = PlainLayoutWriter.svgLabel(b, labels)
        guard let size = (endLabel ?? startLabel)?.size else { return "" }
        let startSize = startLabel?.size ?? size
        func words(_ path: IndexPath) -> String { PlainLayoutWriter.svgLabelWords(b, path: path, labels: labels) }
        func colour(_ path: IndexPath) -> String {
            b.category == .cell ? "\(SVGPaint.cellLabelColour(item: path.item))" : SVGPaint.viewLabelColour
        }
        let (oldPath, newPath) = paths(element)
        let changes = words(oldPath) != words(newPath) || colour(oldPath) != colour(newPath)
        return (changes ? [(oldPath, true), (newPath, false)] : [(newPath, false)]).map { path, isOld in
            svgCentredTextStart(size: size, colour: colour(path), precision: timing.linear.precision)
                + (isOld ? " visibility=\"hidden\">" : ">")
                + (changes ? timing.halfway.animation("animate", "visibility", texts: isOld ? ["visible", "hidden"]
                                                      : ["hidden", "visible"], discrete: true) : "")
                + timing.linear.animation("animate", "font-size", [[startSize], [size]])
                + timing.linear.animation("animate", "y", [[startSize * 0.35], [size * 0.35]])
                + PlainLayoutWriter.xmlText(words(path)) + "</text>"
        }.joined()
    }

    /// The viewBox: the larger content size, the final visible bounds, or (`.all`) the union
    /// of the content, each visible end's drawing and, turned, the reach about the line between
    /// the centres (half diagonal × spectral norm, at least the label's half width + 0.6 em).
    static func canvas(_ transition: LayoutTransition, options: OutputOptions, labels: SVGLabels) -> Rect {
        let content = Rect(x: 0, y: 0, width: max(transition.from.contentSize.width, transition.to.contentSize.width),
                           height: max(transition.from.contentSize.height, transition.to.contentSize.height))
        if let area = options.canvasArea(content: content, visible: transition.to.visibleRect) { return area }
        var union = content
        for element in transition.elements {
            let ends = [element.initial, element.final].filter { opacity($0) > 0 }
            guard !ends.isEmpty else { continue }
            union = union.union(PlainLayoutWriter.svgUnion(ends.map { PlainLayoutWriter.svgDrawnBox($0, labels) }))
            let reach = ends.map { e -> Double in
                let t = e.transform
                let squares = t.a * t.a + t.b * t.b + t.c * t.c + t.d * t.d, det = t.a * t.d - t.b * t.c
                let stretch = ((squares + max(0, squares * squares - 4 * det * det).squareRoot()) / 2).squareRoot()
                let label = PlainLayoutWriter.svgLabel(e, labels).map { 0.3 * $0.size * Double($0.text.count) + 0.6 * $0.size } ?? 0
                return max(Point.length(e.size.width / 2, e.size.height / 2) * stretch, label)
            }.max()!
            guard [element.initial, element.final].contains(where: { $0.transform.b != 0 || $0.transform.c != 0 }) else { continue }
            let centres = ends.map { Point(x: $0.center.x + $0.transform.tx, y: $0.center.y + $0.transform.ty) }
            let start = centres[0], end = centres[centres.count - 1]
            union = union.union(Rect(minX: min(start.x, end.x) - reach, minY: min(start.y, end.y) - reach,
                                     maxX: max(start.x, end.x) + reach, maxY: max(start.y, end.y) + reach))
        }
        guard union.isFinite else { return content }
        return SVGLayoutWriter.outward(union, from: content, precision: options.precision)
    }
}
