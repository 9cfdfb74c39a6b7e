// Seed 002's rotated pile.

/// A pile at the bounds centre (SPEC section 6 `stack`, seed 002's `LFStackLayout`), `contentSize` the
/// bounds: item `i < angles.count` rotated clockwise `angles[i]` degrees, `zIndex = n − i`; the rest hidden.
public struct StackLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "stack"

    /// Size of every item unless the data gives sizes, points. Default 150×150.
    public var itemSize = Size(width: 150, height: 150)
    /// Rotation of the items on top, degrees; one per visible item. Default 0, 15, 30, 45, 60.
    public var angles: [Double] = [0, 15, 30, 45, 60]

    /// Creates a stack layout with the defaults above.
    public init() {}

    /// Piles `items` at the centre of `bounds`; `contentOffset` is only recorded.
    /// - Throws: `LayoutError.invalidParameter` for a negative or non-finite size or bound, or
    ///   a non-finite angle; `.invalidItem` for a bad item size.
    /// - Complexity: O(n).
    public func layout<Sink: LayoutAttributesSink>(_ items: SectionItems, bounds: Size, contentOffset: Point = .zero,
                                                    into sink: inout Sink) throws -> CollectionLayout {
        try requireFiniteNonNegative(["width": bounds.width, "height": bounds.height, "item-size": itemSize.width,
                                     "item-size": itemSize.height])
        for angle in angles { try require(angle.isFinite, "angles", angle, .finiteAngles) }
        let n = items.count
        let center = Point(x: bounds.width / 2, y: bounds.height / 2)
        sink.prepare(count: n)
        for i in 0..<n {
            var attributes = LayoutAttributes.cell(IndexPath(item: i, section: 0),
                                                   frame: Rect(center: center, size: try items.size(at: i, default: itemSize)))
            if i < angles.count {
                attributes.transform = AffineTransform(rotationDegrees: angles[i])
                attributes.zIndex = n - i
            } else {
                attributes.isHidden = true
            }
            sink.append(attributes)
        }
        return CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset, contentSize: bounds,
                                elements: [], cellRanges: [(start: 0, count: n)])
    }
}
