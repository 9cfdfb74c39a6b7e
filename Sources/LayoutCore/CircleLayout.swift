// Items spaced evenly on one circle: seed 002's LFCircleLayout and seed 003's LYPCircleLayout.

/// Items on one circle around the bounds centre (SPEC section 6 `circle`, seeds 002 and 003):
/// item `i` of `n` centred at `(cx + r·cos θ, cy + r·sin θ)`, θ = `startAngle ± 360·i/n` degrees
/// (0° at 3 o'clock, +90° at 6); defaults are seed 002's. `contentSize` is the bounds.
public struct CircleLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "circle"
    /// Avatars are drawn round, as the original demo draws them.
    public static let drawsCellsRound = true

    /// Distance from the bounds centre to the item centres, points. Default 100.
    public var radius = 100.0
    /// Size of every item unless the data gives sizes, points. Default 60×60.
    public var itemSize = Size(width: 60, height: 60)
    /// Angle of item 0, degrees. Default 0 (3 o'clock).
    public var startAngle = 0.0
    /// Direction items advance on screen. Default counterclockwise (seed 002's `cy − r·sin`).
    public var direction = RotationDirection.counterclockwise
    /// Whether a lone item sits at the centre (seed 003). Default `false`.
    public var centersSingleItem = false

    /// Creates a circle layout with the defaults above.
    public init() {}

    /// Places `items` on the circle in `bounds`; `contentOffset` is only recorded.
    /// - Throws: `LayoutError.invalidParameter` for a negative or non-finite radius, size or
    ///   bound, or a non-finite start angle; `.invalidItem` for a bad item size.
    /// - Complexity: O(n).
    public func layout<Sink: LayoutAttributesSink>(_ items: SectionItems, bounds: Size, contentOffset: Point = .zero,
                                                    into sink: inout Sink) throws -> CollectionLayout {
        try validate(bounds: bounds)
        let n = items.count
        let center = Point(x: bounds.width / 2, y: bounds.height / 2)
        sink.prepare(count: n)
        for i in 0..<n {
            let c = n == 1 && centersSingleItem
                ? center : direction.point(ofItem: i, count: n, from: startAngle, radius: radius, around: center)
            sink.append(.cell(IndexPath(item: i, section: 0),
                                  frame: Rect(center: c, size: try items.size(at: i, default: itemSize))))
        }
        return summary(items: items, bounds: bounds, contentOffset: contentOffset)
    }

    func validate(bounds: Size) throws {
        try requireFiniteNonNegative(["width": bounds.width, "height": bounds.height, "radius": radius,
                                     "item-size": itemSize.width, "item-size": itemSize.height])
        try require(startAngle.isFinite, "start-angle", startAngle, .finite)
    }
}
