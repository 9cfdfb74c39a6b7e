import Testing
import LayoutCore

/// CircleLayout (seeds 002 and 003).
struct CircleLayoutTests {
    @Test func seed002() throws {
        // 375×400, centre (187.5, 200), radius 100, 8 items counterclockwise from 3 o'clock:
        // seed 002's (cx + r·cos(45°·i), cy − r·sin(45°·i)).
        let e = try CircleLayout().layout(.uniform(count: 8), bounds: Size(width: 375, height: 400)).elements
        #expect(e[0].frame == Rect(x: 257.5, y: 170, width: 60, height: 60))
        #expect(e[2].center == Point(x: 187.5, y: 100))
        #expect(e[4].center == Point(x: 87.5, y: 200))
        #expect(e[6].center == Point(x: 187.5, y: 300))
        // 45°: r·cos = r·sin = 70.710678.
        expectPoint(e[1].center, 258.210678, 129.289322)
        expectPoint(e[7].center, 258.210678, 270.710678)
        #expect(e.allSatisfy { $0.transform == .identity && $0.zIndex == 0 && !$0.isHidden })
    }

    @Test func seed003() throws {
        // 375×200, centre (187.5, 100), radius 70: seed 003's (cx + r·sin a, cy + r·cos a),
        // a = 360°·i/n, is start angle 90 counterclockwise.
        var layout = CircleLayout()
        layout.radius = 70
        layout.itemSize = Size(width: 50, height: 50)
        layout.startAngle = 90
        layout.centersSingleItem = true
        let bounds = Size(width: 375, height: 200)
        let e = try layout.layout(.uniform(count: 4), bounds: bounds).elements
        #expect(e.map(\.center) == [Point(x: 187.5, y: 170), Point(x: 257.5, y: 100),
                                    Point(x: 187.5, y: 30), Point(x: 117.5, y: 100)])
        let three = try layout.layout(.uniform(count: 3), bounds: bounds).elements
        // a = 120°: (187.5 + 70·sin 120°, 100 + 70·cos 120°) = (248.121778, 65).
        expectPoint(three[1].center, 248.121778, 65)
        let single = try layout.layout(.uniform(count: 1), bounds: bounds).elements
        #expect(single[0].frame == Rect(x: 162.5, y: 75, width: 50, height: 50))
    }

    @Test func clockwiseAndALoneItemOnTheCircle() throws {
        var layout = CircleLayout()
        layout.direction = .clockwise
        let bounds = Size(width: 300, height: 300)
        let e = try layout.layout(.uniform(count: 4), bounds: bounds).elements
        #expect(e.map(\.center) == [Point(x: 250, y: 150), Point(x: 150, y: 250),
                                    Point(x: 50, y: 150), Point(x: 150, y: 50)])
        let single = try CircleLayout().layout(.uniform(count: 1), bounds: bounds).elements
        #expect(single[0].center == Point(x: 250, y: 150))
    }

    @Test func perItemSizesAndDegenerateInputs() throws {
        let sizes = [Size(width: 10, height: 20), Size(width: 0, height: 0)]
        let e = try CircleLayout().layout(.sizes(sizes), bounds: .zero).elements
        #expect(e[0].frame == Rect(x: 95, y: -10, width: 10, height: 20))
        #expect(e[1].frame == Rect(x: -100, y: 0, width: 0, height: 0))
        let empty = try CircleLayout().layout(.uniform(count: 0), bounds: .zero)
        #expect(empty.elements.isEmpty && empty.contentSize == .zero)
        var layout = CircleLayout()
        layout.radius = 0
        #expect(try layout.layout(.uniform(count: 5), bounds: Size(width: 2, height: 2)).elements
                .allSatisfy { $0.center == Point(x: 1, y: 1) })
    }

    @Test func invalidSettingsThrow() {
        var layout = CircleLayout()
        layout.radius = -1
        #expect(throws: LayoutError.invalidParameter(name: "radius", section: nil, value: -1,
                                                     requirement: .finiteNonNegative)) {
            try layout.layout(.uniform(count: 2), bounds: .zero)
        }
        layout = CircleLayout()
        layout.startAngle = .infinity
        #expect(throws: LayoutError.self) { try layout.layout(.uniform(count: 2), bounds: .zero) }
    }

    /// The verdict reached without a sine or a cosine is never wrong: on random circles,
    /// valid or not, ordinary or overflowing, whenever it says the layout succeeds with finite
    /// elements, the layout does succeed, its summary is the one the layout returns, and the
    /// element-by-element check (snapped or not) agrees. It vouches for ordinary circles.
    @Test func verdictWithoutLayingOutIsNeverWrong() throws {
        try tallyVerdicts(rounds: 400, seed: 41, moreThan: 200, 200) { _, random, tally in
            func pick<T>(_ values: [T]) -> T { pickMostlyFirst(values, &random) }
            var circle = CircleLayout()
            circle.radius = pick([100, 0, 1e308, -1, .nan])
            circle.itemSize = pick([Size(width: 60, height: 60), Size(width: 1.7e308, height: 1), Size(width: -1, height: 1)])
            circle.startAngle = pick([0, -90, .infinity])
            let count = Int(random.next() % 20)
            let sizes = (0..<count).map { _ in pick([Size(width: 30, height: 40), Size(width: 1e308, height: 2), Size(width: .nan, height: 1)]) }
            let items: SectionItems = pick([.uniform(count: count), .sizes(sizes)])
            let bounds = Size(width: 375, height: 667)
            for scale in [nil, 2, 1e300] as [Double?] {
                guard circle.succeedsWithFiniteElements(items: items, bounds: bounds, scale: scale) else {
                    tally.refused += 1
                    continue
                }
                var check = FiniteCheckSink(scale: scale)
                let full = try circle.layout(items, bounds: bounds, into: &check)
                let summary = circle.summary(items: items, bounds: bounds)
                #expect(summary.contentSize == full.contentSize && summary.numberOfItems(inSection: 0) == full.numberOfItems(inSection: 0))
                #expect(check.count == count)
                tally.record(vouches: true, check: check)
            }
        }
    }
}
