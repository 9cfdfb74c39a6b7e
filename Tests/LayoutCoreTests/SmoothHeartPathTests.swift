import Testing
@testable import LayoutCore

#if canImport(Glibc)
import Glibc
#endif

/// The smooth heart path (SPEC section 7): endpoints, waypoints between avatars, C1 joints,
/// same-ring arcs, degenerate rings, and arc-length samples.
struct SmoothHeartPathTests {
    /// Seed 000's demo: rings [1, 6, 12, 18] on 428 × 926, centre (214, 463); radii 84,
    /// 137.2, 199.76.
    let bounds = Size(width: 428, height: 926)
    let centre = Point(x: 214, y: 463)

    func seedRings(_ counts: [Int] = [1, 6, 12, 18]) throws -> CollectionLayout {
        try RingLayout().layout(counts, bounds: bounds)
    }

    func center(_ layout: CollectionLayout, _ s: Int, _ i: Int) -> Point {
        layout.layoutAttributesForItem(at: IndexPath(item: i, section: s))!.center
    }

    /// Every joint: the handles on both sides are the same vector (C1 in the pieces' own
    /// parameter), hence collinear with the joint and on opposite sides.
    func expectC1(_ path: HeartPath, sourceLocation: SourceLocation = #_sourceLocation) {
        for k in 0..<max(0, path.segments.count - 1) {
            let joint = path.segments[k].end
            let before = path.segments[k].control2, after = path.segments[k + 1].control1
            let u = (joint.x - before.x, joint.y - before.y), v = (after.x - joint.x, after.y - joint.y)
            let lu = (u.0 * u.0 + u.1 * u.1).squareRoot(), lv = (v.0 * v.0 + v.1 * v.1).squareRoot()
            #expect(lu > 1e-9 && lv > 1e-9, "joint \(k) has a zero-length handle", sourceLocation: sourceLocation)
            let cross = (u.0 * v.1 - u.1 * v.0) / max(lu * lv, 1e-300)
            let dot = u.0 * v.0 + u.1 * v.1
            #expect(abs(cross) < 1e-9 && dot > 0, "joint \(k) is not C1: cross \(cross), dot \(dot)",
                    sourceLocation: sourceLocation)
            #expect(abs(lu - lv) <= 1e-9 * max(1, lu), "joint \(k): handles \(lu) and \(lv) differ",
                    sourceLocation: sourceLocation)
        }
    }

    func expectFinite(_ path: HeartPath?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let path else { return }
        #expect(path.isFinite, "non-finite path \(path)", sourceLocation: sourceLocation)
        #expect(path.samples(count: 7).allSatisfy { $0.point.isFinite && $0.angle.isFinite && $0.t.isFinite },
                sourceLocation: sourceLocation)
    }

    // MARK: - Endpoints and joints

    @Test func everyPairStartsAndEndsAtTheAvatarsAndIsC1() throws {
        let layout = try seedRings()
        let items = layout.elements.map(\.indexPath)
        for from in items where from.item % 5 == 0 || from.section <= 1 {
            for to in items where to.item % 4 == 1 || to.section == 0 {
                let path = try #require(HeartPath.smooth(from: from, to: to, in: layout))
                #expect(path.style == .smooth && path.from == from && path.to == to)
                #expect(path.start == center(layout, from.section, from.item), "\(from)→\(to) start")
                #expect(path.end == center(layout, to.section, to.item), "\(from)→\(to) end")
                #expect(!path.segments.isEmpty)
                expectC1(path)
                expectFinite(path)
            }
        }
    }

    @Test func inwardPathThroughTheGapsExactValues() throws {
        let layout = try seedRings()
        // From 3:0 (12 o'clock, (214, 263.24)) to the centre: rings 2 and 1 give waypoints.
        let waypoints = try #require(HeartPath.smoothWaypoints(from: IndexPath(item: 0, section: 3),
                                                               to: IndexPath(item: 0, section: 0), in: layout))
        #expect(waypoints.count == 2)
        // Ring 2: nearest 2:0 at −90°; both gaps (−105°, −75°) are equally near: the following
        // one, at −75° on radius 137.2.
        expectPoint(waypoints[0], 214 + 137.2 * cos(75 * .pi / 180), 463 - 137.2 * sin(75 * .pi / 180))
        // Ring 1, reference now at −75°: nearest 1:0 at −90°, the nearer gap at −60° (r = 84).
        expectPoint(waypoints[1], 214 + 84 * cos(60 * .pi / 180), 463 - 84 * sin(60 * .pi / 180))
        let path = try #require(HeartPath.smooth(from: IndexPath(item: 0, section: 3),
                                                 to: IndexPath(item: 0, section: 0), in: layout))
        #expect(path.segments.count == 3)
        #expect(path.segments[0].end == waypoints[0] && path.segments[1].end == waypoints[1])
        #expect(path.end == centre)
    }

    @Test func waypointsLieBetweenTwoNeighbouringAvatars() throws {
        let layout = try seedRings()
        let ring = RingLayout()
        for (from, to) in [((3, 7), (0, 0)), ((3, 13), (1, 2)), ((1, 4), (3, 11)), ((0, 0), (3, 5)), ((3, 16), (1, 1))] {
            let f = IndexPath(item: from.1, section: from.0), t = IndexPath(item: to.1, section: to.0)
            let waypoints = try #require(HeartPath.smoothWaypoints(from: f, to: t, in: layout))
            let rings = f.section > t.section ? Array((t.section + 1..<f.section).reversed()) : Array(f.section + 1..<t.section)
            #expect(waypoints.count == rings.count)
            for (w, s) in zip(waypoints, rings) {
                let n = layout.numberOfItems(inSection: s)
                let r = ring.ringRadius(ring: s)
                // On the ring's circle …
                #expect(close((w.squaredDistance(to: centre)).squareRoot(), r, 1e-9))
                // … at the middle of the arc between two neighbours i and i+1 …
                let between = (0..<n).contains { i in
                    let a = center(layout, s, i), b = center(layout, s, (i + 1) % n)
                    return close(w.squaredDistance(to: a), w.squaredDistance(to: b), 1e-6)
                        && w.squaredDistance(to: a) < a.squaredDistance(to: b)
                }
                #expect(between, "\(f)→\(t): waypoint \(w) on ring \(s) is not between two neighbours")
                // … and clear of every avatar.
                let half = ring.itemSide(ring: s) / 2
                for i in 0..<n {
                    #expect(w.squaredDistance(to: center(layout, s, i)).squareRoot() > half)
                }
            }
            let path = try #require(HeartPath.smooth(from: f, to: t, in: layout))
            #expect(Array(path.segments.dropLast().map(\.end)) == waypoints)
            expectC1(path)
        }
    }

    @Test func neighbouringRingsGiveAStraightSegment() throws {
        let layout = try seedRings()
        // 2:0 (214, 325.8) → 3:0 (214, 263.24): no ring in between.
        let path = try #require(HeartPath.smooth(from: IndexPath(item: 0, section: 2),
                                                 to: IndexPath(item: 0, section: 3), in: layout))
        #expect(path.segments.count == 1)
        expectPoint(path.start, 214, 325.8)
        expectPoint(path.segments[0].control1, 214, 325.8 - 62.56 / 3)
        expectPoint(path.segments[0].control2, 214, 325.8 - 2 * 62.56 / 3)
        expectPoint(path.end, 214, 263.24)
    }

    // MARK: - Same ring

    @Test func sameRingFollowsTheShorterArcInQuarterTurns() throws {
        let layout = try seedRings()
        let r = 199.76
        // 3:2 (−50°) → 3:12 (150°): 200° clockwise, so 160° counterclockwise, in two arcs.
        let path = try #require(HeartPath.smooth(from: IndexPath(item: 2, section: 3),
                                                 to: IndexPath(item: 12, section: 3), in: layout))
        #expect(path.segments.count == 2)
        expectPoint(path.segments[0].end, 214 + r * cos(-130 * .pi / 180), 463 + r * sin(-130 * .pi / 180))
        expectC1(path)
        // Half a turn (3:0 → 3:9) goes clockwise: through 3 o'clock, in two quarter arcs.
        let half = try #require(HeartPath.smooth(from: IndexPath(item: 0, section: 3),
                                                 to: IndexPath(item: 9, section: 3), in: layout))
        #expect(half.segments.count == 2)
        expectPoint(half.segments[0].end, 214 + r, 463)
        // A quarter turn is one arc with handles 4/3·tan(22.5°)·r.
        let quarter = try #require(HeartPath.smooth(from: IndexPath(item: 0, section: 1),
                                                    to: IndexPath(item: 3, section: 1), in: try seedRings([1, 12])))
        #expect(quarter.segments.count == 1)
        let handle = 4.0 / 3.0 * tan(Double.pi / 8) * 84
        expectPoint(quarter.segments[0].control1, 214 + handle, 463 - 84)
        expectPoint(quarter.segments[0].control2, 214 + 84, 463 - handle)
        // Every point of every arc stays within 0.1% of the radius.
        for (p, radius) in [(path, r), (half, r), (quarter, 84.0)] {
            for sample in p.samples(count: 400) {
                #expect(abs(sample.point.squaredDistance(to: centre).squareRoot() - radius) <= 0.001 * radius)
            }
        }
    }

    @Test func sameAvatarAndRingZeroAreZeroLength() throws {
        let layout = try seedRings([2, 6])
        let same = try #require(HeartPath.smooth(from: IndexPath(item: 3, section: 1),
                                                 to: IndexPath(item: 3, section: 1), in: layout))
        #expect(same.segments.count == 1 && same.end == same.start)
        let centreToCentre = try #require(HeartPath.smooth(from: IndexPath(item: 0, section: 0),
                                                           to: IndexPath(item: 1, section: 0), in: layout))
        #expect(centreToCentre.segments.count == 1 && centreToCentre.end == centre)
        expectFinite(same)
        expectFinite(centreToCentre)
        #expect(same.samples(count: 3).map(\.angle) == [0, 0, 0])
    }

    // MARK: - Degenerate rings

    @Test func emptyAndOneItemRingsStayFinite() throws {
        for counts in [[0, 1, 0, 1], [1, 0, 1, 0, 3], [0, 0, 2], [1, 1, 1, 1], [0, 2, 1, 2]] {
            let layout = try seedRings(counts)
            let items = layout.elements.map(\.indexPath)
            for from in items {
                for to in items + [IndexPath(item: 0, section: 0)] {
                    guard let path = HeartPath.smooth(from: from, to: to, in: layout) else {
                        #expect(to != IndexPath(item: 0, section: 0))
                        continue
                    }
                    expectFinite(path)
                    expectC1(path)
                }
            }
        }
        // Ring 0 empty: 0:0 means the bounds centre, as in the seed style.
        let layout = try seedRings([0, 0, 2])
        let path = try #require(HeartPath.smooth(from: IndexPath(item: 1, section: 2), to: IndexPath(item: 0, section: 0), in: layout))
        #expect(path.end == centre)
        // Rings of one item give no waypoint; a ring of two gives the nearer side.
        #expect(HeartPath.smoothWaypoints(from: IndexPath(item: 0, section: 3), to: IndexPath(item: 0, section: 0),
                                          in: try seedRings([1, 1, 1, 1]))! == [])
        #expect(HeartPath.smooth(from: IndexPath(item: 9, section: 3), to: IndexPath(item: 0, section: 0), in: layout) == nil)
    }

    @Test func zeroRadiusRingsAndCoincidentAvatarsStayFinite() throws {
        var ring = RingLayout()
        ring.radius = 0
        ring.ringSpacing = 0
        ring.ringSpacingGrowth = 0
        ring.itemSize = 0
        let layout = try ring.layout([1, 6, 6, 6], bounds: bounds)
        for from in layout.elements.map(\.indexPath) {
            for to in [IndexPath(item: 0, section: 0), IndexPath(item: 2, section: 3), IndexPath(item: 4, section: 1)] {
                expectFinite(HeartPath.smooth(from: from, to: to, in: layout))
            }
        }
    }

    // MARK: - Catmull–Rom

    @Test func centripetalCatmullRomByHand() {
        // P0 (0,0), P1 (4,0), P2 (4,9): knot steps √4 = 2 and √9 = 3; the tangent at P1 is
        // (4,0)/2 − (4,9)/5 + (0,9)/3 = (1.2, 1.2); its handles are (2 + 3)/6 = 5/6 of it on
        // both sides; the end handles are Δ/3 of the end chords' tangents.
        let s = HeartPath.catmullRomSegments(through: [Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 4, y: 9)])
        #expect(s.count == 2)
        expectPoint(s[0].control1, 4.0 / 3, 0)
        expectPoint(s[0].control2, 3, -1)
        expectPoint(s[0].end, 4, 0)
        expectPoint(s[1].control1, 5, 1)
        expectPoint(s[1].control2, 4, 6)
        expectPoint(s[1].end, 4, 9)
    }

    @Test func catmullRomGuardsCoincidentPoints() {
        let p = Point(x: 1, y: 2), q = Point(x: 5, y: 2)
        let twice = HeartPath.catmullRomSegments(through: [p, p, q, q])
        #expect(twice.count == 1 && twice[0].end == q)
        expectPoint(twice[0].control1, 1 + 4.0 / 3, 2)
        let one = HeartPath.catmullRomSegments(through: [p, p])
        #expect(one == [BezierSegment(control1: p, control2: p, end: p)])
        #expect(HeartPath.catmullRomSegments(through: []).isEmpty)
        let back = HeartPath.catmullRomSegments(through: [p, q, p])
        #expect(back.count == 2 && back.allSatisfy { $0.control1.isFinite && $0.control2.isFinite })
    }

    // MARK: - Samples

    @Test func samplesAreEvenlySpacedByArcLength() throws {
        let straight = HeartPath(from: IndexPath(item: 0, section: 1), to: IndexPath(item: 0, section: 0), style: .smooth,
                                 start: Point(x: 0, y: 0),
                                 segments: HeartPath.catmullRomSegments(through: [Point(x: 0, y: 0), Point(x: 0, y: 100)]))
        let samples = straight.samples(count: 5)
        #expect(samples.map(\.t) == [0, 0.25, 0.5, 0.75, 1])
        for (k, sample) in samples.enumerated() {
            expectPoint(sample.point, 0, 25 * Double(k))
            #expect(close(sample.angle, 90))
        }
        #expect(close(straight.length, 100, 1e-9))
        // Along a curved path, consecutive samples are (nearly) equal chords apart.
        let layout = try seedRings()
        let path = try #require(HeartPath.smooth(from: IndexPath(item: 7, section: 3), to: IndexPath(item: 0, section: 0), in: layout))
        let many = path.samples(count: 201)
        #expect(many.first!.point == path.start && many.last!.point == path.end)
        let step = path.length / 200
        for k in 1..<many.count {
            let chord = many[k].point.squaredDistance(to: many[k - 1].point).squareRoot()
            #expect(chord <= step + 1e-9 && chord > step * 0.99, "sample \(k): chord \(chord), step \(step)")
        }
        #expect(path.samples(count: 1).count == 1 && path.samples(count: 0).isEmpty)
    }

    /// Past about 1.3e154 the squares of a distance overflow; lengths are then computed on
    /// the scaled vector, so a huge ring's path and samples are the small ring's, scaled: the
    /// samples keep their directions, spread along the path, and stay finite.
    @Test func hugeRingsKeepTheirShapeAndSamples() throws {
        func path(radius: Double) throws -> HeartPath {
            var ring = RingLayout()
            ring.radius = radius
            ring.ringSpacing = 0
            ring.ringSpacingGrowth = 0
            ring.itemSize = 0
            let geometry = RingGeometry(layout: ring, ringCounts: [1, 6, 6], bounds: Size(width: 0, height: 0))
            return try #require(HeartPath.smooth(from: IndexPath(item: 0, section: 1), to: IndexPath(item: 3, section: 1), in: geometry))
        }
        let small = try path(radius: 1), huge = try path(radius: 1e300)
        #expect(huge.length.isFinite && close(huge.length / 1e300, small.length, 1e-9))
        let expected = small.samples(count: 9), samples = huge.samples(count: 9)
        for (a, b) in zip(expected, samples) {
            #expect(close(a.angle, b.angle, 1e-6), "t \(a.t): \(a.angle) ≠ \(b.angle)")
            #expect(close(b.point.x / 1e300, a.point.x, 1e-9) && close(b.point.y / 1e300, a.point.y, 1e-9))
        }
    }

    @Test func lengthOfAVectorDoesNotOverflow() {
        #expect(Point.length(3, 4) == 5)
        #expect(Point.length(3e300, 4e300) == 5e300)
        #expect(Point.length(-1.7e308, 0) == 1.7e308)
        #expect(Point.length(.infinity, 1) == .infinity && Point.length(.nan, 1).isNaN)
    }

    @Test func seedStyleIsUnchangedAndSamplesToo() throws {
        let layout = try seedRings()
        let seed = try #require(HeartPath.seed(from: IndexPath(item: 0, section: 3), in: layout))
        #expect(seed.style == .seed && seed.segments.count == 1)
        let samples = seed.samples(count: 3)
        #expect(samples[0].point == seed.start && samples[2].point == centre)
    }
}

extension HeartPath {
    /// The path's length, points, by the sampling's quadrature (8-point Gauss–Legendre over
    /// 16 pieces a segment).
    var length: Double {
        segments.indices.reduce(0) { $0 + arcLengthTable(segment: $1).last! }
    }
}
