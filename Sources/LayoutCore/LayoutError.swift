// Errors the core throws. Small and Equatable; the CLI maps each to a message and an exit
// status in one place (two-tier errors, as swift-argument-parser does).

/// Why a layout could not be computed. Every case is bad data (exit status 65 on the command
/// line): the CLI adds the file, JSON path or flag that supplied the value.
public enum LayoutError: Error, Equatable, Sendable {
    /// A parameter is outside its domain. `name` is the parameter's flag name without dashes
    /// (`columns`, `item-spacing`); `section` is set when the value is a per-section override;
    /// `value` is NaN when the parameter should not have been given at all (a dataset key an
    /// engine does not use), whatever its value.
    case invalidParameter(name: String, section: Int?, value: Double, reason: String)
    /// One item's measure is invalid (a negative or non-finite height, a size of width 0).
    case invalidItem(IndexPath, reason: String)
    /// The columns of a waterfall section leave no positive width: `columnWidth ≤ 0`.
    /// `section` is set when the section has its own column count or insets (else the
    /// layout's settings are the cause).
    case columnsDoNotFit(section: Int?, columns: Int, columnWidth: Double, availableWidth: Double)
    /// A header or footer would have a negative width after its insets.
    case supplementaryTooWide(kind: ElementKind, section: Int, width: Double)
    /// The computed layout holds a number that is not finite (sizes that overflow when summed).
    case nonFiniteLayout(what: String)
    /// More elements than the 10,000,000 SPEC section 5 allows.
    case tooManyElements(count: Int, limit: Int)
}

/// SPEC section 5: at most this many elements in one layout.
public let maximumElementCount = 10_000_000

/// Throws `LayoutError.invalidParameter` ("expected a finite number ≥ 0") for the first
/// value that is negative, infinite or NaN; `name` is its flag name without dashes.
/// - Complexity: O(values).
func requireFiniteNonNegative(_ values: KeyValuePairs<String, Double>) throws {
    for (name, value) in values where !value.isFinite || value < 0 {
        throw LayoutError.invalidParameter(name: name, section: nil, value: value,
                                           reason: "expected a finite number ≥ 0")
    }
}
