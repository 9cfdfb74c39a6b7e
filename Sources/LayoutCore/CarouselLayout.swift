// Seed 004's carousel (UPCarouselFlowLayout), items fading and shrinking away from the centre.

/// One line of items along the scroll axis (SPEC section 6 `carousel`, seed 004's `CharacterFlowLayout`).
/// Insets `(L − l₀)/2` and `(L − l_last)/2` let the end items reach the centre; items are
/// `minimumLineSpacing` apart, centred across. An item centred at `c` at offset `o` has
/// `ratio(distance: |L/2 − (c − o)|, maxDistance: l + spacing)`, `zIndex = Int(alpha·10)`,
/// `alpha = ratio·(1 − standardItemAlpha) + standardItemAlpha`, the scale likewise.
public struct CarouselLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "carousel"

    /// Size of every item unless the data gives sizes, points (`itemSize`). Default 200×200.
    public var itemSize = Size(width: 200, height: 200)
    /// Gap between items, points (`minimumLineSpacing`), ≥ −(shortest item length): overlaps. Default 10.
    public var minimumLineSpacing = 10.0
    /// The scroll axis. Default `.vertical` (seed 004).
    public var scrollDirection = ScrollDirection.vertical
    /// Alpha of items at `maxDistance` or farther, 0…1 (`standardItemAlpha`). Default 0.5.
    public var standardItemAlpha = 0.5
    /// Scale of items at `maxDistance` or farther, ≥ 0 (`standardItemScale`). Default 0.5.
    public var standardItemScale = 0.5

    /// Creates a carousel with the defaults above.
    public init() {}

    /// Lays out `items` in a view of `bounds` size scrolled to `contentOffset`.
    /// - Throws: `LayoutError.invalidParameter` for a negative or non-finite size or bound, a
    ///   spacing below minus the shortest item, an alpha outside 0…1; `.invalidItem`.
    /// - Complexity: O(n).
    public func layout<Sink: LayoutAttributesSink>(_ items: SectionItems, bounds: Size, contentOffset: Point = .zero,
                                                    into sink: inout Sink) throws -> CollectionLayout {
        try validate(items: items, bounds: bounds)
        let vertical = scrollDirection == .vertical
        let n = items.count
        let viewLength = vertical ? bounds.height : bounds.width
        let crossCenter = (vertical ? bounds.width : bounds.height) / 2
        let offset = vertical ? contentOffset.y : contentOffset.x
        sink.prepare(count: n)
        var position = 0.0, lastLength = vertical ? itemSize.height : itemSize.width
        for i in 0..<n {
            let size = try items.size(at: i, default: itemSize)
            let length = vertical ? size.height : size.width
            // No spacing after the last item (it could overflow where the layout does not).
            position = i == 0 ? (viewLength - length) / 2 : position + (lastLength + minimumLineSpacing)
            let center = position + length / 2
            let frame = vertical ? Rect(center: Point(x: crossCenter, y: center), size: size)
                : Rect(center: Point(x: center, y: crossCenter), size: size)
            let ratio = Self.ratio(distance: abs(viewLength / 2 - (center - offset)),
                                   maxDistance: length + minimumLineSpacing)
            let alpha = ratio * (1 - standardItemAlpha) + standardItemAlpha
            let scale = ratio * (1 - standardItemScale) + standardItemScale
            sink.append(LayoutAttributes(indexPath: IndexPath(item: i, section: 0), category: .cell, kind: nil,
                                             frame: frame, transform: AffineTransform(scaleX: scale, y: scale),
                                             alpha: alpha, zIndex: alpha.isFinite ? Int(alpha * 10) : 0))
            lastLength = length
        }
        // After the loop `position` is where the last item starts.
        let contentLength = n == 0 ? viewLength - lastLength
            : position + lastLength + (viewLength - lastLength) / 2
        let contentSize = vertical ? Size(width: bounds.width, height: max(0, contentLength))
            : Size(width: max(0, contentLength), height: bounds.height)
        return CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset,
                                contentSize: contentSize, elements: [], cellRanges: [(start: 0, count: n)],
                                scrollDirection: scrollDirection)
    }

    /// `(maxDistance − min(distance, maxDistance)) / maxDistance`; for `maxDistance ≤ 0`, 1 at
    /// distance 0 else 0; for an infinite one, 1 at a finite distance.
    public static func ratio(distance: Double, maxDistance: Double) -> Double {
        guard maxDistance > 0 else { return distance == 0 ? 1 : 0 }
        guard maxDistance.isFinite else { return distance.isFinite ? 1 : 0 }
        return (maxDistance - min(distance, maxDistance)) / maxDistance
    }

    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)` (seed 004):
    /// `floor(c − L/2)` for the cell centre `c` nearest the proposed visible centre, clamped
    /// to `[0, max(0, contentLength − L)]`; the velocity is not used. - Complexity: O(n).
    public static func targetContentOffset(in layout: CollectionLayout, proposed: Point,
                                           velocity: Point) -> Point {
        let vertical = layout.scrollDirection == .vertical
        let half = (vertical ? layout.bounds.height : layout.bounds.width) / 2
        let proposedV = vertical ? proposed.y : proposed.x
        let target = nearestCellCenter(in: layout, to: proposedV + half, vertical: vertical)
            .map { ($0 - half).rounded(.down) } ?? proposedV
        let upper = vertical ? layout.contentSize.height - layout.bounds.height
            : layout.contentSize.width - layout.bounds.width
        let v = clamp(target, upTo: upper)
        return vertical ? Point(x: proposed.x, y: v) : Point(x: v, y: proposed.y)
    }

    private func validate(items: SectionItems, bounds: Size) throws {
        try requireFiniteNonNegative(["width": bounds.width, "height": bounds.height, "item-size": itemSize.width,
                                     "item-size": itemSize.height, "standard-scale": standardItemScale])
        try require(standardItemAlpha >= 0 && standardItemAlpha <= 1, "standard-alpha", standardItemAlpha, .unitInterval)
        try require(minimumLineSpacing.isFinite, "spacing", minimumLineSpacing, .finite)
        if minimumLineSpacing < 0 {
            // Items must not run backwards: spacing ≥ −(shortest length along the axis).
            var shortest = scrollDirection == .vertical ? itemSize.height : itemSize.width
            if case .sizes(let sizes) = items {
                shortest = sizes.map { scrollDirection == .vertical ? $0.height : $0.width }.min() ?? shortest
            }
            try require(minimumLineSpacing >= -shortest, "spacing", minimumLineSpacing,
                        .atLeastMinus(shortestLength: shortest))
        }
    }
}
