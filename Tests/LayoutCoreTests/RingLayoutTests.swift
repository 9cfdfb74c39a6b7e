import Testing
@testable import LayoutCore

#if canImport(Glibc)
import Glibc
#endif

struct RingLayoutTests {
    /// Seed 000's demo: rings [1, 6, 12, 18] on a 428 × 926 view, centre (214, 463).
    let seedBounds = Size(width: 428, height: 926)

    @Test func seedGeometry() throws {
        let layout = try RingLayout().layout([1, 6, 12, 18], bounds: seedBounds)
        #expect(layout.elements.count == 37)
        #expect(layout.contentSize == seedBounds)
        // Ring 0: side 40 at the centre.
        expectFrame(layout.layoutAttributesForItem(at: IndexPath(item: 0, section: 0)), 194, 443, 40, 40)
        // Ring 1: side 32, step 30 + 5·2 = 40, r = 60 + 40 − 16 = 84; item 0 at 12 o'clock.
        let r1 = layout.layoutAttributesForItem(at: IndexPath(item: 0, section: 1))!
        expectPoint(r1.center, 214, 463 - 84)
        #expect(r1.size == Size(width: 32, height: 32))
        // Item 1 at −30°: (214 + 84·cos 30°, 463 − 84·sin 30°) = (286.746, 421).
        expectPoint(layout.layoutAttributesForItem(at: IndexPath(item: 1, section: 1))?.center, 286.7461, 421)
        // Ring 2: side 25.6, step 45, r = 60 + 90 − 12.8 = 137.2; item 3 at 0° (3 o'clock).
        let r2 = layout.layoutAttributesForItem(at: IndexPath(item: 3, section: 2))!
        expectPoint(r2.center, 214 + 137.2, 463)
        #expect(close(r2.size.width, 25.6))
        // Ring 3: side 20.48, step 50, r = 60 + 150 − 10.24 = 199.76; item 9 at 90° (6 o'clock).
        expectPoint(layout.layoutAttributesForItem(at: IndexPath(item: 9, section: 3))?.center, 214, 463 + 199.76)
    }

    @Test func counterclockwiseAndStartAngle() throws {
        var ring = RingLayout()
        ring.direction = .counterclockwise
        ring.startAngle = 0
        let layout = try ring.layout([0, 4], bounds: Size(width: 200, height: 200))
        // r = 84 as above; item 1 at −90°: above the centre.
        expectPoint(layout.elements[0].center, 184, 100)
        expectPoint(layout.elements[1].center, 100, 16)
        expectPoint(layout.elements[2].center, 16, 100)
    }

    @Test func emptyRingsKeepTheirIndex() throws {
        let layout = try RingLayout().layout([1, 0, 3], bounds: seedBounds)
        #expect(layout.numberOfSections == 3)
        #expect(layout.elements.count == 4)
        #expect(layout.layoutAttributesForItem(at: IndexPath(item: 0, section: 1)) == nil)
        // Ring 2 keeps ring 2's radius: 137.2.
        expectPoint(layout.layoutAttributesForItem(at: IndexPath(item: 0, section: 2))?.center, 214, 463 - 137.2)
    }

    @Test func generalFormulaOnRandomSettings() throws {
        var g = SplitMix64(seed: 9)
        for _ in 0..<50 {
            var ring = RingLayout()
            ring.radius = Double(g.next() % 100)
            ring.ringSpacing = Double(g.next() % 50)
            ring.ringSpacingGrowth = Double(g.next() % 10)
            ring.itemSize = Double(1 + g.next() % 60)
            ring.shrink = Double(g.next() % 100) / 100
            ring.startAngle = Double(g.next() % 720) - 360
            ring.direction = g.next() % 2 == 0 ? .clockwise : .counterclockwise
            let counts = (0..<Int(1 + g.next() % 6)).map { _ in Int(g.next() % 20) }
            let bounds = Size(width: Double(100 + g.next() % 400), height: Double(100 + g.next() % 900))
            let layout = try ring.layout(counts, bounds: bounds)
            for e in layout.elements {
                let s = e.indexPath.section, i = e.indexPath.item, n = counts[s]
                let side = ring.itemSize * pow(ring.shrink, Double(s))
                let step = ring.ringSpacing + ring.ringSpacingGrowth * Double(s + 1)
                let r = s == 0 ? 0 : ring.radius + step * Double(s) - side / 2
                let angle = (ring.startAngle + ring.direction.sign * 360 * Double(i) / Double(n)) * .pi / 180
                expectPoint(e.center, bounds.width / 2 + r * cos(angle), bounds.height / 2 + r * sin(angle))
                #expect(close(e.size.width, side) && close(e.size.height, side))
            }
        }
    }

    @Test func invalidSettingsThrow() {
        var ring = RingLayout()
        ring.radius = -1
        #expect(throws: LayoutError.self) { try ring.layout([1], bounds: seedBounds) }
        ring.radius = 60
        ring.shrink = .nan
        #expect(throws: LayoutError.self) { try ring.layout([1], bounds: seedBounds) }
    }
}

struct HeartPathTests {
    let seedBounds = Size(width: 428, height: 926)

    @Test func seedPathFromTheOutermostRing() throws {
        let layout = try RingLayout().layout([1, 6, 12, 18], bounds: seedBounds)
        let start = try #require(HeartPath.defaultStart(in: layout))
        #expect(start == IndexPath(item: 0, section: 3))
        let path = try #require(HeartPath.seed(from: start, in: layout))
        expectPoint(path.start, 214, 463 - 199.76)
        #expect(path.segments.count == 1)
        let s = path.segments[0]
        // Ring 2: nearest item 0; neighbours 11 and 1 are symmetric, the truncated distances
        // tie, so the following item 1 (at −60°) is picked: (214 + 68.6, 463 − 137.2·sin 60°).
        expectPoint(s.control1, 214 + 68.6, 463 - 137.2 * 3.0.squareRoot() / 2)
        // Ring 1 likewise: item 1 at −30°.
        expectPoint(s.control2, 214 + 42 * 3.0.squareRoot(), 421)
        expectPoint(s.end, 214, 463)
        #expect(path.to == IndexPath(item: 0, section: 0))
    }

    @Test func nearerNeighbourWinsWhenNotSymmetric() throws {
        let layout = try RingLayout().layout([1, 6, 12, 18], bounds: seedBounds)
        // From ring 3 item 1 (at −70°): ring 2's nearest is item 0 (−90°)? No: item 1 (−60°)
        // is 10° away versus 20°; its neighbours are 0 (−90°) and 2 (−30°); the midpoint with
        // item 0 (−75°) is nearer the start (−70°) than the one with item 2 (−45°): item 0.
        let path = try #require(HeartPath.seed(from: IndexPath(item: 1, section: 3), in: layout))
        expectPoint(path.segments[0].control1, 214, 463 - 137.2)
        // Ring 1: nearest item 0 (−90°, 20° away) vs item 1 (−30°, 40° away): item 0; its
        // neighbours 5 (−150°) and 1 (−30°): midpoint with 1 (−60°) is nearer: item 1.
        expectPoint(path.segments[0].control2, 214 + 42 * 3.0.squareRoot(), 421)
    }

    @Test func fromRingOneTheLineIsStraight() throws {
        let layout = try RingLayout().layout([1, 6], bounds: seedBounds)
        let path = try #require(HeartPath.seed(from: IndexPath(item: 3, section: 1), in: layout))
        // Start (214, 547), centre (214, 463): controls at 1/3 and 2/3.
        expectPoint(path.start, 214, 547)
        expectPoint(path.segments[0].control1, 214, 519)
        expectPoint(path.segments[0].control2, 214, 491)
        expectPoint(path.segments[0].end, 214, 463)
    }

    @Test func emptyRingsAreSkippedAndAnEmptyCentreUsesTheBoundsCentre() throws {
        let layout = try RingLayout().layout([0, 0, 12], bounds: seedBounds)
        let path = try #require(HeartPath.seed(from: IndexPath(item: 0, section: 2), in: layout))
        expectPoint(path.segments[0].end, 214, 463)
        expectPoint(path.segments[0].control1, 214, 463 - 137.2 * 2 / 3)
        // One-item ring 1: its own neighbour, picked as the control point.
        let single = try RingLayout().layout([1, 1, 12], bounds: seedBounds)
        let p = try #require(HeartPath.seed(from: IndexPath(item: 6, section: 2), in: single))
        expectPoint(p.segments[0].control1, 214, 463 - 84)
        expectPoint(p.segments[0].control2, 214, 463)
    }

    @Test func noRingBeyondTheCentreMeansNoPath() throws {
        let layout = try RingLayout().layout([1, 0, 0], bounds: seedBounds)
        #expect(HeartPath.defaultStart(in: layout) == nil)
        #expect(HeartPath.seed(from: IndexPath(item: 0, section: 2), in: layout) == nil)
    }

    /// `summary(ringCounts:bounds:)` is the layout without its elements, and its proof that
    /// every element is finite is never wrong: whenever it vouches, the element-by-element
    /// check (snapped or not) agrees. Ordinary rings are vouched for; rings whose items grow
    /// past the largest Double (`shrink` > 1) or a radius near it are not.
    @Test func summaryVouchesOnlyForFiniteElements() throws {
        try tallyVerdicts(rounds: 300, seed: 12, moreThan: 300, 100) { round, random, tally in
            var ring = RingLayout()
            let huge = round % 3 == 0
            ring.shrink = huge ? 1e100 : 0.8
            ring.radius = round % 7 == 0 ? 1.7e308 : 60
            let counts = (0..<(1 + Int(random.next() % 6))).map { _ in Int(random.next() % 30) }
            let bounds = Size(width: 428, height: 926)
            for scale in [nil, 2, 1e-300] as [Double?] {
                let summary = try ring.summary(ringCounts: counts, bounds: bounds)
                var check = FiniteCheckSink(scale: scale)
                let full = try ring.layout(counts, bounds: bounds, into: &check)
                #expect(summary.contentSize == full.contentSize && summary.numberOfSections == full.numberOfSections)
                for s in 0..<counts.count {
                    #expect(summary.numberOfItems(inSection: s) == full.numberOfItems(inSection: s))
                    #expect(summary.elementIndex(ofItemAt: IndexPath(item: 0, section: s))
                            == full.elementIndex(ofItemAt: IndexPath(item: 0, section: s)))
                }
                if tally.record(vouches: ring.elementsAreFinite(in: summary, scale: scale), check: check,
                                mayRefuse: huge || round % 7 == 0 || scale == 1e-300, "round \(round)") {
                    #expect(check.count == counts.reduce(0, +))
                }
            }
        }
    }
}
