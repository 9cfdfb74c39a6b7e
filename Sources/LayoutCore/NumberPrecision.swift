/// How many decimals numbers are printed with (`--precision`; the writers apply it).
public enum NumberPrecision: Hashable, Sendable {
    /// `n` decimals, 0…15, nearest the exact value (halves away from zero), no trailing zeros.
    case decimals(Int)
    /// The shortest round-tripping digits (Swift's `description`), without an exponent.
    case full

    /// The default, 3 decimals.
    public static let standard = NumberPrecision.decimals(3)
}
