import Foundation

// A strict JSON (RFC 8259) syntax pass run before Foundation's parser. It builds no values;
// it exists to give every syntax error a 1-based line and column (Foundation on Linux only
// says "around character N", or nothing at end of file), to refuse what Foundation lets
// through (trailing commas, duplicate keys), and to bound nesting before a recursive parser
// can exhaust the stack.

/// A JSON syntax error at a 1-based line and column (columns count bytes).
public struct JSONSyntaxError: Error, Equatable, Sendable {
    /// 1-based line.
    public var line: Int
    /// 1-based column, in characters.
    public var column: Int
    /// What is wrong there.
    public var message: String
}

/// A duplicate key inside one object, with the JSON path of the object.
public struct JSONDuplicateKeyError: Error, Equatable, Sendable {
    /// JSON path of the object holding the key (`""` at the top level).
    public var path: String
    /// The repeated key, unescaped.
    public var key: String
}

/// Foundation could not turn a document that passed the syntax check into values.
public struct JSONUnreadable: Error, Equatable, Sendable {
    /// Foundation's description.
    public var message: String
}

/// Strict JSON: the syntax check, then Foundation's `JSONSerialization` for the values.
enum StrictJSON {
    /// The document's value (arrays, dictionaries, NSNumber, String, NSNull).
    /// - Throws: `JSONSyntaxError`, `JSONDuplicateKeyError`, or `JSONUnreadable`.
    /// - Complexity: O(size of `data`).
    static func parse(_ data: Data) throws -> Any {
        try data.withUnsafeBytes { raw in try JSONSyntaxCheck.check(raw.bindMemory(to: UInt8.self)) }
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw JSONUnreadable(message: detail ?? "unreadable JSON")
        }
    }
}

struct JSONSyntaxCheck {
    /// Deepest nesting of arrays and objects accepted.
    static let maximumDepth = 256
    /// Most objects in one document: a million sections (plus the top level and "options")
    /// is far past any real dataset, and bounds what the parser behind this pass allocates.
    static let maximumObjects = 1_000_010
    /// Longest string value, in bytes after unescaping: an option string (`"insets"`,
    /// `"angles"`) is far shorter; a 100 MB string is refused here, before Foundation copies
    /// it and before a message could echo it.
    static let maximumStringLength = 65_536
    /// Longest object key, in bytes: keys are flag and field names, and messages show them.
    static let maximumKeyLength = 256

    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// Where the scan is, rendered only when a duplicate key is reported.
    private var path: [PathComponent] = []
    private var objects = 0

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
        objects += 1
        if objects > Self.maximumObjects {
            throw error("more than \(Self.maximumObjects) objects (at most 1000000 sections)")
        }
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
            let keyStart = position
            let key = try string()
            if key.count > Self.maximumKeyLength {
                position = keyStart
                throw error("key longer than \(Self.maximumKeyLength) bytes")
            }
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

    /// Scans a string; returns its decoded UTF-8 bytes (escapes resolved, so `"a"` and
    /// `"\u0061"` are the same key). Rejects invalid UTF-8, control characters, bad
    /// escapes and unpaired surrogates, as RFC 8259 requires.
    private mutating func string() throws -> [UInt8] {
        let start = position
        position += 1
        var decoded: [UInt8] = []
        while position < bytes.count {
            if decoded.count > Self.maximumStringLength {
                position = start
                throw error("string longer than \(Self.maximumStringLength) bytes")
            }
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                position += 1
                return decoded
            }
            if c < 0x20 { throw error("control character in a string (escape it)") }
            if c == UInt8(ascii: "\\") {
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hexQuad()
                    if (0xD800...0xDBFF).contains(scalar) {
                        // A high surrogate must be followed by an escaped low one.
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                              bytes[position + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in a \\u escape")
                        }
                        position += 2
                        let low = try hexQuad()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("unpaired surrogate in a \\u escape")
                    }
                    decoded.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    position -= 1
                    throw error("bad escape '\\\(describeByte(escape))'")
                }
                continue
            }
            if c < 0x80 {
                decoded.append(c)
                position += 1
                continue
            }
            // A multi-byte UTF-8 sequence: lead byte, then 1–3 continuation bytes, shortest
            // form, no surrogates, at most U+10FFFF.
            let length: Int, minimum: UInt32
            var scalar: UInt32
            switch c {
            case 0xC2...0xDF: (length, minimum, scalar) = (2, 0x80, UInt32(c & 0x1F))
            case 0xE0...0xEF: (length, minimum, scalar) = (3, 0x800, UInt32(c & 0x0F))
            case 0xF0...0xF4: (length, minimum, scalar) = (4, 0x10000, UInt32(c & 0x07))
            default: throw error("invalid UTF-8")
            }
            guard position + length <= bytes.count else { throw error("invalid UTF-8") }
            for k in 1..<length {
                let continuation = bytes[position + k]
                guard continuation & 0xC0 == 0x80 else { throw error("invalid UTF-8") }
                scalar = scalar << 6 | UInt32(continuation & 0x3F)
            }
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                throw error("invalid UTF-8")
            }
            decoded.append(contentsOf: bytes[position..<(position + length)])
            position += length
        }
        position = start
        throw error("unterminated string")
    }

    /// Four hex digits of a `\u` escape, as a number.
    private mutating func hexQuad() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count, let digit = hexValue(bytes[position]) else {
                throw error("bad \\u escape: expected 4 hex digits")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func number() throws {
        let start = position
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
            // Only an exponent can push a number past the largest Double.
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if let value = Double(text), !value.isFinite {
                position = start
                throw error("number \(text.prefix(40)) is too large for a double")
            }
        } else if position - start > 309 {
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if let value = Double(text), !value.isFinite {
                position = start
                throw error("number \(text.prefix(40))… is too large for a double")
            }
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

    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of input" }
        return "character '\(describeByte(bytes[position]))'"
    }

    private func describeByte(_ c: UInt8) -> String {
        if c >= 0x21 && c < 0x7F { return String(Character(Unicode.Scalar(c))) }
        let hex = Array("0123456789ABCDEF")
        return "\\x" + String(hex[Int(c >> 4)]) + String(hex[Int(c & 15)])
    }

    /// An error at the current position, with its 1-based line and column (columns count
    /// characters: UTF-8 continuation bytes do not advance it).
    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1, column = 1
        let end = min(position, bytes.count)
        for i in 0..<end {
            if bytes[i] == 0x0A {
                line += 1
                column = 1
            } else if bytes[i] & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }
}
