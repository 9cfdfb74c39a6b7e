import Testing
import LayoutCore

/// LineLayout (seed 003): on a 375×200 view with 130-point items 10 apart, item i has centre
/// (187.5 + 140·i, 100) and the content is 375 + 19·140 = 3035 wide for 20 items.
struct LineLayoutTests {
    let view = Size(width: 375, height: 200)

    func line(_ n: Int = 20, offsetX: Double = 0, minimumScale: Double = 0) throws -> CollectionLayout {
        var layout = LineLayout()
        layout.minimumScale = minimumScale
        return try layout.layout(.uniform(count: n), bounds: view, contentOffset: Point(x: offsetX, y: 0))
    }

    func scales(_ layout: CollectionLayout) -> [Double] { layout.elements.map(\.transform.a) }

    @Test func framesInsetsAndContentSize() throws {
        let layout = try line()
        #expect(layout.elements[0].frame == Rect(x: 122.5, y: 35, width: 130, height: 130))
        #expect(layout.elements[1].frame == Rect(x: 262.5, y: 35, width: 130, height: 130))
        #expect(layout.elements[19].frame == Rect(x: 2782.5, y: 35, width: 130, height: 130))
        #expect(layout.contentSize == Size(width: 3035, height: 200))
        #expect(layout.scrollDirection == .horizontal)
        #expect(layout.elements.allSatisfy { $0.transform.b == 0 && $0.transform.c == 0 && $0.transform.a == $0.transform.d })
    }

    @Test func scaleAtTheStart() throws {
        // Distances 0, 140, 280, 420 from the visible centre 187.5.
        let s = scales(try line())
        #expect(s[0] == 1)
        #expect(close(s[1], 0.626667) && close(s[2], 0.253333))
        #expect(s[3] == 0 && s[19] == 0)  // 1 − 420/375 < 0, clamped by minimumScale 0
    }

    @Test func scaleInTheMiddleBeforeTheStartAndPastTheEnd() throws {
        // Offset 70: centre 257.5, items 0 and 1 70 away, item 2 210 away.
        let middle = scales(try line(offsetX: 70))
        #expect(close(middle[0], 0.813333) && close(middle[1], 0.813333) && close(middle[2], 0.44))
        // Offset −100: centre 87.5, item 0 100 away.
        let before = scales(try line(offsetX: -100))
        #expect(close(before[0], 0.733333) && close(before[1], 0.36))
        // Offset 3000: centre 3187.5, item 19 (centre 2847.5) 340 away.
        let past = scales(try line(offsetX: 3000))
        #expect(close(past[19], 0.093333) && past[18] == 0)
    }

    @Test func minimumScaleClamps() throws {
        let s = scales(try line(minimumScale: 0.5))
        #expect(close(s[1], 0.626667) && s[2] == 0.5 && s[19] == 0.5)
        let unclamped = scales(try line(minimumScale: -10))
        #expect(close(unclamped[3], -0.12))  // the seed's mirrored item
    }

    @Test func scaleWithZeroWidthStaysFinite() {
        #expect(LineLayout.scale(distance: 0, width: 0, minimumScale: 0.2) == 1)
        #expect(LineLayout.scale(distance: 3, width: 0, minimumScale: 0.2) == 0.2)
        #expect(LineLayout.scale(distance: 3, width: 0, minimumScale: -5) == -5)
    }

    @Test func perItemSizes() throws {
        // Left inset (300 − 100)/2 = 100, right inset (300 − 50)/2 = 125.
        let sizes = [Size(width: 100, height: 50), Size(width: 200, height: 80), Size(width: 50, height: 50)]
        let layout = try LineLayout().layout(.sizes(sizes), bounds: Size(width: 300, height: 100))
        #expect(layout.elements.map(\.frame) == [Rect(x: 100, y: 25, width: 100, height: 50),
                                                 Rect(x: 210, y: 10, width: 200, height: 80),
                                                 Rect(x: 420, y: 25, width: 50, height: 50)])
        #expect(layout.contentSize.width == 595)
        #expect(layout.elements[0].transform.a == 1)
    }

    // MARK: - targetContentOffset (range 0…2660)

    @Test(arguments: [(0.0, 0.0), (69, 0), (70, 0), (71, 140), (140, 140), (200, 140), (211, 280),
                      (-500, 0), (2600, 2660), (5000, 2660), (1e300, 2660), (-1e300, 0)])
    func targetCentresTheNearestItem(proposed: Double, expected: Double) throws {
        let target = LineLayout.targetContentOffset(in: try line(), proposed: Point(x: proposed, y: 33),
                                                    velocity: .zero)
        #expect(target == Point(x: expected, y: 33))
    }

    @Test(arguments: [(10.0, 0.5, 140.0), (10, -0.5, 0), (130, -1, 0), (130, 1, 140), (140, 1, 140),
                      (140, -1, 140), (141, -1, 140), (2700, 1, 2660), (-50, -1, 0), (1e300, -1, 2660)])
    func velocityPicksItemsAheadOfTheMotion(proposed: Double, velocity: Double, expected: Double) throws {
        let target = LineLayout.targetContentOffset(in: try line(), proposed: Point(x: proposed, y: 0),
                                                    velocity: Point(x: velocity, y: 0))
        #expect(target.x == expected)
    }

    @Test func targetIsFiniteForNoneOrOneItem() throws {
        let empty = try line(0)
        #expect(empty.contentSize == Size(width: 245, height: 200))  // the insets alone
        #expect(LineLayout.targetContentOffset(in: empty, proposed: Point(x: 50, y: 0), velocity: Point(x: 2, y: 0))
                == Point(x: 0, y: 0))
        let one = try line(1)
        #expect(one.contentSize.width == 375)
        #expect(LineLayout.targetContentOffset(in: one, proposed: Point(x: 300, y: 0), velocity: .zero).x == 0)
    }

    @Test func invalidSettingsThrow() {
        var layout = LineLayout()
        layout.minimumScale = .infinity
        #expect(throws: LayoutError.invalidParameter(name: "min-scale", section: nil, value: .infinity,
                                                     requirement: .finite)) {
            try layout.layout(.uniform(count: 1), bounds: view)
        }
        layout = LineLayout()
        layout.itemSize = Size(width: -1, height: 10)
        #expect(throws: LayoutError.self) { try layout.layout(.uniform(count: 1), bounds: view) }
    }

    @Test func everyInputGivesFiniteNumbers() throws {
        for bounds in [Size.zero, view] {
            for size in [Size.zero, Size(width: 130, height: 130), Size(width: 1e300, height: 1)] {
                for offset in [-1.7e308, -100, 0, 1e300, 1.7e308] {
                    for n in [0, 1, 2, 7] {
                        var line = LineLayout()
                        line.itemSize = size
                        let layout = try line.layout(.uniform(count: n), bounds: bounds,
                                                     contentOffset: Point(x: offset, y: offset))
                        #expect(layout.elements.allSatisfy { $0.isFinite })
                        #expect(layout.contentSize.width.isFinite && layout.contentSize.width >= 0)
                        for v in [-3.0, 0, 3] {
                            #expect(LineLayout.targetContentOffset(in: layout, proposed: Point(x: offset, y: 0),
                                                                   velocity: Point(x: v, y: 0)).isFinite)
                        }
                    }
                }
            }
        }
    }
}
