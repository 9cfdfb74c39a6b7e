import LayoutCore
import LayoutFormats

/// Exit statuses (SPEC section 3, BSD sysexits).
public enum ExitStatus {
    /// Success.
    public static let success: Int32 = 0
    /// EX_USAGE: unknown flag or engine, missing or unparsable value, conflicting flags,
    /// index path out of range.
    public static let usage: Int32 = 64
    /// EX_DATAERR: malformed or invalid data, from the dataset or from a flag that parsed.
    public static let data: Int32 = 65
    /// EX_NOINPUT: the dataset cannot be opened.
    public static let noInput: Int32 = 66
    /// EX_CANTCREAT: the output file cannot be created.
    public static let cannotCreate: Int32 = 73
    /// EX_IOERR: a read or write error.
    public static let ioError: Int32 = 74
    /// EX_SOFTWARE: cvlayout found itself inconsistent (a defect to report), e.g. an engine
    /// whose elements changed with the content offset under `--scroll-to`.
    public static let software: Int32 = 70
}

/// An error of the command line, already worded: the single place where every failure gets
/// its message and exit status.
struct CLIError: Error, Equatable {
    let status: Int32
    let message: String
    /// For usage errors: the engine whose `--help` the hint names (`nil`: `cvlayout --help`).
    let usageEngine: String?
    let isUsage: Bool
    /// Whether the error is a conflict between values or an index path the data does not
    /// hold, not the fault of one value on its own (`OptionValues.conflict`): a dataset value
    /// the command line overrides is checked alone, and these do not count against it.
    var isConflict = false

    static func usage(_ message: String, engine: String?) -> CLIError {
        CLIError(status: ExitStatus.usage, message: message, usageEngine: engine, isUsage: true)
    }

    static func data(_ message: String) -> CLIError {
        CLIError(status: ExitStatus.data, message: message, usageEngine: nil, isUsage: false)
    }

    static func status(_ status: Int32, _ message: String) -> CLIError {
        CLIError(status: status, message: message, usageEngine: nil, isUsage: false)
    }

    /// The stderr text: `cvlayout: error: …`, plus the usage hint for usage errors.
    var stderrText: String {
        // One line whatever the input held: control characters (a newline in a file name)
        // are shown as `?`.
        let line = questioningControlCharacters(message)
        var text = "cvlayout: error: \(line)\n"
        if isUsage {
            text += "Run 'cvlayout \(usageEngine.map { $0 + " " } ?? "")--help' for usage.\n"
        }
        return text
    }
}

extension CLIError {
    /// Words a core error, naming the flag, dataset option or JSON path that supplied the value.
    static func from(_ error: LayoutError, options: OptionValues, datasetName: String?,
                     dataset: Dataset?) -> CLIError {
        func where_(_ name: String, section: Int?) -> String {
            if let section, let dataset, section < dataset.sections.count {
                let sectionPath = dataset.sections[section].path
                let prefix = sectionPath.isEmpty ? "" : sectionPath + "."
                return "\(datasetName ?? "<dataset>"): \(prefix)\(name)"
            }
            return options.source(of: name) ?? "--\(name)"
        }
        switch error {
        case .unusedParameter(let name, let section, let engine):
            // Given at all: no value to show.
            let why = engine == FlowLayout.name && name == "columns" ? " (lines take as many items as fit)"
                : name == "items" ? " (item objects are the waterfall's; give heights or sizes)" : ""
            return .data("\(where_(name, section: section)): not used by \(engine)\(why)")
        case .invalidParameter(let name, _, let value, .optimalBandRows(let bound)):
            return .data("\(where_(name, section: nil)) optimal: \(NumberFormat.messageText(value)) items whose rows within the "
                         + "height band number more than \(bound), the limit of optimal breaking (256 an item and a million "
                         + "more, to stay linear): aspect ratios so small that thousands of items fit a row; "
                         + "use --breaking greedy, some spacing, or a higher --row-height")
        case .invalidParameter(let name, let section, let value, let requirement):
            // An overflowing value is shown as it was written (`'1e400'`), not as infinity.
            let shown = value.isFinite || section != nil ? nil : options.shownValue(of: name)
            return .data("\(where_(name, section: section)): \(expected(requirement)), got \(shown ?? NumberFormat.messageText(value))")
        case .invalidItem(let indexPath, let problem):
            return .data("\(datasetName ?? "<dataset>"): item \(indexPath): \(described(problem))")
        case .spanTooWide(let section, let item, let span, let columns, let columnsOfSection):
            let given = columnsOfSection ? "" : " (\(options.source(of: "columns") ?? "the default"))"
            return .data("\(where_("items[\(item)].span", section: section)): span \(span) is wider than the section's "
                         + "\(columns) columns\(given)")
        case .tooManySections(let engine, let count):
            return .data("\(datasetName ?? "<dataset>"): item 1:0: \(engine) lays out one section; the dataset has \(count)")
        case .updateDoesNotFit(let final, let items):
            return .data("--\(final ? "to" : "from"): the \(final ? "final" : "initial") layout's item counts do not match "
                         + "the update, got \(items)")
        case .columnsDoNotFit(let section, let columns, let columnWidth, let available):
            let own = section.flatMap { s in dataset.flatMap { s < $0.sections.count ? $0.sections[s] : nil } }
            if !(available > 0) {
                // Nothing to share out: the width less the insets is the cause, not the count;
                // named where the insets were given (the section's own, or the option), else the width.
                let cause = own?.insets != nil ? where_("insets", section: section)
                    : options.has("insets") ? where_("insets", section: nil) : where_("width", section: nil)
                return .data("\(cause): no room for columns: the width less the insets "
                             + "leaves \(NumberFormat.string(available)) points")
            }
            // The count, where it was given; else the spacing, where that was given.
            let place = own?.columns == nil && own?.columnSpacing != nil ? where_("column-spacing", section: section)
                : own?.columns == nil && !options.has("columns") && options.has("column-spacing")
                ? where_("column-spacing", section: nil) : where_("columns", section: own?.columns != nil ? section : nil)
            return .data("\(place): \(columns) columns do not fit in \(NumberFormat.string(available)) points "
                         + "(column width \(NumberFormat.string(columnWidth)))")
        case .supplementaryTooWide(let kind, let section, let width):
            return .data("--\(kind.rawValue)-insets: the \(kind.rawValue) of section \(section) would be \(NumberFormat.string(width)) points wide")
        case .nonFiniteLayout(let what):
            return .data("\(datasetName.map { $0 + ": " } ?? "")the layout's numbers are not finite (\(what)): "
                         + (options.has(GlobalOption.scale) ? "sizes overflow when summed or multiplied by --scale"
                                                 : "sizes overflow when summed"))
        case .unknownMeasurement(let key):
            let file = (try? options.text("sizes", expected: "a file name")).flatMap { $0 } ?? "--sizes"
            return .data("\(file): \"\(key)\": names no element of the layout")
        case .tooManyElements(let count, let limit):
            return .data("\(datasetName.map { $0 + ": " } ?? "")\(count == Int.max ? "too many" : String(count)) "
                         + "elements: more than the limit of \(limit)")
        }
    }

    /// What a parameter's value was expected to be, in words.
    static func expected(_ requirement: LayoutError.Requirement) -> String {
        switch requirement {
        case .finite: "expected a finite number"
        case .finiteNonNegative: "expected a finite number ≥ 0"
        case .finitePositive: "expected a finite number > 0"
        case .integer(let bound): "expected an integer ≥ \(bound)"
        case .unitInterval: "expected a number from 0 to 1"
        case .atLeastMinus(let length): "expected a number ≥ −\(NumberFormat.messageText(length)) (minus the shortest item length)"
        case .lineLengthBetweenInsets: "expected a line length ≥ 0 between the insets"
        case .finiteAngles: "expected finite angles"
        case .flickrRowWidth: "expected a row width > 0 between the insets, less the spacing (flickr/justified-layout divides 0 by 0 at 0)"
        case .spanningColumns(let bound): "a section whose items span columns has at most \(bound) columns"
        case .optimalBandRows(let bound): "at most \(bound) rows within the height band"
        }
    }

    /// What is wrong with an item, in words.
    private static func described(_ problem: LayoutError.ItemProblem) -> String {
        switch problem {
        case .height: "expected a finite height ≥ 0"
        case .size(let size): "expected a finite size ≥ 0, got \(size)"
        case .sizeNeedsPositiveWidth: "a size needs width > 0 and height ≥ 0"
        case .scaledHeightNotFinite: "its height at the column width (height × column width ÷ width) is not finite"
        case .aspectRatio: "expected an aspect ratio (width ÷ height) that is finite and > 0"
        }
    }

    /// Words a dataset error: `file: path: message` or `file:line:column: message`.
    static func from(_ error: DatasetError, file: String) -> CLIError {
        switch error {
        case .syntax(let line, let column, let message):
            return .data("\(file):\(line):\(column): invalid JSON: \(message)")
        case .invalidValue(let path, let message):
            return .data("\(file): \(path): \(message)")
        }
    }
}
