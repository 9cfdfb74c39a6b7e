/// JSON number text to its correctly rounded `Double`, as `Double(text)` (and so a flag)
/// gives it. Short numbers take Clinger's fast path (a significand ≤ 2^53 and a power of ten
/// ≤ 10^22: one correctly rounded multiply or divide) without a string; the rest `Double(text)`.
@usableFromInline package enum JSONNumber {
    /// Exact powers of ten, 10^0 … 10^22.
    @usableFromInline package static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The value of a number made of these parts, or `nil` when only the text can say.
    /// `significand`: all its digits as an integer, valid when `exact` (no digit dropped, ≤
    /// 2^53) or `complete` (no digit dropped, ≤ 19 digits); `exponent`: after `e`, or 0.
    @inlinable @inline(__always)
    package static func fastValue(negative: Bool, significand: UInt64, exact: Bool, complete: Bool = false,
                          fractionDigits: Int, exponent: Int) -> Double? {
        let power = exponent - fractionDigits
        guard exact else {
            return complete ? extendedValue(negative: negative, significand: significand, power: power) : nil
        }
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

    #if arch(x86_64) && !os(Windows)
    /// 10^0 … 10^27 in extended precision, each exact: 5^k · 2^k with 5^k < 2^64.
    private static let extendedPowersOfTen: [Float80] = (0...27).map { k in
        var five: UInt64 = 1
        for _ in 0..<k { five &*= 5 }
        return Float80(sign: .plus, exponent: k, significand: Float80(five))
    }
    #endif

    /// `significand · 10^power` correctly rounded for |power| ≤ 27, or `nil`. In x87 extended
    /// precision both factors are exact and the one operation correctly rounded to 64 bits;
    /// rounding that to a double is correct unless it landed on a midpoint between two doubles
    /// (extra bits `100…0`): then `nil`, and the text decides. `nil` without `Float80`.
    @usableFromInline @inline(__always)
    static func extendedValue(negative: Bool, significand: UInt64, power: Int) -> Double? {
        #if arch(x86_64) && !os(Windows)
        guard power >= -27 && power <= 27 else { return nil }
        let scale = extendedPowersOfTen[abs(power)]
        let s = Float80(significand)
        let r = power >= 0 ? s * scale : s / scale
        if r.significandBitPattern & 0x7FF == 0x400 { return nil }
        let v = Double(r)
        return negative ? -v : v
        #else
        return nil
        #endif
    }

    /// The value of the eight ASCII digits at `p` (eight readable bytes), or `nil` when one is
    /// not a digit: one load and three multiplies (Lemire's SWAR, "Parsing numbers faster").
    @inlinable @inline(__always)
    package static func eightDigits(_ p: UnsafePointer<UInt8>) -> UInt64? {
        let v = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        // Every byte 0x30…0x39: high nibble 3, and still 3 after adding 6.
        guard v & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030,
              (v &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030 else { return nil }
        var x = v &- 0x3030_3030_3030_3030  // the first digit in the lowest byte
        x = (x &* 10 &+ (x >> 8)) & 0x00FF_00FF_00FF_00FF      // pairs
        x = (x &* 100 &+ (x >> 16)) & 0x0000_FFFF_0000_FFFF    // fours
        return (x &* 10000 &+ (x >> 32)) & 0xFFFF_FFFF         // eight
    }

    /// The correctly rounded value of any JSON number text; `nil` past the largest Double.
    package static func value(_ text: String) -> Double? {
        Double(text).flatMap { $0.isFinite ? $0 : nil }
    }
}
