import Foundation
import LayoutCore
import LayoutFormats

// `cvlayout ENGINE … --check GOLDEN`: lay out and compare with a golden file in one step, the
// one-liner a CI step needs.

/// The help line of the global `--check` option.
let checkOptionHelp = "compare with GOLDEN (a .json or .csv layout) instead of printing: "
    + "differences on stderr, status 1 if any, 2 if GOLDEN is unreadable"

/// Compares `job`'s layout with the layout in `golden`, as `cvlayout diff GOLDEN ACTUAL`
/// would at the default tolerance (0.001), and prints the diff report on standard error
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
    let result = LayoutDiff.compare(expected, actual)
    if let unknown = LayoutDiff.unknownNamesText(expected, name: golden) {
        io.stderr("cvlayout: warning: --check: \(unknown)\n")  // not compared, whatever the verdict
    }
    if result.isSame {
        // A golden without some fields (a CSV of index paths only) matches whatever they hold:
        // said, so that a thin golden does not pass unnoticed.
        if let skipped = LayoutDiff.notComparedText(result, expectedName: golden, actualName: "the layout") {
            io.stderr("cvlayout: warning: --check: \(skipped)\n")
        }
        return DiffStatus.same
    }
    io.stderr(LayoutDiff.textReport(result, expectedName: golden, actualName: "cvlayout \(job.descriptor.name)",
                                    color: io.color.stderr))
    return DiffStatus.different
}
