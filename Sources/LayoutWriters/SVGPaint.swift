import LayoutCore

/// The paint of every SVG picture cvlayout draws — the still picture (`SVGLayoutWriter`, its
/// plain specification `PlainLayoutWriter.svg`), the transition (`TransitionSVGWriter`), the
/// scrolling picture (`ScrollSVGWriter`): fills, label colours, halos, opacity and corner
/// radii, each rule once. docs/REFERENCE.md's SVG section says the same in words.
///
/// Colours are returned as `StaticString` literals, so a writer's hot path appends them
/// without a `String`; every function here is inlined and O(1).
public enum SVGPaint {
    /// Cell fills, chosen by item number modulo the count (Tableau 10).
    public static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                 "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]
    /// Label colours, one per palette entry at alpha 1: white or near-black (#1a1a1a),
    /// whichever contrasts more with the fill by WCAG's relative luminance (every pair at
    /// least 3:1; a test holds it).
    public static let labelColours = ["#ffffff", "#1a1a1a", "#1a1a1a", "#1a1a1a", "#1a1a1a",
                                      "#1a1a1a", "#1a1a1a", "#1a1a1a", "#1a1a1a", "#1a1a1a"]
    /// Fill of headers, footers and other views without a role of their own, and their
    /// labels' colour.
    public static let viewFill = "#dddddd", viewLabelColour = "#333333"

    // MARK: Fills

    /// `palette[item % 10]` as a literal (no String on the hot path); the two lists must
    /// agree (a test checks it).
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

    /// `palette`'s colours as words of their 7 bytes (little-endian), built once: the fast
    /// still writer stores a cell's fill with one load and one store, indexed by the last
    /// digit of the item's text.
    nonisolated(unsafe) static let fillWords: UnsafePointer<UInt64> = {  // only read once built
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: palette.count)
        for (k, colour) in palette.enumerated() {
            var word: UInt64 = 0
            for (j, byte) in colour.utf8.prefix(8).enumerated() { word |= UInt64(byte) << (8 * j) }
            words[k] = word
        }
        return UnsafePointer(words)
    }()

    /// The fill and outline of a view (an element other than a cell) by its kind's role,
    /// whatever its name, as the text between `fill="` and the attribute list's last quote:
    /// a badge a red pill outlined white, a decoration (section background) a pale dashed
    /// panel, a boundary item (header, footer) or a view without a kind grey.
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

    /// The label colour of a cell whose item's last digit is or is not 0, drawn at `alpha`
    /// with its label at full opacity over it. A faded cell shows its fill blended with the
    /// white background, lighter: the first palette entry, the only one with a white label,
    /// takes the dark one below alpha 0.954, where the blend's luminance passes 0.2016 and
    /// dark text contrasts more (a test checks the choice over every alpha). At alpha 1 it
    /// is `labelColours[item % 10]` (a test checks it).
    @inline(__always)
    public static func cellLabelColour(lastDigitIsZero: Bool, alpha: Double = 1) -> StaticString {
        lastDigitIsZero && alpha >= whiteLabelAlpha ? "#ffffff" : "#1a1a1a"
    }

    /// `cellLabelColour` of item `item`.
    @inline(__always)
    public static func cellLabelColour(item: Int, alpha: Double = 1) -> StaticString {
        cellLabelColour(lastDigitIsZero: item % 10 == 0, alpha: alpha)
    }

    /// The colour of an element's label drawn at full opacity over its shape drawn at its
    /// alpha (the still and scrolling pictures): a cell's `cellLabelColour`, any other
    /// view's dark grey. The transition fades a label with its shape, in one group: both
    /// blend with the background alike, white stays the better label on the first palette
    /// colour at every alpha, and so it takes the colour of alpha 1 (`cellLabelColour(item:)`).
    @inline(__always)
    public static func labelColour(_ element: LayoutAttributes) -> StaticString {
        element.category == .cell ? cellLabelColour(item: element.indexPath.item, alpha: element.alpha) : "#333333"
    }

    /// The halo of a label drawn above the visible bounds' outline (a stroke under its
    /// glyphs hiding the dashes): its shape's fill — a cell's palette colour, a badge's red,
    /// any other view's grey.
    @inline(__always)
    public static func haloColour(_ element: LayoutAttributes) -> StaticString {
        if element.category == .cell { return fill(item: element.indexPath.item) }
        return element.kind?.role == .badge ? "#d62728" : "#dddddd"
    }

    // MARK: Opacity and corners

    /// The opacity an element's alpha is drawn at: clamped to 0…1 (`-0` and NaN as they
    /// come). Writers write it only when the alpha is below 1.
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

    /// The corner radius of a shape of `size`: half the width for an engine that draws round
    /// (`CollectionLayout.drawsCellsRound`, every shape), a cell's `cellCornerRadius`, a
    /// badge's `badgeCornerRadius`; `nil` for square corners (other views).
    @inline(__always)
    public static func cornerRadius(_ element: LayoutAttributes, size: Size, round: Bool) -> Double? {
        if round { return size.width / 2 }
        if element.category == .cell { return cellCornerRadius(width: size.width, height: size.height) }
        return element.kind?.role == .badge ? badgeCornerRadius(width: size.width, height: size.height) : nil
    }
}
