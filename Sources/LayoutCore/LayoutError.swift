// Errors the core throws: values, never prose; the CLI words them (`CLIError.from`).

/// Why a layout could not be computed: bad data (exit status 65 on the command line).
public enum LayoutError: Error, Equatable, Sendable {
    /// A parameter is outside its domain: `name` is its flag name without dashes; `section` is
    /// set for a per-section override.
    case invalidParameter(name: String, section: Int?, value: Double, requirement: Requirement)
    /// A parameter the engine `engine` does not use was given (a dataset section's key).
    case unusedParameter(name: String, section: Int?, engine: String)
    /// One item's measure is invalid.
    case invalidItem(IndexPath, ItemProblem)
    /// An engine that lays out one section was given `count` sections.
    case tooManySections(engine: String, count: Int)
    /// A waterfall section's `columnWidth ≤ 0`; `section` set when its own settings cause it.
    case columnsDoNotFit(section: Int?, columns: Int, columnWidth: Double, availableWidth: Double)
    /// A header or footer would have a negative width after its insets.
    case supplementaryTooWide(kind: ElementKind, section: Int, width: Double)
    /// The computed layout holds a number that is not finite.
    case nonFiniteLayout(NonFinite)
    /// More elements than the 10,000,000 SPEC section 5 allows.
    case tooManyElements(count: Int, limit: Int)
    /// A waterfall item spans more columns than its section has (`columnsOfSection`: its own count).
    case spanTooWide(section: Int, item: Int, span: Int, columns: Int, columnsOfSection: Bool)
    /// A measured size (`--sizes`) whose key (`S:I` or `KIND S:I`) names no element.
    case unknownMeasurement(key: String)
    /// A batch update's item counts do not match a transition's layout (`final`: the later one).
    case updateDoesNotFit(final: Bool, items: Int)

    /// The domain a parameter's value must lie in.
    public enum Requirement: Equatable, Sendable {
        /// A finite number: any, ≥ 0, > 0.
        case finite, finiteNonNegative, finitePositive
        /// An integer ≥ the bound.
        case integer(atLeast: Int)
        /// A number from 0 to 1.
        case unitInterval
        /// A number ≥ −`shortestLength` (a spacing that lets items overlap, not run backwards).
        case atLeastMinus(shortestLength: Double)
        /// A line length ≥ 0 between the insets (the insets take more than the line).
        case lineLengthBetweenInsets
        /// Finite angles, every one of a list.
        case finiteAngles
        /// Room for a row between the insets less its spacing (Flickr divides 0 by 0 without).
        case flickrRowWidth
        /// At most this many rows inside the band (`JustifiedLayout.optimalBandWork(items:)`).
        case optimalBandRows(atMost: Int)
        /// At most this many columns, in a section whose items span columns.
        case spanningColumns(atMost: Int)
    }

    /// Which number of a computed layout is not finite.
    public enum NonFinite: Equatable, Sendable {
        /// The layout's `contentSize`, a point of its heart path, or `targetContentOffset(…)`'s result.
        case contentSize, heartPath, targetContentOffset
        /// The frame of the item at the index path.
        case item(IndexPath)
        /// The frame of a section's supplementary view (`kind`; `nil` for another element).
        case supplementary(kind: String?, section: Int)
        /// A width of a row flickr/justified-layout computes (`--compat flickr`).
        case flickrWidth(item: Int, section: Int)
    }

    /// What is wrong with an item's measure.
    public enum ItemProblem: Equatable, Sendable {
        /// A height that is negative or not finite.
        case height
        /// A size whose width or height is negative or not finite.
        case size(Size)
        /// A size of width 0 (the waterfall scales it to the column width).
        case sizeNeedsPositiveWidth
        /// A size whose height at the column width is not finite.
        case scaledHeightNotFinite
        /// An aspect ratio (width ÷ height) that is not finite and > 0.
        case aspectRatio
    }
}

/// SPEC section 5: at most this many elements in one layout.
public let maximumElementCount = 10_000_000

/// `requireFinite` for each value, keyed by its flag name without dashes.
func requireFiniteNonNegative(_ values: KeyValuePairs<String, Double>) throws {
    for (name, value) in values {
        try requireFinite(name, value)
    }
}

/// Throws `LayoutError.invalidParameter` for the first of `values` (`nil` skipped) that is not
/// finite and ≥ 0 (`.finiteNonNegative`), or > 0 when `positive` (`.finitePositive`).
func requireFinite(_ name: String, _ values: Double?..., positive: Bool = false, section: Int? = nil) throws {
    for case let value? in values where !value.isFinite || value < 0 || (positive && value == 0) {
        throw LayoutError.invalidParameter(name: name, section: section, value: value,
                                           requirement: positive ? .finitePositive : .finiteNonNegative)
    }
}

/// Throws `LayoutError.invalidParameter` for `value` unless `valid`.
func require(_ valid: Bool, _ name: String, _ value: Double, _ requirement: LayoutError.Requirement,
             section: Int? = nil) throws {
    guard valid else {
        throw LayoutError.invalidParameter(name: name, section: section, value: value, requirement: requirement)
    }
}

/// Throws `LayoutError.invalidParameter` (`.integer(atLeast:)`) for a `value` below `bound` (`nil`: none).
func require(_ name: String, _ value: Int?, atLeast bound: Int, section: Int? = nil) throws {
    guard let value else { return }
    try require(value >= bound, name, Double(value), .integer(atLeast: bound), section: section)
}

/// `requireFinite` for the four edges of `insets` (`nil`: none), top, left, bottom, right.
func requireFinite(_ name: String, insets: EdgeInsets?, section: Int? = nil) throws {
    try requireFinite(name, insets?.top, insets?.left, insets?.bottom, insets?.right, section: section)
}
