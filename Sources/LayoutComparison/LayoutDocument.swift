// What a layout file is read into, which `LayoutDiff` compares, and the reader's errors.
import Foundation
import FastText
import LayoutDatasets
import LayoutWriters

/// The file formats the layout reader reads.
public enum LayoutFileFormat: String, Sendable, CaseIterable {
    case json, csv

    /// The format a path's extension names (`.json`, `.csv`, any case), or `nil`.
    public init?(pathExtension path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains(Character("/")) else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}

/// What identifies an element across two layouts: category, kind and index path
/// (`representedElementCategory`, `representedElementKind`, `indexPath`), ordered in element
/// order (SPEC section 2): by section; in one, the header, cells by item, other views, the footer.
public struct ElementKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// `cell`, `supplementaryView` or `decorationView`.
    public var category: String
    /// `header`, `footer`, …; `nil` for cells.
    public var kind: String?
    /// Section number.
    public var section: Int
    /// Item number in the section.
    public var item: Int
    /// Whether this is a transition's disappearing element (`"change": "disappear"`), which
    /// keeps its old index path while another element may already hold it.
    public var disappearing: Bool

    /// Creates a key.
    public init(category: String, kind: String?, section: Int, item: Int, disappearing: Bool = false) {
        self.category = category
        self.kind = kind
        self.section = section
        self.item = item
        self.disappearing = disappearing
    }

    /// Where the element goes within its section: header 0, cells 1, others 2, footer 3.
    private var slot: Int {
        category == "cell" ? 1 : category != "supplementaryView" ? 2 : kind == "header" ? 0 : kind == "footer" ? 3 : 2
    }

    public static func < (lhs: ElementKey, rhs: ElementKey) -> Bool {
        if lhs.section != rhs.section { return lhs.section < rhs.section }
        if lhs.slot != rhs.slot { return lhs.slot < rhs.slot }
        if lhs.item != rhs.item { return lhs.item < rhs.item }
        if lhs.category != rhs.category { return lhs.category < rhs.category }
        if lhs.kind != rhs.kind { return (lhs.kind ?? "") < (rhs.kind ?? "") }
        return !lhs.disappearing && rhs.disappearing
    }

    /// `0:17` for a cell, `header 0:0` for a supplementary view of a kind,
    /// `decorationView separator 0:3` otherwise; `0:3 (disappearing)` for a transition's
    /// disappearing element.
    public var description: String { text(escapingControlCharacters) }

    /// `description` as a message shows it: control characters as `?`.
    public var messageText: String { text(questioningControlCharacters) }

    private func text(_ shown: (String) -> String) -> String {
        let path = "\(section):\(item)" + (disappearing ? " (disappearing)" : "")
        let category = shown(self.category), kind = self.kind.map(shown)
        switch (category, kind) {
        case ("cell", nil): return path
        case ("supplementaryView", let kind?): return "\(kind) \(path)"
        case (_, let kind?): return "\(category) \(kind) \(path)"
        case (_, nil): return "\(category) \(path)"
        }
    }
}

/// One compared value: a number, a boolean (`hidden`) or text (`heartPath.style`).
public enum FieldValue: Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case bool(Bool)
    case text(String)

    /// Numbers in their shortest round-trip form, booleans as `true`/`false`, text quoted.
    public var description: String {
        switch self {
        case .number(let v): return NumberFormat.string(v, precision: .full)
        case .bool(let b): return b ? "true" : "false"
        case .text(let s): return "\"\(escapingControlCharacters(s))\""
        }
    }
}

/// `text` with each control character (C0, DEL, C1) as `replacement` gives it. O(n).
private func replacingControlCharacters(_ text: String, _ replacement: (UInt32) -> String) -> String {
    func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    return text.unicodeScalars.map { isControl($0) ? replacement($0.value) : String($0) }.joined()
}

/// `text` cut to its first `limit` characters and `…`, when longer.
func truncated(_ text: String, _ limit: Int) -> String {
    text.count > limit ? String(text.prefix(limit)) + "…" : text
}

/// `text` as an error message or warning shows it: each control character a `?`. O(n).
public func questioningControlCharacters(_ text: String) -> String { replacingControlCharacters(text) { _ in "?" } }

/// `text` with its control characters as JSON writes them, `\u001b`, so that a name read from
/// a file cannot move a terminal's cursor or break a report's line. O(n).
func escapingControlCharacters(_ text: String) -> String {
    replacingControlCharacters(text) { "\\u" + String(String(0x10000 + $0, radix: 16).dropFirst()) }  // four hex digits
}

/// The per-element fields, in output order: the numeric columns of `ElementColumn`.
public enum ElementField: Int, CaseIterable, Sendable, Comparable {
    case x, y, width, height, centerX, centerY, a, b, c, d, tx, ty, alpha, zIndex, hidden

    /// The name reports use: the JSON path inside an element (`frame.x`, `transform.tx`).
    public var name: String { ElementField.names[rawValue] }

    /// Its `ElementColumn`, which gives its CSV column and JSON key.
    public var column: ElementColumn { ElementColumn.allCases[rawValue + ElementColumn.x.rawValue] }

    /// The CSV column (SPEC section 4).
    public var csvColumn: String { column.csvName }

    /// The JSON key that holds it, which `--fields` selects it by: `frame`, `center`,
    /// `transform`, `alpha`, `zIndex`, `hidden`.
    public var group: String { column.jsonKey }

    /// Whether values are lengths in points: frame and center (bits 0–5), translation (10, 11).
    public var isLength: Bool { 0xC3F >> rawValue & 1 != 0 }

    public static func < (lhs: ElementField, rhs: ElementField) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `frame.x`, or `alpha` for a scalar.
    static let names: [String] = allCases.map { field in
        switch field.column.jsonShape {
        case .object: field.group + "." + (field.column.jsonMember ?? "")
        case .array: field.group + "." + field.column.csvName
        case .value: field.group
        }
    }
}

/// A named value of a layout-level part (`contentSize.height`, `heartPath.start.x`).
public struct NamedValue: Hashable, Sendable {
    /// Its JSON path in a cvlayout layout.
    public var name: String
    /// The value.
    public var value: FieldValue

    /// Creates a named value.
    public init(_ name: String, _ value: FieldValue) {
        self.name = name
        self.value = value
    }
}

/// A layout-level part of a cvlayout JSON layout, flattened into named values.
public struct LayoutPart: Hashable, Sendable {
    /// The part's key (`contentSize`).
    public var name: String
    /// Its values, in document order.
    public var values: [NamedValue]

    /// The parts, in the order a cvlayout layout writes them. `engine` is text; the heart
    /// samples (`--heart-samples`) are compared as `heartSamples[k].t`, `.x`, `.y`, `.angle`.
    public static let names = ["engine", "bounds", "contentOffset", "contentSize", "heartPath", "heartSamples",
                               "targetContentOffset"]

    /// The parts written before `elements` in a cvlayout layout (the others come after).
    public static let namesBeforeElements: Set<String> = ["engine", "bounds", "contentOffset", "contentSize"]
}

/// A layout read from a file (`LayoutReader.read`), or the rest of one streamed.
public struct LayoutDocument: Sendable {
    /// What the file held.
    public enum Shape: String, Hashable, Sendable {
        /// A cvlayout JSON layout: an object with `"elements"`.
        case layout
        /// A JSON array of element objects.
        case elementList
        /// CSV rows.
        case csv
        /// A CSV of heart samples (`t,x,y,angle` rows), read as the `heartSamples` part.
        case heartSamples
    }

    /// What the file held.
    public var shape: Shape
    /// The elements, in file order.
    public var elements: [StreamedElement] = []
    /// The layout-level parts present, in document order.
    public var parts: [LayoutPart] = []
    /// The element fields at least one element gives (a CSV's columns; a JSON list's keys).
    public var presentFields: Set<ElementField> = []
    /// The columns or keys cvlayout does not know, so does not compare, each once in order of
    /// first appearance: `name` (CSV), `elements[].frame.z`, `comment` (JSON).
    public var unknownNames: [String] = []

    /// Whether the file can carry layout-level parts (a JSON layout; a CSV of heart samples).
    public var carriesParts: Bool { shape == .layout || shape == .heartSamples }
}

/// Why a layout file could not be read.
public enum LayoutReadError: Error, Equatable, Sendable {
    /// Malformed syntax at a 1-based line (and character column, for JSON).
    case syntax(line: Int, column: Int?, message: String)
    /// A value of the wrong type or range, at a JSON path or CSV row.
    case invalidValue(location: String, message: String)
    /// A file that is not a layout at all (empty, SVG, a JSON number).
    case notALayout(message: String)

    /// The one-line message, prefixed with the file's name: `a.json:3:5: invalid JSON: …`,
    /// `a.json: elements[2].frame.x: expected a number`, `a.csv: row 3: category: …` (a CSV
    /// row is numbered by its line, the header being row 1).
    public func message(file: String) -> String {
        switch self {
        case .syntax(let line, let column?, let message): return "\(file):\(line):\(column): \(message)"
        case .syntax(let line, nil, let message): return "\(file):\(line): \(message)"
        case .invalidValue(let location, let message): return "\(file): \(location): \(message)"
        case .notALayout(let message): return "\(file): \(message)"
        }
    }
}
