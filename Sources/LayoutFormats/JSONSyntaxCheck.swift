import LayoutCore
import Foundation

// A strict JSON (RFC 8259) scanner. It gives every syntax error a 1-based line and column
// (Foundation on Linux only says "around character N", or nothing at end of file), refuses
// what Foundation lets through (trailing commas, duplicate keys), and bounds nesting before a
// recursive parser can exhaust the stack. Run as a check it builds nothing (the layout reader
// then hands the document to Foundation); run as a parser it also builds a `JSONValue` tree,
// holding arrays of plain numbers and of `[a, b]` pairs as flat `[Double]`, with the same
// numbers `JSONSerialization` would give (see `JSONNumber`), so datasets skip Foundation.

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

/// Strict JSON: the syntax check, then Foundation's `JSONSerialization` for the values; or
/// the check and the values in one pass (`values`).
enum StrictJSON {
    /// The document's value (arrays, dictionaries, NSNumber, String, NSNull).
    /// - Throws: `JSONSyntaxError`, `JSONDuplicateKeyError`, or `JSONUnreadable`.
    /// - Complexity: O(size of `data`).
    /// - Parameter objectLimit: the most objects accepted (default: a dataset's limit,
    ///   `JSONSyntaxCheck.maximumObjects`; a layout file takes `maximumLayoutObjects`).
    static func parse(_ data: Data, objectLimit: JSONSyntaxCheck.ObjectLimit = .dataset) throws -> Any {
        try data.withUnsafeBytes { raw in
            try JSONSyntaxCheck.check(raw.bindMemory(to: UInt8.self), objectLimit: objectLimit)
        }
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw unreadable(error)
        }
    }

    /// The document's value as a `JSONValue` tree, from one pass of the strict scanner; the
    /// same document `parse` accepts, the same errors it throws, and numbers equal to the
    /// `doubleValue` of the NSNumbers `parse` would give (bit for bit, `-0` as `0`, as
    /// `JSONSerialization` reads it).
    /// - Throws: `JSONSyntaxError`, `JSONDuplicateKeyError`, or `JSONUnreadable` (a number
    ///   Foundation cannot represent: its message is then Foundation's own).
    /// - Complexity: O(size of `data`) time; memory O(size of `data`) for the tree, 8 bytes
    ///   per number in a numeric array.
    static func values(_ data: Data, objectLimit: JSONSyntaxCheck.ObjectLimit = .dataset) throws -> JSONValue {
        let result = try data.withUnsafeBytes { raw in
            try JSONSyntaxCheck.parse(raw.bindMemory(to: UInt8.self), objectLimit: objectLimit)
        }
        guard let value = result else {
            // A number Foundation refuses (rare: a 309-digit integer past the largest
            // Double); let Foundation say what it says about it.
            do {
                _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            } catch {
                throw unreadable(error)
            }
            throw JSONUnreadable(message: "a number is not representable")
        }
        return value
    }

    private static func unreadable(_ error: Error) -> JSONUnreadable {
        let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        return JSONUnreadable(message: detail ?? "unreadable JSON")
    }
}

/// A JSON value as the strict scanner builds it for the dataset decoder. Arrays whose
/// elements are all numbers, or all two-number arrays, are held flat (8 bytes a number)
/// rather than one enum case per element; `elements` expands any array to the general form.
/// `==` is structural: a flat array and the same array in general form are not equal.
enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false` (never a number: `1` and `true` stay distinct).
    case bool(Bool)
    /// A number, as `JSONSerialization`'s NSNumber `doubleValue` gives it; always finite.
    case number(Double)
    /// A string, escapes resolved.
    case string(String)
    /// An array in general form.
    case array([JSONValue])
    /// A non-empty array of numbers only.
    case numbers([Double])
    /// A non-empty array of two-number arrays `[a, b]`, flat: `a0, b0, a1, b1, …`.
    case pairs([Double])
    /// A non-empty array that starts with a number and holds other values too (a waterfall's
    /// `"items"`: heights with a few objects among them): every element's number, NaN (which
    /// JSON cannot hold) where another value stands, and those other values in order.
    case sparse([Double], [JSONValue])
    /// An object. Keys equal as Swift strings (canonically equivalent) keep the first
    /// spelling and the last value, as `JSONSerialization` does; byte-equal duplicates are
    /// refused before.
    case object([String: JSONValue])

    /// The elements of an array in general form, or `nil` when this is not an array.
    /// - Complexity: O(n) for flat arrays (it builds the elements).
    var elements: [JSONValue]? {
        switch self {
        case .array(let a): return a
        case .numbers(let n): return n.map { .number($0) }
        case .pairs(let p): return stride(from: 0, to: p.count, by: 2).map { .numbers([p[$0], p[$0 + 1]]) }
        case .sparse(let numbers, let others):
            var next = 0
            return numbers.map { n in
                guard n.isNaN else { return .number(n) }
                next += 1
                return others[next - 1]
            }
        default: return nil
        }
    }

    /// The number of elements when this is an array, else `nil`. O(1).
    var arrayCount: Int? {
        switch self {
        case .array(let a): return a.count
        case .numbers(let n): return n.count
        case .pairs(let p): return p.count / 2
        case .sparse(let numbers, _): return numbers.count
        default: return nil
        }
    }
}

/// JSON number text to the `Double` that `JSONSerialization` (swift-corelibs-foundation)
/// gives, bit for bit.
///
/// Foundation makes an Int64 or UInt64 NSNumber of an integer without `.` or `e` (so `-0`
/// reads as `+0`), an NSDecimalNumber when the text before any `e` has more than 17
/// characters and the exponent is within ±128 (whose `doubleValue` is not always the nearest
/// double), and otherwise `Double(text)`, which is correctly rounded. Short plain numbers,
/// nearly every number in a dataset, take exact integer arithmetic or Clinger's fast path
/// (≤ 2^53 significand, power of ten ≤ 10^22: one correctly rounded multiply or divide) and
/// give the same value without building a string; the rest go through Foundation's steps.
enum JSONNumber {
    /// Exact powers of ten, 10^0 … 10^22.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The value of a number made of the given parts, or `nil` when only the text can say.
    /// - Parameters:
    ///   - negative: the text starts with `-`.
    ///   - significand: the decimal digits (integer and fraction) as an integer; valid only
    ///     when `exact`.
    ///   - exact: no digit was dropped from `significand` and it is ≤ 2^53.
    ///   - fractionDigits: digits after the point.
    ///   - hasPoint: the text has a `.`.
    ///   - exponent: the value after `e`, or 0; `exponentMark` is `e`, `E` or 0.
    ///   - mantissaLength: characters before the exponent mark (sign and point included).
    @inline(__always)
    static func fastValue(negative: Bool, significand: UInt64, exact: Bool, fractionDigits: Int, hasPoint: Bool,
                          exponent: Int, exponentMark: UInt8, mantissaLength: Int) -> Double? {
        guard exact, exponentMark != UInt8(ascii: "E") else { return nil }
        if !hasPoint && exponentMark == 0 {
            // Foundation: Int64/UInt64, exact for ≤ 2^53; "-0" is Int64 0, so +0.
            let v = Double(significand)
            return negative && significand != 0 ? -v : v
        }
        // Foundation: Double(text) when at most 17 characters precede the exponent.
        guard mantissaLength <= 17 else { return nil }
        let power = exponent - fractionDigits
        var v = Double(significand)
        if power >= 0 {
            guard power <= 22 else { return nil }
            v *= powersOfTen[power]
        } else {
            guard power >= -22 else { return nil }
            v /= powersOfTen[-power]
        }
        return negative ? -v : v
    }

    /// Foundation's own steps for any JSON number text (JSONSerialization's number reading,
    /// then NSNumber's `doubleValue`); `nil` when Foundation refuses the number (not finite).
    static func foundationValue(_ string: String) -> Double? {
        let expIndex = string.firstIndex(of: "e")
        let isInteger = string.firstIndex(of: ".") == nil && expIndex == nil
        let isNegative = string.utf8.first == UInt8(ascii: "-")
        let digitCount = string[string.startIndex..<(expIndex ?? string.endIndex)].count
        if isInteger {
            if isNegative {
                if digitCount <= 19, let v = Int64(string) { return NSNumber(value: v).doubleValue }
            } else {
                if digitCount <= 20, let v = UInt64(string) { return NSNumber(value: v).doubleValue }
            }
        }
        var exp = 0
        if let expIndex, let parsed = Int(string[string.index(after: expIndex)...]) { exp = parsed }
        if digitCount > 17, exp >= -128, exp <= 127, let decimal = Decimal(string: string), decimal.isFinite {
            return NSDecimalNumber(decimal: decimal).doubleValue
        }
        if let v = Double(string), v.isFinite { return v }
        return nil
    }
}

/// The strict scanner: `check` builds nothing, `parse` also builds the `JSONValue` tree.
struct JSONSyntaxCheck {
    /// Deepest nesting of arrays and objects accepted.
    static let maximumDepth = 256
    /// Most objects in one document: a million sections (plus the top level and "options")
    /// is far past any real dataset, and bounds what the parser behind this pass allocates.
    static let maximumObjects = 1_000_010

    /// How many objects a document may hold, and how the limit is explained.
    enum ObjectLimit {
        /// A dataset: `maximumObjects` (a million sections).
        case dataset
        /// A layout file (`diff`, `--check`): three objects per element (the element, its
        /// frame, its center) for the most elements a layout has, and room for the rest.
        case layout

        var count: Int {
            switch self {
            case .dataset: JSONSyntaxCheck.maximumObjects
            case .layout: 3 * maximumElementCount + JSONSyntaxCheck.maximumObjects
            }
        }

        var explanation: String {
            switch self {
            case .dataset: "a million sections, and ten more objects for the top level and options"
            case .layout: "at most \(maximumElementCount) elements"
            }
        }
    }
    private var objectLimit = ObjectLimit.dataset
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

    /// What an array being built holds so far.
    private enum ArrayShape {
        case empty, numbers, pairs, sparse, general
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    /// Build values (`parse`) or only check (`check`).
    private let building: Bool
    private var position = 0
    /// Where the scan is, rendered only when a duplicate key is reported. An array's entry
    /// is brought up to date only before an element that is an object or an array.
    private var path: [PathComponent] = []
    private var objects = 0
    /// A number Foundation would refuse was read (only while building).
    private var foundationRefuses = false

    /// Checks `data`; throws `JSONSyntaxError` or `JSONDuplicateKeyError`.
    /// - Complexity: O(n) time; O(depth + keys of one object) memory.
    static func check(_ data: UnsafeBufferPointer<UInt8>, objectLimit: ObjectLimit = .dataset) throws {
        var checker = JSONSyntaxCheck(bytes: data, building: false)
        checker.objectLimit = objectLimit
        _ = try checker.run()
    }

    /// Checks `data` as `check` does and builds its value; `nil` when the document is valid
    /// but holds a number Foundation refuses (see `StrictJSON.values`).
    /// - Throws: `JSONSyntaxError` or `JSONDuplicateKeyError`, exactly as `check` would.
    /// - Complexity: O(n) time and memory.
    static func parse(_ data: UnsafeBufferPointer<UInt8>, objectLimit: ObjectLimit = .dataset) throws -> JSONValue? {
        var parser = JSONSyntaxCheck(bytes: data, building: true)
        parser.objectLimit = objectLimit
        let value = try parser.run()
        return parser.foundationRefuses ? nil : value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, building: Bool) {
        self.bytes = bytes
        self.building = building
    }

    private mutating func run() throws -> JSONValue {
        // A UTF-8 byte-order mark is tolerated, as Foundation tolerates it.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw error("empty document: expected a JSON value") }
        let result = try value(depth: 0)
        skipWhitespace()
        if position < bytes.count { throw error("unexpected \(describeCurrent()) after the JSON value") }
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
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
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
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            position += 1
            return building ? .object([:]) : .null
        }
        var keys = Set<[UInt8]>()
        // Room for three members at once: item objects hold one to three, and grow no further.
        var members = [String: JSONValue](minimumCapacity: building ? 3 : 0)
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
            // Byte-equal keys are refused. When building, the members find them without a set
            // of every key: a key equal as a Swift string to an earlier one is byte-equal to
            // that member's (first) spelling or to another spelling seen since (refused), or a
            // new spelling of it (remembered, and kept below as JSONSerialization does).
            let duplicate: Bool
            if building {
                // A few members are compared in place rather than hashed: most objects of a
                // dataset (item objects) hold one to three.
                let earlier = members.count < 4 ? members.firstIndex { $0.key == name } : members.index(forKey: name)
                if let earlier {
                    duplicate = members[earlier].key.utf8.elementsEqual(name.utf8) || !keys.insert(Array(name.utf8)).inserted
                } else {
                    duplicate = false
                }
            } else {
                duplicate = !keys.insert(Array(name.utf8)).inserted
            }
            if duplicate {
                throw JSONDuplicateKeyError(path: renderedPath(), key: name)
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("unexpected \(describeCurrent()): expected ':'") }
            position += 1
            skipWhitespace()
            path.append(.key(name))
            let member = try value(depth: depth)
            path.removeLast()
            // As JSONSerialization: a later key equal as a Swift string replaces the value.
            if building { members[name] = member }
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                continue
            }
            if peek(UInt8(ascii: "}")) {
                position += 1
                return building ? .object(members) : .null
            }
            throw error("unexpected \(describeCurrent()): expected ',' or '}'")
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        position += 1
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            return building ? .array([]) : .null
        }
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
                        general = Self.expand(flat, shape)
                        flat = []
                        shape = .general
                    }
                    general.append(element)
                }
            }
            index += 1
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                continue
            }
            if peek(UInt8(ascii: "]")) {
                position += 1
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

    /// An element `[a, b]` of two numbers, read without building an array; `nil`, with the
    /// position unchanged, for anything else (which `value` then reads, or reports, as it
    /// would have). Scans exactly as `array` and `number` do, so a number's error is the same.
    private mutating func numberPair(depth: Int) throws -> (Double, Double)? {
        let start = position
        guard depth <= Self.maximumDepth else { return nil }
        position += 1
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "-") || isDigit(bytes[position]) else {
            position = start
            return nil
        }
        let a = try number()
        skipWhitespace()
        guard peek(UInt8(ascii: ",")) else {
            position = start
            return nil
        }
        position += 1
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "-") || isDigit(bytes[position]) else {
            position = start
            return nil
        }
        let b = try number()
        skipWhitespace()
        guard peek(UInt8(ascii: "]")) else {
            position = start
            return nil
        }
        position += 1
        return (a, b)
    }

    /// The elements read so far into `flat`, in general form.
    private static func expand(_ flat: [Double], _ shape: ArrayShape) -> [JSONValue] {
        switch shape {
        case .empty, .general, .sparse: return []
        case .numbers: return JSONValue.numbers(flat).elements!
        case .pairs: return JSONValue.pairs(flat).elements!
        }
    }

    /// Scans the string at `position` (its opening quote) and returns it with its escapes
    /// resolved (so `"a"` and `"\u0061"` are the same key); its UTF-8 is exactly the decoded
    /// bytes. Rejects invalid UTF-8, control characters, bad escapes and unpaired surrogates,
    /// as RFC 8259 requires.
    private mutating func string() throws -> String {
        let start = position
        position += 1
        // Most strings (every key of a layout) are printable ASCII without escapes: made
        // straight from the bytes (a short one without an allocation).
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

    /// Scans a number; returns its value when building (0 when checking). The value is
    /// `JSONSerialization`'s (see `JSONNumber`); a number Foundation refuses sets
    /// `foundationRefuses` and reads as 0, so later syntax errors are still found first.
    private mutating func number() throws -> Double {
        let start = position
        var negative = false
        if peek(UInt8(ascii: "-")) {
            negative = true
            position += 1
        }
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
            while position < bytes.count, isDigit(bytes[position]) {
                if digits < 19 {
                    significand = significand &* 10 &+ UInt64(bytes[position] &- UInt8(ascii: "0"))
                    digits += 1
                } else {
                    dropped = true
                }
                position += 1
            }
        }
        var hasPoint = false
        var fractionDigits = 0
        if peek(UInt8(ascii: ".")) {
            hasPoint = true
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("bad number: expected a digit after '.'")
            }
            while position < bytes.count, isDigit(bytes[position]) {
                if digits < 19 {
                    significand = significand &* 10 &+ UInt64(bytes[position] &- UInt8(ascii: "0"))
                    if significand != 0 { digits += 1 }
                    fractionDigits += 1
                } else {
                    dropped = true
                }
                position += 1
            }
        }
        let mantissaLength = position - start
        var exponentMark: UInt8 = 0
        var exponent = 0
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            exponentMark = bytes[position]
            position += 1
            var exponentNegative = false
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
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
            negative: negative, significand: significand, exact: !dropped && significand <= 1 << 53,
            fractionDigits: fractionDigits, hasPoint: hasPoint, exponent: exponent,
            exponentMark: exponentMark, mantissaLength: mantissaLength) {
            return value  // finite: at most 2^53 · 10^22
        }
        if exponentMark != 0 {
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
        guard building else { return 0 }
        guard let value = JSONNumber.foundationValue(String(decoding: bytes[start..<position], as: UTF8.self)) else {
            foundationRefuses = true
            return 0
        }
        return value
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
