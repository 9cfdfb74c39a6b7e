import Foundation
import Testing
@testable import CVLayoutCLI
import LayoutCore
import LayoutFormats

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

    /// Random output options and a query for a run of `engine`.
    static func outputArguments(_ engine: EngineDescriptor, _ g: inout SplitMix64) -> [String] {
        var arguments: [String] = []
        func pick<T>(_ values: [T]) -> T { values[Int(g.next() % UInt64(values.count))] }
        func number(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(g.next() % UInt64(range.count)) }
        let format = pick(["json", "csv", "svg"])
        arguments += ["-f", format]
        if g.next() % 3 != 0 { arguments += ["--precision", pick(["full", "0", "1", "2", "3", "4", "6", "9", "15"])] }
        if g.next() % 4 == 0 { arguments += ["--layout-direction", "right-to-left"] }
        if g.next() % 4 == 0 { arguments += ["--scale", pick(["1", "2", "3", "1.5"])] }
        if g.next() % 3 == 0 { arguments += ["--width", String(number(1...800)), "--height", String(number(1...1000))] }
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
        if engine.name == RingLayout.name {
            if g.next() % 3 == 0 { arguments += ["--heart-samples", String(number(0...9))] }
            if g.next() % 3 == 0 { arguments += ["--heart-style", pick(["seed", "smooth"])] }
        }
        if format == "svg" {
            switch g.next() % 4 {
            case 0: arguments += ["--no-labels"]
            case 1: arguments += ["--labels", pick(["item", "index-path", "none"])]
            default: break
            }
            arguments += ["--canvas", hasRect ? pick(["all", "content", "visible", "rect"]) : pick(["all", "all", "content", "visible"])]
        }
        return arguments
    }

    /// Where two documents first differ, with some context; `nil` when they are equal.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String? {
        guard a != b else { return nil }
        var k = 0
        while k < min(a.count, b.count) && a[k] == b[k] { k += 1 }
        let from = max(0, k - 80)
        return "at byte \(k) of \(a.count) and \(b.count): …\(String(decoding: a[from..<min(a.count, k + 40)], as: UTF8.self))… "
            + "vs …\(String(decoding: b[from..<min(b.count, k + 40)], as: UTF8.self))…"
    }

    /// Runs `arguments` through the command line and, when it succeeds, through the plain
    /// writers; `false` when the run is refused (a usage or data error).
    static func compare(_ engine: EngineDescriptor, _ arguments: [String]) throws -> Bool {
        let real = run(arguments: arguments)
        guard real.status == 0 else {
            // Settings the engine refuses, an --item out of range: an error either way.
            #expect([64, 65].contains(real.status), "\(arguments): \(real.stderr)")
            return false
        }
        let io = CommandIO(stdin: { Data() }, stdout: { _ in })
        let job = try LayoutJob(descriptor: engine, arguments: Array(arguments.dropFirst()), io: io, streaming: false)
        let plain = PlainLayoutWriter.write(job.format, job.layout, selection: job.selection, options: job.outputOptions)
        #expect(Self.firstDifference(real.stdout, Array(plain.utf8)) == nil, "\(arguments.joined(separator: " "))")
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
            guard let first = words.first, !words.contains("--scroll-to"),
                  let engine = engineRegistry.first(where: { $0.name == first }) else { continue }  // transitions, scrolls
            for _ in 0..<3 where try Self.compare(engine, words + Self.outputArguments(engine, &g)) { written += 1 }
        }
        #expect(written >= 80, "\(written) of the examples' runs")
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
            if try Self.compare(engine, arguments) { written += 1 }
        }
        // Most random settings lay out.
        #expect(written * 2 >= Self.casesPerEngine, "\(written) of \(Self.casesPerEngine)")
    }
}
