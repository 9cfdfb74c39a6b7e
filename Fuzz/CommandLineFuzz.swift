// libFuzzer target: the whole command line, `run(arguments:stdin:)`, on an argument line and
// a dataset taken from the bytes. Built by Fuzz/build.sh; run by `make fuzz`.
//
// Input format: the text before the first NUL byte is the argument line (split at spaces
// and newlines); the bytes after it are standard input, read when the DATASET is `-`.
// `ring -f svg --rect 0,0,10,10 -\0[1, 6, 12]` is a typical seed.
//
// Every run must end in a SPEC section 3 status; on an error nothing reaches stdout and
// stderr is `cvlayout: error: …` on one line (two for usage errors); on success the output
// holds no NaN, infinity or `-0`, and JSON output parses back.

import Foundation
import CVLayoutCLI
import LayoutCore
import LayoutDatasets

/// The commands the fuzzer may start with: every engine of the registry (as `cvlayout engines`
/// lists them, read once at start-up), the read-only subcommands, and a misspelt engine. Other
/// subcommands may read or write files, which a fuzzer must not do.
nonisolated(unsafe) private var allowedCommands: Set<String> = [
    "engines", "devices", "--help", "--version", "waterfal", "",
]

/// Keeps each execution fast: embedded data and datasets larger than this are skipped.
private let maximumItems = 2_000

/// The golden files `--check` can name in the working directory: the layouts of
/// `waterfall --count 4`, so `waterfall --count 4 --check golden.json` matches (status 0) and
/// most other commands differ (status 1).
private let goldenCommands: [(name: String, arguments: [String])] = [
    ("golden.json", ["waterfall", "--count", "4"]),
    ("golden.csv", ["waterfall", "--count", "4", "-f", "csv"]),
]

/// Runs in a temporary directory that holds only the golden files above, so a DATASET or
/// GOLDEN name the fuzzer invents can only name a missing file, that directory, or one of
/// those goldens, never a real file.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>) -> CInt {
    var template = Array((NSTemporaryDirectory() + "/cvlayout-fuzz-XXXXXX").utf8CString)
    guard let directory = mkdtemp(&template), chdir(directory) == 0 else {
        fatalError("cannot create the fuzzer's empty working directory")
    }
    let engines = run(arguments: ["engines"], stdin: { Data() }).stdoutText.split(separator: "\n")
    allowedCommands.formUnion(engines.compactMap { $0.split(separator: " ").first.map(String.init) })
    for golden in goldenCommands {
        let result = run(arguments: golden.arguments, stdin: { Data() })
        guard result.status == 0, FileManager.default.createFile(atPath: golden.name, contents: Data(result.stdout)) else {
            fatalError("cannot write the fuzzer's golden file \(golden.name)")
        }
    }
    return 0
}

/// Runs one input: the argument line and standard input it holds, then the checks below.
/// Inputs that could touch files or run long are skipped (returning -1 keeps them out of the
/// corpus).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: bytes, count: size)
    let split = buffer.firstIndex(of: 0) ?? size
    let line = String(decoding: buffer[..<split], as: UTF8.self)
    let stdin = split < size ? Data(buffer[(split + 1)...]) : Data()
    let arguments = line.split(omittingEmptySubsequences: true) { $0 == " " || $0 == "\n" }.map(String.init)
    guard isSafeAndSmall(arguments, stdin: stdin) else { return -1 }  // not added to the corpus

    let result = run(arguments: arguments, stdin: { stdin })
    check(result, arguments: arguments)
    return 0
}

// MARK: - Keeping executions safe and fast

private func isSafeAndSmall(_ arguments: [String], stdin: Data) -> Bool {
    guard allowedCommands.contains(arguments.first ?? "") else { return false }
    for (i, argument) in arguments.enumerated() {
        // No output files (nor --check's recorded goldens, artifacts and report files) and no
        // paths outside the empty working directory.
        if argument.hasPrefix("-o") || argument.hasPrefix("--output") || argument.contains("/") { return false }
        if argument.hasPrefix("--record") || argument.hasPrefix("--artifacts") || argument.hasPrefix("--report-file") {
            return false
        }
        // Bounded embedded data (ring rings grow as 6·s, so fewer of them).
        var countText: String? = nil
        if argument.hasPrefix("--count=") { countText = String(argument.dropFirst("--count=".count)) }
        if argument == "--count", i + 1 < arguments.count { countText = arguments[i + 1] }
        if let countText, let n = ValueSyntax.integer(countText),
           n > (arguments.first == "ring" ? 40 : maximumItems) {
            return false
        }
    }
    // Bounded datasets: decoding is cheap next to laying out and writing.
    if !stdin.isEmpty {
        let schema: DatasetSchema = arguments.first == "ring" ? .ringCounts
            : arguments.first == "compositional" ? .compositional : arguments.first == "grid" ? .grid : .items
        if let dataset = try? DatasetDecoder.decode(stdin, schema: schema), dataset.itemCount > maximumItems {
            return false
        }
    }
    return true
}

// MARK: - The checks

private let exitStatuses: Set<Int32> = [0, 64, 65, 66, 73, 74]

/// `--check GOLDEN` adds diff(1)'s statuses: 1 when the layouts differ, 2 when GOLDEN cannot
/// be read (README, "Using cvlayout in CI").
private let checkStatuses: Set<Int32> = [1, 2]

private func check(_ result: CommandResult, arguments: [String]) {
    let context = "arguments: \(arguments), status \(result.status), stderr: \(result.stderr.debugDescription)"
    // Help and the informational commands print what they print whatever else is given.
    let informational = ["engines", "devices", "--help", "--version"].contains(arguments.first ?? "")
        || arguments.contains("--help") || arguments.contains("-h")
    let checksGolden = !informational && arguments.contains { $0 == "--check" || $0.hasPrefix("--check=") }
    precondition(exitStatuses.contains(result.status) || (checksGolden && checkStatuses.contains(result.status)),
                 "status outside SPEC section 3: \(context)")
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    precondition(result.stderr.isEmpty || result.stderr.hasSuffix("\n"), "stderr does not end a line: \(context)")
    if checksGolden && result.status != 2 {
        // The layout is compared, never printed; the report of what moved goes to stderr.
        precondition(result.stdout.isEmpty, "--check printed the layout: \(context)")
        if result.status == 1 {
            let report = lines.first { !$0.hasPrefix("cvlayout: warning: ") }
            precondition(report?.hasPrefix("--- ") == true, "--check differs without a report: \(context)")
            return
        }
    }
    guard result.status == 0 else {
        precondition(result.stdout.isEmpty, "output on an error: \(context)")
        precondition(lines.first?.hasPrefix("cvlayout: error: ") == true, "not a cvlayout error: \(context)")
        if result.status == 64 {
            precondition(lines.count == 2 && lines[1].hasPrefix("Run 'cvlayout ") && lines[1].hasSuffix("--help' for usage."),
                         "usage error without the help line: \(context)")
        } else {
            precondition(lines.count == 1, "error message not on one line: \(context)")
        }
        return
    }
    // On success stderr holds only warnings and `grid --explain`'s arithmetic.
    precondition(lines.allSatisfy { $0.hasPrefix("cvlayout: warning: ") || $0.hasPrefix("cvlayout: explain: ") },
                 "stderr on success: \(context)")
    guard !informational else { return }
    checkNumbers(result.stdout, context: context)
    if result.stdout.first == UInt8(ascii: "{") {
        precondition((try? JSONSerialization.jsonObject(with: Data(result.stdout))) != nil,
                     "JSON output does not parse: \(context)")
    }
}

/// No `nan`, `inf` or a `-0` number anywhere in the output.
private func checkNumbers(_ output: [UInt8], context: String) {
    func lower(_ b: UInt8) -> UInt8 { b | 0x20 }
    for i in output.indices {
        let b = lower(output[i])
        if i + 2 < output.count {
            let word = (b, lower(output[i + 1]), lower(output[i + 2]))
            precondition(!(word == (UInt8(ascii: "n"), UInt8(ascii: "a"), UInt8(ascii: "n"))), "NaN in the output: \(context)")
            precondition(!(word == (UInt8(ascii: "i"), UInt8(ascii: "n"), UInt8(ascii: "f"))), "infinity in the output: \(context)")
        }
        if output[i] == UInt8(ascii: "-"), i + 1 < output.count, output[i + 1] == UInt8(ascii: "0") {
            let next = i + 2 < output.count ? output[i + 2] : 0
            let continues = next == UInt8(ascii: ".") || (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9"))
            precondition(continues, "-0 in the output: \(context)")
        }
    }
}
