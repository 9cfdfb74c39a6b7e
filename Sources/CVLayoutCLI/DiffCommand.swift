import Foundation
import LayoutCore
import LayoutFormats

// `cvlayout diff EXPECTED ACTUAL`: compares two layouts element by element (LayoutDiff) and
// exits as diff(1) does: 0 same, 1 different, 2 trouble.

// MARK: - Interface

/// `cvlayout diff`'s options: its parser, its help, the completions and the manual all read
/// this table.
let diffOptions: [OptionSpec] = [
    .value("tolerance", "PT", default: "0.001", "numbers within PT of each other are equal"),
    .value("fields", "LIST", default: "all",
           "compare only these, comma-separated (a single field such as frame.y also works)",
           choices: DiffOptions.selectorNames),
    .value("format", short: "f", "FORMAT", default: "text", "report format", choices: ["text", "json"]),
]

/// Exit statuses of `cvlayout diff` and `--check`, as diff(1)'s.
enum DiffStatus {
    /// The layouts are the same within the tolerance.
    static let same: Int32 = 0
    /// They differ.
    static let different: Int32 = 1
    /// Trouble: unreadable or malformed input, or bad options.
    static let trouble: Int32 = 2
}

/// The `diff` subcommand.
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
    if let status = try streamedDiff(parsed, stdin: spooled, io: io) { return status }
    // The whole files: standard input read again from its copy, within the whole-file limit.
    let stdin: () throws -> Data = spooled.map { spooled in
        {
            guard spooled.count <= maximumDatasetBytes else { throw DatasetTooLarge(limit: maximumDatasetBytes) }
            return try spooled.data()
        }
    } ?? io.stdin
    let expected = try readLayoutFile(parsed.expected, stdin: stdin)
    let actual = try readLayoutFile(parsed.actual, stdin: stdin)
    let result = LayoutDiff.compare(expected, actual, options: parsed.options)
    // Columns or keys cvlayout does not know: not compared, said once per file.
    let sides = parsed.actual == parsed.expected ? [(expected, expectedName)]
        : [(expected, expectedName), (actual, actualName)]
    for (document, name) in sides {
        if let text = LayoutDiff.unknownNamesText(document, name: name) { io.stderr("cvlayout: warning: \(text)\n") }
    }
    let status = result.isSame ? DiffStatus.same : DiffStatus.different
    do {
        if parsed.json {
            try io.emit(LayoutDiff.jsonReport(result, expectedName: expectedName, actualName: actualName))
        } else {
            try io.emit(LayoutDiff.textReport(result, expectedName: expectedName, actualName: actualName,
                                              color: io.color.stdout))
            if let note = precisionNote(result, golden: parsed.expected, toleranceOption: "--tolerance") { try io.emit(note) }
        }
    } catch is BrokenPipe {
        return status  // the reader went away (`| head -1`): the verdict still stands
    } catch let error as CLIError where error.status == ExitStatus.ioError {
        throw CLIError.status(DiffStatus.trouble, error.message)  // a report that cannot be written is trouble
    }
    return status
}

/// `cvlayout diff` of two regular files (or one and standard input, `stdin`), compared as
/// streams (`LayoutDiff.compareStreams`; a side not in element order sorted on disk):
/// memory stays at a few chunks and runs whatever their size. `nil` when they must be read
/// whole instead (anything malformed, a duplicate element, a path that is no regular file,
/// stdin that could not be copied: the whole-file reader gives the same report, or the
/// error).
private func streamedDiff(_ parsed: DiffArguments, stdin: SpooledInput?, io: CommandIO) throws -> Int32? {
    func input(_ path: String) -> LayoutInput? { path != "-" ? .path(path) : stdin.map(LayoutInput.spooled) }
    guard let expectedInput = input(parsed.expected), let actualInput = input(parsed.actual) else { return nil }
    func format(_ path: String) -> LayoutFileFormat? { path == "-" ? nil : LayoutFileFormat(pathExtension: path) }
    let streamed: (result: LayoutDiffResult, expected: LayoutDocument, actual: LayoutDocument, comparison: StreamedComparison)
    do {
        streamed = try LayoutDiff.compareStreams(
            expected: expectedInput, expectedFormat: format(parsed.expected),
            actual: actualInput, actualFormat: format(parsed.actual),
            options: parsed.options, style: parsed.json ? .json : .text(color: io.color.stdout))
    } catch is LayoutStreamFallback {
        return nil
    }
    let expectedName = displayName(parsed.expected), actualName = displayName(parsed.actual)
    let sides = parsed.actual == parsed.expected ? [(streamed.expected, expectedName)]
        : [(streamed.expected, expectedName), (streamed.actual, actualName)]
    for (document, name) in sides {
        if let text = LayoutDiff.unknownNamesText(document, name: name) { io.stderr("cvlayout: warning: \(text)\n") }
    }
    let status = streamed.result.isSame ? DiffStatus.same : DiffStatus.different
    do {
        try streamed.comparison.writeReport(streamed.result, expectedName: expectedName, actualName: actualName,
                                            to: io.stdout)
        if !parsed.json, let note = precisionNote(streamed.result, golden: parsed.expected, toleranceOption: "--tolerance") {
            try io.emit(note)
        }
    } catch is BrokenPipe {
        return status
    } catch let error as CLIError where error.status == ExitStatus.ioError {
        throw CLIError.status(DiffStatus.trouble, error.message)
    }
    return status
}

/// `cvlayout diff --help`.
func diffHelp() -> String {
    """
    USAGE: cvlayout diff EXPECTED ACTUAL [--tolerance PT] [--fields LIST] [-f text|json]

    Compares two layouts element by element. Either side may be cvlayout JSON or CSV, or a
    JSON or CSV list of elements exported from elsewhere with the same names ('-' = stdin).
    Elements are matched by category, kind and index path, so order does not matter;
    numbers are equal within the tolerance. The report lists, in element order, missing
    and extra elements and each changed field with old → new and the delta, then a
    one-line summary. The engine, bounds, contentOffset, contentSize, the heart path (its
    points; d is drawn from them), the heart samples and targetContentOffset are compared
    when both sides are cvlayout JSON layouts. What no layout contains (a category other
    than cell, supplementaryView or decorationView, a kind on a cell, a zIndex that is not
    an integer) is trouble; a column or key cvlayout does not know is not compared, and
    named once on stderr.

    OPTIONS:

    """ + subcommandOptionLines(diffOptions) + """

    Exit status as diff(1): 0 same, 1 different, 2 trouble (a file that cannot be read or is
    not a layout, or a bad option). Colour only on a terminal, never with NO_COLOR set (not empty).

    """
}

/// Help lines for a subcommand's options, as `cvlayout ENGINE --help` prints them.
func subcommandOptionLines(_ options: [OptionSpec]) -> String {
    let width = max(24, (options.map(\.synopsis.count).max() ?? 0) + 2)
    return options.map { option in
        var line = "  " + option.synopsis.padding(toLength: width, withPad: " ", startingAt: 0) + option.help
        if !option.choices.isEmpty { line += ": " + option.choices.joined(separator: option.valueName == "LIST" ? "," : "|") }
        if option.valueName != nil { line += " (default: \(option.defaultText))" }
        return line + "\n"
    }.joined()
}

// MARK: - Arguments

/// `cvlayout diff`'s arguments, parsed and validated.
struct DiffArguments: Equatable {
    /// The EXPECTED path (`-`: stdin).
    var expected: String
    /// The ACTUAL path (`-`: stdin).
    var actual: String
    /// Tolerance and field selection.
    var options: DiffOptions
    /// `-f json`.
    var json: Bool

    /// Parses the arguments after `diff`; `nil` when help was asked for.
    /// - Throws: `CLIError` with status 2 (diff's trouble) for unknown options, missing or
    ///   bad values, and anything but two files.
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
            throw usage(files.count < 2 ? "expected two layouts, EXPECTED and ACTUAL; got \(files.count)"
                                        : "expected two layouts, EXPECTED and ACTUAL; got \(files.count): "
                                          + files.map { "'\($0)'" }.joined(separator: " "))
        }
        if files[0] == "-" && files[1] == "-" { throw usage("only one of EXPECTED and ACTUAL can be '-' (stdin)") }

        var options = DiffOptions()
        if let text = values["fields"] {
            do {
                options = try DiffOptions.selecting(text)
            } catch DiffOptionsError.unknownField(let field) {
                var message = "--fields: unknown field '\(field)'"
                if let near = nearest(field, among: DiffOptions.allSelectorNames) { message += "; did you mean '\(near)'?" }
                throw usage(message + " (fields: \(DiffOptions.selectorNames.joined(separator: ", ")))")
            } catch {
                throw usage("--fields: expected a comma-separated list of fields, got '\(text)'")
            }
        }
        if let text = values["tolerance"] {
            guard let tolerance = ValueSyntax.number(text), tolerance.isFinite, tolerance >= 0 else {
                throw usage("--tolerance: expected a finite number ≥ 0, got '\(text)'")
            }
            options.tolerance = tolerance
        }
        var json = false
        if let format = values["format"] {
            guard ["text", "json"].contains(format.lowercased()) else {
                var message = "--format: expected one of text, json, got '\(format)'"
                if let near = nearest(format, among: ["text", "json"]) { message += "; did you mean '\(near)'?" }
                throw usage(message)
            }
            json = format.lowercased() == "json"
        }
        return DiffArguments(expected: files[0], actual: files[1], options: options, json: json)
    }

    private static func usage(_ message: String) -> CLIError {
        CLIError(status: DiffStatus.trouble, message: message, usageEngine: "diff", isUsage: true)
    }
}

// MARK: - Reading

/// The most standard input `diff` copies to its temporary file (16 GiB: a layout of the
/// 10⁷ elements a dataset may hold takes about 2 GB); past it, as past the whole-file limit,
/// stdin is too large.
let maximumSpooledBytes = 1 << 34

/// Standard input for `diff … -`, kept as a regular file (`SpooledInput`) so that it is
/// streamed as a file is, and read again whole if need be: the process's descriptor as it
/// is when it is a regular file, else copied in chunks to an unlinked temporary file; or the
/// bytes `io.stdin` gives, copied. `nil` for a device (`< /dev/zero`) and when no temporary
/// file can be made before anything is read: stdin is then read whole, as before, within
/// the whole-file limit.
/// - Throws: `CLIError` with status 2 (diff's trouble), as `readLayoutFile` says them:
///   stdin cannot be read, is larger than `maximumSpooledBytes` (or, from `io.stdin`, than
///   its limit), or cannot be copied (a full disk).
func spoolStandardInput(_ io: CommandIO) throws -> SpooledInput? {
    guard let descriptor = io.stdinDescriptor else {
        let data = try standardInput(io.stdin)
        return try? SpooledInput(data)
    }
    do {
        return try SpooledInput(copying: descriptor, limit: maximumSpooledBytes)
    } catch let error as SpooledInput.TooLarge {
        throw stdinTooLarge(limit: error.limit)
    } catch is SpooledInput.Device {
        return nil
    } catch let error as LayoutStreamFallback {
        guard error.description.hasPrefix("no temporary file") else {
            throw CLIError.status(DiffStatus.trouble, "<stdin>: cannot copy to a temporary file: \(error)")
        }
        return nil
    } catch {
        throw CLIError.status(DiffStatus.trouble, "<stdin>: cannot read: \(describe(error))")
    }
}

/// Standard input's bytes from `stdin`.
/// - Throws: `CLIError` with status 2: too large, or cannot be read.
private func standardInput(_ stdin: () throws -> Data) throws -> Data {
    do { return try stdin() } catch let error as DatasetTooLarge {
        throw stdinTooLarge(limit: error.limit)
    } catch {
        throw CLIError.status(DiffStatus.trouble, "<stdin>: cannot read: \(describe(error))")
    }
}

/// A layout file past `limit` bytes.
private func tooLargeLayout(_ name: String, limit: Int) -> CLIError {
    CLIError.status(DiffStatus.trouble, "\(name): larger than \(limit) bytes (the most a layout file may hold)")
}

private func stdinTooLarge(limit: Int) -> CLIError { tooLargeLayout("<stdin>", limit: limit) }

/// `<stdin>` for `-`, `''` for an empty name, else the path.
func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path.isEmpty ? "''" : path }

/// Reads and parses a layout file (`-`: stdin), by its extension (`.json`, `.csv`) or, for
/// any other name, by its first byte.
/// - Throws: `CLIError` with status 2 (diff's trouble) naming the file: it cannot be opened or
///   read, it is longer than `maximumDatasetBytes` (1 GiB, as a dataset; a device such as
///   /dev/zero never ends), or it is not a layout (`a.json:3:5: invalid JSON: …`).
/// - Complexity: O(file size).
func readLayoutFile(_ path: String, stdin: () throws -> Data, limit: Int = maximumDatasetBytes) throws -> LayoutDocument {
    let name = displayName(path)
    func tooLarge(_ error: DatasetTooLarge) -> CLIError { tooLargeLayout(name, limit: error.limit) }
    let data: Data
    if path == "-" {
        data = try standardInput(stdin)
    } else {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError.status(DiffStatus.trouble, "\(name): cannot open: no such file")
        }
        if isDirectory.boolValue { throw CLIError.status(DiffStatus.trouble, "\(name): cannot open: is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIError.status(DiffStatus.trouble, "\(name): cannot open: permission denied")
        }
        defer { try? handle.close() }
        do { data = try readBounded(handle, limit: limit) } catch let error as DatasetTooLarge {
            throw tooLarge(error)
        } catch {
            throw CLIError.status(DiffStatus.trouble, "\(name): cannot read: \(describe(error))")
        }
    }
    do {
        return try LayoutReader.read(data, format: path == "-" ? nil : LayoutFileFormat(pathExtension: path))
    } catch let error as LayoutReadError {
        throw CLIError.status(DiffStatus.trouble, error.message(file: name))
    }
}
