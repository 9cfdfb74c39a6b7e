// Seed 004's carousel (UPCarouselFlowLayout): one line of items whose alpha, scale and
// zIndex fall with their distance from the visible centre, snapping to the nearest item.

/// A single line of items along the scroll axis that fade and shrink away from the centre
/// (SPEC section 6 `carousel`, seed 004's `CharacterFlowLayout`, UPCarouselFlowLayout).
///
/// Insets of `(L − l₀)/2` before the first and `(L − l_last)/2` after the last item (L the
/// bounds' length along the scroll axis, l an item's length along it) put both ends in the
/// centre; items are `minimumLineSpacing` apart and centred across. For an item of centre
/// `c` at content offset `o`, along the scroll axis: `maxDistance = l + spacing`,
/// `distance = min(|L/2 − (c − o)|, maxDistance)`, `ratio = (maxDistance − distance) /
/// maxDistance` (with `maxDistance ≤ 0`: 1 at distance 0, else 0), `alpha = ratio·(1 −
/// standardItemAlpha) + standardItemAlpha`, the scale likewise with `standardItemScale`,
/// `zIndex = Int(alpha·10)`.
///
/// With the defaults on a 375×667 view, item `i` has centre `(187.5, 333.5 + 210·i)`; at
/// offset 105 items 0 and 1 are 105 points from the centre: ratio 0.5, alpha and scale
/// 0.75, zIndex 7.
public struct CarouselLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "carousel"

    /// Size of every item unless the data gives sizes, points (`itemSize`). Default 200×200.
    public var itemSize = Size(width: 200, height: 200)
    /// Gap between neighbouring items, points (`minimumLineSpacing`); may be negative down
    /// to minus the shortest item length, so that items overlap (seed 004). Default 10.
    public var minimumLineSpacing = 10.0
    /// The scroll axis. Default `.vertical` (seed 004).
    public var scrollDirection = ScrollDirection.vertical
    /// Alpha of items at `maxDistance` or farther, 0…1 (`standardItemAlpha`). Default 0.5.
    public var standardItemAlpha = 0.5
    /// Scale of items at `maxDistance` or farther, ≥ 0 (`standardItemScale`). Default 0.5.
    public var standardItemScale = 0.5

    /// Creates a carousel with the defaults above.
    public init() {}

    /// Lays out `items` along the scroll axis in a view of `bounds` size scrolled to
    /// `contentOffset`, which decides alpha, scale and zIndex.
    ///
    /// - Returns: one section; `contentSize` along the scroll axis is the insets, items and
    ///   spacing — `L + (n−1)·(l + spacing)` for uniform items, `max(0, L − l)` for none —
    ///   and across it the bounds.
    /// - Throws: `LayoutError.invalidParameter` for negative or non-finite sizes or bounds,
    ///   a spacing below minus the shortest item length, an alpha outside 0…1 or a negative
    ///   scale; `.invalidItem` for a bad item size.
    /// - Complexity: O(n).
    @_specialize(exported: true, where Sink == ElementBlocks)
    @_specialize(exported: true, where Sink == [LayoutAttributes])
    @_specialize(exported: true, where Sink == FiniteCheckSink)
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
            // Item i starts one spacing after item i − 1 ends; the last item is not followed
            // by a spacing (it could overflow where the layout itself does not).
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

    /// `(maxDistance − min(distance, maxDistance)) / maxDistance`, in 0…1; when
    /// `maxDistance ≤ 0`, 1 at distance 0 and 0 elsewhere; when it overflowed to infinity,
    /// 1 for a finite distance. - Complexity: O(1).
    public static func ratio(distance: Double, maxDistance: Double) -> Double {
        guard maxDistance > 0 else { return distance == 0 ? 1 : 0 }
        guard maxDistance.isFinite else { return distance.isFinite ? 1 : 0 }
        return (maxDistance - min(distance, maxDistance)) / maxDistance
    }

    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)` (seed 004):
    /// along the scroll axis, `floor(c − L/2)` for the cell centre `c` nearest the proposed
    /// visible centre (ties: the lower index), clamped to `[0, max(0, contentLength − L)]`;
    /// the other coordinate is the proposed one. The velocity is not used (as the seed and
    /// UPCarouselFlowLayout). With no cells the proposed offset is only clamped.
    /// - Complexity: O(n).
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

    // MARK: - Private

    private func validate(items: SectionItems, bounds: Size) throws {
        func fail(_ name: String, _ value: Double, _ requirement: LayoutError.Requirement) -> LayoutError {
            .invalidParameter(name: name, section: nil, value: value, requirement: requirement)
        }
        try requireFiniteNonNegative(["width": bounds.width, "height": bounds.height, "item-size": itemSize.width,
                                     "item-size": itemSize.height, "standard-scale": standardItemScale])
        guard standardItemAlpha >= 0, standardItemAlpha <= 1 else {
            throw fail("standard-alpha", standardItemAlpha, .unitInterval)
        }
        guard minimumLineSpacing.isFinite else { throw fail("spacing", minimumLineSpacing, .finite) }
        if minimumLineSpacing < 0 {
            // Items must not run backwards: spacing ≥ −(shortest length along the axis).
            var shortest = scrollDirection == .vertical ? itemSize.height : itemSize.width
            if case .sizes(let sizes) = items {
                shortest = sizes.map { scrollDirection == .vertical ? $0.height : $0.width }.min() ?? shortest
            }
            guard minimumLineSpacing >= -shortest else {
                throw fail("spacing", minimumLineSpacing, .atLeastMinus(shortestLength: shortest))
            }
        }
    }
}
