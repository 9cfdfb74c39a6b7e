// Errors the core throws. Small and Equatable; the CLI maps each to a message and an exit
// status in one place (two-tier errors, as swift-argument-parser does).

/// Why a layout could not be computed. Every case is bad data (exit status 65 on the command
/// line). Cases carry values, never prose: the CLI words them (`CLIError.from`) and adds the
/// file, JSON path or flag that supplied the value.
public enum LayoutError: Error, Equatable, Sendable {
    /// A parameter is outside its domain. `name` is the parameter's flag name without dashes
    /// (`columns`, `item-spacing`); `section` is set when the value is a per-section override.
    case invalidParameter(name: String, section: Int?, value: Double, requirement: Requirement)
    /// A parameter the engine does not use was given (a dataset section's key), whatever its
    /// value; `engine` is the engine's name.
    case unusedParameter(name: String, section: Int?, engine: String)
    /// One item's measure is invalid.
    case invalidItem(IndexPath, ItemProblem)
    /// An engine that lays out one section was given `count` sections.
    case tooManySections(engine: String, count: Int)
    /// The columns of a waterfall section leave no positive width: `columnWidth ≤ 0`.
    /// `section` is set when the section has its own column count or insets (else the
    /// layout's settings are the cause).
    case columnsDoNotFit(section: Int?, columns: Int, columnWidth: Double, availableWidth: Double)
    /// A header or footer would have a negative width after its insets.
    case supplementaryTooWide(kind: ElementKind, section: Int, width: Double)
    /// The computed layout holds a number that is not finite (sizes that overflow when summed).
    case nonFiniteLayout(NonFinite)
    /// More elements than the 10,000,000 SPEC section 5 allows.
    case tooManyElements(count: Int, limit: Int)
    /// A waterfall item spans more columns than its section has: item `item` of section
    /// `section` spans `span`; `columnsOfSection` when the section sets its own count.
    case spanTooWide(section: Int, item: Int, span: Int, columns: Int, columnsOfSection: Bool)
    /// A measured size (`--sizes`) whose key names no element of the compositional layout:
    /// `key` as written, `S:I` or `KIND S:I`.
    case unknownMeasurement(key: String)
    /// A batch update's item counts do not match the layout at one end of a transition
    /// (`final`: the layout after the update).
    case updateDoesNotFit(final: Bool, items: Int)

    /// The domain a parameter's value must lie in.
    public enum Requirement: Equatable, Sendable {
        /// Any finite number.
        case finite
        /// A finite number ≥ 0.
        case finiteNonNegative
        /// A finite number > 0.
        case finitePositive
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
        /// Room for a row between the insets less its spacing: flickr/justified-layout divides
        /// 0 by 0 for a row that has none and is clamped (`--compat flickr`).
        case flickrRowWidth
        /// Optimal breaking that looks at no more than this many rows inside the height band
        /// (`JustifiedLayout.optimalBandWork(items:)`; the value is the item count).
        case optimalBandRows(atMost: Int)
        /// At most this many columns, in a section whose items span columns.
        case spanningColumns(atMost: Int)
    }

    /// Which number of a computed layout is not finite.
    public enum NonFinite: Equatable, Sendable {
        /// The layout's `contentSize`.
        case contentSize
        /// A point of the ring's heart path.
        case heartPath
        /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)`'s result.
        case targetContentOffset
        /// The frame of the item at the index path.
        case item(IndexPath)
        /// The frame of a supplementary view (`kind` as named; `nil` for another element) of a section.
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
        /// A size whose height at the column width (height × column width ÷ width) is not finite.
        case scaledHeightNotFinite
        /// An aspect ratio (width ÷ height) that is not finite and > 0.
        case aspectRatio
    }
}

/// SPEC section 5: at most this many elements in one layout.
public let maximumElementCount = 10_000_000

/// Throws `LayoutError.invalidParameter` (`.finiteNonNegative`) for the first value that is
/// negative, infinite or NaN; `name` is its flag name without dashes.
/// - Complexity: O(values).
func requireFiniteNonNegative(_ values: KeyValuePairs<String, Double>) throws {
    for (name, value) in values where !value.isFinite || value < 0 {
        throw LayoutError.invalidParameter(name: name, section: nil, value: value, requirement: .finiteNonNegative)
    }
}
