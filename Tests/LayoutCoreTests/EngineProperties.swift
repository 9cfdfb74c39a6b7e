import Testing
@testable import LayoutCore

/// Properties of every engine over seeded random datasets (SplitMix64, fixed seeds, so a
/// failure reproduces): numbers are finite, cells stay inside the content, waterfall cells
/// never overlap and follow the column order rule, flow lines fit their width, and rect
/// queries equal the brute-force filter.
struct EngineProperties {
    // MARK: - Random inputs

    /// A uniform integer in `0..<bound`.
    static func int(_ g: inout SplitMix64, _ bound: Int) -> Int { Int(g.next() % UInt64(bound)) }

    /// A value in `0..<bound` with two decimals, zero one time in eight.
    static func length(_ g: inout SplitMix64, _ bound: Int) -> Double {
        int(&g, 8) == 0 ? 0 : Double(int(&g, bound * 100)) / 100
    }

    static func items(_ g: inout SplitMix64, maximum: Int, widthBound: Int = 300) -> SectionItems {
        let n = int(&g, maximum + 1)
        switch int(&g, 3) {
        case 0: return .heights((0..<n).map { _ in length(&g, 400) })
        case 1: return .sizes((0..<n).map { _ in Size(width: 1 + length(&g, widthBound), height: length(&g, 400)) })
        default: return .uniform(count: n)
        }
    }

    static func insets(_ g: inout SplitMix64, _ bound: Int) -> EdgeInsets {
        EdgeInsets(top: length(&g, bound), left: length(&g, bound), bottom: length(&g, bound), right: length(&g, bound))
    }

    static func bounds(_ g: inout SplitMix64) -> Size {
        Size(width: Double(200 + int(&g, 600)), height: Double(200 + int(&g, 900)))
    }

    // MARK: - Shared checks

    /// Every number finite, and the rect query equal to brute force with and without the index.
    static func checkFiniteAndQueries(_ layout: CollectionLayout, _ g: inout SplitMix64,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        try layout.validateFinite()
        var indexed = layout
        indexed.prepareRectIndex()
        let extent = Size(width: max(layout.contentSize.width, 1), height: max(layout.contentSize.height, 1))
        var queries = (0..<12).map { _ in
            Rect(x: Double(int(&g, Int(extent.width) + 200)) - 100, y: Double(int(&g, Int(extent.height) + 200)) - 100,
                 width: Double(int(&g, 500)), height: Double(int(&g, 900)))
        }
        // Exactly touching an element's edges, and the whole content.
        if let e = layout.elements.first {
            queries.append(Rect(x: e.frame.maxX, y: e.frame.minY, width: 10, height: e.frame.height))
            queries.append(Rect(x: e.frame.minX, y: e.frame.maxY, width: e.frame.width, height: 10))
        }
        queries.append(Rect(x: 0, y: 0, width: extent.width, height: extent.height))
        for q in queries {
            let brute = layout.elements.indices.filter { layout.elements[$0].frame.intersects(q) }
            #expect(layout.elementIndices(in: q) == brute, "query \(q)", sourceLocation: sourceLocation)
            #expect(indexed.elementIndices(in: q) == brute, "indexed query \(q)", sourceLocation: sourceLocation)
        }
    }

    /// Every cell's untransformed frame inside `0…contentSize` (transforms that scale up may
    /// draw outside; the frame may not). `oversizeAcross` exempts an axis for a cell longer
    /// than the room across the scroll direction (a flow item alone on its line, a line item
    /// taller than the view), which by design sits past the content's edge.
    static func expectCellsInsideContent(_ layout: CollectionLayout,
                                         oversizeAcross: (Rect) -> (x: Bool, y: Bool) = { _ in (false, false) },
                                         sourceLocation: SourceLocation = #_sourceLocation) {
        let size = layout.contentSize
        let eps = 1e-9 * max(1, size.width, size.height)
        for e in layout.elements where e.category == .cell {
            let exempt = oversizeAcross(e.frame)
            let insideX = exempt.x || (e.frame.minX >= -eps && e.frame.maxX <= size.width + eps)
            let insideY = exempt.y || (e.frame.minY >= -eps && e.frame.maxY <= size.height + eps)
            #expect(insideX && insideY, "\(e.indexPath) at \(e.frame) outside \(size)", sourceLocation: sourceLocation)
        }
    }

    /// Exempts the axes on which a frame is larger than `bounds` (items centred in the view).
    static func largerThan(_ bounds: Size) -> (Rect) -> (x: Bool, y: Bool) {
        { frame in (frame.width > bounds.width, frame.height > bounds.height) }
    }

    // MARK: - waterfall

    @Test func waterfallFollowsTheColumnOrderRuleWithoutOverlaps() throws {
        var g = SplitMix64(seed: 0xC0FFEE)
        for _ in 0..<120 {
            var w = WaterfallLayout()
            // Up to 40 columns: past the 16 where a linear scan would have been used.
            w.columnCount = 1 + Self.int(&g, Self.int(&g, 4) == 0 ? 40 : 5)
            w.minimumColumnSpacing = Self.length(&g, 4)
            w.minimumInteritemSpacing = Self.length(&g, 20)
            w.sectionInset = Self.insets(&g, 20)
            w.order = WaterfallOrder.allCases[Self.int(&g, 3)]
            w.tolerance = Self.int(&g, 2) == 0 ? 0.001 : Self.length(&g, 30)
            w.headerHeight = Self.length(&g, 40)
            w.footerHeight = Self.length(&g, 40)
            w.itemHeight = Self.length(&g, 200)
            let bounds = Size(width: Double(300 + Self.int(&g, 500)), height: 800)
            let sections = (0..<(1 + Self.int(&g, 3))).map { _ in
                WaterfallSection(items: Self.items(&g, maximum: 120),
                                 columnCount: Self.int(&g, 3) == 0 ? 1 + Self.int(&g, 30) : nil)
            }
            let layout = try w.layout(sections, bounds: bounds)
            try Self.checkFiniteAndQueries(layout, &g)
            Self.expectCellsInsideContent(layout)

            for (s, section) in sections.enumerated() {
                let n = section.columnCount ?? w.columnCount
                let available = bounds.width - w.sectionInset.left - w.sectionInset.right
                let columnWidth = (available - Double(n - 1) * w.minimumColumnSpacing) / Double(n)
                let step = columnWidth + w.minimumColumnSpacing
                let cells = (0..<section.items.count).map { layout.layoutAttributesForItem(at: IndexPath(item: $0, section: s))! }
                // A reference simulation of the rule with a plain scan over all n columns.
                var heights = [Double](repeating: cells.first?.frame.minY ?? 0, count: n)
                for (i, cell) in cells.enumerated() {
                    let column = Int(((cell.frame.minX - w.sectionInset.left) / step).rounded())
                    let expected: Int
                    switch w.order {
                    case .leftToRight: expected = i % n
                    case .rightToLeft: expected = n - 1 - i % n
                    case .shortestFirst:
                        let limit = heights.min()! + w.tolerance
                        expected = heights.firstIndex { $0 <= limit }!
                    }
                    #expect(column == expected, "section \(s) item \(i): column \(column), expected \(expected)")
                    #expect(abs(cell.frame.width - columnWidth) <= 1e-9 * max(1, columnWidth))
                    #expect(cell.frame.minY == heights[column], "item \(i) not on top of its column")
                    heights[column] = cell.frame.maxY + w.minimumInteritemSpacing
                }
            }
            // No two elements overlap (strictly).
            let frames = layout.elements.map(\.frame)
            for i in frames.indices {
                for j in (i + 1)..<frames.count where frames[i].intersects(frames[j]) {
                    Issue.record("\(layout.elements[i].indexPath) \(frames[i]) overlaps \(layout.elements[j].indexPath) \(frames[j])")
                }
            }
        }
    }

    @Test func waterfallWithHugeColumnCountsStaysSmallAndExact() throws {
        var w = WaterfallLayout()
        w.columnCount = 1_000_000_000_000
        w.minimumColumnSpacing = 0
        let layout = try w.layout([WaterfallSection(items: .heights([10, 20, 30]))],
                                  bounds: Size(width: 390, height: 844))
        let columnWidth = 390.0 / 1e12
        #expect(layout.elements.map(\.frame.minX) == [0, columnWidth, 2 * columnWidth])
        #expect(layout.contentSize == Size(width: 390, height: 30))
        w.order = .rightToLeft
        let mirrored = try w.layout([WaterfallSection(items: .uniform(count: 2))],
                                    bounds: Size(width: 390, height: 844))
        #expect(mirrored.elements.map(\.frame.minX) == [(1e12 - 1) * columnWidth, (1e12 - 2) * columnWidth])
    }

    // MARK: - flow

    @Test func flowLinesFitTheirWidthExceptSingleOversizeItems() throws {
        var g = SplitMix64(seed: 0xF10)
        for _ in 0..<150 {
            var f = FlowLayout()
            f.itemSize = Size(width: 1 + Self.length(&g, 120), height: 1 + Self.length(&g, 120))
            f.minimumLineSpacing = Self.length(&g, 20)
            f.minimumInteritemSpacing = Self.length(&g, 20)
            f.sectionInset = Self.insets(&g, 30)
            f.scrollDirection = ScrollDirection.allCases[Self.int(&g, 2)]
            f.alignment = FlowAlignment.allCases[Self.int(&g, 4)]
            f.headerReferenceSize = Size(width: Self.length(&g, 50), height: Self.length(&g, 50))
            f.footerReferenceSize = Size(width: Self.length(&g, 50), height: Self.length(&g, 50))
            f.sectionHeadersPinToVisibleBounds = Self.int(&g, 3) == 0
            f.stretchesFirstHeader = Self.int(&g, 3) == 0
            let bounds = Self.bounds(&g)
            let offset = Point(x: Double(Self.int(&g, 400)) - 100, y: Double(Self.int(&g, 400)) - 100)
            let sections = (0..<(1 + Self.int(&g, 3))).map { _ in
                FlowSection(items: Self.items(&g, maximum: 60, widthBound: Int(bounds.width)))
            }
            let layout = try f.layout(sections, bounds: bounds, contentOffset: offset)
            try Self.checkFiniteAndQueries(layout, &g)
            let vertical = f.scrollDirection == .vertical
            let available = (vertical ? bounds.width - f.sectionInset.left - f.sectionInset.right
                                      : bounds.height - f.sectionInset.top - f.sectionInset.bottom)
            Self.expectCellsInsideContent(layout) { frame in
                vertical ? (frame.width > available, false) : (false, frame.height > available)
            }
            let lineStart = vertical ? f.sectionInset.left : f.sectionInset.top
            for s in sections.indices {
                let cells = (0..<layout.numberOfItems(inSection: s)).map {
                    layout.layoutAttributesForItem(at: IndexPath(item: $0, section: s))!.frame
                }
                // Items of a line share their centre across the line's thickness.
                var lines: [[Rect]] = []
                for frame in cells {
                    let mid = vertical ? frame.midY : frame.midX
                    if let last = lines.last?.last, abs((vertical ? last.midY : last.midX) - mid) <= 1e-9 * max(1, abs(mid)) {
                        lines[lines.count - 1].append(frame)
                    } else {
                        lines.append([frame])
                    }
                }
                for line in lines {
                    let start = vertical ? line.first!.minX : line.first!.minY
                    let end = vertical ? line.last!.maxX : line.last!.maxY
                    let slack = 1e-9 * max(1, available)
                    if line.count == 1 && end - start > available + slack {
                        #expect(abs(start - lineStart) <= slack, "an oversize item sits at the leading inset")
                    } else {
                        #expect(start >= lineStart - slack && end - lineStart <= available + slack * 10,
                                "line of \(line.count) items spans \(start)…\(end), available \(available)")
                    }
                }
            }
        }
    }

    // MARK: - line and carousel

    @Test func lineAndCarouselScaleWithinTheirBoundsAndStayFinite() throws {
        var g = SplitMix64(seed: 0x11E)
        for _ in 0..<150 {
            let bounds = Self.bounds(&g)
            let items = Self.items(&g, maximum: 40)
            let offset = Point(x: Double(Self.int(&g, 3000)) - 500, y: Double(Self.int(&g, 3000)) - 500)

            var line = LineLayout()
            line.itemSize = Size(width: 1 + Self.length(&g, 200), height: 1 + Self.length(&g, 200))
            line.minimumLineSpacing = Self.length(&g, 30)
            line.minimumScale = Double(Self.int(&g, 101)) / 100
            var l = try line.layout(items, bounds: bounds, contentOffset: offset)
            l.targetContentOffset = LineLayout.targetContentOffset(in: l, proposed: offset,
                                                                    velocity: Point(x: Double(Self.int(&g, 3)) - 1, y: 0))
            try Self.checkFiniteAndQueries(l, &g)
            Self.expectCellsInsideContent(l, oversizeAcross: Self.largerThan(bounds))
            for e in l.elements {
                #expect(e.transform.a >= line.minimumScale - 1e-12 && e.transform.a <= 1 && e.transform.a == e.transform.d)
            }
            if let target = l.targetContentOffset {
                #expect(target.x >= 0 && target.x <= max(0, l.contentSize.width - bounds.width) + 1e-9)
            }

            var carousel = CarouselLayout()
            carousel.itemSize = Size(width: 1 + Self.length(&g, 300), height: 1 + Self.length(&g, 300))
            carousel.minimumLineSpacing = Self.length(&g, 30)
            carousel.scrollDirection = ScrollDirection.allCases[Self.int(&g, 2)]
            carousel.standardItemAlpha = Double(Self.int(&g, 101)) / 100
            carousel.standardItemScale = Double(Self.int(&g, 101)) / 100
            var c = try carousel.layout(items, bounds: bounds, contentOffset: offset)
            c.targetContentOffset = CarouselLayout.targetContentOffset(in: c, proposed: offset, velocity: .zero)
            try Self.checkFiniteAndQueries(c, &g)
            Self.expectCellsInsideContent(c, oversizeAcross: Self.largerThan(bounds))
            for e in c.elements {
                #expect(e.alpha >= carousel.standardItemAlpha - 1e-12 && e.alpha <= 1 + 1e-12)
                #expect(e.transform.a >= carousel.standardItemScale - 1e-12 && e.transform.a <= 1 + 1e-12)
                #expect(e.zIndex == Int(e.alpha * 10))
            }
        }
    }

    // MARK: - stack, circle, ring

    @Test func stackCircleAndRingPlaceItemsAroundTheCentre() throws {
        var g = SplitMix64(seed: 0x5AC)
        for _ in 0..<150 {
            let bounds = Self.bounds(&g)
            let centre = Point(x: bounds.width / 2, y: bounds.height / 2)
            let items = Self.items(&g, maximum: 40, widthBound: 150)

            var stack = StackLayout()
            stack.itemSize = Size(width: 1 + Self.length(&g, 150), height: 1 + Self.length(&g, 150))
            stack.angles = (0..<Self.int(&g, 8)).map { _ in Double(Self.int(&g, 7201)) / 10 - 360 }
            let st = try stack.layout(items, bounds: bounds)
            try Self.checkFiniteAndQueries(st, &g)
            Self.expectCellsInsideContent(st, oversizeAcross: Self.largerThan(bounds))
            for e in st.elements {
                #expect(abs(e.center.x - centre.x) < 1e-9 && abs(e.center.y - centre.y) < 1e-9)
            }
            #expect(st.elements.filter { !$0.isHidden }.count == min(items.count, stack.angles.count))

            var circle = CircleLayout()
            circle.itemSize = Size(width: 1 + Self.length(&g, 60), height: 1 + Self.length(&g, 60))
            let room = min(bounds.width - circle.itemSize.width, bounds.height - circle.itemSize.height) / 2
            circle.radius = Double(Self.int(&g, Int(room)))
            circle.startAngle = Double(Self.int(&g, 721)) - 360
            circle.direction = RotationDirection.allCases[Self.int(&g, 2)]
            circle.centersSingleItem = Self.int(&g, 2) == 0
            let ci = try circle.layout(.uniform(count: items.count), bounds: bounds)
            try Self.checkFiniteAndQueries(ci, &g)
            Self.expectCellsInsideContent(ci)
            let single = ci.elements.count == 1 && circle.centersSingleItem
            for e in ci.elements {
                let distance = e.center.squaredDistance(to: centre).squareRoot()
                #expect(abs(distance - (single ? 0 : circle.radius)) <= 1e-9 * max(1, circle.radius))
            }

            var ring = RingLayout()
            ring.radius = Self.length(&g, 100)
            ring.ringSpacing = Self.length(&g, 60)
            ring.ringSpacingGrowth = Self.length(&g, 10)
            ring.itemSize = Self.length(&g, 60)
            ring.shrink = Double(Self.int(&g, 150)) / 100
            ring.startAngle = Double(Self.int(&g, 721)) - 360
            let counts = (0..<Self.int(&g, 7)).map { _ in Self.int(&g, 30) }
            var r = try ring.layout(counts, bounds: bounds)
            if let start = HeartPath.defaultStart(in: r) { r.heartPath = HeartPath.seed(from: start, in: r) }
            try Self.checkFiniteAndQueries(r, &g)
            for e in r.elements {
                let s = e.indexPath.section
                let distance = e.center.squaredDistance(to: centre).squareRoot()
                #expect(abs(distance - abs(ring.ringRadius(ring: s))) <= 1e-9 * max(1, distance))
                #expect(abs(e.frame.width - ring.itemSide(ring: s)) <= 1e-12 * max(1, e.frame.width))
            }
        }
    }

    // MARK: - every engine at the extremes

    @Test func extremeSettingsEitherLayOutFinitelyOrThrowALayoutError() {
        // Values a hostile dataset or flag can reach once parsed.
        let extremes: [Double] = [0, 1e-300, 0.5, 1, 1e6, 1e154, 1e300, 1.7976931348623157e308]
        var g = SplitMix64(seed: 0xBAD)
        var laidOut = 0, refused = 0
        for _ in 0..<400 {
            func pick() -> Double { extremes[Self.int(&g, extremes.count)] }
            let bounds = Size(width: pick(), height: pick())
            let items: SectionItems = Self.int(&g, 2) == 0
                ? .heights((0..<Self.int(&g, 6)).map { _ in pick() })
                : .sizes((0..<Self.int(&g, 6)).map { _ in Size(width: max(pick(), 1e-300), height: pick()) })
            let attempts: [() throws -> CollectionLayout] = [
                {
                    var w = WaterfallLayout()
                    w.columnCount = 1 + Self.int(&g, 4)
                    w.minimumInteritemSpacing = pick()
                    w.minimumColumnSpacing = pick()
                    w.headerHeight = pick()
                    return try w.layout([WaterfallSection(items: items)], bounds: bounds)
                },
                {
                    var f = FlowLayout()
                    f.itemSize = Size(width: pick(), height: pick())
                    f.minimumLineSpacing = pick()
                    f.minimumInteritemSpacing = pick()
                    f.alignment = FlowAlignment.allCases[Self.int(&g, 4)]
                    return try f.layout([FlowSection(items: items)], bounds: bounds,
                                        contentOffset: Point(x: -pick(), y: -pick()))
                },
                {
                    var l = LineLayout()
                    l.itemSize = Size(width: pick(), height: pick())
                    l.minimumLineSpacing = pick()
                    var layout = try l.layout(items, bounds: bounds, contentOffset: Point(x: pick(), y: 0))
                    layout.targetContentOffset = LineLayout.targetContentOffset(in: layout, proposed: Point(x: pick(), y: 0),
                                                                                 velocity: Point(x: 1, y: 0))
                    return layout
                },
                {
                    var c = CarouselLayout()
                    c.itemSize = Size(width: pick(), height: pick())
                    c.minimumLineSpacing = pick()
                    var layout = try c.layout(items, bounds: bounds, contentOffset: Point(x: 0, y: pick()))
                    layout.targetContentOffset = CarouselLayout.targetContentOffset(in: layout, proposed: Point(x: 0, y: pick()),
                                                                                     velocity: .zero)
                    return layout
                },
                {
                    var s = StackLayout()
                    s.itemSize = Size(width: pick(), height: pick())
                    s.angles = [pick(), -pick()]
                    return try s.layout(items, bounds: bounds)
                },
                {
                    var c = CircleLayout()
                    c.radius = pick()
                    c.itemSize = Size(width: pick(), height: pick())
                    c.startAngle = pick()
                    return try c.layout(items, bounds: bounds)
                },
                {
                    var r = RingLayout()
                    r.radius = pick()
                    r.ringSpacing = pick()
                    r.itemSize = pick()
                    r.shrink = pick()
                    var layout = try r.layout([1, Self.int(&g, 5), Self.int(&g, 5)], bounds: bounds)
                    if let start = HeartPath.defaultStart(in: layout) { layout.heartPath = HeartPath.seed(from: start, in: layout) }
                    return layout
                },
            ]
            for attempt in attempts {
                do {
                    let layout = try attempt()
                    try layout.validateFinite()
                    laidOut += 1
                } catch is LayoutError {
                    refused += 1
                } catch {
                    Issue.record("unexpected error \(error)")
                }
            }
        }
        // Both outcomes occur: the table is not trivially all-refused or all-accepted.
        #expect(laidOut > 100 && refused > 100, "laid out \(laidOut), refused \(refused)")
    }
}
