// The "send a heart" path of seed 000: a cubic Bézier from an outer avatar to the centre.

/// One cubic Bézier segment, continuing from the previous segment's end (or the path's start).
public struct BezierSegment: Hashable, Sendable {
    /// First control point.
    public var control1: Point
    /// Second control point.
    public var control2: Point
    /// End point.
    public var end: Point

    /// Creates the segment `C control1 control2 end`.
    public init(control1: Point, control2: Point, end: Point) {
        self.control1 = control1
        self.control2 = control2
        self.end = end
    }
}

/// How the heart path is constructed (SPEC section 7).
public enum HeartStyle: String, Sendable, CaseIterable {
    /// Seed 000's single cubic from the start avatar to the centre.
    case seed
    /// Any avatar to any avatar through the gaps between avatars (`HeartPath.smooth`).
    case smooth
}

/// A heart's path from avatar `from` to `to`: a start and cubic Bézier segments, points (SPEC section 7).
public struct HeartPath: Hashable, Sendable {
    /// Index path of the start avatar.
    public var from: IndexPath
    /// Index path of the end avatar (`0:0`, the centre, in the seed style).
    public var to: IndexPath
    /// The construction used.
    public var style: HeartStyle
    /// Start point: the centre of the `from` avatar.
    public var start: Point
    /// The cubic segments, in order.
    public var segments: [BezierSegment]

    /// Creates a path from its parts.
    public init(from: IndexPath, to: IndexPath, style: HeartStyle, start: Point, segments: [BezierSegment]) {
        self.from = from
        self.to = to
        self.style = style
        self.start = start
        self.segments = segments
    }

    /// The last segment's end, or `start` when there are none.
    public var end: Point { segments.last?.end ?? start }

    /// Whether every point is finite.
    public var isFinite: Bool {
        start.isFinite && segments.allSatisfy { $0.control1.isFinite && $0.control2.isFinite && $0.end.isFinite }
    }

    /// Item 0 of the outermost non-empty ring beyond ring 0; `nil` without one (no heart path).
    public static func defaultStart(in layout: some ItemGeometry) -> IndexPath? {
        let rings = stride(from: layout.numberOfSections - 1, through: 1, by: -1)
        return rings.first { layout.numberOfItems(inSection: $0) > 0 }.map { IndexPath(item: 0, section: $0) }
    }

    /// Seed 000's path from the avatar at `from` to the centre (item 0:0's, else the bounds').
    /// For each non-empty ring between, outer to inner: the item nearest the start
    /// (`nearestItem`), then of its two neighbours the one whose midpoint with it is nearer the
    /// start, squared distances truncated as the seed's `long long` (a tie: the following).
    /// The first two picks, then the centre, are the controls of one cubic; with none, the
    /// controls are at 1/3 and 2/3.
    /// - Returns: `nil` when `from` is not an item of `layout`.
    /// - Complexity: O(items in the rings crossed).
    public static func seed(from: IndexPath, in layout: some ItemGeometry) -> HeartPath? {
        guard let start = layout.layoutAttributesForItem(at: from)?.center else { return nil }
        let centre = layout.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.center
            ?? Point(x: layout.bounds.width / 2, y: layout.bounds.height / 2)
        var list: [Point] = []
        for ring in stride(from: from.section - 1, through: 1, by: -1) where list.count < 2 {
            let n = layout.numberOfItems(inSection: ring)
            guard n > 0 else { continue }
            func point(_ i: Int) -> Point { itemCentre(i, ring: ring, in: layout) }
            let nearest = nearestItem(ring: ring, count: n, to: start, in: layout)
            let pre = (nearest - 1 + n) % n, after = (nearest + 1) % n
            let here = point(nearest)
            let d1 = here.midpoint(point(pre)).squaredDistance(to: start).rounded(.towardZero)
            let d2 = here.midpoint(point(after)).squaredDistance(to: start).rounded(.towardZero)
            list.append(point(d1 < d2 ? pre : after))
        }
        list.append(centre)
        func third(_ k: Double) -> Point {
            Point(x: start.x + k * (centre.x - start.x) / 3, y: start.y + k * (centre.y - start.y) / 3)
        }
        let segment = BezierSegment(control1: list.count >= 2 ? list[0] : third(1),
                                    control2: list.count >= 2 ? list[1] : third(2), end: centre)
        return HeartPath(from: from, to: IndexPath(item: 0, section: 0), style: .seed,
                         start: start, segments: [segment])
    }
}

/// What the heart path reads of a layout: `CollectionLayout`'s elements, or `RingGeometry`'s computed ones.
public protocol ItemGeometry {
    /// The collection view's bounds size, points.
    var bounds: Size { get }
    /// Number of sections (rings).
    var numberOfSections: Int { get }
    /// Number of cells in `section` (0 when it does not exist).
    func numberOfItems(inSection section: Int) -> Int
    /// The cell at `indexPath`, or `nil` when out of range.
    func layoutAttributesForItem(at indexPath: IndexPath) -> LayoutAttributes?
}

extension CollectionLayout: ItemGeometry {}
