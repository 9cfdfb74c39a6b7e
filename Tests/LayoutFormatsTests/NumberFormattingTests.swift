import Testing
@testable import FastText
import LayoutCore

struct NumberFormattingTests {
    @Test(arguments: [
        // (value, decimals, expected)
        (2.675, 2, "2.67"),        // stored as 2.67499999999999982236431605997495353221893310546875
        (0.25, 1, "0.3"),          // exact half: away from zero
        (-0.25, 1, "-0.3"),
        (0.125, 2, "0.13"),
        (1.005, 2, "1"),           // 1.00499999999999989341858963598497211933135986328125
        (1.5, 0, "2"),
        (2.5, 0, "3"),
        (-2.5, 0, "-3"),
        (0.1, 3, "0.1"),
        (123.333333333, 3, "123.333"),
        (61.6666666667, 3, "61.667"),
        (-0.0, 3, "0"),
        (-0.0004, 3, "0"),         // rounds to zero: no "-0"
        (-0.0005, 3, "-0.001"),    // 0.0005 is 5.000000000000000104e-4: above the half
        (100, 3, "100"),
        (1e21, 3, "1000000000000000000000"),
        (1e-7, 15, "0.0000001"),
        (0.000123, 6, "0.000123"),
        (.leastNonzeroMagnitude, 15, "0"),  // 5e-324
        (Double(sign: .plus, exponent: 53, significand: 1), 0, "9007199254740992"),  // what 9007199254740993 reads as
        (1.7976931348623157e308, 0, "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"),
        (0.5, 0, "1"),
        (0.49999999999999994, 0, "0"),
        (1234.5678, 15, "1234.567800000000034"),  // exact: 1234.5678000000000338332…
    ] as [(Double, Int, String)])
    func fixedPrecision(_ value: Double, _ decimals: Int, _ expected: String) {
        #expect(NumberFormat.string(value, precision: .decimals(decimals)) == expected)
    }

    @Test(arguments: [
        (0.1, "0.1"),
        (1e-5, "0.00001"),
        (1.5e20, "150000000000000000000"),
        (123.456, "123.456"),
        (-0.0, "0"),
        (100, "100"),
        (2.675, "2.675"),
        (.leastNonzeroMagnitude, "0." + String(repeating: "0", count: 323) + "5"),  // 5e-324
        (1.0 / 3.0, "0.3333333333333333"),
    ] as [(Double, String)])
    func shortestRoundTrip(_ value: Double, _ expected: String) {
        let text = NumberFormat.string(value, precision: .full)
        #expect(text == expected)
        #expect(Double(text) == value)
    }

    /// The digit writer (lanes of 8 digits at once) against `String`: every value below
    /// 10⁵, both sides of every power of ten, and random values of every bit length.
    @Test func integerDigitsAgreeWithString() {
        func digits(_ n: UInt64) -> String {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { scratch in
                scratch.initialize(repeating: 0xFF)
                let count = NumberFormat.writeDigits(n, to: scratch.baseAddress!)
                return String(decoding: UnsafeBufferPointer(rebasing: scratch[..<count]), as: UTF8.self)
            }
        }
        var values: [UInt64] = Array(0..<100_000)
        var power: UInt64 = 1
        for _ in 0...19 {
            values += [power &- 1, power, power &+ 1]
            if power > UInt64.max / 10 { break }
            power *= 10
        }
        values += [UInt64.max, UInt64.max - 1, 99_999_999, 100_000_000, 9_999_999_999_999_999]
        var random = SplitMixForTests(seed: 42)
        for bits in 1...64 {
            for _ in 0..<200 { values.append(random.next() >> UInt64(64 - bits)) }
        }
        for n in values where digits(n) != String(n) {
            Issue.record("writeDigits(\(n)) wrote \(digits(n))")
        }
    }

    /// The digits of a number below 10⁸ formatted once for two copies (`shortDigitsText`)
    /// against `String`, on both sides of every multiple of 10⁴ (where `eightDigits` splits a
    /// number with a multiply and a shift, not a division) up to 10⁸, and at random.
    @Test func shortDigitsTextAgreesWithString() {
        func text(_ digits: (text: UInt64, length: Int)) -> String {
            String(decoding: withUnsafeBytes(of: digits.text.littleEndian) { Array($0.prefix(digits.length)) }, as: UTF8.self)
        }
        var values: [UInt64] = Array(0..<10_050) + [99_999_999, 99_999_998, 10_000_000, 9_999_999]
        for k in stride(from: UInt64(10_000), to: 100_000_000, by: 10_000) { values += [k - 1, k, k + 1] }
        var random = SplitMixForTests(seed: 11)
        for _ in 0..<20_000 { values.append(random.next() % 100_000_000) }
        for n in values where text(NumberFormat.shortDigitsText(n)) != String(n) {
            Issue.record("shortDigitsText(\(n)) gave \(text(NumberFormat.shortDigitsText(n)))")
        }
    }

    /// The digit table's eight digits are `eightDigits`' (whose every value below 10⁸ the
    /// whole-number tests check against `String`): every number below 10⁴ twice over (as
    /// either half), the edges of each 10⁴, and random numbers; and the whole numbers and
    /// halves, and the numbers with decimals, built with the table are those built without it.
    @Test func digitTableAgreesWithEightDigits() {
        let table = DigitTable.digits
        var values: [UInt64] = Array(0..<10_000) + (0..<10_000).map { $0 * 10_000 } + [99_999_999]
        for k in stride(from: UInt64(10_000), to: 100_000_000, by: 10_000) { values += [k - 1, k, k + 1] }
        var random = SplitMixForTests(seed: 12)
        for _ in 0..<100_000 { values.append(random.next() % 100_000_000) }
        for n in values where DigitTable.eightDigits(n, table) != NumberFormat.eightDigits(n) {
            Issue.record("DigitTable.eightDigits(\(n)) gave \(String(DigitTable.eightDigits(n, table), radix: 16))")
        }
        for n in values.prefix(30_000) {
            for value in [Double(n), Double(n) + 0.5, -Double(n), -Double(n) - 0.5, Double(n) / 2] {
                let withTable = NumberFormat.wholeOrHalfText(value, eightDigits: { DigitTable.eightDigits($0, table) })
                let without = NumberFormat.wholeOrHalfText(value)
                if withTable?.low != without?.low || withTable?.high != without?.high || withTable?.length != without?.length {
                    Issue.record("wholeOrHalfText(\(value)) differs with the table")
                }
            }
            for value in [Double(n) / 1000, -Double(n) / 1000 - 0.25, Double(n) + 0.4, Double(n) / 7] {
                let withTable = NumberFormat.fractionalText(value, eightDigits: { DigitTable.eightDigits($0, table) })
                let without = NumberFormat.fractionalText(value)
                if withTable?.low != without?.low || withTable?.high != without?.high || withTable?.length != without?.length {
                    Issue.record("fractionalText(\(value)) differs with the table")
                }
            }
        }
    }

    /// Digits counted on from the last number's (`CountingDigits`) are `String`'s: runs that
    /// climb through every carry (9 → 10, 99,999 → 100,000, up to 10⁸, where it gives up),
    /// jumps, repeats, steps down and negative numbers between them.
    @Test func countingDigitsAgreeWithString() {
        func text(_ digits: (text: UInt64, length: Int)) -> String {
            String(decoding: withUnsafeBytes(of: digits.text.littleEndian) { Array($0.prefix(digits.length)) }, as: UTF8.self)
        }
        var sequence: [Int] = Array(0..<250_000) + Array(99_999_990...100_000_002) + [5, 5, 4, 3, 1_000, 999, 1_000, 1_001]
        var random = SplitMixForTests(seed: 3)
        var n = 0
        for _ in 0..<50_000 {
            let step = random.next() % 10
            n = step == 0 ? Int(random.next() % 120_000_000) - 10_000_000 : step == 1 ? -n : n + 1
            sequence.append(n)
        }
        var counting = CountingDigits()
        for n in sequence {
            let digits = counting.digits(n)
            if (0..<100_000_000).contains(n) {
                if digits.map(text) != String(n) { Issue.record("\(n) counted as \(digits.map(text) ?? "nil")") }
            } else if digits != nil {
                Issue.record("\(n) is outside the range")
            }
        }
    }

    /// Dyadic values (i/2ʲ: every exact half at 3 decimals is one, e.g. 1/16) and the edges
    /// of the inline 3-decimal path (2⁻¹¹, 2⁵²) against the exact reference.
    @Test func dyadicValuesAndPathEdgesRoundExactly() {
        var values: [Double] = []
        for j in 0...24 {
            for i in stride(from: 1, through: 4_000, by: 7) { values.append(Double(i) / Double(1 << j)) }
        }
        for e in [-12, -11, -10, 51, 52, 53] {
            let edge = Double(sign: .plus, exponent: e, significand: 1)
            values += [edge, edge.nextUp, edge.nextDown]
        }
        for value in values {
            for v in [value, -value] {
                #expect(NumberFormat.string(v, precision: .decimals(3)) == referenceFormat(v, 3), "value \(v)")
            }
        }
    }

    @Test func randomValuesAgreeWithExactDecimalExpansion() {
        // Property: formatting at p decimals equals rounding the exact decimal expansion
        // (obtained from the 1074-digit-capable .full path is not exact; instead compare with
        // a slow reference that scales by powers of ten using integer arithmetic on the
        // significand).
        var generator = SplitMixForTests(seed: 42)
        for _ in 0..<20_000 {
            let bits = generator.next()
            let magnitude = Double(bits % 1_000_000_000) / Double(1 + (bits >> 40) % 100_000)
            let value = (bits & 1 == 0 ? 1 : -1) * magnitude
            for p in [0, 1, 3, 6] {
                let text = NumberFormat.string(value, precision: .decimals(p))
                #expect(text == referenceFormat(value, p), "value \(value) p \(p)")
                #expect(!text.contains("e") && !text.contains("nan") && text != "-0")
            }
        }
    }

    /// The text built in registers for the writers' number tables is the text `write` stores,
    /// over random magnitudes, every integer-part length, the range's edges and the values
    /// just outside it (which it must refuse).
    @Test func threeDecimalsTextInRegistersEqualsTheStoredText() {
        func text(_ t: (low: UInt64, high: UInt64, length: Int)) -> String {
            let bytes = withUnsafeBytes(of: (t.low.littleEndian, t.high.littleEndian)) { Array($0.prefix(t.length)) }
            return String(decoding: bytes, as: UTF8.self)
        }
        var values: [Double] = [0.0005, 0.00049999, 0.000488, 0.0004882812, 1.0 / 2048, (1.0 / 2048).nextDown, 0.5, 0.9995,
                                9.9995, 99_999_999.999, 99_999_999.9994, 99_999_999.9995, 1e8, 1e8.nextDown, 123.5, 123.05]
        var generator = SplitMixForTests(seed: 7)
        for _ in 0..<40_000 {
            let bits = generator.next()
            let digits = Int(bits % 9)  // integer parts of every length up to 8 digits
            var power = 1.0
            for _ in 0..<digits { power *= 10 }
            values.append(Double(bits >> 11) / Double(1 << 53) * power)
            values.append(Double((bits >> 20) % 1_000_000) / 1000 * power / 1000)  // whole thousandths
            values.append(Double((bits >> 24) % 200_000_004) / 2)  // whole numbers and halves, to 10⁸ + 1
        }
        for value in values {
            for v in [value, -value] {
                let expected = NumberFormat.string(v, precision: .decimals(3))
                let exponent = Int(v.exponentBitPattern) - 1075
                let inRange = exponent >= -63 && exponent <= -1 && expected.filter(\.isNumber).count <= 11
                    && (expected.split(separator: ".").first.map { $0.filter(\.isNumber).count <= 8 } ?? true)
                if let built = NumberFormat.threeDecimalsText(v) {
                    #expect(text(built) == expected, "value \(v)")
                } else {
                    #expect(!inRange, "value \(v) refused inside the range")
                }
            }
        }
        #expect(NumberFormat.threeDecimalsText(123.25).map(text) == "123.25")
        #expect(NumberFormat.threeDecimalsText(-0.00049).map(text) == "0")  // rounds to zero: no sign
        #expect(NumberFormat.threeDecimalsText(-12_345_678.5).map(text) == "-12345678.5")
        #expect(NumberFormat.threeDecimalsText(99_999_999.9995) == nil)  // 100000000: nine digits
        #expect(NumberFormat.threeDecimalsText(99_999_999.5).map(text) == "99999999.5")
        #expect(NumberFormat.threeDecimalsText(-0.5).map(text) == "-0.5")
        #expect(NumberFormat.threeDecimalsText(-0.0).map(text) == "0")
        #expect(NumberFormat.threeDecimalsText(12_345_678).map(text) == "12345678")
        #expect(NumberFormat.threeDecimalsText(100_000_000) == nil)
        #expect(NumberFormat.threeDecimalsText(.nan) == nil && NumberFormat.threeDecimalsText(-.infinity) == nil)
        #expect(NumberFormat.threeDecimalsText(4096.0 * 1024 * 1024 * 1024 * 1024) == nil)  // 2⁵²: no fraction bits
    }

    /// Slow exact reference: the exact binary value as a decimal string (every double has a
    /// finite decimal expansion), then rounding half away from zero on the digit string.
    func referenceFormat(_ value: Double, _ p: Int) -> String {
        let (integerDigits, fractionDigits) = exactDecimal(value.magnitude)
        var digits = Array(integerDigits + fractionDigits.padding(toLength: max(p + 1, fractionDigits.count), withPad: "0", startingAt: 0))
        let cut = integerDigits.count + p
        let roundUp = digits[cut] >= "5"
        var kept = Array(digits[..<cut])
        if roundUp {
            var i = kept.count - 1
            while i >= 0 {
                if kept[i] == "9" { kept[i] = "0"; i -= 1 } else { kept[i] = Character(String(kept[i].wholeNumberValue! + 1)); break }
            }
            if i < 0 { kept.insert("1", at: 0) }
        }
        digits = kept
        var intPart = String(digits[..<(digits.count - p)])
        var frac = String(digits[(digits.count - p)...])
        while intPart.count > 1 && intPart.first == "0" { intPart.removeFirst() }
        while frac.last == "0" { frac.removeLast() }
        let body = frac.isEmpty ? intPart : intPart + "." + frac
        return (value < 0 && body != "0") ? "-" + body : body
    }

    /// Exact decimal digits of a non-negative double below 2^63 (integer part, fraction part).
    func exactDecimal(_ x: Double) -> (String, String) {
        let integer = UInt64(x)
        var fraction = x - Double(integer)  // exact for |x| < 2^53
        var digits = ""
        // Multiply the fraction by 10 exactly using a big-decimal: fraction = m / 2^k.
        var m: [UInt32] = []
        var k = 0
        while fraction != 0 {
            fraction *= 2
            k += 1
            let bit: UInt32 = fraction >= 1 ? 1 : 0
            if bit == 1 { fraction -= 1 }
            m.append(bit)
        }
        // fraction = Σ m[i] / 2^(i+1): compute decimal by 5^k scaling: value = N / 2^k with
        // N = Σ m[i]·2^(k−1−i); decimal = N·5^k / 10^k.
        var n: [UInt32] = [0]  // little-endian base 1e9
        func mulAdd(_ a: inout [UInt32], _ mul: UInt64, _ add: UInt64) {
            var carry = add
            for i in a.indices {
                let v = UInt64(a[i]) * mul + carry
                a[i] = UInt32(v % 1_000_000_000)
                carry = v / 1_000_000_000
            }
            while carry > 0 { a.append(UInt32(carry % 1_000_000_000)); carry /= 1_000_000_000 }
        }
        for bit in m { mulAdd(&n, 2, UInt64(bit)) }
        for _ in 0..<k { mulAdd(&n, 5, 0) }
        var text = String(n.last!)
        for chunk in n.dropLast().reversed() {
            let s = String(chunk)
            text += String(repeating: "0", count: 9 - s.count) + s
        }
        if k > 0 {
            text = String(repeating: "0", count: max(0, k - text.count)) + text
            digits = String(text.suffix(k))
        }
        return (String(integer), digits)
    }
}

/// SplitMix64, for reproducible random inputs in tests.
struct SplitMixForTests {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension NumberFormat {
    /// The text the writers' number tables build in registers for `write(value, precision:
    /// .decimals(3), …)`: a whole number or half, else a fraction in range; `nil` outside.
    static func threeDecimalsText(_ value: Double) -> (low: UInt64, high: UInt64, length: Int)? {
        wholeOrHalfText(value) ?? fractionalText(value)
    }
}
