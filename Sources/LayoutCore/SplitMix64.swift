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
