/// The SplitMix64 generator SPEC section 6 fixes for the embedded random data, so that the
/// same `--seed` gives the same heights on every platform (Steele, Lea & Flood, 2014; the
/// generator swift-argument-parser's `roll` example carries).
///
/// ```
/// var g = SplitMix64(seed: 1)
/// g.next() // 0x910A2DEC89025CC1
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The state; starts at the seed.
    public private(set) var state: UInt64

    /// Creates a generator whose state starts at `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The step the state advances by at each value (2⁶⁴ over the golden ratio, odd).
    @usableFromInline static let step: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The next 64-bit value. - Complexity: O(1).
    public mutating func next() -> UInt64 {
        state &+= Self.step
        return Self.mix(state)
    }

    /// The value the `n`-th call of `next()` (counting from 0) returns on a generator started
    /// at `seed`, without the calls before it: the state only ever advances by `step`, so the
    /// n-th value is the mix of `seed + (n + 1)·step` (mod 2⁶⁴).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public static func value(_ n: Int, seed: UInt64) -> UInt64 {
        mix(seed &+ (UInt64(truncatingIfNeeded: n) &+ 1) &* step)
    }

    /// The output function: a state's bits mixed (two xor-shift-multiply rounds and a final
    /// xor-shift).
    @inlinable @inline(__always)
    static func mix(_ state: UInt64) -> UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The remainder of a 64-bit number by a divisor fixed in advance, by a multiply and shifts
/// instead of a division: the division instruction takes tens of cycles, and the embedded
/// data's `r % spread` is taken for every item (it was a third of a waterfall's own time).
///
/// Granlund and Montgomery's method ("Division by invariant integers using multiplication",
/// 1994), in the branch-free form libdivide uses: with ℓ = ⌊log₂ d⌋ and m = ⌊2^(64+ℓ+1) / d⌋
/// + 1 − 2⁶⁴ (d not a power of two), n / d = (q + (n − q) / 2) >> ℓ where q = ⌊m·n / 2⁶⁴⌋,
/// exact for every 64-bit n; a power of two 2^ℓ takes m = 0 and shifts by ℓ − 1 after the
/// halving. A divisor of 1 has no such form, and its remainder is 0.
public struct FixedDivisor: Sendable, Hashable {
    /// The divisor, ≥ 1.
    public let divisor: UInt64
    @usableFromInline let magic: UInt64
    @usableFromInline let shift: UInt64

    /// Prepares division by `divisor`. - Precondition: `divisor` ≥ 1. - Complexity: O(1).
    public init(_ divisor: UInt64) {
        precondition(divisor >= 1, "divisor ≥ 1")
        self.divisor = divisor
        let log = UInt64(63 - divisor.leadingZeroBitCount)
        if divisor & (divisor - 1) == 0 {
            magic = 0
            shift = log &- 1  // unused for 1
        } else {
            // 2^(64+ℓ) = quotient·d + remainder, then doubled: m = ⌊2^(65+ℓ) / d⌋ + 1 − 2⁶⁴.
            let (quotient, remainder) = divisor.dividingFullWidth((high: 1 << log, low: 0))
            var doubled = quotient &+ quotient
            let twiceRemainder = remainder &+ remainder
            if twiceRemainder >= divisor || twiceRemainder < remainder { doubled &+= 1 }
            magic = doubled &+ 1
            shift = log
        }
    }

    /// `n / divisor`. - Complexity: O(1), no division.
    @inlinable @inline(__always)
    public func quotient(_ n: UInt64) -> UInt64 {
        if divisor == 1 { return n }
        let q = magic.multipliedFullWidth(by: n).high
        return ((n &- q) >> 1 &+ q) >> shift
    }

    /// `n % divisor`. - Complexity: O(1), no division.
    @inlinable @inline(__always)
    public func remainder(_ n: UInt64) -> UInt64 {
        n &- quotient(n) &* divisor
    }
}
