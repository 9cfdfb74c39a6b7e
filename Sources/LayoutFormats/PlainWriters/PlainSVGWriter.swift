import LayoutCore

// The plain still SVG: the specification `SVGLayoutWriter` (and the streamed SVG of
// `LayoutPipeline`) must write byte for byte. See PlainLayoutWriter.swift.

extension PlainLayoutWriter {
    /// The SVG document of the selected elements of `layout`: the canvas (`options.canvas`),
    /// one group per visible element in zIndex order (ties by element order), the visible
    /// bounds, the query rect, and a ring's heart path and heart.
    public static func svg(_ layout: CollectionLayout, selection: [Int]?, options: OutputOptions) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: options.precision) }
        let labels = SVGLabels.resolved(options.labels, for: layout)
        let visible = selected(layout, selection).filter { !$0.element.isHidden }
        let canvas = svgCanvas(layout, drawn: visible.map(\.element), labels: labels, options: options)
        let width = max(canvas.width, 1), height = max(canvas.height, 1)
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(n(width))\" height=\"\(n(height))\" "
            + "viewBox=\"\(n(canvas.minX)) \(n(canvas.minY)) \(n(width)) \(n(height))\">\n"
            + "<title>\(xmlText("cvlayout " + layout.engine))</title>\n"
            + "<rect x=\"\(n(canvas.minX))\" y=\"\(n(canvas.minY))\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"#ffffff\"/>\n"
        let drawingOrder = visible.sorted { l, r in
            l.element.zIndex < r.element.zIndex || (l.element.zIndex == r.element.zIndex && l.position < r.position)
        }
        for (_, e) in drawingOrder {
            text += svgGroup(e, round: layout.drawsCellsRound, labels: labels, precision: options.precision)
        }
        let b = layout.bounds, o = layout.contentOffset
        text += "<rect class=\"visible-bounds\" x=\"\(n(o.x))\" y=\"\(n(o.y))\" width=\"\(n(b.width))\" height=\"\(n(b.height))\" "
            + "fill=\"none\" stroke=\"#d62728\" stroke-width=\"1\" stroke-dasharray=\"6 3\"/>\n"
        if let r = options.queryRect {
            text += "<rect class=\"query-rect\" x=\"\(n(r.minX))\" y=\"\(n(r.minY))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" "
                + "fill=\"#1f77b4\" fill-opacity=\"0.08\" stroke=\"#1f77b4\" stroke-width=\"1\"/>\n"
        }
        if let heart = layout.heartPath {
            text += "<path class=\"heart-path\" d=\"\(pathData(heart, from: .zero, options.precision))\" fill=\"none\" "
                + "stroke=\"#808080\" stroke-width=\"2\" stroke-dasharray=\"4 4\" stroke-linecap=\"square\" stroke-linejoin=\"round\"/>\n"
                + "<g class=\"heart\" transform=\"translate(\(n(heart.start.x)) \(n(heart.start.y)))\">\n"
                + "<g><animateMotion dur=\"2s\" begin=\"0s\" rotate=\"auto\" fill=\"freeze\" "
                + "path=\"\(pathData(heart, from: heart.start, options.precision))\"/>\n"
                + "<g><animateTransform attributeName=\"transform\" type=\"scale\" values=\"0.6;1;1.2;1;0.6\" dur=\"1.5s\" "
                + "repeatCount=\"indefinite\"/>\n<path d=\"\(SVGLayoutWriter.heartShape)\" fill=\"#e0245e\" stroke=\"#ffffff\" "
                + "stroke-width=\"1\"/></g>\n</g>\n</g>\n"
        }
        return text + "</svg>\n"
    }

    /// One element's group: its rectangle (transform about its centre, opacity, paint) and
    /// its label.
    static func svgGroup(_ e: LayoutAttributes, round: Bool, labels: SVGLabels, precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        func factor(_ value: Double) -> String { PlainNumberText.string(value, precision: .full) }
        let f = e.frame, t = e.transform, isCell = e.category == .cell
        var text = "<g><rect data-index-path=\"\(e.indexPath.section):\(e.indexPath.item)\""
        if !isCell { text += " data-kind=\"\(e.kind?.rawValue ?? e.category.rawValue)\"" }
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
        if e.alpha < 1 { text += " opacity=\"\(factor(max(0, e.alpha)))\"" }
        text += " x=\"\(n(f.minX))\" y=\"\(n(f.minY))\" width=\"\(n(f.width))\" height=\"\(n(f.height))"
        if round {
            text += "\" rx=\"\(n(f.width / 2))"
        } else if isCell {
            text += "\" rx=\"\(n(min(4, f.width / 4, f.height / 4)))"
        }
        if isCell {
            text += "\" fill=\"\(SVGLayoutWriter.palette[e.indexPath.item % 10])\"/>"
        } else if e.kind == .badge {
            text += "\" rx=\"\(n(min(f.width, f.height) / 2))\" fill=\"#d62728\" stroke=\"#ffffff\" stroke-width=\"1\"/>"
        } else if e.kind == .background {
            text += "\" fill=\"#eef2f8\" stroke=\"#8da2c0\" stroke-width=\"1\" stroke-dasharray=\"3 2\"/>"
        } else {
            text += "\" fill=\"#dddddd\" stroke=\"#888888\" stroke-width=\"0.5\"/>"
        }
        if let label = svgLabel(e, labels) {
            // Upright and at full opacity, centred on the drawn centre.
            let colour = !isCell ? "#333333" : e.indexPath.item % 10 == 0 && e.alpha >= 0.954 ? "#ffffff" : "#1a1a1a"
            text += "<text x=\"\(n(f.midX + t.tx))\" y=\"\(n(f.midY + t.ty + label.size * 0.35))\" font-family=\"sans-serif\" "
                + "font-size=\"\(n(label.size))\" text-anchor=\"middle\" fill=\"\(colour)\">\(label.text)</text>"
        }
        return text + "</g>\n"
    }

    /// An element's label with `labels`, and its font size: none for `.none`, an element
    /// drawn fully transparent or a frame under 4 points either way; otherwise
    /// `max(4, min(14, 0.45·min(width, height), width / (0.6·characters)))`.
    static func svgLabel(_ e: LayoutAttributes, _ labels: SVGLabels) -> (text: String, size: Double)? {
        let f = e.frame
        guard labels != .none && f.width >= 4 && f.height >= 4 && e.alpha > 0 else { return nil }
        let path = e.indexPath
        let text = e.category != .cell ? "\(e.kind?.rawValue ?? e.category.rawValue) \(path.section)"
            : labels == .indexPath ? "\(path.section):\(path.item)" : "\(path.item)"
        return (text, max(4, min(14, min(f.width, f.height) * 0.45, f.width / (0.6 * Double(text.count)))))
    }

    /// The viewBox: the content rect, the visible bounds, the query rect, or (`.all`) the
    /// union of the content rect, what `drawn` draws (frames under their transforms, labels)
    /// and the heart's reach about its path, its edges past the content's rounded outward.
    static func svgCanvas(_ layout: CollectionLayout, drawn: [LayoutAttributes], labels: SVGLabels,
                          options: OutputOptions) -> Rect {
        let content = Rect(x: 0, y: 0, width: layout.contentSize.width, height: layout.contentSize.height)
        switch options.canvas {
        case .content: return content
        case .visible:
            return Rect(x: layout.contentOffset.x, y: layout.contentOffset.y, width: layout.bounds.width, height: layout.bounds.height)
        case .rect: return options.queryRect ?? content
        case .all: break
        }
        var union = content
        if !drawn.isEmpty {
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for e in drawn {
                let f = e.frame, t = e.transform
                let cx = f.midX + t.tx, cy = f.midY + t.ty
                let hw = f.width / 2, hh = f.height / 2
                var rx = abs(t.a) * hw + abs(t.c) * hh, ry = abs(t.b) * hw + abs(t.d) * hh
                if let label = svgLabel(e, labels) {
                    // About 0.6 em a character wide and 1.2 em high, centred.
                    rx = max(rx, 0.3 * label.size * Double(label.text.count))
                    ry = max(ry, 0.6 * label.size)
                }
                minX = min(minX, cx - rx)
                minY = min(minY, cy - ry)
                maxX = max(maxX, cx + rx)
                maxY = max(maxY, cy + ry)
            }
            union = union.union(Rect(minX: minX, minY: minY, maxX: maxX, maxY: maxY))
        }
        if let heart = layout.heartPath {
            let points = [heart.start] + heart.segments.flatMap { [$0.control1, $0.control2, $0.end] }
            let reach = SVGLayoutWriter.heartReach
            union = union.union(Rect(minX: points.map(\.x).min()! - reach, minY: points.map(\.y).min()! - reach,
                                     maxX: points.map(\.x).max()! + reach, maxY: points.map(\.y).max()! + reach))
        }
        // An edge that prints past the content's goes out to a whole point.
        func printed(_ v: Double) -> Double {
            guard case .decimals(let p) = options.precision else { return v }
            let unit = (0..<p).reduce(1.0) { product, _ in product * 10 }
            let rounded = (v * unit).rounded(.toNearestOrAwayFromZero) / unit
            return rounded.isFinite ? rounded : v
        }
        let canvas = Rect(minX: printed(union.minX) < content.minX ? union.minX.rounded(.down) : content.minX,
                          minY: printed(union.minY) < content.minY ? union.minY.rounded(.down) : content.minY,
                          maxX: printed(union.maxX) > content.maxX ? union.maxX.rounded(.up) : content.maxX,
                          maxY: printed(union.maxY) > content.maxY ? union.maxY.rounded(.up) : content.maxY)
        return canvas.isFinite ? canvas : content  // a union too wide for a double: the content
    }

    /// `text` with XML's special characters escaped and control characters as `?`.
    static func xmlText(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20: escaped += "?"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
