import LayoutCore
import LayoutComparison
import LayoutDatasets
import LayoutWriters

/// One option of the command line, as help, completions, the parser and `"options"` read it.
struct OptionSpec: Sendable {
    /// Long name without dashes (`columns`); also the dataset `"options"` key.
    let name: String
    let short: Character?
    /// Placeholder of the value in help (`N`, `X,Y`); `nil` for a switch.
    let valueName: String?
    let defaultText: String
    let help: String
    /// The accepted values of an enumerated option, in help order.
    let choices: [String]
    /// Whether a dataset's `"options"` may set it (false for `output`, `count`, `seed`).
    let allowedInDataset: Bool

    static func value(_ name: String, short: Character? = nil, _ valueName: String, default defaultText: String,
                             _ help: String, choices: [String] = [], allowedInDataset: Bool = true) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, defaultText: defaultText, help: help,
                   choices: choices, allowedInDataset: allowedInDataset)
    }

    /// A switch (present or absent).
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: nil, valueName: nil, defaultText: "off", help: help, choices: [],
                   allowedInDataset: true)
    }

    /// `-f, --format FORMAT` as shown in help.
    var synopsis: String {
        (short.map { "-\($0), " } ?? "    ") + "--" + name + (valueName.map { " " + $0 } ?? "")
    }

    /// `-f` (when it has a short form) and `--format`.
    var flags: [String] { (short.map { ["-\($0)"] } ?? []) + ["--" + name] }

    /// The help, the choices joined by `separator` (none when `nil`), the default of a value.
    func helpText(choices separator: String? = "|") -> String {
        var text = help
        if let separator, !choices.isEmpty { text += ": " + choices.joined(separator: separator) }
        if valueName != nil { text += " (default: \(defaultText))" }
        return text
    }
}

/// The options every engine takes (SPEC section 2).
let globalOptions: [OptionSpec] = [
    .value("format", short: "f", "FORMAT", default: "json, or -o's extension", "output format",
           choices: OutputFormat.allCases.map(\.rawValue)),
    .value("output", short: "o", "FILE", default: "stdout",
           "write to FILE atomically (temporary file, then rename); '-': stdout", allowedInDataset: false),
    .value("width", "W", default: "390", "the collection view's bounds width, points"),
    .value("height", "H", default: "844", "the collection view's bounds height, points"),
    .value("offset", "X,Y", default: "0,0", "contentOffset: the visible bounds' origin, points"),
    .value("rect", "X,Y,W,H", default: "all elements", "output only layoutAttributesForElements(in: rect)"),
    .value("item", "S:I", default: "-", "output only the cell at index path S:I (I alone means 0:I)"),
    .value("target-offset", "X,Y", default: "-",
           "also compute targetContentOffset(forProposedContentOffset: X,Y, withScrollingVelocity:)"),
    .value("velocity", "VX,VY", default: "0,0", "scrolling velocity for --target-offset, points/ms"),
    .value("scale", "S", default: "no snapping", "snap frames to the device pixels of a screen of scale S"),
    .value("layout-direction", "DIR", default: "left-to-right",
           "right-to-left: every element mirrored about the content's vertical centre (flipsHorizontallyInOppositeLayoutDirection)",
           choices: LayoutDirection.allCases.map(\.rawValue)),
    .value("precision", "N|full", default: "3", "decimals of printed numbers (0-15), or full: shortest round-trip"),
    .value("count", "N", default: "per engine", "size of the embedded data (no DATASET): items, or rings for ring",
           allowedInDataset: false),
    .value("seed", "N", default: "1", "seed of the embedded random data", allowedInDataset: false),
    .value("device", "NAME", default: "-",
           "bounds of a device in points, portrait ('iPhone 15'; NAME-landscape swaps; see 'cvlayout devices'); --width, --height win"),
    .flag("visible", "output only layoutAttributesForElements(in:) of the visible bounds at --offset"),
    .value("canvas", "AREA", default: "all",
           "SVG: the area drawn: all (content and every element), content, visible (bounds at --offset), rect (--rect)",
           choices: SVGCanvas.allCases.map(\.rawValue)),
    .value("labels", "STYLE", default: "index-path with 2+ sections, else item", "SVG: what the shapes are labelled with",
           choices: SVGLabels.allCases.map(\.rawValue)),
    .flag("no-labels", "SVG: no labels (--labels none)"),
    .value("scroll-to", "X,Y", default: "-",
           "SVG: an animation in which the content offset moves from --offset to X,Y, every element as its engine gives it"),
    .value("frames", "N", default: "60", "with --scroll-to: keyframes, 2 to 1000 (3 or more with --snap)"),
    .value("duration", "S", default: "2", "with --scroll-to: seconds from the first keyframe to the last"),
    .value("timing", "TIMING", default: "ease-out",
           "with --scroll-to: how the offset moves: ease-out (decelerates, 1 − (1 − u)³) or linear",
           choices: ScrollTiming.allCases.map(\.rawValue)),
    .flag("snap", "with --scroll-to: go on from X,Y to the engine's targetContentOffset for X,Y and --velocity"),
    .value("delete", "S:I,…", default: "-", "lay out after deleting these items (index paths before the update)",
           allowedInDataset: false),
    .value("insert", "S:I[=H|=WxH],…", default: "-",
           "lay out after inserting items here (index paths after the update), with a height or size for data that gives them",
           allowedInDataset: false),
    .value("move", "S:I..S:I,…", default: "-", "lay out after moving items (old index path..new one; S:I->S:I also works)",
           allowedInDataset: false),
    .value("check", "GOLDEN", default: "-", checkOptionHelp, allowedInDataset: false),
    .value("check-tolerance", "PT", default: "0.001", "with --check: numbers within PT of the golden's are equal (diff's --tolerance)",
           allowedInDataset: false),
    .value("check-fields", "LIST", default: "all",
           "with --check: compare only these, comma-separated (diff's --fields)", choices: DiffOptions.selectorNames,
           allowedInDataset: false),
    .value("artifacts", "DIR", default: "$CVLAYOUT_ARTIFACTS, else none",
           "with --check: when the layout differs, write DIR/NAME.actual.EXT, DIR/NAME.diff.svg and DIR/NAME.report.txt",
           allowedInDataset: false),
    .value("record", "MODE", default: "$CVLAYOUT_RECORD, else never",
           "with --check: write GOLDEN from the layout (atomically; status 1): missing when it does not exist, failed when it differs, all",
           choices: RecordMode.allCases.map(\.rawValue), allowedInDataset: false),
    .value("report", "FORMAT", default: "text", "with --check: the report's format",
           choices: DiffReportFormat.allCases.map(\.rawValue), allowedInDataset: false),
    .value("report-file", "FILE", default: "stderr", "with --check: write the report to FILE (atomically)",
           allowedInDataset: false),
]

/// An option's long name: a `GlobalOption`, or an engine's option as text.
protocol OptionName {
    var optionName: String { get }
}

extension String: OptionName {
    var optionName: String { self }
}

/// The global options' names, for the code that reads them (ReferenceTests checks each is in
/// `globalOptions`, so a renamed option cannot be silently ignored).
enum GlobalOption: String, CaseIterable, OptionName {
    case format, output, width, height, offset, rect, item, velocity, scale, precision, count, seed, device
    case visible, canvas, labels, delete, insert, move, check, artifacts, record, report, frames, duration
    case timing, snap
    case targetOffset = "target-offset", noLabels = "no-labels", reportFile = "report-file", scrollTo = "scroll-to"

    var optionName: String { rawValue }
}

/// The command line, or a dataset's `"options"` (file, JSON path).
enum OptionOrigin: Equatable {
    case commandLine
    case dataset(file: String, path: String)
}

struct OptionValue {
    var raw: DatasetOption.Value
    var origin: OptionOrigin
}

/// The options of one run by long name, with typed accessors: a value that does not parse is a
/// usage error (64) from the command line, bad data (65) from a dataset.
struct OptionValues {
    var values: [String: OptionValue] = [:]
    /// The engine, for usage hints.
    let engine: String

    func has(_ name: some OptionName) -> Bool { values[name.optionName] != nil }

    func flag(_ name: some OptionName) throws -> Bool {
        guard let v = values[name.optionName] else { return false }
        if case .bool(let b) = v.raw { return b }
        throw malformed(name, v, expected: "true or false")
    }

    /// The value as text (numbers in their shortest form); a boolean is refused as not `expected`.
    func text(_ name: some OptionName, expected: String = "a number or a string") throws -> String? {
        guard let v = values[name.optionName] else { return nil }
        switch v.raw {
        case .string(let s): return s
        case .number(let d): return NumberPrecision.full.text(d)
        case .bool: throw malformed(name, v, expected: expected)
        }
    }

    func number(_ name: some OptionName, default fallback: Double) throws -> Double {
        if case .number(let d)? = values[name.optionName]?.raw { return d }
        return try parsed(name, expected: "a number", ValueSyntax.number) ?? fallback
    }

    /// `name`'s integer: one of magnitude 2⁵³ or more is bad data (65, worded by `outOfRange`
    /// given the value as typed, when given); text that is no integer is `malformed`.
    func integer(_ name: some OptionName, default fallback: Int,
                 outOfRange: ((String) -> CLIError)? = nil) throws -> Int {
        guard let v = values[name.optionName], let s = try text(name, expected: "an integer") else { return fallback }
        if let n = ValueSyntax.integer(s) { return n }
        if ValueSyntax.isOutOfRangeInteger(s) {
            throw outOfRange?(shortenedForMessage(s)) ?? self.outOfRange(name, v, expected: "an integer of magnitude below 2^53")
        }
        throw malformed(name, v, expected: "an integer")
    }

    /// A well-formed value of `name` out of range: bad data (65) from anywhere, worded as `malformed`.
    func outOfRange(_ name: some OptionName, _ v: OptionValue, expected: String) -> CLIError {
        let error = malformed(name, v, expected: expected)
        return error.status == ExitStatus.data ? error : .data(error.message)
    }

    func indexPath(_ name: some OptionName) throws -> IndexPath? {
        try parsed(name, expected: "S:I or I, non-negative integers", ValueSyntax.indexPath)
    }

    /// `name`'s value as `parse` reads its text (`nil` when absent); else `malformed`.
    func parsed<T>(_ name: some OptionName, expected: String, _ parse: (String) -> T?) throws -> T? {
        guard let v = values[name.optionName] else { return nil }
        guard let s = try text(name, expected: expected), let value = parse(s) else {
            throw malformed(name, v, expected: expected)
        }
        return value
    }

    func choice<T: RawRepresentable>(_ name: some OptionName, default fallback: T) throws -> T
        where T.RawValue == String {
        guard let v = values[name.optionName] else { return fallback }
        let choices = knownOptions(for: engine).first { $0.name == name.optionName }?.choices ?? []
        let expected = "one of \(choices.joined(separator: ", "))"
        // Case-insensitive, as -f is: `--canvas Visible`, `--layout-direction RIGHT-TO-LEFT`.
        let given = try text(name, expected: expected)
        let spelled = given.flatMap { s in choices.first { $0.lowercased() == s.lowercased() } } ?? given
        guard let s = spelled, let c = T(rawValue: s) else {
            let hint = given.flatMap { nearest($0, among: choices) }.map { "; did you mean '\($0)'?" } ?? ""
            throw malformed(name, v, expected: expected, hint: hint)
        }
        return c
    }

    /// `--name: expected X, got 'v'` (64) or `file: options.name: expected X, got "v"` (65).
    func malformed(_ name: some OptionName, _ v: OptionValue, expected: String, hint: String = "") -> CLIError {
        var shown = quotedForMessage(v.raw)
        if case .string(let s) = v.raw { shown = shortenedForMessage(s) }
        switch v.origin {
        case .commandLine:
            return .usage("--\(name.optionName): expected \(expected), got '\(shown)'\(hint)", engine: engine)
        case .dataset(let file, let path):
            return .data("\(file): \(path): expected \(expected), got \(quotedForMessage(v.raw))\(hint)")
        }
    }

    /// `name`'s value as given, for messages: `'1e400'` (command line), `1e400` or `"x"` (dataset).
    func shownValue(of name: some OptionName) -> String? {
        guard let v = values[name.optionName] else { return nil }
        if case (.commandLine, .string(let s)) = (v.origin, v.raw) { return "'\(s)'" }
        return quotedForMessage(v.raw)
    }

    /// A conflict between the values of `names`: usage (64) when all came from the command
    /// line, else bad data (65) after the first dataset value's file and JSON path.
    func conflict(_ names: [any OptionName], _ problem: CLIProblem) -> CLIError { conflict(names, problem.message) }

    /// `conflict` with its message worded (the golden check's).
    func conflict(_ names: [any OptionName], _ message: String) -> CLIError {
        let fromDataset = names.first { inDataset($0) }
        var error = fromDataset.map { CLIError.data("\(source(of: $0)!): \(message)") }
            ?? .usage(message, engine: engine)
        error.isConflict = true
        return error
    }

    /// `conflict` for `name`'s value, shown as `value`, with `others` involved: `--heart-to 1:1: reason`
    /// (64), `data.json: options.heart-to: 1:1: reason` (65) from the dataset, or as `conflict(_:_:)`.
    func conflict(in name: some OptionName, _ value: String, _ reason: CLIProblem,
                  involving others: [any OptionName] = []) -> CLIError {
        if inDataset(name) { return conflict([name], .at(value, reason)) }
        return conflict(others, .at("--\(name.optionName) \(value)", reason))
    }

    private func inDataset(_ name: some OptionName) -> Bool {
        (values[name.optionName]?.origin ?? .commandLine) != .commandLine
    }

    /// The message prefix naming where `name`'s value came from.
    func source(of name: some OptionName) -> String? {
        guard let v = values[name.optionName] else { return nil }
        if case .dataset(let file, let path) = v.origin { return "\(file): \(path)" }
        return "--\(name.optionName)"
    }
}

func quotedForMessage(_ raw: DatasetOption.Value) -> String {
    switch raw {
    case .string(let s): return "\"\(shortenedForMessage(s))\""
    case .number(let d): return NumberPrecision.full.text(d)
    case .bool(let b): return b ? "true" : "false"
    }
}

/// A value as a message shows it: at most `limit` characters, control characters as `?`.
func shortenedForMessage(_ text: String, limit: Int = 60) -> String {
    let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
    return String(String.UnicodeScalarView(shown.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
}
