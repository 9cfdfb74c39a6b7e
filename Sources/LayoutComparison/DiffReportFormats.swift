// The diff report in the formats CI systems read (`--report junit|github`), made from the
// text report as it streams out.

import FastText
import LayoutWriters

/// The formats of a diff report (`cvlayout diff --report`, `--check … --report`): the text
/// and JSON reports (`StreamedDiff.writeReport`), JUnit XML (`DiffReports.writeJUnit`),
/// GitHub Actions workflow commands (`GitHubAnnotations`).
public enum DiffReportFormat: String, CaseIterable, Sendable {
    case text, json, junit, github
}

/// Writers of the CI formats.
public enum DiffReports {
    /// JUnit XML of one comparison: a `<testsuite>` of one `<testcase>` named `name` of class
    /// `className`, holding `<failure type="layout differs" message="SUMMARY">REPORT</failure>`
    /// when the layouts differ; the suite's and case's tags on lines of their own, so that a
    /// script can join several runs' cases into one suite.
    /// - Parameter failure: the summary and the text report (without colour) written by the
    ///   closure, or `nil` when the layouts matched.
    /// - Complexity: O(report); the report is escaped as it streams.
    public static func writeJUnit(name: String, className: String,
                                  failure: (summary: String, report: ((UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Void)?,
                                  to emit: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try withoutActuallyEscaping(emit) { emit in
            let out = OutputBuffer(precision: .full, chunkSize: 1 << 20, sink: emit)
            out.append(string: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"cvlayout\" tests=\"1\" failures=\""
                       + (failure == nil ? "0" : "1") + "\" errors=\"0\" skipped=\"0\">\n<testcase classname=\"")
            appendXMLText(className, to: out)
            out.append("\" name=\"")
            appendXMLText(name, to: out)
            out.append("\">\n")
            if let failure {
                out.append("<failure type=\"layout differs\" message=\"")
                appendXMLText(failure.summary, to: out)
                out.append("\">")
                try failure.report { chunk in
                    for byte in chunk {
                        switch byte {
                        case UInt8(ascii: "&"): out.append("&amp;")
                        case UInt8(ascii: "<"): out.append("&lt;")
                        case UInt8(ascii: ">"): out.append("&gt;")
                        case 0..<0x20 where byte != 0x09 && byte != 0x0A && byte != 0x0D: out.append("?")
                        default: out.append(byte: byte)
                        }
                    }
                    try out.flushIfFull()
                }
                out.append("</failure>\n")
            }
            out.append("</testcase>\n</testsuite>\n")
            try out.flush()
        }
    }

    /// `text` as a GitHub workflow command's message: `%`, CR and LF percent-encoded; with
    /// `property` (`file=…`, `title=…`), `:` and `,` too.
    static func githubEscaped(_ text: String, property: Bool) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": escaped += "%25"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            case ":" where property: escaped += "%3A"
            case "," where property: escaped += "%2C"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

/// GitHub Actions annotations from a text report (without colour) fed in chunks: one
/// `::error file=FILE,title=ELEMENT CHANGE::LINES` per difference (an element or a part;
/// CHANGE is `missing`, `extra` or `changed`, LINES the report's lines of that difference,
/// `%0A`-separated), at most `limit` of them, then on `finish` one plain summary line,
/// `FILE: SUMMARY`, with `(N of M differences annotated)` when some were left out.
public final class GitHubAnnotations {
    private let file: String
    private let limit: Int
    private let emit: (String) throws -> Void
    private var pending: [UInt8] = []
    private var block: (title: String, lines: [String])?
    /// The differences seen, and those annotated.
    public private(set) var count = 0, annotated = 0

    /// Annotations against `file` (the golden, or diff's EXPECTED), written to `emit`.
    public init(file: String, limit: Int = 50, emit: @escaping (String) throws -> Void) {
        self.file = file
        self.limit = limit
        self.emit = emit
    }

    /// Takes the next chunk of the text report.
    public func consume(_ chunk: UnsafeBufferPointer<UInt8>) throws {
        var start = chunk.startIndex
        for i in chunk.indices where chunk[i] == 0x0A {
            pending.append(contentsOf: chunk[start..<i])
            try line(String(decoding: pending, as: UTF8.self))
            pending.removeAll(keepingCapacity: true)
            start = i + 1
        }
        pending.append(contentsOf: chunk[start...])
    }

    private func line(_ text: String) throws {
        if text.hasPrefix("    "), block != nil {
            block!.lines.append(String(text.dropFirst(4)))
            return
        }
        try endBlock()
        if text.hasPrefix("~ ") {
            block = (String(text.dropFirst(2)) + " changed", [])
        } else if (text.hasPrefix("- ") || text.hasPrefix("+ ")), let range = text.range(of: text.hasPrefix("- ") ? "  missing" : "  extra") {
            let name = String(text[text.index(text.startIndex, offsetBy: 2)..<range.lowerBound])
            block = (name + (text.hasPrefix("- ") ? " missing" : " extra"), [String(text.dropFirst(2))])
        }
    }

    private func endBlock() throws {
        guard let (title, lines) = block else { return }
        block = nil
        count += 1
        guard annotated < limit else { return }
        annotated += 1
        let message = lines.isEmpty ? title : lines.joined(separator: "\n")
        try emit("::error file=\(DiffReports.githubEscaped(file, property: true)),title=\(DiffReports.githubEscaped(title, property: true))::"
                 + DiffReports.githubEscaped(message, property: false) + "\n")
    }

    /// Ends the report: the last difference, then the summary line.
    public func finish(summary: String) throws {
        try [UInt8(0x0A)].withUnsafeBufferPointer { try consume($0) }  // the last line, and the last difference
        var text = "\(escapingControlCharacters(file)): \(summary)"
        if count > annotated { text += " (\(annotated) of \(count) differences annotated)" }
        try emit(text + "\n")
    }
}
