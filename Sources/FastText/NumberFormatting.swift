import Foundation
import LayoutCore

/// Formats Doubles as SPEC section 2 prescribes, straight into byte buffers: no exponent, no trailing
/// zeros, `-0` as `0`, the exact binary value rounded half away from zero (2.675 at 2 decimals: `2.67`).
@usableFromInline package enum NumberFormat {
    /// The most bytes one number takes: `-`, 309 integer digits, `.`, and a subnormal's 324 decimals.
    @usableFromInline package static let maximumLength = 640

    /// The formatted string (for tests and messages; the writers use `write`).
    package static func string(_ value: Double, precision: NumberPrecision = .standard) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { scratch in
            let n = write(value, precision: precision, to: scratch.baseAddress!)
            return String(decoding: UnsafeBufferPointer(start: scratch.baseAddress!, count: n), as: UTF8.self)
        }
    }

    /// Writes `value` at `precision` at `destination` (room for `maximumLength` bytes) and
    /// returns the bytes' count. A non-finite value (layouts are validated first) prints `0`.
    /// - Complexity: O(digits); no allocation but for |value| ≥ 9·10¹⁵ or at `.full`.
    @inlinable @inline(__always)
    package static func write(_ value: Double, precision: NumberPrecision,
                             to destination: UnsafeMutablePointer<UInt8>) -> Int {
        if case .decimals(3) = precision {
            // Inline for 2⁻¹¹ ≤ |value| < 2⁵²: value = m·2⁻ᵏ, 1 ≤ k ≤ 63, m·1000 < 2⁶³.
            let k = 1075 &- Int(value.exponentBitPattern)
            if k >= 1 && k <= 63 { return writeThreeDecimals(value, shift: k, to: destination) }
        }
        guard value.isFinite else {
            destination.pointee = UInt8(ascii: "0")
            return 1
        }
        switch precision {
        case .full:
            // A layout file's numbers (≤ 3 decimals, ≤ 15 digits): their digits are the shortest form.
            let k = 1075 &- Int(value.exponentBitPattern)
            if k >= 1 && k <= 63 {
                let m = value.significandBitPattern | 1 << 52
                let n = ((m &* 1000) >> UInt64(k &- 1) &+ 1) >> 1
                if n < 1_000_000_000_000_000 && Double(n) / 1000 == value.magnitude {
                    return writeThreeDecimals(value, shift: k, to: destination)
                }
            }
            return writeShortest(value, to: destination)
        case .decimals(let p): return writeFixed(value, decimals: max(0, min(p, 15)), to: destination)
        }
    }

    /// `writeFixed(value, decimals: 3, …)` for `value = ±m·2⁻ᵏ`, 1 ≤ k ≤ 63: N = m·1000/2ᵏ
    /// rounded half away from zero is `(m·1000 >> (k−1) + 1) >> 1`.
    @inlinable @inline(__always)
    static func writeThreeDecimals(_ value: Double, shift k: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let m = value.significandBitPattern | 1 << 52
        let n = ((m &* 1000) >> UInt64(k &- 1) &+ 1) >> 1
        if n == 0 {
            out.pointee = UInt8(ascii: "0")  // rounds to zero: no sign
            return 1
        }
        var i = 0
        if value < 0 {
            out.pointee = UInt8(ascii: "-")
            i = 1
        }
        let fraction = n % 1000
        i += writeDigits(n / 1000, to: out + i)
        guard fraction != 0 else { return i }
        return i + writePointThreeDigits(fraction, to: out + i)
    }

    /// `.ddd` for `fraction` < 1000 without trailing zeros (nothing for 0): 4 bytes stored; returns the length.
    @inlinable @inline(__always)
    static func writePointThreeDigits(_ fraction: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let text = pointThreeDigits(fraction)
        UnsafeMutableRawPointer(out).storeBytes(of: UInt32(truncatingIfNeeded: text.text), as: UInt32.self)
        return text.length
    }

    /// `.ddd` for `fraction` < 1000 as little-endian bytes, and its length without trailing zeros.
    @inlinable @inline(__always)
    static func pointThreeDigits(_ fraction: UInt64) -> (text: UInt64, length: Int) {
        let rest = Int(truncatingIfNeeded: fraction % 100)
        let text = 0x2E | (0x30 | fraction / 100) << 8 | UInt64(digitPair(rest)) << 16
        return (text, fraction == 0 ? 0 : rest == 0 ? 2 : rest % 10 == 0 ? 3 : 4)
    }

    /// The text `write(value, precision: .decimals(3), …)` writes, built in registers (for a
    /// writer that also keeps it in a table), for a whole number or a half, |value| < 10⁸: at
    /// most 13 bytes in two little-endian words (bytes past `length` unspecified); `nil`
    /// otherwise; the integer digits from `eightDigits` (`DigitTable`'s, say). - Complexity: O(1).
    @inlinable @inline(__always)
    package static func wholeOrHalfText(_ value: Double, eightDigits: (UInt64) -> UInt64 = NumberFormat.eightDigits)
        -> (low: UInt64, high: UInt64, length: Int)? {
        let twice = value.magnitude * 2  // exact (infinite past the largest Double: refused below)
        if twice < 200_000_000 {
            // 2⁵² + twice holds twice, rounded, in its significand: no Int(_:) range checks.
            let shifted = twice + 4_503_599_627_370_496
            if shifted - 4_503_599_627_370_496 == twice {
                let halves = shifted.significandBitPattern
                let digits = eightDigits(halves >> 1)
                let leadingZeroBits = leadingZeroDigitBits(digits)
                let integerBits = 64 &- leadingZeroBits
                var low = (digits | 0x3030_3030_3030_3030) &>> UInt64(leadingZeroBits)
                let half = halves & 1
                let point = half &* UInt64(0x352E)  // ".5"
                var high = point &>> UInt64(64 &- integerBits)
                low |= shiftedUp(point, by: integerBits)
                var length = integerBits >> 3 &+ 2 &* Int(truncatingIfNeeded: half)
                if value < 0 && halves != 0 {
                    high = high << 8 | low >> 56
                    low = low << 8 | UInt64(UInt8(ascii: "-"))
                    length &+= 1
                }
                return (low, high, length)
            }
        }
        return nil
    }

    /// `wholeOrHalfText` for the values it leaves, 2⁻¹¹ ≤ |value| < 10⁸ − 0.0005; `nil` outside.
    @inlinable @inline(__always)
    package static func fractionalText(_ value: Double, eightDigits: (UInt64) -> UInt64 = NumberFormat.eightDigits)
        -> (low: UInt64, high: UInt64, length: Int)? {
        let k = 1075 &- Int(value.exponentBitPattern)
        guard k >= 1 && k <= 63 else { return nil }
        let m = value.significandBitPattern | 1 << 52
        let n = ((m &* 1000) >> UInt64(k &- 1) &+ 1) >> 1  // |value|·1000, halves away from zero
        guard n < 100_000_000_000 else { return nil }
        if n == 0 { return (UInt64(UInt8(ascii: "0")), 0, 1) }  // rounds to zero: no sign
        let integer = n / 1000, fraction = n % 1000
        let digits = eightDigits(integer)
        let leadingZeroBits = leadingZeroDigitBits(digits)
        let integerText = (digits | 0x3030_3030_3030_3030) &>> UInt64(leadingZeroBits)
        let integerBits = 64 &- leadingZeroBits
        let point = pointThreeDigits(fraction)
        var low = integerText | shiftedUp(point.text, by: integerBits)
        var high = point.text &>> UInt64(64 &- integerBits)
        var length = integerBits >> 3 &+ point.length
        if value < 0 {
            high = high << 8 | low >> 56
            low = low << 8 | UInt64(UInt8(ascii: "-"))
            length &+= 1
        }
        return (low, high, length)
    }

    /// The digits of `n` < 10⁸ without leading zeros (one for 0), little-endian, and their count.
    @inlinable @inline(__always)
    package static func shortDigitsText(_ n: UInt64) -> (text: UInt64, length: Int) {
        let digits = eightDigits(n)
        let leadingZeroBits = leadingZeroDigitBits(digits)
        return ((digits | 0x3030_3030_3030_3030) &>> UInt64(leadingZeroBits), 8 &- leadingZeroBits >> 3)
    }

    /// The bits of `eightDigits`' leading zero digits (8 per digit), at most 56 (0 is "0").
    @inlinable @inline(__always)
    static func leadingZeroDigitBits(_ digits: UInt64) -> Int {
        (digits | 1 << 56).trailingZeroBitCount & ~7
    }

    /// `bits << shift` for 8 ≤ `shift` ≤ 64 (0 at 64), without Swift's check of the amount.
    @inlinable @inline(__always)
    static func shiftedUp(_ bits: UInt64, by shift: Int) -> UInt64 {
        (bits &<< UInt64(shift &- 8)) &<< 8
    }

    @usableFromInline static func writeFixed(_ value: Double, decimals p: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = value.magnitude
        var i = 0
        if value < 0 {  // taken back below when the value rounds to zero
            out.pointee = UInt8(ascii: "-")
            i = 1
        }
        if magnitude >= 9.0e15 {
            // A whole number (doubles ≥ 2⁵² have no fraction): its exact digits, from printf (rare).
            return i + (out + i).withMemoryRebound(to: CChar.self, capacity: maximumLength) { text in
                withVaList([magnitude]) { Int(vsnprintf(text, maximumLength, "%.0f", $0)) }
            }
        }
        // Integers (most coordinates: 0, 1, 390) print as they are.
        if Double(UInt64(magnitude)) == magnitude { return i + writeDigits(UInt64(magnitude), to: out + i) }
        let subnormal = magnitude.exponentBitPattern == 0
        let m = subnormal ? magnitude.significandBitPattern : magnitude.significandBitPattern | 1 << 52
        let k = subnormal ? 1074 : 1075 - Int(magnitude.exponentBitPattern)  // value = m · 2⁻ᵏ exactly
        // N = round(m · 10^p / 2^k), ties away from zero; m·10^p < 2^53·10^15 < 2^103.
        let power = powerOfTen(p)
        let integerPart: UInt64, fractionPart: UInt64
        if p <= 3 && k < 64 {
            // The common case (3 decimals, |value| ≥ 2^-11): m·10^p < 2^63 fits in 64 bits.
            (integerPart, fractionPart) = split(((m &* power) >> UInt64(k - 1) + 1) >> 1, decimals: p)
        } else if k >= 104 {
            (integerPart, fractionPart) = (0, 0)
        } else {
            let n = ((UInt128(m) * UInt128(power)) >> UInt128(k - 1) + 1) >> 1
            if n >> 64 == 0 {
                (integerPart, fractionPart) = split(UInt64(n), decimals: p)
            } else {
                // ≥ 2^64 after scaling, so p ≥ 12: the integer part, < 2^103 / 10^p, fits in 64 bits.
                integerPart = UInt64(n / UInt128(power))
                fractionPart = UInt64(n % UInt128(power))
            }
        }
        if integerPart == 0 && fractionPart == 0 {
            out.pointee = UInt8(ascii: "0")  // rounds to zero: no sign
            return 1
        }
        i += writeDigits(integerPart, to: out + i)
        guard fractionPart != 0 else { return i }
        if p == 3 { return i + writePointThreeDigits(fractionPart, to: out + i) }
        // Drop trailing zeros, then write the rest zero-padded to its width.
        var fraction = fractionPart
        var digits = p
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        out[i] = UInt8(ascii: ".")
        i += 1
        var j = i + digits
        while j > i {
            j -= 1
            out[j] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
            fraction /= 10
        }
        return i + digits
    }

    /// 10^p for p in 0…19, as constants (no lazy global).
    @inlinable @inline(__always)
    package static func powerOfTen(_ p: Int) -> UInt64 {
        switch p {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// `n` split into its integer part and its last `p` digits (constant divisors for the usual `p`).
    @inline(__always)
    private static func split(_ n: UInt64, decimals p: Int) -> (UInt64, UInt64) {
        switch p {
        case 0: return (n, 0)
        case 1: return (n / 10, n % 10)
        case 2: return (n / 100, n % 100)
        case 3: return (n / 1000, n % 1000)
        default: return (n / powerOfTen(p), n % powerOfTen(p))
        }
    }

    /// The two ASCII digits of `n` < 100 as one little-endian UInt16 (a literal: no lazy global).
    @inlinable @inline(__always)
    static func digitPair(_ n: Int) -> UInt16 {
        let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        return UnsafeRawPointer(pairs.utf8Start + 2 * n).loadUnaligned(as: UInt16.self)
    }

    /// Writes the digits of `n` at `out` (up to 8 bytes stored past them); returns their count.
    @inlinable @inline(__always)
    package static func writeDigits(_ n: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if n < 10 {
            out.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n)
            return 1
        }
        if n < 100_000_000 { return writeShortDigits(n, to: out) }
        // The digits before the last eight, then those eight zero-padded.
        let high = n / 100_000_000
        var length: Int
        if high < 100_000_000 {
            length = writeShortDigits(high, to: out)
        } else {
            length = writeShortDigits(high / 100_000_000, to: out)  // < 1845: n < 2^64
            storeEightDigits(high % 100_000_000, to: out + length)
            length += 8
        }
        storeEightDigits(n % 100_000_000, to: out + length)
        return length + 8
    }

    /// The 8 digits of `n` < 10⁸ (zero-padded, values 0…9) in the bytes of a UInt64, the
    /// first in the lowest byte. SWAR: split by 10⁴ (`· ⌈2⁴⁰/10⁴⌉ >> 40`: the error, below
    /// 2.1·10⁻⁵, never crosses a whole number below 10⁸), then in 32-bit lanes by 100
    /// (`· 10486 >> 20`), then in 16-bit lanes by 10 (`· 103 >> 10`), exact in their ranges.
    @inlinable @inline(__always)
    static func eightDigits(_ n: UInt64) -> UInt64 {
        let high = (n &* 109_951_163) >> 40
        var x = high | (n &- high &* 10_000) << 32
        let hundreds = ((x &* 10_486) >> 20) & 0x0000_007F_0000_007F
        x = hundreds | (x &- hundreds &* 100) << 16
        let tens = ((x &* 103) >> 10) & 0x000F_000F_000F_000F
        return tens | (x &- tens &* 10) << 8
    }

    @inlinable @inline(__always)
    static func storeEightDigits(_ n: UInt64, to out: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(out).storeBytes(of: (eightDigits(n) | 0x3030_3030_3030_3030).littleEndian, as: UInt64.self)
    }

    /// Writes `n` < 10⁸ without leading zeros (one 8-byte store); returns the digit count.
    @inlinable @inline(__always)
    static func writeShortDigits(_ n: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let digits = shortDigitsText(n)
        UnsafeMutableRawPointer(out).storeBytes(of: digits.text.littleEndian, as: UInt64.self)
        return digits.length
    }

    /// `shortestText`, written.
    @usableFromInline static func writeShortest(_ value: Double, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        var text = shortestText(value)
        return text.withUTF8 { bytes in
            destination.update(from: bytes.baseAddress!, count: bytes.count)
            return bytes.count
        }
    }

    /// The shortest round-trip digits of `value` (`description`) without an exponent: `1e-05`
    /// as `0.00001`, `1.5e+20` as `150000000000000000000`; `0` for zero and -0.
    package static func shortestText(_ value: Double) -> String {
        guard value != 0 else { return "0" }
        let text = value.magnitude.description
        let mantissa = text.prefix { $0 != "e" }
        let exponent = text.contains("e") ? Int(text.drop { $0 != "e" }.dropFirst())! : 0
        let point = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        // value = 0.DIGITS · 10^(point + exponent)
        var digits = Array(mantissa.filter { $0 != "." })
        var position = point + exponent
        while digits.count > 1 && digits.first == "0" {
            digits.removeFirst()
            position -= 1
        }
        while digits.count > 1 && digits.last == "0" { digits.removeLast() }
        let body: String
        if position <= 0 {
            body = "0." + String(repeating: "0", count: -position) + String(digits)
        } else if position >= digits.count {
            body = String(digits) + String(repeating: "0", count: position - digits.count)
        } else {
            body = String(digits[..<position]) + "." + String(digits[position...])
        }
        return (value < 0 ? "-" : "") + body
    }
}

/// The digits of every number below 10⁴, four bytes each (values 0…9, the first lowest), 40 KB built
/// on first use: a number below 10⁸ in two lookups rather than `NumberFormat.eightDigits`' 25 instructions.
@usableFromInline package enum DigitTable {
    package nonisolated(unsafe) static let digits: UnsafePointer<UInt32> = {  // only read once built
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 10_000)
        for n in UInt32(0)..<10_000 {
            table[Int(n)] = n / 1000 | (n / 100 % 10) << 8 | (n / 10 % 10) << 16 | (n % 10) << 24
        }
        return UnsafePointer(table)
    }()

    /// `NumberFormat.eightDigits(n)` for `n` < 10⁸, from `table` (`digits`).
    @inlinable @inline(__always)
    static func eightDigits(_ n: UInt64, _ table: UnsafePointer<UInt32>) -> UInt64 {
        let high = (n &* 109_951_163) >> 40  // n / 10⁴: see `NumberFormat.eightDigits`
        let low = n &- high &* 10_000
        return UInt64(table[Int(truncatingIfNeeded: high)]) | UInt64(table[Int(truncatingIfNeeded: low)]) << 32
    }
}

/// The digits of integers written one after another, most of them one more than the last
/// (an element's item): the last text with its last digit incremented, unless that is a 9.
@usableFromInline package struct CountingDigits {
    @usableFromInline var last = -2  // so that no number is taken for the next one at first
    @usableFromInline var text: UInt64 = 0
    @usableFromInline var length = 0

    package init() {}

    /// `NumberFormat.shortDigitsText(n)` for 0 ≤ `n` < 10⁸; `nil` otherwise. - Complexity: O(1).
    @inlinable @inline(__always)
    package mutating func digits(_ n: Int) -> (text: UInt64, length: Int)? {
        guard UInt(bitPattern: n) < 100_000_000 else { return nil }
        let lastDigit = UInt64(truncatingIfNeeded: length &- 1) &<< 3
        if n == last &+ 1 && (text &>> lastDigit) & 0xFF != UInt64(UInt8(ascii: "9")) {
            text &+= 1 &<< lastDigit
        } else {
            (text, length) = NumberFormat.shortDigitsText(UInt64(n))
        }
        last = n
        return (text, length)
    }
}
