import LayoutCore
import FastText

/// The textual forms shared by flags and dataset strings (SPEC section 2): numbers, and comma-separated
/// numbers for points (`X,Y`), rects (`X,Y,W,H`) and insets (`T,L,B,R`, or one number for all four).
public enum ValueSyntax {
    /// A decimal number: optional sign, digits with an optional point, optional exponent.
    /// Rejects `nan`, `inf`, hex floats, spaces and stray characters (`12x`). May return a
    /// non-finite value for overflowing text (`1e999`); callers decide what that means.
    public static func number(_ text: Substring) -> Double? {
        // Of these characters `Double(_:)` reads only the decimal forms, whole.
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) || "+-.eE".utf8.contains($0) }) else { return nil }
        return Double(text)
    }

    /// `number` for a whole string.
    public static func number(_ text: String) -> Double? { number(text[...]) }

    /// 2⁵³, which every integer's magnitude stays below (past it a double skips integers).
    public static let integerLimit = 9_007_199_254_740_992.0

    /// A number with no fractional part (`6`, `6.0`; not `6.5`) below `integerLimit` in
    /// magnitude; else `nil` (`isOutOfRangeInteger` tells out of range from malformed).
    public static func integer(_ text: String) -> Int? {
        guard let value = number(text), value.isFinite, value == value.rounded(.towardZero),
              value.magnitude < integerLimit else { return nil }
        return Int(value)
    }

    /// Whether `text` is an integer in form of magnitude 2⁵³ or more, or overflows a double (`1e999`).
    public static func isOutOfRangeInteger(_ text: String) -> Bool {
        guard let value = number(text) else { return false }
        return !value.isFinite || (value == value.rounded(.towardZero) && value.magnitude >= integerLimit)
    }

    /// An unsigned 64-bit integer (`--seed`): plain digits up to 2⁶⁴ − 1 exactly, another integer
    /// form (`1e3`, `6.0`) as `integer` reads it; `nil` when negative, out of range or malformed.
    public static func unsignedInteger(_ text: String) -> UInt64? {
        let digits = text.first == "+" ? text.dropFirst() : text[...]
        if !digits.isEmpty && digits.allSatisfy({ $0.isASCII && $0.isNumber }) { return UInt64(digits) }
        return integer(text).flatMap { $0 >= 0 ? UInt64($0) : nil }
    }

    /// Comma-separated numbers; `nil` when any part does not parse or the count is not in `counts`.
    public static func numbers(_ text: String, counts: Set<Int>) -> [Double]? {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map { number($0) }
        guard counts.contains(values.count), !values.contains(nil) else { return nil }
        return values.map { $0! }
    }

    /// `T,L,B,R` or one number for all four edges; `[T, L, B, R]` (as JSON writes it) too.
    public static func insets(_ text: String) -> EdgeInsets? {
        var text = text
        if text.hasPrefix("[") && text.hasSuffix("]") && text.count >= 2 {
            text = String(text.dropFirst().dropLast().filter { $0 != " " })
        }
        guard let v = numbers(text, counts: [1, 4]) else { return nil }
        return v.count == 1 ? EdgeInsets(all: v[0]) : EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3])
    }

    /// `X,Y`.
    public static func point(_ text: String) -> Point? {
        numbers(text, counts: [2]).map { Point(x: $0[0], y: $0[1]) }
    }

    /// `W,H`, or one number for a square.
    public static func size(_ text: String) -> Size? {
        numbers(text, counts: [1, 2]).map { Size(width: $0[0], height: $0[$0.count - 1]) }
    }

    /// `X,Y,W,H`.
    public static func rect(_ text: String) -> Rect? {
        numbers(text, counts: [4]).map { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
    }

    /// `S:I`, or `I` alone for section 0; both non-negative integers.
    public static func indexPath(_ text: String) -> IndexPath? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { s -> Int? in
            guard !s.isEmpty, s.count <= 18, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(s)
        }
        guard parts.count <= 2, !parts.contains(nil) else { return nil }
        return IndexPath(item: parts.last!!, section: parts.count == 2 ? parts[0]! : 0)
    }
}

/// Insets in any JSON description: a number (all four edges), a string as the flag reads it, an
/// array `[top, left, bottom, right]`, or an object of `top`, `left`, `bottom` and `right`
/// (or NSDirectionalEdgeInsets' `leading` and `trailing`), an edge not given being 0.
enum JSONInsets {
    /// The object keys, in message order.
    static let keys = ["top", "left", "bottom", "right", "leading", "trailing"]
    /// What a message says is expected.
    static let expected = #"insets: a number, "T,L,B,R", [T, L, B, R] or {"top": T, "left": L, "bottom": B, "right": R}"#

    /// Reads `raw`, naming `path` in errors; the numbers are finite (their range is the caller's).
    /// - Throws: `DatasetError.invalidValue` at `path` (or at `path.key` for an object's key).
    static func read(_ raw: JSONValue, path: String) throws -> EdgeInsets {
        func invalid(_ at: String, _ message: String) -> DatasetError { .invalidValue(path: at.isEmpty ? "(top level)" : at, message: message) }
        func finite(_ value: JSONValue, _ at: String) throws -> Double {
            guard case .number(let v) = value, v.isFinite else { throw DatasetError.expected(path: at, .number, got: describe(value)) }
            return v
        }
        switch raw {
        case .number(let v):
            return EdgeInsets(all: v)
        case .string(let s):
            guard let insets = ValueSyntax.insets(s) else { throw invalid(path, "expected \(expected), got \(describe(raw))") }
            return insets
        case .object(let object):
            for key in object.keys.sorted() where !keys.contains(key) {
                throw DatasetError.unknownKey(path: path + "." + key, key: key, expected: keys)
            }
            for (side, directional) in [("left", "leading"), ("right", "trailing")] where object[side] != nil && object[directional] != nil {
                throw invalid(path + "." + directional, "give '\(side)' or '\(directional)', not both")
            }
            func edge(_ key: String, or other: String? = nil) throws -> Double {
                if let v = object[key] { return try finite(v, path + "." + key) }
                if let other, let v = object[other] { return try finite(v, path + "." + other) }
                return 0
            }
            return EdgeInsets(top: try edge("top"), left: try edge("left", or: "leading"),
                              bottom: try edge("bottom"), right: try edge("right", or: "trailing"))
        case .numbers, .array, .sparse, .pairs:
            if let elements = raw.elements, elements.count == 4 {
                let v = try elements.enumerated().map { try finite($1, "\(path)[\($0)]") }
                return EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3])
            }
            fallthrough
        default:
            throw invalid(path, "expected \(expected), got \(describeCounted(raw))")
        }
    }

    /// The flag's text (`T,L,B,R`) of insets given as an array or an object in `"options"`;
    /// `nil` for another value. - Throws: `read`'s errors for an object of insets' keys.
    static func flagText(_ raw: JSONValue, path: String) throws -> String? {
        switch raw {
        case .numbers(let v) where v.count == 4:
            return v.map { NumberFormat.string($0, precision: .full) }.joined(separator: ",")
        case .object(let object) where object.count > 0 && object.keys.allSatisfy(keys.contains):
            let insets = try read(raw, path: path)
            return try flagText(.numbers([insets.top, insets.left, insets.bottom, insets.right]), path: path)
        default:
            return nil
        }
    }
}
