import FastText
import LayoutCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `cvlayout transition -f svg`: a standalone SVG 1.1 document that animates the whole
/// transition with SMIL and shows the end state where nothing animates (rsvg-convert).
///
/// Each element is a group `translate(centre + transform translation) rotate(θ)
/// [skewX] scale(sx sy)` around a rect centred on the origin, the same decomposition
/// `TransitionElement.attributes(at:)` interpolates; every part that changes gets an
/// `<animate>`/`<animateTransform>` with the two end values (linear, so SMIL's
/// interpolation is the same as the JSON's at every time; the rotation's end value is the
/// start plus the shorter turn). Opacity is the alpha, 0 where hidden. The static
/// attributes are the end values, so the animation ends where it rests (`fill="freeze"`);
/// with `repeats` the values run start → end → start over twice the duration, forever.
/// zIndex switches at the midpoint: when the painting order by the initial zIndex differs
/// from the order by the final zIndex, the elements are drawn twice, in a layer per
/// order, the first visible during the first half of each pass.
public enum TransitionSVGWriter {
    /// Writes the animated document.
    /// - Complexity: O(n log n) for n elements (the zIndex sorts).
    public static func write(_ transition: LayoutTransition, options: TransitionOutputOptions,
                             to out: OutputBuffer) throws {
        let from = transition.from, to = transition.to
        let labels = options.output.labels
            ?? SVGLabels.resolved(nil, for: from.numberOfSections >= to.numberOfSections ? from : to)
        appendDocumentStart(canvas: canvas(transition, options: options.output, labels: labels),
                            title: "cvlayout transition from \(from.engine) to \(to.engine)", to: out)

        let timing = Timing(duration: options.duration, repeats: options.repeats)
        let style = Style(fromRound: from.drawsCellsRound, toRound: to.drawsCellsRound, labels: labels)
        // Elements visible at some time, in painting order at the start and at the end.
        var startRank = [Int](repeating: Int.max, count: transition.elements.count)
        for (rank, position) in transition.initialOrder.enumerated() { startRank[position] = rank }
        let drawn = transition.elements.indices.filter {
            opacity(transition.elements[$0].initial) > 0 || opacity(transition.elements[$0].final) > 0
        }
        let startOrder = drawn.sorted { l, r in
            let a = transition.elements[l].initial.zIndex, b = transition.elements[r].initial.zIndex
            return a < b || (a == b && (startRank[l], l) < (startRank[r], r))
        }
        let endOrder = drawn.sorted { l, r in
            let a = transition.elements[l].final.zIndex, b = transition.elements[r].final.zIndex
            return a < b || (a == b && l < r)
        }
        if startOrder == endOrder {
            for position in endOrder {
                appendElement(transition.elements[position], style: style, timing: timing, to: out)
                try out.flushIfFull()
            }
        } else {
            for (layer, order) in [("start", startOrder), ("end", endOrder)] {
                let first = layer == "start"
                // `display`, not `visibility`: a child's `visibility="visible"` (a label's
                // switch) would show through a hidden layer; nothing shows through `none`.
                out.append(string: "<g class=\"layer-\(layer)\" display=\"\(first ? "none" : "inline")\">\n")
                out.append("<animate attributeName=\"display\" calcMode=\"discrete\" ")
                if timing.repeats {
                    out.append(first ? "values=\"inline;none;inline\"" : "values=\"none;inline;none\"")
                    out.append(" keyTimes=\"0;0.25;0.75\"")
                } else {
                    out.append(first ? "values=\"inline;none\"" : "values=\"none;inline\"")
                    out.append(" keyTimes=\"0;0.5\"")
                }
                timing.append(to: out)
                out.append("/>\n")
                for position in order {
                    appendElement(transition.elements[position], style: style, timing: timing, to: out)
                    try out.flushIfFull()
                }
                out.append("</g>\n")
            }
        }
        appendVisibleBounds(to, to: out)
        out.append("/>\n</svg>\n")
    }

    /// The viewBox: with the canvas `.all`, both content rects and everything drawn at any
    /// moment: each element's drawn box at either end, and for one that turns, its reach (half
    /// its frame's diagonal times the matrix's largest stretch, at least its label's reach) of
    /// the straight line its centre moves along. `.content` is the larger content size from the
    /// origin, `.visible` the final visible bounds.
    static func canvas(_ transition: LayoutTransition, options: OutputOptions, labels: SVGLabels) -> Rect {
        let content = transition.contentRect
        if let area = options.canvasArea(content: content, visible: transition.to.visibleRect) { return area }
        var union = content
        for element in transition.elements {
            var reach = 0.0
            var centres: [Point] = []
            for e in [element.initial, element.final] where opacity(e) > 0 {
                let t = e.transform
                // The matrix's largest stretch (its spectral norm), how far it can carry a
                // corner of the frame from the centre, whatever the angle in between.
                let f = t.a * t.a + t.b * t.b + t.c * t.c + t.d * t.d, det = t.a * t.d - t.b * t.c
                let norm = ((f + (max(0, f * f - 4 * det * det)).squareRoot()) / 2).squareRoot()
                reach = max(reach, Point.length(e.size.width / 2, e.size.height / 2) * norm)
                if let label = SVGElementWriter.label(e, labels) {
                    reach = max(reach, 0.3 * label.size * Double(label.characters) + 0.6 * label.size)
                }
                centres.append(Point(x: e.center.x + t.tx, y: e.center.y + t.ty))
            }
            if centres.isEmpty { continue }
            // What each end draws, exactly; between the ends a shape that does not turn stays
            // within the two, one that turns within its reach of the straight path.
            var ends = SVGLayoutWriter.DrawnBounds(labels: labels)
            for e in [element.initial, element.final] where opacity(e) > 0 { ends.add(e) }
            if let box = ends.bounds { union = union.union(box) }
            let turns = [element.initial, element.final].contains { $0.transform.b != 0 || $0.transform.c != 0 }
            guard turns else { continue }
            let start = centres[0], end = centres[centres.count - 1]
            union = union.union(Rect(minX: min(start.x, end.x) - reach, minY: min(start.y, end.y) - reach,
                                     maxX: max(start.x, end.x) + reach, maxY: max(start.y, end.y) + reach))
        }
        guard union.isFinite else { return content }
        let canvas = SVGLayoutWriter.outward(union, from: content, precision: options.precision)
        return canvas.isFinite ? canvas : content
    }

    // MARK: - Private

    /// Begin, duration and repetition of every animation of the document.
    private struct Timing {
        let duration: Double
        let repeats: Bool

        func append(to out: OutputBuffer) {
            out.append(" begin=\"0s\" dur=\"")
            out.append(number: repeats ? 2 * duration : duration)
            out.append(repeats ? "s\" repeatCount=\"indefinite\"" : "s\" fill=\"freeze\"")
        }

        /// `values="start;end"` (or `start;end;start`) and the timing, for numbers lists,
        /// when they differ; factors (opacity, scale, angles) at full precision, points at the
        /// output's.
        func animate(_ tag: StaticString, _ attribute: StaticString, type: StaticString? = nil,
                     _ start: [Double], _ end: [Double], factor: Bool = false, to out: OutputBuffer) {
            guard start != end else { return }
            appendAnimationStart(tag, attribute, type: type, to: out)
            func list(_ values: [Double]) {
                for (k, v) in values.enumerated() {
                    if k > 0 { out.append(byte: UInt8(ascii: " ")) }
                    if factor { out.append(number: v, precision: .full) } else { out.append(number: v) }
                }
            }
            list(start)
            out.append(byte: UInt8(ascii: ";"))
            list(end)
            if repeats {
                out.append(byte: UInt8(ascii: ";"))
                list(start)
            }
            out.append("\"")
            append(to: out)
            out.append("/>")
        }
    }

    /// How shapes look at either end.
    private struct Style {
        let fromRound: Bool
        let toRound: Bool
        let labels: SVGLabels
    }

    /// A discrete `<animate>` of `attribute` from `start` to `end` halfway through (and back at
    /// three quarters when repeating, as the zIndex layers switch).
    private static func appendSwitch(_ attribute: StaticString, _ start: String, _ end: String, timing: Timing,
                                     to out: OutputBuffer) {
        out.append("<animate attributeName=\"")
        out.append(attribute)
        out.append("\" calcMode=\"discrete\" values=\"")
        out.append(string: start)
        out.append(";")
        out.append(string: end)
        if timing.repeats {
            out.append(";")
            out.append(string: start)
            out.append("\" keyTimes=\"0;0.25;0.75\"")
        } else {
            out.append("\" keyTimes=\"0;0.5\"")
        }
        timing.append(to: out)
        out.append("/>")
    }


    /// The alpha drawn: 0 when hidden, else `SVGPaint.opacity`.
    private static func opacity(_ e: LayoutAttributes) -> Double { e.isHidden ? 0 : SVGPaint.opacity(e.alpha) }

    private static func cornerRadius(_ e: LayoutAttributes, round: Bool) -> Double {
        // Views other than badges square even when the engine draws round (unlike the
        // still and scrolling pictures, which round every shape then).
        guard e.category == .cell || e.kind?.role == .badge else { return 0 }
        return SVGPaint.cornerRadius(e, size: e.size, round: round) ?? 0
    }

    private static func appendElement(_ element: TransitionElement, style: Style, timing: Timing, to out: OutputBuffer) {
        let a = element.initial, b = element.final
        let ta = TransformComponents(decomposing: a.transform), tb = TransformComponents(decomposing: b.transform)
        let endRotation = ta.rotation + ta.rotationChange(to: tb)
        let position = (a.center.x + ta.tx, a.center.y + ta.ty, b.center.x + tb.tx, b.center.y + tb.ty)
        func animate(_ tag: StaticString, _ attribute: StaticString, type: StaticString? = nil,
                     _ start: [Double], _ end: [Double], factor: Bool = false) {
            timing.animate(tag, attribute, type: type, start, end, factor: factor, to: out)
        }

        out.append("<g class=\"")
        out.append(string: element.change.rawValue)
        out.append("\"")
        if opacity(b) < 1 {
            out.append(" opacity=\"")
            out.append(number: opacity(b), precision: .full)
            out.append("\"")
        }
        out.append(" transform=\"translate(")
        out.append(number: position.2)
        out.append(" ")
        out.append(number: position.3)
        out.append(")\">")
        animate("animate", "opacity", [opacity(a)], [opacity(b)], factor: true)
        animate("animateTransform", "transform", type: "translate", [position.0, position.1], [position.2, position.3])
        var groups = 0
        if ta.rotation != 0 || tb.rotation != 0 {
            appendTransformGroup("rotate", tb.rotation, to: out)
            animate("animateTransform", "transform", type: "rotate", [ta.rotation], [endRotation], factor: true)
            groups += 1
        }
        if ta.shear != 0 || tb.shear != 0 {
            appendTransformGroup("skewX", skewAngle(tb.shear), to: out)
            animate("animateTransform", "transform", type: "skewX", [skewAngle(ta.shear)], [skewAngle(tb.shear)], factor: true)
            groups += 1
        }
        if ta.scaleX != 1 || ta.scaleY != 1 || tb.scaleX != 1 || tb.scaleY != 1 {
            appendTransformGroup("scale", tb.scaleX, tb.scaleY, to: out)
            animate("animateTransform", "transform", type: "scale", [ta.scaleX, ta.scaleY], [tb.scaleX, tb.scaleY],
                    factor: true)
            groups += 1
        }
        let ra = cornerRadius(a, round: element.change == .appear ? style.toRound : style.fromRound)
        let rb = cornerRadius(b, round: element.change == .disappear ? style.fromRound : style.toRound)
        // The element's identity: its index path after the update (before it, when deleted).
        var identity = b
        identity.indexPath = element.toIndexPath ?? element.fromIndexPath ?? b.indexPath
        appendCentredRect(identity, size: b.size, to: out)
        // How it takes part: a deleted item and the one that takes its index path differ here.
        out.append("\" data-change=\"")
        out.append(string: element.change.rawValue)
        out.append("\" rx=\"")
        out.append(number: rb)
        // The start shows the old index path's number and colour, the end the new one's; they
        // switch halfway (a deleted item keeps its old ones, an inserted item has its new ones).
        let oldPath = element.fromIndexPath ?? element.toIndexPath ?? b.indexPath
        let newPath = element.toIndexPath ?? element.fromIndexPath ?? b.indexPath
        let oldFill = SVGPaint.fill(item: oldPath.item).description, newFill = SVGPaint.fill(item: newPath.item).description
        let isCell = b.category == .cell
        out.append("\" fill=\"")
        out.append(isCell ? SVGPaint.fill(item: newPath.item) : SVGPaint.viewPaint(b.kind))
        out.append("\">")
        if isCell && oldFill != newFill { appendSwitch("fill", oldFill, newFill, timing: timing, to: out) }
        animate("animate", "x", [-a.size.width / 2], [-b.size.width / 2])
        animate("animate", "y", [-a.size.height / 2], [-b.size.height / 2])
        animate("animate", "width", [a.size.width], [b.size.width])
        animate("animate", "height", [a.size.height], [b.size.height])
        animate("animate", "rx", [ra], [rb])
        out.append("</rect>")
        appendLabels(element, oldPath: oldPath, newPath: newPath, style: style, timing: timing, to: out)
        for _ in 0..<groups { out.append("</g>") }
        out.append("</g>\n")
    }

    /// The element's label, sized as a layout's SVG sizes it at each end, its size animated
    /// between them; the old index path's text and colour until halfway, then the new's.
    private static func appendLabels(_ element: TransitionElement, oldPath: IndexPath, newPath: IndexPath, style: Style,
                                     timing: Timing, to out: OutputBuffer) {
        let a = element.initial, b = element.final, isCell = b.category == .cell
        let startLabel = SVGElementWriter.label(a, style.labels), endLabel = SVGElementWriter.label(b, style.labels)
        if let label = endLabel ?? startLabel {
            let startSize = startLabel?.size ?? label.size
            func text(_ path: IndexPath) -> String {
                guard isCell else { return "\(b.kind?.rawValue ?? b.category.rawValue) \(path.section)" }
                return style.labels == .indexPath ? "\(path.section):\(path.item)" : "\(path.item)"
            }
            // The label fades with its shape (one group), so its colour is the one at alpha 1.
            func colour(_ path: IndexPath) -> String {
                isCell ? SVGPaint.cellLabelColour(item: path.item).description : SVGPaint.viewLabelColour
            }
            let changes = text(oldPath) != text(newPath) || colour(oldPath) != colour(newPath)
            for (path, isOld) in changes ? [(oldPath, true), (newPath, false)] : [(newPath, false)] {
                appendCentredTextStart(size: label.size, to: out)
                out.append(string: colour(path))
                out.append(isOld ? "\" visibility=\"hidden\">" : "\">")
                if changes {
                    appendSwitch("visibility", isOld ? "visible" : "hidden", isOld ? "hidden" : "visible",
                                 timing: timing, to: out)
                }
                timing.animate("animate", "font-size", [startSize], [label.size], to: out)
                timing.animate("animate", "y", [startSize * 0.35], [label.size * 0.35], to: out)
                appendXMLText(text(path), to: out)
                out.append("</text>")
            }
        }
    }
}

/// A shear factor as `skewX`'s angle, degrees.
func skewAngle(_ shear: Double) -> Double { atan(shear) * 180 / Double.pi }

extension LayoutTransition {
    /// The larger content size of the two ends, from the origin (the canvas `.content`).
    var contentRect: Rect {
        Rect(x: 0, y: 0, width: max(from.contentSize.width, to.contentSize.width),
             height: max(from.contentSize.height, to.contentSize.height))
    }
}
