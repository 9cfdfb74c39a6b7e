import LayoutCore
import FastText

/// How a transition is written.
public struct TransitionOutputOptions: Sendable {
    /// JSON/CSV: the progress whose attributes are written, 0…1. Default 1 (the end state).
    public var progress = 1.0
    /// SVG: the animation's duration one way, seconds, > 0. Default 0.3 (UIKit's default).
    public var duration = 0.3
    /// SVG: play forth and back, repeating forever (instead of once, frozen at the end).
    public var repeats = false
    /// Decimals, labels (SVG), as for layouts.
    public var output = OutputOptions()

    /// Creates the default options.
    public init() {}
}

/// Writes a `LayoutTransition` at one progress (JSON, CSV) or animated (SVG). Each element
/// also gets `change`, `fromIndexPath` and `toIndexPath` (JSON `null`, CSV empty where absent).
public enum TransitionWriter {
    /// The CSV header row's column names, in order.
    public static let csvColumns = CSVLayoutWriter.columns + ["change", "fromSection", "fromItem", "toSection", "toItem"]

    /// Writes `transition` in `format` to `out`, then flushes it.
    /// - Complexity: O(n) for JSON and CSV; O(n log n) for SVG (the zIndex sorts).
    public static func write(_ transition: LayoutTransition, format: OutputFormat, options: TransitionOutputOptions,
                             to out: OutputBuffer) throws {
        switch format {
        case .json, .csv: try writeAttributes(transition, json: format == .json, options: options, to: out)
        case .svg: try TransitionSVGWriter.write(transition, options: options, to: out)
        }
        try out.flush()
    }

    /// The JSON document (`from`, `to`, `progress`, `duration`, the geometry, the elements) or
    /// the CSV table at `options.progress`.
    private static func writeAttributes(_ transition: LayoutTransition, json: Bool, options: TransitionOutputOptions,
                                        to out: OutputBuffer) throws {
        let t = options.progress, precision = out.precision
        if json {
            let geometry = transition.geometry(at: t)
            out.append(string: "{\"engine\":\"transition\",\"from\":\(PlainLayoutWriter.jsonString(transition.from.engine)),"
                + "\"to\":\(PlainLayoutWriter.jsonString(transition.to.engine)),\"progress\":\(precision.text(t)),"
                + "\"duration\":\(precision.text(options.duration))"
                + PlainLayoutWriter.jsonGeometry(bounds: geometry.bounds, contentOffset: geometry.contentOffset,
                                                 contentSize: geometry.contentSize, precision: precision))
        } else {
            out.append(string: csvColumns.joined(separator: ",") + "\n")
        }
        for (k, position) in transition.elementPositions(at: t).enumerated() {
            let element = transition.elements[position], paths = [element.fromIndexPath, element.toIndexPath]
            if json {
                out.append(k == 0 ? "\n" : ",\n")
                JSONLayoutWriter.appendElement(element.attributes(at: t), to: out, closing: false)
                let texts = paths.map { $0.map { "[\($0.section),\($0.item)]" } ?? "null" }
                out.append(string: ",\"change\":\"\(element.change.rawValue)\",\"fromIndexPath\":\(texts[0]),"
                    + "\"toIndexPath\":\(texts[1])}")
            } else {
                var items = CountingDigits()
                CSVLayoutWriter.appendRow(element.attributes(at: t), to: out, terminated: false, items: &items)
                let texts = paths.map { $0.map { "\($0.section),\($0.item)" } ?? "," }
                out.append(string: ",\(element.change.rawValue),\(texts[0]),\(texts[1])\n")
            }
            try out.flushIfFull()
        }
        if json { out.append("\n]}\n") }
    }
}
