import Foundation
import Testing
@testable import CVLayoutCLI

/// `docs/REFERENCE.md`, the reference that ships with the project, states every option with
/// its value and default: its tables must say what the option table (help, parsing, man page)
/// says, so the reference cannot drift from the binary. And the README links only inside the
/// repository.
struct ReferenceTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The rows of the first `| option | meaning | default |` table after the heading line
    /// `heading`: (flag with its value, default as shown).
    static func optionTable(after heading: String, in reference: String) throws -> [(option: String, defaultText: String)] {
        let lines = reference.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: heading), "no heading \(heading)")
        let header = try #require(lines[start...].firstIndex(of: "| option | meaning | default |"), "no table after \(heading)")
        var rows: [(String, String)] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("| ") else { break }
            // Cells split at " | " outside code spans (a `\|` inside one is a pipe).
            let cells = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|")
                .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{1}", with: "|") }
            let option = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let shown = cells[cells.count - 1]
            rows.append((option, shown == "—" ? "—" : shown.trimmingCharacters(in: CharacterSet(charactersIn: "`"))))
        }
        return rows
    }

    /// An option as the reference's tables write it: `--name VALUE`, and its default (`—` for
    /// none, as help's `-` and a switch's `off`).
    static func row(_ spec: OptionSpec) -> (option: String, defaultText: String) {
        ("--" + spec.name + (spec.valueName.map { " " + $0 } ?? ""),
         spec.defaultText == "-" || spec.defaultText == "off" ? "—" : spec.defaultText)
    }

    @Test func theGlobalOptionTableIsTheBinarys() throws {
        let table = try Self.optionTable(after: "## Options every engine takes", in: Self.text("docs/REFERENCE.md"))
        #expect(table.map(\.option) == globalOptions.map { Self.row($0).option })
        #expect(table.map(\.defaultText) == globalOptions.map { Self.row($0).defaultText })
    }

    @Test func everyGlobalOptionNameIsInTheTable() {
        for option in GlobalOption.allCases {
            #expect(globalOptions.contains { $0.name == option.rawValue }, "\(option.rawValue)")
        }
    }

    @Test func everyEngineHasItsOptionTable() throws {
        let reference = try Self.text("docs/REFERENCE.md")
        for engine in engineRegistry {
            let table = try Self.optionTable(after: "### \(engine.name)", in: reference)
            #expect(table.map(\.option) == engine.options.map { Self.row($0).option }, "\(engine.name)")
            #expect(table.map(\.defaultText) == engine.options.map { Self.row($0).defaultText }, "\(engine.name)")
        }
    }

    @Test func theReadmeLinksOnlyInsideTheRepository() throws {
        let readme = try Self.text("README.md")
        #expect(!readme.contains("../"))
        #expect(!readme.contains("SPEC.md"))
        // Every relative link names a file of the repository.
        for match in readme.matches(of: /\]\(([^)#:]+)(#[^)]*)?\)/) {
            let path = String(match.1)
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(path)")
        }
        #expect(readme.contains("](docs/REFERENCE.md)"))
    }

    @Test func userFacingTextsDescribeLayoutsNotArticleNumbers() throws {
        // Help, `engines` and the man page say what a layout is; the seed articles' numbers
        // are internal (the README credits the articles).
        let texts = [run(arguments: ["--help"]).stdoutText, run(arguments: ["engines"]).stdoutText,
                     run(arguments: ["manpage"]).stdoutText, try Self.text("docs/REFERENCE.md")]
            + (engineRegistry.map(\.name) + ["transition", "diff"]).map { run(arguments: [$0, "--help"]).stdoutText }
        for text in texts {
            #expect(text.firstMatch(of: /[Ss]eeds? 00[0-9]/) == nil, "\(text.prefix(80))")
        }
    }
}
