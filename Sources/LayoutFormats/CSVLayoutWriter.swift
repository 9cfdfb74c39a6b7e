import LayoutCore

/// SPEC section 4's CSV: RFC 4180 quoting, LF line endings, a header row, one row per element.
///
/// ```
/// section,item,category,kind,x,y,width,height,centerX,centerY,a,b,c,d,tx,ty,alpha,zIndex,hidden
/// 0,0,cell,,0,0,123.333,120,61.667,60,1,0,0,1,0,0,1,0,false
/// ```
public enum CSVLayoutWriter {
    /// The header row's column names, in order.
    public static let columns = ["section", "item", "category", "kind", "x", "y", "width", "height",
                                 "centerX", "centerY", "a", "b", "c", "d", "tx", "ty", "alpha",
                                 "zIndex", "hidden"]

    /// Writes one row per selected element of `layout` to `out`.
    /// - Complexity: O(selected elements); no allocation per element.
    public static func write(_ layout: CollectionLayout, selection: [Int]?, to out: OutputBuffer) throws {
        if let samples = layout.heartSamples {
            return try writeHeartSamples(samples, to: out)  // `--heart-samples`: the samples table instead
        }
        out.append(string: columns.joined(separator: ","))
        out.append(byte: 0x0A)
        try forEachSelected(layout, selection) { element, _ in
            appendRow(element, to: out)
            try out.flushIfFull()
        }
    }

    @inline(__always)
    static func appendRow(_ e: LayoutAttributes, to out: OutputBuffer, terminated: Bool = true) {
        let comma = UInt8(ascii: ",")
        out.append(integer: e.indexPath.section)
        out.append(byte: comma)
        out.append(integer: e.indexPath.item)
        out.append(byte: comma)
        switch e.category {
        case .cell: out.append("cell")
        case .supplementaryView: out.append("supplementaryView")
        case .decorationView: out.append("decorationView")
        }
        out.append(byte: comma)
        if let kind = e.kind { appendCSVField(kind.rawValue, to: out) }
        let f = e.frame, t = e.transform
        out.append(byte: comma); out.append(number: f.minX)
        out.append(byte: comma); out.append(number: f.minY)
        out.append(byte: comma); out.append(number: f.width)
        out.append(byte: comma); out.append(number: f.height)
        out.append(byte: comma); out.append(number: f.midX)
        out.append(byte: comma); out.append(number: f.midY)
        if t == .identity {
            out.append(",1,0,0,1,0,0")  // most elements: no formatting
        } else {
            out.append(byte: comma); out.append(number: t.a)
            out.append(byte: comma); out.append(number: t.b)
            out.append(byte: comma); out.append(number: t.c)
            out.append(byte: comma); out.append(number: t.d)
            out.append(byte: comma); out.append(number: t.tx)
            out.append(byte: comma); out.append(number: t.ty)
        }
        out.append(byte: comma); out.append(number: e.alpha)
        out.append(byte: comma)
        out.append(integer: e.zIndex)
        out.append(e.isHidden ? ",true" as StaticString : ",false")
        if terminated { out.append(byte: 0x0A) }
    }
}

/// Appends a text field with RFC 4180 quoting. A field a spreadsheet would read as a formula
/// (starting with `=`, `+`, `-`, `@`, tab or CR) is prefixed with `'` to neutralise it.
func appendCSVField(_ text: String, to out: OutputBuffer) {
    var field = text
    if let first = field.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
        field = "'" + field
    }
    let needsQuotes = field.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
    guard needsQuotes else {
        out.append(string: field)
        return
    }
    out.append(byte: UInt8(ascii: "\""))
    for byte in field.utf8 {
        if byte == UInt8(ascii: "\"") { out.append(byte: byte) }
        out.append(byte: byte)
    }
    out.append(byte: UInt8(ascii: "\""))
}
