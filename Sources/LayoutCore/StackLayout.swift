// Seed 002's rotated pile: every item at the bounds centre, the first few rotated and on
// top, the rest hidden beneath.

/// A pile of items at the bounds centre (SPEC section 6 `stack`, seed 002's `LFStackLayout`).
///
/// Item `i < angles.count` is rotated by `angles[i]` degrees (screen convention: positive
/// turns clockwise) about its centre and gets `zIndex = n − i`, so item 0 lies on top; items
/// past the list are hidden (identity transform, zIndex 0). `contentSize` is the bounds.
///
/// With the defaults on a 375×400 view, every item has frame `(112.5, 125, 150, 150)`;
/// item 1 of 8 has transform `[cos 15°, sin 15°, −sin 15°, cos 15°, 0, 0]` ≈
/// `[0.966, 0.259, −0.259, 0.966, 0, 0]` and zIndex 7; item 5 is hidden.
public struct StackLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "stack"

    /// Size of every item unless the data gives sizes, points. Default 150×150.
    public var itemSize = Size(width: 150, height: 150)
    /// Rotation of the items on top, degrees; one per visible item. Default 0, 15, 30, 45, 60.
    public var angles: [Double] = [0, 15, 30, 45, 60]

    /// Creates a stack layout with the defaults above.
    public init() {}

    /// Piles `items` at the centre of `bounds`; `contentOffset` is only recorded (the pile
    /// does not scroll).
    /// - Throws: `LayoutError.invalidParameter` for negative or non-finite sizes or bounds,
    ///   or a non-finite angle; `.invalidItem` for a bad item size.
    /// - Complexity: O(n).
    @_specialize(exported: true, where Sink == ElementBlocks)
    @_specialize(exported: true, where Sink == [LayoutAttributes])
    @_specialize(exported: true, where Sink == FiniteCheckSink)
    public func layout<Sink: LayoutAttributesSink>(_ items: SectionItems, bounds: Size, contentOffset: Point = .zero,
                                                    into sink: inout Sink) throws -> CollectionLayout {
        try requireFiniteNonNegative(["width": bounds.width, "height": bounds.height, "item-size": itemSize.width,
                                     "item-size": itemSize.height])
        for angle in angles where !angle.isFinite {
            throw LayoutError.invalidParameter(name: "angles", section: nil, value: angle,
                                               requirement: .finiteAngles)
        }
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
