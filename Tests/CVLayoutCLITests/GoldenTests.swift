import Foundation
import Testing
@testable import CVLayoutCLI

/// Every example under `Examples/NAME/` has a `command` file (the arguments after
/// `cvlayout`, whitespace-separated; a word naming a file in the example's folder is that
/// file) and the golden outputs `layout.json`, `layout.csv`, `layout.svg` (only those its
/// `formats` file names, when it has one). This test runs each command in each format and
/// fails on any difference, printing the first differing lines. `CVLAYOUT_RECORD_GOLDENS=1` (`make golden`) re-records instead; a missing golden fails.
/// (Not `CVLAYOUT_RECORD`, which is `--check`'s default `--record` mode.)
struct GoldenTests {
    static let examplesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples")

    static var exampleNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: examplesDirectory.path)) ?? []
        return names.filter {
            FileManager.default.fileExists(atPath: examplesDirectory.appendingPathComponent($0)
                .appendingPathComponent("command").path)
        }.sorted()
    }

    @Test func examplesExist() {
        #expect(Self.exampleNames.count >= 4, "Examples/ should hold the seed demos and more")
    }

    @Test(arguments: exampleNames)
    func goldenFilesMatch(name: String) throws {
        let directory = Self.examplesDirectory.appendingPathComponent(name)
        let command = try String(contentsOf: directory.appendingPathComponent("command"), encoding: .utf8)
        let words = command.split(whereSeparator: \.isWhitespace).map { word -> String in
            let candidate = directory.appendingPathComponent(String(word)).path
            return FileManager.default.fileExists(atPath: candidate) ? candidate : String(word)
        }
        let record = ProcessInfo.processInfo.environment["CVLAYOUT_RECORD_GOLDENS"] != nil
        // A `formats` file names the formats the example is written in (an animated
        // `--scroll-to` SVG has no JSON or CSV); all three without one.
        let formats = (try? String(contentsOf: directory.appendingPathComponent("formats"), encoding: .utf8))
            .map { $0.split(whereSeparator: \.isWhitespace).map(String.init) } ?? ["json", "csv", "svg"]
        #expect(!formats.isEmpty && formats.allSatisfy { ["json", "csv", "svg"].contains($0) }, "\(name)/formats")
        for format in formats {
            let result = run(arguments: words + ["-f", format])
            #expect(result.status == 0, "\(name) \(format): \(result.stderr)")
            let golden = directory.appendingPathComponent("layout.\(format)")
            if record {
                try Data(result.stdout).write(to: golden)
                continue
            }
            guard let expected = FileManager.default.contents(atPath: golden.path) else {
                Issue.record("\(name): missing golden layout.\(format); run 'make golden'")
                continue
            }
            if Data(result.stdout) != expected {
                let difference = firstDifference(String(decoding: expected, as: UTF8.self), result.stdoutText)
                Issue.record("\(name) layout.\(format) differs: \(difference)")
            }
        }
    }

    /// The first differing line of two texts, as a small line diff.
    func firstDifference(_ expected: String, _ actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(e.count, a.count) {
            let l = i < e.count ? String(e[i]) : "<end>"
            let r = i < a.count ? String(a[i]) : "<end>"
            if l != r { return "line \(i + 1):\n- \(l.prefix(300))\n+ \(r.prefix(300))" }
        }
        return "(identical lines; different bytes)"
    }
}
