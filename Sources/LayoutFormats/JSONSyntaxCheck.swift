// A strict JSON (RFC 8259) syntax pass run before Foundation's parser. It builds no values;
// it exists to give every syntax error a 1-based line and column (Foundation on Linux only
// says "around character N", or nothing at end of file), to refuse what Foundation lets
// through (trailing commas, duplicate keys), and to bound nesting before a recursive parser
// can exhaust the stack.

/// A JSON syntax error at a 1-based line and column (columns count bytes).
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
}

/// A duplicate key inside one object, with the JSON path of the object.
public struct JSONDuplicateKeyError: Error, Equatable, Sendable {
    public var path: String
    public var key: String
}

struct JSONSyntaxCheck {
    /// Deepest nesting of arrays and objects accepted.
    static let maximumDepth = 256

    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// Where the scan is, rendered only when a duplicate key is reported.
    private var path: [PathComponent] = []

    /// Checks `data`; throws `JSONSyntaxError` or `JSONDuplicateKeyError`.
    /// - Complexity: O(n) time; O(depth + keys of one object) memory.
    static func check(_ data: UnsafeBufferPointer<UInt8>) throws {
        var checker = JSONSyntaxCheck(bytes: data)
        try checker.run()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func run() throws {
        // A UTF-8 byte-order mark is tolerated, as Foundation tolerates it.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw error("empty document: expected a JSON value") }
        try value(depth: 0)
        skipWhitespace()
        if position < bytes.count { throw error("unexpected \(describeCurrent()) after the JSON value") }
    }

    private mutating func value(depth: Int) throws {
        guard position < bytes.count else { throw error("unexpected end of input: expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): try object(depth: depth + 1)
        case UInt8(ascii: "["): try array(depth: depth + 1)
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw error("unexpected \(describeCurrent()): expected a value")
        }
    }

    private mutating func object(depth: Int) throws {
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        position += 1
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            position += 1
            return
        }
        var keys = Set<[UInt8]>()
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                throw error("unexpected \(describeCurrent()): expected a string key")
            }
            let key = try string()
            if !keys.insert(key).inserted {
                throw JSONDuplicateKeyError(path: renderedPath(), key: String(decoding: key, as: UTF8.self))
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("unexpected \(describeCurrent()): expected ':'") }
            position += 1
            skipWhitespace()
            path.append(.key(String(decoding: key, as: UTF8.self)))
            try value(depth: depth)
            path.removeLast()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                continue
            }
            if peek(UInt8(ascii: "}")) {
                position += 1
                return
            }
            throw error("unexpected \(describeCurrent()): expected ',' or '}'")
        }
    }

    private mutating func array(depth: Int) throws {
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        position += 1
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            return
        }
        var index = 0
        while true {
            skipWhitespace()
            path.append(.index(index))
            try value(depth: depth)
            path.removeLast()
            index += 1
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                continue
            }
            if peek(UInt8(ascii: "]")) {
                position += 1
                return
            }
            throw error("unexpected \(describeCurrent()): expected ',' or ']'")
        }
    }

    /// Scans a string; returns its raw bytes between the quotes (escapes left as written).
    private mutating func string() throws -> [UInt8] {
        let startLine = position
        position += 1
        let begin = position
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                let raw = Array(bytes[begin..<position])
                position += 1
                return raw
            }
            if c < 0x20 { throw error("control character in a string (escape it)") }
            if c == UInt8(ascii: "\\") {
                position += 1
                guard position < bytes.count else { break }
                switch bytes[position] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 1
                case UInt8(ascii: "u"):
                    position += 1
                    for _ in 0..<4 {
                        guard position < bytes.count, isHexDigit(bytes[position]) else {
                            throw error("bad \\u escape: expected 4 hex digits")
                        }
                        position += 1
                    }
                default:
                    throw error("bad escape '\\\(describeByte(bytes[position]))'")
                }
                continue
            }
            position += 1
        }
        position = startLine
        throw error("unterminated string")
    }

    private mutating func number() throws {
        if peek(UInt8(ascii: "-")) { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw error("bad number: expected a digit")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw error("bad number: leading zero")
            }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("bad number: expected a digit after '.'")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("bad number: expected a digit in the exponent")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for c in expected {
            guard position < bytes.count, bytes[position] == c else {
                throw error("unexpected \(describeCurrent()): expected '\(word)'")
            }
            position += 1
        }
    }

    // MARK: - Helpers

    private func renderedPath() -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let k): text += text.isEmpty ? k : "." + k
            case .index(let i): text += "[\(i)]"
            }
        }
        return text
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func peek(_ c: UInt8) -> Bool { position < bytes.count && bytes[position] == c }
    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    private func isHexDigit(_ c: UInt8) -> Bool {
        isDigit(c) || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "f"))
    }

    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of input" }
        return "character '\(describeByte(bytes[position]))'"
    }

    private func describeByte(_ c: UInt8) -> String {
        if c >= 0x21 && c < 0x7F { return String(Character(Unicode.Scalar(c))) }
        let hex = Array("0123456789ABCDEF")
        return "\\x" + String(hex[Int(c >> 4)]) + String(hex[Int(c & 15)])
    }

    /// An error at the current position, with its 1-based line and byte column.
    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1, lineStart = 0
        let end = min(position, bytes.count)
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return JSONSyntaxError(line: line, column: end - lineStart + 1, message: message)
    }
}
