import LayoutCore
import FastText

// The plain still SVG: what `SVGLayoutWriter` must write byte for byte, one rule a function.

extension PlainLayoutWriter {
    /// The SVG document of the selected elements of `layout`: the canvas (`options.canvas`),
    /// one group per visible element in zIndex order (ties by element order), then `svgEnd`.
    public static func svg(_ layout: CollectionLayout, selection: [Int]?, options: OutputOptions) -> String {
        let labels = SVGLabels.resolved(options.labels, numberOfSections: layout.numberOfSections)
        let visible = selected(layout, selection).filter { !$0.element.isHidden }
        let drawn = visible.isEmpty ? nil : svgUnion(visible.map { svgDrawnBox($0.element, labels) })
        let canvas = SVGLayoutWriter.canvas(layout, options: options, drawn: drawn)
        var text = svgDocumentStart(canvas: canvas, title: "cvlayout " + layout.engine, precision: options.precision)
        let drawingOrder = visible.sorted { l, r in
            l.element.zIndex < r.element.zIndex || (l.element.zIndex == r.element.zIndex && l.position < r.position)
        }
        // Labels the visible bounds' outline would cross (`SVGLabelsAboveOutline.crosses`) go above it.
        let outline = SVGLabelsAboveOutline(outline: layout.visibleRect)
        var labelsAboveOutline: [LayoutAttributes] = []
        for (_, e) in drawingOrder {
            let label = svgLabel(e, labels)
            let above = label.map { outline.crosses(e, ($0.text.count, $0.size)) } ?? false
            if above { labelsAboveOutline.append(e) }
            // One group: the shape and, unless above the outline, the label.
            text += "<g>" + svgShape(e, round: layout.drawsCellsRound, precision: options.precision)
                + (above ? "" : label.map { svgLabelText(e, $0, halo: false, precision: options.precision) } ?? "") + "</g>\n"
        }
        return text + svgEnd(layout, labelsAboveOutline: labelsAboveOutline, labels: labels, options: options,
                             precision: options.precision)
    }

    /// The document's end: the visible bounds' outline, the query rect, the labels the
    /// outline crosses (`svgLabelsAboveOutline`), a ring's heart (`svgHeart`), `</svg>`.
    static func svgEnd(_ layout: CollectionLayout, labelsAboveOutline: [LayoutAttributes], labels: SVGLabels,
                       options: OutputOptions, precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        var text = svgVisibleBounds(layout.visibleRect, precision: precision) + "/>\n"
        if let r = options.queryRect {
            text += "<rect class=\"query-rect\" x=\"\(n(r.minX))\" y=\"\(n(r.minY))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" "
                + "fill=\"#1f77b4\" fill-opacity=\"0.08\" stroke=\"#1f77b4\" stroke-width=\"1\"/>\n"
        }
        text += svgLabelsAboveOutline(labelsAboveOutline, labels: labels, precision: precision)
        return text + (layout.heartPath.map { svgHeart($0, precision: precision) } ?? "") + "</svg>\n"
    }

    /// The visible bounds' dashed red outline, open (closed by `/>` or `>` and animations).
    static func svgVisibleBounds(_ rect: Rect, precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        return "<rect class=\"visible-bounds\" x=\"\(n(rect.minX))\" y=\"\(n(rect.minY))\" width=\"\(n(rect.width))\" "
            + "height=\"\(n(rect.height))\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1\" stroke-dasharray=\"6 3\""
    }

    /// The XML declaration, `<svg>` sized and viewBoxed to `canvas` (at least 1 point each way:
    /// a zero size does not render), the `<title>`, a white background (`background`, else `canvas`).
    static func svgDocumentStart(canvas: Rect, title: String, background: Rect? = nil, precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        let width = max(canvas.width, 1), height = max(canvas.height, 1)
        let area = background ?? canvas
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(n(width))\" height=\"\(n(height))\" "
            + "viewBox=\"\(n(canvas.minX)) \(n(canvas.minY)) \(n(width)) \(n(height))\">\n"
            + "<title>\(xmlText(title))</title>\n"
            + "<rect x=\"\(n(area.minX))\" y=\"\(n(area.minY))\" width=\"\(n(max(area.width, 1)))\" "
            + "height=\"\(n(max(area.height, 1)))\" fill=\"#ffffff\"/>\n"
    }

    /// An element's rectangle: index path (and kind for a view), transform about its centre,
    /// opacity, frame, corners (`SVGPaint.cornerRadius`) and paint (`svgPaint`).
    static func svgShape(_ e: LayoutAttributes, round: Bool, precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        func factor(_ value: Double) -> String { PlainNumberText.string(value, precision: .full) }
        let f = e.frame, t = e.transform, isCell = e.category == .cell
        var text = "<rect data-index-path=\"\(e.indexPath.section):\(e.indexPath.item)\""
        if !isCell { text += " data-kind=\"\(svgKindName(e))\"" }
        if t != .identity {
            // T(centre) · M · T(−centre) as one matrix, or as the three when its translation
            // would not be finite. The linear part at full precision: factors, not points.
            let cx = f.midX, cy = f.midY
            let tx = cx + t.tx - t.a * cx - t.c * cy, ty = cy + t.ty - t.b * cx - t.d * cy
            let linear = [t.a, t.b, t.c, t.d].map(factor).joined(separator: " ")
            text += tx.isFinite && ty.isFinite
                ? " transform=\"matrix(\(linear) \(n(tx)) \(n(ty)))\""
                : " transform=\"translate(\(n(cx)) \(n(cy))) matrix(\(linear) \(n(t.tx)) \(n(t.ty))) translate(\(n(-cx)) \(n(-cy)))\""
        }
        if e.alpha < 1 { text += " opacity=\"\(factor(SVGPaint.opacity(e.alpha)))\"" }
        text += " x=\"\(n(f.minX))\" y=\"\(n(f.minY))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\""
        if let rx = SVGPaint.cornerRadius(e, size: f.size, round: round) { text += " rx=\"\(n(rx))\"" }
        return text + svgPaint(e) + "/>"
    }

    /// ` fill="…"`: a cell's palette colour by item number, a view's paint by its kind's role.
    static func svgPaint(_ e: LayoutAttributes) -> String {
        " fill=\"\(e.category == .cell ? SVGPaint.fill(item: e.indexPath.item) : SVGPaint.viewPaint(e.kind))\""
    }

    /// A view's kind name, or its category's when it has none.
    static func svgKindName(_ e: LayoutAttributes) -> String {
        e.kind?.rawValue ?? e.category.rawValue
    }

    /// A label, upright and opaque on the drawn centre; with `halo` (above the outline), a
    /// stroke of its shape's fill, as faded, hides the outline's dashes under the glyphs.
    static func svgLabelText(_ e: LayoutAttributes, _ label: (text: String, size: Double), halo: Bool,
                             precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        let f = e.frame, t = e.transform
        var text = "<text x=\"\(n(f.midX + t.tx))\" y=\"\(n(f.midY + t.ty + label.size * 0.35))\" font-family=\"sans-serif\" "
            + "font-size=\"\(n(label.size))\" text-anchor=\"middle\""
        if halo {
            text += " stroke=\"\(SVGPaint.haloColour(e))\""
            if e.alpha < 1 { text += " stroke-opacity=\"\(PlainNumberText.string(SVGPaint.opacity(e.alpha), precision: .full))\"" }
            text += " stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\""
        }
        return text + " fill=\"\(SVGPaint.labelColour(e))\">\(label.text)</text>"
    }

    /// An element's label (`svgLabelWords`) and font size, from the frame before its transform:
    /// `max(4, min(14, 0.45·min(width, height), width / (0.6·characters)))`, a cell 20 points or
    /// more on its smaller side at least `min(10, width / em)` (`em` its advance in sans-serif:
    /// 0.56 em a digit, 0.28 em a colon). None for `.none`, a frame under 4 points either way,
    /// an alpha ≤ 0, a decoration (its section's cells would cover it), or a view whose label
    /// fits only under 4 points (it would spill out).
    static func svgLabel(_ e: LayoutAttributes, _ labels: SVGLabels) -> (text: String, size: Double)? {
        let f = e.frame
        guard labels != .none && f.width >= 4 && f.height >= 4 && e.alpha > 0 && e.kind?.role != .decoration else { return nil }
        let text = svgLabelWords(e, path: e.indexPath, labels: labels)
        var size = min(14, min(f.width, f.height) * 0.45, f.width / (0.6 * Double(text.count)))
        if e.category != .cell && size < 4 { return nil }
        if size < 10 && e.category == .cell && min(f.width, f.height) >= 20 {
            let colons = labels == .indexPath ? 1 : 0
            size = max(size, min(10, f.width / (0.56 * Double(text.count - colons) + 0.28 * Double(colons))))
        }
        return (text, max(4, size))
    }

    /// The words of `e`'s label at `path`: a cell's item number, or `S:I` with `.indexPath`;
    /// a view's kind name (`svgKindName`) and section.
    static func svgLabelWords(_ e: LayoutAttributes, path: IndexPath, labels: SVGLabels) -> String {
        e.category != .cell ? "\(svgKindName(e)) \(path.section)" : labels == .indexPath ? "\(path.section):\(path.item)" : "\(path.item)"
    }

    /// The labels the outline crosses, with halos, by index path, category and kind name.
    static func svgLabelsAboveOutline(_ elements: [LayoutAttributes], labels: SVGLabels, precision: NumberPrecision) -> String {
        let sorted = elements.sorted { a, b in
            (a.indexPath.section, a.indexPath.item, a.category.rawValue, a.kind?.rawValue ?? "")
                < (b.indexPath.section, b.indexPath.item, b.category.rawValue, b.kind?.rawValue ?? "")
        }
        return sorted.compactMap { e in svgLabel(e, labels).map { svgLabelText(e, $0, halo: true, precision: precision) + "\n" } }
            .joined()
    }

    /// The ring's dashed heart path and the heart: placed at the start (outer group), flying
    /// the path in 2 s (middle), pulsing (inner); a near-black outline under the filled one.
    static func svgHeart(_ heart: HeartPath, precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        let shape = SVGLayoutWriter.heartShape
        return "<path class=\"heart-path\" d=\"\(pathData(heart, from: .zero, precision))\" fill=\"none\" "
            + "stroke=\"#808080\" stroke-width=\"2\" stroke-dasharray=\"4 4\" stroke-linecap=\"square\" stroke-linejoin=\"round\"/>\n"
            + "<g class=\"heart\" transform=\"translate(\(n(heart.start.x)) \(n(heart.start.y)))\">\n"
            + "<g><animateMotion dur=\"2s\" begin=\"0s\" rotate=\"auto\" fill=\"freeze\" "
            + "path=\"\(pathData(heart, from: heart.start, precision))\"/>\n"
            + "<g><animateTransform attributeName=\"transform\" type=\"scale\" values=\"0.6;1;1.2;1;0.6\" dur=\"1.5s\" "
            + "repeatCount=\"indefinite\"/>\n"
            + "<path d=\"\(shape)\" fill=\"none\" stroke=\"#1a1a1a\" stroke-width=\"3.5\" stroke-linejoin=\"round\"/>\n"
            + "<path d=\"\(shape)\" fill=\"#e0245e\" stroke=\"#ffffff\" stroke-width=\"1.25\" stroke-linejoin=\"round\"/></g>\n"
            + "</g>\n</g>\n"
    }

    /// The box `e` draws: its transformed frame and its label's (0.6 em a character by 1.2 em).
    static func svgDrawnBox(_ e: LayoutAttributes, _ labels: SVGLabels) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let f = e.frame, t = e.transform
        let cx = f.midX + t.tx, cy = f.midY + t.ty
        let hw = f.width / 2, hh = f.height / 2
        var rx = abs(t.a) * hw + abs(t.c) * hh, ry = abs(t.b) * hw + abs(t.d) * hh
        if let label = svgLabel(e, labels) {
            rx = max(rx, 0.3 * label.size * Double(label.text.count))
            ry = max(ry, 0.6 * label.size)
        }
        return (cx - rx, cy - ry, cx + rx, cy + ry)
    }

    /// The smallest rect holding every box of `boxes` (not empty).
    static func svgUnion(_ boxes: [(minX: Double, minY: Double, maxX: Double, maxY: Double)]) -> Rect {
        Rect(minX: boxes.map(\.minX).min()!, minY: boxes.map(\.minY).min()!, maxX: boxes.map(\.maxX).max()!,
             maxY: boxes.map(\.maxY).max()!)
    }

    /// `text` with XML's special characters escaped and control characters as `?`.
    static func xmlText(_ text: String) -> String {
        escaped(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            case "\t", "\n", "\r": nil
            case _ where scalar.value < 0x20: "?"
            default: nil
            }
        }
    }
}
