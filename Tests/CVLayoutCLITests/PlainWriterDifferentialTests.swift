import Foundation
import Testing
@testable import CVLayoutCLI
import LayoutCore
import LayoutWriters
import FastText

/// The differential harness: random layouts of every engine of the registry, with random
/// output options (format, precision, labels, canvas, `--rect`/`--item`/`--visible`,
/// layout direction, scale, offset, and now and then enough elements for the streamed
/// writing to run on every core), written by the command line (the fast writers, streamed or
/// kept as it decides) and by the plain writers (`PlainLayoutWriter`, the specification) from
/// the same layout kept whole: the bytes must be the same. The examples' datasets go through
/// both too, with random output options. Seeded; `CVLAYOUT_PLAIN_CASES`
/// sets the cases per engine (default 14) for a longer run.
struct PlainWriterDifferentialTests {
    static let casesPerEngine = ProcessInfo.processInfo.environment["CVLAYOUT_PLAIN_CASES"].flatMap { Int($0) } ?? 14

    /// Random output options and a query for a run of `engine`, appended to its own random
    /// arguments (`RegistryPropertiesTests.randomArguments`); every `large`-th case lays out
    /// 9,000 to 11,000 items.
    static func randomArguments(_ engine: EngineDescriptor, seed: UInt64, large: Bool) -> [String] {
        var arguments = RegistryPropertiesTests.randomArguments(engine, seed: seed)
        var g = SplitMix64(seed: seed ^ 0x5DEE_CE66)
        func number(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(g.next() % UInt64(range.count)) }
        if large, let count = arguments.firstIndex(of: "--count") {
            arguments[count + 1] = String(engine.name == RingLayout.name ? number(60...80) : number(9_000...11_000))
        }
        return arguments + outputArguments(engine, &g)
    }

    /// Random output options and a query for a run of `engine` (every global option of the
    /// option table that shapes a layout's output: format, precision, layout direction,
    /// scale, size or device, a batch update, a query, a snapping target, the heart's, the
    /// SVG's labels and canvas), or, one run in four, a scrolling SVG's (`scrollArguments`).
    static func outputArguments(_ engine: EngineDescriptor, _ g: inout SplitMix64) -> [String] {
        var arguments: [String] = []
        func pick<T>(_ values: [T]) -> T { values[Int(g.next() % UInt64(values.count))] }
        func number(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(g.next() % UInt64(range.count)) }
        if g.next() % 4 == 0 { return scrollArguments(&g) }
        let format = pick(["json", "csv", "svg"])
        arguments += ["-f", format]
        arguments += sharedArguments(&g)
        switch g.next() % 8 {
        case 0: arguments += ["--delete", "0:0"]
        case 1: arguments += ["--insert", "0:\(number(0...2))"]
        case 2: arguments += ["--move", "0:0->0:1"]
        default: break
        }
        var hasRect = false
        switch g.next() % 6 {
        case 0:
            arguments += ["--rect", "\(number(-50...400)),\(number(-50...700)),\(number(0...500)),\(number(0...900))"]
            hasRect = true
        case 1:
            arguments += ["--visible"]
            hasRect = true
        case 2: arguments += ["--item", "\(number(0...1)):\(number(0...12))"]
        default: break
        }
        if g.next() % 5 == 0 {
            arguments += ["--target-offset", "\(number(-100...2000)),\(number(-100...2000))"]
            if g.next() % 2 == 0 { arguments += ["--velocity", "\(number(-4...4)),\(number(-4...4))"] }
        }
        if engine.name == RingLayout.name {
            if g.next() % 3 == 0 { arguments += ["--heart-samples", String(number(0...9))] }
            if g.next() % 3 == 0 { arguments += ["--heart-style", pick(["seed", "smooth"])] }
        }
        if format == "svg" {
            arguments += labelArguments(&g)
            arguments += ["--canvas", hasRect ? pick(["all", "content", "visible", "rect"]) : pick(["all", "all", "content", "visible"])]
        }
        return arguments
    }

    /// Random options every output takes: precision, layout direction, scale, a size or a device.
    static func sharedArguments(_ g: inout SplitMix64) -> [String] {
        var arguments: [String] = []
        func pick<T>(_ values: [T]) -> T { values[Int(g.next() % UInt64(values.count))] }
        func number(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(g.next() % UInt64(range.count)) }
        if g.next() % 3 != 0 { arguments += ["--precision", pick(["full", "0", "1", "2", "3", "4", "6", "9", "15"])] }
        if g.next() % 4 == 0 { arguments += ["--layout-direction", "right-to-left"] }
        if g.next() % 4 == 0 { arguments += ["--scale", pick(["1", "2", "3", "1.5"])] }
        switch g.next() % 6 {
        case 0, 1: arguments += ["--width", String(number(1...800)), "--height", String(number(1...1000))]
        case 2: arguments += ["--device", pick(deviceTable).name + pick(["", "-landscape"])]
        default: break
        }
        return arguments
    }

    /// Random SVG labels: the default, `--no-labels` or `--labels`.
    static func labelArguments(_ g: inout SplitMix64) -> [String] {
        func pick<T>(_ values: [T]) -> T { values[Int(g.next() % UInt64(values.count))] }
        switch g.next() % 4 {
        case 0: return ["--no-labels"]
        case 1: return ["--labels", pick(["item", "index-path", "none"])]
        default: return []
        }
    }

    /// Random options of a scrolling SVG: `--scroll-to` with some of `--frames`,
    /// `--duration`, `--timing`, `--snap` (and `--velocity`), the shared options, labels and
    /// a canvas (`all`, `content`, `visible`).
    static func scrollArguments(_ g: inout SplitMix64) -> [String] {
        func pick<T>(_ values: [T]) -> T { values[Int(g.next() % UInt64(values.count))] }
        func number(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(g.next() % UInt64(range.count)) }
        var arguments = ["-f", "svg", "--scroll-to", "\(number(-300...3000)),\(number(-300...3000))"]
        if g.next() % 2 == 0 { arguments += ["--frames", pick(["3", "4", "7", "12", "30"])] }
        if g.next() % 3 == 0 { arguments += ["--duration", pick(["0.5", "1", "3.25"])] }
        if g.next() % 3 == 0 { arguments += ["--timing", pick(["linear", "ease-out"])] }
        if g.next() % 3 == 0 {
            arguments += ["--snap"]
            if g.next() % 2 == 0 { arguments += ["--velocity", "\(number(-4...4)),\(number(-4...4))"] }
        }
        arguments += sharedArguments(&g) + labelArguments(&g)
        if g.next() % 2 == 0 { arguments += ["--canvas", pick(["all", "content", "visible"])] }
        return arguments
    }

    /// Where two documents first differ, with some context; `nil` when they are equal.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String? {
        guard a != b else { return nil }
        let k = a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? a.count, from = max(0, k - 80)
        return "at byte \(k) of \(a.count) and \(b.count): …\(String(decoding: a[from..<min(a.count, k + 40)], as: UTF8.self))… "
            + "vs …\(String(decoding: b[from..<min(b.count, k + 40)], as: UTF8.self))…"
    }

    /// Runs `arguments` through the command line and, when it succeeds, through the plain
    /// writers (a scrolling SVG through `ScrollSVGWriter` with the job's layout kept at each
    /// offset, where the command line streams a layout that does not move); `false` when the
    /// run is refused (a usage or data error). Now and then (`toFile`) the command line writes
    /// to a file (`-o`) rather than standard output.
    static func compare(_ engine: EngineDescriptor, _ arguments: [String], toFile: Bool = false) throws -> Bool {
        let format = arguments.firstIndex(of: "-f").map { arguments[$0 + 1] } ?? "json"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plain-\(UUID().uuidString).\(format)")
        defer { try? FileManager.default.removeItem(at: file) }
        let real = run(arguments: arguments + (toFile ? ["-o", file.path] : []))
        guard real.status == 0 else {
            // Settings the engine refuses, an --item out of range: an error either way.
            #expect([64, 65].contains(real.status), "\(arguments): \(real.stderr)")
            return false
        }
        let written = toFile ? Array(try Data(contentsOf: file)) : real.stdout
        let io = CommandIO(stdin: { Data() }, stdout: { _ in })
        let job = try LayoutJob(descriptor: engine, arguments: Array(arguments.dropFirst()), io: io, streaming: false)
        let plain: [UInt8]
        if let scroll = job.scroll {
            let out = OutputBuffer(precision: job.outputOptions.precision)
            try ScrollSVGWriter.write(scroll, layout: job.layoutAtOffset, movesWithOffset: job.movesWithOffset,
                                      tolerance: job.scrollTolerance, options: job.outputOptions, to: out)
            plain = out.bytes
        } else {
            plain = Array(PlainLayoutWriter.write(job.format, job.layout, selection: job.selection, options: job.outputOptions).utf8)
        }
        #expect(Self.firstDifference(written, plain) == nil, "\(arguments.joined(separator: " "))")
        return true
    }

    /// The examples' datasets (sections, headers and footers, item objects, descriptions),
    /// each with random output options three times.
    @Test func examplesWithRandomOutputOptions() throws {
        var g = SplitMix64(seed: 2_718)
        var written = 0
        for name in GoldenTests.exampleNames {
            let directory = GoldenTests.examplesDirectory.appendingPathComponent(name)
            let command = try String(contentsOf: directory.appendingPathComponent("command"), encoding: .utf8)
            let words = command.split(whereSeparator: \.isWhitespace).map { word -> String in
                let candidate = directory.appendingPathComponent(String(word)).path
                return FileManager.default.fileExists(atPath: candidate) ? candidate : String(word)
            }
            guard let first = words.first, let engine = engineRegistry.first(where: { $0.name == first }) else { continue }
            // A scroll keeps its own and takes other labels, precision and canvas.
            for _ in 0..<3 where try Self.compare(engine, words + (words.contains("--scroll-to")
                ? ["-f", "svg"] + Self.labelArguments(&g) + ["--precision", String(g.next() % 5), "--canvas", ["all", "content", "visible"][Int(g.next() % 3)]]
                : Self.outputArguments(engine, &g))) { written += 1 }
        }
        #expect(written >= 80, "\(written) of the examples' runs")
    }

    /// A few chosen scrolls: a label on the first outline of a streamed layout that does not
    /// move (kept in its group, as when kept whole), one streamed on every core, snapping, a
    /// moving viewBox, pinned headers.
    @Test func chosenScrollsAsSVG() throws {
        for line in [
            "waterfall --count 30 --height 173 --scroll-to 0,150 --frames 3 -f svg",
            "waterfall --count 30 --height 173 --scroll-to 0,150 --frames 3 -f svg --layout-direction right-to-left",
            "waterfall --count 12000 --scroll-to 0,9000 --frames 4 -f svg --canvas all",
            "line --count 40 --scroll-to 2000,0 --snap --velocity 2,0 -f svg --labels index-path",
            "carousel --count 20 --scroll-to 700,0 --frames 12 -f svg --canvas visible --precision full",
            "flow --count 60 --pin-headers --header-size 0,40 --scroll-to 0,900 -f svg --timing linear --scale 2",
        ] {
            let words = line.split(separator: " ").map(String.init)
            let engine = try #require(engineRegistry.first { $0.name == words[0] })
            #expect(try Self.compare(engine, words), "\(line)")
        }
    }

    @Test(arguments: engineRegistry.map(\.name))
    func theCommandLineWritesWhatThePlainWritersWrite(_ name: String) throws {
        let descriptor = engineRegistry.first { $0.name == name }
        let engine = try #require(descriptor)
        var written = 0
        // A seed of the engine's own (FNV-1a of its name), so that engines vary apart.
        let engineSeed = name.utf8.reduce(14_695_981_039_346_656_037 as UInt64) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        for k in 0..<Self.casesPerEngine {
            let arguments = Self.randomArguments(engine, seed: engineSeed &+ UInt64(k) &* 1_000_003, large: k % 7 == 3)
            if try Self.compare(engine, arguments, toFile: k % 5 == 2) { written += 1 }
        }
        // Most random settings lay out.
        #expect(written * 2 >= Self.casesPerEngine, "\(written) of \(Self.casesPerEngine)")
    }
}

/// The transition SVG through the differential harness: random `cvlayout transition`
/// invocations (an engine pair of the registry, each side with some of its own options, a
/// shared count, size and offset, updates, `--progress`, `--duration`, `--repeat`, labels and
/// precision) written as SVG by the command line and by `TransitionSVGWriter` from the same
/// transition built here: the command line's sides, updates and options must reach the
/// writer unchanged. Seeded; `CVLAYOUT_PLAIN_CASES` scales the cases (8 per case of an engine).
extension PlainWriterDifferentialTests {
    /// The options of `engine`'s own (not the global ones), without the heart's.
    static func ownOptions(_ engine: EngineDescriptor) -> [OptionSpec] {
        let global = Set(globalOptions.map(\.name))
        return engine.options.filter { !global.contains($0.name) && !$0.name.hasPrefix("heart") }
    }

    /// One random invocation's arguments: `transition --from '…' --to '…' …`.
    static func randomTransitionArguments(seed: UInt64) -> [String] {
        var g = SplitMix64(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(g.next() % UInt64(values.count))] }
        func number(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(g.next() % UInt64(range.count)) }
        func side() -> String {
            let engine = pick(engineRegistry)
            var words = [engine.name]
            for spec in ownOptions(engine) where g.next() % 4 == 0 {
                if spec.valueName == nil {
                    words.append("--" + spec.name)
                } else if let value = RegistryPropertiesTests.randomValue(spec, &g) {
                    words += ["--" + spec.name, "'\(value)'"]
                }
            }
            return words.joined(separator: " ")
        }
        let count = number(0...40)
        var arguments = ["transition", "--from", side()]
        if g.next() % 5 != 0 { arguments += ["--to", side()] }
        arguments += ["--count", String(count), "-f", "svg"]
        if g.next() % 2 == 0 { arguments += ["--offset", "\(number(0...300)),\(number(0...300))"] }
        if g.next() % 3 == 0 { arguments += ["--width", String(number(1...800)), "--height", String(number(1...1000))] }
        if g.next() % 4 == 0 { arguments += ["--layout-direction", "right-to-left"] }
        if g.next() % 4 == 0 { arguments += ["--scale", pick(["1", "2", "3"])] }
        if count > 2 {
            switch g.next() % 5 {
            case 0: arguments += ["--delete", "0:\(number(0...count - 1))"]
            case 1: arguments += ["--insert", "0:\(number(0...count))"]
            case 2: arguments += ["--move", "0:\(number(0...count - 1))->0:\(number(0...count - 1))"]
            case 3: arguments += ["--delete", "0:0", "--insert", "0:\(number(1...count - 1))"]
            default: break
            }
        }
        if g.next() % 2 == 0 { arguments += ["--progress", pick(["0", "0.25", "0.5", "1"])] }
        if g.next() % 2 == 0 { arguments += ["--duration", pick(["0.001", "0.3", "1", "2.5", "12.3456"])] }
        if g.next() % 3 == 0 { arguments += ["--repeat"] }
        if g.next() % 3 != 0 { arguments += ["--precision", pick(["full", "0", "1", "2", "3", "6", "15"])] }
        switch g.next() % 4 {
        case 0: arguments += ["--no-labels"]
        case 1: arguments += ["--labels", pick(["item", "index-path", "none"])]
        default: break
        }
        return arguments
    }

    /// The transition `arguments` describe, built as `cvlayout transition` builds it, and its
    /// output options; the values are taken from the arguments (pairs of `--name value`).
    static func transition(_ arguments: [String]) throws -> (LayoutTransition, TransitionOutputOptions) {
        var values: [String: String] = [:], flags: Set<String> = []
        var k = 1
        while k < arguments.count {
            let name = String(arguments[k].drop { $0 == "-" })
            if ["repeat", "no-labels"].contains(name) {
                flags.insert(name)
                k += 1
            } else {
                values[name == "f" ? "format" : name] = arguments[k + 1]
                k += 2
            }
        }
        func words(_ text: String) -> [String] {
            text.split(separator: " ").map { String($0).replacingOccurrences(of: "'", with: "") }
        }
        var shared: [String] = []
        for name in ["width", "height", "offset", "scale", "layout-direction", "count"] {
            if let value = values[name] { shared += ["--" + name, value] }
        }
        var update: [String] = []
        for name in ["delete", "insert", "move"] {
            if let value = values[name] { update += ["--" + name, value] }
        }
        let fromWords = words(values["from"]!), toWords = words(values["to"] ?? values["from"]!)
        let io = CommandIO(stdin: { Data() }, stdout: { _ in })
        func engine(_ name: String) throws -> EngineDescriptor { try #require(engineRegistry.first { $0.name == name }) }
        let fromJob = try LayoutJob(descriptor: engine(fromWords[0]), arguments: shared + fromWords.dropFirst(), io: io, streaming: false)
        let toJob = try LayoutJob(descriptor: engine(toWords[0]), arguments: shared + update + toWords.dropFirst(), io: io,
                                  streaming: false)
        var plan: BatchUpdatePlan? = nil
        if let updates = try ItemUpdates.parse(toJob.options) {
            let counts = (0..<fromJob.layout.numberOfSections).map { fromJob.layout.numberOfItems(inSection: $0) }
            plan = try updates.plan(sectionCounts: counts, options: toJob.options)
        }
        let transition = try LayoutTransition(from: fromJob.layout, to: toJob.layout, updatePlan: plan)
        var options = TransitionOutputOptions()
        options.duration = values["duration"].flatMap(Double.init) ?? 0.3
        options.repeats = flags.contains("repeat")
        options.output.labels = flags.contains("no-labels") ? SVGLabels.none : values["labels"].flatMap(SVGLabels.init(rawValue:))
        options.output.precision = switch values["precision"] {
        case nil: .standard
        case "full": .full
        case let text?: .decimals(Int(text)!)
        }
        return (transition, options)
    }

    /// The SVG `TransitionSVGWriter` writes of `transition`.
    static func transitionSVG(_ transition: LayoutTransition, options: TransitionOutputOptions) throws -> [UInt8] {
        let out = OutputBuffer(precision: options.output.precision)
        try TransitionWriter.write(transition, format: .svg, options: options, to: out)
        return out.bytes
    }

    @Test func theCommandLineWritesWhatTheTransitionWriterWrites() throws {
        let cases = 8 * Self.casesPerEngine
        var written = 0
        for k in 0..<cases {
            let arguments = Self.randomTransitionArguments(seed: 31_000 &+ UInt64(k) &* 7_919)
            // The command line splits the sides' words as a shell would; the quotes go.
            let real = run(arguments: arguments)
            guard real.status == 0 else {
                // Engine pairs whose items differ, settings an engine refuses: an error either way.
                #expect([64, 65].contains(real.status), "\(arguments): \(real.stderr)")
                continue
            }
            let (transition, options) = try Self.transition(arguments)
            #expect(Self.firstDifference(real.stdout, try Self.transitionSVG(transition, options: options)) == nil,
                    "\(arguments.joined(separator: " "))")
            written += 1
        }
        // Most random invocations animate.
        #expect(written * 2 >= cases, "\(written) of \(cases)")
    }

    /// A few chosen transitions: a layout change, each kind of update, repeating, index paths.
    @Test func chosenTransitionsAsSVG() throws {
        for arguments: [String] in [
            ["transition", "--from", "stack", "--to", "circle", "-f", "svg"],
            ["transition", "--from", "stack", "--to", "circle", "--delete", "0:2", "-f", "svg"],
            ["transition", "--from", "circle", "--count", "9", "--move", "0:1->0:7", "--repeat", "-f", "svg"],
            ["transition", "--from", "flow", "--to", "carousel", "--count", "12", "--insert", "0:3", "--labels", "index-path",
             "-f", "svg"],
        ] {
            let real = run(arguments: arguments)
            #expect(real.status == 0, "\(arguments): \(real.stderr)")
            let (transition, options) = try Self.transition(arguments)
            #expect(Self.firstDifference(real.stdout, try Self.transitionSVG(transition, options: options)) == nil,
                    "\(arguments.joined(separator: " "))")
        }
    }
}
