import Foundation
import Testing
import CVLayoutCLI

/// The built `cvlayout` beside the test bundle (`swift build --build-tests` builds both),
/// or `nil` when it is not there.
let builtCvlayout: URL? = {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // The test runner may sit inside the .xctest bundle's folders.
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("cvlayout")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory.deleteLastPathComponent()
    }
    return nil
}()

/// A description an engine refuses: the dataset given on standard input and the start of
/// the message.
struct BadDescription: CustomTestStringConvertible, Sendable {
    let dataset: String
    let message: String
    var testDescription: String { message }
}

/// Expects `engine` to refuse `case_`'s dataset on standard input as bad data (65): nothing on
/// standard output, and on standard error one line, `cvlayout: error: ` and the case's message.
func expectRefused(_ engine: String, _ case_: BadDescription, sourceLocation: SourceLocation = #_sourceLocation) {
    let result = run(arguments: [engine, "-"], stdin: { Data(case_.dataset.utf8) })
    #expect(result.status == 65, "\(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    #expect(result.stderr.hasPrefix("cvlayout: error: " + case_.message), "\(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
}

/// A new empty directory under the temporary directory; the caller removes it.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes what `cvlayout arguments` prints to stdout to `url` (a golden or a layout to
/// compare) and returns `url`.
@discardableResult
func writeOutput(of arguments: [String], to url: URL) throws -> URL {
    try Data(run(arguments: arguments).stdout).write(to: url)
    return url
}

/// Runs `executable` with `arguments` and extra `environment` variables; returns its exit
/// status and what it wrote to stdout and stderr. The variables `--check` reads by default
/// (`CVLAYOUT_RECORD`, `CVLAYOUT_ARTIFACTS`, `CI`) are not passed on from the test run's
/// own environment, so that a developer's or CI's settings cannot change what a test sees.
func runProcess(_ executable: String, _ arguments: [String],
                environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var inherited = ProcessInfo.processInfo.environment
    for name in ["CVLAYOUT_RECORD", "CVLAYOUT_ARTIFACTS", "CI"] { inherited[name] = nil }
    process.environment = inherited.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    // Not the runner's stdin: a pipe there would be read as the dataset of a command without one.
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}
