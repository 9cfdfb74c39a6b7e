import LayoutCore
import FastText

/// The JSON of docs/REFERENCE.md, "JSON": one object, the geometry, then each element on a
/// line of its own (readable golden-file diffs), keys in the documented order.
public enum JSONLayoutWriter {
    /// Writes `layout` (only the elements at `selection` when given) to `out`.
    /// - Complexity: O(selected elements); no allocation per element.
    public static func write(_ layout: CollectionLayout, selection: [Int]?, to out: OutputBuffer) throws {
        appendStart(layout, to: out)
        try appendSelected(layout, selection, to: out) { element, buffer, position in
            appendElementLine(element, position: position, to: buffer)
        }
        appendEnd(layout, to: out)
    }

    /// Everything before the first element.
    package static func appendStart(_ layout: CollectionLayout, to out: OutputBuffer) {
        out.append("{\"engine\":")
        appendJSONString(layout.engine, to: out)
        appendGeometry(bounds: layout.bounds, contentOffset: layout.contentOffset, contentSize: layout.contentSize, to: out)
    }

    /// `,"bounds":{…},"contentOffset":{…},\n"contentSize":{…},\n"elements":[` (a layout's or a transition's).
    static func appendGeometry(bounds: Size, contentOffset: Point, contentSize: Size, to out: OutputBuffer) {
        out.append(",\"bounds\":")
        appendSize(bounds, to: out)
        out.append(",\"contentOffset\":")
        appendPoint(contentOffset, to: out)
        out.append(",\n\"contentSize\":")
        appendSize(contentSize, to: out)
        out.append(",\n\"elements\":[")
    }

    /// The element written `position`-th, on its own line.
    @inline(__always)
    static func appendElementLine(_ element: LayoutAttributes, position: Int, to out: OutputBuffer) {
        if position == 0 { out.append("\n") } else { out.append(",\n") }  // constant lengths: no memcpy call
        appendElement(element, to: out)
    }

    /// Everything after the last element.
    package static func appendEnd(_ layout: CollectionLayout, to out: OutputBuffer) {
        out.append("\n]")
        if let heart = layout.heartPath {
            out.append(",\n\"heartPath\":")
            appendHeartPath(heart, to: out)
        }
        if let samples = layout.heartSamples {
            appendHeartSamples(samples, to: out)
        }
        if let target = layout.targetContentOffset {
            out.append(layout.heartPath == nil && layout.heartSamples == nil
                       ? ",\n\"targetContentOffset\":" as StaticString : ",\"targetContentOffset\":")
            appendPoint(target, to: out)
        }
        if let statistics = layout.statistics {
            // `"stats":{"rows":12,…}` on a line of its own.
            out.append(",\n\"stats\":{")
            for (k, entry) in statistics.enumerated() {
                if k > 0 { out.append(byte: UInt8(ascii: ",")) }
                out.append(byte: UInt8(ascii: "\""))
                out.append(string: entry.name)
                out.append("\":")
                out.append(number: entry.value)
            }
            out.append(byte: UInt8(ascii: "}"))
        }
        out.append("}\n")
    }

    @inline(__always)
    static func appendElement(_ e: LayoutAttributes, to out: OutputBuffer, closing: Bool = true) {
        var w = out.cursor(reserving: OutputBuffer.elementBound)
        w.append("{\"indexPath\":[")
        w.append(integer: e.indexPath.section)
        w.append(byte: UInt8(ascii: ","))
        w.append(integer: e.indexPath.item)
        switch e.category {
        case .cell: w.append("],\"category\":\"cell\"")
        case .supplementaryView: w.append("],\"category\":\"supplementaryView\"")
        case .decorationView: w.append("],\"category\":\"decorationView\"")
        }
        if let kind = e.kind {
            switch kind {
            case .header: w.append(",\"kind\":\"header\"")
            case .footer: w.append(",\"kind\":\"footer\"")
            case .badge: w.append(",\"kind\":\"badge\"")
            case .background: w.append(",\"kind\":\"background\"")
            default:  // a valid kind name needs no escaping (`ElementKind.isValidName`)
                w.append(",\"kind\":\"")
                w.append(string: kind.rawValue)
                w.append(byte: UInt8(ascii: "\""))
            }
        }
        let f = e.frame
        w.append(",\"frame\":{\"x\":")
        w.append(number: f.minX)
        w.append(",\"y\":")
        w.append(number: f.minY)
        w.append(",\"width\":")
        w.append(number: f.width)
        w.append(",\"height\":")
        w.append(number: f.height)
        w.append("},\"center\":{\"x\":")
        w.append(number: f.midX)
        w.append(",\"y\":")
        w.append(number: f.midY)
        let t = e.transform
        if t == .identity {
            w.append("},\"transform\":[1,0,0,1,0,0],\"alpha\":")  // most elements: no formatting
        } else {
            w.append("},\"transform\":[")
            w.append(number: t.a)
            w.append(field: t.b)
            w.append(field: t.c)
            w.append(field: t.d)
            w.append(field: t.tx)
            w.append(field: t.ty)
            w.append("],\"alpha\":")
        }
        if e.alpha == 1 { w.append(byte: UInt8(ascii: "1")) } else { w.append(number: e.alpha) }
        w.append(",\"zIndex\":")
        w.append(integer: e.zIndex)
        if e.isHidden { w.append(",\"hidden\":true") } else { w.append(",\"hidden\":false") }
        if closing { w.append(byte: UInt8(ascii: "}")) }
        out.commit(w)
    }

    static func appendHeartPath(_ heart: HeartPath, to out: OutputBuffer) {
        out.append("{\"from\":[")
        out.append(integer: heart.from.section)
        out.append(byte: UInt8(ascii: ","))
        out.append(integer: heart.from.item)
        out.append("],\"to\":[")
        out.append(integer: heart.to.section)
        out.append(byte: UInt8(ascii: ","))
        out.append(integer: heart.to.item)
        out.append("],\"style\":")
        appendJSONString(heart.style.rawValue, to: out)
        out.append(",\"start\":")
        appendPoint(heart.start, to: out)
        out.append(",\"segments\":[")
        for (k, segment) in heart.segments.enumerated() {
            out.append(k == 0 ? "{\"control1\":" : ",{\"control1\":")
            appendPoint(segment.control1, to: out)
            out.append(",\"control2\":")
            appendPoint(segment.control2, to: out)
            out.append(",\"end\":")
            appendPoint(segment.end, to: out)
            out.append(byte: UInt8(ascii: "}"))
        }
        out.append("],\"d\":\"")
        appendPathData(heart, relativeTo: .zero, to: out)
        out.append("\"}")
    }

    /// `{"x":…,"y":…}`.
    static func appendPoint(_ p: Point, to out: OutputBuffer) {
        appendPair("{\"x\":", p.x, ",\"y\":", p.y, to: out)
    }

    /// `{"width":…,"height":…}`.
    static func appendSize(_ s: Size, to out: OutputBuffer) {
        appendPair("{\"width\":", s.width, ",\"height\":", s.height, to: out)
    }

    /// `FIRSTa SECONDb}`: an object of two numbers, its opening brace and keys in `first` and `second`.
    private static func appendPair(_ first: StaticString, _ a: Double, _ second: StaticString, _ b: Double,
                                   to out: OutputBuffer) {
        out.append(first)
        out.append(number: a)
        out.append(second)
        out.append(number: b)
        out.append(byte: UInt8(ascii: "}"))
    }
}

/// `M x y C x1 y1 x2 y2 x y …`, every point shifted by `-origin` (an SVG motion path's).
func appendPathData(_ heart: HeartPath, relativeTo origin: Point, to out: OutputBuffer) {
    func point(_ p: Point) {
        out.append(number: p.x - origin.x)
        out.append(byte: UInt8(ascii: " "))
        out.append(number: p.y - origin.y)
    }
    out.append("M ")
    point(heart.start)
    for segment in heart.segments {
        out.append(" C ")
        point(segment.control1)
        out.append(byte: UInt8(ascii: " "))
        point(segment.control2)
        out.append(byte: UInt8(ascii: " "))
        point(segment.end)
    }
}

/// Appends `text` as a JSON string literal, quotes, backslashes and control characters escaped.
package func appendJSONString(_ text: String, to out: OutputBuffer) {
    out.append(byte: UInt8(ascii: "\""))
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "\""): out.append("\\\"")
        case UInt8(ascii: "\\"): out.append("\\\\")
        case 0x0A: out.append("\\n")
        case 0x0D: out.append("\\r")
        case 0x09: out.append("\\t")
        case 0..<0x20:
            out.append(byte < 0x10 ? "\\u000" : "\\u001")
            out.append(byte: byte & 15 < 10 ? 0x30 + byte & 15 : 0x57 + byte & 15)
        default: out.append(byte: byte)
        }
    }
    out.append(byte: UInt8(ascii: "\""))
}

/// Appends `,\n"heartSamples":[…]` (`--heart-samples`), one sample a line,
/// `{"t":0,"x":214,"y":463,"angle":-90}`.
/// - Complexity: O(samples).
func appendHeartSamples(_ samples: [PathSample], to out: OutputBuffer) {
    out.append(",\n\"heartSamples\":[")
    for (k, sample) in samples.enumerated() {
        out.append(k == 0 ? "\n{\"t\":" : ",\n{\"t\":")
        out.append(number: sample.t)
        out.append(",\"x\":")
        out.append(number: sample.point.x)
        out.append(",\"y\":")
        out.append(number: sample.point.y)
        out.append(",\"angle\":")
        out.append(number: sample.angle)
        out.append(byte: UInt8(ascii: "}"))
    }
    out.append(samples.isEmpty ? "]" : "\n]")
}
