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
        case .json: try writeJSON(transition, options: options, to: out)
        case .csv: try writeCSV(transition, options: options, to: out)
        case .svg: try TransitionSVGWriter.write(transition, options: options, to: out)
        }
        try out.flush()
    }

    /// The JSON document at `options.progress`: `from`, `to`, `progress`, `duration`, the geometry.
    private static func writeJSON(_ transition: LayoutTransition, options: TransitionOutputOptions,
                                 to out: OutputBuffer) throws {
        let t = options.progress
        let geometry = transition.geometry(at: t), precision = out.precision
        out.append(string: "{\"engine\":\"transition\",\"from\":\(PlainLayoutWriter.jsonString(transition.from.engine)),"
            + "\"to\":\(PlainLayoutWriter.jsonString(transition.to.engine)),\"progress\":\(precision.text(t)),"
            + "\"duration\":\(precision.text(options.duration))"
            + PlainLayoutWriter.jsonGeometry(bounds: geometry.bounds, contentOffset: geometry.contentOffset,
                                             contentSize: geometry.contentSize, precision: precision))
        for (k, position) in transition.elementPositions(at: t).enumerated() {
            let element = transition.elements[position]
            out.append(k == 0 ? "\n" : ",\n")
            JSONLayoutWriter.appendElement(element.attributes(at: t), to: out, closing: false)
            out.append(",\"change\":\"")
            out.append(string: element.change.rawValue)
            out.append("\",\"fromIndexPath\":")
            appendJSONIndexPath(element.fromIndexPath, to: out)
            out.append(",\"toIndexPath\":")
            appendJSONIndexPath(element.toIndexPath, to: out)
            out.append(byte: UInt8(ascii: "}"))
            try out.flushIfFull()
        }
        out.append("\n]}\n")
    }

    /// The CSV table at `options.progress`.
    private static func writeCSV(_ transition: LayoutTransition, options: TransitionOutputOptions,
                                to out: OutputBuffer) throws {
        let t = options.progress
        out.append(string: csvColumns.joined(separator: ",") + "\n")
        for position in transition.elementPositions(at: t) {
            let element = transition.elements[position]
            CSVLayoutWriter.appendRow(element.attributes(at: t), to: out, terminated: false)
            out.append(byte: UInt8(ascii: ","))
            out.append(string: element.change.rawValue)
            for path in [element.fromIndexPath, element.toIndexPath] {
                out.append(byte: UInt8(ascii: ","))
                if let path { out.append(integer: path.section) }
                out.append(byte: UInt8(ascii: ","))
                if let path { out.append(integer: path.item) }
            }
            out.append(byte: 0x0A)
            try out.flushIfFull()
        }
    }

    private static func appendJSONIndexPath(_ path: IndexPath?, to out: OutputBuffer) {
        out.append(string: path.map { "[\($0.section),\($0.item)]" } ?? "null")
    }
}
