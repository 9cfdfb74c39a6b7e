/// How many decimals numbers are printed with (`--precision`; the writers apply it).
public enum NumberPrecision: Hashable, Sendable {
    /// `n` decimals, 0…15: the decimal nearest to the exact binary value, exact halves away
    /// from zero, trailing zeros dropped.
    case decimals(Int)
    /// The shortest digits that round-trip to the same Double (Swift's `description`),
    /// written without an exponent.
    case full

    /// The default, 3 decimals.
    public static let standard = NumberPrecision.decimals(3)
}
