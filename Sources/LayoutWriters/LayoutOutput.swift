import LayoutCore
import FastText

/// Where a writer's text goes, for the command line: `LayoutOutput(precision:sink:)` hands it
/// to `sink` in 1 MiB chunks, or keeps it (`bytes`); numbers at `precision`.
public typealias LayoutOutput = OutputBuffer

extension NumberPrecision {
    /// `value`'s text at this precision, as the writers write it (`1e-7` at `.full`:
    /// `0.0000001`; 2.675 at `.decimals(2)`: `2.67`).
    public func text(_ value: Double) -> String { NumberFormat.string(value, precision: self) }
}
