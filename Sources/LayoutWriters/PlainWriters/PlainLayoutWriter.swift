import LayoutCore
import FastText

/// The plain writers: JSON, CSV and the still SVG written the most direct way from
/// docs/REFERENCE.md; the fast writers must write the same bytes (`PlainWriterDifferentialTests`).
public enum PlainLayoutWriter {
    /// `layout` as `format`, only the elements at `selection` (ascending) when given.
    /// - Complexity: O(k) for k selected elements (SVG: O(k log k), the drawing order).
    public static func write(_ format: OutputFormat, _ layout: CollectionLayout, selection: [Int]?,
                             options: OutputOptions) -> String {
        switch format {
        case .json: json(layout, selection: selection, precision: options.precision)
        case .csv: csv(layout, selection: selection, precision: options.precision)
        case .svg: svg(layout, selection: selection, options: options)
        }
    }

    /// The selected elements with their positions in `layout.elements`, in element order.
    static func selected(_ layout: CollectionLayout, _ selection: [Int]?) -> [(position: Int, element: LayoutAttributes)] {
        (selection ?? Array(layout.elements.indices)).map { ($0, layout.elements[$0]) }
    }

    // MARK: - JSON

    /// The JSON object: the geometry, `elements` one a line, then the optional members.
    public static func json(_ layout: CollectionLayout, selection: [Int]?, precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        var text = jsonStart(layout, precision: precision)
        let lines = selected(layout, selection).map { jsonElement($1, precision: precision) }
        text += lines.map { "\n" + $0 }.joined(separator: ",") + "\n]" + jsonHeartPath(layout, precision: precision)
        if let samples = layout.heartSamples {
            let lines = samples.map { "\n{\"t\":\(n($0.t)),\"x\":\(n($0.point.x)),\"y\":\(n($0.point.y)),\"angle\":\(n($0.angle))}" }
            text += ",\n\"heartSamples\":[" + lines.joined(separator: ",") + (samples.isEmpty ? "]" : "\n]")
        }
        return text + jsonEnd(layout, precision: precision)
    }

    /// Everything before the first element: the engine, then `jsonGeometry`.
    static func jsonStart(_ layout: CollectionLayout, precision: NumberPrecision) -> String {
        "{\"engine\":\(jsonString(layout.engine))" + jsonGeometry(bounds: layout.bounds, contentOffset: layout.contentOffset,
                                                                 contentSize: layout.contentSize, precision: precision)
    }

    /// `,"bounds":{…},"contentOffset":{…},\n"contentSize":{…},\n"elements":[` (a layout's or a transition's).
    static func jsonGeometry(bounds: Size, contentOffset: Point, contentSize: Size, precision: NumberPrecision) -> String {
        ",\"bounds\":\(jsonSize(bounds, precision)),\"contentOffset\":\(jsonPoint(contentOffset, precision)),"
            + "\n\"contentSize\":\(jsonSize(contentSize, precision)),\n\"elements\":["
    }

    /// `,\n"heartPath":{…}`, or nothing without a heart path.
    static func jsonHeartPath(_ layout: CollectionLayout, precision: NumberPrecision) -> String {
        guard let heart = layout.heartPath else { return "" }
        func point(_ p: Point) -> String { jsonPoint(p, precision) }
        let segments = heart.segments.map {
            "{\"control1\":\(point($0.control1)),\"control2\":\(point($0.control2)),\"end\":\(point($0.end))}"
        }
        return ",\n\"heartPath\":{\"from\":[\(heart.from.section),\(heart.from.item)],\"to\":[\(heart.to.section),"
            + "\(heart.to.item)],\"style\":\(jsonString(heart.style.rawValue)),\"start\":\(point(heart.start)),"
            + "\"segments\":[\(segments.joined(separator: ","))],\"d\":\"\(pathData(heart, from: .zero, precision))\"}"
    }

    /// What follows the heart samples: `targetContentOffset`, `stats`, the closing brace.
    static func jsonEnd(_ layout: CollectionLayout, precision: NumberPrecision) -> String {
        var text = ""
        if let target = layout.targetContentOffset {
            // On a line of its own only right after the elements.
            text += (layout.heartPath == nil && layout.heartSamples == nil ? ",\n" : ",")
                + "\"targetContentOffset\":\(jsonPoint(target, precision))"
        }
        if let statistics = layout.statistics {
            text += ",\n\"stats\":{" + statistics.map {
                "\"\($0.name)\":\(PlainNumberText.string($0.value, precision: precision))"
            }.joined(separator: ",") + "}"
        }
        return text + "}\n"
    }

    static func jsonPoint(_ p: Point, _ precision: NumberPrecision) -> String {
        "{\"x\":\(PlainNumberText.string(p.x, precision: precision)),\"y\":\(PlainNumberText.string(p.y, precision: precision))}"
    }

    static func jsonSize(_ s: Size, _ precision: NumberPrecision) -> String {
        "{\"width\":\(PlainNumberText.string(s.width, precision: precision)),"
            + "\"height\":\(PlainNumberText.string(s.height, precision: precision))}"
    }

    /// One element's JSON object by `ElementColumn.jsonGroups`; a key whose one value is absent left out.
    static func jsonElement(_ e: LayoutAttributes, precision: NumberPrecision) -> String {
        let members = ElementColumn.jsonGroups.compactMap { key, columns -> String? in
            let values = columns.map { column in column.text(e, precision: precision).map { column.isWord ? jsonString($0) : $0 } }
            switch columns[0].jsonShape {
            case .value: return values[0].map { "\"\(key)\":\($0)" }
            case .array: return "\"\(key)\":[\(values.map { $0 ?? "" }.joined(separator: ","))]"
            case .object:
                return "\"\(key)\":{" + zip(columns, values).map { "\"\($0.jsonMember ?? "")\":\($1 ?? "")" }.joined(separator: ",") + "}"
            }
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func jsonString(_ text: String) -> String {
        "\"" + escaped(text) { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case _ where scalar.value < 0x20: "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: nil
            }
        } + "\""
    }

    /// `text` with each character `replacement` gives a text for replaced.
    static func escaped(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        text.unicodeScalars.map { scalar in replacement(scalar) ?? String(scalar) }.joined()
    }

    /// The heart path as SVG path data, `M x y C x1 y1 x2 y2 x y …`, every point less `origin`.
    static func pathData(_ heart: HeartPath, from origin: Point, _ precision: NumberPrecision) -> String {
        func point(_ p: Point) -> String {
            PlainNumberText.string(p.x - origin.x, precision: precision) + " "
                + PlainNumberText.string(p.y - origin.y, precision: precision)
        }
        return "M " + point(heart.start)
            + heart.segments.map { " C \(point($0.control1)) \(point($0.control2)) \(point($0.end))" }.joined()
    }

    // MARK: - CSV

    /// The CSV table: the header row, one row per selected element; or the heart samples'.
    public static func csv(_ layout: CollectionLayout, selection: [Int]?, precision: NumberPrecision) -> String {
        func n(_ value: Double) -> String { PlainNumberText.string(value, precision: precision) }
        if let samples = layout.heartSamples {
            return "t,x,y,angle\n" + samples.map { "\(n($0.t)),\(n($0.point.x)),\(n($0.point.y)),\(n($0.angle))\n" }.joined()
        }
        let header = ElementColumn.allCases.map(\.csvName).joined(separator: ",") + "\n"
        return header + selected(layout, selection).map { _, e in
            // Plain words and numbers: nothing to quote.
            ElementColumn.allCases.map { $0.text(e, precision: precision) ?? "" }.joined(separator: ",") + "\n"
        }.joined()
    }
}
