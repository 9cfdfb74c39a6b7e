// The smooth heart path (SPEC section 7): any avatar to any avatar through the gaps of the
// rings between, a centripetal Catmull–Rom spline; and arc-length sampling of any path.

import Foundation  // the C math library (sin, cos, atan2, tan)

/// One point of a path sampled evenly by arc length (`HeartPath.samples(count:)`).
public struct PathSample: Hashable, Sendable {
    /// The fraction of the path's length travelled, 0…1.
    public var t: Double
    /// The point on the path, points.
    public var point: Point
    /// The direction of travel, degrees (0° right, +90° down), in (−180, 180]; 0 on a still path.
    public var angle: Double

    /// Creates a sample.
    public init(t: Double, point: Point, angle: Double) {
        self.t = t
        self.point = point
        self.angle = angle
    }
}

extension HeartPath {
    /// The smooth path from the avatar at `from` to the one at `to` (`--heart-style smooth`):
    /// on one ring `s ≥ 1`, along its circle the shorter way (`arcSegments`); otherwise the
    /// Catmull–Rom spline (`catmullRomSegments(through:)`) through the two centres and the
    /// `smoothWaypoints(from:to:in:)`. `to = 0:0` with ring 0 empty ends at the bounds centre.
    /// Every number is finite for finite layouts.
    /// - Returns: `nil` when `from` or `to` is not an item of `layout`.
    /// - Complexity: O(items of the rings in between).
    public static func smooth(from: IndexPath, to: IndexPath, in layout: some ItemGeometry) -> HeartPath? {
        guard let start = layout.layoutAttributesForItem(at: from)?.center else { return nil }
        let centre = Point(x: layout.bounds.width / 2, y: layout.bounds.height / 2)
        guard let end = layout.layoutAttributesForItem(at: to)?.center
                ?? (to == IndexPath(item: 0, section: 0) && layout.numberOfItems(inSection: 0) == 0 ? centre : nil)
        else { return nil }
        let segments = from.section == to.section && from.section >= 1
            ? arcSegments(from: start, to: end, around: centre)
            : catmullRomSegments(through: [start] + (smoothWaypoints(from: from, to: to, in: layout) ?? []) + [end])
        return HeartPath(from: from, to: to, style: .smooth, start: start, segments: segments)
    }

    /// The smooth path's waypoints (SPEC section 7), in travel order: for each ring between
    /// with two items or more, the item nearest the reference point (`from`'s, then the last
    /// waypoint), then of the two gaps beside it the one whose midpoint on the ring's circle is
    /// nearer (within 1e-9: towards the following item).
    /// - Returns: `nil` when `from` is not an item of `layout`.
    /// - Complexity: O(items of the rings in between).
    public static func smoothWaypoints(from: IndexPath, to: IndexPath, in layout: some ItemGeometry) -> [Point]? {
        guard var reference = layout.layoutAttributesForItem(at: from)?.center else { return nil }
        let centre = Point(x: layout.bounds.width / 2, y: layout.bounds.height / 2)
        let step = to.section < from.section ? -1 : 1
        var waypoints: [Point] = []
        for ring in stride(from: from.section + step, to: to.section, by: step) {
            let n = layout.numberOfItems(inSection: ring)
            guard n >= 2 else { continue }
            func point(_ i: Int) -> Point { itemCentre(i, ring: ring, in: layout) }
            let nearest = nearestItem(ring: ring, count: n, to: reference, in: layout)
            let here = point(nearest)
            let vx = here.x - centre.x, vy = here.y - centre.y
            let radius = Point.length(vx, vy)
            let angle = atan2(vy, vx)
            // Signed angles from the nearest item to its following and previous neighbours.
            func turn(to other: Point) -> Double {
                let ox = other.x - centre.x, oy = other.y - centre.y
                return atan2(vx * oy - vy * ox, vx * ox + vy * oy)
            }
            var towardsNext = turn(to: point((nearest + 1) % n))
            var towardsPrevious = turn(to: point((nearest - 1 + n) % n))
            if n == 2 || towardsNext.sign == towardsPrevious.sign {
                // Two items (or coincident ones): the gaps are the two half turns either side.
                towardsNext = Double.pi
                towardsPrevious = -Double.pi
            }
            func gapMidpoint(_ turn: Double) -> Point {
                Point(x: centre.x + radius * cos(angle + turn / 2), y: centre.y + radius * sin(angle + turn / 2))
            }
            let next = gapMidpoint(towardsNext), previous = gapMidpoint(towardsPrevious)
            let waypoint = previous.squaredDistance(to: reference) < next.squaredDistance(to: reference) - 1e-9
                ? previous : next
            waypoints.append(waypoint)
            reference = waypoint
        }
        return waypoints
    }

    /// Item `i` of `ring` exists.
    static func itemCentre(_ i: Int, ring: Int, in layout: some ItemGeometry) -> Point {
        layout.layoutAttributesForItem(at: IndexPath(item: i, section: ring))!.center
    }

    /// Squared distances within 1e-9 tie, the lower index winning.
    static func nearestItem(ring: Int, count n: Int, to reference: Point, in layout: some ItemGeometry) -> Int {
        var nearest = 0
        var best = itemCentre(0, ring: ring, in: layout).squaredDistance(to: reference)
        for i in 1..<n {
            let d = itemCentre(i, ring: ring, in: layout).squaredDistance(to: reference)
            if d < best - 1e-9 {
                best = d
                nearest = i
            }
        }
        return nearest
    }

    /// The centripetal Catmull–Rom spline (α = 0.5) through `points` (those within 1e-9 of the
    /// one before dropped; the last kept exactly), a cubic per pair. Knots advance by
    /// `|Pᵢ₊₁ − Pᵢ|^0.5`; inner tangents are Barry–Goldman's
    /// `(Pᵢ − Pᵢ₋₁)/Δᵢ₋₁ − (Pᵢ₊₁ − Pᵢ₋₁)/(Δᵢ₋₁ + Δᵢ) + (Pᵢ₊₁ − Pᵢ)/Δᵢ`; controls `Pᵢ + mᵢ·hᵢ`,
    /// `Pᵢ₊₁ − mᵢ₊₁·hᵢ₊₁` with `hᵢ = (Δᵢ₋₁ + Δᵢ)/6` (`Δ/3` at the ends), so joints are C1. Two
    /// points give controls at 1/3 and 2/3; one, a segment of zero length; none, none.
    /// - Complexity: O(n).
    public static func catmullRomSegments(through points: [Point]) -> [BezierSegment] {
        guard let first = points.first, let last = points.last else { return [] }
        var p: [Point] = [first]
        for (k, q) in points.enumerated().dropFirst() {
            if q.squaredDistance(to: p[p.count - 1]) >= 1e-18 {
                p.append(q)
            } else if k == points.count - 1 && p.count > 1 {
                p[p.count - 1] = q
            }
        }
        guard p.count >= 2 else { return [BezierSegment(control1: first, control2: last, end: last)] }
        let n = p.count
        // Knot intervals Δᵢ = |Pᵢ₊₁ − Pᵢ|^0.5, all > 0 after the de-duplication.
        let delta = (0..<n - 1).map { Point.length(p[$0 + 1].x - p[$0].x, p[$0 + 1].y - p[$0].y).squareRoot() }
        func scaled(_ a: Point, _ b: Point, _ s: Double) -> Point { Point(x: (b.x - a.x) / s, y: (b.y - a.y) / s) }
        let tangent = (0..<n).map { i -> Point in
            if i == 0 { return scaled(p[0], p[1], delta[0]) }
            if i == n - 1 { return scaled(p[n - 2], p[n - 1], delta[n - 2]) }
            let v1 = scaled(p[i - 1], p[i], delta[i - 1])
            let v2 = scaled(p[i - 1], p[i + 1], delta[i - 1] + delta[i])
            let v3 = scaled(p[i], p[i + 1], delta[i])
            return Point(x: v1.x - v2.x + v3.x, y: v1.y - v2.y + v3.y)
        }
        let handle = (0..<n).map { i -> Double in
            i == 0 ? delta[0] / 3 : (i == n - 1 ? delta[n - 2] / 3 : (delta[i - 1] + delta[i]) / 6)
        }
        return (0..<n - 1).map { i in
            let a = handle[i], b = handle[i + 1]
            return BezierSegment(control1: Point(x: p[i].x + tangent[i].x * a, y: p[i].y + tangent[i].y * a),
                                 control2: Point(x: p[i + 1].x - tangent[i + 1].x * b, y: p[i + 1].y - tangent[i + 1].y * b),
                                 end: p[i + 1])
        }
    }

    /// Cubic arcs from `start` to `end` around `centre` the shorter way (half a turn:
    /// clockwise), pieces of at most 90° with handles `4/3·tan(δ/4)·r`, `r` `start`'s distance;
    /// `end` reached exactly. A radius under 1e-9 gives a straight segment. - Complexity: O(1).
    static func arcSegments(from start: Point, to end: Point, around centre: Point) -> [BezierSegment] {
        let sx = start.x - centre.x, sy = start.y - centre.y
        let radius = Point.length(sx, sy)
        guard radius >= 1e-9 else { return catmullRomSegments(through: [start, end]) }
        let a0 = atan2(sy, sx)
        var sweep = atan2(end.y - centre.y, end.x - centre.x) - a0
        while sweep > Double.pi { sweep -= 2 * Double.pi }
        while sweep <= -Double.pi { sweep += 2 * Double.pi }
        if sweep < -Double.pi + 1e-9 { sweep = Double.pi }  // half a turn, within rounding: clockwise
        if start.squaredDistance(to: end) < 1e-18 || !(radius.isFinite && sweep.isFinite) {
            // No turn, or coordinates past the largest Double: a straight piece.
            return [BezierSegment(control1: start, control2: end, end: end)]
        }
        let pieces = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / Double(pieces)
        let handle = 4.0 / 3.0 * tan(step / 4) * radius
        var segments: [BezierSegment] = []
        var from = start
        for k in 0..<pieces {
            let a = a0 + step * Double(k), b = a0 + step * Double(k + 1)
            let to = k == pieces - 1 ? end : Point(x: centre.x + radius * cos(b), y: centre.y + radius * sin(b))
            segments.append(BezierSegment(control1: Point(x: from.x - handle * sin(a), y: from.y + handle * cos(a)),
                                          control2: Point(x: to.x + handle * sin(b), y: to.y - handle * cos(b)), end: to))
            from = to
        }
        return segments
    }

    /// `count` points evenly spaced by arc length from `start` to `end` (exactly), with the
    /// direction of travel (`--heart-samples`): sample `k` at `k/(count−1)` of the length, by
    /// safeguarded Newton steps on the quadrature (to 1e-12). A vanishing derivative takes the
    /// second derivative's direction, then the chord's. - Complexity: O(count + segments).
    public func samples(count: Int) -> [PathSample] {
        guard count > 0 else { return [] }
        let tables = segments.indices.map { arcLengthTable(segment: $0) }
        var offsets: [Double] = [0]
        for table in tables { offsets.append(offsets[offsets.count - 1] + table[Self.samplingPieces]) }
        let total = offsets[offsets.count - 1]
        var segmentIndex = 0
        var previousAngle = 0.0
        return (0..<count).map { k in
            let t = count == 1 ? 0 : Double(k) / Double(count - 1)
            guard total > 0, !segments.isEmpty else { return PathSample(t: t, point: start, angle: 0) }
            let target = total * t
            while segmentIndex < segments.count - 1 && offsets[segmentIndex + 1] <= target { segmentIndex += 1 }
            let u: Double
            if k == 0 {
                segmentIndex = 0
                u = 0
            } else if k == count - 1 {
                segmentIndex = segments.count - 1
                u = 1
            } else {
                u = parameter(segment: segmentIndex, table: tables[segmentIndex],
                              length: target - offsets[segmentIndex])
            }
            let curve = Cubic(self, segment: segmentIndex)
            let point = k == 0 ? start : (k == count - 1 ? end : curve.point(u))
            let angle = curve.direction(u) ?? previousAngle
            previousAngle = angle
            return PathSample(t: t, point: point, angle: angle)
        }
    }

    private static let samplingPieces = 16

    /// At `u = j/16`, j = 0…16.
    func arcLengthTable(segment: Int) -> [Double] {
        let curve = Cubic(self, segment: segment)
        let pieces = Self.samplingPieces
        var table = [0.0]
        for j in 0..<pieces {
            table.append(table[j] + curve.length(Double(j) / Double(pieces), Double(j + 1) / Double(pieces)))
        }
        return table
    }

    private func parameter(segment: Int, table: [Double], length: Double) -> Double {
        let pieces = Self.samplingPieces
        let curve = Cubic(self, segment: segment)
        var j = 0
        while j < pieces - 1 && table[j + 1] <= length { j += 1 }
        var low = Double(j) / Double(pieces), high = Double(j + 1) / Double(pieces)
        let base = low, baseLength = table[j]
        var u = table[j + 1] > table[j] ? low + (high - low) * (length - table[j]) / (table[j + 1] - table[j]) : low
        let tolerance = 1e-12 * max(1, table[pieces])
        for _ in 0..<60 {
            let error = baseLength + curve.length(base, u) - length
            if abs(error) <= tolerance { break }
            if error > 0 { high = u } else { low = u }
            let speed = curve.speed(u)
            var next = speed > 0 ? u - error / speed : (low + high) / 2
            if !(next > low && next < high) { next = (low + high) / 2 }
            u = next
        }
        return u
    }
}

private struct Cubic {
    let p0: Point, p1: Point, p2: Point, p3: Point

    init(_ path: HeartPath, segment k: Int) {
        p0 = k == 0 ? path.start : path.segments[k - 1].end
        p1 = path.segments[k].control1
        p2 = path.segments[k].control2
        p3 = path.segments[k].end
    }

    func point(_ u: Double) -> Point {
        let v = 1 - u
        let a = v * v * v, b = 3 * v * v * u, c = 3 * v * u * u, d = u * u * u
        return Point(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    func derivative(_ u: Double) -> Point {
        let v = 1 - u
        let a = 3 * v * v, b = 6 * v * u, c = 3 * u * u
        return Point(x: a * (p1.x - p0.x) + b * (p2.x - p1.x) + c * (p3.x - p2.x),
                     y: a * (p1.y - p0.y) + b * (p2.y - p1.y) + c * (p3.y - p2.y))
    }

    func secondDerivative(_ u: Double) -> Point {
        let v = 1 - u
        return Point(x: 6 * v * (p2.x - 2 * p1.x + p0.x) + 6 * u * (p3.x - 2 * p2.x + p1.x),
                     y: 6 * v * (p2.y - 2 * p1.y + p0.y) + 6 * u * (p3.y - 2 * p2.y + p1.y))
    }

    func speed(_ u: Double) -> Double {
        let d = derivative(u)
        return Point.length(d.x, d.y)
    }

    /// Arc length between parameters `a` and `b` (8-point Gauss–Legendre).
    func length(_ a: Double, _ b: Double) -> Double {
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum = 0.0
        for (x, w) in gaussLegendre8 {
            sum += w * (speed(mid + half * x) + speed(mid - half * x))
        }
        return sum * half
    }

    /// The direction of travel at `u`, degrees, or `nil` on a degenerate (point) segment.
    func direction(_ u: Double) -> Double? {
        let scale = max(abs(p0.x), abs(p0.y), abs(p3.x), abs(p3.y), 1)
        for d in [derivative(u), u < 0.5 ? secondDerivative(u) : Point(x: -secondDerivative(u).x, y: -secondDerivative(u).y),
                  Point(x: p3.x - p0.x, y: p3.y - p0.y)] where Point.length(d.x, d.y) > 1e-12 * scale {
            let degrees = atan2(d.y, d.x) * 180 / Double.pi
            return degrees == 0 ? 0 : (degrees == -180 ? 180 : degrees)
        }
        return nil
    }
}

/// Nodes (positive half) and weights of 8-point Gauss–Legendre quadrature on [−1, 1].
private let gaussLegendre8: [(Double, Double)] = [
    (0.1834346424956498, 0.3626837833783620),
    (0.5255324099163290, 0.3137066458778873),
    (0.7966664774136267, 0.2223810344533745),
    (0.9602898564975363, 0.1012285362903763),
]
