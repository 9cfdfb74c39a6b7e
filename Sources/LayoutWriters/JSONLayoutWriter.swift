import LayoutCore
import FastText

/// The JSON of docs/REFERENCE.md, "JSON": one object, the geometry, then each element on a
/// line of its own (readable golden-file diffs), keys in the documented order.
public enum JSONLayoutWriter {
    /// Everything before the first element (`PlainLayoutWriter.jsonStart`: once a document).
    package static func appendStart(_ layout: CollectionLayout, to out: OutputBuffer) {
        out.append(string: PlainLayoutWriter.jsonStart(layout, precision: out.precision))
    }

    /// The element written `position`-th, on its own line.
    @inline(__always)
    static func appendElementLine(_ element: LayoutAttributes, position: Int, to out: OutputBuffer) {
        if position == 0 { out.append("\n") } else { out.append(",\n") }  // constant lengths: no memcpy call
        appendElement(element, to: out)
    }

    /// Everything after the last element: the plain writer's text (once a document) but for
    /// the heart samples (up to 10⁶).
    package static func appendEnd(_ layout: CollectionLayout, to out: OutputBuffer) {
        out.append(string: "\n]" + PlainLayoutWriter.jsonHeartPath(layout, precision: out.precision))
        if let samples = layout.heartSamples {
            appendHeartSamples(samples, to: out)
        }
        out.append(string: PlainLayoutWriter.jsonEnd(layout, precision: out.precision))
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
            w.append(",\"kind\":\"")
            w.append(kindName: kind)
            w.append(byte: UInt8(ascii: "\""))
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
