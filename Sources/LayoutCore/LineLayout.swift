// Seed 003's horizontal line: a flow layout of one row whose items shrink with their
// distance from the visible centre, and that snaps the nearest item to the centre.

/// One horizontal row of items that scale by their distance from the visible centre
/// (SPEC section 6 `line`, seed 003's `LYPLineLayout`).
///
/// The left inset `(W − w₀)/2` and right inset `(W − w_last)/2` let the first and the last
/// item sit in the centre; items are `minimumLineSpacing` apart and centred vertically. At
/// content offset `o`, an item whose centre is `c` gets the scale
/// `max(minimumScale, 1 − |c.x − (o.x + W/2)| / W)` about its centre (a zero-width view
/// scales the item at the centre by 1, every other by `minimumScale`).
///
/// With the defaults on a 375×200 view, item `i` has centre `(187.5 + 140·i, 100)`; at
/// offset 70, items 0 and 1 are both 70 points from the visible centre 257.5 and scale by
/// `1 − 70/375 = 0.813333…`.
public struct LineLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "line"

    /// Size of every item unless the data gives sizes, points (`itemSize`). Default 130×130.
    public var itemSize = Size(width: 130, height: 130)
    /// Gap between neighbouring items, points (`minimumLineSpacing` of a horizontal flow).
    /// Default 10.
    public var minimumLineSpacing = 10.0
    /// Lower bound of the scale; the seed does not clamp, which is `−∞` (a negative scale
    /// mirrors the item). Default 0.
    public var minimumScale = 0.0

    /// Creates a line layout with the defaults above.
    public init() {}

    /// Lays out `items` in one row in a view of `bounds` size scrolled to `contentOffset`,
    /// which decides the scales.
    ///
    /// - Returns: one section, scrolling horizontally; `contentSize` is
    ///   `(left inset + items + spacing + right inset, H)` — `W + (n−1)·(w + spacing)` for
    ///   uniform items, `max(0, W − w)` (the insets alone) for no items.
    /// - Throws: `LayoutError.invalidParameter` for negative or non-finite sizes, spacing or
    ///   bounds, or a non-finite minimum scale; `.invalidItem` for a bad item size.
    /// - Complexity: O(n).
    @_specialize(exported: true, where Sink == ElementBlocks)
    @_specialize(exported: true, where Sink == [LayoutAttributes])
    @_specialize(exported: true, where Sink == FiniteCheckSink)
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
            var attributes = LayoutAttributes.cell(IndexPath(item: i, section: 0),
                                                   frame: Rect(x: x, y: (bounds.height - size.height) / 2,
                                                               width: size.width, height: size.height))
            let scale = Self.scale(distance: abs(attributes.center.x - visibleCenter), width: w,
                                   minimumScale: minimumScale)
            attributes.transform = AffineTransform(scaleX: scale, y: scale)
            sink.append(attributes)
            last = attributes.frame
            x += size.width + minimumLineSpacing
        }
        let contentWidth: Double
        if let last {
            contentWidth = last.maxX + (w - last.width) / 2
        } else {
            contentWidth = w - itemSize.width
        }
        return CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset,
                                contentSize: Size(width: max(0, contentWidth), height: bounds.height),
                                elements: [], cellRanges: [(start: 0, count: n)],
                                scrollDirection: .horizontal)
    }

    /// `max(minimumScale, 1 − distance/width)`; a zero `width` gives 1 at distance 0 and
    /// `minimumScale` elsewhere. - Complexity: O(1).
    public static func scale(distance: Double, width: Double, minimumScale: Double) -> Double {
        let ratio = width > 0 ? distance / width : (distance == 0 ? 0 : Double.infinity)
        return max(minimumScale, 1 - ratio)
    }

    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)`: centres the
    /// cell of `layout` whose centre is nearest the proposed visible centre
    /// `proposed.x + W/2` (seed 003; ties: the lower index). With a non-zero `velocity.x`,
    /// only cells at or beyond that centre in the direction of motion count, falling back to
    /// the nearest of all. The result is clamped to `[0, max(0, contentWidth − W)]`; `y` is
    /// the proposed one. With no cells the proposed offset is only clamped.
    /// - Complexity: O(n).
    public static func targetContentOffset(in layout: CollectionLayout, proposed: Point,
                                           velocity: Point) -> Point {
        let half = layout.bounds.width / 2
        let target = nearestCellCenter(in: layout, to: proposed.x + half, vertical: false,
                                       direction: velocity.x)
        let x = target.map { $0 - half } ?? proposed.x
        return Point(x: clamp(x, upTo: layout.contentSize.width - layout.bounds.width), y: proposed.y)
    }

    // MARK: - Private

    private func validate(bounds: Size) throws {
        try requireFiniteNonNegative(["width": bounds.width, "height": bounds.height, "item-size": itemSize.width,
                                     "item-size": itemSize.height, "spacing": minimumLineSpacing])
        guard minimumScale.isFinite else {
            throw LayoutError.invalidParameter(name: "min-scale", section: nil, value: minimumScale,
                                               requirement: .finite)
        }
    }
}

// MARK: - Shared by the line, carousel, stack and circle layouts

/// The scroll-axis centre of the cell of `layout` nearest `point` along that axis (ties: the
/// lower index). A positive `direction` admits only centres ≥ `point`, a negative one only
/// centres ≤ `point`, falling back to all cells when none qualifies; `nil` without cells.
/// - Complexity: O(n).
func nearestCellCenter(in layout: CollectionLayout, to point: Double, vertical: Bool,
                       direction: Double = 0) -> Double? {
    // Whether `c` is nearer `point` than the best so far. Far from the items the rounded
    // distances can be equal although the centres differ: on the same side of `point`, the
    // centre closer to it is the nearer one; on opposite sides it is a tie (lower index).
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

/// `value` clamped to `[0, max(0, upper)]`.
func clamp(_ value: Double, upTo upper: Double) -> Double {
    max(0, min(value, max(0, upper)))
}
