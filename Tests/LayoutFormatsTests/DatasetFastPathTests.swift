import Foundation
import Testing
import LayoutCore
@testable import FastText
@testable import LayoutDatasets

extension StrictJSON {
    /// The oracle: the strict syntax check (the scanner building nothing), then Foundation's
    /// `JSONSerialization` for the values (arrays, dictionaries, NSNumber, String, NSNull).
    static func parse(_ data: Data, objectLimit: JSONSyntaxCheck.ObjectLimit = .dataset) throws -> Any {
        try data.withUnsafeBytes { raw in
            _ = try JSONSyntaxCheck.scan(raw.bindMemory(to: UInt8.self), building: false, objectLimit: objectLimit)
        }
        return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }
}

/// The one-pass dataset parser against the strict syntax check followed by Foundation's
/// `JSONSerialization`: the same documents accepted, the same errors, the same structure; and
/// every number the correctly rounded double of its text, as a flag reads it (where Foundation
/// differs — more than 17 significant characters, read through NSDecimalNumber — the
/// parser follows the flags, not Foundation).
struct DatasetFastPathTests {
    // MARK: - References

    /// `true`/`false` when `raw` is a JSON boolean (Foundation hands those over as NSNumber
    /// with the `c` type on Linux; `1` and `true` must stay distinct).
    static func boolValue(_ raw: Any) -> Bool? {
        guard let n = raw as? NSNumber, n.objCType.pointee == CChar(UInt8(ascii: "c")) else { return nil }
        return n.boolValue
    }

    /// Foundation's value for a document that passed the syntax check, as a `JSONValue`.
    static func foundationValue(_ raw: Any) -> JSONValue {
        if let b = boolValue(raw) { return .bool(b) }
        if let n = raw as? NSNumber { return .number(n.doubleValue) }
        if let s = raw as? String { return .string(s) }
        if let a = raw as? [Any] { return .array(a.map(foundationValue)) }
        if let o = raw as? [String: Any] {
            var object = JSONObject()
            for (key, value) in o { object[key] = foundationValue(value) }
            return .object(object)
        }
        if raw is NSNull { return .null }
        Issue.record("unexpected Foundation value \(type(of: raw))")
        return .null
    }

    /// What the old path gives: a value or the error it throws.
    enum Outcome: Equatable {
        case value(JSONValue)
        case syntax(JSONSyntaxError)
        case duplicate(JSONDuplicateKeyError)
    }

    static func outcome(_ body: () throws -> JSONValue) -> Outcome {
        do {
            return .value(try body())
        } catch let e as JSONSyntaxError {
            return .syntax(e)
        } catch let e as JSONDuplicateKeyError {
            return .duplicate(e)
        } catch {
            Issue.record("unexpected error \(error)")
            return .value(.null)
        }
    }

    static func oldPath(_ text: String) -> Outcome {
        outcome { foundationValue(try StrictJSON.parse(Data(text.utf8))) }
    }

    static func newPath(_ text: String) -> Outcome {
        outcome { try StrictJSON.values(Data(text.utf8)) }
    }

    /// Equal as JSON, flat arrays expanded; numbers equal to within Foundation's own reading
    /// of them (its `-0` is `+0`, and past 17 significant characters its NSDecimalNumber can be
    /// some units in the last place off the correctly rounded double the parser gives): the
    /// numbers themselves are checked exactly against `ValueSyntax.number` by the tests above.
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return x.bitPattern == y.bitPattern || (x == 0 && y == 0) || abs(x - y) <= 1e-13 * max(abs(x), abs(y))
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        default:
            if let x = a.elements, let y = b.elements {
                return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
            }
            return a == b
        }
    }

    static func same(_ a: Outcome, _ b: Outcome) -> Bool {
        if case .value(let x) = a, case .value(let y) = b { return same(x, y) }
        return a == b
    }

    // MARK: - Random text

    static func digits(_ count: Int, _ rng: inout SplitMix64, leading: Bool = true) -> String {
        var s = ""
        for k in 0..<count {
            let d = k == 0 && leading ? 1 + rng.next() % 9 : rng.next() % 10
            s += String(d)
        }
        return s
    }

    /// A JSON number: small and large integers (past 2^53 and UInt64), decimals of up to 40
    /// digits, `e` and `E` exponents, zeros of both signs, random doubles' shortest text,
    /// subnormals, and known hard cases.
    static func numberText(_ rng: inout SplitMix64) -> String {
        let sign = rng.next() % 4 == 0 ? "-" : ""
        switch rng.next() % 9 {
        case 0: return String(Int(rng.next() % 2000) - 1000)
        case 1: return sign + digits(1 + Int(rng.next() % 25), &rng)
        case 2:
            let whole = rng.next() % 3 == 0 ? "0" : digits(1 + Int(rng.next() % 12), &rng)
            return sign + whole + "." + digits(1 + Int(rng.next() % 22), &rng, leading: false)
        case 3:
            let mantissa = rng.next() % 2 == 0 ? digits(1 + Int(rng.next() % 20), &rng)
                : digits(1 + Int(rng.next() % 3), &rng) + "." + digits(1 + Int(rng.next() % 19), &rng, leading: false)
            let mark = rng.next() % 3 == 0 ? "E" : "e"
            let expSign = ["", "+", "-"][Int(rng.next() % 3)]
            return sign + mantissa + mark + expSign + String(rng.next() % 330)
        case 4:
            let d = Double(bitPattern: rng.next())
            return d.isFinite ? "\(d)".replacingOccurrences(of: "e+", with: "e") : "1.5"
        case 5: return String(format: "%.2f", 50 + Double(rng.next() % 10_000) / 100)
        case 6: return sign + "0." + String(repeating: "0", count: Int(rng.next() % 25)) + digits(1 + Int(rng.next() % 20), &rng)
        case 7:
            let d = Double(bitPattern: rng.next() % (1 << 53))  // subnormals and tiny normals
            return sign + "\(d)"
        default:
            let hard = ["-0", "-0.0", "0.0", "-0e0", "0E-5", "-0E5", "4.9e-324", "2.4703282292062327e-324",
                        "2.4703282292062328e-324", "2.2250738585072011e-308", "2.2250738585072012e-308",
                        "1.7976931348623157e308", "1.7976931348623158e308", "9007199254740993", "-9007199254740993",
                        "9007199254740992", "18446744073709551615", "18446744073709551616", "-9223372036854775808",
                        "-9223372036854775809", "0.1000000000000000055511151231257827", "123456789012345678",
                        "1.00000000000000011102230246251565404236316680908203125", "1e-400", "-1e-400", "1e22", "1e23",
                        "9007199254740991e22", "123.456e-5", "0.30000000000000004441", "12345678901234567.5",
                        "1E2", "1e+2", "1e-2", "7.0e-10", "8.589973e9", "1e308", "0.000001", "100000000000000000000",
                        "99999999999999999999999999999999999999999", "3.14159265358979323846264338327950288"]
            return hard[Int(rng.next() % UInt64(hard.count))]
        }
    }

    static func whitespace(_ rng: inout SplitMix64) -> String {
        ["", "", "", " ", "\n", " \t", "\r\n  "][Int(rng.next() % 7)]
    }

    /// A random number Foundation can represent (the syntax check refuses the rest) and
    /// reads as the correctly rounded double of its text, as the parser does (the structural
    /// comparisons with Foundation use these).
    static func finiteNumberText(_ rng: inout SplitMix64) -> String {
        while true {
            let t = numberText(&rng)
            if let d = Double(t), d.isFinite, foundationDouble(t)?.bitPattern == (t == "-0" ? 0.0 : d).bitPattern { return t }
        }
    }

    /// Any finite number text, Foundation's reading of it aside.
    static func anyFiniteNumberText(_ rng: inout SplitMix64) -> String {
        while true {
            let t = numberText(&rng)
            if let d = Double(t), d.isFinite { return t }
        }
    }

    /// Foundation's double for a number text.
    static func foundationDouble(_ text: String) -> Double? {
        ((try? JSONSerialization.jsonObject(with: Data("[\(text)]".utf8))) as? [Any])?.first.map { ($0 as! NSNumber).doubleValue }
    }

    static func finiteNumbers(_ n: Int, seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { _ in finiteNumberText(&rng) }
    }

    // MARK: - Numbers

    @Test func numberArraysAreTheDoublesOfTheirTextsAsFlagsRead() throws {
        var rng = SplitMix64(seed: 1)
        let texts = (0..<30_000).map { _ in Self.anyFiniteNumberText(&rng) }
        let document = "[" + texts.map { Self.whitespace(&rng) + $0 + Self.whitespace(&rng) }.joined(separator: ",") + "]"
        let parsed = try StrictJSON.values(Data(document.utf8))
        guard case .numbers(let values) = parsed else {
            Issue.record("expected a flat array of numbers")
            return
        }
        #expect(values.count == texts.count)
        var mismatches: [String] = []
        for (i, t) in texts.enumerated() where values[i].bitPattern != ValueSyntax.number(t)?.bitPattern {
            mismatches.append("\(t): \(values[i]) vs the flag's \(ValueSyntax.number(t) ?? .nan)")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func aDatasetNumberAndAFlagWithTheSameTextAreTheSameDouble() throws {
        // Random texts of 17 to 25 significant digits, where Foundation's JSONSerialization
        // reads through NSDecimalNumber and is sometimes a unit in the last place off.
        var rng = SplitMix64(seed: 17)
        var foundationDiffers = 0
        for _ in 0..<3_000 {
            let digits = 17 + Int(rng.next() % 9)
            var text = String(1 + rng.next() % 9) + (1..<digits).map { _ in String(rng.next() % 10) }.joined()
            let point = 1 + Int(rng.next() % UInt64(digits - 1))
            text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            let dataset = try DatasetDecoder.decode(Data("[\(text)]".utf8), schema: .items)
            guard case .heights(let heights) = dataset.sections[0].items else { Issue.record("heights"); return }
            let flag = try #require(ValueSyntax.number(text))
            #expect(heights[0].bitPattern == flag.bitPattern, "\(text)")
            if Self.foundationDouble(text)?.bitPattern != flag.bitPattern { foundationDiffers += 1 }
        }
        // The case the change is for exists among them.
        #expect(foundationDiffers > 0)
        #expect(try DatasetDecoder.decode(Data("[0.30000000000000004]".utf8), schema: .items).sections[0].items
                == .heights([0.30000000000000004]))
    }

    @Test func numbersAloneInPairsAndInObjectsMatchFoundation() {
        let texts = Self.finiteNumbers(3_000, seed: 3)
        for (i, t) in texts.enumerated() {
            let other = texts[(i + 1) % texts.count]
            for document in [t, "[\(t)]", "[[\(t), \(other)]]", "[[\(other),\(t)], [1, 2]]", "{\"k\": \(t)}",
                             "[\(t), \"s\"]", "[[1, 2], \(t)]", "[[\(t)]]", "[[\(t), 1, 2]]", "{\"a\": [\(t), \(other)]}"] {
                let old = Self.oldPath(document), new = Self.newPath(document)
                #expect(Self.same(old, new), "\(document): \(new) vs \(old)")
            }
        }
    }

    @Test func theFastPathIsTheSlowPath() {
        // The parts-based fast path against Double(text), on every text it takes.
        var rng = SplitMix64(seed: 4)
        for _ in 0..<20_000 {
            let t = Self.anyFiniteNumberText(&rng)
            #expect(JSONNumber.value(t)?.bitPattern == Double(t)?.bitPattern, "\(t)")
            guard case .numbers(let v) = try! StrictJSON.values(Data("[\(t), 0]".utf8)) else { continue }
            #expect(v[0].bitPattern == Double(t)!.bitPattern, "\(t)")
        }
        #expect(JSONNumber.value(String(repeating: "9", count: 400)) == nil)
    }

    @Test func eightDigitsAtOnceAreTheDigitsOneByOne() {
        // Bytes around the digits ('/' and ':' border them; 0xFF and 0xC9 would carry) and
        // digits, eight at a time, against a byte-by-byte reading.
        var rng = SplitMix64(seed: 8)
        let alphabet: [UInt8] = Array("0123456789".utf8) + [0x2F, 0x3A, 0x3F, 0x40, 0xFF, 0xC9, 0x20, 0x2E, 0x00]
        var digitsOnly = 0
        for round in 0..<100_000 {
            let bytes: [UInt8] = (0..<8).map { _ in
                round % 2 == 0 ? UInt8(ascii: "0") + UInt8(rng.next() % 10) : alphabet[Int(rng.next() % UInt64(alphabet.count))]
            }
            let expected: UInt64? = bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                ? bytes.reduce(0) { $0 * 10 + UInt64($1 - 0x30) } : nil
            if expected != nil { digitsOnly += 1 }
            #expect(bytes.withUnsafeBufferPointer { JSONNumber.eightDigits($0.baseAddress!) } == expected, "\(bytes)")
        }
        #expect(digitsOnly > 50_000)
        #expect(Array("99999999".utf8).withUnsafeBufferPointer { JSONNumber.eightDigits($0.baseAddress!) } == 99_999_999)
        #expect(Array("00000001".utf8).withUnsafeBufferPointer { JSONNumber.eightDigits($0.baseAddress!) } == 1)
    }

    @Test func theExtendedPathIsTheSlowPathForSeventeenToNineteenDigits() {
        // 17-digit shortest forms (most doubles printed in full) and up to 19 digits, at powers
        // of ten −27…27: x87 extended precision against Double(text), bit for bit.
        var rng = SplitMix64(seed: 19)
        var taken = 0
        for _ in 0..<200_000 {
            let digits = 16 + Int(rng.next() % 4)
            var significand = 1 + rng.next() % 9
            for _ in 1..<digits { significand = significand * 10 + rng.next() % 10 }
            let power = Int(rng.next() % 55) - 27
            let text = "\(significand)e\(power)"
            guard let fast = JSONNumber.extendedValue(negative: false, significand: significand, power: power) else { continue }
            taken += 1
            #expect(fast.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
        #expect(taken > 199_000)
        // 2^53 + 1 lies exactly between two doubles: the extended path declines, the text decides.
        #expect(JSONNumber.extendedValue(negative: false, significand: 9_007_199_254_740_993, power: 0) == nil)
        #expect(JSONNumber.fastValue(negative: false, significand: 9_007_199_254_740_993, exact: false, complete: true,
                                     fractionDigits: 0, exponent: 0) == nil)
        #expect(JSONNumber.extendedValue(negative: true, significand: 12_345_678_901_234_567, power: -16)
                == -1.2345678901234567)
    }

    @Test func leadingZerosOfAFractionAreNotSignificantDigits() throws {
        let texts = ["0.000000001234567890123456789", "0.00000000000000001", "0.0000000012345678",
                     "0.1000000000000000055511151231257827", "0.00000000999999999999999999", "0.000000000000000000000000000000000000000000000000001"]
        guard case .numbers(let v) = try StrictJSON.values(Data(("[" + texts.joined(separator: ",") + "]").utf8)) else {
            Issue.record("not an array of numbers")
            return
        }
        #expect(v == texts.map { Double($0)! })
    }

    @Test func everyEscapeIsItsByte() throws {
        let value = try StrictJSON.values(Data(#""\"\\\/\b\f\n\r\t\u0041\ud83d\ude00""#.utf8))
        #expect(value == .string("\"\\/\u{8}\u{C}\n\r\tA😀"))
        #expect(throws: JSONSyntaxError(line: 1, column: 3, message: "bad escape '\\x'")) {
            try StrictJSON.values(Data(#""\x""#.utf8))
        }
    }

    @Test func negativeZeroReadsAsAFlagReadsIt() throws {
        guard case .numbers(let v) = try StrictJSON.values(Data("[-0, -0.0, -0e3, 0]".utf8)) else { return }
        #expect(v.map(\.sign) == [.minus, .minus, .minus, .plus])
        #expect(v.map(\.sign) == ["-0", "-0.0", "-0e3", "0"].map { ValueSyntax.number($0)!.sign })
        // Heights and sizes then read both as 0.
        let heights = try DatasetDecoder.decode(Data("[-0, -0.0, 1]".utf8), schema: .items).sections[0].items
        guard case .heights(let h) = heights else { return }
        #expect(h.map(\.sign) == [.plus, .plus, .plus])
        let sizes = try DatasetDecoder.decode(Data("[[1, -0.0]]".utf8), schema: .items).sections[0].items
        guard case .sizes(let s) = sizes else { return }
        #expect(s[0].height.sign == .plus)
    }

    @Test func aNumberPastTheLargestDoubleIsASyntaxErrorAtItsPlace() {
        let big = "2" + String(repeating: "0", count: 308)  // no exponent, 309 digits: past the largest Double
        #expect(Self.newPath("[1, \(big)]") == .syntax(JSONSyntaxError(
            line: 1, column: 5, message: "number 2000000000000000000000000000000000000000… is too large for a double")))
        // A syntax error before it is reported first.
        if case .syntax(let e) = Self.newPath("[1,, \(big)]") { #expect(e.column == 4) } else { Issue.record("syntax") }
    }

    // MARK: - Documents and errors

    /// A random document: nested arrays (numeric, pairs, mixed, switching shape part way),
    /// objects, strings with escapes and non-ASCII text, literals.
    static func document(_ rng: inout SplitMix64, depth: Int = 0) -> String {
        let w = { (rng: inout SplitMix64) in whitespace(&rng) }
        switch rng.next() % (depth > 3 ? 4 : 9) {
        case 0: return finiteNumberText(&rng)
        case 1: return ["true", "false", "null"][Int(rng.next() % 3)]
        case 2: return ["\"a\"", "\"h\\u00e9ights\"", "\"\\\"q\\\"\\n\"", "\"é😀\"", "\"\\ud83d\\ude00\"", "\"\""][Int(rng.next() % 6)]
        case 3: return String(rng.next() % 100)
        case 4, 5:
            // Arrays of numbers or pairs, sometimes broken by another element.
            let n = Int(rng.next() % 8)
            let pairs = rng.next() % 2 == 0
            var items: [String] = (0..<n).map { _ in
                pairs ? "[" + w(&rng) + String(rng.next() % 500) + w(&rng) + "," + w(&rng) + finiteNumberText(&rng) + w(&rng) + "]"
                      : finiteNumberText(&rng)
            }
            if rng.next() % 3 == 0 { items.insert(document(&rng, depth: depth + 1), at: Int(rng.next() % UInt64(items.count + 1))) }
            return "[" + items.map { w(&rng) + $0 + w(&rng) }.joined(separator: ",") + "]"
        case 6, 7:
            let keys = ["heights", "sizes", "count", "sections", "options", "rings", "a", "é", "e\u{301}"]
            var used = Set<String>()
            var members: [String] = []
            for _ in 0..<Int(rng.next() % 4) {
                let key = keys[Int(rng.next() % UInt64(keys.count))]
                guard used.insert(key).inserted else { continue }
                members.append("\"\(key)\"" + w(&rng) + ":" + w(&rng) + document(&rng, depth: depth + 1))
            }
            return "{" + members.joined(separator: "," + w(&rng)) + "}"
        default:
            return "[" + (0..<Int(rng.next() % 4)).map { _ in document(&rng, depth: depth + 1) }.joined(separator: ", ") + "]"
        }
    }

    static func mutated(_ text: String, _ rng: inout SplitMix64) -> String {
        var bytes = Array(text.utf8)
        let pieces = ["[", "]", "{", "}", ",", ":", "\"", "-", ".", "e", "E", "0", "7", " ", "\n", "1e999", "true",
                      "\"a\":1", "\\u0061", "\u{7}", "[1,2]"]
        for _ in 0..<(1 + Int(rng.next() % 2)) {
            let i = bytes.isEmpty ? 0 : Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 3 {
            case 0 where !bytes.isEmpty: bytes.remove(at: i)
            case 1 where !bytes.isEmpty: bytes[i] = Array(pieces[Int(rng.next() % UInt64(pieces.count))].utf8)[0]
            default: bytes.insert(contentsOf: Array(pieces[Int(rng.next() % UInt64(pieces.count))].utf8), at: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func randomDocumentsMatchTheCheckThenFoundation() {
        var rng = SplitMix64(seed: 5)
        var accepted = 0
        for _ in 0..<3_000 {
            let text = Self.document(&rng)
            let old = Self.oldPath(text), new = Self.newPath(text)
            if case .value = old { accepted += 1 }
            #expect(Self.same(old, new), "\(text)\n new: \(new)\n old: \(old)")
        }
        #expect(accepted > 2_500)
    }

    @Test func brokenDocumentsGiveTheSameErrors() {
        var rng = SplitMix64(seed: 6)
        var refused = 0
        for _ in 0..<4_000 {
            let text = Self.mutated(Self.document(&rng), &rng)
            let old = Self.oldPath(text), new = Self.newPath(text)
            if case .value = old {} else { refused += 1 }
            #expect(Self.same(old, new), "\(text)\n new: \(new)\n old: \(old)")
        }
        #expect(refused > 1_000)
    }

    @Test func duplicateKeysAreNamedByTheSamePath() {
        for text in [#"[1, 2, {"a": 1, "a": 2}]"#, #"[[1, 2], [3, 4], {"b": [5, {"c": 1, "\u0063": 2}]}]"#,
                     #"{"x": [{"y": {}}, 7, {"y": [0, 1, {"z": 0, "z": 1}]}]}"#, #"[[1, 2], [[{"k": 0, "k": 0}]]]"#] {
            let new = Self.newPath(text)
            #expect(new == Self.oldPath(text), "\(text)")
            if case .duplicate = new {} else { Issue.record("\(text): expected a duplicate key, got \(new)") }
        }
        #expect(Self.newPath(#"[1, 2, {"a": 1, "a": 2}]"#) == .duplicate(JSONDuplicateKeyError(path: "[2]", key: "a")))
    }

    /// Keys that are different bytes but equal as Swift strings (é precomposed and as e +
    /// U+0301) are one key, holding the last value, as in Foundation; a key byte-equal to any
    /// spelling seen before in the object is a duplicate, whichever spelling came first.
    @Test func canonicallyEquivalentKeysAreOneKeyAndTheirRepeatsAreDuplicates() {
        let one = #"{"\u00e9": 1, "e\u0301": 2}"#
        #expect(Self.same(Self.newPath(one), Self.oldPath(one)))
        guard case .value(.object(let object)) = Self.newPath(one) else {
            Issue.record("\(one): expected an object, got \(Self.newPath(one))")
            return
        }
        #expect(object.count == 1 && object["\u{e9}"] == .number(2))
        for text in [#"{"\u00e9": 1, "e\u0301": 2, "e\u0301": 3}"#, #"{"e\u0301": 1, "\u00e9": 2, "\u00e9": 3}"#,
                     #"{"\u00e9": 1, "e\u0301": 2, "\u00e9": 3}"#, #"{"e\u0301": 1, "\u00e9": 2, "e\u0301": 3}"#] {
            let new = Self.newPath(text)
            #expect(new == Self.oldPath(text), "\(text)")
            if case .duplicate = new {} else { Issue.record("\(text): expected a duplicate key, got \(new)") }
        }
    }

    /// Objects past `JSONObject.indexedCount` members find their keys through an index: the
    /// same values, the same duplicates (byte-equal, and a spelling repeated after an
    /// equivalent one), first spellings kept, as Foundation and the small objects give.
    @Test func largeObjectsKeepTheirKeysAsSmallOnesDo() {
        let filler = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let one = "{\(filler), \"\\u00e9\": 1, \"k3\": {\"x\": [1]}, \"e\\u0301\": 2}"
        // k3 twice is a byte-equal duplicate: take it out for the value check.
        let valid = one.replacingOccurrences(of: ", \"k3\": {\"x\": [1]}", with: "")
        #expect(Self.same(Self.newPath(valid), Self.oldPath(valid)))
        guard case .value(.object(let object)) = Self.newPath(valid) else {
            Issue.record("\(valid): expected an object, got \(Self.newPath(valid))")
            return
        }
        #expect(object.count == 21 && object["\u{e9}"] == .number(2) && object["e\u{301}"] == .number(2))
        #expect(object.keys == (0..<20).map { "k\($0)" } + ["\u{e9}"])
        #expect((0..<20).allSatisfy { object["k\($0)"] == .number(Double($0)) } && object["k20"] == nil)
        #expect(Self.newPath(one) == .duplicate(JSONDuplicateKeyError(path: "", key: "k3")))
        #expect(Self.newPath(one) == Self.oldPath(one))
        let repeated = "{\(filler), \"\\u00e9\": 1, \"e\\u0301\": 2, \"e\\u0301\": 3}"
        #expect(Self.newPath(repeated) == .duplicate(JSONDuplicateKeyError(path: "", key: "e\u{301}")))
        // Equal objects in another member order are equal values.
        let reversed = "{" + (0..<20).reversed().map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + ", \"\\u00e9\": 2}"
        #expect(Self.newPath(reversed) == Self.newPath(valid))
    }

    // MARK: - Datasets

    /// Messages recorded from the decoder before the fast path (Foundation's values walked).
    static let datasetErrors: [(String, DatasetSchema, String, String)] = [
        ("[1, 2, -3, 4]", .items, "[2]", "expected a finite number ≥ 0, got -3"),
        ("[1, 2, \"x\"]", .items, "[2]", "expected a finite number ≥ 0, got \"x\""),
        ("[[1,2],[3,-4]]", .items, "[1][1]", "expected a finite number ≥ 0, got -4"),
        ("[[1,2],[0,4]]", .items, "[1][0]", "expected a width > 0, got 0"),
        ("[[1,2],[-0,4]]", .items, "[1][0]", "expected a width > 0, got 0"),
        ("[[1,2],[-0.0,4]]", .items, "[1][0]", "expected a width > 0, got 0"),
        ("[[1,2],3]", .items, "[1]", "expected a size [width, height], got 3"),
        ("[1,[2,3]]", .items, "[1]", "expected a finite number ≥ 0, got an array"),
        (#"{"heights": [[1,2]]}"#, .items, "heights[0]", "expected a finite number ≥ 0, got an array"),
        (#"{"sizes": [1,2]}"#, .items, "sizes[0]", "expected a size [width, height], got 1"),
        (#"{"sizes": [[1,2],[3,4,5]]}"#, .items, "sizes[1]", "expected a size [width, height], got an array of 3 values"),  // its length since a tester asked
        (#"{"sizes": [[1,2],[3,true]]}"#, .items, "sizes[1][1]", "expected a finite number ≥ 0, got true"),
        (#"{"sizes": [[1,2],[null,1]]}"#, .items, "sizes[1][0]", "expected a number, got null"),
        (#"{"sizes": [[1,2],[-5e-324,1]]}"#, .items, "sizes[1][0]", "expected a width > 0, got -5e-324"),
        (#"{"sections": [{"sizes": [[1,2],[3,4],[5,-1e-300]]}]}"#, .items, "sections[0].sizes[2][1]",
         "expected a finite number ≥ 0, got -1e-300"),
        (#"{"sections": [{"heights": [1,2,3]}, {"heights": [4, -0.5]}]}"#, .items, "sections[1].heights[1]",
         "expected a finite number ≥ 0, got -0.5"),
        (#"{"heights": [1, 2], "options": {"columns": [1, 2]}}"#, .items, "options.columns",
         "expected a number, string or boolean, got an array"),
        ("[[1,2],[3,4],{\"a\":1}]", .items, "[2].a", "unknown key (expected 'width' and 'height')"),
        (#"{"sections": [[1,2]]}"#, .items, "sections[0]", "expected a section object, got an array"),
        (#"{"sections": [1, 2]}"#, .items, "sections[0]", "expected a section object, got 1"),
        (#"{"sections": [{"insets": [1,2,3]}]}"#, .items, "sections[0].insets",
         #"expected insets: a number, "T,L,B,R", [T, L, B, R] or {"top": T, "left": L, "bottom": B, "right": R}, got an array of 3 values"#),
        (#"{"sections": [{"insets": [1,2,3,"4"]}]}"#, .items, "sections[0].insets[3]", "expected a number, got \"4\""),
        ("[1, 2.5]", .ringCounts, "[1]", "expected an integer, got 2.5"),
        ("[[1,2]]", .ringCounts, "[0]", #"expected a ring count (an integer ≥ 0; ring takes [1, 6, 12, …] or {"rings": […]}), got an array"#),
        (#"{"rings": [1, -2]}"#, .ringCounts, "rings[1]", "expected an integer ≥ 0, got -2"),
        ("[1e16]", .ringCounts, "[0]", "integer out of range: 10000000000000000"),
        ("[5000000, 5000001]", .ringCounts, "[1]", "more than 10000000 elements in all (SPEC limit)"),
        (#"{"rings": [[1,2],[3,4]]}"#, .ringCounts, "rings[0]", #"expected a ring count (an integer ≥ 0; ring takes [1, 6, 12, …] or {"rings": […]}), got an array"#),
        (#"{"rings": [1, "2"]}"#, .ringCounts, "rings[1]", "expected an integer, got \"2\""),
        (#"{"count": [1]}"#, .items, "count", "expected an integer, got an array"),
        (#"{"count": -0.5}"#, .items, "count", "expected an integer, got -0.5"),
    ]

    @Test func datasetErrorsAreUnchanged() {
        for (text, schema, path, message) in Self.datasetErrors {
            do {
                _ = try DatasetDecoder.decode(Data(text.utf8), schema: schema)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error as? DatasetError == .invalidValue(path: path, message: message), "\(text)")
            }
        }
    }

    @Test func bigShapesDecodeToFoundationsValues() throws {
        let texts = Self.finiteNumbers(20_000, seed: 7).map { $0.hasPrefix("-") ? String($0.dropFirst()) : $0 }
        let heights = "{\"options\": {\"columns\": 3}, \"heights\": [" + texts.joined(separator: ", ") + "]}"
        let decoded = try DatasetDecoder.decode(Data(heights.utf8), schema: .items)
        let foundation = try JSONSerialization.jsonObject(with: Data(heights.utf8)) as! [String: Any]
        let expected = (foundation["heights"] as! [NSNumber]).map { $0.doubleValue == 0 ? 0 : $0.doubleValue }
        #expect(decoded.sections == [DatasetSection(items: .heights(expected))])
        #expect(decoded.options == [DatasetOption(key: "columns", value: .number(3), path: "options.columns")])

        let widths = texts.filter { Double($0)! > 0 }
        let pairs = (0..<min(widths.count, texts.count)).map { "[\(widths[$0]), \(texts[$0])]" }
        let sizesDocument = "[" + pairs.joined(separator: ",\n") + "]"
        let sizes = try DatasetDecoder.decode(Data(sizesDocument.utf8), schema: .items)
        let foundationPairs = try JSONSerialization.jsonObject(with: Data(sizesDocument.utf8)) as! [[NSNumber]]
        let expectedSizes = foundationPairs.map {
            Size(width: $0[0].doubleValue, height: $0[1].doubleValue == 0 ? 0 : $0[1].doubleValue)
        }
        #expect(sizes.sections == [DatasetSection(items: .sizes(expectedSizes))])

        let rings = try DatasetDecoder.decode(Data(#"{"rings": [1, 6.0, 0, 18, 1e3, 120e-1, -0]}"#.utf8), schema: .ringCounts)
        #expect(rings.sections.map(\.items) == [1, 6, 0, 18, 1000, 12, 0].map { SectionItems.uniform(count: $0) })
        #expect(rings.sections.map(\.path) == (0..<7).map { "rings[\($0)]" })
    }
}
