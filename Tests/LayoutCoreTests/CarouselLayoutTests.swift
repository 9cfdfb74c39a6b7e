import Testing
import LayoutCore

/// CarouselLayout (seed 004): on a 375×667 view with 200-point items 10 apart, item i has
/// centre (187.5, 333.5 + 210·i); maxDistance = 210; 10 items make the content
/// 667 + 9·210 = 2557 tall, offsets 0…1890.
struct CarouselLayoutTests {
    let view = Size(width: 375, height: 667)

    func carousel(_ n: Int = 10, offset: Double = 0, spacing: Double = 10,
                  direction: ScrollDirection = .vertical) throws -> CollectionLayout {
        var layout = CarouselLayout()
        layout.minimumLineSpacing = spacing
        layout.scrollDirection = direction
        let point = direction == .vertical ? Point(x: 0, y: offset) : Point(x: offset, y: 0)
        return try layout.layout(.uniform(count: n), bounds: view, contentOffset: point)
    }

    @Test func framesAndContentSize() throws {
        let layout = try carousel()
        #expect(layout.elements[0].frame == Rect(x: 87.5, y: 233.5, width: 200, height: 200))
        #expect(layout.elements[9].frame == Rect(x: 87.5, y: 2123.5, width: 200, height: 200))
        #expect(layout.contentSize == Size(width: 375, height: 2557))
        let horizontal = try carousel(direction: .horizontal)
        #expect(horizontal.elements[1].frame == Rect(x: 297.5, y: 233.5, width: 200, height: 200))
        // 375 + 9·210 = 2265.
        #expect(horizontal.contentSize == Size(width: 2265, height: 667))
        #expect(horizontal.scrollDirection == .horizontal)
    }

    @Test func alphaScaleAndZIndexAtTheStart() throws {
        let e = try carousel().elements
        #expect(e[0].alpha == 1 && e[0].transform == AffineTransform(scaleX: 1, y: 1) && e[0].zIndex == 10)
        #expect(e[1].alpha == 0.5 && e[1].transform.a == 0.5 && e[1].zIndex == 5)
        #expect(e[9].alpha == 0.5)
    }

    @Test func inTheMiddle() throws {
        // Offset 105: items 0 and 1 105 from the centre, ratio 0.5.
        let half = try carousel(offset: 105).elements
        #expect(half[0].alpha == 0.75 && half[0].transform.d == 0.75 && half[0].zIndex == 7)
        #expect(half[1].alpha == 0.75 && half[1].zIndex == 7 && half[2].alpha == 0.5)
        // Offset 42: item 0 42 away (ratio 0.8, alpha 0.9), item 1 168 away (ratio 0.2, alpha 0.6).
        let e = try carousel(offset: 42).elements
        #expect(close(e[0].alpha, 0.9) && e[0].zIndex == 9 && close(e[1].alpha, 0.6) && e[1].zIndex == 6)
    }

    @Test func beforeTheStartAndPastTheEnd() throws {
        let before = try carousel(offset: -100).elements
        // Item 0 100 away: ratio 110/210.
        #expect(close(before[0].alpha, 0.761905) && before[0].zIndex == 7 && before[1].alpha == 0.5)
        let past = try carousel(offset: 5000).elements
        #expect(past.allSatisfy { $0.alpha == 0.5 && $0.transform.a == 0.5 && $0.zIndex == 5 })
    }

    @Test func horizontalUsesTheXAxis() throws {
        // Width 375: item i centre 187.5 + 210·i; offset 105 puts items 0 and 1 105 away.
        let e = try carousel(offset: 105, direction: .horizontal).elements
        #expect(e[0].alpha == 0.75 && e[1].alpha == 0.75 && e[2].alpha == 0.5)
    }

    @Test func standardAlphaAndScale() throws {
        var layout = CarouselLayout()
        layout.standardItemAlpha = 0.2
        layout.standardItemScale = 0.8
        let e = try layout.layout(.uniform(count: 2), bounds: view, contentOffset: Point(x: 0, y: 105)).elements
        #expect(close(e[0].alpha, 0.6) && close(e[0].transform.a, 0.9) && e[0].zIndex == 6)
    }

    @Test func negativeSpacingOverlapsItems() throws {
        // Spacing −50: centres 150 apart, maxDistance 150.
        let e = try carousel(offset: 75, spacing: -50).elements
        #expect(e[1].frame.minY == 383.5 && e[0].alpha == 0.75 && e[1].alpha == 0.75)
        #expect(throws: LayoutError.self) { try carousel(spacing: -201) }
    }

    // MARK: - targetContentOffset

    @Test(arguments: [(0.0, 0.0), (100, 0), (105, 0), (110, 210), (210, 210), (-1000, 0), (1800, 1890),
                      (9999, 1890), (1e300, 1890)])
    func targetSnapsToTheNearestItem(proposed: Double, expected: Double) throws {
        let layout = try carousel()
        for velocity in [Point.zero, Point(x: 0, y: -5), Point(x: 0, y: 5)] {  // the seed ignores velocity
            #expect(CarouselLayout.targetContentOffset(in: layout, proposed: Point(x: 7, y: proposed), velocity: velocity)
                    == Point(x: 7, y: expected))
        }
    }

    @Test func targetFloorsAndWorksHorizontally() throws {
        // Spacing 10.5: item 1 at 210.5 from item 0, target floor(210.5) = 210.
        let vertical = try carousel(spacing: 10.5)
        #expect(CarouselLayout.targetContentOffset(in: vertical, proposed: Point(x: 0, y: 200), velocity: .zero).y == 210)
        let horizontal = try carousel(direction: .horizontal)
        #expect(CarouselLayout.targetContentOffset(in: horizontal, proposed: Point(x: 110, y: 3), velocity: .zero)
                == Point(x: 210, y: 3))
    }

    @Test func targetIsFiniteForNoneOrOneItem() throws {
        let empty = try carousel(0)
        #expect(empty.contentSize.height == 467)  // the insets alone
        #expect(CarouselLayout.targetContentOffset(in: empty, proposed: Point(x: 0, y: 40), velocity: .zero).y == 0)
        let one = try carousel(1)
        #expect(one.contentSize.height == 667)
        #expect(CarouselLayout.targetContentOffset(in: one, proposed: Point(x: 0, y: 300), velocity: .zero).y == 0)
    }

    @Test func invalidSettingsThrow() {
        var layout = CarouselLayout()
        layout.standardItemAlpha = 1.5
        #expect(throws: LayoutError.invalidParameter(name: "standard-alpha", section: nil, value: 1.5,
                                                     requirement: .unitInterval)) {
            try layout.layout(.uniform(count: 1), bounds: view)
        }
    }

    @Test func ratioGuards() {
        #expect(CarouselLayout.ratio(distance: 0, maxDistance: 0) == 1)
        #expect(CarouselLayout.ratio(distance: 1, maxDistance: 0) == 0)
        #expect(CarouselLayout.ratio(distance: 5, maxDistance: .infinity) == 1)
        #expect(CarouselLayout.ratio(distance: 300, maxDistance: 210) == 0)
    }

    @Test func everyInputGivesFiniteNumbers() throws {
        for bounds in [Size.zero, view] {
            for size in [Size.zero, Size(width: 200, height: 200), Size(width: 1e308, height: 1e308)] {
                for offset in [-1.7e308, -100, 0, 1e300, 1.7e308] {
                    for n in [0, 1, 2, 7] {
                        for direction in ScrollDirection.allCases {
                            var carousel = CarouselLayout()
                            carousel.itemSize = size
                            carousel.scrollDirection = direction
                            carousel.minimumLineSpacing = size.width > 1e300 ? 1e308 : 0
                            let layout = try carousel.layout(.uniform(count: n), bounds: bounds,
                                                             contentOffset: Point(x: offset, y: offset))
                            let target = CarouselLayout.targetContentOffset(in: layout, proposed: Point(x: offset, y: offset),
                                                                            velocity: .zero)
                            if size.width > 1e300 && n > 1 { continue }  // sums overflow: the CLI reports it (65)
                            #expect(layout.elements.allSatisfy { $0.isFinite && $0.alpha >= 0 && $0.alpha <= 1 })
                            #expect(target.isFinite)
                        }
                    }
                }
            }
        }
    }

    /// The last item is not followed by a spacing, so a spacing near the largest Double
    /// still lays out two items (one spacing apart) with a finite content size.
    @Test func hugeSpacingBetweenTwoItemsStaysFinite() throws {
        var carousel = CarouselLayout()
        carousel.minimumLineSpacing = 9e307
        let layout = try carousel.layout(.uniform(count: 2), bounds: Size(width: 390, height: 844))
        try layout.validateFinite()
        let first = layout.elements[0].frame, second = layout.elements[1].frame
        #expect(second.minY - first.maxY == 9e307)
        #expect(layout.contentSize.height.isFinite && layout.contentSize.height >= 9e307)
    }
}
