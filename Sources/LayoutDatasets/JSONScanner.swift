import LayoutCore
import Foundation
import FastText

// A strict JSON (RFC 8259) scanner: errors at a line and column, trailing commas and duplicate
// keys refused, nesting bounded; it builds a `JSONValue`, or only checks (the tests' oracle).

/// A JSON syntax error at a 1-based line and column.
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

/// The strict scanner (`scan`).
package struct JSONSyntaxCheck {
    /// Deepest nesting of arrays and objects accepted.
    package static let maximumDepth = 256
    /// Most objects in a dataset: a million sections, the top level and "options".
    static let maximumObjects = 1_000_010

    /// The most objects and arrays a document of a kind may hold, and why, for the message.
    package struct ObjectLimit: Sendable {
        package let count: Int
        let explanation: String

        /// A dataset: `maximumObjects`.
        package static let dataset = ObjectLimit(
            count: maximumObjects, explanation: "a million sections, and ten more objects for the top level and options")
        /// A layout file (`diff`, `--check`): three objects per element, and `maximumObjects` more.
        package static let layout = ObjectLimit(
            count: 3 * maximumElementCount + maximumObjects, explanation: "at most \(maximumElementCount) elements")
    }
    private let objectLimit: ObjectLimit
    /// Longest string value, in bytes after unescaping (an option string is far shorter).
    static let maximumStringLength = 65_536
    /// Longest object key, in bytes: keys are flag and field names, and messages show them.
    static let maximumKeyLength = 256

    private enum PathComponent { case key(String), index(Int) }

    /// What an array being built holds so far.
    private enum ArrayShape { case empty, numbers, pairs, sparse, general }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let building: Bool
    private var position = 0
    /// Where the scan is, for a duplicate key's message (updated only before a nested value).
    private var path: [PathComponent] = []
    private var objects = 0
    /// Item objects (keys `height`, `size` and `span` only, none an object), counted as items, not objects.
    private var itemObjects = 0
    static let maximumItemObjects = maximumElementCount

    /// Checks `data` and, when `building`, builds its value (else returns `.null`).
    /// - Throws: `JSONSyntaxError` or `JSONDuplicateKeyError`, the same either way.
    /// - Complexity: O(n) time; memory O(n) building, else O(depth + keys of one object).
    static func scan(_ data: UnsafeBufferPointer<UInt8>, building: Bool, objectLimit: ObjectLimit = .dataset) throws -> JSONValue {
        var scanner = JSONSyntaxCheck(objectLimit: objectLimit, bytes: data, building: building)
        // A UTF-8 byte-order mark is tolerated, as Foundation tolerates it.
        if data.count >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF { scanner.position = 3 }
        scanner.skipWhitespace()
        guard scanner.position < data.count else { throw scanner.error("empty document: expected a JSON value") }
        let result = try scanner.value(depth: 0)
        scanner.skipWhitespace()
        if scanner.position < data.count { throw scanner.error("unexpected \(scanner.describeCurrent()) after the JSON value") }
        return result
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of input: expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""):
            let text = try string()
            return building ? .string(text) : .null
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected \(describeCurrent()): expected a value")
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        objects += 1
        if objects > objectLimit.count {
            throw error("more than \(objectLimit.count) objects (\(objectLimit.explanation))")
        }
        position += 1
        if skip(UInt8(ascii: "}")) { return building ? .object([:]) : .null }
        // Spellings seen, made only when checking or for a key's second spelling when building.
        var keys: Set<[UInt8]>? = nil
        var members = JSONObject()
        var itemShaped = true  // (at least one key is read before the closing brace)
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                throw error("unexpected \(describeCurrent()): expected a string key")
            }
            let keyStart = position
            let name = try string()
            if name.utf8.count > Self.maximumKeyLength {
                position = keyStart
                throw error("key longer than \(Self.maximumKeyLength) bytes")
            }
            // Byte-equal keys are refused; building, only a key equal to an earlier member's can be one.
            let earlier = building ? members.position(of: name) : nil
            if !building || earlier != nil {
                let firstSpelling = earlier.map { members.members[$0].key.utf8.elementsEqual(name.utf8) } ?? false
                if keys == nil { keys = [] }
                if firstSpelling || !keys!.insert(Array(name.utf8)).inserted { throw JSONDuplicateKeyError(path: renderedPath(), key: name) }
            }
            guard skip(UInt8(ascii: ":")) else { throw error("unexpected \(describeCurrent()): expected ':'") }
            skipWhitespace()
            let nested = peek(UInt8(ascii: "{")) || peek(UInt8(ascii: "["))
            if !(name == "height" || name == "size" || name == "span") || peek(UInt8(ascii: "{")) { itemShaped = false }
            if nested { path.append(.key(name)) }
            let member = try value(depth: depth)
            if nested { path.removeLast() }
            // As JSONSerialization: a later key equal as a Swift string replaces the value.
            if building { members.set(member, at: earlier, key: name) }
            if skip(UInt8(ascii: ",")) { continue }
            if peek(UInt8(ascii: "}")) {
                if itemShaped {
                    itemObjects += 1
                    objects -= 1
                    if itemObjects > Self.maximumItemObjects {
                        throw error("more than \(Self.maximumItemObjects) item objects (at most \(maximumElementCount) items)")
                    }
                }
                position += 1
                return building ? .object(members) : .null
            }
            throw error("unexpected \(describeCurrent()): expected ',' or '}'")
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        position += 1
        if skip(UInt8(ascii: "]")) { return building ? .array([]) : .null }
        var index = 0
        var shape = ArrayShape.empty
        var flat: [Double] = []       // the numbers, or the pairs' numbers, while `shape` allows
        var general: [JSONValue] = [] // every element once `shape` is `.general`; the others when `.sparse`
        path.append(.index(0))
        while true {
            skipWhitespace()
            let c = position < bytes.count ? bytes[position] : 0
            if building && (shape == .empty || shape == .numbers || shape == .sparse) && (c == UInt8(ascii: "-") || isDigit(c)) {
                flat.append(try number())
                if shape == .empty { shape = .numbers }
            } else if building && (shape == .empty || shape == .pairs) && c == UInt8(ascii: "["),
                      let pair = try numberPair(depth: depth + 1) {
                flat.append(pair.0)
                flat.append(pair.1)
                shape = .pairs
            } else if building && (shape == .numbers || shape == .sparse) && c == UInt8(ascii: "{"),
                      let item = try itemObject(depth: depth + 1) {
                flat.append(.nan)
                general.append(item)
                shape = .sparse
            } else {
                if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { path[path.count - 1] = .index(index) }
                let element = try value(depth: depth)
                if building && (shape == .numbers || shape == .sparse) {
                    // Numbers so far: they stay flat, the other values kept aside.
                    flat.append(.nan)
                    general.append(element)
                    shape = .sparse
                } else if building {
                    if shape != .general {
                        general = JSONValue.pairs(flat).elements!  // `.empty` or `.pairs`
                        flat = []
                        shape = .general
                    }
                    general.append(element)
                }
            }
            index += 1
            if skip(UInt8(ascii: ",")) { continue }
            if skip(UInt8(ascii: "]")) {
                path.removeLast()
                guard building else { return .null }
                switch shape {
                case .empty, .general: return .array(general)
                case .numbers: return .numbers(flat)
                case .pairs: return .pairs(flat)
                case .sparse: return .sparse(flat, general)
                }
            }
            throw error("unexpected \(describeCurrent()): expected ',' or ']'")
        }
    }

    /// An element `[a, b]` of two numbers, read without building an array; else `nil`, the position unchanged.
    private mutating func numberPair(depth: Int) throws -> (Double, Double)? {
        let start = position
        guard depth <= Self.maximumDepth else { return nil }
        position += 1
        guard let a = try number(followedBy: UInt8(ascii: ",")), let b = try number(followedBy: UInt8(ascii: "]")) else {
            position = start
            return nil
        }
        return (a, b)
    }

    /// A number and `terminator` after it (both past any whitespace), the position past the
    /// terminator; `nil`, the position wherever it stopped, for anything else.
    @inline(__always)
    private mutating func number(followedBy terminator: UInt8) throws -> Double? {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "-") || isDigit(bytes[position]) else { return nil }
        let value = try number()
        return skip(terminator) ? value : nil
    }

    /// `{"height": h[, "span": s]}` (s a number or `"full"`) as `.itemObject`; else `nil` as `numberPair`.
    private mutating func itemObject(depth: Int) throws -> JSONValue? {
        let start = position
        guard depth <= Self.maximumDepth, itemObjects < Self.maximumItemObjects else { return nil }
        // The key `"name"` exactly (no escapes), then the colon.
        func key(_ name: StaticString) -> Bool {
            skipWhitespace()
            let n = name.utf8CodeUnitCount
            guard position + n + 2 <= bytes.count, bytes[position] == UInt8(ascii: "\""),
                  bytes[position + n + 1] == UInt8(ascii: "\""),
                  memcmp(bytes.baseAddress! + position + 1, name.utf8Start, n) == 0 else { return false }
            position += n + 2
            guard skip(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            return true
        }
        func number() -> Double? {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "-") || isDigit(bytes[position]) else { return nil }
            return try? self.number()
        }
        func span() -> JSONValue.ItemSpan? {
            guard skip(UInt8(ascii: ",")) else { return .absent }
            guard key("span") else { return nil }
            if let v = number() { return .number(v) }
            guard position + 6 <= bytes.count, memcmp(bytes.baseAddress! + position, "\"full\"", 6) == 0 else { return nil }
            position += 6
            return .full
        }
        position += 1
        guard key("height"), let height = number(), let span = span(), skip(UInt8(ascii: "}")) else {
            position = start
            return nil
        }
        itemObjects += 1
        return .itemObject(height: height, span: span)
    }

    /// The string at `position` (its opening quote), escapes resolved. Rejects invalid UTF-8,
    /// control characters, bad escapes and unpaired surrogates (RFC 8259).
    private mutating func string() throws -> String {
        let start = position
        position += 1
        // Most strings are printable ASCII without escapes: made straight from the bytes.
        var end = position
        let limit = min(bytes.count, position + Self.maximumStringLength + 1)  // a longer one is refused below
        while end < limit, bytes[end] >= 0x20, bytes[end] < 0x80,
              bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") {
            end += 1
        }
        if end < limit, bytes[end] == UInt8(ascii: "\"") {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
            position = end + 1
            return text
        }
        var decoded: [UInt8] = []
        while position < bytes.count {
            if decoded.count > Self.maximumStringLength {
                position = start
                throw error("string longer than \(Self.maximumStringLength) bytes")
            }
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: decoded, as: UTF8.self)
            }
            if c < 0x20 { throw error("control character in a string (escape it)") }
            if c == UInt8(ascii: "\\") {
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                if let k = Array(#""\/bfnrt"#.utf8).firstIndex(of: escape) {
                    decoded.append(Array("\"\\/\u{8}\u{C}\n\r\t".utf8)[k])  // the escaped byte
                } else if escape == UInt8(ascii: "u") {
                    var scalar = try hexQuad()
                    // A high surrogate and an escaped low one make a scalar; another surrogate is refused.
                    if (0xD800...0xDBFF).contains(scalar) && bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
                        position += 2
                        let low = try hexQuad()
                        if (0xDC00...0xDFFF).contains(low) { scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) }
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("unpaired surrogate in a \\u escape") }
                    decoded.append(contentsOf: String(Character(unicode)).utf8)
                } else {
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
            // One multi-byte scalar, of the length its lead byte says.
            let length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2
            guard c >= 0xC2, c <= 0xF4, position + length <= bytes.count,
                  String(validating: UnsafeBufferPointer(rebasing: bytes[position..<(position + length)]), as: UTF8.self) != nil else {
                throw error("invalid UTF-8")
            }
            decoded.append(contentsOf: bytes[position..<(position + length)])
            position += length
        }
        position = start
        throw error("unterminated string")
    }

    private mutating func hexQuad() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count, let digit = UInt32(String(UnicodeScalar(bytes[position])), radix: 16) else {
                throw error("bad \\u escape: expected 4 hex digits")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// Scans a number: the correctly rounded double of its text (`JSONNumber`); 0 when checking.
    /// - Throws: `JSONSyntaxError` for a malformed number or one past the largest Double.
    private mutating func number() throws -> Double {
        let start = position
        let negative = peek(UInt8(ascii: "-"))
        if negative { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw error("bad number: expected a digit")
        }
        // The digits as an integer while they fit 19 digits; `dropped` once one did not.
        var significand: UInt64 = 0
        var digits = 0
        var dropped = false
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw error("bad number: leading zero")
            }
        } else {
            _ = self.digits(&significand, &digits, &dropped, fraction: false)
        }
        var fractionDigits = 0
        if peek(UInt8(ascii: ".")) {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("bad number: expected a digit after '.'")
            }
            fractionDigits = self.digits(&significand, &digits, &dropped, fraction: true)
        }
        var exponent = 0
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            position += 1
            let exponentNegative = peek(UInt8(ascii: "-"))
            if exponentNegative || peek(UInt8(ascii: "+")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("bad number: expected a digit in the exponent")
            }
            while position < bytes.count, isDigit(bytes[position]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        if building, let value = JSONNumber.fastValue(
            negative: negative, significand: significand, exact: !dropped && significand <= 1 << 53, complete: !dropped,
            fractionDigits: fractionDigits, exponent: exponent) {
            return value  // finite: at most 2^53 · 10^22
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = JSONNumber.value(text) else {
            position = start
            throw error("number \(text.prefix(40))\(text.count > 40 ? "…" : "") is too large for a double")
        }
        return building ? value : 0
    }

    /// Reads digits into `significand` while 19 fit (else `dropped`), eight at a time while it can,
    /// counting the significant ones in `digits`; returns how many it kept.
    @inline(__always)
    private mutating func digits(_ significand: inout UInt64, _ digits: inout Int, _ dropped: inout Bool, fraction: Bool) -> Int {
        var kept = 0
        while digits <= 11 && position + 8 <= bytes.count, let eight = JSONNumber.eightDigits(bytes.baseAddress! + position) {
            digits += !fraction || significand != 0 ? 8 : (eight == 0 ? 0 : NumberFormat.shortDigitsText(eight).length)
            significand = significand &* 100_000_000 &+ eight
            kept += 8
            position += 8
        }
        while position < bytes.count, isDigit(bytes[position]) {
            if digits < 19 {
                significand = significand &* 10 &+ UInt64(bytes[position] &- UInt8(ascii: "0"))
                if !fraction || significand != 0 { digits += 1 }
                kept += 1
            } else {
                dropped = true
            }
            position += 1
        }
        return kept
    }

    /// `value`, once `word` is read.
    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
        for c in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard position < bytes.count, bytes[position] == c else {
                throw error("unexpected \(describeCurrent()): expected '\(word)'")
            }
            position += 1
        }
        return value
    }

    private func renderedPath() -> String {
        path.reduce(into: "") { text, component in
            switch component {
            case .key(let k): text += text.isEmpty ? k : "." + k
            case .index(let i): text += "[\(i)]"
            }
        }
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

    /// Past any whitespace, whether `c` comes next, and then past it.
    private mutating func skip(_ c: UInt8) -> Bool {
        skipWhitespace()
        guard peek(c) else { return false }
        position += 1
        return true
    }
    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of input" }
        return "character '\(describeByte(bytes[position]))'"
    }

    private func describeByte(_ c: UInt8) -> String {
        if c >= 0x21 && c < 0x7F { return String(Character(Unicode.Scalar(c))) }
        return (c < 16 ? "\\x0" : "\\x") + String(c, radix: 16, uppercase: true)
    }

    /// An error at the current position's 1-based line and column (in characters).
    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1, column = 1
        for i in 0..<min(position, bytes.count) {
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
