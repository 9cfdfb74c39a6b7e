import Foundation
import LayoutCore
import LayoutComparison
import LayoutDatasets

// `cvlayout diff EXPECTED ACTUAL`: compares two layouts element by element (LayoutDiff) and
// exits as diff(1) does: 0 same, 1 different, 2 trouble.

let diffOptions: [OptionSpec] = [
    .value("tolerance", "PT", default: "0.001", "numbers within PT of each other are equal"),
    .value("fields", "LIST", default: "all",
           "compare only these, comma-separated (a single field such as frame.y also works)",
           choices: DiffOptions.selectorNames),
    .value("format", short: "f", "FORMAT", default: "text",
           "what to write: the text or JSON report, or svg (both layouts in one picture)", choices: ["text", "json", "svg"]),
    .value("report", "FORMAT", default: "-f's, else text", "the report's format",
           choices: DiffReportFormat.allCases.map(\.rawValue)),
    .value("report-file", "FILE", default: "stdout", "write the report to FILE (atomically) instead"),
]

/// Exit statuses of `cvlayout diff` and `--check`, as diff(1)'s (trouble: bad input or options).
enum DiffStatus {
    static let same: Int32 = 0, different: Int32 = 1, trouble: Int32 = 2
}

let diffCommand = SubcommandDescriptor(
    name: "diff",
    summary: "compare two layouts (JSON or CSV) element by element; status 0 same, 1 different, 2 trouble"
) { arguments, io in
    guard let parsed = try DiffArguments.parse(arguments) else {
        try io.emit(diffHelp())
        return ExitStatus.success
    }
    let expectedName = displayName(parsed.expected), actualName = displayName(parsed.actual)
    let spooled = parsed.expected == "-" || parsed.actual == "-" ? try spoolStandardInput(io) : nil
    let style = reportStyle(parsed.report, color: parsed.reportFile == nil && io.color.stdout)
    let diff = try compareLayoutFiles(parsed.expected, parsed.actual, spooled: spooled, io: io,
                                      options: parsed.options, style: style)
    // Columns or keys cvlayout does not know: not compared, said once per file.
    let sides = parsed.actual == parsed.expected ? [(diff.expected, expectedName)]
        : [(diff.expected, expectedName), (diff.actual, actualName)]
    for (document, name) in sides {
        if let text = LayoutDiff.unknownNamesText(document, name: name) { io.stderr("cvlayout: warning: \(questioningControlCharacters(text))\n") }
    }
    func writeReport(to emit: OutputFile.Sink) throws {
        try writeFormattedReport(parsed.report, diff, expectedName: expectedName, actualName: actualName,
                                 className: "cvlayout diff", to: emit)
    }
    do {
        try writingAsTrouble("") {  // a report that cannot be written is trouble
            func drawPicture() throws {
                try drawLayoutDiff(parsed.expected, parsed.actual, spooled: spooled, io: io, options: parsed.options,
                                   to: io.stdout)
            }
            if let path = parsed.reportFile {
                // The picture drawn once the report's file is open: nothing is written when it cannot
                // be; a reader of the picture that went away leaves the report written.
                var pictureReaderLeft = false
                try OutputFile.write(to: path) { sink in
                    if parsed.picture {
                        do { try drawPicture() } catch is BrokenPipe { pictureReaderLeft = true }
                    }
                    try writeReport(to: sink)
                }
                if pictureReaderLeft { throw BrokenPipe() }
            } else if parsed.picture {
                try drawPicture()
            } else {
                try writeReport(to: io.stdout)
                if parsed.report == .text,
                   let note = precisionNote(diff.result, golden: parsed.expected, toleranceOption: "--tolerance") {
                    try io.emit(note)
                }
            }
        }
    } catch is BrokenPipe {}  // the reader went away (`| head -1`): the verdict still stands
    return diff.result.isSame ? DiffStatus.same : DiffStatus.different
}

/// The style the comparison renders for `format` (never coloured for the CI formats).
func reportStyle(_ format: DiffReportFormat, color: Bool) -> StreamedReportStyle {
    switch format {
    case .json: return .json
    case .text: return .text(color: color)
    case .junit, .github: return .text(color: false)
    }
}

/// Compares two layout files (`-`: standard input, `spooled` when copied) as streams.
/// - Throws: `CLIError` 2 for a file that cannot be read or is not a layout.
func compareLayoutFiles(_ expectedPath: String, _ actualPath: String, spooled: SpooledInput?, io: CommandIO,
                        options: DiffOptions, style: StreamedReportStyle) throws -> StreamedDiff {
    try withLayoutInputs(expectedPath, actualPath, spooled: spooled, io: io) { expected, actual in
        try LayoutDiff.compareStreams(expected: expected, expectedFormat: layoutFormat(expectedPath), actual: actual,
                                      actualFormat: layoutFormat(actualPath), options: options, style: style)
    }
}

func layoutFormat(_ path: String) -> LayoutFileFormat? { path == "-" ? nil : LayoutFileFormat(pathExtension: path) }

/// Runs `body` on two layout files as streams; failing that, on each side checked (EXPECTED first).
/// - Throws: `CLIError` with status 2 naming the file; what `body` throws but a fallback.
func withLayoutInputs<T>(_ expectedPath: String, _ actualPath: String, spooled: SpooledInput?, io: CommandIO,
                         _ body: (LayoutInput, LayoutInput) throws -> T) throws -> T {
    let expected = try layoutInput(expectedPath, spooled: spooled)
    let actual = actualPath == expectedPath ? expected : try layoutInput(actualPath, spooled: spooled)
    if let expected, let actual {
        do { return try body(expected, actual) } catch is LayoutStreamFallback, is LayoutReadError {}
    }
    let checkedExpected = try checkedInput(expectedPath, expected, io: io).input
    let checkedActual = actualPath == expectedPath ? checkedExpected : try checkedInput(actualPath, actual, io: io).input
    do {
        return try body(checkedExpected, checkedActual)
    } catch let error as LayoutStreamFallback {
        throw CLIError.status(DiffStatus.trouble, "\(displayName(actualPath)): cannot be compared: \(error)")
    }
}

/// A layout file as the streams read it: stdin as `spooled` (`nil`: read whole), a FIFO copied
/// to an unlinked temporary file (within the whole-file limit), a path as it is.
/// - Throws: `CLIError` with status 2: a FIFO larger than the limit or that cannot be read.
func layoutInput(_ path: String, spooled: SpooledInput?) throws -> LayoutInput? {
    if path == "-" { return spooled.map(LayoutInput.spooled) }
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return .path(path) }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return .path(path) }  // the reader says why
    defer { close(descriptor) }
    do {
        return .spooled(try SpooledInput(copying: descriptor, limit: maximumDatasetBytes))
    } catch let error as SpooledInput.TooLarge {
        throw CLIError.trouble(.layoutTooLarge(displayName(path), limit: error.limit))
    } catch {
        throw CLIError.trouble(.cannotRead(displayName(path), .system(describe(error))))
    }
}

/// A side checked on its own, as the streams read it or else whole, and its layout without elements.
/// - Throws: `CLIError` 2 with the reader's message naming the file when it is not a layout.
func checkedInput(_ path: String, _ input: LayoutInput?, io: CommandIO) throws -> (input: LayoutInput, layout: LayoutDocument) {
    do {
        if let input {
            do { return (input, try LayoutDiff.check(input, format: layoutFormat(path))) } catch is LayoutStreamFallback {}
        }
        var spooled: SpooledInput?
        if case .spooled(let input)? = input { spooled = input }
        let data = try readLayoutData(path, stdin: io.stdin, spooled: spooled)
        var document = try LayoutReader.read(data, format: layoutFormat(path))  // by its extension, else its first byte
        let input = LayoutInput.document(document)
        document.elements = []
        return (input, document)
    } catch let error as LayoutReadError {
        throw CLIError.status(DiffStatus.trouble, error.message(file: displayName(path)))
    }
}

/// Draws the diff picture of two layout files; `actualName` names ACTUAL (default its path).
/// - Throws: `CLIError` 2 for a file that cannot be read or is not a layout; what `emit` throws.
func drawLayoutDiff(_ expectedPath: String, _ actualPath: String, spooled: SpooledInput?, io: CommandIO,
                    options: DiffOptions, actualName: String? = nil, to emit: OutputFile.Sink) throws {
    let expectedName = displayName(expectedPath), actualName = actualName ?? displayName(actualPath)
    try withLayoutInputs(expectedPath, actualPath, spooled: spooled, io: io) { expected, actual in
        try LayoutDiffPicture.drawStreams(expected: expected, expectedFormat: layoutFormat(expectedPath),
                                          actual: actual, actualFormat: layoutFormat(actualPath), options: options,
                                          expectedName: expectedName, actualName: actualName, to: emit)
    }
}

/// Writes `diff`'s report as `format`: its text or JSON, or made from its text JUnit XML (test
/// case `expectedName` of class `className`) or GitHub annotations (on `expectedName`).
func writeFormattedReport(_ format: DiffReportFormat, _ diff: StreamedDiff, expectedName: String,
                          actualName: String, className: String, to emit: OutputFile.Sink) throws {
    let summary = LayoutDiff.summary(diff.result, expectedName: expectedName, actualName: actualName)
    switch format {
    case .text, .json:
        try diff.writeReport(expectedName, actualName, to: emit)
    case .junit:
        try DiffReports.writeJUnit(name: expectedName, className: className,
                                   failure: diff.result.isSame ? nil : (summary, { try diff.writeReport(expectedName, actualName, to: $0) }),
                                   to: emit)
    case .github:
        try withoutActuallyEscaping(emit) { emit in
            let annotations = GitHubAnnotations(file: expectedName) { line in
                var line = line
                try line.withUTF8 { try emit($0) }
            }
            if !diff.result.isSame { try diff.writeReport(expectedName, actualName, to: annotations.consume) }
            try annotations.finish(summary: summary)
        }
    }
}

func diffHelp() -> String {
    """
    USAGE: cvlayout diff EXPECTED ACTUAL [--tolerance PT] [--fields LIST] [-f text|json|svg]
                         [--report text|json|junit|github] [--report-file FILE]

    Compares two layouts element by element. Either side may be cvlayout JSON or CSV, or a
    JSON or CSV list of elements exported from elsewhere with the same names ('-' = stdin).
    Elements are matched by category, kind and index path (a view without a kind by its
    category and index path), so order does not matter;
    numbers are equal within the tolerance. The report lists, in element order, missing
    and extra elements and each changed field with old → new and the delta, then a
    one-line summary. The engine, bounds, contentOffset, contentSize, the heart path (its
    points; d is drawn from them), the heart samples and targetContentOffset are compared
    when both sides are cvlayout JSON layouts. What no layout contains (a category other
    than cell, supplementaryView or decorationView, a kind on a cell, a zIndex that is not
    an integer) is trouble; a column or key cvlayout does not know is not compared, and
    named once on stderr.

    -f svg draws both layouts in one picture instead: unchanged elements faded, a moved or
    resized element's EXPECTED frame dashed and its ACTUAL frame solid with an arrow between
    their centres, elements only in ACTUAL green, only in EXPECTED red, other changes
    (alpha, transform, zIndex, hidden) purple; each shape carries data-index-path,
    data-kind (not for cells) and data-change (moved, resized, added, removed, changed,
    same). --report junit writes a JUnit testsuite with one testcase (the text report in
    its failure); --report github one '::error file=EXPECTED,title=…::' line per
    difference (at most 50), then a summary line.

    OPTIONS:

    """ + optionLines(diffOptions, lists: ",") + """

    Exit status as diff(1): 0 same, 1 different, 2 trouble (a file that cannot be read or is
    not a layout, or a bad option). Colour only on a terminal, never with NO_COLOR set (not empty).

    """
}

// MARK: - Arguments

/// `cvlayout diff`'s arguments, validated; `report`: `--report`, else `-f text|json`; `picture`: `-f svg`.
struct DiffArguments: Equatable {
    var expected: String, actual: String
    var options: DiffOptions
    var report: DiffReportFormat = .text
    var picture = false
    var reportFile: String? = nil

    /// Parses the arguments after `diff`; `nil` when help was asked for.
    /// - Throws: `CLIError` 2 for unknown options, missing or bad values, not two files.
    static func parse(_ arguments: [String]) throws -> DiffArguments? {
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) { return nil }
        let parsed: OptionValues, files: [String]
        do {
            (parsed, files) = try ArgumentParser.tokenize(arguments, table: diffOptions, command: "diff")
        } catch let error as CLIError {
            throw usage(error.message)  // diff's trouble is status 2
        }
        var values: [String: String] = [:]
        for name in parsed.values.keys { values[name] = try parsed.text(name) }
        guard files.count == 2 else {
            let listed = files.count < 2 ? "" : ": " + files.map { "'\($0)'" }.joined(separator: " ")
            throw usage("expected two layouts, EXPECTED and ACTUAL; got \(files.count)\(listed)")
        }
        if files[0] == "-" && files[1] == "-" { throw usage("only one of EXPECTED and ACTUAL can be '-' (stdin)") }

        let options = try comparisonOptions(fields: values["fields"], tolerance: values["tolerance"], prefix: "--",
                                            shown: { $0 }, usage: usage)
        var parsedArguments = DiffArguments(expected: files[0], actual: files[1], options: options)
        func choice(_ name: String, _ names: [String]) throws -> String? {
            guard let text = values[name]?.lowercased() else { return nil }
            guard names.contains(text) else {
                throw usage(CLIProblem.notOneOf("--" + name, names, got: text, nearest: nearest(text, among: names)).message)
            }
            return text
        }
        let format = try choice("format", ["text", "json", "svg"])
        parsedArguments.picture = format == "svg"
        if format == "json" { parsedArguments.report = .json }
        if let text = try choice("report", DiffReportFormat.allCases.map(\.rawValue)) {
            if let format, format != "svg", format != text {
                throw usage("-f \(format) and --report \(text) disagree: give one of them")
            }
            parsedArguments.report = DiffReportFormat(rawValue: text)!
        }
        if let path = values["report-file"] {
            guard !path.isEmpty && path != "-" else { throw usage("--report-file: expected a file, got '\(path)'") }
            if let problem = reportFileNamingALayout(path, shown: path, [(files[0], "EXPECTED"), (files[1], "ACTUAL")]) {
                throw usage(problem)
            }
            parsedArguments.reportFile = path
        }
        if parsedArguments.picture && values["report"] != nil && parsedArguments.reportFile == nil {
            throw usage("-f svg writes the picture on standard output: give --report-file FILE for --report")
        }
        return parsedArguments
    }

    private static func usage(_ message: String) -> CLIError {
        CLIError(status: DiffStatus.trouble, message: message, usageEngine: "diff", isUsage: true)
    }
}

/// Diff's options from `--fields` and `--tolerance` (after `prefix`: `--` or `--check-`).
/// - Throws: `usage(message)` for an unknown field, a list naming nothing, a tolerance not finite ≥ 0.
func comparisonOptions(fields: String?, tolerance: @autoclosure () throws -> String?, prefix: String,
                       shown: (String) -> String, usage: (String) -> CLIError) throws -> DiffOptions {
    var options = DiffOptions()
    if let text = fields {
        do {
            options = try DiffOptions.selecting(text)
        } catch DiffOptionsError.unknownField(let field) {
            let near = nearest(field, among: DiffOptions.allSelectorNames).map { "; did you mean '\($0)'?" } ?? ""
            throw usage("\(prefix)fields: unknown field '\(shown(field))'\(near) "
                        + "(fields: \(DiffOptions.selectorNames.joined(separator: ", ")))")
        } catch {
            throw usage("\(prefix)fields: expected a comma-separated list of fields, got '\(shown(text))'")
        }
    }
    if let text = try tolerance() {
        guard let value = ValueSyntax.number(text), value.isFinite, value >= 0 else {
            throw usage("\(prefix)tolerance: expected a finite number ≥ 0, got '\(shown(text))'")
        }
        options.tolerance = value
    }
    return options
}

// MARK: - Reading

/// The most standard input `diff` copies to its temporary file (16 GiB; 10⁷ elements: 2 GB).
let maximumSpooledBytes = 1 << 34

/// Standard input for `diff … -` as a regular file: itself when it is one, else copied to an
/// unlinked temporary file. `nil` for a device and when no temporary file can be made.
/// - Throws: `CLIError` 2: stdin cannot be read or copied, or is past `maximumSpooledBytes`.
func spoolStandardInput(_ io: CommandIO) throws -> SpooledInput? {
    guard let descriptor = io.stdinDescriptor else { return try? SpooledInput(readLayoutData("-", stdin: io.stdin)) }
    do {
        // A pipe that is plainly not a layout (`yes section,item`) is refused from its start,
        // not copied to its end first.
        return try SpooledInput(copying: descriptor, limit: maximumSpooledBytes, startLength: LayoutReader.startLength) {
            try LayoutReader.checkStart($0)
        }
    } catch let error as LayoutReadError {
        throw CLIError.status(DiffStatus.trouble, error.message(file: "<stdin>"))
    } catch let error as SpooledInput.TooLarge {
        throw CLIError.trouble(.layoutTooLarge("<stdin>", limit: error.limit))
    } catch is SpooledInput.Device {
        return nil
    } catch let error as LayoutStreamFallback {
        guard error.description.hasPrefix("no temporary file") else {
            throw CLIError.status(DiffStatus.trouble, "<stdin>: cannot copy to a temporary file: \(error)")
        }
        return nil
    } catch {
        throw CLIError.trouble(.cannotRead("<stdin>", .system(describe(error))))
    }
}

func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path.isEmpty ? "''" : path }

/// The bytes of a layout file (`-`: `stdin`; `spooled`'s, when given), as `readDataset`.
/// - Throws: `CLIError` 2 naming the file: it cannot be opened or read, or is past `limit`
///   (/dev/zero never ends).
func readLayoutData(_ path: String, stdin: () throws -> Data, spooled: SpooledInput? = nil,
                    limit: Int = maximumDatasetBytes) throws -> Data {
    do {
        guard let spooled else { return try readDataset(path, name: displayName(path), stdin: stdin, limit: limit) }
        guard spooled.count <= limit else { throw CLIError(.tooLarge(path, limit: limit)) }
        return try spooled.data()
    } catch let error as CLIError where error.status == ExitStatus.data {  // past `limit`
        throw CLIError.trouble(.layoutTooLarge(displayName(path), limit: limit))
    } catch let error as CLIError {
        throw CLIError.status(DiffStatus.trouble, error.message)  // `readDataset`'s words
    } catch {
        throw CLIError.trouble(.cannotRead(displayName(path), .system(describe(error))))
    }
}
