import Foundation
import LayoutCore
import LayoutFormats

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
        if !arguments.isEmpty { throw CLIError.usage("'engines' takes no arguments", engine: nil) }
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

/// A layout computed from an engine's command-line arguments, ready to be written.
struct LayoutJob {
    /// The engine that computed it.
    let descriptor: EngineDescriptor
    /// Every option of the run (command line over dataset `"options"`).
    let options: OptionValues
    /// How the layout is produced and written (streamed or kept: `LayoutPipeline`).
    private let pipeline: LayoutPipeline
    /// The layout, pixel-snapped and with `targetContentOffset` when asked for; for a
    /// streamed one its summary (see `LayoutPipeline.layout`).
    var layout: CollectionLayout { pipeline.layout }
    /// Positions in `layout.elements` to write (`--rect`, `--item`), or `nil` for all.
    let selection: [Int]?
    /// `-f`, or `-o`'s extension, or JSON.
    let format: OutputFormat
    /// Precision, labels, query rect, canvas.
    let outputOptions: OutputOptions
    /// `--scroll-to`: the scroll to animate (`-f svg` only), or `nil`.
    let scroll: ScrollAnimation?
    /// The layout at a content offset, snapped and checked as written: the keyframes of
    /// `scroll`.
    private let layoutAtOffset: (Point) throws -> CollectionLayout
    /// Whether the engine's layout moves with the offset (else `scroll` lays it out once).
    private let movesWithOffset: Bool
    /// How far the middle of two samples of `scroll` may stray before it is a sample too:
    /// a quarter point, or just over half a pixel with `--scale` below 2 (a snapped edge
    /// steps by a pixel; no straight line follows a step closer than half of it).
    private let scrollTolerance: Double
    /// What writing `scroll` found: whether every moment was sampled closely enough.
    private let scrollReport = ScrollReport()

    /// Whether the last write of a scrolling SVG ran out of samples.
    final class ScrollReport: @unchecked Sendable {
        var budgetReached = false
        /// The size of the SVG written, read off its first line.
        let pictureSize = SVGSizeProbe()
    }

    /// Warnings the write added (a scrolling SVG sampled more coarsely than promised; an SVG
    /// too large for rasterisers).
    var writeWarnings: [String] {
        var warnings: [String] = []
        if scrollReport.budgetReached {
            warnings.append("--scroll-to: the sample budget ran out before every moment was within the tolerance "
               + "(\(ScrollSVGWriter.sampleWork) elements laid out, \(ScrollSVGWriter.maximumSamples) samples, "
               + "\(ScrollSVGWriter.refinementBytes >> 20) MiB); "
               + "some moments may stray more than half a point from the engine (a shorter scroll, or fewer elements, stays within it)")
        }
        if let size = scrollReport.pictureSize.size, let note = oversizedPictureNote(width: size.width, height: size.height) {
            warnings.append(note)
        }
        return warnings
    }

    /// Parses `arguments` (those after the engine name), reads the dataset and lays out
    /// through `LayoutPipeline` (which streams a whole layout rather than keep it).
    /// `streaming: false` always keeps the elements (`cvlayout transition` reads them).
    /// - Throws: `CLIError` with the status SPEC section 3 gives.
    init(descriptor: EngineDescriptor, arguments: [String], io: CommandIO, streaming: Bool = true) throws {
        let parsed = try ArgumentParser.parse(arguments, engine: descriptor)
        var options = parsed.options

        // Conflicts, before anything is read.
        if parsed.dataset != nil && options.has(GlobalOption.count) {
            throw options.conflict([GlobalOption.count], "--count sets the size of the embedded data; it cannot be used with a DATASET")
        }

        // The dataset, its options merged under the command line's.
        var dataset: Dataset? = nil
        var datasetName: String? = nil
        // No DATASET and no --count: a pipe or file on standard input is the dataset (an
        // empty one, or only white space, leaves the embedded data). `--check -` reads the
        // golden from it instead.
        var piped: Data? = nil
        if parsed.dataset == nil && !options.has(GlobalOption.count) && io.stdinHoldsData
            && (try? options.text(GlobalOption.check)) != "-" {
            let data = try readDataset("-", name: "<stdin>", stdin: io.stdin)
            if data.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) { piped = data }
        }
        if parsed.dataset != nil || piped != nil {
            let path = parsed.dataset ?? "-"
            let name = path == "-" ? "<stdin>" : path.isEmpty ? "''" : shortenedForMessage(path, limit: 4096)
            datasetName = name
            let data = try piped ?? readDataset(path, name: name, stdin: io.stdin)
            do {
                dataset = try DatasetDecoder.decode(data, schema: descriptor.schema, keys: descriptor.datasetKeys)
            } catch let error as DatasetError {
                // A top-level key that is an option's name: the option meant for "options".
                if case .invalidValue(let path, let message) = error, message.hasPrefix("unknown key"),
                   let option = knownOptions(for: descriptor.name).first(where: { $0.name == path }), option.allowedInDataset {
                    throw CLIError.data("\(name): \(path): unknown key; '\(path)' is an option: options go under "
                                        + "\"options\" ({\"options\": {\"\(path)\": …}, …})")
                }
                throw CLIError.from(error, file: name)
            }
            let overridden = try mergeDatasetOptions(dataset!.options, into: &options, descriptor: descriptor, file: name)
            try Self.checkOverridden(overridden, options: options, descriptor: descriptor, datasetName: name)
        }
        try self.init(descriptor: descriptor, options: options, dataset: dataset, datasetName: datasetName,
                      streaming: streaming)
    }

    /// Checks each dataset option the command line overrides as if it were used: a value
    /// cvlayout would refuse is bad data (65, named by its JSON path) even when a flag wins.
    /// Each value is put in place of the flag's, and the options are read and the engine run
    /// with the parsers and range rules of a real run, on empty data so that it costs
    /// nothing. Only an error about that value counts: a conflict with other values or an
    /// index path the empty data does not hold (`CLIError.isConflict`) does not, and the
    /// command line's own mistakes are left to the real run.
    private static func checkOverridden(_ overridden: [(name: String, value: OptionValue)], options: OptionValues,
                                        descriptor: EngineDescriptor, datasetName: String) throws {
        guard !overridden.isEmpty else { return }
        let inDataset = Set(knownOptions(for: descriptor.name).filter(\.allowedInDataset).map(\.name))
        for (name, value) in overridden {
            var probe = options
            probe.values = probe.values.filter { inDataset.contains($0.key) }  // no --delete against empty data
            probe.values[name] = value
            let source = probe.source(of: name)! + ": "
            do {
                _ = try LayoutJob(descriptor: descriptor, options: probe, dataset: Dataset(sections: []),
                                  datasetName: datasetName, streaming: false)
            } catch let error as CLIError where error.status == ExitStatus.data && !error.isConflict
                                                && error.message.hasPrefix(source) {
                throw error
            } catch {
                continue  // not this value's fault alone
            }
        }
    }

    /// Lays out with `options` (the command line's and the dataset's, merged) and `dataset`
    /// (`nil`: the engine's embedded data); `datasetName` names the dataset in messages.
    private init(descriptor: EngineDescriptor, options: OptionValues, dataset: Dataset?, datasetName: String?,
                 streaming: Bool) throws {
        var dataset = dataset
        self.descriptor = descriptor
        for other in ["rect", "item"] where try options.flag(GlobalOption.visible) && options.has(other) {
            throw options.conflict([GlobalOption.visible, other],
                                   "--visible and --\(other) cannot be used together (--visible is --rect of the visible bounds)")
        }
        if options.has(GlobalOption.item) && options.has(GlobalOption.rect) {
            throw options.conflict([GlobalOption.item, "rect"], "--item and --rect cannot be used together")
        }
        self.options = options

        let format = try outputFormat(options)
        self.format = format
        let precision = try outputPrecision(options)
        var deviceSize: Size? = nil
        if let name = try options.text(GlobalOption.device, expected: "a device name") {
            guard let size = deviceBounds(name) else {
                var message = "unknown device '\(shortenedForMessage(name))' (see 'cvlayout devices')"
                if let near = nearestDeviceName(name) { message += "; did you mean '\(near)'?" }
                if let source = options.source(of: "device"), !source.hasPrefix("--") {
                    throw CLIError.data("\(source): \(message)")
                }
                throw CLIError.usage("--device: " + message, engine: descriptor.name)
            }
            deviceSize = size
        }
        let bounds = Size(width: try options.number(GlobalOption.width, default: deviceSize?.width ?? 390),
                          height: try options.number(GlobalOption.height, default: deviceSize?.height ?? 844))
        for (name, value) in [("width", bounds.width), ("height", bounds.height)] where !(value.isFinite && value >= 0) {
            throw CLIError.data("\(options.source(of: name) ?? "--" + name): expected a finite number ≥ 0, got \(value.isFinite ? NumberFormat.messageText(value) : options.shownValue(of: name) ?? "infinity")")
        }
        let offset = try finitePoint(options, GlobalOption.offset, default: .zero)
        let count = try options.integer(GlobalOption.count, default: descriptor.defaultCount)
        guard count >= 0, count <= maximumElementCount else {
            throw CLIError.data("--count: expected an integer from 0 to \(maximumElementCount), got \(count)")
        }
        let seed = try seedValue(options)
        // --delete, --insert, --move: the dataset after the batch update (ItemUpdates.swift).
        dataset = try updatedDataset(dataset, options: options, descriptor: descriptor, count: count, seed: seed)
        let scale: Double? = try options.has(GlobalOption.scale) ? options.number(GlobalOption.scale, default: 1) : nil
        if let scale, !(scale.isFinite && scale > 0) {
            throw CLIError.data("\(options.source(of: "scale")!): expected a finite number > 0, got \(scale.isFinite ? NumberFormat.messageText(scale) : options.shownValue(of: "scale")!)")
        }
        // `--visible` is `--rect` of the visible bounds.
        let rect = try options.flag(GlobalOption.visible) ? Rect(x: offset.x, y: offset.y, width: bounds.width, height: bounds.height) : options.rect(GlobalOption.rect)
        if let rect, !(rect.isFinite && rect.width >= 0 && rect.height >= 0) {
            let parts = [rect.minX, rect.minY, rect.width, rect.height]
            if parts.allSatisfy(\.isFinite) && rect.width >= 0 && rect.height >= 0 {
                throw CLIError.data("\(options.source(of: "rect")!): X+W and Y+H must be finite too (the far edge is past the largest number)")
            }
            throw CLIError.data("\(options.source(of: "rect")!): expected finite X,Y and W,H ≥ 0, got \(options.shownValue(of: "rect")!)")
        }
        let item = try options.indexPath(GlobalOption.item)
        let target = try options.has(GlobalOption.targetOffset) ? finitePoint(options, GlobalOption.targetOffset, default: .zero) : nil
        let velocity = try finitePoint(options, GlobalOption.velocity, default: .zero)
        var outputOptions = OutputOptions()
        outputOptions.precision = precision
        outputOptions.labels = try svgLabels(options)
        outputOptions.queryRect = rect
        outputOptions.canvas = try options.choice(GlobalOption.canvas, default: SVGCanvas.all)
        if outputOptions.canvas == .rect && rect == nil {
            throw options.conflict([GlobalOption.canvas], "--canvas rect draws the --rect area: give --rect X,Y,W,H (or --visible)")
        }
        self.outputOptions = outputOptions
        let scrollEnd = try Self.scrollOptions(options, format: format, descriptor: descriptor)

        // The layout.
        let rightToLeft = try options.choice("layout-direction", default: LayoutDirection.leftToRight) == .rightToLeft
        // The pipeline at `offset`.
        func makePipeline(at offset: Point, passes: PassOptions, target: (offset: Point, velocity: Point)?) throws -> LayoutPipeline {
            let input = EngineInput(options: options, dataset: dataset, bounds: bounds,
                                    contentOffset: offset, count: count, seed: seed)
            let stream = descriptor.stream, check = descriptor.check, quickCheck = descriptor.quickCheck
            let engine = LayoutPipeline.Engine(
                layout: { try descriptor.layout(input) },
                stream: stream.map { stream in { sink in try stream(input, &sink) } },
                check: check.map { check in { sink in try check(input, &sink) } },
                quickCheck: quickCheck.map { quickCheck in { scale in try quickCheck(input, scale) } },
                targetContentOffset: descriptor.targetContentOffset,
                capabilities: descriptor.capabilities)
            // Right to left: the engine's layout mirrored, one step for every engine, before the
            // query and the snapping.
            var request = LayoutPipeline.Request(
                format: format, scale: descriptor.roundsToPixels ? nil : scale, keepsElements: false,
                target: target, engine: descriptor.name, bounds: bounds, contentOffset: offset)
            request.passes = passes
            request.mirrorsForRightToLeft = rightToLeft
            do {
                return try LayoutPipeline(engine: engine, request: request)
            } catch let error as LayoutError {
                throw CLIError.from(error, options: options, datasetName: datasetName, dataset: dataset)
            }
        }
        movesWithOffset = try descriptor.movesWithContentOffset(EngineInput(options: options, dataset: dataset, bounds: bounds,
                                                                           contentOffset: offset, count: count, seed: seed))
        // A scroll of a layout that does not move with the offset streams its still picture.
        let passes = PassOptions(query: rect != nil || item != nil,
                                 scroll: scrollEnd == nil ? .none : movesWithOffset ? .moving : .still,
                                 callerReadsElements: !streaming)
        self.pipeline = try makePipeline(at: offset, passes: passes, target: target.map { ($0, velocity) })
        let keyframe = PassOptions(callerReadsElements: true)
        layoutAtOffset = { offset in try makePipeline(at: offset, passes: keyframe, target: nil).layout }
        scrollTolerance = max(ScrollSVGWriter.refinementTolerance, scale.map { 0.5 / $0 + 0.01 } ?? 0)
        let layout = self.pipeline.layout
        if let scrollEnd {
            var scroll = ScrollAnimation(start: offset, end: scrollEnd)
            scroll.frameCount = try options.integer(GlobalOption.frames, default: scroll.frameCount) { text in
                // Out of range like any other --frames (a usage error from the command line).
                var error = options.conflict(in: GlobalOption.frames, text,
                                             "expected an integer from 2 to \(ScrollAnimation.maximumFrameCount)")
                error.isConflict = false
                return error
            }
            scroll.duration = try options.number(GlobalOption.duration, default: scroll.duration)
            scroll.timing = try options.choice(GlobalOption.timing, default: scroll.timing)
            if try options.flag(GlobalOption.snap) {
                // UIKit asks the layout at the offset the finger left (the proposed one).
                let proposed = try makePipeline(at: scrollEnd, passes: keyframe, target: (scrollEnd, velocity)).layout
                scroll.target = proposed.targetContentOffset ?? scrollEnd
            }
            // A value out of range is that value's fault (checked even when a flag overrides
            // it); two keyframes with --snap is a conflict between them.
            func outOfRange(_ name: String, _ value: Double, _ reason: String) -> CLIError {
                var error = options.conflict(in: name, NumberFormat.messageText(value), reason)
                error.isConflict = false
                return error
            }
            guard (2...ScrollAnimation.maximumFrameCount).contains(scroll.frameCount) else {
                throw outOfRange(GlobalOption.frames, Double(scroll.frameCount),
                                 "expected an integer from 2 to \(ScrollAnimation.maximumFrameCount)")
            }
            guard scroll.frameCount >= scroll.minimumFrameCount else {
                throw options.conflict(in: GlobalOption.frames, "\(scroll.frameCount)",
                                       "--snap needs 3 keyframes or more (the start, X,Y and the target)", involving: [GlobalOption.snap])
            }
            guard scroll.duration.isFinite && scroll.duration > 0 else {
                throw outOfRange(GlobalOption.duration, scroll.duration, "expected a finite number of seconds > 0")
            }
            self.scroll = scroll
        } else {
            scroll = nil
        }

        // The query.
        if let rect {
            selection = layout.elementIndices(in: rect)
        } else if let item {
            guard let index = layout.elementIndex(ofItemAt: item) else {
                let reason = item.section < layout.numberOfSections ? "index path out of range" : "no section \(item.section)"
                throw options.conflict(in: "item", "\(item)", "no such item (\(reason): " + describeItems(layout))
            }
            selection = [index]
        } else {
            selection = nil
        }
    }

    /// `--scroll-to`'s offset, after checking the options that go with it: an SVG only, no
    /// query or golden check beside it, and `--frames`, `--duration`, `--timing` and `--snap`
    /// only with it (usage errors, or bad data when a dataset's `"options"` gave one).
    /// - Returns: `nil` without `--scroll-to`.
    private static func scrollOptions(_ options: OptionValues, format: OutputFormat,
                                      descriptor: EngineDescriptor) throws -> Point? {
        guard options.has(GlobalOption.scrollTo) else {
            for name in [GlobalOption.frames, GlobalOption.duration, GlobalOption.timing, GlobalOption.snap]
            where options.has(name) {
                throw options.conflict([name], "--\(name) goes with --scroll-to X,Y (the animated SVG)")
            }
            return nil
        }
        guard format == .svg else {
            throw options.conflict([GlobalOption.scrollTo, GlobalOption.format],
                                   "--scroll-to makes an animated SVG: add -f svg (for \(format.rawValue.uppercased()), "
                                   + "run once per offset with --offset X,Y)")
        }
        for name in [GlobalOption.rect, GlobalOption.visible, GlobalOption.item, GlobalOption.targetOffset,
                     GlobalOption.check] where options.has(name) {
            throw options.conflict([GlobalOption.scrollTo, name],
                                   "--scroll-to and --\(name) cannot be used together (--scroll-to draws every element at every keyframe)")
        }
        return try finitePoint(options, GlobalOption.scrollTo, default: .zero)
    }

    /// Writes the layout to `-o` (atomically) or to standard output.
    func write(io: CommandIO) throws {
        let probe = scrollReport.pictureSize
        if let path = try options.text(GlobalOption.output), path != "-" {  // `-o -`: standard output
            try OutputFile.write(to: path) { sink in
                try write(format, to: OutputBuffer(precision: outputOptions.precision, sink: { try probe.observe($0); try sink($0) }))
            }
        } else {
            let stdout = io.stdout  // not `io`, whose stderr must not outlive the run
            try write(format, to: OutputBuffer(precision: outputOptions.precision, sink: { try probe.observe($0); try stdout($0) }))
        }
    }

    /// The layout's summary and a producer of its elements in `format`'s terms, when they are
    /// streamed and all written (`LayoutPipeline.streamedElements(for:)`); `nil` otherwise.
    func streamedElements(for format: OutputFormat) throws
        -> (layout: CollectionLayout, produce: (inout ElementBlocks) throws -> Void)? {
        guard selection == nil else { return nil }
        return try pipeline.streamedElements(for: format)
    }

    /// Writes the layout as `format` to `buffer` (running the engine again when streamed).
    func write(_ format: OutputFormat, to buffer: OutputBuffer) throws {
        if let scroll {
            do {
                // A layout that does not move, its elements streamed: laid out to measure and
                // to write, never kept.
                var streamedAccurate: Bool? = nil
                if !movesWithOffset {
                    _ = try pipeline.withStreamedShapes(options: outputOptions, precision: buffer.precision) { summary, shapes in
                        streamedAccurate = try ScrollSVGWriter.write(scroll, layout: { _ in summary }, movesWithOffset: false,
                                                                     tolerance: scrollTolerance, streamed: shapes,
                                                                     options: outputOptions, to: buffer)
                    }
                }
                let accurate = try streamedAccurate
                    ?? ScrollSVGWriter.write(scroll, layout: layoutAtOffset, movesWithOffset: movesWithOffset,
                                             tolerance: scrollTolerance, options: outputOptions, to: buffer)
                scrollReport.budgetReached = !accurate
                return
            } catch let error as ScrollSVGWriter.ElementsDiffer {
                throw CLIError.status(ExitStatus.software, "--scroll-to: \(error)")
            } catch let error as ScrollSVGWriter.TooLarge {
                throw CLIError.data("--scroll-to: \(error)")
            }
        }
        try pipeline.write(format, selection: selection, options: outputOptions, to: buffer)
    }
}

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
        var message = "unknown engine '\(shortenedForMessage(name))'"
        if name.hasPrefix("-") {
            message = "expected an engine before options, got '\(shortenedForMessage(name))'"
        } else if let near = nearest(name, among: engineRegistry.map(\.name) + subcommandRegistry.map(\.name)) {
            message += "; did you mean '\(near)'?"
        }
        return CLIError.usage(message, engine: nil)
    }

    /// Runs; returns the exit status and the layout's warnings (printed on stderr after a
    /// successful run).
    func execute() throws -> (status: Int32, warnings: [String]) {
        guard let first = arguments.first else {
            throw CLIError.usage("no engine given (try 'cvlayout engines')", engine: nil)
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
            if !rest.isEmpty { throw CLIError.usage("'--version' takes no arguments", engine: nil) }
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
        try checkComparisonOptionsNeedCheck(job)
        if let golden = try job.options.text(GlobalOption.check) {
            let status = try checkAgainstGolden(job, golden: golden, io: io)
            for line in job.layout.explanation { io.stderr("cvlayout: explain: \(line)\n") }
            return (status, job.layout.warnings)
        }
        try job.write(io: io)
        for line in job.layout.explanation { io.stderr("cvlayout: explain: \(line)\n") }
        if let statistics = job.layout.statistics, job.format != .json {
            // JSON carries them as "stats"; the other formats have no room, so one line on stderr.
            io.stderr("cvlayout: stats: " + statistics.map { "\($0.name) \(NumberFormat.string($0.value, precision: job.outputOptions.precision))" }
                .joined(separator: ", ") + "\n")
        }
        return (ExitStatus.success, job.layout.warnings + job.writeWarnings)
    }
}

// MARK: - Pieces

fileprivate func readDataset(_ path: String, name: String, stdin: () throws -> Data) throws -> Data {
    if path == "-" {
        do { return try stdin() } catch let error as DatasetTooLarge {
            throw CLIError.data("<stdin>: \(error.message)")
        } catch {
            throw CLIError.status(ExitStatus.ioError, "<stdin>: cannot read: \(describe(error))")
        }
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw CLIError.status(ExitStatus.noInput, "\(name): cannot open: no such file")
    }
    if isDirectory.boolValue {
        throw CLIError.status(ExitStatus.noInput, "\(name): cannot open: is a directory")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
        throw CLIError.status(ExitStatus.noInput, "\(name): cannot open: permission denied")
    }
    defer { try? handle.close() }
    do {
        return try readBounded(handle)
    } catch let error as DatasetTooLarge {
        throw CLIError.data("\(name): \(error.message)")
    } catch {
        throw CLIError.status(ExitStatus.ioError, "\(name): cannot read: \(describe(error))")
    }
}

/// Merges a dataset's `"options"` under the command line's, refusing unknown keys, keys only
/// the command line takes and a switch that is not a boolean.
/// - Returns: the dataset's values the command line overrides, to be checked all the same.
fileprivate func mergeDatasetOptions(_ datasetOptions: [DatasetOption], into options: inout OptionValues,
                   descriptor: EngineDescriptor, file: String) throws -> [(name: String, value: OptionValue)] {
    var overridden: [(name: String, value: OptionValue)] = []
    let known = knownOptions(for: descriptor.name)
    let commandLine = options
    for option in datasetOptions {
        guard let spec = known.first(where: { $0.name == option.key }) else {
            var message = "\(file): \(option.path): unknown option for \(descriptor.name)"
            if let near = nearest(option.key, among: known.filter(\.allowedInDataset).map(\.name)) {
                message += "; did you mean '\(near)'?"
            }
            throw CLIError.data(message)
        }
        guard spec.allowedInDataset else {
            throw CLIError.data("\(file): \(option.path): '\(option.key)' can only be given on the command line")
        }
        if spec.valueName == nil, case .bool = option.value {} else if spec.valueName == nil {
            throw CLIError.data("\(file): \(option.path): expected true or false, got \(quotedForMessage(option.value))")
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
    let size = [width, height].map { NumberFormat.messageText($0.rounded(.up)) }.joined(separator: " × ")
    return "the SVG is \(size) px, over the 32767 px that rsvg-convert and most rasterisers take in either "
        + "dimension (browsers show it); " + remedy
}

/// Picture formats people ask for (`-f png`, `-o out.png`): cvlayout draws SVG, which
/// rsvg-convert turns into PNG or PDF.
let pictureExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "pdf", "tiff", "tif"]

/// How to get a picture named `name` (`out.png`) from cvlayout's SVG, for messages.
func pictureHint(_ name: String, ext: String) -> String {
    switch ext {
    case "png": return "for a picture: -f svg | rsvg-convert > \(name)"
    case "pdf": return "for a PDF: -f svg | rsvg-convert -f pdf > \(name)"
    default: return "for a picture: -f svg | rsvg-convert > out.png (rsvg-convert writes PNG and PDF; convert that to .\(ext))"
    }
}

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
            if pictureExtensions.contains(ext) {
                throw CLIError.usage("-o \(shownOutput): the name says \(ext.uppercased()) but -f \(format.rawValue) "
                                     + "writes \(format.rawValue.uppercased()); " + pictureHint(shownOutput, ext: ext), engine: engine)
            }
            if let named = extFormat {
                throw CLIError.usage("-o \(shownOutput): the name says \(named.rawValue.uppercased()) but -f \(format.rawValue) "
                                     + "writes \(format.rawValue.uppercased()); name the file .\(format.rawValue), or drop -f", engine: engine)
            }
        }
        return format
    }
    if output != nil {
        if let extFormat { return extFormat }
        if !ext.isEmpty {
            var message = "-o \(shownOutput): cvlayout writes \(formats), not .\(shortenedForMessage(ext)); "
            if pictureExtensions.contains(ext) {
                message += pictureHint(shownOutput, ext: ext)
            } else {
                message += "give -f json, -f csv or -f svg, or name the file .json, .csv or .svg"
            }
            throw CLIError.usage(message, engine: engine)
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
        throw options.conflict([GlobalOption.noLabels, "labels"], "--no-labels and --labels \(labels.rawValue) cannot be used together")
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

fileprivate func seedValue(_ options: OptionValues) throws -> UInt64 {
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

fileprivate func finitePoint(_ options: OptionValues, _ name: String, default fallback: Point) throws -> Point {
    let p = try options.point(name, default: fallback)
    guard p.isFinite else { throw CLIError.data("\(options.source(of: name)!): expected finite numbers") }
    return p
}

/// `section 0 has 50 items`, for out-of-range messages.
func describeItems(_ layout: CollectionLayout) -> String {
    switch layout.numberOfSections {
    case 0: return "the layout has no sections)"
    case 1:
        let count = layout.numberOfItems(inSection: 0)
        return "section 0 has \(count) \(count == 1 ? "item" : "items"))"
    default:
        return "sections 0-\(layout.numberOfSections - 1) have "
            + (0..<min(layout.numberOfSections, 8)).map { String(layout.numberOfItems(inSection: $0)) }
                .joined(separator: ", ") + (layout.numberOfSections > 8 ? ", … items)" : " items)")
    }
}

/// A short description of a Foundation error.
func describe(_ error: Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
    return ns.localizedDescription
}
