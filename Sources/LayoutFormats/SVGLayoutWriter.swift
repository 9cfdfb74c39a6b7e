import LayoutCore

/// SPEC section 4's SVG: a standalone SVG 1.1 document the size of the content, one shape per
/// visible element in zIndex order (ties by element order), its transform and alpha applied,
/// filled from a fixed palette by item number and labelled with it; the visible bounds at
/// the content offset outlined (and the `--rect` area when given); for ring layouts the
/// dashed heart path and a heart that flies along it and pulses (SPEC section 7).
public enum SVGLayoutWriter {
    /// Fill colours, chosen by item number modulo the count.
    public static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                 "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]

    /// A heart about 22 × 20 points centred on the origin, pointing down.
    static let heartShape = "M 0 8 C -4 5 -11 0 -11 -5 C -11 -9 -8 -11 -5.5 -11 C -3 -11 -1 -9.5 0 -7.5 "
        + "C 1 -9.5 3 -11 5.5 -11 C 8 -11 11 -9 11 -5 C 11 0 4 5 0 8 Z"

    /// Writes the SVG document for the selected elements of `layout` to `out`.
    /// - Complexity: O(k log k) for k selected elements (the zIndex sort).
    public static func write(_ layout: CollectionLayout, selection: [Int]?, options: OutputOptions,
                             to out: OutputBuffer) throws {
        appendDocumentStart(width: layout.contentSize.width, height: layout.contentSize.height,
                            title: "cvlayout " + layout.engine, to: out)

        var order: [Int] = []
        forEachSelected(layout, selection) { element, i in
            if !element.isHidden { order.append(i) }
        }
        // Stable by zIndex; element order breaks ties.
        order.sort { (l, r) in
            let a = layout.elements[l].zIndex, b = layout.elements[r].zIndex
            return a < b || (a == b && l < r)
        }
        let round = layout.engine == "ring" || layout.engine == "circle"
        for i in order {
            appendElement(layout.elements[i], round: round, labels: options.labels, to: out)
            try out.flushIfFull()
        }

        out.append("<rect class=\"visible-bounds\" x=\"")
        out.append(number: layout.contentOffset.x)
        out.append("\" y=\"")
        out.append(number: layout.contentOffset.y)
        out.append("\" width=\"")
        out.append(number: layout.bounds.width)
        out.append("\" height=\"")
        out.append(number: layout.bounds.height)
        out.append("\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1\" stroke-dasharray=\"6 3\"/>\n")
        if let rect = options.queryRect {
            out.append("<rect class=\"query-rect\" x=\"")
            out.append(number: rect.minX)
            out.append("\" y=\"")
            out.append(number: rect.minY)
            out.append("\" width=\"")
            out.append(number: rect.width)
            out.append("\" height=\"")
            out.append(number: rect.height)
            out.append("\" fill=\"#1f77b4\" fill-opacity=\"0.08\" stroke=\"#1f77b4\" stroke-width=\"1\"/>\n")
        }
        if let heart = layout.heartPath {
            appendHeart(heart, to: out)
        }
        out.append("</svg>\n")
    }

    private static func appendElement(_ e: LayoutAttributes, round: Bool, labels: Bool, to out: OutputBuffer) {
        let f = e.frame
        let t = e.transform
        out.append("<g")
        if t != .identity {
            // The transform applies about the centre: T(c) · M · T(−c).
            let c = f.center
            out.append(" transform=\"matrix(")
            for (k, v) in [t.a, t.b, t.c, t.d,
                           c.x + t.tx - t.a * c.x - t.c * c.y,
                           c.y + t.ty - t.b * c.x - t.d * c.y].enumerated() {
                if k > 0 { out.append(" ") }
                out.append(number: v)
            }
            out.append(")\"")
        }
        if e.alpha < 1 {
            out.append(" opacity=\"")
            out.append(number: max(0, e.alpha))
            out.append("\"")
        }
        out.append("><rect x=\"")
        out.append(number: f.minX)
        out.append("\" y=\"")
        out.append(number: f.minY)
        out.append("\" width=\"")
        out.append(number: f.width)
        out.append("\" height=\"")
        out.append(number: f.height)
        if round {
            out.append("\" rx=\"")
            out.append(number: f.width / 2)
        } else if e.category == .cell {
            out.append("\" rx=\"")
            out.append(number: min(4, f.width / 4, f.height / 4))
        }
        out.append("\" fill=\"")
        if e.category == .cell {
            out.append(string: palette[e.indexPath.item % palette.count])
            out.append("\"/>")
        } else {
            out.append("#dddddd\" stroke=\"#888888\" stroke-width=\"0.5\"/>")
        }
        if labels && f.width >= 4 && f.height >= 4 {
            let size = max(4, min(14, min(f.width, f.height) * 0.45))
            out.append("<text x=\"")
            out.append(number: f.midX)
            out.append("\" y=\"")
            out.append(number: f.midY + size * 0.35)
            out.append("\" font-family=\"sans-serif\" font-size=\"")
            out.append(number: size)
            out.append("\" text-anchor=\"middle\" fill=\"")
            out.append(e.category == .cell ? "#ffffff" as StaticString : "#333333")
            out.append("\">")
            if e.category == .cell {
                out.append(integer: e.indexPath.item)
            } else {
                appendXMLText(e.kind?.rawValue ?? e.category.rawValue, to: out)
                out.append(" ")
                out.append(integer: e.indexPath.section)
            }
            out.append("</text>")
        }
        out.append("</g>\n")
    }

    /// The dashed path (seed 000: grey, width 2, dash 4 4, square caps, round joins) and the
    /// heart: at rest on the start avatar, flying along the path in 2 s with `rotate="auto"`,
    /// frozen at the end, pulsing 0.6 → 1 → 1.2 → 1 → 0.6 every 1.5 s.
    private static func appendHeart(_ heart: HeartPath, to out: OutputBuffer) {
        out.append("<path class=\"heart-path\" d=\"")
        appendPathData(heart, relativeTo: .zero, to: out)
        out.append("\" fill=\"none\" stroke=\"#808080\" stroke-width=\"2\" stroke-dasharray=\"4 4\" ")
        out.append("stroke-linecap=\"square\" stroke-linejoin=\"round\"/>\n")
        // The motion path is relative to the resting place, so renderers without animation
        // show the heart on the start avatar and animated ones move it from there.
        out.append("<g class=\"heart\" transform=\"translate(")
        out.append(number: heart.start.x)
        out.append(" ")
        out.append(number: heart.start.y)
        out.append(")\">\n<animateMotion dur=\"2s\" begin=\"0s\" rotate=\"auto\" fill=\"freeze\" path=\"")
        appendPathData(heart, relativeTo: heart.start, to: out)
        out.append("\"/>\n<g><animateTransform attributeName=\"transform\" type=\"scale\" ")
        out.append("values=\"0.6;1;1.2;1;0.6\" dur=\"1.5s\" repeatCount=\"indefinite\"/>\n")
        out.append("<path d=\"")
        out.append(string: heartShape)
        out.append("\" fill=\"#e0245e\" stroke=\"#ffffff\" stroke-width=\"1\"/></g>\n</g>\n")
    }
}

/// The XML declaration, the `<svg>` element of `width` × `height` points (at least 1 each
/// way: a zero-sized canvas does not render) with its viewBox, a title and a white
/// background. The caller closes the document with `</svg>`.
func appendDocumentStart(width: Double, height: Double, title: String, to out: OutputBuffer) {
    let width = max(width, 1), height = max(height, 1)
    out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"")
    out.append(number: width)
    out.append("\" height=\"")
    out.append(number: height)
    out.append("\" viewBox=\"0 0 ")
    out.append(number: width)
    out.append(" ")
    out.append(number: height)
    out.append("\">\n<title>")
    appendXMLText(title, to: out)
    out.append("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n")
}

/// Appends `text` with XML's special characters escaped; control characters, which XML 1.0
/// cannot carry, become `?`.
func appendXMLText(_ text: String, to out: OutputBuffer) {
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "&"): out.append("&amp;")
        case UInt8(ascii: "<"): out.append("&lt;")
        case UInt8(ascii: ">"): out.append("&gt;")
        case UInt8(ascii: "\""): out.append("&quot;")
        case UInt8(ascii: "'"): out.append("&apos;")
        case 0..<0x20 where byte != 0x09 && byte != 0x0A && byte != 0x0D: out.append("?")
        default: out.append(byte: byte)
        }
    }
}
