import LayoutCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The plain transition SVG: the specification `TransitionSVGWriter` (`cvlayout transition
// -f svg`) must write byte for byte. See PlainLayoutWriter.swift. One rule per function;
// docs/REFERENCE.md's Transitions section says the same in words.

extension PlainLayoutWriter {
    /// The animated SVG document of `transition` (`options.duration`, `options.repeats`,
    /// `options.output`'s precision, labels and canvas): the canvas (`transitionCanvas`), one
    /// group per element visible at either end (`transitionGroup`) in zIndex order, twice in
    /// two layers when the order at the start differs from the order at the end
    /// (`transitionLayers`), then the final visible bounds.
    public static func transitionSVG(_ transition: LayoutTransition, options: TransitionOutputOptions) -> String {
        let precision = options.output.precision
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        let from = transition.from, to = transition.to
        // Labels: as asked, or the default of the layout with more sections (the start on a tie).
        let labels = options.output.labels ?? SVGLabels.resolved(nil, for: from.numberOfSections >= to.numberOfSections ? from : to)
        let canvas = transitionCanvas(transition, options: options.output, labels: labels)
        var text = svgDocumentStart(canvas: canvas, title: "cvlayout transition from \(from.engine) to \(to.engine)",
                                    precision: precision)

        // The elements drawn: those visible at the start or at the end.
        let elements = transition.elements
        let drawn = elements.indices.filter { transitionOpacity(elements[$0].initial) > 0 || transitionOpacity(elements[$0].final) > 0 }
        // Painting order at the start: initial zIndex, ties by the start layout's painting order
        // (`initialOrder`), then element order; at the end: final zIndex, ties by element order.
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
        let round = (from: from.drawsCellsRound, to: to.drawsCellsRound)
        func groups(_ order: [Int]) -> String {
            order.map { transitionGroup(elements[$0], round: round, labels: labels, options: options) }.joined()
        }
        if startOrder == endOrder {
            text += groups(endOrder)
        } else {
            text += transitionLayers(startOrder: groups(startOrder), endOrder: groups(endOrder), options: options)
        }
        text += "<rect class=\"visible-bounds\" x=\"\(n(to.contentOffset.x))\" y=\"\(n(to.contentOffset.y))\" "
            + "width=\"\(n(to.bounds.width))\" height=\"\(n(to.bounds.height))\" "
            + "fill=\"none\" stroke=\"#d62728\" stroke-width=\"1\" stroke-dasharray=\"6 3\"/>\n"
        return text + "</svg>\n"
    }

    /// The zIndex switch: a layer in the start's order shown during the first half (`display`
    /// `none` at rest), then a layer in the end's order shown from halfway (`inline` at
    /// rest); repeating, the start's layer shows again from three quarters of the round trip.
    static func transitionLayers(startOrder: String, endOrder: String, options: TransitionOutputOptions) -> String {
        let timing = transitionTiming(options)
        let startValues = options.repeats ? "inline;none;inline" : "inline;none"
        let endValues = options.repeats ? "none;inline;none" : "none;inline"
        let keyTimes = options.repeats ? "0;0.25;0.75" : "0;0.5"
        return "<g class=\"layer-start\" display=\"none\">\n"
            + "<animate attributeName=\"display\" calcMode=\"discrete\" values=\"\(startValues)\" keyTimes=\"\(keyTimes)\"\(timing)/>\n"
            + startOrder + "</g>\n"
            + "<g class=\"layer-end\" display=\"inline\">\n"
            + "<animate attributeName=\"display\" calcMode=\"discrete\" values=\"\(endValues)\" keyTimes=\"\(keyTimes)\"\(timing)/>\n"
            + endOrder + "</g>\n"
    }

    /// The timing of every animation: begins at 0; once over the duration, frozen at the end;
    /// with `repeats`, over twice the duration (forth and back), forever.
    static func transitionTiming(_ options: TransitionOutputOptions) -> String {
        let duration = PlainNumberText.string(options.repeats ? 2 * options.duration : options.duration,
                                              precision: options.output.precision)
        return " begin=\"0s\" dur=\"\(duration)s\"" + (options.repeats ? " repeatCount=\"indefinite\"" : " fill=\"freeze\"")
    }

    /// The values of an animation between two ends: `start;end`, or `start;end;start` repeating.
    static func transitionValues(_ start: String, _ end: String, _ options: TransitionOutputOptions) -> String {
        options.repeats ? "\(start);\(end);\(start)" : "\(start);\(end)"
    }

    /// A discrete switch of `attribute` from `start` to `end` halfway (and back at three
    /// quarters, repeating).
    static func transitionSwitch(_ attribute: String, _ start: String, _ end: String, _ options: TransitionOutputOptions) -> String {
        "<animate attributeName=\"\(attribute)\" calcMode=\"discrete\" values=\"\(transitionValues(start, end, options))\" "
            + "keyTimes=\"\(options.repeats ? "0;0.25;0.75" : "0;0.5")\"\(transitionTiming(options))/>"
    }

    /// A linear animation of a list of numbers between the two ends, or nothing when they are
    /// equal: `factor`s (opacity, angles, scales) at full precision, points at the output's.
    static func transitionAnimation(_ tag: String, _ attribute: String, type: String? = nil, _ start: [Double], _ end: [Double],
                                    factor: Bool = false, _ options: TransitionOutputOptions) -> String {
        guard start != end else { return "" }
        func list(_ values: [Double]) -> String {
            values.map { PlainNumberText.string($0, precision: factor ? .full : options.output.precision) }.joined(separator: " ")
        }
        return "<\(tag) attributeName=\"\(attribute)\"" + (type.map { " type=\"\($0)\"" } ?? "")
            + " values=\"\(transitionValues(list(start), list(end), options))\"\(transitionTiming(options))/>"
    }

    /// The opacity drawn at one end: 0 when hidden, else the alpha (`SVGPaint.opacity`).
    static func transitionOpacity(_ e: LayoutAttributes) -> Double {
        e.isHidden ? 0 : SVGPaint.opacity(e.alpha)
    }

    /// The corner radius at one end: a cell's or a badge's (`SVGPaint.cornerRadius`, round
    /// when that end's engine draws round); every other view square.
    static func transitionCornerRadius(_ e: LayoutAttributes, round: Bool) -> Double {
        guard e.category == .cell || e.kind?.role == .badge else { return 0 }
        return SVGPaint.cornerRadius(e, size: e.size, round: round) ?? 0
    }

    /// One element: a group translated to its drawn centre at the end (the frame's centre plus
    /// the transform's translation), its opacity at the end when under 1, animating both; inside,
    /// a group for each of rotation, shear (`skewX`, degrees) and scale that either end has
    /// (`TransformComponents`), the rotation turning the shorter way; inside, the rect centred on
    /// the origin (`transitionRect`) and its labels (`transitionLabels`).
    static func transitionGroup(_ element: TransitionElement, round: (from: Bool, to: Bool), labels: SVGLabels,
                                options: TransitionOutputOptions) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: options.output.precision) }
        func factor(_ value: Double) -> String { PlainNumberText.string(value, precision: .full) }
        let a = element.initial, b = element.final
        let ta = TransformComponents(decomposing: a.transform), tb = TransformComponents(decomposing: b.transform)
        let startX = a.center.x + ta.tx, startY = a.center.y + ta.ty
        let endX = b.center.x + tb.tx, endY = b.center.y + tb.ty
        var text = "<g class=\"\(element.change.rawValue)\""
        if transitionOpacity(b) < 1 { text += " opacity=\"\(factor(transitionOpacity(b)))\"" }
        text += " transform=\"translate(\(n(endX)) \(n(endY)))\">"
        text += transitionAnimation("animate", "opacity", [transitionOpacity(a)], [transitionOpacity(b)], factor: true, options)
        text += transitionAnimation("animateTransform", "transform", type: "translate", [startX, startY], [endX, endY], options)
        var closing = ""
        if ta.rotation != 0 || tb.rotation != 0 {
            text += "<g transform=\"rotate(\(factor(tb.rotation)))\">"
            text += transitionAnimation("animateTransform", "transform", type: "rotate", [ta.rotation],
                                        [ta.rotation + ta.rotationChange(to: tb)], factor: true, options)
            closing += "</g>"
        }
        if ta.shear != 0 || tb.shear != 0 {
            func degrees(_ k: Double) -> Double { atan(k) * 180 / Double.pi }
            text += "<g transform=\"skewX(\(factor(degrees(tb.shear))))\">"
            text += transitionAnimation("animateTransform", "transform", type: "skewX", [degrees(ta.shear)], [degrees(tb.shear)],
                                        factor: true, options)
            closing += "</g>"
        }
        if ta.scaleX != 1 || ta.scaleY != 1 || tb.scaleX != 1 || tb.scaleY != 1 {
            text += "<g transform=\"scale(\(factor(tb.scaleX)) \(factor(tb.scaleY)))\">"
            text += transitionAnimation("animateTransform", "transform", type: "scale", [ta.scaleX, ta.scaleY],
                                        [tb.scaleX, tb.scaleY], factor: true, options)
            closing += "</g>"
        }
        return text + transitionRect(element, round: round, options: options)
            + transitionLabels(element, labels: labels, options: options) + closing + "</g>\n"
    }

    /// The index path before the update (`fromIndexPath`, else `toIndexPath`) and after it
    /// (`toIndexPath`, else `fromIndexPath`); an element in neither has its final one.
    static func transitionPaths(_ element: TransitionElement) -> (old: IndexPath, new: IndexPath) {
        let b = element.final
        return (element.fromIndexPath ?? element.toIndexPath ?? b.indexPath, element.toIndexPath ?? element.fromIndexPath ?? b.indexPath)
    }

    /// The shape: a rect named by the index path after the update (`data-index-path`, and
    /// `data-kind` for a view) and its change (`data-change`), centred on the origin at the
    /// final size, its corners (`transitionCornerRadius`: an appearing element's start drawn
    /// as the final engine draws, a disappearing one's end as the initial engine draws), its
    /// fill (a cell's palette colour by the new item number, switching from the old one's
    /// halfway; a view's paint by its kind), then its size and corners animated.
    static func transitionRect(_ element: TransitionElement, round: (from: Bool, to: Bool), options: TransitionOutputOptions) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: options.output.precision) }
        let a = element.initial, b = element.final
        let (oldPath, newPath) = transitionPaths(element)
        let ra = transitionCornerRadius(a, round: element.change == .appear ? round.to : round.from)
        let rb = transitionCornerRadius(b, round: element.change == .disappear ? round.from : round.to)
        let isCell = b.category == .cell
        var text = "<rect data-index-path=\"\(newPath.section):\(newPath.item)\""
        if !isCell { text += " data-kind=\"\(svgKindName(b))\"" }
        text += " x=\"\(n(-b.size.width / 2))\" y=\"\(n(-b.size.height / 2))\" width=\"\(n(b.size.width))\" height=\"\(n(b.size.height))\""
        text += " data-change=\"\(element.change.rawValue)\" rx=\"\(n(rb))\""
        let oldFill = "\(SVGPaint.fill(item: oldPath.item))", newFill = "\(SVGPaint.fill(item: newPath.item))"
        text += " fill=\"\(isCell ? newFill : "\(SVGPaint.viewPaint(b.kind))")\">"
        if isCell && oldFill != newFill { text += transitionSwitch("fill", oldFill, newFill, options) }
        text += transitionAnimation("animate", "x", [-a.size.width / 2], [-b.size.width / 2], options)
        text += transitionAnimation("animate", "y", [-a.size.height / 2], [-b.size.height / 2], options)
        text += transitionAnimation("animate", "width", [a.size.width], [b.size.width], options)
        text += transitionAnimation("animate", "height", [a.size.height], [b.size.height], options)
        text += transitionAnimation("animate", "rx", [ra], [rb], options)
        return text + "</rect>"
    }

    /// The labels: sized as a layout's SVG sizes each end's (`svgLabel`; an end without one
    /// takes the other's size), the size and baseline (0.35 em below the centre) animated.
    /// A cell reads its item number (or `S:I`) in `SVGPaint.cellLabelColour`, a view its kind
    /// and section in `SVGPaint.viewLabelColour`. When the text or colour differs between the
    /// old and the new index path, two labels: the old one visible until halfway (hidden at
    /// rest), then the new one.
    static func transitionLabels(_ element: TransitionElement, labels: SVGLabels, options: TransitionOutputOptions) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: options.output.precision) }
        let a = element.initial, b = element.final
        let startLabel = svgLabel(a, labels), endLabel = svgLabel(b, labels)
        guard let size = (endLabel ?? startLabel)?.size else { return "" }
        let startSize = startLabel?.size ?? size
        let isCell = b.category == .cell
        func words(_ path: IndexPath) -> String {
            guard isCell else { return "\(svgKindName(b)) \(path.section)" }
            return labels == .indexPath ? "\(path.section):\(path.item)" : "\(path.item)"
        }
        func colour(_ path: IndexPath) -> String {
            isCell ? "\(SVGPaint.cellLabelColour(item: path.item))" : SVGPaint.viewLabelColour
        }
        let (oldPath, newPath) = transitionPaths(element)
        let changes = words(oldPath) != words(newPath) || colour(oldPath) != colour(newPath)
        var text = ""
        for (path, isOld) in changes ? [(oldPath, true), (newPath, false)] : [(newPath, false)] {
            text += "<text x=\"0\" y=\"\(n(size * 0.35))\" font-family=\"sans-serif\" font-size=\"\(n(size))\" "
                + "text-anchor=\"middle\" fill=\"\(colour(path))\"" + (isOld ? " visibility=\"hidden\">" : ">")
            if changes {
                text += transitionSwitch("visibility", isOld ? "visible" : "hidden", isOld ? "hidden" : "visible", options)
            }
            text += transitionAnimation("animate", "font-size", [startSize], [size], options)
            text += transitionAnimation("animate", "y", [startSize * 0.35], [size * 0.35], options)
            text += xmlText(words(path)) + "</text>"
        }
        return text
    }

    /// The viewBox: the larger content size from the origin (`.content`; `.rect` without a
    /// query rect), the final visible bounds (`.visible`), or (`.all`) the union of the larger
    /// content size, what each element draws at either end where visible (its frame under its
    /// transform, its label's box: 0.3 em a character either side, 0.6 em up and down), and,
    /// for an element turned at either end, its reach about the straight line between its drawn
    /// centres: half its frame's diagonal times the matrix's largest stretch (spectral norm),
    /// at least its label's half width plus 0.6 em; edges past the content's rounded outward.
    static func transitionCanvas(_ transition: LayoutTransition, options: OutputOptions, labels: SVGLabels) -> Rect {
        let content = transition.contentRect
        if let area = options.canvasArea(content: content, visible: transition.to.visibleRect) { return area }
        var union = content
        for element in transition.elements {
            let ends = [element.initial, element.final].filter { transitionOpacity($0) > 0 }
            guard !ends.isEmpty else { continue }
            union = union.union(svgUnion(ends.map { svgDrawnBox($0, labels) }))
            let reach = ends.map { e -> Double in
                let t = e.transform
                let squares = t.a * t.a + t.b * t.b + t.c * t.c + t.d * t.d, det = t.a * t.d - t.b * t.c
                let stretch = ((squares + max(0, squares * squares - 4 * det * det).squareRoot()) / 2).squareRoot()
                let label = svgLabel(e, labels).map { 0.3 * $0.size * Double($0.text.count) + 0.6 * $0.size } ?? 0
                return max(Point.length(e.size.width / 2, e.size.height / 2) * stretch, label)
            }.max()!
            guard [element.initial, element.final].contains(where: { $0.transform.b != 0 || $0.transform.c != 0 }) else { continue }
            let centres = ends.map { Point(x: $0.center.x + $0.transform.tx, y: $0.center.y + $0.transform.ty) }
            let start = centres[0], end = centres[centres.count - 1]
            union = union.union(Rect(minX: min(start.x, end.x) - reach, minY: min(start.y, end.y) - reach,
                                     maxX: max(start.x, end.x) + reach, maxY: max(start.y, end.y) + reach))
        }
        guard union.isFinite else { return content }
        return svgCanvasGrown(content, toHold: union, precision: options.precision)
    }
}
