import Testing
@testable import LayoutCore

/// Issue 16: items that span columns, pinned headers, horizontal waterfalls, per-section
/// spacing. Exact frames computed by hand, then properties over seeded random datasets
/// against an independent placement oracle.
struct WaterfallSpanTests {
    let phone = Size(width: 390, height: 844)

    // MARK: - Exact frames

    @Test func spansAndFullWidthItemsShortestFirst() throws {
        // w = (390 − 20)/3 = 123.333; a span-2 item is 2w + 10 = 256.667 wide.
        let w = 370.0 / 3, w2 = 2 * w + 10
        let section = WaterfallSection(items: .mixed([.height(120), .size(Size(width: 300, height: 200)), .height(80),
                                                      .height(50), .size(Size(width: 100, height: 100))]),
                                       spans: [1, 2, WaterfallSection.fullSpan, 1, 1])
        let layout = try WaterfallLayout().layout([section], bounds: phone)
        expectFrame(layout.elements[0], 0, 0, w, 120)
        // Columns 130, 0, 0: windows (0,1) reach 130, (1,2) reach 0: the item goes to 1–2,
        // its size scaled to its own width: 200 · 256.667/300 = 171.111.
        expectFrame(layout.elements[1], w + 10, 0, w2, 200 * w2 / 300)
        // Full width below the tallest column (181.111), every column then at 271.111.
        let full = 200 * w2 / 300 + 10
        expectFrame(layout.elements[2], 0, full, 390, 80)
        expectFrame(layout.elements[3], 0, full + 90, w, 50)
        expectFrame(layout.elements[4], w + 10, full + 90, w, w)
        #expect(close(layout.contentSize.height, full + 90 + w))
    }

    @Test func theLeftmostLowestWindowWinsWithinTheTolerance() throws {
        var waterfall = WaterfallLayout()
        waterfall.columnCount = 4
        waterfall.minimumColumnSpacing = 0
        waterfall.minimumInteritemSpacing = 0
        // W = 400: w = 100. Columns 50, 10, 10.0005, 60 after four items; windows of two
        // reach 50, 10.0005, 60: the middle one, at y = 10.0005 (tolerance 0.001 would pick
        // it too; it is the lowest).
        let items = WaterfallSection(items: .heights([50, 10, 10.0005, 60, 5]), spans: [1, 1, 1, 1, 2])
        let layout = try waterfall.layout([items], bounds: Size(width: 400, height: 800))
        expectFrame(layout.elements[4], 100, 10.0005, 200, 5)
        // Columns 50, 10, 10, 60 (round robin, so the tolerance does not move the first four)
        // with a wide tolerance: window (0,1) at 50 is within 45 of 10, and leftmost.
        waterfall.tolerance = 45
        waterfall.order = .leftToRight
        let loose = try waterfall.layout([WaterfallSection(items: .heights([50, 10, 10, 60, 5]),
                                                                     spans: [1, 1, 1, 1, 2])],
                                         bounds: Size(width: 400, height: 800))
        expectFrame(loose.elements[4], 0, 50, 200, 5)
    }

    @Test func roundRobinContinuesAfterASpanInItsOwnDirection() throws {
        var waterfall = WaterfallLayout()
        waterfall.order = .leftToRight
        // W = 320: w = 100, columns at 0, 110, 220.
        let section = WaterfallSection(items: .heights([50, 60, 70, 80, 90]), spans: [1, 2, 1, 1, 1])
        // After item 0, columns 60, 0, 0: the span takes the window 1–2; the cursor goes on at
        // column 0 (after column 2, wrapping).
        expectFrames(try waterfall.layout([section], bounds: Size(width: 320, height: 480)).elements,
                     [(0, 0, 100, 50), (110, 0, 210, 60), (0, 60, 100, 70), (110, 70, 100, 80), (220, 70, 100, 90)])
        // Right to left, columns 0, 0, 60: the window 0–1; the cursor goes on before column 0:
        // column 2.
        waterfall.order = .rightToLeft
        expectFrames(try waterfall.layout([section], bounds: Size(width: 320, height: 480)).elements,
                     [(220, 0, 100, 50), (0, 0, 210, 60), (220, 60, 100, 70), (110, 70, 100, 80), (0, 70, 100, 90)])
    }

    @Test func aSpanWiderThanTheSectionIsRefusedNamingTheItem() {
        let section = WaterfallSection(items: .heights([10, 20]), columnCount: 2, spans: [1, 3])
        #expect(throws: LayoutError.spanTooWide(section: 0, item: 1, span: 3, columns: 2, columnsOfSection: true)) {
            try WaterfallLayout().layout([section], bounds: phone)
        }
        let wide = WaterfallSection(items: .heights([10]), columnCount: WaterfallLayout.maximumSpanningColumns + 1,
                                    spans: [WaterfallSection.fullSpan])
        #expect(throws: LayoutError.self) { try WaterfallLayout().layout([wide], bounds: Size(width: 1e6, height: 1)) }
    }

    @Test func perSectionSpacingAndSupplementaryInsets() throws {
        var waterfall = WaterfallLayout()
        waterfall.columnCount = 2
        let own = WaterfallSection(items: .heights([100, 50, 30]), headerHeight: 40, footerHeight: 20,
                                   columnSpacing: 20, itemSpacing: 5,
                                   headerInset: EdgeInsets(top: 5, left: 10, bottom: 15, right: 20),
                                   footerInset: EdgeInsets(top: 3, left: 0, bottom: 7, right: 0))
        let plain = WaterfallSection(items: .heights([10, 10, 10]))
        let layout = try waterfall.layout([own, plain], bounds: phone)
        // w = (390 − 20)/2 = 185; the header at (10, 5, 360, 40); items from 5 + 40 + 15 = 60.
        expectFrame(layout.elements[0], 10, 5, 360, 40)
        expectFrame(layout.elements[1], 0, 60, 185, 100)
        expectFrame(layout.elements[2], 205, 60, 185, 50)
        expectFrame(layout.elements[3], 205, 115, 185, 30)  // column 1 at 60 + 50 + 5
        expectFrame(layout.elements[4], 0, 163, 390, 20)    // bottom 160, footer inset 3
        // The next section uses the layout's spacing (w = 190) from 163 + 20 + 7 = 190.
        expectFrame(layout.elements[5], 0, 190, 190, 10)
        expectFrame(layout.elements[6], 200, 190, 190, 10)
        expectFrame(layout.elements[7], 0, 210, 190, 10)
        #expect(layout.contentSize.height == 220)
        // No footer: its insets are not added.
        let noFooter = WaterfallSection(items: .heights([10]), footerInset: EdgeInsets(all: 50))
        #expect(try waterfall.layout([noFooter], bounds: phone).contentSize.height == 10)
    }

    // MARK: - Pinned headers

    /// Section 0: header 40, items 100 and 100 in one column (end 250); section 1: header 30,
    /// one item of 50 (the header at 250, the item at 280, the content 330).
    func pinned(at offset: Double, footer: Double = 0) throws -> CollectionLayout {
        var waterfall = WaterfallLayout()
        waterfall.columnCount = 1
        waterfall.sectionHeadersPinToVisibleBounds = true
        waterfall.footerInset = EdgeInsets(top: 5, left: 0, bottom: 5, right: 0)
        return try waterfall.layout([WaterfallSection(items: .heights([100, 100]), headerHeight: 40, footerHeight: footer),
                                               WaterfallSection(items: .heights([50]), headerHeight: 30)],
                                    bounds: phone, contentOffset: Point(x: 0, y: offset))
    }

    @Test func pinnedHeadersStickAndLeaveWithTheirSection() throws {
        for (offset, first, second) in [(-20.0, 0.0, 250.0), (0, 0, 250), (100, 100, 250), (210, 210, 250),
                                        (240, 210, 250), (260, 210, 260), (299.5, 210, 299.5), (400, 210, 300)] {
            let layout = try pinned(at: offset)
            expectFrame(layout.elements[0], 0, first, 390, 40)
            expectFrame(layout.elements[3], 0, second, 390, 30)
            #expect(layout.elements[0].zIndex == FlowLayout.pinnedHeaderZIndex && layout.elements[3].zIndex == FlowLayout.pinnedHeaderZIndex)
            // The cells do not move.
            expectFrame(layout.elements[1], 0, 40, 390, 100)
            expectFrame(layout.elements[4], 0, 280, 390, 50)
        }
        // A footer: the header stops before it (and before its inset).
        let withFooter = try pinned(at: 1000, footer: 20)
        expectFrame(withFooter.elements[0], 0, 210, 390, 40)
        expectFrame(withFooter.elements[3], 0, 255, 390, 20)
        expectFrame(withFooter.elements[4], 0, 330, 390, 30)  // section 1 ends at 360
    }

    // MARK: - Properties over random datasets

    /// A random waterfall with spanning items in most sections.
    static func randomSpanning(_ g: inout SplitMix64) -> (WaterfallLayout, [WaterfallSection], Size, Point) {
        typealias P = EngineProperties
        var w = WaterfallLayout()
        w.columnCount = 1 + P.int(&g, 5)
        w.minimumColumnSpacing = P.length(&g, 20)
        w.minimumInteritemSpacing = P.length(&g, 20)
        w.sectionInset = P.insets(&g, 20)
        w.order = WaterfallOrder.allCases[P.int(&g, 3)]
        w.tolerance = [0.001, 0, 5, 40][P.int(&g, 4)]
        w.headerHeight = P.length(&g, 50)
        w.footerHeight = P.length(&g, 30)
        w.headerInset = P.insets(&g, 10)
        w.footerInset = P.insets(&g, 10)
        w.itemHeight = P.length(&g, 200)
        w.sectionHeadersPinToVisibleBounds = P.int(&g, 3) == 0
        let bounds = P.bounds(&g)
        let sections = (0..<(1 + P.int(&g, 3))).map { _ -> WaterfallSection in
            var items = P.items(&g, maximum: 40)
            if P.int(&g, 3) == 0 {
                items = .mixed((0..<items.count).map { _ in
                    P.int(&g, 2) == 0 ? .height(P.length(&g, 300)) : .size(Size(width: 1 + P.length(&g, 300), height: P.length(&g, 300)))
                })
            }
            var section = WaterfallSection(items: items)
            if P.int(&g, 2) == 0 { section.columnCount = 1 + P.int(&g, 6) }
            if P.int(&g, 3) == 0 { section.columnSpacing = P.length(&g, 30) }
            if P.int(&g, 3) == 0 { section.itemSpacing = P.length(&g, 30) }
            if P.int(&g, 4) == 0 { section.headerInset = P.insets(&g, 15) }
            if P.int(&g, 4) == 0 { section.footerInset = P.insets(&g, 15) }
            if P.int(&g, 4) == 0 { section.headerHeight = P.length(&g, 60) }
            let n = section.columnCount ?? w.columnCount
            if P.int(&g, 5) != 0 {
                section.spans = (0..<items.count).map { _ in
                    switch P.int(&g, 20) {
                    case 0: WaterfallSection.fullSpan
                    case 1...4: 1 + P.int(&g, n)
                    default: 1
                    }
                }
            }
            return section
        }
        let offset = Point(x: 0, y: Double(P.int(&g, 2000)) - 100)
        return (w, sections, bounds, offset)
    }

    /// The cells' frames by the rules, written plainly (every window looked at, no
    /// shortcut), in element order with headers and footers: an oracle independent of the
    /// engine's two placement paths.
    static func oracle(_ w: WaterfallLayout, _ sections: [WaterfallSection], _ bounds: Size, _ offset: Point) -> [Rect] {
        var frames: [Rect] = []
        var top = 0.0
        for section in sections {
            let n = section.columnCount ?? w.columnCount
            let insets = section.sectionInset ?? w.sectionInset
            let cs = section.columnSpacing ?? w.minimumColumnSpacing
            let spacing = section.itemSpacing ?? w.minimumInteritemSpacing
            let width = (bounds.width - insets.left - insets.right - Double(n - 1) * cs) / Double(n)
            let header = section.headerHeight ?? w.headerHeight
            let hi = section.headerInset ?? w.headerInset
            var headerIndex: Int? = nil
            var headerY = 0.0
            if header > 0 {
                top += hi.top
                headerY = top
                headerIndex = frames.count
                frames.append(Rect(x: hi.left, y: top, width: bounds.width - hi.left - hi.right, height: header))
                top += header + hi.bottom
            }
            top += insets.top
            var next = Array(repeating: top, count: n), bottoms = Array(repeating: top, count: n)
            var cursor = w.order == .rightToLeft ? n - 1 : 0
            for item in 0..<section.items.count {
                let span = section.spans?[item] ?? 1
                let k = span == WaterfallSection.fullSpan ? n : span
                let spanWidth = Double(k) * width + Double(k - 1) * cs
                func scaled(_ s: Size) -> Double { s.height * spanWidth / s.width }
                let h: Double
                switch section.items {
                case .heights(let hs): h = hs[item]
                case .randomHeights(let hs): h = hs[item]
                case .sizes(let ss): h = scaled(ss[item])
                case .uniform: h = w.itemHeight
                case .mixed(let ms):
                    switch ms[item] {
                    case .height(let v): h = v
                    case .size(let s): h = scaled(s)
                    }
                }
                var start: Int
                if k == 1 && w.order != .shortestFirst {
                    start = cursor
                } else {
                    let tallest = (0...(n - k)).map { s in next[s..<(s + k)].max()! }
                    let lowest = tallest.min()!
                    start = tallest.firstIndex { $0 <= lowest + w.tolerance }!
                }
                let y = next[start..<(start + k)].max()!
                if w.order == .leftToRight { cursor = (start + k) % n }
                if w.order == .rightToLeft { cursor = (start - 1 + n) % n }
                frames.append(Rect(x: insets.left + Double(start) * (width + cs), y: y, width: spanWidth, height: h))
                for c in start..<(start + k) {
                    bottoms[c] = y + h
                    next[c] = y + h + spacing
                }
            }
            top = (section.items.count > 0 ? bottoms.max()! : top) + insets.bottom
            if let headerIndex, w.sectionHeadersPinToVisibleBounds {
                frames[headerIndex].origin.y = min(max(offset.y, headerY), top - header)
            }
            let footer = section.footerHeight ?? w.footerHeight
            if footer > 0 {
                let fi = section.footerInset ?? w.footerInset
                top += fi.top
                frames.append(Rect(x: fi.left, y: top, width: bounds.width - fi.left - fi.right, height: footer))
                top += footer + fi.bottom
            }
        }
        return frames
    }

    @Test func spanningLayoutsMatchTheOracleWithoutOverlapsAndQueriesEqualBruteForce() throws {
        var g = SplitMix64(seed: 1616)
        var laidOut = 0
        for _ in 0..<400 {
            let (w, sections, bounds, offset) = Self.randomSpanning(&g)
            guard let layout = try? w.layout(sections, bounds: bounds, contentOffset: offset) else { continue }
            laidOut += 1
            let expected = Self.oracle(w, sections, bounds, offset)
            try #require(layout.elements.count == expected.count)
            for (e, f) in zip(layout.elements, expected) {
                #expect(close(e.frame.minX, f.minX) && close(e.frame.minY, f.minY) && close(e.frame.width, f.width)
                        && close(e.frame.height, f.height), "\(e.indexPath) \(e.frame) != oracle \(f)")
            }
            let cells = layout.elements.filter { $0.category == .cell }
            for i in cells.indices {
                for j in cells.indices where j > i {
                    #expect(!cells[i].frame.intersects(cells[j].frame), "\(cells[i].indexPath) overlaps \(cells[j].indexPath)")
                }
            }
            EngineProperties.expectCellsInsideContent(layout)
            try EngineProperties.checkFiniteAndQueries(layout, &g)
            // Streaming (small blocks) and the summary equal collecting.
            var streamed: [LayoutAttributes] = []
            var blocks = ElementBlocks(blockSize: 7) { streamed.append(contentsOf: $0) }
            let summary = try w.layout(sections, bounds: bounds, contentOffset: offset, into: &blocks)
            blocks.finish()
            #expect(streamed == layout.elements)
            var counter = CountingSink()
            #expect(try w.layout(sections, bounds: bounds, contentOffset: offset, into: &counter).contentSize
                    == layout.contentSize)
            #expect(counter.count == layout.elements.count && summary.contentSize == layout.contentSize)
            #expect(w.succeedsWithFiniteElements(sections: sections, bounds: bounds, scale: 3))
        }
        #expect(laidOut > 300)
    }

    /// More than 8 columns: windows found by the monotonic queue rather than looked at one by one.
    @Test func manyColumnsMatchTheOracle() throws {
        var g = SplitMix64(seed: 99)
        for _ in 0..<150 {
            let (random, sections, _, offset) = Self.randomSpanning(&g)
            var w = random
            w.columnCount = 9 + EngineProperties.int(&g, 24)
            let many = sections.map { s -> WaterfallSection in
                var t = s
                t.columnCount = nil
                let n = w.columnCount
                t.spans = (0..<s.items.count).map { _ in
                    switch EngineProperties.int(&g, 10) {
                    case 0: WaterfallSection.fullSpan
                    case 1...4: 1 + EngineProperties.int(&g, n)
                    default: 1
                    }
                }
                return t
            }
            let bounds = Size(width: 3000, height: 800)
            let layout = try w.layout(many, bounds: bounds, contentOffset: offset)
            let expected = Self.oracle(w, many, bounds, offset)
            try #require(layout.elements.count == expected.count)
            for (e, f) in zip(layout.elements, expected) {
                #expect(close(e.frame.minX, f.minX) && close(e.frame.minY, f.minY) && close(e.frame.width, f.width)
                        && close(e.frame.height, f.height), "\(e.indexPath) \(e.frame) != oracle \(f)")
            }
        }
    }

    @Test func horizontalIsTheTransposedVerticalLayout() throws {
        var g = SplitMix64(seed: 4)
        for _ in 0..<200 {
            let (random, sections, bounds, vertical) = Self.randomSpanning(&g)
            var w = random
            let offset = Point(x: vertical.y, y: Double(EngineProperties.int(&g, 500)))
            w.scrollDirection = .horizontal
            var upright = w
            upright.scrollDirection = .vertical
            upright.sectionInset = w.sectionInset.transposed
            upright.headerInset = w.headerInset.transposed
            upright.footerInset = w.footerInset.transposed
            let verticalSections = sections.map { s -> WaterfallSection in
                var t = s
                t.sectionInset = s.sectionInset.map { EdgeInsets(top: $0.left, left: $0.top, bottom: $0.right, right: $0.bottom) }
                t.headerInset = s.headerInset?.transposed
                t.footerInset = s.footerInset?.transposed
                return t
            }
            let h = try? w.layout(sections, bounds: bounds, contentOffset: offset)
            let v = try? upright.layout(verticalSections, bounds: Size(width: bounds.height, height: bounds.width),
                                         contentOffset: Point(x: offset.y, y: offset.x))
            #expect((h == nil) == (v == nil))
            guard let h, let v else { continue }
            #expect(h.scrollDirection == .horizontal && h.bounds == bounds && h.contentOffset == offset)
            #expect(h.contentSize == Size(width: v.contentSize.height, height: v.contentSize.width))
            #expect(h.elements.map(\.frame) == v.elements.map { Rect(x: $0.frame.minY, y: $0.frame.minX, width: $0.frame.height, height: $0.frame.width) })
            #expect(h.elements.map(\.indexPath) == v.elements.map(\.indexPath))
            EngineProperties.expectCellsInsideContent(h)
            try EngineProperties.checkFiniteAndQueries(h, &g)
        }
    }

    @Test func horizontalInsetsStayPhysical() throws {
        var w = WaterfallLayout()
        w.scrollDirection = .horizontal
        w.columnCount = 2
        w.sectionInset = EdgeInsets(top: 4, left: 6, bottom: 8, right: 12)
        // Rows of height (300 − 4 − 8 − 10)/2 = 139 from y = 4; items run right from x = 6.
        let layout = try w.layout([WaterfallSection(items: .heights([100, 50, 30]))],
                                  bounds: Size(width: 844, height: 300))
        expectFrame(layout.elements[0], 6, 4, 100, 139)
        expectFrame(layout.elements[1], 6, 153, 50, 139)
        expectFrame(layout.elements[2], 66, 153, 30, 139)
        #expect(layout.contentSize == Size(width: 6 + 100 + 12, height: 300))
    }
}
