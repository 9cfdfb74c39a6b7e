// Seed 003's horizontal line, items shrinking away from the visible centre.

/// One horizontal row of items scaled by their distance from the visible centre (SPEC section
/// 6 `line`, seed 003's `LYPLineLayout`). Insets `(W − w₀)/2` and `(W − w_last)/2` let the
/// end items reach the centre; items are `minimumLineSpacing` apart, centred vertically, and
/// scaled by `scale(distance: |c.x − (o.x + W/2)|, …)` at offset `o`.
public struct LineLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "line"

    /// Size of every item unless the data gives sizes, points (`itemSize`). Default 130×130.
    public var itemSize = Size(width: 130, height: 130)
    /// Gap between neighbouring items, points (`minimumLineSpacing`). Default 10.
    public var minimumLineSpacing = 10.0
    /// Lower bound of the scale (the seed's is `−∞`). Default 0.
    public var minimumScale = 0.0

    /// Creates a line layout with the defaults above.
    public init() {}

    /// Lays out `items` in one row in a view of `bounds` size scrolled to `contentOffset`.
    /// - Throws: `LayoutError.invalidParameter` for a negative or non-finite size, spacing or
    ///   bound, or a non-finite minimum scale; `.invalidItem`.
    /// - Complexity: O(n).
    public func layout<Sink: LayoutAttributesSink>(_ items: SectionItems, bounds: Size, contentOffset: Point = .zero,
                                                    into sink: inout Sink) throws -> CollectionLayout {
        try validate(bounds: bounds)
        let n = items.count
        let w = bounds.width, visibleCenter = contentOffset.x + bounds.width / 2
        sink.prepare(count: n)
        var x = 0.0
        var last: Rect? = nil
        for i in 0..<n {
            let size = try items.size(at: i, default: itemSize)
            if i == 0 { x = (w - size.width) / 2 }
            var attributes = LayoutAttributes.cell(IndexPath(item: i, section: 0), frame: Rect(
                x: x, y: (bounds.height - size.height) / 2, width: size.width, height: size.height))
            let scale = Self.scale(distance: abs(attributes.center.x - visibleCenter), width: w,
                                   minimumScale: minimumScale)
            attributes.transform = AffineTransform(scaleX: scale, y: scale)
            sink.append(attributes)
            last = attributes.frame
            x += size.width + minimumLineSpacing
        }
        let contentWidth = last.map { $0.maxX + (w - $0.width) / 2 } ?? w - itemSize.width
        return CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset,
                                contentSize: Size(width: max(0, contentWidth), height: bounds.height),
                                elements: [], cellRanges: [(start: 0, count: n)], scrollDirection: .horizontal)
    }

    /// `max(minimumScale, 1 − distance/width)`; a zero `width` gives 1 at distance 0, else `minimumScale`.
    public static func scale(distance: Double, width: Double, minimumScale: Double) -> Double {
        let ratio = width > 0 ? distance / width : (distance == 0 ? 0 : Double.infinity)
        return max(minimumScale, 1 - ratio)
    }

    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)` (seed 003): centres
    /// the cell nearest `proposed.x + W/2` (`nearestCellCenter`, ahead in `velocity.x`'s
    /// direction), clamped to `[0, max(0, contentWidth − W)]`. - Complexity: O(n).
    public static func targetContentOffset(in layout: CollectionLayout, proposed: Point,
                                           velocity: Point) -> Point {
        let half = layout.bounds.width / 2
        let target = nearestCellCenter(in: layout, to: proposed.x + half, vertical: false,
                                       direction: velocity.x)
        let x = target.map { $0 - half } ?? proposed.x
        return Point(x: clamp(x, upTo: layout.contentSize.width - layout.bounds.width), y: proposed.y)
    }

    private func validate(bounds: Size) throws {
        try requireFiniteNonNegative(["width": bounds.width, "height": bounds.height, "item-size": itemSize.width,
                                     "item-size": itemSize.height, "spacing": minimumLineSpacing])
        try require(minimumScale.isFinite, "min-scale", minimumScale, .finite)
    }
}

/// The scroll-axis centre of the cell nearest `point` (ties: the lower index; a non-zero
/// `direction` admits only centres on its side unless none is); `nil` without cells. O(n).
func nearestCellCenter(in layout: CollectionLayout, to point: Double, vertical: Bool,
                       direction: Double = 0) -> Double? {
    // Whether `c` is nearer than the best so far: equal rounded distances on the same side of
    // `point` go to the closer centre; on opposite sides, a tie.
    func nearer(_ c: Double, _ d: Double, than best: Double?, _ bestDistance: Double) -> Bool {
        guard let best else { return true }
        if d != bestDistance { return d < bestDistance }
        return (c < point && best < point && c > best) || (c > point && best > point && c < best)
    }
    var best: Double? = nil, bestDistance = Double.infinity
    var bestAhead: Double? = nil, bestAheadDistance = Double.infinity
    for element in layout.elements where element.category == .cell {
        let c = vertical ? element.center.y : element.center.x
        let d = abs(c - point)
        if nearer(c, d, than: best, bestDistance) { best = c; bestDistance = d }
        let ahead = direction > 0 ? c >= point : (direction < 0 ? c <= point : false)
        if ahead && nearer(c, d, than: bestAhead, bestAheadDistance) { bestAhead = c; bestAheadDistance = d }
    }
    return bestAhead ?? best
}

func clamp(_ value: Double, upTo upper: Double) -> Double {
    max(0, min(value, max(0, upper)))
}
