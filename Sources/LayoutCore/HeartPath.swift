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

/// The path a heart flies along, from the avatar at `from` to `to`: a start point and cubic
/// Bézier segments (SPEC section 7), in points.
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

    /// The default start avatar: item 0 of the outermost non-empty ring beyond ring 0, or
    /// `nil` when no ring beyond ring 0 has items (then there is no heart path).
    public static func defaultStart(in layout: some ItemGeometry) -> IndexPath? {
        var s = layout.numberOfSections - 1
        while s >= 1 {
            if layout.numberOfItems(inSection: s) > 0 { return IndexPath(item: 0, section: s) }
            s -= 1
        }
        return nil
    }

    /// Seed 000's path from the avatar at `from` to the centre of a ring `layout`.
    ///
    /// For each non-empty ring strictly between `from`'s ring and ring 0, outer to inner: the
    /// item nearest the start point (squared distances within 1e-9 tie; the lower index wins;
    /// the seed never moves the reference point), then of its two neighbours the one whose
    /// midpoint with it is nearer the start point, the squared distances truncated to integers
    /// as the seed's `long long` does (a tie takes the following item; a one-item ring is its
    /// own neighbour). These picks, followed by the centre, form a list whose first two
    /// entries are the control points of one cubic from the start to the centre; when the list
    /// holds only the centre the path is straight, with controls at 1/3 and 2/3.
    /// The centre is item 0:0's centre, or the bounds centre when ring 0 is empty.
    ///
    /// - Returns: `nil` when `from` is not an item of `layout`.
    /// - Complexity: O(items in the rings crossed).
    public static func seed(from: IndexPath, in layout: some ItemGeometry) -> HeartPath? {
        guard let startAttributes = layout.layoutAttributesForItem(at: from) else { return nil }
        let start = startAttributes.center
        let centre = layout.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.center
            ?? Point(x: layout.bounds.width / 2, y: layout.bounds.height / 2)
        var list: [Point] = []
        var ring = from.section - 1
        while ring >= 1 && list.count < 2 {
            let n = layout.numberOfItems(inSection: ring)
            if n > 0 {
                func point(_ i: Int) -> Point {
                    layout.layoutAttributesForItem(at: IndexPath(item: i, section: ring))!.center
                }
                var nearest = 0
                var best = point(0).squaredDistance(to: start)
                for i in 1..<max(n, 1) {
                    let d = point(i).squaredDistance(to: start)
                    if d < best - 1e-9 {
                        best = d
                        nearest = i
                    }
                }
                let pre = (nearest - 1 + n) % n, after = (nearest + 1) % n
                let here = point(nearest)
                let d1 = here.midpoint(point(pre)).squaredDistance(to: start).rounded(.towardZero)
                let d2 = here.midpoint(point(after)).squaredDistance(to: start).rounded(.towardZero)
                list.append(point(d1 < d2 ? pre : after))
            }
            ring -= 1
        }
        list.append(centre)
        let segment: BezierSegment
        if list.count >= 2 {
            segment = BezierSegment(control1: list[0], control2: list[1], end: centre)
        } else {
            segment = BezierSegment(
                control1: Point(x: start.x + (centre.x - start.x) / 3, y: start.y + (centre.y - start.y) / 3),
                control2: Point(x: start.x + 2 * (centre.x - start.x) / 3,
                                y: start.y + 2 * (centre.y - start.y) / 3),
                end: centre)
        }
        return HeartPath(from: from, to: IndexPath(item: 0, section: 0), style: .seed,
                         start: start, segments: [segment])
    }
}

/// What the heart path reads of a layout: its bounds, its sections' item counts and the
/// attributes of single items. `CollectionLayout` answers from its elements;
/// `RingGeometry` computes them, for a ring layout whose elements were streamed and not kept.
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
