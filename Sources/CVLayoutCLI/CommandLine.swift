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

/// Runs `cvlayout` with `arguments` (without the program name), reading `stdin` if the
/// dataset is `-` (or, with `stdinHoldsData`, when no dataset is named: a pipe or file on
/// standard input), and returns everything it printed: the testable entry point.
/// - Complexity: that of the layout and writer; the output is kept in memory.
/// - Parameter environment: the variables `--check` reads (`CVLAYOUT_RECORD`,
///   `CVLAYOUT_ARTIFACTS`, `CI`); default none, whatever the process's own are.
public func run(arguments: [String], stdin: @escaping () throws -> Data = { Data() },
                environment: [String: String] = [:], stdinHoldsData: Bool = false) -> CommandResult {
    var stdoutBytes: [UInt8] = []
    var stderrText = ""
    let status = run(arguments: arguments, stdin: stdin,
                     stdout: { stdoutBytes.append(contentsOf: $0) },
                     stderr: { stderrText += $0 }, environment: { environment[$0] }, stdinHoldsData: stdinHoldsData)
    return CommandResult(stdout: stdoutBytes, stderr: stderrText, status: status)
}

/// Runs `cvlayout`, streaming standard output to `stdout` in large chunks and messages to
/// `stderr`. Nothing reaches `stdout` unless the layout succeeded.
/// - Parameters:
///   - color: which streams may carry ANSI colour (diff reports only); default never.
///   - stdinDescriptor: standard input's descriptor, which `diff -` copies in chunks
///     instead of calling `stdin`; `nil` to read `stdin` only.
///   - environment: an environment variable's value (`CVLAYOUT_RECORD`, `CVLAYOUT_ARTIFACTS`,
///     `CI`, read by `--check`), `nil` when unset; default none.
///   - stdinHoldsData: whether standard input is a pipe, FIFO or regular file, which an
///     engine (and `transition`) reads as the dataset when none is named and `--count` is
///     not given (`standardInputHoldsData`); false for a terminal or a device.
/// - Returns: the exit status.
public func run(arguments: [String], stdin: @escaping () throws -> Data,
                stdout: @escaping (UnsafeBufferPointer<UInt8>) throws -> Void,
                stderr: (String) -> Void, color: ColorPolicy = .never, stdinDescriptor: Int32? = nil,
                environment: @escaping (String) -> String? = { _ in nil }, stdinHoldsData: Bool = false) -> Int32 {
    do {
        let (status, warnings) = try withoutActuallyEscaping(stderr) { stderr in
            var invocation = Invocation(arguments: arguments, stdin: stdin, stdout: stdout, stderr: stderr, color: color)
            invocation.io.stdinDescriptor = stdinDescriptor
            invocation.io.environment = environment
            invocation.io.stdinHoldsData = stdinHoldsData
            return try invocation.execute()
        }
        for warning in warnings { stderr("cvlayout: warning: \(questioningControlCharacters(warning))\n") }
        return status
    } catch let error as CLIError {
        stderr(error.stderrText)
        return error.status
    } catch let error as BrokenPipe {
        _ = error
        return ExitStatus.success  // the reader went away (`| head`): end quietly
    } catch {
        stderr("cvlayout: error: \(error)\n")
        return ExitStatus.ioError
    }
}

/// Thrown by a stdout sink whose reader has closed the pipe; the run ends quietly.
public struct BrokenPipe: Error {
    public init() {}
}

/// The I/O a command sees: standard input on demand, standard output in chunks.
struct CommandIO {
    let stdin: () throws -> Data
    /// Standard input as a descriptor, when it is the process's own: `diff` copies it to a
    /// temporary file in chunks instead of holding it (`nil`: `stdin` gives the bytes).
    var stdinDescriptor: Int32? = nil
    /// Whether standard input is a pipe, FIFO or regular file: with no DATASET and no
    /// `--count`, an engine lays out what it holds (nothing: the embedded data), as `jq`
    /// and `sort` read it. False for a terminal or a character device (`/dev/null`).
    var stdinHoldsData = false
    let stdout: (UnsafeBufferPointer<UInt8>) throws -> Void
    /// Writes text to standard error (the `--check` report).
    var stderr: (String) -> Void = { _ in }
    /// Which streams may carry ANSI colour.
    var color: ColorPolicy = .never
    /// An environment variable's value, `nil` when unset (`--check` reads `CVLAYOUT_RECORD`,
    /// `CVLAYOUT_ARTIFACTS` and `CI`).
    var environment: (String) -> String? = { _ in nil }

    /// Writes `text` to standard output.
    func emit(_ text: String) throws {
        var text = text
        try text.withUTF8 { try stdout($0) }
    }
}

/// A command that is not an engine (`engines`; later ones such as `diff` add a line to
/// `subcommandRegistry`).
struct SubcommandDescriptor: Sendable {
    /// The command-line name.
    let name: String
    /// One line for help.
    let summary: String
    /// Runs with the arguments after the name. Returns the exit status; throws `CLIError`.
    let run: @Sendable (_ arguments: [String], _ io: CommandIO) throws -> Int32
}

/// Every non-engine command.
let subcommandRegistry: [SubcommandDescriptor] = [
    SubcommandDescriptor(name: "engines", summary: "list the engines, one line each") { arguments, io in
        if arguments == ["--help"] || arguments == ["-h"] {
            try io.emit("USAGE: cvlayout engines\n\nLists the engines, one line each: the name, then what it lays out.\n")
            return ExitStatus.success
        }
        if !arguments.isEmpty { throw CLIError(.takesNoArguments("engines")) }
        let width = engineRegistry.map(\.name.count).max() ?? 0
        try io.emit(engineRegistry.map {
            $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary + "\n"
        }.joined())
        return ExitStatus.success
    },
    devicesCommand,
    transitionCommand,
    diffCommand,
    completionsCommand,
    manpageCommand,
]

/// One run: dispatch to help, a subcommand or an engine.
private struct Invocation {
    let arguments: [String]
    var io: CommandIO

    init(arguments: [String], stdin: @escaping () throws -> Data,
         stdout: @escaping (UnsafeBufferPointer<UInt8>) throws -> Void,
         stderr: @escaping (String) -> Void, color: ColorPolicy) {
        self.arguments = arguments
        io = CommandIO(stdin: stdin, stdout: stdout, stderr: stderr, color: color)
    }

    /// The usage error for a first argument that is no engine or subcommand.
    private func unknownCommand(_ name: String) -> CLIError {
        if name.hasPrefix("-") { return CLIError(.optionBeforeEngine(shortenedForMessage(name))) }
        let near = nearest(name, among: engineRegistry.map(\.name) + subcommandRegistry.map(\.name))
        return CLIError(.unknown(.engine, shortenedForMessage(name), nearest: near))
    }

    /// Runs; returns the exit status and the layout's warnings (printed on stderr after a
    /// successful run).
    func execute() throws -> (status: Int32, warnings: [String]) {
        guard let first = arguments.first else {
            throw CLIError(.fixed(.noEngine))
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help", "help":
            // `cvlayout --help COMMAND` is `cvlayout COMMAND --help`, for engines and subcommands.
            guard let name = rest.first else {
                try io.emit(globalHelp())
                return (ExitStatus.success, [])
            }
            if let descriptor = engine(named: name) {
                try io.emit(engineHelp(descriptor))
                return (ExitStatus.success, [])
            }
            if let command = subcommandRegistry.first(where: { $0.name == name }) {
                return (try command.run(["--help"], io), [])
            }
            throw unknownCommand(name)
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
        if let golden = try job.options.text(GlobalOption.check) {
            let status = try checkAgainstGolden(job, golden: golden, io: io)
            for line in job.layout.explanation { io.stderr("cvlayout: explain: \(line)\n") }
            return (status, job.layout.warnings)
        }
        try job.write(io: io)
        for line in job.layout.explanation { io.stderr("cvlayout: explain: \(line)\n") }
        if let statistics = job.layout.statistics, job.format != .json {
            // JSON carries them as "stats"; the other formats have no room, so one line on stderr.
            io.stderr("cvlayout: stats: " + statistics.map { "\($0.name) \(job.outputOptions.precision.text($0.value))" }
                .joined(separator: ", ") + "\n")
        }
        return (ExitStatus.success, job.layout.warnings + job.writeWarnings)
    }
}

// MARK: - Pieces

func readDataset(_ path: String, name: String, stdin: () throws -> Data) throws -> Data {
    if path == "-" {
        do { return try stdin() } catch let error as DatasetTooLarge {
            throw CLIError(.tooLarge("<stdin>", limit: error.limit))
        } catch {
            throw CLIError(.cannotRead("<stdin>", .system(describe(error))))
        }
    }
    let handle = try openForReading(path, shownAs: name)
    defer { try? handle.close() }
    do {
        return try readBounded(handle)
    } catch let error as DatasetTooLarge {
        throw CLIError(.tooLarge(name, limit: error.limit))
    } catch {
        throw CLIError(.cannotRead(name, .system(describe(error))))
    }
}

/// The file at `path`, open for reading.
/// - Throws: `CLIError` 66 naming it `name` when it does not exist, is a directory or cannot be opened.
func openForReading(_ path: String, shownAs name: String) throws -> FileHandle {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw CLIError(.cannotOpen(name, .noSuchFile)) }
    if isDirectory.boolValue { throw CLIError(.cannotOpen(name, .isADirectory)) }
    guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIError(.cannotOpen(name, .permissionDenied)) }
    return handle
}

/// Merges a dataset's `"options"` under the command line's, refusing unknown keys, keys only
/// the command line takes and a switch that is not a boolean.
/// - Returns: the dataset's values the command line overrides, to be checked all the same.
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
        // The command line wins: over the same option, and over the dataset's options that
        // a flag given replaces (`--device` sets the width and height; `--visible`, `--rect`
        // and `--item` choose what is written; `--labels` and `--no-labels` the labels;
        // `--no-heart` and `--heart-samples` whether there is a heart).
        let replacedByFlag = supersedingOptions[option.key, default: []].contains { commandLine.values[$0] != nil }
        if options.values[option.key] == nil && !replacedByFlag {
            options.values[option.key] = value
        } else {
            overridden.append((option.key, value))
        }
    }
    return overridden
}

/// For each option a dataset may give, the flags that replace it when given on the command
/// line, beside its own: a flag beats the dataset always, also where the two would conflict
/// or where the dataset's value would otherwise win (a dataset's `"width"` over `--device`).
let supersedingOptions: [String: [String]] = [
    "width": ["device"], "height": ["device"],
    "rect": ["visible", "item"], "item": ["visible", "rect"], "visible": ["rect", "item"],
    "labels": ["no-labels"], "no-labels": ["labels"],
    "heart-samples": ["no-heart"], "no-heart": ["heart-samples"],
]

/// Reads the `width` and `height` of an SVG document off its first bytes as they are
/// written (the `<svg>` element comes within its first 200 bytes), for the note on a picture
/// too large for rasterisers. Anything else written is passed over.
final class SVGSizeProbe: @unchecked Sendable {
    /// The document's size, once read.
    private(set) var size: (width: Double, height: Double)?
    private var seen = false

    /// Looks at the first chunk written.
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

/// The largest width or height, in pixels, that rsvg-convert (cairo) and most rasterisers
/// draw: 32,767 (a signed 16-bit coordinate).
let largestRasterSide = 32_767.0

/// A one-line note for an SVG whose size (points: pixels at scale 1) is wider or taller
/// than `largestRasterSide`, which browsers show but rasterisers refuse; `nil` otherwise.
func oversizedPictureNote(width: Double, height: Double,
                           remedy: String = "--canvas visible or --rect X,Y,W,H --canvas rect draws one screen") -> String? {
    guard width > largestRasterSide || height > largestRasterSide else { return nil }
    let size = [width, height].map { describe($0.rounded(.up)) }.joined(separator: " × ")
    return "the SVG is \(size) px, over the 32767 px that rsvg-convert and most rasterisers take in either "
        + "dimension (browsers show it); " + remedy
}

/// Picture formats people ask for (`-f png`, `-o out.png`): cvlayout draws SVG, which
/// rsvg-convert turns into PNG or PDF.
let pictureExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "pdf", "tiff", "tif"]

/// The output format: `-f` (case-insensitive), else `-o`'s extension, else JSON.
/// - Throws: usage errors (64) for a format cvlayout does not write (`-f png`: with the
///   rsvg-convert recipe), an `-o` extension that is none of them when `-f` is not given (the
///   recipe only for a picture's name), and an `-o` extension that contradicts `-f` (`-f svg
///   -o out.png`, `-f csv -o out.json`); a dataset's `"format"` gives way to `-o`'s extension.
func outputFormat(_ options: OptionValues) throws -> OutputFormat {
    let engine = options.engine == "" ? nil : options.engine
    // Made only for a message: a key path and a join cost more than the rest of a small run.
    var formats: String { OutputFormat.allCases.map { $0.rawValue }.joined(separator: ", ") }
    var output = try options.text(GlobalOption.output)
    if output == "-" { output = nil }  // `-o -`: standard output
    let ext = output.map { ($0 as NSString).pathExtension.lowercased() } ?? ""
    let shownOutput = output.map { shortenedForMessage($0, limit: 4096) } ?? ""
    let extFormat = OutputFormat(rawValue: ext)
    var formatFromDataset = false
    if case .dataset = options.values[GlobalOption.format]?.origin { formatFromDataset = true }
    // A dataset's "format" gives way to the command line's -o name when that names a format.
    if options.has(GlobalOption.format) && !(formatFromDataset && (extFormat != nil || pictureExtensions.contains(ext))) {
        guard let text = try? options.text(GlobalOption.format), let format = OutputFormat(rawValue: text.lowercased()) else {
            if let value = options.values[GlobalOption.format], !formatFromDataset, let text = try? options.text(GlobalOption.format),
               pictureExtensions.contains(text.lowercased()) {
                let name = output.map { shortenedForMessage($0, limit: 4096) } ?? "out.\(text.lowercased())"
                throw options.malformed(GlobalOption.format, value, expected: "one of \(formats)",
                                        hint: "; " + pictureHint(name, ext: text.lowercased()))
            }
            return try options.choice(GlobalOption.format, default: OutputFormat.json)  // its error, with "did you mean"
        }
        if output != nil && !ext.isEmpty && extFormat != format {
            let picture = pictureExtensions.contains(ext)
            if picture || extFormat != nil {
                throw CLIError(.formatContradicts(output: shownOutput, says: picture ? ext : extFormat!.rawValue,
                                                  format: format.rawValue, picture: picture), engine: engine)
            }
        }
        return format
    }
    if output != nil {
        if let extFormat { return extFormat }
        if !ext.isEmpty {
            throw CLIError(.extensionNotWritten(output: shownOutput, ext: shortenedForMessage(ext), picture: pictureExtensions.contains(ext)),
                           engine: engine)
        }
    }
    return .json
}

/// `--labels`, or `none` for `--no-labels`; `nil` when neither is given (the writer's
/// default).
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
    guard let value = options.values[GlobalOption.precision] else { return .standard }
    if try options.text(GlobalOption.precision)?.lowercased() == "full" { return .full }  // case-insensitive, as every choice
    guard let text = try options.text(GlobalOption.precision), let n = ValueSyntax.integer(text), (0...15).contains(n) else {
        throw options.malformed(GlobalOption.precision, value, expected: "an integer from 0 to 15 or 'full'")
    }
    return .decimals(n)
}

func seedValue(_ options: OptionValues) throws -> UInt64 {
    guard let value = options.values[GlobalOption.seed] else { return 1 }
    let expected = "an integer from 0 to 18446744073709551615"
    guard let text = try options.text(GlobalOption.seed), let seed = ValueSyntax.unsignedInteger(text) else {
        // An integer in form that is negative, past 2⁵³ (other than in plain digits) or past
        // 2⁶⁴ − 1 is out of range (65); anything else does not parse (64).
        if let text = try? options.text(GlobalOption.seed), ValueSyntax.number(text).map({ $0 == $0.rounded(.towardZero) || !$0.isFinite }) == true {
            throw options.outOfRange(GlobalOption.seed, value, expected: expected)
        }
        throw options.malformed(GlobalOption.seed, value, expected: expected)
    }
    return seed
}

func finitePoint(_ options: OptionValues, _ name: String, default fallback: Point) throws -> Point {
    let p = try options.point(name, default: fallback)
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
