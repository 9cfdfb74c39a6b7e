/// SplitMix64 (Steele, Lea & Flood, 2014), fixed by SPEC section 6 for the embedded random
/// data so `--seed` gives the same heights everywhere (seed 1's first value: 0x910A2DEC89025CC1).
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

    /// The value of the `n`-th `next()` (from 0) from `seed`: the mix of `seed + (n + 1)·step`.
    @inlinable @inline(__always)
    public static func value(_ n: Int, seed: UInt64) -> UInt64 {
        mix(seed &+ (UInt64(truncatingIfNeeded: n) &+ 1) &* step)
    }

    /// The output function: two xor-shift-multiply rounds and a xor-shift.
    @inlinable @inline(__always)
    static func mix(_ state: UInt64) -> UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Division by a divisor fixed in advance, by a multiply and shifts (a division takes tens of
/// cycles; the embedded data's `r % spread` is taken for every item). Granlund and
/// Montgomery (1994), libdivide's branch-free form: ℓ = ⌊log₂ d⌋, m = ⌊2^(65+ℓ) / d⌋ + 1 − 2⁶⁴,
/// q = ⌊m·n / 2⁶⁴⌋, n / d = (q + (n − q) / 2) >> ℓ; a power of two takes m = 0, shift ℓ − 1.
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
