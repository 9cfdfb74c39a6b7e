// A comparison of two layouts (`cvlayout diff`, `--check GOLDEN`): its options, its result,
// the layout-level parts' comparison and the report's pieces (elements: `StreamedComparison`).

import FastText
import LayoutWriters

// MARK: - Options

/// What a comparison compares, and how closely.
public struct DiffOptions: Hashable, Sendable {
    /// Numbers whose difference is at most this are equal. Default 0.001 (points for lengths;
    /// the same absolute bound for alpha, scales and zIndex). Must be finite and ≥ 0.
    public var tolerance: Double = 0.001
    /// The element fields compared. Default: all.
    public var fields: Set<ElementField> = Set(ElementField.allCases)
    /// The layout-level parts compared (`LayoutPart.names`). Default: all.
    public var parts: Set<String> = Set(LayoutPart.names)

    /// Compares everything at a tolerance of 0.001.
    public init() {}

    /// The group names `--fields` takes: the element groups, then the layout-level parts.
    /// A single field is also accepted by its report name (`frame.y`) or CSV column (`y`).
    public static let selectorNames = ["frame", "center", "transform", "alpha", "zIndex", "hidden"] + LayoutPart.names

    /// Every name `selecting(_:)` accepts.
    public static var allSelectorNames: [String] {
        var names = selectorNames
        for field in ElementField.allCases {
            for name in [field.name, field.csvColumn] where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Options comparing only the fields and parts named in `list`, comma-separated
    /// (`frame,alpha,contentSize`); the tolerance stays 0.001.
    /// - Throws: `DiffOptionsError.unknownField` for a name not in `allSelectorNames`,
    ///   `.emptyFieldList` when `list` names nothing.
    /// - Complexity: O(names).
    public static func selecting(_ list: String) throws -> DiffOptions {
        var options = DiffOptions()
        options.fields = []
        options.parts = []
        for part in list.split(separator: ",", omittingEmptySubsequences: true) {
            let name = part.trimmingCharacters(in: .whitespaces)
            if name.isEmpty { continue }
            if LayoutPart.names.contains(name) {
                options.parts.insert(name)
                continue
            }
            let matches = ElementField.allCases.filter { $0.group == name || $0.name == name || $0.csvColumn == name }
            guard !matches.isEmpty else { throw DiffOptionsError.unknownField(name) }
            options.fields.formUnion(matches)
        }
        if options.fields.isEmpty && options.parts.isEmpty { throw DiffOptionsError.emptyFieldList }
        return options
    }
}

/// A `--fields` list that cannot be used.
public enum DiffOptionsError: Error, Equatable, Sendable {
    /// A name that is neither a group, a field nor a part.
    case unknownField(String)
    /// The list names nothing.
    case emptyFieldList
}

// MARK: - Result

/// How one element or part differs: only in EXPECTED, only in ACTUAL, or in both with these
/// fields beyond the tolerance (in field order).
public enum DiffChange: Hashable, Sendable {
    case missing, extra
    case changed([FieldChange])
}

/// One field that moved: its name (`frame.y`, `contentSize.height`), its values on both sides
/// (`nil`: the side gives none), `actual − expected` when both are numbers, and whether the
/// values are lengths in points (frames, centres, translations, sizes).
public struct FieldChange: Hashable, Sendable {
    public var name: String
    public var expected: FieldValue?, actual: FieldValue?
    public var delta: Double?
    public var isLength: Bool
}

/// A layout-level part that differs (`contentSize`, `heartPath`, …), and how.
public struct PartDifference: Hashable, Sendable {
    public var name: String
    public var change: DiffChange
}

/// Parts or field groups (`contentSize`, `alpha`, in document order) the comparison skipped
/// because the side `missingIn` lacks them.
public struct NotCompared: Hashable, Sendable {
    public var names: [String]
    public var missingIn: DiffSide
}

/// One of the two compared layouts.
public enum DiffSide: String, Hashable, Sendable {
    case expected, actual
}

/// The largest numeric difference found: its element (`nil` for a layout-level part) and
/// the field's change, whose `delta` is not `nil`.
public struct LargestDelta: Hashable, Sendable {
    public var element: ElementKey?
    public var change: FieldChange
}

/// The outcome of a comparison: the differing parts and the counts and sizes the summary
/// gives (the differing elements went into the report as they were found).
public struct LayoutDiffResult: Sendable {
    /// The tolerance used.
    public var tolerance: Double
    /// Elements in the expected layout, in the actual one, and in both (matched by category,
    /// kind and index path).
    public var expectedCount: Int, actualCount: Int, matchedCount: Int
    /// The differing parts, in document order.
    public var parts: [PartDifference]
    /// Whether the matched elements appear in a different order in the two files (order alone
    /// is not a difference).
    public var reordered: Bool
    /// What was skipped because only one side has it.
    public var notCompared: [NotCompared]
    /// The largest difference of an element (the largest length if any length differs, else
    /// the largest other number), or of a layout-level part when no element field differs;
    /// ties keep the first in report order. `nil` when no number differs.
    public var largestDelta: LargestDelta?
    /// The differing elements by kind of change.
    public var counts = Counts()
    /// The largest and smallest magnitudes of the elements' numeric deltas (−1 and infinity
    /// for none; points for lengths, else the field's own unit), and whether a field that is
    /// no number (hidden) or a value one side lacks differs.
    public var spread: (largest: Double, smallest: Double, otherChange: Bool) = (-1, .infinity, false)

    /// Whether every difference is a number within `bound` that looks like rounding to
    /// `bound`'s unit (a golden printed with fewer decimals): the largest more than a tenth of
    /// `bound`, and one smaller than `bound` (not only ties, such as an alpha of 0.5 against 1).
    public func differsOnlyWithin(_ bound: Double) -> Bool {
        guard let (largest, smallest) = numericDeltaRange() else { return false }
        return largest > bound / 10 && largest <= bound * (1 + 1e-9) && smallest < bound * (1 - 1e-9)
    }

    /// The largest and the smallest magnitude of the differences when every difference is a
    /// number that moved (nothing missing, extra or absent, no other change); else `nil`. O(parts).
    public func numericDeltaRange() -> (largest: Double, smallest: Double)? {
        guard counts.missing == 0 && counts.extra == 0, !spread.otherChange else { return nil }
        var (largest, smallest) = (spread.largest, spread.smallest)
        for part in parts {
            guard case .changed(let changes) = part.change else { return nil }
            for change in changes {
                guard let delta = change.delta?.magnitude else { return nil }
                (largest, smallest) = (Swift.max(largest, delta), Swift.min(smallest, delta))
            }
        }
        return largest >= 0 ? (largest, smallest) : nil
    }

    /// Counts of differing elements: all of them, those only in EXPECTED, those only in ACTUAL.
    public struct Counts: Sendable {
        public var differ = 0, missing = 0, extra = 0
    }

    /// Whether nothing differs (status 0).
    public var isSame: Bool { counts.differ == 0 && parts.isEmpty }
}

// MARK: - Comparison

/// Compares two layouts. Elements are matched by category, kind and index path (order alone
/// is no difference); numbers are equal when `|actual − expected| ≤ tolerance` plus a few ulps
/// (0 is exact; angles the shorter way round). Element fields are compared when both files
/// give them, parts when both carry parts: one only EXPECTED lacks is not compared (a thin
/// golden), one only ACTUAL lacks is missing.
public enum LayoutDiff {
    /// The differing layout-level parts in document order, and those not compared. O(values).
    static func compareParts(_ expected: LayoutDocument, _ actual: LayoutDocument,
                             options: DiffOptions) -> (parts: [PartDifference], notCompared: [NotCompared]) {
        let selectedParts = LayoutPart.names.filter { options.parts.contains($0) }
        if expected.carriesParts != actual.carriesParts {
            let side = expected.carriesParts ? expected : actual
            let names = selectedParts.filter { name in side.parts.contains { $0.name == name } }
            return ([], names.isEmpty ? [] : [NotCompared(names: names, missingIn: expected.carriesParts ? .actual : .expected)])
        }
        guard expected.carriesParts else { return ([], []) }
        var differences: [PartDifference] = [], onlyInActual: [String] = []
        for name in selectedParts {
            switch (expected.parts.first { $0.name == name }, actual.parts.first { $0.name == name }) {
            case (nil, nil): continue
            case (_?, nil): differences.append(PartDifference(name: name, change: .missing))
            case (nil, _?): onlyInActual.append(name)  // a thin EXPECTED (golden): not compared
            case (let e?, let a?):
                // By name: the expected side's in order, then the actual side's others
                // (thousands of heart samples: looked up, not searched).
                let expectedValues = Dictionary(e.values.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
                let actualValues = Dictionary(a.values.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
                let names = e.values.map(\.name) + a.values.map(\.name).filter { expectedValues[$0] == nil }
                let changes = names.compactMap { valueName -> FieldChange? in
                    // Points, except a heart sample's t (a fraction) and angle (degrees).
                    let isAngle = valueName.hasSuffix(".angle"), isLength = !(valueName.hasSuffix(".t") || isAngle)
                    return compareValues(valueName, expectedValues[valueName], actualValues[valueName], isLength: isLength,
                                         isAngle: isAngle, tolerance: options.tolerance)
                }
                if !changes.isEmpty { differences.append(PartDifference(name: name, change: .changed(changes))) }
            }
        }
        return (differences, onlyInActual.isEmpty ? [] : [NotCompared(names: onlyInActual, missingIn: .expected)])
    }

    /// The change between two values of one field, `nil` when equal within the tolerance.
    /// - Parameter isAngle: degrees, compared the shorter way round (180 and −180 are equal).
    static func compareValues(_ name: String, _ e: FieldValue?, _ a: FieldValue?, isLength: Bool,
                              isAngle: Bool, tolerance: Double) -> FieldChange? {
        switch (e, a) {
        case (.number(let x)?, .number(let y)?):
            var delta = y - x, (p, q) = (x, y)
            if isAngle && delta.isFinite {
                // Each turned into (−360, 360) first (exactly): 1e300 − 90 would lose the 90.
                (p, q) = (x.truncatingRemainder(dividingBy: 360), y.truncatingRemainder(dividingBy: 360))
                delta = (q - p).truncatingRemainder(dividingBy: 360)
                if delta > 180 { delta -= 360 } else if delta <= -180 { delta += 360 }
            }
            // A tolerance of 0 is exact; a positive one is inclusive despite binary rounding.
            // (`d − slack`, not `tolerance + slack`, which overflows for a tolerance near the
            // largest Double; an infinite `d`, two values further apart than it, never passes.)
            let d = delta.magnitude, slack = 4 * Swift.max(p.magnitude, q.magnitude).ulp
            if d <= tolerance || (tolerance > 0 && d - slack <= tolerance) { return nil }
            return FieldChange(name: name, expected: e, actual: a, delta: delta, isLength: isLength)
        default:
            if e == a { return nil }
            let text = { (v: FieldValue?) -> Bool in if case .text? = v { return true } else { return false } }
            return FieldChange(name: name, expected: e, actual: a, delta: nil, isLength: isLength && !text(e) && !text(a))
        }
    }

    /// The names of `fields`, a group's (`frame`, `alpha`) where the whole group is listed.
    static func groupNames(_ fields: [ElementField]) -> [String] {
        var names: [String] = []
        for field in fields {
            let name = ElementField.allCases.allSatisfy { $0.group != field.group || fields.contains($0) } ? field.group : field.name
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    // MARK: - Reports

    /// What one side lacks and so was not compared, `not compared: alpha (not in b.csv)`, or
    /// `nil` when everything was.
    public static func notComparedText(_ result: LayoutDiffResult, expectedName: String, actualName: String) -> String? {
        guard !result.notCompared.isEmpty else { return nil }
        return "not compared: " + result.notCompared.map {
            $0.names.joined(separator: ", ") + " (not in \($0.missingIn == .expected ? expectedName : actualName))"
        }.joined(separator: ", ")
    }

    /// The columns (CSV) or keys (JSON) of a file that cvlayout does not know and so did not
    /// compare, for a warning on stderr: `golden.csv: column 'name' is not compared (cvlayout
    /// does not know it)`; `nil` when it knows them all. The verdict does not depend on them.
    public static func unknownNamesText(_ document: LayoutDocument, name: String) -> String? {
        let names = document.unknownNames
        guard !names.isEmpty else { return nil }
        let noun = document.shape == .csv || document.shape == .heartSamples ? "column" : "key"
        let list = names.map { "'" + questioningControlCharacters(truncated($0, 60)) + "'" }.joined(separator: ", ")
        return names.count == 1 ? "\(name): \(noun) \(list) is not compared (cvlayout does not know it)"
            : "\(name): \(noun)s \(list) are not compared (cvlayout does not know them)"
    }

    /// The one-line summary, without a newline: `same: 120 elements within tolerance 0.001`,
    /// or `3 of 120 elements differ (1 missing, 1 extra); contentSize differs; largest delta
    /// 12.5 pt at 0:17 frame.y`, then what was not compared (`; not compared: …`).
    public static func summary(_ result: LayoutDiffResult, expectedName: String, actualName: String) -> String {
        var text: String
        let total = result.expectedCount + result.actualCount - result.matchedCount
        let noun = total == 1 ? "element" : "elements"
        if result.isSame {
            text = "same: \(total) \(noun) within tolerance \(number(result.tolerance))"
            if result.reordered { text += " (in a different order)" }
        } else {
            let n = result.counts.differ
            text = "\(n) of \(total) \(noun) \(n == 1 ? "differs" : "differ")"
            let kinds = [(result.counts.missing, "missing"), (result.counts.extra, "extra")].filter { $0.0 > 0 }
            if !kinds.isEmpty { text += " (" + kinds.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")" }
            let changed = result.parts.filter { $0.change != .missing }
            if !changed.isEmpty {
                text += "; " + changed.map(\.name).joined(separator: ", ") + (changed.count == 1 ? " differs" : " differ")
            }
            for part in result.parts where part.change == .missing { text += "; \(part.name) missing" }
            if let largest = result.largestDelta {
                let finite = largest.change.delta?.isFinite ?? true
                text += "; largest delta \(deltaText(largest.change, signed: false).drop { $0 == "-" })"
                text += "\(largest.change.isLength && finite ? " pt" : "") at "
                text += largest.element.map { "\($0) \(largest.change.name)" } ?? largest.change.name
            }
        }
        return text + (notComparedText(result, expectedName: expectedName, actualName: actualName).map { "; " + $0 } ?? "")
    }

    /// The JSON report up to `"differences":[`.
    static func appendJSONHead(_ result: LayoutDiffResult, expectedName: String, actualName: String, to out: OutputBuffer) {
        out.append(string: "{\"same\":\(result.isSame),\"expected\":\(json(expectedName)),"
                   + "\"actual\":\(json(actualName)),\"tolerance\":")
        out.append(number: result.tolerance)
        let counts = result.counts, changed = counts.differ - counts.missing - counts.extra
        out.append(string: ",\n\"counts\":{\"expected\":\(result.expectedCount),\"actual\":\(result.actualCount),"
                   + "\"matched\":\(result.matchedCount),\"differ\":\(counts.differ),\"missing\":\(counts.missing),"
                   + "\"extra\":\(counts.extra),\"changed\":\(changed)},\n\"largestDelta\":")
        let largest = result.largestDelta.map { largest in
            "{\"element\":\(largest.element.map { json($0.description) } ?? "null"),"
                + "\"field\":\(json(largest.change.name)),\"delta\":\(jsonDelta(largest.change)),\"unit\":"
                + (largest.change.isLength ? "\"pt\"}" : "null}")
        }
        out.append(string: (largest ?? "null") + ",\n\"differences\":[")
    }

    /// The JSON report after the differences.
    static func appendJSONTail(_ result: LayoutDiffResult, expectedName: String, actualName: String, to out: OutputBuffer) {
        out.append(result.isSame ? "],\n\"notCompared\":[" : "\n],\n\"notCompared\":[")
        let notes = result.notCompared.map { note in
            "{\"names\":[" + note.names.map(json).joined(separator: ",") + "],\"missingIn\":"
                + json(note.missingIn == .expected ? expectedName : actualName) + "}"
        }
        out.append(string: notes.joined(separator: ",") + "],\"reordered\":\(result.reordered),\n\"summary\":"
                   + json(summary(result, expectedName: expectedName, actualName: actualName)) + "}\n")
    }

    /// One element's entry of the JSON report's differences, without a separator.
    static func appendJSONEntry(element key: ElementKey, _ change: DiffChange, to out: OutputBuffer) {
        out.append("{\"element\":{\"indexPath\":[")
        out.append(integer: key.section)
        out.append(",")
        out.append(integer: key.item)
        out.append("],\"category\":")
        appendJSONString(key.category, to: out)
        if let kind = key.kind {
            out.append(",\"kind\":")
            appendJSONString(kind, to: out)
        }
        out.append("},\"name\":")
        appendJSONString(key.description, to: out)
        appendJSONChange(change, to: out)
    }

    /// The delta as `deltaText` gives it, written at `text`; returns the byte count (at most
    /// `NumberFormat.maximumLength` + 1).
    @inline(__always)
    static func writeDelta(_ delta: Double, decimals: Int, signed: Bool, to text: UnsafeMutablePointer<UInt8>) -> Int {
        let sign = signed && delta > 0 ? 1 : 0, p = text + sign
        if sign == 1 { text.pointee = UInt8(ascii: "+") }
        guard delta.isFinite else {
            let words: StaticString = delta > 0 ? "past the largest double" : "-past the largest double"
            p.update(from: words.utf8Start, count: words.utf8CodeUnitCount)
            return sign + words.utf8CodeUnitCount
        }
        let n = NumberFormat.write(delta, precision: .decimals(Swift.min(decimals, 15)), to: p)
        if decimals > 15 || delta.magnitude >= 0x1p53 || (n == 1 && p[0] == UInt8(ascii: "0") && delta != 0) {
            return sign + NumberFormat.write(delta, precision: .full, to: p)
        }
        return sign + n
    }

    static func appendJSONChange(_ change: DiffChange, to out: OutputBuffer) {
        switch change {
        case .missing: out.append(",\"change\":\"missing\"}")
        case .extra: out.append(",\"change\":\"extra\"}")
        case .changed(let changes):
            out.append(",\"change\":\"changed\",\"fields\":[")
            for (i, fieldChange) in changes.enumerated() {
                if i > 0 { out.append(",") }
                out.append("{\"field\":")
                appendJSONString(fieldChange.name, to: out)
                out.append(",\"expected\":")
                appendValue(fieldChange.expected, to: out)
                out.append(",\"actual\":")
                appendValue(fieldChange.actual, to: out)
                out.append(",\"delta\":")
                out.append(string: jsonDelta(fieldChange))
                out.append("}")
            }
            out.append("]}")
        }
    }

    // MARK: Pieces

    private static func appendValue(_ value: FieldValue?, to out: OutputBuffer) {
        switch value {
        case nil: out.append("null")
        case .number(let v)?: out.append(number: v)
        case .bool(let b)?: out.append(b ? "true" : "false")
        case .text(let s)?: appendJSONString(s, to: out)
        }
    }

    /// `text` as a JSON string literal (`appendJSONString`).
    private static func json(_ text: String) -> String {
        let out = OutputBuffer(precision: .full)
        appendJSONString(text, to: out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// A number in its shortest round-trip form.
    static func number(_ v: Double) -> String { NumberFormat.string(v, precision: .full) }

    static func shown(_ value: FieldValue?) -> String { value?.description ?? "(none)" }

    /// A delta in the JSON report: `null` for none or one past the largest Double.
    private static func jsonDelta(_ change: FieldChange) -> String {
        change.delta?.isFinite == true ? deltaText(change, signed: false) : "null"
    }

    /// The delta at the decimals of its operands (`132.501 − 120`: `12.501`), or in its
    /// shortest round-trip digits when those would hide it (`1e-20 − 0`, over 15 decimals) or
    /// it is past 2⁵³; `+` before a positive one when `signed`. Past the largest Double, words.
    static func deltaText(_ change: FieldChange, signed: Bool) -> String {
        var decimals = 0
        for text in [change.expected, change.actual].map(shown) {
            if let dot = text.utf8.firstIndex(of: UInt8(ascii: ".")) {
                decimals = max(decimals, text.utf8.distance(from: dot, to: text.utf8.endIndex) - 1)
            }
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: NumberFormat.maximumLength + 1) { scratch in
            let count = writeDelta(change.delta ?? 0, decimals: decimals, signed: signed, to: scratch.baseAddress!)
            return String(decoding: UnsafeBufferPointer(start: scratch.baseAddress!, count: count), as: UTF8.self)
        }
    }

    // MARK: The text report's blocks

    /// One entry of the text report, its lines ending with newlines: the element `key` or the
    /// part named `part`; `frame` (x, y, width, height) is shown for a missing or extra element.
    static func appendTextBlock(_ key: ElementKey?, part: String = "", _ change: DiffChange, frame: SIMD4<Double>?,
                                color: Bool, to out: OutputBuffer) {
        let colour: StaticString = change == .missing ? "\u{1B}[31m" : change == .extra ? "\u{1B}[32m" : "\u{1B}[36m"
        if color { out.append(colour) }
        out.append(change == .missing ? "- " : change == .extra ? "+ " : "~ ")
        if let key { appendName(key, to: out) } else { out.append(string: part) }
        if change == .missing || change == .extra {
            out.append(change == .missing ? "  missing" : "  extra")
            if let frame {
                out.append(" (frame ")
                for k in 0..<4 {
                    if k > 0 { out.append(byte: UInt8(ascii: ",")) }
                    out.append(number: frame[k])
                }
                out.append(byte: UInt8(ascii: ")"))
            }
        }
        if color { out.append("\u{1B}[0m") }
        out.append(byte: 0x0A)
        guard case .changed(let changes) = change else { return }
        let width = changes.map(\.name.utf8.count).max() ?? 0  // field names are ASCII: bytes are characters
        for change in changes {
            let padding = String(repeating: " ", count: width - change.name.utf8.count)
            out.append(string: "    \(change.name)\(padding)  " + valuesText(change, gap: "  ") + "\n")
        }
    }

    /// The element's name as the reports give it (`0:17`, `header 0:0`), as XML text with `xml`.
    static func appendName(_ key: ElementKey, xml: Bool = false, to out: OutputBuffer) {
        guard key.category == "cell" && key.kind == nil else {
            return xml ? appendXMLText(key.description, to: out) : out.append(string: key.description)
        }
        out.append(integer: key.section)
        out.append(byte: UInt8(ascii: ":"))
        out.append(integer: key.item)
        if key.disappearing { out.append(" (disappearing)") }
    }

    /// `120 → 132.5`, then `gap` and the signed delta in parentheses when the change has one
    /// (with `finiteOnly`, a finite one).
    static func valuesText(_ change: FieldChange, gap: String, finiteOnly: Bool = false) -> String {
        var text = shown(change.expected) + " → " + shown(change.actual)
        if let delta = change.delta, !finiteOnly || delta.isFinite { text += gap + "(" + deltaText(change, signed: true) + ")" }
        return text
    }
}
