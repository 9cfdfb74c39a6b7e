// JSON number text to Double: a fast path on the scanned parts, and Double(text) behind it.

/// JSON number text to its correctly rounded `Double`, as `Double(text)` (and so
/// `ValueSyntax.number`, which reads flags) gives it: a dataset and a flag with the same text
/// give the same double. Nearly every number in a dataset is short: those take exact integer
/// arithmetic or Clinger's fast path (a significand ≤ 2^53 and a power of ten ≤ 10^22: one
/// correctly rounded multiply or divide) without building a string; the rest go through
/// `Double(text)`.
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
    ///   - exponent: the value after `e` or `E`, or 0.
    @inline(__always)
    static func fastValue(negative: Bool, significand: UInt64, exact: Bool, fractionDigits: Int,
                          exponent: Int) -> Double? {
        guard exact else { return nil }
        let power = exponent - fractionDigits
        var v = Double(significand)  // exact: ≤ 2^53
        if power >= 0 {
            guard power <= 22 else { return nil }
            v *= powersOfTen[power]
        } else {
            guard power >= -22 else { return nil }
            v /= powersOfTen[-power]
        }
        return negative ? -v : v
    }

    /// The correctly rounded value of any JSON number text; `nil` past the largest Double.
    static func value(_ text: String) -> Double? {
        guard let v = Double(text), v.isFinite else { return nil }
        return v
    }
}
