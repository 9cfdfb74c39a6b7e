// Concentric rings of avatars around the user's own avatar: seed 000's MyLayout.

/// The way items advance around a circle, on screen (y down).
public enum RotationDirection: String, Sendable, CaseIterable {
    /// Increasing angle: 12 → 3 → 6 → 9 o'clock.
    case clockwise
    /// Decreasing angle.
    case counterclockwise

    /// +1 for clockwise, −1 for counterclockwise.
    public var sign: Double { self == .clockwise ? 1 : -1 }

    /// Item `i` of `count` on the circle of radius `r` around `center`, at `startAngle ± 360·i/count`°.
    @inline(__always)
    func point(ofItem i: Int, count: Int, from startAngle: Double, radius r: Double, around center: Point) -> Point {
        let (sin, cos) = sinCos(degrees: startAngle + sign * 360 * Double(i) / Double(count))
        return Point(x: center.x + r * cos, y: center.y + r * sin)
    }
}

/// Concentric rings of round avatars (SPEC section 6 `ring`, seed 000): ring `s` is section
/// `s`, ring 0 at the bounds centre. Ring `s ≥ 1`: side `w_s = itemSize·shrink^s`, step
/// `step_s = ringSpacing + ringSpacingGrowth·(s+1)`, radius `r_s = radius + step_s·s − w_s/2`,
/// item `i` of `n_s` at `startAngle ± 360·i/n_s` degrees.
public struct RingLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "ring"
    /// Avatars are drawn round, as the original demo draws them.
    public static let drawsCellsRound = true

    /// Radius base, points. Default 60.
    public var radius = 60.0
    /// Base step between rings, points. Default 30.
    public var ringSpacing = 30.0
    /// Growth of the step per ring, points. Default 5.
    public var ringSpacingGrowth = 5.0
    /// Side of ring 0's square items, points. Default 40.
    public var itemSize = 40.0
    /// Factor applied to the item side per ring outward. Default 0.8.
    public var shrink = 0.8
    /// Angle of each ring's item 0, degrees (0° = 3 o'clock, −90° = 12 o'clock). Default −90.
    public var startAngle = -90.0
    /// Direction items advance. Default clockwise.
    public var direction = RotationDirection.clockwise

    /// Creates a ring layout with the defaults above.
    public init() {}

    /// Lays out rings of `ringCounts[s]` items (an empty ring keeps its index); `contentSize` is the bounds.
    /// - Throws: `LayoutError.invalidParameter` for a negative or non-finite setting or bounds.
    /// - Complexity: O(total items).
    public func layout<Sink: LayoutAttributesSink>(_ ringCounts: [Int], bounds: Size, contentOffset: Point = .zero,
                                                    into sink: inout Sink) throws -> CollectionLayout {
        var result = try summary(ringCounts: ringCounts, bounds: bounds)
        result.contentOffset = contentOffset
        let center = Point(x: bounds.width / 2, y: bounds.height / 2)
        sink.prepare(count: ringCounts.reduce(0, +))
        for (s, count) in ringCounts.enumerated() {
            let side = itemSide(ring: s)
            let r = ringRadius(ring: s)
            for i in 0..<count {
                sink.append(cell(item: i, ring: s, count: count, center: center, radius: r, side: side))
            }
        }
        return result
    }

    /// `radius` and `side` the ring's.
    @inline(__always)
    func cell(item i: Int, ring s: Int, count: Int, center: Point, radius r: Double, side: Double) -> LayoutAttributes {
        let c = s == 0 ? center : direction.point(ofItem: i, count: count, from: startAngle, radius: r, around: center)
        return .cell(IndexPath(item: i, section: s), frame: Rect(center: c, size: Size(width: side, height: side)))
    }

    /// Side of ring `ring`'s items, `itemSize·shrink^ring`, points.
    public func itemSide(ring: Int) -> Double {
        var side = itemSize
        // Repeated multiplication, as the seed's pow(0.8, s) for integral s, without libm.
        var factor = shrink, n = ring
        while n > 0 {
            if n & 1 == 1 { side *= factor }
            factor *= factor
            n >>= 1
        }
        return side
    }

    /// The distance of ring `ring`'s item centres from the bounds centre, `r_s` (ring 0: 0).
    public func ringRadius(ring: Int) -> Double {
        guard ring > 0 else { return 0 }
        let step = ringSpacing + ringSpacingGrowth * Double(ring + 1)
        return radius + step * Double(ring) - itemSide(ring: ring) / 2
    }

    func validate(bounds: Size, ringCounts: [Int]) throws {
        try requireFiniteNonNegative(["width": bounds.width, "height": bounds.height, "radius": radius,
                                     "ring-spacing": ringSpacing, "ring-spacing-growth": ringSpacingGrowth,
                                     "item-size": itemSize, "shrink": shrink])
        try require(startAngle.isFinite, "start-angle", startAngle, .finite)
        var total = 0
        for (s, n) in ringCounts.enumerated() {
            try require("rings", n, atLeast: 0, section: s)
            let (sum, overflow) = total.addingReportingOverflow(n)
            total = overflow ? Int.max : sum
        }
        if total > maximumElementCount {
            throw LayoutError.tooManyElements(count: total, limit: maximumElementCount)
        }
    }
}

/// A ring layout's cells computed one at a time, as `layout` does: what a streamed heart path reads.
public struct RingGeometry: ItemGeometry, Sendable {
    /// The engine and its settings.
    public let layout: RingLayout
    /// Items per ring.
    public let ringCounts: [Int]
    /// The collection view's bounds size, points; the rings centre in it.
    public let bounds: Size

    /// The geometry of `layout.layout(_:bounds:contentOffset:into:)`.
    public init(layout: RingLayout, ringCounts: [Int], bounds: Size) {
        self.layout = layout
        self.ringCounts = ringCounts
        self.bounds = bounds
    }

    /// One section a ring.
    public var numberOfSections: Int { ringCounts.count }

    /// The avatars of ring `section`; 0 for a section that does not exist.
    public func numberOfItems(inSection section: Int) -> Int {
        section >= 0 && section < ringCounts.count ? ringCounts[section] : 0
    }

    /// - Complexity: O(log ring) (the item side's powers of `shrink`).
    public func layoutAttributesForItem(at indexPath: IndexPath) -> LayoutAttributes? {
        let s = indexPath.section, i = indexPath.item
        guard i >= 0, i < numberOfItems(inSection: s) else { return nil }
        return layout.cell(item: i, ring: s, count: ringCounts[s],
                           center: Point(x: bounds.width / 2, y: bounds.height / 2),
                           radius: layout.ringRadius(ring: s), side: layout.itemSide(ring: s))
    }
}
