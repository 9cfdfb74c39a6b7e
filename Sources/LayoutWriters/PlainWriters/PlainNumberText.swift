import FastText
import LayoutCore

/// A number's text by the reference's "Numbers" paragraph, from the double's exact value
/// (`NumberFormat` must agree): 2.675 at 2 decimals "2.67", 0.25 at 1 "0.3", 1e-7 "0.0000001".
public enum PlainNumberText {
    /// `value` at `precision`: `.decimals(p)` (p in 0…15) the nearest p-place decimal, halves
    /// away from zero; `.full` the shortest round-trip digits, no exponent. Not finite: `0`.
    /// - Complexity: O(digits) for |value| < 2⁷⁵, more for larger whole numbers.
    public static func string(_ value: Double, precision: NumberPrecision) -> String {
        guard value.isFinite, value != 0 else { return "0" }
        switch precision {
        case .full: return shortest(value)
        case .decimals(let p): return fixed(value, decimals: max(0, min(p, 15)))
        }
    }

    /// `|value| = m · 2^e`, m an integer of at most 53 bits.
    private static func parts(_ value: Double) -> (m: UInt64, e: Int) {
        let bits = value.exponentBitPattern
        if bits == 0 { return (value.significandBitPattern, -1074) }  // subnormal
        return (value.significandBitPattern | 1 << 52, Int(bits) - 1075)
    }

    /// `value` rounded to `p` decimals, halves away from zero.
    private static func fixed(_ value: Double, decimals p: Int) -> String {
        let sign = value < 0 ? "-" : ""
        let (m, e) = parts(value)
        if e >= 0 { return sign + wholeNumberDigits(m, timesTwoToThe: e) }  // a whole number: nothing to round
        // |value| · 10^p = m · 10^p / 2^k, below 2^53 · 10^15 < 2^103; rounded half up as
        // ⌊(2x + 1) / 2⌋ with 2x = m · 10^p / 2^(k−1) (a shift of 128 or more gives 0).
        var power: UInt128 = 1
        for _ in 0..<p { power *= 10 }
        let k = -e
        let n = ((UInt128(m) * power) >> (k - 1) + 1) >> 1
        if n == 0 { return "0" }  // rounds to zero: no sign
        var digits = n < 1 << 64 ? String(UInt64(n)) : String(n)
        if digits.count <= p { digits = String(repeating: "0", count: p + 1 - digits.count) + digits }
        var fraction = digits.suffix(p)
        while fraction.last == "0" { fraction.removeLast() }
        let integer = digits.dropLast(p)
        return sign + integer + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// The decimal digits of `m · 2^e`.
    private static func wholeNumberDigits(_ m: UInt64, timesTwoToThe e: Int) -> String {
        if e <= 11 { return String(m << e) }
        if e <= 74 { return String(UInt128(m) << e) }
        // Past 2¹²⁸: m's decimal digits (least significant first), doubled e times.
        var digits = String(m).utf8.reversed().map { Int($0) - 48 }
        for _ in 0..<e {
            var carry = 0
            for i in digits.indices {
                let twice = 2 * digits[i] + carry
                digits[i] = twice % 10
                carry = twice / 10
            }
            if carry > 0 { digits.append(carry) }
        }
        return String(digits.reversed().map { Character(Unicode.Scalar(UInt8(48 + $0))) })
    }

    /// Swift's shortest round-trip digits (`description`) without an exponent, read from the
    /// description's two forms (`123.45`, `1.5e+20`) rather than by `NumberFormat.shortestText`'s
    /// steps, so that the harness checks those.
    private static func shortest(_ value: Double) -> String {
        let text = value.description
        guard let e = text.firstIndex(of: "e") else {
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        let sign = value < 0 ? "-" : ""
        let digits = String(text[..<e].filter(\.isNumber))  // d.ddd: one digit before the point
        let point = 1 + Int(text[text.index(after: e)...])!  // the point's place after the first digit
        if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
        if point >= digits.count { return sign + digits + String(repeating: "0", count: point - digits.count) }
        return sign + digits.prefix(point) + "." + digits.dropFirst(point)
    }
}
