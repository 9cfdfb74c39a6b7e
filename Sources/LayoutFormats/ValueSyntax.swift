import LayoutCore

/// The textual forms shared by flags and dataset strings (SPEC section 2): numbers, and
/// comma-separated lists of numbers for points (`X,Y`), rects (`X,Y,W,H`) and insets
/// (`T,L,B,R`, or one number for all four).
public enum ValueSyntax {
    /// A decimal number: optional sign, digits with an optional point, optional exponent.
    /// Rejects `nan`, `inf`, hex floats, spaces and stray characters (`12x`). May return a
    /// non-finite value for overflowing text (`1e999`); callers decide what that means.
    public static func number(_ text: Substring) -> Double? {
        guard !text.isEmpty else { return nil }
        var sawDigit = false
        var index = text.startIndex
        if text[index] == "+" || text[index] == "-" { index = text.index(after: index) }
        var sawPoint = false, sawExponent = false
        while index < text.endIndex {
            let c = text[index]
            switch c {
            case "0"..."9": sawDigit = true
            case "." where !sawPoint && !sawExponent: sawPoint = true
            case "e" where sawDigit && !sawExponent, "E" where sawDigit && !sawExponent:
                sawExponent = true
                let next = text.index(after: index)
                if next < text.endIndex, text[next] == "+" || text[next] == "-" { index = next }
                sawDigit = false // the exponent needs digits of its own
            default: return nil
            }
            index = text.index(after: index)
        }
        guard sawDigit else { return nil }
        return Double(text)
    }

    /// `number` for a whole string.
    public static func number(_ text: String) -> Double? { number(text[...]) }

    /// The magnitude every integer value stays below: 2⁵³, past which a double no longer
    /// holds every integer.
    public static let integerLimit = 9_007_199_254_740_992.0

    /// An integer: a number with no fractional part (`6` and `6.0` are the same, `6.5` is not)
    /// and a magnitude below 2⁵³ (`integerLimit`); `nil` otherwise (`isOutOfRangeInteger`
    /// tells a well-formed integer past the limit from text that is not one).
    public static func integer(_ text: String) -> Int? {
        guard let value = number(text), value.isFinite, value == value.rounded(.towardZero),
              value.magnitude < integerLimit else { return nil }
        return Int(value)
    }

    /// Whether `text` is an integer in form (a number with no fractional part) whose
    /// magnitude is 2⁵³ or more, or that overflows a double (`1e999`): a value out of range,
    /// not text that does not parse.
    public static func isOutOfRangeInteger(_ text: String) -> Bool {
        guard let value = number(text) else { return false }
        return !value.isFinite || (value == value.rounded(.towardZero) && value.magnitude >= integerLimit)
    }

    /// An unsigned 64-bit integer (`--seed`): plain digits up to 18446744073709551615,
    /// exactly; any other integer form (`1e3`, `6.0`) below 2⁵³, as `integer` reads it.
    /// `nil` when `text` is not an integer in form or is negative or out of range
    /// (`isOutOfRangeInteger`, or plain digits past 2⁶⁴ − 1, tell the two apart).
    public static func unsignedInteger(_ text: String) -> UInt64? {
        let digits = text.first == "+" ? text.dropFirst() : text[...]
        if !digits.isEmpty && digits.allSatisfy({ $0.isASCII && $0.isNumber }) { return UInt64(digits) }
        guard let n = integer(text), n >= 0 else { return nil }
        return UInt64(n)
    }

    /// Comma-separated numbers; `nil` when any part does not parse or the count is not in
    /// `counts`.
    public static func numbers(_ text: String, counts: Set<Int>) -> [Double]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard counts.contains(parts.count) else { return nil }
        var values: [Double] = []
        values.reserveCapacity(parts.count)
        for part in parts {
            guard let v = number(part) else { return nil }
            values.append(v)
        }
        return values
    }

    /// `T,L,B,R` or one number for all four edges.
    public static func insets(_ text: String) -> EdgeInsets? {
        guard let v = numbers(text, counts: [1, 4]) else { return nil }
        return v.count == 1 ? EdgeInsets(all: v[0]) : EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3])
    }

    /// `X,Y`.
    public static func point(_ text: String) -> Point? {
        guard let v = numbers(text, counts: [2]) else { return nil }
        return Point(x: v[0], y: v[1])
    }

    /// `W,H`, or one number for a square.
    public static func size(_ text: String) -> Size? {
        guard let v = numbers(text, counts: [1, 2]) else { return nil }
        return v.count == 1 ? Size(width: v[0], height: v[0]) : Size(width: v[0], height: v[1])
    }

    /// `X,Y,W,H`.
    public static func rect(_ text: String) -> Rect? {
        guard let v = numbers(text, counts: [4]) else { return nil }
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// `S:I`, or `I` alone for section 0; both non-negative integers.
    public static func indexPath(_ text: String) -> IndexPath? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        func nonNegative(_ s: Substring) -> Int? {
            guard !s.isEmpty, s.count <= 18, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(s)
        }
        switch parts.count {
        case 1: return nonNegative(parts[0]).map { IndexPath(item: $0, section: 0) }
        case 2:
            guard let s = nonNegative(parts[0]), let i = nonNegative(parts[1]) else { return nil }
            return IndexPath(item: i, section: s)
        default: return nil
        }
    }
}
