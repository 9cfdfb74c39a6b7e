import Foundation
import LayoutCore
import LayoutDatasets
import LayoutWriters
import LayoutComparison

/// What went wrong on the command line, with the values its message names (as shown), worded
/// by `message` and `status` in one place (as swift-argument-parser does).
enum CLIProblem: Equatable {
    case takesNoArguments(String)
    case optionBeforeEngine(String)
    /// `nearest`: the "did you mean" name.
    case unknown(Unknown, String, nearest: String?)
    case moreThanOneDataset(String, String)
    case takesNoValue(String)
    case missingValue(String, valueName: String)
    case shellCount(Int)
    /// `-o NAME` whose extension says another format (`says`; a picture's when `picture`) than `-f`.
    case formatContradicts(output: String, says: String, format: String, picture: Bool)
    case extensionNotWritten(output: String, ext: String, picture: Bool)
    case cannotOpen(String, FileFailure)
    /// 66 without a reason (the measured sizes' file).
    case cannotRead(String, FileFailure?)
    case tooLarge(String, limit: Int)
    /// A layout file (diff, `--check`; status 2 by `CLIError.trouble`) past `limit` bytes.
    case layoutTooLarge(String, limit: Int)
    case cannotOpenOutput(String, FileFailure, creating: Bool)
    /// `nil`: standard output.
    case cannotWrite(String?, FileFailure)
    /// The value at `source` (a flag or `file: path`) is not as expected.
    case invalidValue(String, Expected, got: String?)
    /// The reason a value cannot be used, after its flag and value (`options.conflict(in:)`).
    case expected(Expected)
    case commandLineOnly(String, key: String)
    case optionAsKey(file: String, key: String)
    /// The message of another problem, after `source`: (`file: path`, a flag).
    indirect case at(String, CLIProblem)
    case cannotBeUsedTogether(String, String)
    case visibleWith(String)
    case scrollToWith(String)
    case scrollToNeedsSVG(String)
    case goesWithScrollTo(String)
    /// An index path not in a layout of `counts` items a section; `section`: a missing section.
    case noSuchItem(section: Int?, counts: [Int])
    case batchUpdate(BatchUpdateError, counts: [Int])
    case insertMeasure(LayoutCore.IndexPath, section: ItemUpdateKind, given: ItemMeasure?)
    case moveAcrossKinds(section: Int, ItemUpdateKind)
    /// `engine` lays out one side.
    case notUsedByTransitions(String, key: String, engine: String)
    case optionNotUsedByTransitions(side: String?, String)
    case giveToTransition(side: String, String)
    case sideNeedsEngine(side: String, String)
    case inSide(String, engine: String?, message: String)
    /// `quote` nil: a trailing backslash.
    case unterminated(String, quote: Character?, text: String)
    case transitionItemsDiffer(final: [Int], initial: [Int])
    case goldenNotAFile(String)
    case notOneOf(String, [String], got: String, nearest: String?)
    case scrollElementsDiffer(keyframe: Int)
    case scrollTooLarge(ScrollSVGWriter.TooLarge)
    /// A message without values, its text the raw value.
    case fixed(Fixed)

    enum Fixed: String {
        case noEngine = "no engine given (try 'cvlayout engines')"
        case fromRequired = "--from is required: the layout to start from, e.g. --from 'stack'"
        case goldenIsHeartSamples = "--check: GOLDEN is a CSV of heart samples; a transition writes elements"
        case countWithDataset = "--count sets the size of the embedded data; it cannot be used with a DATASET"
        case canvasRectNeedsRect = "--canvas rect draws the --rect area: give --rect X,Y,W,H (or --visible)"
        case snapNeedsKeyframes = "--snap needs 3 keyframes or more (the start, X,Y and the target)"
        case seedEndsAtCentre = "the seed style always ends at the centre, 0:0 (--heart-style smooth goes to any avatar)"
        case heartSamplesWithNoHeart = "--heart-samples samples the heart path; it cannot be used with --no-heart"
        case optimalWithFlickr = "--compat flickr goes with --breaking greedy (Flickr breaks rows item by item)"
        case optimalWithBreakout = "--breakout-cadence goes with --breaking greedy (optimal rows are all justified alike)"
        case rectFarEdge = "X+W and Y+H must be finite too (the far edge is past the largest number)"
    }

    /// What a name was supposed to name.
    enum Unknown: Equatable {
        case engine, option, device, shell, datasetOption(engine: String)

        func words(_ name: String) -> String {
            switch self {
            case .engine: "unknown engine '\(name)'"
            case .option: "unknown option '\(name)'"
            case .device: "unknown device '\(name)' (see 'cvlayout devices')"
            case .shell: "unknown shell '\(name)' (expected bash, zsh or fish)"
            case .datasetOption(let engine): "unknown option for \(engine)"
            }
        }
    }

    /// Why a file cannot be opened, read or written, in words.
    struct FileFailure: Equatable {
        let words: String
        static let noSuchFile = Self(words: "no such file")
        static let isADirectory = Self(words: "is a directory")
        static let permissionDenied = Self(words: "permission denied")
        static let emptyPath = Self(words: "empty path")
        /// The system's words (strerror(3), or Foundation's description).
        static func system(_ text: String) -> Self { Self(words: text) }
        /// strerror(3) of the current `errno`.
        static var lastError: Self { .system(String(cString: strerror(errno))) }
    }

    enum Expected: Equatable {
        case domain(LayoutError.Requirement)
        case integer(from: Int, to: Int)
        /// A finite number of seconds ≥ `atLeast` (`nil`: > 0).
        case seconds(atLeast: Double?)
        case finiteNumbers, boolean, rect, insertSize, insertHeight

        var words: String {
            switch self {
            case .domain(let requirement): CLIError.expected(requirement)
            case .integer(let low, let high): "expected an integer from \(low) to \(high)"
            case .seconds(let bound): "expected a finite number of seconds " + (bound.map { "≥ \(describe($0))" } ?? "> 0")
            case .finiteNumbers: "expected finite numbers"
            case .boolean: "expected true or false"
            case .rect: "expected finite X,Y and W,H ≥ 0"
            case .insertSize: "expected a size W > 0 and H ≥ 0, finite"
            case .insertHeight: "expected a finite height ≥ 0"
            }
        }
    }

    var status: Int32 {
        switch self {
        case .cannotOpen, .cannotRead(_, nil): ExitStatus.noInput
        case .cannotRead, .cannotWrite: ExitStatus.ioError
        case .cannotOpenOutput: ExitStatus.cannotCreate
        case .scrollElementsDiffer: ExitStatus.software
        case .tooLarge, .invalidValue, .commandLineOnly, .optionAsKey, .insertMeasure, .moveAcrossKinds,
             .notUsedByTransitions, .transitionItemsDiffer, .scrollTooLarge: ExitStatus.data
        case .at(_, let problem): problem.status
        default: ExitStatus.usage
        }
    }

    /// The message, after `cvlayout: error: `.
    var message: String {
        switch self {
        case .fixed(let fixed): fixed.rawValue
        case .takesNoArguments(let command): "'\(command)' takes no arguments"
        case .optionBeforeEngine(let shown): "expected an engine before options, got '\(shown)'"
        case .unknown(let kind, let name, let nearest):
            kind.words(name) + (nearest.map { "; did you mean '\(kind == .option ? "--" : "")\($0)'?" } ?? "")
        case .moreThanOneDataset(let first, let second): "more than one DATASET: '\(first)' and '\(second)'"
        case .takesNoValue(let name): "--\(name) takes no value"
        case .missingValue(let name, let valueName): "missing value for --\(name) (\(valueName))"
        case .shellCount(let n):
            "expected one shell (\(CompletionShell.allCases.map(\.rawValue).joined(separator: ", "))), got \(n) arguments"
        case .formatContradicts(let output, let says, let format, let picture):
            "-o \(output): the name says \(says.uppercased()) but -f \(format) writes \(format.uppercased()); "
                + (picture ? pictureHint(output, ext: says) : "name the file .\(format), or drop -f")
        case .extensionNotWritten(let output, let ext, let picture):
            "-o \(output): cvlayout writes \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")), not .\(ext); "
                + (picture ? pictureHint(output, ext: ext) : "give -f json, -f csv or -f svg, or name the file .json, .csv or .svg")
        case .cannotOpen(let name, let failure): "\(name): cannot open: \(failure.words)"
        case .cannotRead(let name, let failure): "\(name): cannot read" + (failure.map { ": " + $0.words } ?? "")
        case .tooLarge(let name, let limit):
            "\(name): larger than \(limit) bytes (a dataset holds at most \(maximumElementCount) elements)"
        case .layoutTooLarge(let name, let limit): "\(name): larger than \(limit) bytes (the most a layout file may hold)"
        case .cannotOpenOutput(let name, let failure, let creating):
            "cannot \(creating ? "create" : "open") output file '\(name)': \(failure.words)"
        case .cannotWrite(let name, let failure): "cannot write \(name.map { "'\($0)'" } ?? "to standard output"): \(failure.words)"
        case .invalidValue(let source, let expected, let got): "\(source): \(expected.words)" + (got.map { ", got " + $0 } ?? "")
        case .expected(let expected): expected.words
        case .commandLineOnly(let source, let key): "\(source): '\(key)' can only be given on the command line"
        case .optionAsKey(let file, let key):
            "\(file): \(key): unknown key; '\(key)' is an option: options go under \"options\" ({\"options\": {\"\(key)\": …}, …})"
        case .at(let source, let problem): "\(source): \(problem.message)"
        case .cannotBeUsedTogether(let a, let b): "\(a) and \(b) cannot be used together"
        case .visibleWith(let other): "--visible and --\(other) cannot be used together (--visible is --rect of the visible bounds)"
        case .scrollToWith(let other):
            "--scroll-to and --\(other) cannot be used together (--scroll-to draws every element at every keyframe)"
        case .scrollToNeedsSVG(let format):
            "--scroll-to makes an animated SVG: add -f svg (for \(format.uppercased()), run once per offset with --offset X,Y)"
        case .goesWithScrollTo(let name): "--\(name) goes with --scroll-to X,Y (the animated SVG)"
        case .noSuchItem(let section, let counts):
            "no such item (\(section.map { "no section \($0)" } ?? "index path out of range"): " + Self.items(counts)
        case .batchUpdate(let error, let counts): Self.words(error, counts: counts)
        case .insertMeasure(let path, let kind, let given):
            "--insert \(path): section \(path.section) gives \(kind.rawValue); the item needs \(kind.wanted), got "
                + (given.map { if case .height = $0 { "a height" } else { "a size" } } ?? "none")
        case .moveAcrossKinds(let section, let kind):
            "--move: an item cannot move into section \(section), which gives \(kind.rawValue), from a section of another kind"
        case .notUsedByTransitions(let source, let key, let engine):
            "\(source): '\(key)' is not used by transitions (they write every element of both layouts); "
                + "remove it, or lay out one side with 'cvlayout \(engine)'"
        case .optionNotUsedByTransitions(let side, let name): (side.map { "--\($0): " } ?? "") + "--\(name) is not used by transitions"
        case .giveToTransition(let side, let name): "--\(side): give --\(name) to 'cvlayout transition' itself, not inside --\(side)"
        case .sideNeedsEngine(let side, let text): "--\(side): expected an engine and its options, got '\(text)'"
        case .inSide(let side, let engine, let message): "--\(side)\(engine.map { " '\($0)'" } ?? ""): " + message
        case .unterminated(let option, let quote, let text):
            "--\(option): " + (quote.map { "unterminated \($0) in '\(text)'" } ?? "trailing backslash in '\(text)'")
        case .transitionItemsDiffer(let final, let initial):
            "--to: the final layout (\(Self.items(final)) does not hold the initial layout's items "
                + "after the update (\(Self.items(initial)); lay both out from the same data"
        case .goldenNotAFile(let golden): "--check: GOLDEN must be a file, not '\(golden)'"
        case .notOneOf(let name, let choices, let got, let nearest):
            "\(name): expected one of \(choices.joined(separator: ", ")), got '\(got)'" + (nearest.map { "; did you mean '\($0)'?" } ?? "")
        case .scrollElementsDiffer(let k): "--scroll-to: the elements at keyframe \(k) are not those of the first keyframe"
        case .scrollTooLarge(.keyframeWork(let keyframes, let elements, let limit)):
            "--scroll-to: \(keyframes) keyframes of \(elements) elements would lay out more than "
                + "\(limit) elements (the limit of a scroll); fewer --frames or fewer elements fit"
        case .scrollTooLarge(.bytes(let limit, let elements, let keyframes)):
            "--scroll-to: the animated SVG would be larger than \(describe(Double(limit) / 1_048_576)) MiB "
                + "(\(elements) elements, \(keyframes) keyframes); fewer --frames, fewer elements or a shorter scroll fit"
        }
    }

    /// `section 0 has 50 items)`, for out-of-range messages: the items of each section.
    static func items(_ counts: [Int]) -> String {
        switch counts.count {
        case 0: "the layout has no sections)"
        case 1: "section 0 has \(counts[0]) \(counts[0] == 1 ? "item" : "items"))"
        default:
            "sections 0-\(counts.count - 1) have " + counts.prefix(8).map(String.init).joined(separator: ", ")
                + (counts.count > 8 ? ", … items)" : " items)")
        }
    }

    /// A batch-update error, naming the flag and the index path.
    private static func words(_ error: BatchUpdateError, counts: [Int]) -> String {
        switch error {
        case .outOfRange(let path, let operation, _, nil):
            "--\(operation) \(path): no section \(path.section) (the data has \(counts.count) section" + (counts.count == 1 ? ")" : "s)")
        case .outOfRange(let path, let operation, let before, let count?):
            "--\(operation) \(path): " + (before ? "no such item (index path out of range: section \(path.section) has "
                                                    : "index path out of range after the update (section \(path.section) will have ")
                + "\(count) \(count == 1 ? "item" : "items"))"
        case .usedTwice(let path, let operation, let before):
            before ? "--\(operation) \(path): the item at \(path) is deleted or moved more than once"
                : "--\(operation) \(path): the index path \(path) is inserted or moved to more than once"
        }
    }
}

extension ItemUpdateKind {
    /// The measure `--insert` needs for an item of a section of this kind.
    var wanted: String {
        switch self {
        case .count: "no measure (S:I)"
        case .heights: "a height (S:I=H)"
        case .sizes: "a size (S:I=WxH)"
        case .objects: "a height or a size (S:I=H or S:I=WxH)"
        }
    }
}

extension CLIError {
    /// The error of `problem`, its status and message from `CLIProblem`; `engine`: the engine
    /// whose `--help` a usage error's hint names.
    init(_ problem: CLIProblem, engine: String? = nil) {
        let status = problem.status
        self.init(status: status, message: problem.message, usageEngine: engine, isUsage: status == ExitStatus.usage)
    }

    /// `problem`'s message as bad data (65), whatever its own status.
    static func data(_ problem: CLIProblem) -> CLIError { .data(problem.message) }

    /// `problem`'s message as diff's trouble (2), whatever its own status.
    static func trouble(_ problem: CLIProblem) -> CLIError { .status(DiffStatus.trouble, problem.message) }
}

extension CollectionLayout {
    var itemCounts: [Int] { (0..<numberOfSections).map(numberOfItems(inSection:)) }
}

/// The rsvg-convert recipe for a picture named `name` (its extension `ext`).
func pictureHint(_ name: String, ext: String) -> String {
    switch ext {
    case "png": "for a picture: -f svg | rsvg-convert > \(name)"
    case "pdf": "for a PDF: -f svg | rsvg-convert -f pdf > \(name)"
    default: "for a picture: -f svg | rsvg-convert > out.png (rsvg-convert writes PNG and PDF; convert that to .\(ext))"
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
            return .data("\(where_(name, section: nil)) optimal: \(describe(value)) items whose rows within the "
                         + "height band number more than \(bound), the limit of optimal breaking (256 an item and a million "
                         + "more, to stay linear): aspect ratios so small that thousands of items fit a row; "
                         + "use --breaking greedy, some spacing, or a higher --row-height")
        case .invalidParameter(let name, let section, let value, let requirement):
            // An overflowing value is shown as it was written (`'1e400'`), not as infinity.
            let shown = value.isFinite || section != nil ? nil : options.shownValue(of: name)
            return .data("\(where_(name, section: section)): \(expected(requirement)), got \(shown ?? describe(value))")
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
                             + "leaves \(NumberPrecision.standard.text(available)) points")
            }
            // The count, where it was given; else the spacing, where that was given.
            let place = own?.columns == nil && own?.columnSpacing != nil ? where_("column-spacing", section: section)
                : own?.columns == nil && !options.has("columns") && options.has("column-spacing")
                ? where_("column-spacing", section: nil) : where_("columns", section: own?.columns != nil ? section : nil)
            return .data("\(place): \(columns) columns do not fit in \(NumberPrecision.standard.text(available)) points "
                         + "(column width \(NumberPrecision.standard.text(columnWidth)))")
        case .supplementaryTooWide(let kind, let section, let width):
            return .data("--\(kind.rawValue)-insets: the \(kind.rawValue) of section \(section) would be \(NumberPrecision.standard.text(width)) points wide")
        case .nonFiniteLayout(let number):
            let what = switch number {
            case .contentSize: "contentSize"
            case .heartPath: "the heart path"
            case .targetContentOffset: "targetContentOffset"
            case .item(let path): "the frame of item \(path)"
            case .supplementary(let kind, let section): "the \(kind ?? "element") of section \(section)"
            case .flickrWidth(let item, let section): "the width of item \(item) in section \(section)"
            }
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
        case .atLeastMinus(let length): "expected a number ≥ −\(describe(length)) (minus the shortest item length)"
        case .lineLengthBetweenInsets: "expected a line length ≥ 0 between the insets"
        case .finiteAngles: "expected finite angles"
        case .flickrRowWidth: "expected a row width > 0 between the insets, less the spacing (flickr/justified-layout divides 0 by 0 at 0)"
        case .spanningColumns(let bound): "a section whose items span columns has at most \(bound) columns"
        case .optimalBandRows(let bound): "at most \(bound) rows within the height band"
        }
    }

    private static func described(_ problem: LayoutError.ItemProblem) -> String {
        switch problem {
        case .height: "expected a finite height ≥ 0"
        case .size(let size): "expected a finite size ≥ 0, got \(size)"
        case .sizeNeedsPositiveWidth: "a size needs width > 0 and height ≥ 0"
        case .scaledHeightNotFinite: "its height at the column width (height × column width ÷ width) is not finite"
        case .aspectRatio: "expected an aspect ratio (width ÷ height) that is finite and > 0"
        }
    }

    /// Words a dataset error: `file: path: message` or `file:line:column: invalid JSON: message`.
    static func from(_ error: DatasetError, file: String) -> CLIError {
        if case .syntax(let line, let column, let message) = error { return .data("\(file):\(line):\(column): invalid JSON: \(message)") }
        return .data("\(file): \(error.path ?? ""): \(error.message)")
    }
}
