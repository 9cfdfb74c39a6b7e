import Testing
import LayoutCore

/// FlowLayout: expected frames computed by hand from UIKit's flow rules (SPEC section 6).
struct FlowLayoutTests {
    let phone = Size(width: 390, height: 844)

    func frames(_ layout: CollectionLayout, category: ElementCategory = .cell) -> [Rect] {
        layout.elements.filter { $0.category == category }.map(\.frame)
    }

    func sized(_ sizes: [(Double, Double)]) -> SectionItems {
        .sizes(sizes.map { Size(width: $0.0, height: $0.1) })
    }

    // MARK: - Line breaking and justification

    @Test func uniformItemsJustifyFullLinesAndPutALoneLastItemOnTheirGrid() throws {
        // 50k + 10(k−1) ≤ 390 → k = 6; gaps (390 − 300)/5 = 18; the 7th item in the grid's
        // first slot (UIKit; PSTCollectionView: "as if it is filled with more items").
        let layout = try FlowLayout().layout([FlowSection(items: .uniform(count: 7))], bounds: phone)
        #expect(frames(layout).map(\.minX) == [0, 68, 136, 204, 272, 340, 0])
        #expect(frames(layout).map(\.minY) == [0, 0, 0, 0, 0, 0, 60])
        #expect(layout.contentSize == Size(width: 390, height: 110))
        #expect(layout.warnings.isEmpty)
    }

    @Test func lastLineOfEqualSizesSitsOnTheGridOfTheFullLines() throws {
        let layout = try FlowLayout().layout([FlowSection(items: .uniform(count: 8))], bounds: phone)
        #expect(frames(layout)[6] == Rect(x: 0, y: 60, width: 50, height: 50))
        #expect(frames(layout)[7] == Rect(x: 68, y: 60, width: 50, height: 50))
        // Forty: six lines of 6, the last line's 4 at the first four slots.
        let forty = try FlowLayout().layout([FlowSection(items: .uniform(count: 40))], bounds: phone)
        #expect(frames(forty).suffix(4).map(\.minX) == [0, 68, 136, 204])
        #expect(frames(forty).suffix(4).map(\.minY) == [360, 360, 360, 360])
        // Sizes given one by one, all the same, are the same case.
        let sized = try FlowLayout().layout([FlowSection(items: sized(Array(repeating: (50, 50), count: 8)))],
                                            bounds: phone)
        #expect(frames(sized) == frames(layout))
    }

    @Test func aSingleLineIsTheLastLine() throws {
        // Equal sizes: the slots a full line would have (6, 18 apart).
        let layout = try FlowLayout().layout([FlowSection(items: .uniform(count: 3))], bounds: phone)
        #expect(frames(layout).map(\.minX) == [0, 68, 136])
    }

    @Test func equalSizesThatFitOneALineAreCentred() throws {
        // (390 + 10)/(300 + 10) → one a line: every line, the last included, centres its item.
        var flow = FlowLayout()
        flow.itemSize = Size(width: 300, height: 50)
        let layout = try flow.layout([FlowSection(items: .uniform(count: 3))], bounds: phone)
        #expect(frames(layout).map(\.minX) == [45, 45, 45])
    }

    @Test func lastLineOfMixedSizesKeepsMinimumSpacingFromTheLeadingEdge() throws {
        // 100·3 + 20 = 320 ≤ 390 (a fourth: 430): gaps (390 − 300)/2 = 45; then 100 and 90.
        let items = sized([(100, 50), (100, 50), (100, 50), (100, 50), (90, 50)])
        let layout = try FlowLayout().layout([FlowSection(items: items)], bounds: phone)
        #expect(frames(layout).map(\.minX) == [0, 145, 290, 0, 110])
        // Equal widths but not heights differ too: 2 a line in 130 (gap 30), the last at 0, 60.
        let tall = sized([(50, 50), (50, 50), (50, 50), (50, 60)])
        let narrow = try FlowLayout().layout([FlowSection(items: tall)], bounds: Size(width: 130, height: 500))
        #expect(frames(narrow).map(\.minX) == [0, 80, 0, 60])
    }

    @Test func aSectionOfOneItemIsCentred() throws {
        var flow = FlowLayout()
        flow.sectionInset = EdgeInsets(top: 0, left: 20, bottom: 0, right: 40)
        let layout = try flow.layout([FlowSection(items: sized([(100, 50)]))], bounds: phone)
        // Available 330 from x = 20: (330 − 100)/2 = 115 → 135.
        #expect(frames(layout) == [Rect(x: 135, y: 0, width: 100, height: 50)])
    }

    @Test func horizontalLinesFollowTheSameRules() throws {
        // Columns 200 tall: (200 + 10)/60 → 3 slots, 25 apart (y = 0, 75, 150); the last column's
        // two items on that grid.
        var flow = FlowLayout()
        flow.scrollDirection = .horizontal
        let layout = try flow.layout([FlowSection(items: .uniform(count: 5))], bounds: Size(width: 390, height: 200))
        #expect(frames(layout).map(\.minY) == [0, 75, 150, 0, 75])
        #expect(frames(layout).map(\.minX) == [0, 0, 0, 60, 60])
    }

    @Test func mixedSizesAreCentredAcrossTheLine() throws {
        // 100+10+100+10+120 = 340 ≤ 390; +10+100 = 450 > 390. Line 1 is 60 thick.
        let items = sized([(100, 40), (100, 60), (120, 20), (100, 30)])
        let layout = try FlowLayout().layout([FlowSection(items: items)], bounds: phone)
        #expect(frames(layout) == [Rect(x: 0, y: 10, width: 100, height: 40),
                                   Rect(x: 135, y: 0, width: 100, height: 60),
                                   Rect(x: 270, y: 20, width: 120, height: 20),
                                   Rect(x: 0, y: 70, width: 100, height: 30)])  // sizes differ: leading
        #expect(layout.contentSize.height == 100)
    }

    @Test(arguments: [(FlowAlignment.leading, [0.0, 110, 220, 0]),
                      (.center, [25, 135, 245, 145]),
                      (.trailing, [50, 160, 270, 290])])
    func otherAlignmentsKeepMinimumSpacing(alignment: FlowAlignment, xs: [Double]) throws {
        var flow = FlowLayout()
        flow.alignment = alignment
        let items = sized([(100, 40), (100, 60), (120, 20), (100, 30)])
        let layout = try flow.layout([FlowSection(items: items)], bounds: phone)
        #expect(frames(layout).map(\.minX) == xs)
    }

    @Test func anItemThatExactlyFillsTheLineFits() throws {
        // 3·110 + 2·10 = 350 = 390 − 20 − 20.
        var flow = FlowLayout()
        flow.sectionInset = EdgeInsets(top: 0, left: 20, bottom: 0, right: 20)
        let layout = try flow.layout([FlowSection(items: sized([(110, 10), (110, 10), (110, 10), (110, 10)]))],
                                     bounds: phone)
        #expect(frames(layout).map(\.minX) == [20, 140, 260, 20])  // the third ends at 370 = 390 − 20
        #expect(layout.warnings.isEmpty)
    }

    @Test func itemsLongerThanTheLineSitAloneAtTheLeadingInset() throws {
        let items = sized([(400, 50), (50, 50), (500, 20)])
        let layout = try FlowLayout().layout([FlowSection(items: items)],
                                             bounds: Size(width: 300, height: 500))
        #expect(frames(layout) == [Rect(x: 0, y: 0, width: 400, height: 50),
                                   Rect(x: 125, y: 60, width: 50, height: 50),
                                   Rect(x: 0, y: 120, width: 500, height: 20)])
        #expect(layout.contentSize == Size(width: 300, height: 140))
        #expect(layout.warnings.count == 1)
        #expect(layout.warnings.first?.contains("2 items") == true)
    }

    @Test func heightsDataTakesTheItemSizeWidth() throws {
        var flow = FlowLayout()
        flow.itemSize = Size(width: 185, height: 1)
        let layout = try flow.layout([FlowSection(items: .heights([30, 70, 10]))], bounds: phone)
        // 185 + 10 + 185 = 380 ≤ 390: gap 390 − 370 = 20; the line is 70 thick. The heights
        // differ, so the last line's lone item stays at the leading edge.
        #expect(frames(layout) == [Rect(x: 0, y: 20, width: 185, height: 30),
                                   Rect(x: 205, y: 0, width: 185, height: 70),
                                   Rect(x: 0, y: 80, width: 185, height: 10)])
    }

    // MARK: - Headers, footers, sections

    @Test func headerFooterAndInsets() throws {
        // Available 190: two 60-wide items per line, gap 70.
        var flow = FlowLayout()
        flow.itemSize = Size(width: 60, height: 40)
        flow.headerReferenceSize = Size(width: 0, height: 30)
        flow.footerReferenceSize = Size(width: 0, height: 20)
        flow.sectionInset = EdgeInsets(all: 5)
        let layout = try flow.layout([FlowSection(items: .uniform(count: 5))],
                                     bounds: Size(width: 200, height: 400))
        #expect(frames(layout, category: .supplementaryView) == [Rect(x: 0, y: 0, width: 200, height: 30),
                                                                 Rect(x: 0, y: 180, width: 200, height: 20)])
        #expect(layout.elements.first?.kind == ElementKind.header)
        #expect(layout.elements.last?.kind == ElementKind.footer)
        #expect(frames(layout).map(\.minX) == [5, 135, 5, 135, 5])
        #expect(frames(layout).map(\.minY) == [35, 35, 85, 85, 135])
        #expect(layout.contentSize == Size(width: 200, height: 200))
    }

    @Test func emptySectionsKeepTheirInsetsHeaderAndFooter() throws {
        var flow = FlowLayout()
        flow.headerReferenceSize = Size(width: 0, height: 30)
        let sections = [FlowSection(items: .uniform(count: 2)),
                        FlowSection(items: .heights([]), sectionInset: EdgeInsets(all: 10), footerLength: 20),
                        FlowSection(items: .uniform(count: 1), headerLength: 0)]
        let layout = try flow.layout(sections, bounds: phone)
        // s0: header 0–30, line 30–80 on the grid of a full line (x = 0, 68). s1: header
        // 80–110, insets 10 + 10, footer 130–150. s2: no header, its only item centred at 170.
        #expect(frames(layout, category: .supplementaryView) == [Rect(x: 0, y: 0, width: 390, height: 30),
                                                                 Rect(x: 0, y: 80, width: 390, height: 30),
                                                                 Rect(x: 0, y: 130, width: 390, height: 20)])
        #expect(frames(layout) == [Rect(x: 0, y: 30, width: 50, height: 50),
                                   Rect(x: 68, y: 30, width: 50, height: 50),
                                   Rect(x: 170, y: 150, width: 50, height: 50)])
        #expect(layout.numberOfItems(inSection: 1) == 0)
        #expect(layout.layoutAttributesForItem(at: IndexPath(item: 0, section: 2))?.frame.minY == 150)
        #expect(layout.contentSize.height == 200)
    }

    @Test func horizontalScrollingFillsColumns() throws {
        // Lines are columns 200 tall: heights 50+10+50+10+80 = 200 fit, the 4th starts column 2.
        var flow = FlowLayout()
        flow.scrollDirection = .horizontal
        flow.headerReferenceSize = Size(width: 25, height: 999)
        let items = sized([(40, 50), (60, 50), (30, 80), (50, 50)])
        let layout = try flow.layout([FlowSection(items: items)], bounds: Size(width: 390, height: 200))
        #expect(frames(layout, category: .supplementaryView) == [Rect(x: 0, y: 0, width: 25, height: 200)])
        #expect(frames(layout) == [Rect(x: 35, y: 0, width: 40, height: 50),
                                   Rect(x: 25, y: 60, width: 60, height: 50),
                                   Rect(x: 40, y: 120, width: 30, height: 80),
                                   Rect(x: 95, y: 0, width: 50, height: 50)])
        #expect(layout.contentSize == Size(width: 145, height: 200))
        #expect(layout.scrollDirection == .horizontal)
    }

    // MARK: - Pinned and stretchy headers

    /// Two sections of 7 uniform items and a 30-point header: s0 header 0–30, lines 30 and
    /// 90, end 140; s1 header 140–170, lines 170 and 230, end 280.
    func pinned(offsetY: Double, stretchy: Bool = false) throws -> [Rect] {
        var flow = FlowLayout()
        flow.headerReferenceSize = Size(width: 0, height: 30)
        flow.sectionHeadersPinToVisibleBounds = true
        flow.stretchesFirstHeader = stretchy
        let layout = try flow.layout([FlowSection(items: .uniform(count: 7)),
                                                FlowSection(items: .uniform(count: 7))],
                                     bounds: Size(width: 390, height: 100), contentOffset: Point(x: 0, y: offsetY))
        let headers = layout.elements.filter { $0.kind == ElementKind.header }
        #expect(headers.allSatisfy { $0.zIndex == FlowLayout.pinnedHeaderZIndex })
        #expect(layout.contentSize.height == 280)
        return headers.map(\.frame)
    }

    @Test(arguments: [(-40.0, 0.0, 140.0), (0, 0, 140), (20, 20, 140), (125, 110, 140), (200, 110, 200),
                      (250, 110, 250), (500, 110, 250), (1e300, 110, 250)])
    func pinnedHeadersStickUntilTheirSectionEnds(offset: Double, first: Double, second: Double) throws {
        #expect(try pinned(offsetY: offset).map(\.minY) == [first, second])
    }

    @Test func stretchyHeaderGrowsWhileOffsetIsNegative() throws {
        var flow = FlowLayout()
        flow.headerReferenceSize = Size(width: 0, height: 100)
        flow.stretchesFirstHeader = true
        let sections = [FlowSection(items: .uniform(count: 1)), FlowSection(items: .uniform(count: 1))]
        let pulled = try flow.layout(sections, bounds: phone, contentOffset: Point(x: 0, y: -40))
        let headers = pulled.elements.filter { $0.kind == ElementKind.header }.map(\.frame)
        #expect(headers == [Rect(x: 0, y: -40, width: 390, height: 140), Rect(x: 0, y: 150, width: 390, height: 100)])
        let scrolled = try flow.layout(sections, bounds: phone, contentOffset: Point(x: 0, y: 40))
        #expect(scrolled.elements[0].frame == Rect(x: 0, y: 0, width: 390, height: 100))
        #expect(try pinned(offsetY: -40, stretchy: true) == [Rect(x: 0, y: -40, width: 390, height: 70),
                                                             Rect(x: 0, y: 140, width: 390, height: 30)])
    }

    // MARK: - Errors and robustness

    @Test func invalidSettingsThrow() throws {
        var flow = FlowLayout()
        flow.minimumLineSpacing = -1
        #expect(throws: LayoutError.invalidParameter(name: "line-spacing", section: nil, value: -1,
                                                     requirement: .finiteNonNegative)) {
            try flow.layout([], bounds: phone)
        }
        #expect(throws: LayoutError.invalidParameter(name: "header", section: 1, value: -2,
                                                     requirement: .finiteNonNegative)) {
            try FlowLayout().layout([FlowSection(items: .uniform(count: 1)),
                                               FlowSection(items: .uniform(count: 1), headerLength: -2)], bounds: phone)
        }
        #expect(throws: LayoutError.self) {
            try FlowLayout().layout([FlowSection(items: .heights([1, .nan]))], bounds: phone)
        }
    }

    @Test func everyInputGivesFiniteNumbers() throws {
        for bounds in [Size.zero, Size(width: 1, height: 0), phone] {
            for size in [Size.zero, Size(width: 50, height: 50), Size(width: 1e300, height: 1e300)] {
                for offset in [-1e308, -40, 0, 1e308] {
                    for direction in ScrollDirection.allCases {
                        var flow = FlowLayout()
                        flow.itemSize = size
                        flow.scrollDirection = direction
                        flow.headerReferenceSize = Size(width: 10, height: 10)
                        flow.sectionHeadersPinToVisibleBounds = true
                        flow.stretchesFirstHeader = offset > -1e300
                        let sections = [0, 1, 2, 13].map { FlowSection(items: .uniform(count: $0)) }
                        let layout = try flow.layout(sections, bounds: bounds,
                                                     contentOffset: Point(x: offset, y: offset))
                        #expect(layout.elements.allSatisfy { $0.isFinite })
                        #expect(layout.contentSize.width.isFinite && layout.contentSize.height.isFinite)
                        #expect(layout.elements.count == 16 + 4)
                    }
                }
            }
        }
    }
}
