import Foundation
import LayoutCore
import LayoutComparison
import LayoutDatasets
import LayoutWriters

/// `transition`: UIKit's setCollectionViewLayout and performBatchUpdates, animated.
let transitionCommand = SubcommandDescriptor(
    name: "transition",
    summary: "animate from one layout to another, or an update (--delete/--insert/--move)"
) { arguments, io in
    try runTransition(arguments, io: io)
}

/// The options both sides share, before each side's own words (which win).
private let sharedOptionNames = ["device", "width", "height", "offset", "scale", "layout-direction", "count", "seed"]
/// The update options: they apply to the `--to` side, and the transition animates them.
private let updateOptionNames = ["delete", "insert", "move"]
/// Global options of the output, given to `transition` itself.
private let outputOptionNames = ["format", "output", "precision", "labels", "no-labels", "check", "check-tolerance",
                                 "check-fields", "artifacts", "record", "report", "report-file"]
/// Global options a transition does not use.
private let unusedOptionNames = ["rect", "item", "visible", "canvas", "target-offset", "velocity", "scroll-to", "frames",
                                 "duration", "timing", "snap"]

let transitionOptions: [OptionSpec] = [
    .value("from", "'ENGINE [OPTIONS]'", default: "required",
           "the layout at progress 0: an engine and its options, quoted as one argument", allowedInDataset: false),
    .value("to", "'ENGINE [OPTIONS]'", default: "--from's layout",
           "the layout at progress 1", allowedInDataset: false),
    .value("progress", "T", default: "1", "JSON, CSV: write the attributes at progress T, 0 to 1"),
    .value("duration", "S", default: "0.3", "SVG: the animation's duration, seconds"),
    .flag("repeat", "SVG: play forth and back, repeating"),
] + globalOptions.filter { (outputOptionNames + sharedOptionNames + updateOptionNames).contains($0.name) }

private func runTransition(_ arguments: [String], io: CommandIO) throws -> Int32 {
    if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
        try io.emit(transitionHelp())
        return ExitStatus.success
    }
    let (parsed, positionals) = try ArgumentParser.tokenize(
        arguments, table: transitionOptions, command: "transition",
        unknown: { unusedOptionNames.contains($0) ? .optionNotUsedByTransitions(side: nil, $0) : nil })
    if positionals.count > 1 {
        throw CLIError(.moreThanOneDataset(positionals[0], positionals[1]), engine: "transition")
    }
    var options = parsed
    guard let fromText = try options.text("from") else { throw CLIError(.fixed(.fromRequired), engine: "transition") }
    let toText = try options.text("to") ?? fromText
    // The options given of `names`, as words to pass on to a side.
    func words(_ names: [String]) throws -> [String] {
        try names.flatMap { name in try options.text(name).map { ["--" + name, $0] } ?? [] }
    }
    let shared = try words(sharedOptionNames), update = try words(updateOptionNames)
    let (fromEngine, fromWords, fromHasDataset) = try side("from", fromText)
    let (toEngine, toWords, toHasDataset) = try side("to", toText)

    // Both sides read the same stdin once.
    final class Cache: @unchecked Sendable { var data: Data? }
    let cache = Cache()
    var sideIO = CommandIO(stdin: {
        if let data = cache.data { return data }
        let data = try io.stdin()
        cache.data = data
        return data
    }, stdout: io.stdout)
    // With no DATASET, a pipe or file on stdin is both sides' dataset (not `--check -`'s golden).
    sideIO.stdinHoldsData = try io.stdinHoldsData && options.text("check") != "-"
    // The DATASET applies to both sides, but a side that names its own wins.
    let tail = positionals.first.map { ["--", $0] } ?? []
    let fromJob = try sideJob("from", fromEngine, shared + fromWords + (fromHasDataset ? [] : tail), io: sideIO)
    let toJob = try sideJob("to", toEngine, shared + update + toWords + (toHasDataset ? [] : tail), io: sideIO)
    let from = fromJob.layout, to = toJob.layout
    // A dataset's output "options" apply (the command line wins); those transitions do not
    // use are refused.
    for job in [fromJob, toJob] {
        for (name, value) in job.options.values.sorted(by: { $0.key < $1.key }) {
            guard case .dataset(let file, let path) = value.origin else { continue }
            if unusedOptionNames.contains(name) {
                throw CLIError(.notUsedByTransitions("\(file): \(path)", key: name, engine: job.descriptor.name))
            }
            if outputOptionNames.contains(name) && options.values[name] == nil
                && supersedingOptions[name, default: []].allSatisfy({ options.values[$0]?.origin != .commandLine }) {
                options.values[name] = value
            }
        }
    }

    var plan: BatchUpdatePlan? = nil
    if let updates = try ItemUpdates.parse(options) {
        plan = try updates.plan(sectionCounts: from.itemCounts, options: options)
    }
    let transition: LayoutTransition
    do {
        transition = try LayoutTransition(from: from, to: to, updatePlan: plan)
    } catch {
        throw CLIError(.transitionItemsDiffer(final: to.itemCounts, initial: from.itemCounts))
    }

    var output = TransitionOutputOptions()
    output.progress = try options.number("progress", default: 1)
    if !(output.progress.isFinite && output.progress >= 0 && output.progress <= 1) {
        throw CLIError(.invalidValue("--progress", .domain(.unitInterval), got: describe(output.progress)))
    }
    output.duration = try options.number("duration", default: 0.3)
    // Twice the duration (forth and back with --repeat) must be finite too.
    if !(output.duration.isFinite && output.duration >= 0.001 && (2 * output.duration).isFinite) {
        // SMIL needs a positive `dur`, printed to the millisecond at the default precision.
        throw CLIError(.invalidValue("--duration", .seconds(atLeast: 0.001), got: describe(output.duration)))
    }
    output.repeats = try options.flag("repeat")
    output.output.labels = try svgLabels(options)
    output.output.precision = try outputPrecision(options)
    let format = try outputFormat(options)
    let checkOptions = try checkComparisonOptions(options, engine: "transition")
    let subject = CheckedLayout(name: "cvlayout transition", precision: output.output.precision) {
        try TransitionWriter.write(transition, format: $0, options: output, to: $1)
    }
    if let golden = try options.text("check") {
        return try checkTransition(subject, golden: golden, options: checkOptions, format: format,
                                   writeOptions: options, io: io)
    }

    let probe = SVGSizeProbe()
    try subject.write(format, to: options.text(GlobalOption.output), stdout: io.stdout, probe: probe)
    if format == .svg, let size = probe.size, let note = oversizedPictureNote(
        width: size.width, height: size.height, remedy: "fewer items (--count, a smaller DATASET) draw a smaller one") {
        io.stderr("cvlayout: warning: \(note)\n")
    }
    return ExitStatus.success
}

/// `--check GOLDEN`: the transition at `--progress` compared as `checkWritten` does, `-o`
/// still written. Status 0 same, 1 different, 2 trouble.
private func checkTransition(_ subject: CheckedLayout, golden: String, options: DiffOptions,
                             format requested: OutputFormat, writeOptions: OptionValues, io: CommandIO) throws -> Int32 {
    if golden == "-" || golden.isEmpty { throw CLIError(.goldenNotAFile(golden), engine: "transition") }
    let reporting = try CheckReporting(writeOptions, engine: "transition", io: io)
    func writeOutput() throws {
        if let path = try writeOptions.text("output"), path != "-" {
            try subject.write(requested, to: path, stdout: io.stdout)
        }
    }
    if let status = try reporting.recordWithoutComparing(golden, subject, io: io, written: writeOutput) { return status }
    return try checkWritten(golden: golden, name: "the transition", options: options, reporting: reporting,
                            subject: subject, io: io, written: writeOutput) { expected in
        if expected.shape == .heartSamples { throw CLIError(.fixed(.goldenIsHeartSamples), engine: "transition") }
        return expected.shape == .csv ? .csv : .json
    }
}

/// One side's layout from `arguments`; a usage error names the side when its own words gave it.
private func sideJob(_ name: String, _ descriptor: EngineDescriptor, _ arguments: [String],
                     io: CommandIO) throws -> LayoutJob {
    do {
        return try LayoutJob(descriptor: descriptor, arguments: arguments, io: io, streaming: false)
    } catch let error as CLIError where error.isUsage {
        let given = (sharedOptionNames + updateOptionNames).contains { error.message.hasPrefix("--\($0)") }
        var rewritten = given ? CLIError.usage(error.message, engine: "transition")
            : CLIError(.inSide(name, engine: descriptor.name, message: error.message), engine: "transition")
        rewritten.isConflict = error.isConflict
        throw rewritten
    }
}

/// The engine and words of `--from`/`--to` (refusing options not theirs), and whether they name a DATASET.
private func side(_ name: String, _ text: String) throws -> (EngineDescriptor, [String], Bool) {
    let words = try shellWords(text, option: name)
    guard let first = words.first else { throw CLIError(.sideNeedsEngine(side: name, text), engine: "transition") }
    guard let descriptor = engine(named: first) else {
        let problem = CLIProblem.unknown(.engine, first, nearest: nearest(first, among: engineRegistry.map(\.name)))
        throw CLIError(.inSide(name, engine: nil, message: problem.message), engine: "transition")
    }
    let rest = Array(words.dropFirst())
    let parsed: (options: OptionValues, dataset: String?)
    do {
        parsed = try ArgumentParser.parse(rest, engine: descriptor)
    } catch let error as CLIError where error.isUsage {
        throw CLIError(.inSide(name, engine: first, message: error.message), engine: "transition")
    }
    for option in outputOptionNames + updateOptionNames where parsed.options.has(option) {
        throw CLIError(.giveToTransition(side: name, option), engine: "transition")
    }
    for option in unusedOptionNames where parsed.options.has(option) {
        throw CLIError(.optionNotUsedByTransitions(side: name, option), engine: "transition")
    }
    return (descriptor, rest, parsed.dataset != nil)
}

/// Splits `text` into words as a POSIX shell would, without expansions ('…' literal, "…" but
/// `\"` and `\\`, a backslash keeping the next character).
/// - Throws: `CLIError` (usage) for an unterminated quote or a trailing backslash.
func shellWords(_ text: String, option: String) throws -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var iterator = text.makeIterator()
    while let c = iterator.next() {
        switch c {
        case " ", "\t", "\n", "\r":
            if inWord { words.append(word) }
            word = ""
            inWord = false
        case "'", "\"":
            inWord = true
            var closed = false
            while let d = iterator.next() {
                if d == c { closed = true; break }
                if c == "\"" && d == "\\" {
                    guard let e = iterator.next() else { break }
                    if e != "\"" && e != "\\" { word.append(d) }
                    word.append(e)
                } else {
                    word.append(d)
                }
            }
            if !closed { throw CLIError(.unterminated(option, quote: c, text: text), engine: "transition") }
        case "\\":
            guard let d = iterator.next() else {
                throw CLIError(.unterminated(option, quote: nil, text: text), engine: "transition")
            }
            inWord = true
            word.append(d)
        default:
            inWord = true
            word.append(c)
        }
    }
    if inWord { words.append(word) }
    return words
}

private func transitionHelp() -> String {
    """
        USAGE: cvlayout transition --from 'ENGINE [OPTIONS]' [--to 'ENGINE [OPTIONS]'] [OPTIONS] [DATASET]

        Animate from one layout to another as UIKit does (setCollectionViewLayout(_:animated:)),
        or animate an update (performBatchUpdates: --delete, --insert,
        --move apply to the --to side; the deleted items fade out where they were, inserted
        ones fade in where they land, the others move from their old place to their new one).
        Centre, size and alpha change linearly, the transform's scale and rotation separately
        (rotation the shorter way), hidden elements fade, zIndex switches at the midpoint.
        JSON and CSV give the attributes at --progress; SVG animates the whole transition
        (SMIL) and shows the end state where nothing animates; labels show the old index paths
        until halfway, then the new ones.
        --device, --width, --height, --offset, --scale, --count, --seed and DATASET apply to both sides
        (words inside --from/--to win).

          cvlayout transition --from stack --to circle --progress 0.5
          cvlayout transition --from 'circle --radius 70' --delete 3 -f svg -o delete.svg

        TRANSITION OPTIONS:

        """ + optionLines(transitionOptions)
}
