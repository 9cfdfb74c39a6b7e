// Exact decimal formatting of Doubles (SPEC section 2), written straight into byte buffers:
// no String(format:), no NumberFormatter, no allocation on the common path.

import LayoutCore

/// Formats Doubles as SPEC section 2 prescribes: no exponent, no trailing zeros, `-0` as `0`.
///
/// ```
/// NumberFormat.string(2.675, precision: .decimals(2))  // "2.67" (2.675 is 2.67499999…)
/// NumberFormat.string(0.25, precision: .decimals(1))   // "0.3"  (an exact half: away from 0)
/// NumberFormat.string(-0.0001, precision: .decimals(3)) // "0"
/// ```
@usableFromInline package enum NumberFormat {
    /// The most bytes one number can take: `-`, 309 integer digits, `.`, and the 324 digits
    /// after the point of the smallest subnormal at `.full`.
    @usableFromInline package static let maximumLength = 640

    /// The formatted string (convenience for tests and messages; the writers use `write`).
    package static func string(_ value: Double, precision: NumberPrecision = .standard) -> String {
        var bytes: [UInt8] = []
        append(value, precision: precision, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` formatted at `precision` to `out`.
    static func append(_ value: Double, precision: NumberPrecision, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { scratch in
            let n = write(value, precision: precision, to: scratch.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress!, count: n))
        }
    }

    /// Writes `value` formatted at `precision` at `destination`, which must have room for
    /// `maximumLength` bytes, and returns the number of bytes written.
    /// Non-finite values never reach the writers (layouts are validated first); should one
    /// arrive it prints as `0` rather than as text that is not a number.
    /// - Complexity: O(digits); no allocation unless the value is ≥ 2⁶⁴ after scaling or
    ///   `precision` is `.full`.
    @inlinable @inline(__always)
    package static func write(_ value: Double, precision: NumberPrecision,
                             to destination: UnsafeMutablePointer<UInt8>) -> Int {
        if case .decimals(3) = precision {
            // The default precision and the usual magnitudes, inline: 2⁻¹¹ ≤ |value| < 2⁵²,
            // so value = m·2⁻ᵏ with 1 ≤ k ≤ 63 and m·1000 < 2⁶³.
            let k = 1075 &- Int(value.exponentBitPattern)
            if k >= 1 && k <= 63 { return writeThreeDecimals(value, shift: k, to: destination) }
        }
        guard value.isFinite else {
            destination.pointee = UInt8(ascii: "0")
            return 1
        }
        switch precision {
        case .full:
            // A value that is the double nearest to a decimal of at most 3 decimals and 15
            // digits (what a layout file holds at the default precision): those digits are
            // its shortest round-trip form (two decimals of ≤ 15 digits never round to the
            // same double), and `writeThreeDecimals` writes them, without a string.
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

    // MARK: - Fixed precision

    /// `writeFixed(value, decimals: 3, …)` for `value = ±m·2⁻ᵏ`, 1 ≤ k ≤ 63: N = m·1000/2ᵏ
    /// rounded half away from zero is `(m·1000 >> (k−1) + 1) >> 1`, one shift; then the
    /// integer digits and ".ddd" without its trailing zeros.
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
        let rest = Int(truncatingIfNeeded: fraction % 100)
        let text = 0x2E | UInt32(0x30 | fraction / 100) << 8 | UInt32(digitPair(rest)) << 16
        UnsafeMutableRawPointer(out + i).storeBytes(of: text, as: UInt32.self)
        return i + (rest == 0 ? 2 : rest % 10 == 0 ? 3 : 4)
    }

    /// The text `write(value, precision: .decimals(3), …)` writes, built in registers rather
    /// than stored byte by byte: for 2⁻¹¹ ≤ |value| < 10⁸ − 0.0005 and for whole numbers and
    /// halves below 10⁸ (at most 8 integer digits, so at most 13 bytes), the bytes in two
    /// little-endian words (the first character in the lowest byte of `low`; bytes past
    /// `length` are unspecified) and their count; `nil` outside that range. For a writer that
    /// both stores a number and keeps its text in a table: read back from memory, text just
    /// stored byte by byte waits for the stores.
    /// - Complexity: O(1), branch-free but for the range checks and the whole-number test.
    @inline(__always)
    static func threeDecimalsText(_ value: Double) -> (low: UInt64, high: UInt64, length: Int)? {
        // Whole numbers and halves (most coordinates of layouts with whole sizes) first: no
        // rounding, and no fraction digits but ".5".
        if let text = wholeOrHalfText(value) { return text }
        return fractionalText(value)
    }

    /// `threeDecimalsText` for a whole number or a half, |value| < 10⁸; `nil` for any other
    /// value. Apart, so that a writer can have it inline and the rest out of line.
    @inlinable @inline(__always)
    package static func wholeOrHalfText(_ value: Double) -> (low: UInt64, high: UInt64, length: Int)? {
        wholeOrHalfText(value, eightDigits: eightDigits)
    }

    /// `wholeOrHalfText(_:)` with the digits of the integer part from `eightDigits` (which
    /// must agree with `NumberFormat.eightDigits`: `DigitTable.eightDigits`, for a writer of
    /// many numbers).
    @inlinable @inline(__always)
    static func wholeOrHalfText(_ value: Double, eightDigits: (UInt64) -> UInt64) -> (low: UInt64, high: UInt64, length: Int)? {
        let twice = value.magnitude * 2  // exact (infinite past the largest Double: refused below)
        if twice < 200_000_000 {
            // 2⁵² + twice holds twice rounded to a whole number in its significand's bits: a
            // conversion without Int(_:)'s range checks.
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

    /// `threeDecimalsText` for a value that is not a whole number or a half below 10⁸, for a
    /// writer that tried `wholeOrHalfText` first; `nil` outside `threeDecimalsText`'s range
    /// (and for 0, which `wholeOrHalfText` writes).
    @inlinable @inline(__always)
    package static func fractionalText(_ value: Double) -> (low: UInt64, high: UInt64, length: Int)? {
        fractionalText(value, eightDigits: eightDigits)
    }

    /// `fractionalText(_:)` with the digits of the integer part from `eightDigits` (see
    /// `wholeOrHalfText(_:eightDigits:)`).
    @inlinable @inline(__always)
    static func fractionalText(_ value: Double, eightDigits: (UInt64) -> UInt64) -> (low: UInt64, high: UInt64, length: Int)? {
        let k = 1075 &- Int(value.exponentBitPattern)
        guard k >= 1 && k <= 63 else { return nil }
        let m = value.significandBitPattern | 1 << 52
        let n = ((m &* 1000) >> UInt64(k &- 1) &+ 1) >> 1  // |value|·1000, halves away from zero
        guard n < 100_000_000_000 else { return nil }
        if n == 0 { return (UInt64(UInt8(ascii: "0")), 0, 1) }  // rounds to zero: no sign
        let integer = n / 1000, fraction = n % 1000
        // The integer part's eight digits without their leading zeros (but one digit for 0).
        let digits = eightDigits(integer)
        let leadingZeroBits = leadingZeroDigitBits(digits)
        let integerText = (digits | 0x3030_3030_3030_3030) &>> UInt64(leadingZeroBits)
        let integerBits = 64 &- leadingZeroBits
        // ".ddd" and its length without trailing zeros (none at all for a whole number).
        let rest = Int(truncatingIfNeeded: fraction % 100)
        let fractionText = 0x2E | (0x30 | fraction / 100) << 8 | UInt64(digitPair(rest)) << 16
        let fractionLength = fraction == 0 ? 0 : rest == 0 ? 2 : rest % 10 == 0 ? 3 : 4
        var low = integerText | shiftedUp(fractionText, by: integerBits)
        var high = fractionText &>> UInt64(64 &- integerBits)
        var length = integerBits >> 3 &+ fractionLength
        if value < 0 {
            high = high << 8 | low >> 56
            low = low << 8 | UInt64(UInt8(ascii: "-"))
            length &+= 1
        }
        return (low, high, length)
    }

    /// The digits of `n` < 10⁸ without leading zeros (one digit for 0): the bytes of a
    /// little-endian UInt64, the first digit in the lowest byte (zeros past `length`), and
    /// their count. For `CountingDigits`, when a number is not the last one's successor.
    @inline(__always)
    static func shortDigitsText(_ n: UInt64) -> (text: UInt64, length: Int) {
        let digits = eightDigits(n)
        let leadingZeroBits = leadingZeroDigitBits(digits)
        return ((digits | 0x3030_3030_3030_3030) &>> UInt64(leadingZeroBits), 8 &- leadingZeroBits >> 3)
    }

    /// The bits of `eightDigits`' leading zero digits (8 per digit), all but the last digit
    /// at most (56): a zero is written as one digit.
    @inlinable @inline(__always)
    static func leadingZeroDigitBits(_ digits: UInt64) -> Int {
        // The mark in the last digit's lowest bit stops the count there.
        (digits | 1 << 56).trailingZeroBitCount & ~7
    }

    /// `bits << shift` for 8 ≤ `shift` ≤ 64, 0 at 64, without the check a shift by a
    /// run-time amount gets in Swift: two shifts whose amounts are each below 64.
    @inlinable @inline(__always)
    static func shiftedUp(_ bits: UInt64, by shift: Int) -> UInt64 {
        (bits &<< UInt64(shift &- 8)) &<< 8
    }

    @usableFromInline static func writeFixed(_ value: Double, decimals p: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Integers (most coordinates: 0, 1, 390) print as they are.
        let magnitude = value.magnitude
        if magnitude < 9.0e15, Double(UInt64(magnitude)) == magnitude {
            let n = UInt64(magnitude)
            if n == 0 {
                out.pointee = UInt8(ascii: "0")
                return 1
            }
            var i = 0
            if value < 0 {
                out.pointee = UInt8(ascii: "-")
                i = 1
            }
            return i + writeDigits(n, to: out + i)
        }
        // value = m · 2^e exactly.
        let m: UInt64, e: Int
        if magnitude.exponentBitPattern == 0 {
            m = magnitude.significandBitPattern
            e = -1074
        } else {
            m = magnitude.significandBitPattern | (1 << 52)
            e = Int(magnitude.exponentBitPattern) - 1075
        }
        var i = 0
        if e >= 0 {
            // An integer ≥ 2^53: no fraction to round.
            if value < 0 {
                out.pointee = UInt8(ascii: "-")
                i = 1
            }
            if e <= 74 { return i + writeDigits(UInt128(m) << UInt128(e), to: out + i) }
            var digits: [UInt8] = []
            appendBigIntegerDigits(m, shift: e, to: &digits)
            digits.withUnsafeBufferPointer { (out + i).update(from: $0.baseAddress!, count: $0.count) }
            return i + digits.count
        }
        // N = round(m · 10^p / 2^k), ties away from zero; m·10^p < 2^53·10^15 < 2^103.
        let k = -e
        let power = powerOfTen(p)
        if value < 0 {
            out.pointee = UInt8(ascii: "-")
            i = 1
        }
        let integerPart: UInt64, fractionPart: UInt64
        if p <= 3 && k < 64 {
            // The common case (3 decimals, |value| ≥ 2^-11): m·10^p < 2^63 fits in 64 bits.
            let scaled = m &* power
            let q = scaled >> UInt64(k)
            let remainder = scaled & ((1 << UInt64(k)) &- 1)
            let n = remainder >= (1 << UInt64(k - 1)) ? q + 1 : q
            (integerPart, fractionPart) = split(n, decimals: p)
        } else if k >= 104 {
            (integerPart, fractionPart) = (0, 0)
        } else {
            let scaled = UInt128(m) * UInt128(power)
            let q = scaled >> UInt128(k)
            let remainder = scaled & ((1 << UInt128(k)) - 1)
            let n = remainder >= (1 << UInt128(k - 1)) ? q + 1 : q
            if n >> 64 == 0 {
                (integerPart, fractionPart) = split(UInt64(n), decimals: p)
            } else {
                // ≥ 2^64 after scaling: the integer part still fits in 64 bits (< 2^103 / 10^p
                // needs p ≥ 12 here, so it is < 2^63).
                integerPart = UInt64(n / UInt128(power))
                fractionPart = UInt64(n % UInt128(power))
            }
        }
        if integerPart == 0 && fractionPart == 0 {
            // Rounds to zero: no sign.
            out.pointee = UInt8(ascii: "0")
            return 1
        }
        i += writeDigits(integerPart, to: out + i)
        guard fractionPart != 0 else { return i }
        if p == 3 {
            // ".ddd" in one store, then the length without its trailing zeros.
            let rest = Int(truncatingIfNeeded: fractionPart % 100)
            let text = 0x2E | UInt32(0x30 | fractionPart / 100) << 8 | UInt32(digitPair(rest)) << 16
            UnsafeMutableRawPointer(out + i).storeBytes(of: text, as: UInt32.self)
            return i + (rest == 0 ? 2 : rest % 10 == 0 ? 3 : 4)
        }
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

    /// 10^p for p in 0…19 (the powers that fit in a UInt64), as constants: a table the
    /// compiler builds, no lazy global on the hot path.
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

    /// `n` split into its integer part and its last `p` digits; constant divisors for the
    /// usual precisions so the compiler multiplies instead of dividing.
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

    /// "00" … "99": two ASCII digits at offset 2·n, read in place (a literal: no lazy
    /// initialisation to check, no array).
    @inlinable @inline(__always)
    static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// The two ASCII digits of `n` < 100 as one little-endian UInt16.
    @inlinable @inline(__always)
    static func digitPair(_ n: Int) -> UInt16 {
        UnsafeRawPointer(digitPairs.utf8Start + 2 * n).loadUnaligned(as: UInt16.self)
    }

    /// Writes the decimal digits of `n` at `out`; returns their count. May store up to 8
    /// bytes past the last digit when `n` has fewer than 8 digits (the callers' buffers have
    /// room for a whole number).
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
            length = high < 10 ? writeSingleDigit(high, to: out) : writeShortDigits(high, to: out)
        } else {
            let top = high / 100_000_000  // < 1845: n < 2^64
            length = top < 10 ? writeSingleDigit(top, to: out) : writeShortDigits(top, to: out)
            storeEightDigits(high % 100_000_000, to: out + length)
            length += 8
        }
        storeEightDigits(n % 100_000_000, to: out + length)
        return length + 8
    }

    @inlinable @inline(__always)
    static func writeSingleDigit(_ n: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n)
        return 1
    }

    /// The 8 decimal digits of `n` < 10⁸ (zero-padded) as the bytes 0…9 of a UInt64, the most
    /// significant digit in the lowest byte, so that a little-endian store writes them in
    /// reading order. Two steps of division by a constant on all lanes at once (SWAR): 4-digit
    /// halves in 32-bit lanes split by 100 (`· 10486 >> 20`, exact below 10⁴), then 2-digit
    /// quarters in 16-bit lanes split by 10 (`· 103 >> 10`, exact below 100); no lane's
    /// product reaches the next lane. The first split, by 10⁴, is a multiply and a shift too,
    /// where `/` would be a 128-bit multiply, done twice: n · ⌈2⁴⁰ / 10⁴⌉ / 2⁴⁰ exceeds
    /// n / 10⁴ by n · 2,224 / (10⁴ · 2⁴⁰) < 2.1·10⁻⁵, and the fraction of n / 10⁴ is at
    /// most 0.9999, so the floors agree (checked for every n < 10⁸).
    @inlinable @inline(__always)
    static func eightDigits(_ n: UInt64) -> UInt64 {
        let high = (n &* 109_951_163) >> 40
        var x = high | (n &- high &* 10_000) << 32
        let hundreds = ((x &* 10_486) >> 20) & 0x0000_007F_0000_007F
        x = hundreds | (x &- hundreds &* 100) << 16
        let tens = ((x &* 103) >> 10) & 0x000F_000F_000F_000F
        return tens | (x &- tens &* 10) << 8
    }

    /// Writes `n` < 10⁸ as exactly 8 digits, zero-padded.
    @inlinable @inline(__always)
    static func storeEightDigits(_ n: UInt64, to out: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(out).storeBytes(of: (eightDigits(n) | 0x3030_3030_3030_3030).littleEndian, as: UInt64.self)
    }

    /// Writes 10 ≤ `n` < 10⁸ without leading zeros (one 8-byte store, shifted past the
    /// leading zeros); returns the digit count.
    @inlinable @inline(__always)
    static func writeShortDigits(_ n: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let digits = eightDigits(n)
        let leadingZeros = digits.trailingZeroBitCount & ~7  // in bits: 8 per zero digit
        let text = (digits | 0x3030_3030_3030_3030) &>> UInt64(leadingZeros)  // n ≥ 10: at most 48
        UnsafeMutableRawPointer(out).storeBytes(of: text.littleEndian, as: UInt64.self)
        return 8 - leadingZeros >> 3
    }

    /// Writes the decimal digits of a 128-bit `n`; returns their count.
    static func writeDigits(_ n: UInt128, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if n >> 64 == 0 { return writeDigits(UInt64(n), to: out) }
        // Split into 19-digit chunks.
        let chunk = UInt128(powerOfTen(19))
        let high = writeDigits(n / chunk, to: out)
        let low = UInt64(n % chunk)
        let lowLength = writeDigits(low, to: out + high)
        // Zero-pad the low chunk to 19 digits.
        if lowLength < 19 {
            let shift = 19 - lowLength
            (out + high + shift).update(from: out + high, count: lowLength)
            (out + high).update(repeating: UInt8(ascii: "0"), count: shift)
        }
        return high + 19
    }

    /// Appends the decimal digits of `n` (for integers the writers print).
    static func appendDigits(_ n: UInt64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            let count = writeDigits(n, to: scratch.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress!, count: count))
        }
    }

    private static func appendPadded(_ n: UInt64, width: Int, to out: inout [UInt8]) {
        var width = width
        var probe = n
        while probe >= 10 {
            probe /= 10
            width -= 1
        }
        for _ in 1..<max(width, 1) { out.append(UInt8(ascii: "0")) }
        appendDigits(n, to: &out)
    }

    /// Digits of `m · 2^shift` for values past UInt128, with 32-bit limbs (rare: ≥ 2¹²⁷).
    private static func appendBigIntegerDigits(_ m: UInt64, shift: Int, to out: inout [UInt8]) {
        // Little-endian limbs.
        var limbs: [UInt32] = [UInt32(truncatingIfNeeded: m), UInt32(truncatingIfNeeded: m >> 32)]
        let wordShift = shift / 32, bitShift = shift % 32
        if bitShift > 0 {
            var carry: UInt32 = 0
            for i in limbs.indices {
                let v = limbs[i]
                limbs[i] = (v << UInt32(bitShift)) | carry
                carry = v >> UInt32(32 - bitShift)
            }
            if carry != 0 { limbs.append(carry) }
        }
        limbs.insert(contentsOf: repeatElement(0, count: wordShift), at: 0)
        // Repeated division by 10^9, collecting 9-digit chunks.
        var chunks: [UInt32] = []
        while !(limbs.count == 1 && limbs[0] == 0) && !limbs.isEmpty {
            var remainder: UInt64 = 0
            for i in stride(from: limbs.count - 1, through: 0, by: -1) {
                let current = (remainder << 32) | UInt64(limbs[i])
                limbs[i] = UInt32(current / 1_000_000_000)
                remainder = current % 1_000_000_000
            }
            chunks.append(UInt32(remainder))
            while limbs.count > 1 && limbs.last == 0 { limbs.removeLast() }
        }
        appendDigits(UInt64(chunks.last ?? 0), to: &out)
        for chunk in chunks.dropLast().reversed() {
            appendPadded(UInt64(chunk), width: 9, to: &out)
        }
    }

    // MARK: - Shortest round-trip

    /// Swift's `description` is the shortest round-trip representation; rewrite its optional
    /// exponent (`1e-05`, `1.5e+20`) as a plain decimal.
    @usableFromInline static func writeShortest(_ value: Double, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        var out: [UInt8] = []
        appendShortest(value, to: &out)
        out.withUnsafeBufferPointer { destination.update(from: $0.baseAddress!, count: $0.count) }
        return out.count
    }

    private static func appendShortest(_ value: Double, to out: inout [UInt8]) {
        if value == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        let text = Array(value.description.utf8)
        var negative = false
        var digits: [UInt8] = []
        var pointPosition: Int? = nil
        var exponent = 0
        var i = 0
        if text.first == UInt8(ascii: "-") {
            negative = true
            i = 1
        }
        while i < text.count {
            let c = text[i]
            if c == UInt8(ascii: ".") {
                pointPosition = digits.count
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                exponent = Int(String(decoding: text[(i + 1)...], as: UTF8.self)) ?? 0
                break
            } else {
                digits.append(c)
            }
            i += 1
        }
        // value = 0.d1d2d3… · 10^(point) with point = position of the decimal point.
        var point = (pointPosition ?? digits.count) + exponent
        // Normalise: drop leading zeros (moving the point) and trailing zeros.
        while digits.first == UInt8(ascii: "0") && digits.count > 1 {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == UInt8(ascii: "0") && digits.count > 1 { digits.removeLast() }
        if negative { out.append(UInt8(ascii: "-")) }
        if point <= 0 {
            out.append(UInt8(ascii: "0"))
            out.append(UInt8(ascii: "."))
            for _ in 0..<(-point) { out.append(UInt8(ascii: "0")) }
            out.append(contentsOf: digits)
        } else if point >= digits.count {
            out.append(contentsOf: digits)
            for _ in 0..<(point - digits.count) { out.append(UInt8(ascii: "0")) }
        } else {
            out.append(contentsOf: digits[..<point])
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: digits[point...])
        }
    }
}

/// The digits of every number below 10⁴, four bytes each (the thousands digit in the lowest
/// byte, digit values, not characters), 40 KB built on first use: a number below 10⁸ is two
/// lookups, where `NumberFormat.eightDigits` computes its digits in about 25 instructions.
/// For writers of many numbers, which read the table once and pass it to `eightDigits`.
@usableFromInline package enum DigitTable {
    /// The table, built once (about 10⁴ stores) and kept for the process.
    package nonisolated(unsafe) static let digits: UnsafePointer<UInt32> = {  // only read once built
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 10_000)
        var k = 0
        for thousands in UInt32(0)..<10 {
            for hundreds in UInt32(0)..<10 {
                for tens in UInt32(0)..<10 {
                    for units in UInt32(0)..<10 {
                        table[k] = thousands | hundreds << 8 | tens << 16 | units << 24
                        k += 1
                    }
                }
            }
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

/// The digits of the integers a writer writes one after another, most of them one more than
/// the one before (an element's item, row after row): such a number's text is the last one
/// with its last digit incremented, one addition, unless that digit is a 9.
package struct CountingDigits {
    private var last = -2  // so that no number is taken for the next one at first
    private var text: UInt64 = 0
    private var length = 0

    /// Counting digits that have seen no number yet.
    package init() {}

    /// The digits of `n` as `NumberFormat.shortDigitsText` gives them, for 0 ≤ `n` < 10⁸;
    /// `nil` otherwise. - Complexity: O(1).
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
