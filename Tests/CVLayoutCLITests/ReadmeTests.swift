import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The README is the front door: short, every command in it runs, every picture it shows
/// exists and parses, and it copies nothing from the reference. The docs read as facts of
/// today, never as a work log.
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines of the README's code blocks that start with `cvlayout`, a line ending in `\`
    /// joined with the next.
    static func commandLines(of readme: String) -> [String] {
        var commands: [String] = []
        var inBlock = false
        var pending = ""
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard inBlock else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !pending.isEmpty {
                pending += " " + trimmed
            } else if trimmed.hasPrefix("cvlayout ") || trimmed == "cvlayout" {
                pending = trimmed
            } else {
                continue
            }
            if pending.hasSuffix("\\") {
                pending.removeLast()
            } else {
                commands.append(pending)
                pending = ""
            }
        }
        return commands
    }

    /// The status a command line's comment names (`# … status 1 …`), else 0.
    static func expectedStatus(of line: String) -> Int32 {
        guard let comment = line.range(of: " # "),
              let match = line[comment.upperBound...].firstMatch(of: /status (\d+)/) else { return 0 }
        return Int32(match.1) ?? 0
    }

    /// The part of a pipeline that can run here: a stage whose program is not installed (an
    /// image converter on a bare machine) and everything after it are left out.
    static func runnablePart(of line: String) -> String {
        let code = line.range(of: " # ").map { String(line[..<$0.lowerBound]) } ?? line
        var kept: [Substring] = []
        for (index, stage) in code.split(separator: "|").enumerated() {
            let program = stage.split(separator: " ").first.map(String.init) ?? ""
            if index > 0 && !isInstalled(program) { break }
            kept.append(stage)
        }
        var runnable = kept.joined(separator: "|")
        if kept.count < code.split(separator: "|").count { runnable += " > /dev/null" }
        return runnable
    }

    static func isInstalled(_ program: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }

    @Test func theReadmeIsShort() throws {
        let readme = try Self.text("README.md")
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 300)
        #expect(readme.utf8.count <= 24 * 1024)
    }

    @Test func theCommandLinesAreFound() throws {
        let readme = "```sh\ncvlayout a   # one\necho no\ncvlayout b \\\n    --c\n```\ncvlayout outside\n"
        #expect(Self.commandLines(of: readme) == ["cvlayout a   # one", "cvlayout b  --c"])
        #expect(Self.expectedStatus(of: "cvlayout x --check g.json   # status 1: it differs") == 1)
        #expect(Self.expectedStatus(of: "cvlayout x   # the engines") == 0)
        #expect(Self.runnablePart(of: "cvlayout ring -f svg | no-such-program-here > r.png")
                == "cvlayout ring -f svg  > /dev/null")
    }

    /// Each `cvlayout` line runs, in order, from a folder that sees the repository's files
    /// as the repository root does (what it writes stays out of the work tree), with the
    /// built binary first on PATH; it exits 0 or with the status its comment names.
    @Test func everyCommandInTheReadmeRuns() throws {
        let binary = try #require(builtCvlayout, "the cvlayout binary is not next to the test bundle")
        let commands = Self.commandLines(of: try Self.text("README.md"))
        #expect(commands.count >= 20)
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("cvlayout-readme-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for entry in try FileManager.default.contentsOfDirectory(atPath: Self.root.path) where !entry.hasPrefix(".") {
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(entry),
                                                       withDestinationURL: Self.root.appendingPathComponent(entry))
        }
        let path = binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for command in commands {
            let script = "set -o pipefail; cd '\(folder.path)' && " + Self.runnablePart(of: command) + " > /dev/null"
            let (status, _, stderr) = try runProcess("/bin/bash", ["-c", script], environment: ["PATH": path, "NO_COLOR": "1"])
            #expect(status == Self.expectedStatus(of: command), "\(command): \(stderr)")
        }
    }

    /// Every picture the README shows exists, is well-formed XML with an `<svg>` root, and
    /// renders with rsvg-convert where it is installed.
    @Test func everyPictureExistsAndParses() throws {
        let readme = try Self.text("README.md")
        let pictures = readme.matches(of: /!\[[^\]]*\]\(([^)]+)\)/).map { String($0.1) }
        #expect(pictures.count >= 8)
        #expect(Set(pictures).count == pictures.count, "a picture shown twice")
        for picture in pictures {
            let url = Self.root.appendingPathComponent(picture)
            let data = try #require(FileManager.default.contents(atPath: url.path), "\(picture) does not exist")
            let parser = XMLParser(data: data)
            final class Root: NSObject, XMLParserDelegate {
                var name: String?
                func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
                    if name == nil { name = elementName }
                }
            }
            let root = Root()
            parser.delegate = root
            #expect(parser.parse(), "\(picture): \(String(describing: parser.parserError))")
            #expect(root.name == "svg", "\(picture)")
            if Self.isInstalled("rsvg-convert") {
                let (status, _, stderr) = try runProcess("/bin/sh", ["-c", "rsvg-convert '\(url.path)' > /dev/null"])
                #expect(status == 0, "\(picture): \(stderr)")
            }
        }
    }

    /// Every link into the reference names a heading that is there (GitHub's anchors).
    @Test func linksIntoTheReferenceNameItsHeadings() throws {
        let reference = try Self.text("docs/REFERENCE.md")
        let anchors = Set(reference.split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading -> String in
            let title = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            return String(title.unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_"
            }.map { $0 == " " ? "-" : Character($0) })
        })
        for document in ["README.md", "CONTRIBUTING.md", "docs/PERFORMANCE.md"] {
            for match in try Self.text(document).matches(of: /REFERENCE\.md#([^)\s]+)\)/) {
                #expect(anchors.contains(String(match.1)), "\(document): #\(match.1)")
            }
        }
    }

    /// One home for each fact: no run of 40 words of the reference stands in the README.
    @Test func theReadmeCopiesNoPassageOfTheReference() throws {
        func words(_ text: String) -> [Substring] {
            text.split { !($0.isLetter || $0.isNumber) }
        }
        let window = 40
        let reference = words(try Self.text("docs/REFERENCE.md"))
        var passages = Set<String>()
        if reference.count >= window {
            for start in 0...(reference.count - window) {
                passages.insert(reference[start..<start + window].joined(separator: " "))
            }
        }
        let readme = words(try Self.text("README.md"))
        guard readme.count >= window else { return }
        for start in 0...(readme.count - window) {
            let passage = readme[start..<start + window].joined(separator: " ")
            #expect(!passages.contains(passage), "shared with the reference: \(passage)")
        }
    }

    /// The docs give today's facts: no dates, and no "session", "round" or "this week" talk.
    @Test func theDocsReadAsFactsNotAWorkLog() throws {
        var documents = ["README.md", "CONTRIBUTING.md"]
        documents += try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        for document in documents {
            let text = try Self.text(document)
            let date = text.firstMatch(of: /\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b/).map { String($0.output) }
            #expect(date == nil, "\(document) holds a date")
            let log = text.firstMatch(of: /(?i)\b(this|last|next|previous|earlier|fourth|third|second) (session|round)\b/)
                .map { String($0.output.0) }
            #expect(log == nil, "\(document) reads as a work log")
            let session = text.firstMatch(of: /(?i)\bsessions?\b/).map { String($0.output) }
            #expect(session == nil, "\(document) speaks of sessions")
        }
    }

    @Test func theLicenceIsThere() throws {
        let licence = try Self.text("LICENSE")
        #expect(licence.contains("Apache License"))
        #expect(licence.contains("Version 2.0, January 2004"))
        #expect(try Self.text("README.md").contains("](LICENSE)"))
    }
}
