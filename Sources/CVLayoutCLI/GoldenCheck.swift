import Foundation
import LayoutCore
import LayoutFormats

// `cvlayout ENGINE … --check GOLDEN`: lay out and compare with a golden file in one step, the
// one-liner a CI step needs.

/// The help line of the global `--check` option.
let checkOptionHelp = "compare with GOLDEN (a .json or .csv layout) instead of printing: "
    + "differences on stderr, status 1 if any, 2 if GOLDEN is unreadable"

/// Compares `job`'s layout with the layout in `golden`, as `cvlayout diff GOLDEN ACTUAL`
/// would at `--check-tolerance` (default 0.001) and with `--check-fields` (default all), and prints the diff report on standard error
/// when they differ (nothing when they are the same). The layout goes to standard output
/// no more; with `-o FILE` it is still written to FILE, so a CI job can keep it.
///
/// The layout is rendered in memory in the golden's format (CSV for a CSV golden, else JSON)
/// at the job's precision, then read back, so it is compared exactly as it would be printed.
/// - Returns: 0 same, 1 different.
/// - Throws: `CLIError` with status 2 when GOLDEN cannot be read or is not a layout; 64 for
///   `--check -` and `--check=` (no name) and for a GOLDEN of the other kind than the
///   layout's (elements or heart samples; 65 when the dataset's options chose the layout's
///   kind); what writing `-o` throws.
/// - Complexity: O(n) in the elements of both layouts.
func checkAgainstGolden(_ job: LayoutJob, golden: String, io: CommandIO) throws -> Int32 {
    if golden == "-" || golden.isEmpty {
        throw CLIError.usage("--check: GOLDEN must be a file, not '\(golden)'", engine: job.descriptor.name)
    }
    let options = try checkComparisonOptions(job.options, engine: job.descriptor.name)
    if let status = try streamedCheck(job, golden: golden, options: options, io: io) { return status }
    let expected = try readLayoutFile(golden, stdin: io.stdin)
    let format: OutputFormat = expected.shape == .csv || expected.shape == .heartSamples ? .csv : .json
    if expected.shape == .csv && job.layout.heartSamples != nil {
        throw job.options.conflict([GlobalOption.check, "heart-samples"],
                                   "--check: with --heart-samples the CSV is a table of samples, and GOLDEN one of elements; "
                                   + "compare with a JSON golden or a CSV of samples")
    }
    if expected.shape == .heartSamples && job.layout.heartSamples == nil {
        throw job.options.conflict([GlobalOption.check], "--check: GOLDEN is a CSV of heart samples (ring --heart-samples N -f csv); "
                                   + "check it with the same --heart-samples")
    }
    let buffer = OutputBuffer(precision: job.outputOptions.precision)
    try job.write(format, to: buffer)
    let actual: LayoutDocument
    do {
        actual = try LayoutReader.read(Data(buffer.bytes), format: format == .csv ? .csv : .json)
    } catch let error as LayoutReadError {
        // The writers' output always reads back; this would be a bug in one of them.
        throw CLIError.status(DiffStatus.trouble, error.message(file: "the \(format.rawValue) of the layout"))
    }
    if job.options.has(GlobalOption.output) { try job.write(io: io) }
    let result = LayoutDiff.compare(expected, actual, options: options)
    return checkVerdict(result, expected: expected, golden: golden, io: io) {
        io.stderr(LayoutDiff.textReport(result, expectedName: golden, actualName: "cvlayout \(job.descriptor.name)",
                                        color: io.color.stderr))
    }
}

/// What `--check` says once the layouts are compared: the golden's columns or keys that were
/// not compared (whatever the verdict); when they are the same, the fields a thin golden left
/// uncompared (a CSV of index paths only matches whatever they hold: said, so that it does
/// not pass unnoticed) and 0; else the report, which `report` writes, and 1.
func checkVerdict(_ result: LayoutDiffResult, expected: LayoutDocument, golden: String, io: CommandIO,
                  report: () throws -> Void) rethrows -> Int32 {
    if let unknown = LayoutDiff.unknownNamesText(expected, name: golden) {
        io.stderr("cvlayout: warning: --check: \(unknown)\n")
    }
    if result.isSame {
        if let skipped = LayoutDiff.notComparedText(result, expectedName: golden, actualName: "the layout") {
            io.stderr("cvlayout: warning: --check: \(skipped)\n")
        }
        return DiffStatus.same
    }
    try report()
    if let note = precisionNote(result, golden: golden, toleranceOption: "--check-tolerance") { io.stderr(note) }
    return DiffStatus.different
}

/// The last line of a report whose every difference is within half a unit of the last
/// decimal GOLDEN prints (a golden written with `--precision 0` against a layout at 3
/// decimals): says so and what to compare with. `nil` otherwise, for standard input, and for
/// a golden whose numbers cannot be read again.
/// - Complexity: O(golden's bytes), read again in 1 MiB chunks; only when there is a report.
func precisionNote(_ result: LayoutDiffResult, golden: String, toleranceOption: String) -> String? {
    guard golden != "-", !result.isSame, let decimals = printedDecimals(ofFile: golden), decimals < 15 else { return nil }
    var half = 0.5
    for _ in 0..<decimals { half /= 10 }
    guard result.differsOnlyWithin(half) else { return nil }
    let halfText = NumberFormat.string(half, precision: .full)
    let unit = decimals == 0 ? "a whole number" : "\(decimals) decimal\(decimals == 1 ? "" : "s")"
    return "every difference is within half a unit of the golden's precision (\(shortenedForMessage(golden, limit: 4096)) "
        + "prints \(unit): ±\(halfText)); it was likely written with --precision \(decimals): compare with "
        + "\(toleranceOption) \(halfText), or record it again at this precision\n"
}

/// The most decimals a number of the file at `path` prints (digits after a point that follows
/// a digit); 15 for a number with an exponent. `nil` when the file cannot be read.
func printedDecimals(ofFile path: String) -> Int? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    var most = 0, run = -1  // run: digits after the current number's point, −1 outside one
    var previous: UInt8 = 0
    while true {
        guard let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty else { break }
        for byte in chunk {
            let isDigit = byte >= 0x30 && byte <= 0x39
            if byte == UInt8(ascii: ".") && previous >= 0x30 && previous <= 0x39 {
                run = 0
            } else if isDigit && run >= 0 {
                run += 1
                most = max(most, run)
            } else if (byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")) && previous >= 0x30 && previous <= 0x39 {
                return 15
            } else {
                run = -1
            }
            previous = byte
        }
    }
    return most
}

/// `checkAgainstGolden` as a stream: GOLDEN read element by element and the layout's
/// elements compared as the engine produces them, each number taken as the golden's format
/// would print it at the job's precision (`StreamedElement(_:precision:csv:)`), without
/// writing the layout's text or reading it back. A golden not in element order is sorted
/// (`SortedLayoutStream`): from the start when its first elements say so, else once found
/// out, when the layout is produced again. `nil` when it must be done the
/// whole way (a golden that is malformed or repeats an element, a CSV of heart samples; a
/// layout that is kept whole or not produced in element order), which gives the same report
/// or error.
private func streamedCheck(_ job: LayoutJob, golden: String, options: DiffOptions, io: CommandIO) throws -> Int32? {
    do {
        let sorted = try !StreamedComparison.startsInElementOrder(golden, format: LayoutFileFormat(pathExtension: golden))
        return try streamedCheck(job, golden: golden, options: options, io: io, sorted: sorted)
    } catch let error as LayoutStreamFallback where error.outOfOrder == .expected {
        do {
            return try streamedCheck(job, golden: golden, options: options, io: io, sorted: true)
        } catch is LayoutStreamFallback {
            return nil
        }
    } catch is LayoutStreamFallback {
        return nil
    }
}

/// One pass of `streamedCheck`, the golden sorted or not.
/// - Throws: `LayoutStreamFallback` when this pass cannot finish (`outOfOrder` set when the
///   golden is not in element order); `nil` for what the whole-file path must say.
private func streamedCheck(_ job: LayoutJob, golden: String, options: DiffOptions, io: CommandIO,
                           sorted: Bool) throws -> Int32? {
    let comparison = try StreamedComparison(expectedPath: golden, format: LayoutFileFormat(pathExtension: golden),
                                            options: options, style: .text(color: io.color.stderr), sorted: sorted)
    let csv = comparison.expectedIsCSV
    if csv && job.layout.heartSamples != nil { return nil }  // the conflict, said by the whole-file path
    let format: OutputFormat = csv ? .csv : .json
    guard let (layout, produce) = try job.streamedElements(for: format) else { return nil }
    let precision = job.outputOptions.precision
    var failure: Error? = nil
    var sink = ElementBlocks { block in
        guard failure == nil else { return }
        do {
            for element in block { try comparison.feed(StreamedElement(element, precision: precision, csv: csv)) }
        } catch {
            failure = error
        }
    }
    try produce(&sink)
    sink.finish()
    if let failure { throw failure }
    let actual = csv ? LayoutDiff.csvWithoutElements : try LayoutDiff.partsDocument(of: layout, precision: precision)
    let (result, expected) = try comparison.finish(actual: actual)
    if job.options.has(GlobalOption.output) { try job.write(io: io) }
    return try checkVerdict(result, expected: expected, golden: golden, io: io) {
        // The report in pieces of whole lines (a chunk may end inside a character).
        var pending: [UInt8] = []
        try comparison.writeReport(result, expectedName: golden, actualName: "cvlayout \(job.descriptor.name)") { chunk in
            pending.append(contentsOf: chunk)
            if let last = pending.lastIndex(of: 0x0A) {
                io.stderr(String(decoding: pending[...last], as: UTF8.self))
                pending.removeSubrange(...last)
            }
        }
        if !pending.isEmpty { io.stderr(String(decoding: pending, as: UTF8.self)) }
    }
}

/// `--check-tolerance` and `--check-fields` as diff's options.
/// - Throws: `CLIError.usage` (64) for a tolerance that is not a finite number ≥ 0 or an
///   unknown field.
func checkComparisonOptions(_ values: OptionValues, engine: String) throws -> DiffOptions {
    var options = DiffOptions()
    if !values.has("check") {
        for name in ["check-tolerance", "check-fields"] where values.has(name) {
            throw CLIError.usage("--\(name) is used only with --check GOLDEN", engine: engine)
        }
    }
    if let text = try values.text("check-fields") {
        do {
            options = try DiffOptions.selecting(text)
        } catch DiffOptionsError.unknownField(let field) {
            var message = "--check-fields: unknown field '\(shortenedForMessage(field))'"
            if let near = nearest(field, among: DiffOptions.allSelectorNames) { message += "; did you mean '\(near)'?" }
            throw CLIError.usage(message + " (fields: \(DiffOptions.selectorNames.joined(separator: ", ")))", engine: engine)
        } catch {
            throw CLIError.usage("--check-fields: expected a comma-separated list of fields, got '\(shortenedForMessage(text))'",
                                 engine: engine)
        }
    }
    if let text = try values.text("check-tolerance") {
        guard let tolerance = ValueSyntax.number(text), tolerance.isFinite, tolerance >= 0 else {
            throw CLIError.usage("--check-tolerance: expected a finite number ≥ 0, got '\(shortenedForMessage(text))'",
                                 engine: engine)
        }
        options.tolerance = tolerance
    }
    return options
}

/// `--check-tolerance` and `--check-fields` without `--check` are usage errors.
func checkComparisonOptionsNeedCheck(_ job: LayoutJob) throws {
    guard !job.options.has("check") else { return }
    for name in ["check-tolerance", "check-fields"] where job.options.has(name) {
        throw CLIError.usage("--\(name) is used only with --check GOLDEN", engine: job.descriptor.name)
    }
}
