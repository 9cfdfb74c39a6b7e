import Foundation
import Testing

/// No function, initializer or subscript under Sources runs over 120 lines, the help and man
/// text excepted: a long body is split into named pieces of one idea each.
struct FunctionLengthTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")
    static let limit = 120
    /// Files of text rather than logic.
    static let textFiles: Set<String> = ["Help.swift", "ManPage.swift"]

    /// The lines of `text` with comments and the insides of string literals blanked (so that
    /// a brace in either does not count), the code of an interpolation kept.
    static func codeLines(_ text: String) -> [Substring] {
        let bytes = Array(text.utf8)
        var out = [UInt8](), i = 0
        out.reserveCapacity(bytes.count)
        // Open literals (multi-line or not) and interpolations (their open parentheses).
        enum Open { case string(multiline: Bool), interpolation(depth: Int) }
        var stack: [Open] = []
        func starts(_ s: String, at k: Int) -> Bool { bytes[k...].starts(with: s.utf8) }
        func blank(_ count: Int) {
            for k in i..<min(i + count, bytes.count) { out.append(bytes[k] == 10 ? 10 : 32) }
            i += count
        }
        while i < bytes.count {
            let c = bytes[i]
            if case .string(let multiline) = stack.last {
                if starts("\\(", at: i) {
                    stack.append(.interpolation(depth: 0))
                    blank(2)
                } else if c == UInt8(ascii: "\\") {
                    blank(2)
                } else if multiline ? starts("\"\"\"", at: i) : c == UInt8(ascii: "\"") {
                    stack.removeLast()
                    blank(multiline ? 3 : 1)
                } else {
                    blank(1)
                }
                continue
            }
            if starts("//", at: i) {
                blank((bytes[i...].firstIndex(of: 10) ?? bytes.count) - i)
            } else if starts("/*", at: i) {
                blank(Self.end(of: "*/", in: bytes, from: i + 2).map { $0 + 2 } ?? bytes.count - i)
            } else if c == UInt8(ascii: "\"") {
                let multiline = starts("\"\"\"", at: i)
                stack.append(.string(multiline: multiline))
                blank(multiline ? 3 : 1)
            } else {
                if case .interpolation(let depth) = stack.last {
                    if c == UInt8(ascii: "(") { stack[stack.count - 1] = .interpolation(depth: depth + 1) }
                    if c == UInt8(ascii: ")") {
                        stack.removeLast()
                        if depth > 0 { stack.append(.interpolation(depth: depth - 1)) } else { blank(1); continue }
                    }
                }
                out.append(c)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// How many bytes from `start` past the end of the next `marker`, or `nil` without one.
    private static func end(of marker: String, in bytes: [UInt8], from start: Int) -> Int? {
        let m = Array(marker.utf8)
        var k = start
        while k + m.count <= bytes.count {
            if bytes[k..<(k + m.count)].elementsEqual(m) { return k + m.count - start }
            k += 1
        }
        return nil
    }

    /// Whether a line of code declares a function, an initializer, a subscript or a deinitializer.
    static func declares(_ line: Substring) -> Bool {
        let modifiers: Set<Substring> = ["public", "private", "fileprivate", "internal", "package", "static", "class",
                                         "final", "override", "mutating", "nonmutating", "convenience", "required",
                                         "nonisolated", "private(set)", "fileprivate(set)", "internal(set)"]
        var words = line.split(separator: " ")[...]
        while let word = words.first, word.hasPrefix("@") || modifiers.contains(word) { words = words.dropFirst() }
        guard let word = words.first else { return false }
        return word == "func" || word == "deinit" || ["init(", "init?(", "init!(", "init<", "subscript(", "subscript<"]
            .contains { word.hasPrefix($0) }
    }

    /// The declarations in `lines` (of code) whose bodies, from the declaration's first line to
    /// the closing brace, run over `limit` lines: each its first line (from 1) and its length.
    /// A requirement without a body (a blank line or a closing brace before any opening one)
    /// is passed over.
    static func longBodies(_ lines: [Substring], limit: Int) -> [(line: Int, lines: Int)] {
        var found: [(line: Int, lines: Int)] = []
        for (start, line) in lines.enumerated() where declares(line) {
            var parentheses = 0, depth = 0, opened = false, k = start
            scan: while k < lines.count {
                if opened == false && k > start && lines[k].allSatisfy(\.isWhitespace) { break }
                for c in lines[k] {
                    switch c {
                    case "(", "[": parentheses += 1
                    case ")", "]": parentheses -= 1
                    case "{" where opened || parentheses == 0:
                        opened = true
                        depth += 1
                    case "}" where opened:
                        depth -= 1
                        if depth == 0 { break scan }
                    case "}" where parentheses == 0: break scan
                    default: break
                    }
                }
                k += 1
            }
            if opened && depth == 0 && k - start + 1 > limit { found.append((start + 1, k - start + 1)) }
        }
        return found
    }

    @Test func noFunctionUnderSourcesRunsOver120Lines() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && !Self.textFiles.contains($0.lastPathComponent) }
        #expect(files.count > 50)
        var declarations = 0, long: [String] = []
        for file in files {
            let lines = Self.codeLines(try String(contentsOf: file, encoding: .utf8))
            declarations += lines.filter(Self.declares).count
            for body in Self.longBodies(lines, limit: Self.limit) {
                long.append("\(file.path.dropFirst(Self.sources.path.count + 1)):\(body.line) runs \(body.lines) lines")
            }
        }
        #expect(declarations > 1000)
        #expect(long.isEmpty, "split these into named pieces: \(long.sorted())")
    }

    @Test func theCountSeesBodiesNotBracesInTextOrComments() {
        let body = (0..<119).map { _ in "    x += 1" }.joined(separator: "\n")
        let source = """
            protocol P {
                func required()
            }
            struct S {
                // func commented() {
                private mutating func long(_ a: [Int] = []) -> [Int] {
                    let s = "}\\(a.map { "}" + "\\($0)" })" + \"\"\"
                    }}
                    \"\"\" /* } */
            \(body)
                }
                init(short: Int) { }
            }
            """
        let lines = Self.codeLines(source)
        #expect(lines.count == source.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(lines.filter(Self.declares).count == 3)
        #expect(Self.longBodies(lines, limit: 123).map(\.line) == [6])
        #expect(Self.longBodies(lines, limit: 123).map(\.lines) == [124])
        #expect(Self.longBodies(lines, limit: 124).isEmpty)
    }
}
