import Foundation
import LayoutCore
import LayoutComparison
import LayoutDatasets
import LayoutWriters

// `cvlayout ENGINE … --check GOLDEN`: lay out and compare with a golden file in one step (CI).

let checkOptionHelp = "compare with GOLDEN (a .json or .csv layout) instead of printing: "
    + "differences on stderr, status 1 if any, 2 if GOLDEN is unreadable"

/// `job`'s layout compared with `golden` as `cvlayout diff` would, streamed when it can be; only
/// `-o FILE` is written. 0 same, 1 different (or recorded). O(n) in the elements.
/// - Throws: `CLIError` 2 for a GOLDEN unreadable or not a layout; 64 (65 from the dataset) for
///   a bad GOLDEN or check option; what writing `-o`, artifacts or the report throws.
func checkAgainstGolden(_ job: LayoutJob, golden: String, io: CommandIO) throws -> Int32 {
    if golden == "-" || golden.isEmpty { throw CLIError(.goldenNotAFile(golden), engine: job.descriptor.name) }
    if let output = try job.options.text(GlobalOption.output), namesTheSameFile(output, golden) {
        throw CLIError.usage("-o \(shortenedForMessage(output)) is the golden --check compares with: it would be replaced "
                             + "by the layout (--record failed re-records a golden that differs)", engine: job.descriptor.name)
    }
    if let report = try job.options.text("report-file"),
       let problem = reportFileNamingALayout(report, shown: shortenedForMessage(report),
                                             [(golden, "the golden"), (try job.options.text(GlobalOption.output), "-o's file")]) {
        throw CLIError.usage(problem, engine: job.descriptor.name)
    }
    let options = try checkComparisonOptions(job.options, engine: job.descriptor.name)
    let reporting = try CheckReporting(job.options, engine: job.descriptor.name, io: io)
    let subject = CheckedLayout(name: "cvlayout \(job.descriptor.name)", precision: job.outputOptions.precision) {
        try job.write($0, to: $1)
    }
    func writeOutput() throws {
        if job.options.has(GlobalOption.output) { try job.write(io: io) }
    }
    if let status = try reporting.recordWithoutComparing(golden, subject, io: io, written: writeOutput) { return status }
    if let status = try streamedCheck(job, golden: golden, options: options, reporting: reporting, subject: subject, io: io) {
        return status
    }
    return try checkWritten(golden: golden, name: "the layout", options: options, reporting: reporting,
                            subject: subject, io: io, written: writeOutput) { expected in
        if expected.shape == .csv && job.layout.heartSamples != nil {
            throw job.options.conflict([GlobalOption.check, "heart-samples"],
                                       "--check: with --heart-samples the CSV is a table of samples, and GOLDEN one of "
                                       + "elements; compare with a JSON golden or a CSV of samples")
        }
        if expected.shape == .heartSamples && job.layout.heartSamples == nil {
            throw job.options.conflict([GlobalOption.check], "--check: GOLDEN is a CSV of heart samples "
                                       + "(ring --heart-samples N -f csv); check it with the same --heart-samples")
        }
        return expected.shape == .csv || expected.shape == .heartSamples ? .csv : .json
    }
}

/// `--check` of `subject` written in memory in the format `format` picks for the golden, then
/// `written` (`-o`), then the verdict. `name`: the layout in a message (`the transition`).
func checkWritten(golden: String, name: String, options: DiffOptions, reporting: CheckReporting,
                  subject: CheckedLayout, io: CommandIO, written: () throws -> Void,
                  format: (LayoutDocument) throws -> OutputFormat) throws -> Int32 {
    let (goldenInput, expected) = try checkedInput(golden, .path(golden), io: io)
    let format = try format(expected)
    let buffer = LayoutOutput(precision: subject.precision)
    try subject.write(format, buffer)
    let data = Data(buffer.bytes), fileFormat: LayoutFileFormat = format == .csv ? .csv : .json
    func compare(_ actual: LayoutInput) throws -> StreamedDiff {
        try LayoutDiff.compareStreams(expected: goldenInput, expectedFormat: layoutFormat(golden), actual: actual,
                                      actualFormat: fileFormat, options: options, style: reporting.style(io))
    }
    var diff = (try? SpooledInput(data)).flatMap { try? compare(.spooled($0)) }
    if diff == nil {
        let actual: LayoutDocument
        do {
            actual = try LayoutReader.read(data, format: fileFormat)
        } catch let error as LayoutReadError {
            // The writers' output always reads back; this would be a bug in one of them.
            throw CLIError.status(DiffStatus.trouble, error.message(file: "the \(format.rawValue) of \(name)"))
        }
        diff = try compare(.document(actual))
    }
    try written()
    return try checkVerdict(diff!, expected: expected, golden: golden, format: format, options: options,
                            reporting: reporting, subject: subject, io: io)
}

/// What `--check` checks: ACTUAL's name in reports (`cvlayout flow`), the run's precision, and
/// how to write it in a format to a buffer, flushing it.
struct CheckedLayout {
    let name: String
    let precision: NumberPrecision
    let write: (OutputFormat, LayoutOutput) throws -> Void

    /// Writes it as `format` to `path` atomically, or to `stdout` for `nil` and `-`, each chunk shown to `probe`.
    func write(_ format: OutputFormat, to path: String?, stdout: @escaping OutputFile.Sink,
               probe: SVGSizeProbe = SVGSizeProbe()) throws {
        try OutputFile.write(to: path, stdout: stdout, probe: probe) {
            try write(format, LayoutOutput(precision: precision, sink: $0))
        }
    }
}

/// `--check`'s verdict: when the same, what a thin golden left uncompared, the report unless plain
/// text, and 0; else the report, the artifacts, the golden recorded with `--record failed`, and 1.
func checkVerdict(_ diff: StreamedDiff, expected: LayoutDocument, golden: String, format: OutputFormat,
                  options: DiffOptions, reporting: CheckReporting, subject: CheckedLayout, io: CommandIO) throws -> Int32 {
    let result = diff.result
    if let unknown = LayoutDiff.unknownNamesText(expected, name: golden) {
        io.stderr("cvlayout: warning: --check: \(questioningControlCharacters(unknown))\n")
    }
    if result.isSame {
        if let skipped = LayoutDiff.notComparedText(result, expectedName: golden, actualName: "the layout") {
            io.stderr("cvlayout: warning: --check: \(questioningControlCharacters(skipped))\n")
        }
        if reporting.report != .text || reporting.reportFile != nil {
            try reporting.write(diff, golden: golden, subject: subject, io: io)
        }
        return DiffStatus.same
    }
    try reporting.write(diff, golden: golden, subject: subject, io: io)
    if reporting.report == .text, reporting.reportFile == nil,
       let note = precisionNote(result, golden: golden, toleranceOption: "--check-tolerance") { io.stderr(note) }
    if let directory = reporting.artifacts {  // after the report, which a failure here would otherwise lose
        try writeArtifacts(golden: golden, format: format, to: directory, options: options, subject: subject, io: io)
    }
    if reporting.record == .failed { try recordGolden(golden, format: format, subject, io: io) }
    return DiffStatus.different
}

/// The last line of a report whose every difference is within half a unit of the last decimal
/// GOLDEN prints (written with `--precision 0`); `nil` otherwise, for stdin or an unreadable golden.
/// - Complexity: O(golden's bytes), read again in 1 MiB chunks.
func precisionNote(_ result: LayoutDiffResult, golden: String, toleranceOption: String) -> String? {
    // No golden prints fewer than 0 decimals: a difference past half a unit rules the note
    // out before the golden is read again (a million elements that moved cost no second read).
    guard golden != "-", let range = result.numericDeltaRange(), range.largest <= 0.5 * (1 + 1e-9),
          let decimals = printedDecimals(ofFile: golden), decimals < 15 else { return nil }
    let half = (0..<decimals).reduce(0.5) { half, _ in half / 10 }
    guard result.differsOnlyWithin(half) else { return nil }
    let halfText = NumberPrecision.full.text(half)
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
    while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        for byte in chunk {
            let afterDigit = previous >= 0x30 && previous <= 0x39
            if byte == UInt8(ascii: ".") && afterDigit {
                run = 0
            } else if byte >= 0x30 && byte <= 0x39 && run >= 0 {
                run += 1
                most = max(most, run)
            } else if (byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")) && afterDigit {
                return 15
            } else {
                run = -1
            }
            previous = byte
        }
    }
    return most
}

/// `checkAgainstGolden` as a stream, each number as the golden's format prints it (a golden out of
/// element order sorted). `nil` when the layout must be written first: a golden malformed or
/// repeating an element, a CSV of heart samples, a layout not produced in element order.
private func streamedCheck(_ job: LayoutJob, golden: String, options: DiffOptions, reporting: CheckReporting,
                           subject: CheckedLayout, io: CommandIO) throws -> Int32? {
    let precision = job.outputOptions.precision
    var format = OutputFormat.json
    let streamed: StreamedDiff?
    do {
        streamed = try LayoutDiff.withStreams(.path(golden), layoutFormat(golden), nil, nil) {
            sorted, presence -> StreamedDiff? in
            if sorted.actual { return nil }  // the layout not produced in element order
            let comparison = try StreamedComparison(expected: .path(golden), format: layoutFormat(golden), options: options,
                                                    style: reporting.style(io), sorted: sorted.expected, presence: presence)
            let (csv, samples) = comparison.expectedCSV
            if csv && (job.layout.heartSamples != nil || samples) { return nil }  // the conflicts, said by `checkAgainstGolden`
            format = csv ? .csv : .json
            guard let (layout, produce) = try job.streamedElements(for: format) else { return nil }
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
            return try comparison.finish(actual: csv ? LayoutDiff.csvWithoutElements
                                                     : LayoutDiff.partsDocument(of: layout, precision: precision))
        }
    } catch is LayoutStreamFallback, is LayoutReadError {
        return nil  // a LayoutReadError is said by `checkedInput`
    }
    guard let diff = streamed else { return nil }
    if job.options.has(GlobalOption.output) { try job.write(io: io) }
    return try checkVerdict(diff, expected: diff.expected, golden: golden, format: format, options: options,
                            reporting: reporting, subject: subject, io: io)
}

// MARK: - Reporting, artifacts, recording

/// `--record`: only compare; write a missing golden; overwrite one that differs; write every golden.
enum RecordMode: String, CaseIterable {
    case never, missing, failed, all
}

/// How one `--check` reports and records: `--artifacts` (`CVLAYOUT_ARTIFACTS`), `--record`
/// (`CVLAYOUT_RECORD`, but `missing` and `all` under `CI=true`), `--report`, `--report-file`.
struct CheckReporting {
    var artifacts: String? = nil
    var record: RecordMode = .never
    var report: DiffReportFormat = .text
    var reportFile: String? = nil

    /// - Throws: `CLIError.usage` for a value that is none of the choices or an empty path.
    init(_ values: OptionValues, engine: String, io: CommandIO) throws {
        func choice<T: RawRepresentable & CaseIterable>(_ text: String, _ name: String, _: T.Type) throws -> T
            where T.RawValue == String {
            let names = T.allCases.map(\.rawValue)
            guard let value = T(rawValue: text.lowercased()) else {  // case-insensitive, as -f
                throw CLIError(.notOneOf(name, names, got: shortenedForMessage(text), nearest: nearest(text, among: names)),
                               engine: engine)
            }
            return value
        }
        if let text = try values.text(GlobalOption.record) {
            record = try choice(text, "--record", RecordMode.self)
        } else if let text = io.environment("CVLAYOUT_RECORD"), !text.isEmpty {
            record = try choice(text, "CVLAYOUT_RECORD", RecordMode.self)
            let ci = (io.environment("CI") ?? "").lowercased()
            if (ci == "true" || ci == "1") && (record == .missing || record == .all) {
                io.stderr("cvlayout: note: CVLAYOUT_RECORD=\(text) is ignored under CI=true (a golden missing in CI is an error; "
                          + "--record \(text) records anyway)\n")
                record = .never
            }
        }
        if let text = try values.text(GlobalOption.report) { report = try choice(text, "--report", DiffReportFormat.self) }
        reportFile = try values.text(GlobalOption.reportFile)
        if let path = reportFile, path.isEmpty || path == "-" {
            throw CLIError.usage("--report-file: expected a file, got '\(shortenedForMessage(path))'", engine: engine)
        }
        artifacts = try values.text(GlobalOption.artifacts) ?? io.environment("CVLAYOUT_ARTIFACTS").flatMap { $0.isEmpty ? nil : $0 }
        if artifacts == "" { throw CLIError.usage("--artifacts: expected a directory, got ''", engine: engine) }
    }

    func style(_ io: CommandIO) -> StreamedReportStyle {
        reportStyle(report, color: reportFile == nil && io.color.stderr)
    }

    /// Records GOLDEN, not comparing, for `all` (`missing`: no GOLDEN), then `written` (`-o`): 1; else `nil`.
    func recordWithoutComparing(_ golden: String, _ subject: CheckedLayout, io: CommandIO,
                                written: () throws -> Void) throws -> Int32? {
        let exists = FileManager.default.fileExists(atPath: golden)
        guard record == .all || (record == .missing && !exists) else { return nil }
        try recordGolden(golden, format: goldenFormat(golden), subject, io: io)
        try written()
        return DiffStatus.different
    }

    /// Writes `diff`'s report as `report` to `--report-file` or stderr.
    func write(_ diff: StreamedDiff, golden: String, subject: CheckedLayout, io: CommandIO) throws {
        func body(_ emit: OutputFile.Sink) throws {
            try writeFormattedReport(report, diff, expectedName: golden, actualName: subject.name,
                                     className: subject.name, to: emit)
        }
        if let path = reportFile { return try writingAsTrouble("--report-file: ") { try OutputFile.write(to: path, body) } }
        // Standard error in pieces of whole lines (a chunk may end inside a character).
        var pending: [UInt8] = []
        try body { chunk in
            pending.append(contentsOf: chunk)
            if let last = pending.lastIndex(of: 0x0A) {
                io.stderr(String(decoding: pending[...last], as: UTF8.self))
                pending.removeSubrange(...last)
            }
        }
        if !pending.isEmpty { io.stderr(String(decoding: pending, as: UTF8.self)) }
    }
}

/// A golden's format: by its `.csv` or `.json` name, else CSV for a file starting with neither `{` nor `[`.
func goldenFormat(_ golden: String) -> OutputFormat {
    switch LayoutFileFormat(pathExtension: golden) {
    case .csv?: return .csv
    case .json?: return .json
    case nil:
        let first = firstByte(of: golden)
        return first == nil || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .csv
    }
}

/// The first byte of the file at `path` that is not white space, among its first 64.
private func firstByte(of path: String) -> UInt8? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    return (try? handle.read(upToCount: 64)).flatMap { $0.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) } }
}

/// Writes GOLDEN from the layout, atomically (its folder made), and says `recorded GOLDEN`.
func recordGolden(_ golden: String, format: OutputFormat, _ subject: CheckedLayout, io: CommandIO) throws {
    // A picture or a document is never replaced by a layout: its name, or its first byte.
    let ext = URL(fileURLWithPath: golden).pathExtension.lowercased()
    if pictureExtensions.union(["svg", "xml", "html", "htm"]).contains(ext)
        || (ext.isEmpty && firstByte(of: golden) == UInt8(ascii: "<")) {
        throw CLIError.status(DiffStatus.trouble, "--record: '\(shortenedForMessage(golden))' is not a layout file "
                              + "(a picture or a document): it is not replaced; name the golden .json or .csv")
    }
    let folder = URL(fileURLWithPath: golden).deletingLastPathComponent().path
    if let problem = makeDirectory(folder) {
        throw CLIError.status(DiffStatus.trouble, "--record: cannot create the folder of '\(golden)': \(problem)")
    }
    try writingAsTrouble("--record: ") { try subject.write(format, to: golden, stdout: io.stdout) }
    io.stderr("recorded \(golden)\n")
}

/// Makes `path` and the folders above it (mkdir -p); `nil` when it is a directory then, else why not.
func makeDirectory(_ path: String) -> String? {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
        return isDirectory.boolValue ? nil : "a file is in the way"
    }
    let parent = OutputFile.directory(of: path)  // not NSString's, which traps on a one-character name
    if parent != path, let problem = makeDirectory(parent) { return problem }
    if mkdir(path, 0o777) != 0 && errno != EEXIST { return String(cString: strerror(errno)) }
    return nil
}

/// `--artifacts DIR` of a failed check, each atomically (DIR made): `DIR/NAME.actual.EXT`,
/// `DIR/NAME.diff.svg` and `DIR/NAME.report.txt`, NAME the golden's file name without extension.
/// - Throws: `CLIError` with status 2 when one cannot be written.
func writeArtifacts(golden: String, format: OutputFormat, to directory: String, options: DiffOptions,
                    subject: CheckedLayout, io: CommandIO) throws {
    let file = URL(fileURLWithPath: golden).lastPathComponent
    let name = file.contains(".") && !file.hasPrefix(".") ? String(file[..<file.lastIndex(of: ".")!]) : file
    let base = (directory.hasSuffix("/") ? directory : directory + "/") + name  // as given, for messages
    let actualPath = base + ".actual." + format.rawValue
    if let problem = makeDirectory(directory) {
        throw CLIError.status(DiffStatus.trouble, "--artifacts: cannot create '\(directory)': \(problem)")
    }
    try writingAsTrouble("--artifacts: ") {
        try subject.write(format, to: actualPath, stdout: io.stdout)
        try OutputFile.write(to: base + ".diff.svg") { sink in
            try drawLayoutDiff(golden, actualPath, spooled: nil, io: io, options: options, actualName: subject.name, to: sink)
        }
        let diff = try compareLayoutFiles(golden, actualPath, spooled: nil, io: io, options: options, style: .text(color: false))
        try OutputFile.write(to: base + ".report.txt") { try diff.writeReport(golden, subject.name, to: $0) }
    }
}

/// Runs `body`; an output file it cannot create or write is trouble (2), after `prefix`.
func writingAsTrouble(_ prefix: String, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as CLIError where error.status == ExitStatus.ioError || error.status == ExitStatus.cannotCreate {
        throw CLIError.status(DiffStatus.trouble, prefix + error.message)
    }
}

/// `--check-tolerance` and `--check-fields` as diff's options.
/// - Throws: `CLIError.usage` (64) for a check option without `--check`, a bad tolerance or field.
func checkComparisonOptions(_ values: OptionValues, engine: String) throws -> DiffOptions {
    try checkComparisonOptionsNeedCheck(values, engine: engine)
    return try comparisonOptions(fields: values.text("check-fields"), tolerance: values.text("check-tolerance"),
                                 prefix: "--check-", shown: { shortenedForMessage($0) }) { CLIError.usage($0, engine: engine) }
}

/// Refuses the options used only with `--check` without it (usage).
func checkComparisonOptionsNeedCheck(_ values: OptionValues, engine: String) throws {
    guard !values.has("check") else { return }
    for name in ["check-tolerance", "check-fields", "artifacts", "record", "report", "report-file"] where values.has(name) {
        throw CLIError.usage("--\(name) is used only with --check GOLDEN", engine: engine)
    }
}

/// The message when `--report-file` `report` (`shown` in it) names one of `layouts` being
/// compared (a path or `nil`, and its name in the message); `nil` when it names none.
func reportFileNamingALayout(_ report: String, shown: String, _ layouts: [(path: String?, name: String)]) -> String? {
    guard let layout = layouts.first(where: { $0.path.map { namesTheSameFile(report, $0) } ?? false }) else { return nil }
    return "--report-file \(shown) is \(layout.name): it would be replaced by the report"
}

/// Whether two paths name the same file once made absolute, `.`, `..` and symbolic links resolved.
func namesTheSameFile(_ a: String, _ b: String) -> Bool {
    guard a != "-" && b != "-" else { return false }
    let resolved = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
    return resolved(a) == resolved(b)
}
