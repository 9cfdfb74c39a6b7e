import Foundation
import Testing
@testable import CVLayoutCLI

/// The completion scripts and the manual page, generated from the option table.
struct CompletionsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `executable` with `arguments`; returns status and standard output.
    static func execute(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func write(_ text: String, name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-\(UUID().uuidString)-\(name)")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func installed(_ candidates: [String]) -> String? {
        candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    // MARK: - bash

    @Test func bashCompletionLoadsAndCompletesEnginesOptionsAndValues() throws {
        let script = try Self.write(bashCompletionScript(), name: "cvlayout.bash")
        let driver = """
            source \(script)
            complete -p cvlayout
            t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _cvlayout; echo "${COMPREPLY[*]}"; }
            t cvlayout wat
            t cvlayout waterfall --order ""
            t cvlayout ring --direction c
            t cvlayout flow -f s
            t cvlayout waterfall --format = c
            t cvlayout waterfall --format=j
            t cvlayout waterfall --colu
            t cvlayout waterfall --columns ""
            t cvlayout diff -f ""
            t cvlayout diff --fields frame,al
            t cvlayout completions ""
            t cvlayout di
            """
        let (status, output) = try Self.execute("/bin/bash", ["--norc", "--noprofile", "-c", driver])
        #expect(status == 0, "\(output)")
        #expect(output == """
            complete -F _cvlayout cvlayout
            waterfall
            shortest-first left-to-right right-to-left
            clockwise counterclockwise
            svg
            csv
            --format=json
            --columns --column-spacing

            text json svg
            frame,alpha
            bash zsh fish
            diff

            """)
    }

    @Test func bashScriptNamesEveryEngineOptionAndChoice() {
        let script = bashCompletionScript()
        for engine in engineRegistry {
            #expect(script.contains("        \(engine.name))\n"))
            for option in engine.options + globalOptions {
                #expect(script.contains("--\(option.name)"), "\(engine.name) --\(option.name)")
                if !option.choices.isEmpty {
                    #expect(script.contains("words=\"\(option.choices.joined(separator: " "))\""), "\(option.name)")
                }
            }
        }
        #expect(script.contains("-o|--output|--check|--artifacts|--report-file) mode=files ;;"))
    }

    // MARK: - zsh and fish

    @Test func zshScriptIsValidAndCoversTheTable() throws {
        let text = zshCompletionScript()
        #expect(text.hasPrefix("#compdef cvlayout\n"))
        #expect(text.contains("'(-f --format)--format=[output format\\: json|csv|svg (default\\: json, or -o'\\''s extension)]:FORMAT:(json csv svg)'"))
        #expect(text.contains("'--order=[which column takes the next item\\: shortest-first|left-to-right|right-to-left (default\\: shortest-first)]:ORDER:(shortest-first left-to-right right-to-left)'"))
        #expect(text.contains("':SHELL:(bash zsh fish)'"))
        for engine in engineRegistry { #expect(text.contains("    (\(engine.name))\n")) }
        if let zsh = Self.installed(["/usr/bin/zsh", "/bin/zsh"]) {
            let (status, output) = try Self.execute(zsh, ["-n", try Self.write(text, name: "_cvlayout")])
            #expect(status == 0, "\(output)")
        }
    }

    @Test func fishScriptIsValidAndCompletesValues() throws {
        let text = fishCompletionScript()
        #expect(text.contains("complete -c cvlayout -n '__fish_seen_subcommand_from waterfall' -l order -x -a 'shortest-first left-to-right right-to-left'"))
        #expect(text.contains("complete -c cvlayout -n __fish_use_subcommand -a ring -d "))
        if let fish = Self.installed(["/usr/bin/fish", "/bin/fish"]) {
            let path = try Self.write(text, name: "cvlayout.fish")
            let (status, output) = try Self.execute(fish, ["--no-config", "-c",
                "source \(path); complete -C 'cvlayout ring --direction c'; complete -C 'cvlayout wat'"])
            #expect(status == 0)
            #expect(output == "clockwise\tdirection items advance (default: clockwise)\n"
                    + "counterclockwise\tdirection items advance (default: clockwise)\n"
                    + "waterfall\t\(engineRegistry[0].summary)\n")
        }
    }

    @Test func completionsCommand() {
        #expect(run(arguments: ["completions", "bash"]).stdoutText == bashCompletionScript())
        #expect(run(arguments: ["completions", "fish"]).stdoutText == fishCompletionScript())
        let unknown = run(arguments: ["completions", "bsh"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "cvlayout: error: unknown shell 'bsh' (expected bash, zsh or fish); did you mean 'bash'?\n"
                + "Run 'cvlayout completions --help' for usage.\n")
        #expect(run(arguments: ["completions"]).status == 64)
        #expect(run(arguments: ["completions", "--help"]).stdoutText.hasPrefix("USAGE: cvlayout completions bash|zsh|fish\n"))
    }

    // MARK: - Manual and help

    @Test func committedManualPageIsUpToDate() throws {
        let committed = try String(contentsOf: Self.repository.appendingPathComponent("cvlayout.1"), encoding: .utf8)
        #expect(committed == manPage(), "cvlayout.1 is stale: run 'make man'")
    }

    @Test func manualPageCoversEveryOptionAndRenders() throws {
        let page = manPage()
        #expect(page.contains(".TH CVLAYOUT 1 \"\" \"cvlayout \(cvlayoutVersion)\" \"User Commands\"\n"))
        for engine in engineRegistry {
            #expect(page.contains(".SS \(roff(engine.name))\n"))
            for option in engine.options { #expect(page.contains("\\fB\\-\\-\(roff(option.name))\\fR"), "\(option.name)") }
        }
        for option in globalOptions + diffOptions { #expect(page.contains("\\fB\\-\\-\(roff(option.name))\\fR")) }
        #expect(!page.unicodeScalars.contains { !$0.isASCII }, "non-ASCII must be escaped for roff")
        #expect(roff(".x -y \\ ≥") == "\\&.x \\-y \\e \\[u2265]")
        if let groff = Self.installed(["/usr/bin/groff"]) {
            let path = try Self.write(page, name: "cvlayout.1")
            let (status, output) = try Self.execute(groff, ["-man", "-Tutf8", "-ww", "-z", path])
            #expect(status == 0)
            #expect(output == "", "groff warnings: \(output)")
        }
    }

    @Test func helpListsTheCommandsAndCheck() {
        let help = run(arguments: ["--help"]).stdoutText
        #expect(help.contains("\nCOMMANDS:\n"))
        for command in subcommandRegistry { #expect(help.contains("\n  \(command.name)  ")) }
        #expect(help.contains("      --check GOLDEN"))
    }
}
