import LayoutCore

/// The paint of every SVG picture, each rule once (docs/REFERENCE.md's SVG section); colours
/// are `StaticString` literals for the hot path, every function inlined and O(1).
public enum SVGPaint {
    /// Cell fills, chosen by item number modulo the count (Tableau 10).
    public static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                 "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]
    /// Fill of views without a role of their own, and their labels' colour.
    public static let viewFill = "#dddddd", viewLabelColour = "#333333"

    // MARK: Fills

    /// `palette[item % 10]` as a literal (a test checks the two agree).
    @inline(__always)
    public static func fill(item: Int) -> StaticString {
        switch item % 10 {
        case 0: "#4e79a7"
        case 1: "#f28e2b"
        case 2: "#e15759"
        case 3: "#76b7b2"
        case 4: "#59a14f"
        case 5: "#edc948"
        case 6: "#b07aa1"
        case 7: "#ff9da7"
        case 8: "#9c755f"
        default: "#bab0ac"
        }
    }

    /// `palette`'s colours as 7-byte little-endian words: a cell's fill in one load and store.
    nonisolated(unsafe) static let fillWords: UnsafePointer<UInt64> = {  // only read once built
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: palette.count)
        for (k, colour) in palette.enumerated() {
            var word: UInt64 = 0
            for (j, byte) in colour.utf8.prefix(8).enumerated() { word |= UInt64(byte) << (8 * j) }
            words[k] = word
        }
        return UnsafePointer(words)
    }()

    /// A view's fill and outline by its role, between `fill="` and the last quote.
    @inline(__always)
    public static func viewPaint(_ kind: ElementKind?) -> StaticString {
        switch kind?.role {
        case .badge: "#d62728\" stroke=\"#ffffff\" stroke-width=\"1"
        case .decoration: "#eef2f8\" stroke=\"#8da2c0\" stroke-width=\"1\" stroke-dasharray=\"3 2"
        default: "#dddddd\" stroke=\"#888888\" stroke-width=\"0.5"
        }
    }

    // MARK: Labels

    /// The lowest alpha at which the first palette entry keeps a white label.
    public static let whiteLabelAlpha = 0.954

    /// The label colour of a cell drawn at `alpha`: white on the first palette entry down to
    /// `whiteLabelAlpha` (below, its blend with white contrasts more with dark text; tested).
    @inline(__always)
    public static func cellLabelColour(lastDigitIsZero: Bool, alpha: Double = 1) -> StaticString {
        lastDigitIsZero && alpha >= whiteLabelAlpha ? "#ffffff" : "#1a1a1a"
    }

    /// `cellLabelColour` of item `item`.
    @inline(__always)
    public static func cellLabelColour(item: Int, alpha: Double = 1) -> StaticString {
        cellLabelColour(lastDigitIsZero: item % 10 == 0, alpha: alpha)
    }

    /// An opaque label's colour over its shape at its alpha (the transition's fade: alpha 1).
    @inline(__always)
    public static func labelColour(_ element: LayoutAttributes) -> StaticString {
        element.category == .cell ? cellLabelColour(item: element.indexPath.item, alpha: element.alpha) : "#333333"
    }

    /// The halo of a label drawn above the visible bounds' outline: its shape's fill.
    @inline(__always)
    public static func haloColour(_ element: LayoutAttributes) -> StaticString {
        if element.category == .cell { return fill(item: element.indexPath.item) }
        return element.kind?.role == .badge ? "#d62728" : "#dddddd"
    }

    // MARK: Opacity and corners

    /// The opacity an alpha is drawn at: clamped to 0…1 (`-0` and NaN as they come).
    @inline(__always)
    public static func opacity(_ alpha: Double) -> Double {
        let low = 0 >= alpha ? 0 : alpha  // Swift.max(alpha, 0)
        return 1 < low ? 1 : low          // Swift.min(low, 1)
    }

    /// A cell's corner radius, points: `min(4, width/4, height/4)`.
    @inline(__always)
    public static func cellCornerRadius(width: Double, height: Double) -> Double {
        let r = width / 4 < 4 ? width / 4 : 4
        return height / 4 < r ? height / 4 : r
    }

    /// A badge's corner radius, points: half its shorter side (a pill).
    @inline(__always)
    public static func badgeCornerRadius(width: Double, height: Double) -> Double {
        (height < width ? height : width) / 2
    }

    /// The corner radius at `size`: half the width drawn round (`drawsCellsRound`), a cell's or
    /// a badge's; `nil` for other views.
    @inline(__always)
    public static func cornerRadius(_ element: LayoutAttributes, size: Size, round: Bool) -> Double? {
        if round { return size.width / 2 }
        if element.category == .cell { return cellCornerRadius(width: size.width, height: size.height) }
        return element.kind?.role == .badge ? badgeCornerRadius(width: size.width, height: size.height) : nil
    }
}
