import Foundation
import LayoutCore
import LayoutComparison
import LayoutDatasets
import LayoutWriters

/// The program's version; `--version` prints it.
public let cvlayoutVersion = "0.1.0"

/// What one run of the command line produced.
public struct CommandResult: Equatable, Sendable {
    /// Bytes written to standard output.
    public var stdout: [UInt8]
    /// Text written to standard error.
    public var stderr: String
    /// Exit status (`ExitStatus`).
    public var status: Int32

    /// Standard output as text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs `cvlayout` with `arguments` (no program name), returning all it printed: the testable
/// entry point. `environment`: the variables `--check` reads (default none, not the process's).
public func run(arguments: [String], stdin: @escaping () throws -> Data = { Data() },
                environment: [String: String] = [:], stdinHoldsData: Bool = false) -> CommandResult {
    var stdoutBytes: [UInt8] = []
    var stderrText = ""
    let status = run(arguments: arguments, stdin: stdin,
                     stdout: { stdoutBytes.append(contentsOf: $0) },
                     stderr: { stderrText += $0 }, environment: { environment[$0] }, stdinHoldsData: stdinHoldsData)
    return CommandResult(stdout: stdoutBytes, stderr: stderrText, status: status)
}

/// Runs `cvlayout`, standard output to `stdout` in large chunks (nothing unless the layout
/// succeeded), messages to `stderr`; returns the exit status.
/// - Parameters:
///   - stdin: read when the dataset is `-`, or when none is named and `stdinHoldsData`.
///   - color: which streams may carry ANSI colour (diff reports only); default never.
///   - stdinDescriptor: standard input's, which `diff -` copies; `nil`: read `stdin` only.
///   - environment: a variable's value, `nil` when unset (`CommandIO.environment`).
///   - stdinHoldsData: whether standard input is a pipe, FIFO or regular file: the dataset
///     when none is named and `--count` is not given.
public func run(arguments: [String], stdin: @escaping () throws -> Data,
                stdout: @escaping (UnsafeBufferPointer<UInt8>) throws -> Void,
                stderr: (String) -> Void, color: ColorPolicy = .never, stdinDescriptor: Int32? = nil,
                environment: @escaping (String) -> String? = { _ in nil }, stdinHoldsData: Bool = false) -> Int32 {
    do {
        let (status, warnings) = try withoutActuallyEscaping(stderr) { stderr in
            let io = CommandIO(stdin: stdin, stdinDescriptor: stdinDescriptor, stdinHoldsData: stdinHoldsData,
                               stdout: stdout, stderr: stderr, color: color, environment: environment)
            return try execute(arguments, io: io)
        }
        for warning in warnings { stderr("cvlayout: warning: \(questioningControlCharacters(warning))\n") }
        return status
    } catch let error as CLIError {
        stderr(error.stderrText)
        return error.status
    } catch is BrokenPipe {
        return ExitStatus.success  // the reader went away (`| head`): end quietly
    } catch {
        stderr("cvlayout: error: \(error)\n")
        return ExitStatus.ioError
    }
}

/// Thrown by a stdout sink whose reader has closed the pipe; the run ends quietly.
struct BrokenPipe: Error {}

/// The I/O a command sees (`run`'s parameters): stdin on demand, stdout in chunks.
struct CommandIO {
    let stdin: () throws -> Data
    var stdinDescriptor: Int32? = nil
    var stdinHoldsData = false
    let stdout: OutputFile.Sink
    var stderr: (String) -> Void = { _ in }
    var color: ColorPolicy = .never
    /// A variable's value, `nil` when unset (`--check`'s `CVLAYOUT_RECORD`, `CI`, …).
    var environment: (String) -> String? = { _ in nil }

    func emit(_ text: String) throws {
        var text = text
        try text.withUTF8 { try stdout($0) }
    }
}

/// A command that is not an engine, with its one-line summary for help.
struct SubcommandDescriptor: Sendable {
    let name: String
    let summary: String
    /// Runs with the arguments after the name; returns the exit status, throws `CLIError`.
    let run: @Sendable (_ arguments: [String], _ io: CommandIO) throws -> Int32

    /// A command that takes no arguments: prints `help` for `-h` or `--help`, else `output()`.
    static func withoutArguments(_ name: String, summary: String, help: String,
                                 output: @escaping @Sendable () -> String) -> SubcommandDescriptor {
        SubcommandDescriptor(name: name, summary: summary) { arguments, io in
            let wantsHelp = arguments == ["--help"] || arguments == ["-h"]
            if !arguments.isEmpty && !wantsHelp { throw CLIError(.takesNoArguments(name)) }
            try io.emit(wantsHelp ? help : output())
            return ExitStatus.success
        }
    }
}

let subcommandRegistry: [SubcommandDescriptor] = [
    .withoutArguments("engines", summary: "list the engines, one line each",
                      help: "USAGE: cvlayout engines\n\nLists the engines, one line each: the name, then what it lays out.\n") {
        columns(engineRegistry.map { ($0.name, $0.summary) })
    },
    devicesCommand,
    transitionCommand,
    diffCommand,
    completionsCommand,
    manpageCommand,
]

private func unknownCommand(_ name: String) -> CLIError {
    if name.hasPrefix("-") { return CLIError(.optionBeforeEngine(shortenedForMessage(name))) }
    let near = nearest(name, among: engineRegistry.map(\.name) + subcommandRegistry.map(\.name))
    return CLIError(.unknown(.engine, shortenedForMessage(name), nearest: near))
}

/// One run: help, a subcommand or an engine; returns the exit status and the warnings.
private func execute(_ arguments: [String], io: CommandIO) throws -> (status: Int32, warnings: [String]) {
    guard let first = arguments.first else { throw CLIError(.fixed(.noEngine)) }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "-h", "--help", "help":
        // `cvlayout --help COMMAND` is `cvlayout COMMAND --help`, for engines and subcommands.
        guard let name = rest.first else {
            try io.emit(globalHelp())
            return (ExitStatus.success, [])
        }
        guard engine(named: name) != nil || subcommandRegistry.contains(where: { $0.name == name }) else {
            throw unknownCommand(name)
        }
        return try execute([name, "--help"], io: io)
    case "--version", "-V":
        if !rest.isEmpty { throw CLIError(.takesNoArguments("--version")) }
        try io.emit("cvlayout \(cvlayoutVersion)\n")
        return (ExitStatus.success, [])
    default:
        break
    }
    if let command = subcommandRegistry.first(where: { $0.name == first }) {
        return (try command.run(rest, io), [])
    }
    guard let descriptor = engine(named: first) else { throw unknownCommand(first) }
    if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
        try io.emit(engineHelp(descriptor))
        return (ExitStatus.success, [])
    }
    let job = try LayoutJob(descriptor: descriptor, arguments: rest, io: io)
    try checkComparisonOptionsNeedCheck(job.options, engine: job.descriptor.name)
    let golden = try job.options.text(GlobalOption.check)
    let status = try golden.map { try checkAgainstGolden(job, golden: $0, io: io) } ?? ExitStatus.success
    if golden == nil { try job.write(io: io) }
    for line in job.layout.explanation { io.stderr("cvlayout: explain: \(line)\n") }
    if golden != nil { return (status, job.layout.warnings) }
    if let statistics = job.layout.statistics, job.format != .json {
        // JSON carries them as "stats"; the other formats have no room, so one line on stderr.
        io.stderr("cvlayout: stats: " + statistics.map { "\($0.name) \(job.outputOptions.precision.text($0.value))" }
            .joined(separator: ", ") + "\n")
    }
    return (ExitStatus.success, job.layout.warnings + job.writeWarnings)
}

// MARK: - Pieces

/// The dataset at `path` (`-`: `stdin`), named `name` (`<stdin>`) in messages.
/// - Throws: `CLIError`: 66 when it cannot be opened, 65 past `limit`, 74 on a read error.
func readDataset(_ path: String, name: String, stdin: () throws -> Data,
                 limit: Int = maximumDatasetBytes) throws -> Data {
    let handle = path == "-" ? nil : try openForReading(path, shownAs: name)
    defer { try? handle?.close() }
    do {
        return try handle.map { try readBounded($0, limit: limit) } ?? stdin()
    } catch let error as DatasetTooLarge {
        throw CLIError(.tooLarge(name, limit: error.limit))
    } catch {
        throw CLIError(.cannotRead(name, .system(describe(error))))
    }
}

/// - Throws: `CLIError` 66 naming it `name` when it does not exist, is a directory or cannot be opened.
func openForReading(_ path: String, shownAs name: String) throws -> FileHandle {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw CLIError(.cannotOpen(name, .noSuchFile)) }
    if isDirectory.boolValue { throw CLIError(.cannotOpen(name, .isADirectory)) }
    guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIError(.cannotOpen(name, .permissionDenied)) }
    return handle
}

/// Merges a dataset's `"options"` under the command line's; returns those overridden (checked all the same).
/// - Throws: `CLIError` for an unknown key, one only the command line takes, a non-boolean switch.
func mergeDatasetOptions(_ datasetOptions: [DatasetOption], into options: inout OptionValues,
                   descriptor: EngineDescriptor, file: String) throws -> [(name: String, value: OptionValue)] {
    var overridden: [(name: String, value: OptionValue)] = []
    let known = knownOptions(for: descriptor.name)
    let commandLine = options
    for option in datasetOptions {
        guard let spec = known.first(where: { $0.name == option.key }) else {
            let near = nearest(option.key, among: known.filter(\.allowedInDataset).map(\.name))
            throw CLIError.data(.at("\(file): \(option.path)", .unknown(.datasetOption(engine: descriptor.name), option.key, nearest: near)))
        }
        guard spec.allowedInDataset else {
            throw CLIError(.commandLineOnly("\(file): \(option.path)", key: option.key))
        }
        if spec.valueName == nil, case .bool = option.value {} else if spec.valueName == nil {
            throw CLIError(.invalidValue("\(file): \(option.path)", .boolean, got: quotedForMessage(option.value)))
        }
        let value = OptionValue(raw: option.value, origin: .dataset(file: file, path: option.path))
        // The command line wins, also over the dataset's options a flag given replaces.
        let replacedByFlag = supersedingOptions[option.key, default: []].contains { commandLine.values[$0] != nil }
        if options.values[option.key] == nil && !replacedByFlag {
            options.values[option.key] = value
        } else {
            overridden.append((option.key, value))
        }
    }
    return overridden
}

/// For a dataset option, the other flags that replace it when given (where they would
/// conflict, or the dataset's `"width"` win over `--device`).
let supersedingOptions: [String: [String]] = [
    "width": ["device"], "height": ["device"],
    "rect": ["visible", "item"], "item": ["visible", "rect"], "visible": ["rect", "item"],
    "labels": ["no-labels"], "no-labels": ["labels"],
    "heart-samples": ["no-heart"], "no-heart": ["heart-samples"],
]

/// Reads an SVG's `width` and `height` off the first chunk written (`<svg>` is in its 200 bytes).
final class SVGSizeProbe: @unchecked Sendable {
    /// The document's size, once read.
    private(set) var size: (width: Double, height: Double)?
    private var seen = false

    func observe(_ chunk: UnsafeBufferPointer<UInt8>) throws {
        guard !seen else { return }
        seen = true
        let head = String(decoding: chunk.prefix(400), as: UTF8.self)
        guard let svg = head.range(of: "<svg ") else { return }
        func attribute(_ name: String) -> Double? {
            guard let start = head.range(of: " \(name)=\"", range: svg.upperBound..<head.endIndex),
                  let end = head[start.upperBound...].firstIndex(of: "\"") else { return nil }
            return Double(head[start.upperBound..<end])
        }
        if let width = attribute("width"), let height = attribute("height") { size = (width, height) }
    }
}

/// A one-line note for an SVG (points: pixels at scale 1) past the 32,767 px (16-bit signed)
/// that rsvg-convert and most rasterisers draw; `nil` otherwise.
func oversizedPictureNote(width: Double, height: Double,
                           remedy: String = "--canvas visible or --rect X,Y,W,H --canvas rect draws one screen") -> String? {
    guard width > 32_767 || height > 32_767 else { return nil }
    let size = [width, height].map { describe($0.rounded(.up)) }.joined(separator: " × ")
    return "the SVG is \(size) px, over the 32767 px that rsvg-convert and most rasterisers take in either "
        + "dimension (browsers show it); " + remedy
}

/// Picture formats people ask for (`-f png`, `-o out.png`), which rsvg-convert makes from SVG.
let pictureExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "pdf", "tiff", "tif"]

/// The output format: `-f` (case-insensitive; a dataset's gives way to `-o`'s extension), else
/// `-o`'s extension, else JSON.
/// - Throws: usage errors (64) for a format not written (`-f png`, with the rsvg-convert
///   recipe), an unknown `-o` extension without `-f`, and one that contradicts `-f`.
func outputFormat(_ options: OptionValues) throws -> OutputFormat {
    let engine = options.engine == "" ? nil : options.engine
    var output = try options.text(GlobalOption.output)
    if output == "-" { output = nil }  // `-o -`: standard output
    let ext = output.map { ($0 as NSString).pathExtension.lowercased() } ?? ""
    let shownOutput = output.map { shortenedForMessage($0, limit: 4096) } ?? ""
    let extFormat = OutputFormat(rawValue: ext)
    let picture = pictureExtensions.contains(ext)
    let formatValue = options.values[GlobalOption.format.rawValue]
    let formatFromDataset = formatValue.map { $0.origin != .commandLine } ?? false
    // A dataset's "format" gives way to the command line's -o name when that names a format.
    if let formatValue, !(formatFromDataset && (extFormat != nil || picture)) {
        let text = (try? options.text(GlobalOption.format))?.lowercased()
        guard let format = text.flatMap(OutputFormat.init(rawValue:)) else {
            if !formatFromDataset, let text, pictureExtensions.contains(text) {
                let formats = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw options.malformed(GlobalOption.format, formatValue, expected: "one of \(formats)",
                                        hint: "; " + pictureHint(output == nil ? "out.\(text)" : shownOutput, ext: text))
            }
            return try options.choice(GlobalOption.format, default: OutputFormat.json)  // its error, with "did you mean"
        }
        if extFormat != format, picture || extFormat != nil {
            throw CLIError(.formatContradicts(output: shownOutput, says: picture ? ext : extFormat!.rawValue,
                                              format: format.rawValue, picture: picture), engine: engine)
        }
        return format
    }
    if let extFormat { return extFormat }
    if !ext.isEmpty {
        throw CLIError(.extensionNotWritten(output: shownOutput, ext: shortenedForMessage(ext), picture: picture), engine: engine)
    }
    return .json
}

/// `--labels`, or `none` for `--no-labels`; `nil` when neither is given (the writer's default).
func svgLabels(_ options: OptionValues) throws -> SVGLabels? {
    let labels: SVGLabels? = options.has(GlobalOption.labels) ? try options.choice(GlobalOption.labels, default: SVGLabels.item) : nil
    guard try options.flag(GlobalOption.noLabels) else { return labels }
    if let labels, labels != .none {
        throw options.conflict([GlobalOption.noLabels, "labels"], .cannotBeUsedTogether("--no-labels", "--labels \(labels.rawValue)"))
    }
    return SVGLabels.none
}

/// `--precision N|full`; 3 decimals by default.
func outputPrecision(_ options: OptionValues) throws -> NumberPrecision {
    guard let value = options.values[GlobalOption.precision.rawValue] else { return .standard }
    if try options.text(GlobalOption.precision)?.lowercased() == "full" { return .full }  // case-insensitive, as every choice
    guard let text = try options.text(GlobalOption.precision), let n = ValueSyntax.integer(text), (0...15).contains(n) else {
        throw options.malformed(GlobalOption.precision, value, expected: "an integer from 0 to 15 or 'full'")
    }
    return .decimals(n)
}

func seedValue(_ options: OptionValues) throws -> UInt64 {
    guard let value = options.values[GlobalOption.seed.rawValue], let text = try options.text(GlobalOption.seed) else { return 1 }
    if let seed = ValueSyntax.unsignedInteger(text) { return seed }
    // An integer out of range is bad data (65); anything else does not parse (64).
    let expected = "an integer from 0 to 18446744073709551615"
    if ValueSyntax.number(text).map({ $0 == $0.rounded(.towardZero) || !$0.isFinite }) == true {
        throw options.outOfRange(GlobalOption.seed, value, expected: expected)
    }
    throw options.malformed(GlobalOption.seed, value, expected: expected)
}

func finitePoint(_ options: OptionValues, _ name: some OptionName, default fallback: Point) throws -> Point {
    let p = try options.parsed(name, expected: "X,Y", ValueSyntax.point) ?? fallback
    guard p.isFinite else { throw CLIError(.invalidValue(options.source(of: name)!, .finiteNumbers, got: nil)) }
    return p
}

/// A short description of a Foundation error.
package func describe(_ error: Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
    return ns.localizedDescription
}
