import Testing
@testable import LayoutCore

/// The rect index answers every query exactly as the brute-force filter (`Rect.intersects`
/// over every element, in element order): on engine layouts of both scroll directions and on
/// hostile element sets (zero-size, negative-size, huge, infinite and NaN frames, ties,
/// shuffled element order, several length classes), for random rects, rects on element
/// edges, empty, negative, huge, infinite and NaN rects, and answers long enough to leave the
/// stack buffer and the bitmap sort.
struct RectIndexTests {
    static func int(_ g: inout SplitMix64, _ bound: Int) -> Int { Int(g.next() % UInt64(max(1, bound))) }
    static func value(_ g: inout SplitMix64, _ bound: Int) -> Double { Double(int(&g, bound * 100)) / 100 }

    static func brute(_ elements: [LayoutAttributes], _ q: Rect) -> [Int] {
        elements.indices.filter { elements[$0].frame.intersects(q) }
    }

    /// Every query API, with and without the index, against brute force.
    static func check(_ layout: CollectionLayout, _ queries: [Rect],
                      sourceLocation: SourceLocation = #_sourceLocation) {
        var indexed = layout
        indexed.prepareRectIndex()
        let index = RectIndex(elements: layout.elements, axis: layout.scrollDirection)
        #expect(index.elementCount == layout.elements.count, sourceLocation: sourceLocation)
        for q in queries {
            let expected = brute(layout.elements, q)
            let got = indexed.elementIndices(in: q)
            #expect(got == expected, "indexed query \(q)", sourceLocation: sourceLocation)
            #expect(layout.elementIndices(in: q) == expected, "query \(q)", sourceLocation: sourceLocation)
            #expect(index.elementIndices(in: q) == expected, "RectIndex query \(q)", sourceLocation: sourceLocation)
            var visited: [Int] = []
            index.forEachElementIndex(in: q) { visited.append($0) }
            #expect(visited == expected, "forEachElementIndex \(q)", sourceLocation: sourceLocation)
            // Attributes: the same elements (compared by position: NaN frames are never in an answer).
            let attributes = indexed.layoutAttributesForElements(in: q)
            #expect(attributes.count == expected.count && zip(attributes, expected).allSatisfy { $0 == layout.elements[$1] },
                    "indexed attributes \(q)", sourceLocation: sourceLocation)
            #expect(layout.layoutAttributesForElements(in: q).count == expected.count, sourceLocation: sourceLocation)
        }
    }

    /// Random rects around `extent`, rects on the edges of random elements (touching them
    /// exactly), empty, negative, all-covering, infinite and NaN rects.
    static func queries(_ layout: CollectionLayout, _ g: inout SplitMix64, count: Int = 30) -> [Rect] {
        let w = max(1, Int(min(layout.contentSize.width, 1e6))), h = max(1, Int(min(layout.contentSize.height, 1e6)))
        var qs = (0..<count).map { _ in
            Rect(x: value(&g, w + 200) - 100, y: value(&g, h + 200) - 100,
                 width: value(&g, max(w / 2, 10)), height: value(&g, max(h / 3, 10)))
        }
        let finite = layout.elements.filter { $0.frame.isFinite }
        for _ in 0..<min(12, finite.count) {
            let a = finite[int(&g, finite.count)].frame, b = finite[int(&g, finite.count)].frame
            qs += [Rect(x: a.maxX, y: a.minY, width: 10, height: a.height),    // touching on the right
                   Rect(x: a.minX, y: a.maxY, width: a.width, height: 10),     // touching below
                   Rect(x: a.minX - 10, y: a.minY - 10, width: 10, height: 10),  // touching the corner
                   Rect(x: a.minX, y: a.minY, width: 0, height: 0),            // an empty rect on a corner
                   Rect(x: a.minX, y: a.minY, width: a.width, height: a.height),
                   Rect(minX: min(a.minX, b.minX), minY: min(a.minY, b.maxY), maxX: max(a.maxX, b.maxX), maxY: max(a.minY, b.maxY)),
                   Rect(x: -1e9, y: a.minY, width: 2e9, height: 1e-9),          // a sliver across
                   Rect(x: a.midX, y: -1e9, width: 1e-9, height: 2e9)]          // a sliver along
        }
        qs += [Rect(x: -1e300, y: -1e300, width: 2e300, height: 2e300),
               Rect(x: 0, y: 0, width: Double(w), height: Double(h)),
               Rect(x: 50, y: 50, width: -20, height: -20),
               Rect(x: 0, y: 0, width: .infinity, height: .infinity),
               Rect(x: -.infinity, y: -.infinity, width: 1e9, height: 1e9),
               Rect(x: 0, y: .nan, width: 100, height: 100),
               Rect(x: .nan, y: 0, width: 100, height: 100),
               Rect(x: Double(w) + 1e6, y: Double(h) + 1e6, width: 10, height: 10)]
        return qs
    }

    /// A frame of one of many kinds, `extent` the size of the area they fall in.
    static func frame(_ g: inout SplitMix64, _ extent: Size, previous: Rect?) -> Rect {
        let x = value(&g, Int(extent.width)), y = value(&g, Int(extent.height))
        switch int(&g, 24) {
        case 0: return Rect(x: x, y: y, width: 0, height: 0)
        case 1: return Rect(x: x, y: y, width: 0, height: value(&g, 200))
        case 2: return Rect(x: x, y: y, width: value(&g, 200), height: 0)
        case 3: return Rect(x: -1e6, y: -1e6, width: 2e6 + extent.width, height: 2e6 + extent.height)  // spans everything
        case 4: return Rect(x: x, y: y, width: value(&g, 300), height: extent.height / 2)
        case 5: return Rect(x: x, y: y, width: extent.width / 2, height: value(&g, 300))
        case 6: return Rect(x: x, y: y, width: 10, height: .infinity)
        case 7: return Rect(x: x, y: -.infinity, width: 10, height: 50)
        case 8: return Rect(x: .infinity, y: y, width: 10, height: 50)
        case 9: return Rect(x: x, y: .nan, width: 10, height: 50)
        case 10: return Rect(x: x, y: y, width: -value(&g, 100), height: -value(&g, 100))
        case 11: return previous ?? Rect(x: x, y: y, width: 1, height: 1)                // a duplicate
        case 12: return Rect(x: x, y: previous?.minY ?? y, width: 5, height: value(&g, 100))  // a tie in y
        case 13: return Rect(x: x, y: y, width: 1e-300, height: 1e-300)
        case 14: return Rect(x: x, y: y, width: 40, height: Double(1 << int(&g, 16)))    // lengths over many classes
        default: return Rect(x: x, y: y, width: value(&g, 200), height: value(&g, 200))
        }
    }

    static func arbitrary(_ g: inout SplitMix64, count: Int, axis: ScrollDirection) -> CollectionLayout {
        let extent = Size(width: Double(100 + int(&g, 1000)), height: Double(100 + int(&g, 20_000)))
        var frames: [Rect] = []
        for _ in 0..<count { frames.append(frame(&g, extent, previous: frames.last)) }
        let elements = frames.enumerated().map { LayoutAttributes.cell(IndexPath(item: $0.offset, section: 0), frame: $0.element) }
        return CollectionLayout(engine: "test", bounds: Size(width: 390, height: 844), contentSize: extent,
                                elements: elements, cellRanges: [(start: 0, count: count)], scrollDirection: axis)
    }

    @Test func arbitraryElementsOnBothAxes() {
        var g = SplitMix64(seed: 11)
        for round in 0..<60 {
            let count = [0, 1, 2, 7, 40, 300, 2000][round % 7]
            let layout = Self.arbitrary(&g, count: count, axis: round % 2 == 0 ? .vertical : .horizontal)
            Self.check(layout, Self.queries(layout, &g))
        }
    }

    @Test func onlyDegenerateElements() {
        var g = SplitMix64(seed: 12)
        let kinds: [[Rect]] = [
            Array(repeating: Rect(x: 5, y: 5, width: 0, height: 0), count: 50),      // all at one point
            Array(repeating: Rect(x: 0, y: 0, width: 100, height: 100), count: 300),  // identical
            (0..<100).map { _ in Rect(x: 0, y: .nan, width: 1, height: 1) },          // all NaN
            (0..<100).map { i in Rect(x: 0, y: Double(i), width: 10, height: .infinity) },
            (0..<100).map { i in Rect(x: Double(i), y: 1e300, width: 10, height: 1e300) },
        ]
        for frames in kinds {
            for axis in ScrollDirection.allCases {
                let elements = frames.enumerated().map { LayoutAttributes.cell(IndexPath(item: $0.offset, section: 0), frame: $0.element) }
                let layout = CollectionLayout(engine: "test", bounds: Size(width: 100, height: 100),
                                              contentSize: Size(width: 100, height: 100), elements: elements,
                                              cellRanges: [(start: 0, count: elements.count)], scrollDirection: axis)
                Self.check(layout, Self.queries(layout, &g, count: 10))
            }
        }
    }

    /// Bands crowded with elements at nearly one place (the binary search of block maxima),
    /// beside a few long ones.
    @Test func crowdedBands() {
        var g = SplitMix64(seed: 16)
        for axis in ScrollDirection.allCases {
            var frames: [Rect] = []
            for i in 0..<5000 {
                let v: Double, length: Double
                switch i % 5 {
                case 0: (v, length) = (Double(i), 30)                                       // spread out
                case 1: (v, length) = (1000 + Double(Self.int(&g, 1000)) / 1e6, 0)          // crowded, empty
                case 2: (v, length) = (1000 + Double(Self.int(&g, 1000)) / 1e6, Double(Self.int(&g, 3)))
                case 3: (v, length) = (2000, Double(Self.int(&g, 50)))                      // one place
                default: (v, length) = (Double(Self.int(&g, 5000)), Double(Self.int(&g, 20)))
                }
                let across = Double(Self.int(&g, 300))
                frames.append(axis == .vertical ? Rect(x: across, y: v, width: 20, height: length)
                                                : Rect(x: v, y: across, width: length, height: 20))
            }
            let elements = frames.enumerated().map { LayoutAttributes.cell(IndexPath(item: $0.offset, section: 0), frame: $0.element) }
            let layout = CollectionLayout(engine: "test", bounds: Size(width: 400, height: 844),
                                          contentSize: Size(width: 5000, height: 5000), elements: elements,
                                          cellRanges: [(start: 0, count: elements.count)], scrollDirection: axis)
            var queries: [Rect] = []
            for near in [999.0, 1000, 1000.0005, 1000.001, 1001, 1999, 2000, 2001, 2049, 2050] {
                for length in [0.0, 0.0004, 1, 100, 1000] {
                    queries.append(axis == .vertical ? Rect(x: 0, y: near, width: 400, height: length)
                                                     : Rect(x: near, y: 0, width: length, height: 400))
                }
            }
            Self.check(layout, queries + Self.queries(layout, &g, count: 20))
        }
    }

    /// Answers far longer than a screenful (the heap buffer), spanning more positions than the
    /// bitmap sort takes (the ordinary sort), and element order unrelated to position.
    @Test func longAnswersAndShuffledElementOrder() {
        var g = SplitMix64(seed: 13)
        var frames: [Rect] = (0..<6000).map { (i: Int) -> Rect in
            let column = Double(i % 10), line = Double(i / 10), extra = Double(i % 7)
            return Rect(x: column * 40, y: line * 30, width: 35, height: 25 + extra)
        }
        for i in stride(from: frames.count - 1, to: 0, by: -1) { frames.swapAt(i, Self.int(&g, i + 1)) }
        let elements = frames.enumerated().map { LayoutAttributes.cell(IndexPath(item: $0.offset, section: 0), frame: $0.element) }
        let layout = CollectionLayout(engine: "test", bounds: Size(width: 400, height: 844),
                                      contentSize: Size(width: 400, height: 18_000), elements: elements,
                                      cellRanges: [(start: 0, count: elements.count)])
        let queries = [Rect(x: 0, y: 0, width: 400, height: 18_000), Rect(x: 0, y: 1000, width: 400, height: 3000),
                       Rect(x: 100, y: 0, width: 1, height: 18_000), Rect(x: 0, y: 500, width: 400, height: 844)]
        Self.check(layout, queries + Self.queries(layout, &g, count: 20))
    }

    @Test func engineLayoutsInBothDirections() throws {
        var g = SplitMix64(seed: 14)
        for round in 0..<40 {
            var flow = FlowLayout()
            flow.scrollDirection = round % 2 == 0 ? .vertical : .horizontal
            flow.itemSize = Size(width: Double(1 + Self.int(&g, 120)), height: Double(1 + Self.int(&g, 120)))
            flow.minimumLineSpacing = Double(Self.int(&g, 3)) * 5
            flow.minimumInteritemSpacing = Double(Self.int(&g, 3)) * 5
            flow.headerReferenceSize = Size(width: 30, height: Double(Self.int(&g, 2)) * 40)
            flow.footerReferenceSize = Size(width: 0, height: Double(Self.int(&g, 2)) * 20)
            flow.alignment = FlowAlignment.allCases[Self.int(&g, FlowAlignment.allCases.count)]
            let sections = (0..<(1 + Self.int(&g, 3))).map { _ -> FlowSection in
                let n = Self.int(&g, 400)
                switch Self.int(&g, 3) {
                case 0: return FlowSection(items: .heights((0..<n).map { _ in Self.int(&g, 6) == 0 ? 0 : Self.value(&g, 200) }))
                case 1: return FlowSection(items: .sizes((0..<n).map { _ in
                    Size(width: 1 + Self.value(&g, 500), height: Self.int(&g, 6) == 0 ? 0 : Self.value(&g, 200)) }))
                default: return FlowSection(items: .uniform(count: n))
                }
            }
            let layout = try flow.layout(sections, bounds: Size(width: 390, height: 844))
            Self.check(layout, Self.queries(layout, &g, count: 15))

            var waterfall = WaterfallLayout()
            waterfall.columnCount = 1 + Self.int(&g, 5)
            waterfall.order = WaterfallOrder.allCases[Self.int(&g, WaterfallOrder.allCases.count)]
            waterfall.headerHeight = Double(Self.int(&g, 2)) * 50
            let heights = (0..<Self.int(&g, 1500)).map { _ in Self.int(&g, 5) == 0 ? 0 : Self.value(&g, 400) }
            let wall = try waterfall.layout([WaterfallSection(items: .heights(heights))],
                                            bounds: Size(width: 390, height: 844))
            Self.check(wall, Self.queries(wall, &g, count: 15))
        }
    }

    /// Screen after screen down a large waterfall and a horizontal flow, as UIKit asks while
    /// scrolling, with rects starting exactly on element edges.
    @Test func scrollingThroughLargeLayouts() throws {
        var g = SplitMix64(seed: 15)
        let heights = (0..<20_000).map { _ in 50 + Double(g.next() % 100) }
        let wall = try WaterfallLayout().layout([WaterfallSection(items: .heights(heights))],
                                                bounds: Size(width: 390, height: 844))
        var flow = FlowLayout()
        flow.scrollDirection = .horizontal
        let strip = try flow.layout([FlowSection(items: .heights(heights))], bounds: Size(width: 390, height: 844))
        for layout in [wall, strip] {
            let vertical = layout.scrollDirection == .vertical
            let length = vertical ? layout.contentSize.height : layout.contentSize.width
            var queries: [Rect] = []
            var offset = -100.0
            while offset < length + 100 {
                queries.append(vertical ? Rect(x: 0, y: offset, width: 390, height: 844) : Rect(x: offset, y: 0, width: 390, height: 844))
                offset += 844 * 7
            }
            for _ in 0..<20 {
                let f = layout.elements[Self.int(&g, layout.elements.count)].frame
                queries.append(vertical ? Rect(x: 0, y: f.maxY, width: 390, height: 844) : Rect(x: f.maxX, y: 0, width: 390, height: 844))
                queries.append(vertical ? Rect(x: 0, y: f.minY - 844, width: 390, height: 844) : Rect(x: f.minX - 390, y: 0, width: 390, height: 844))
            }
            Self.check(layout, queries)
        }
    }

    /// A stale index (the elements changed since) is not used.
    @Test func snappingDropsTheIndex() throws {
        var layout = try WaterfallLayout().layout([WaterfallSection(items: .heights([33.3333, 10, 20, 40]))],
                                                  bounds: Size(width: 100, height: 100))
        layout.prepareRectIndex()
        layout.snapToPixels(scale: 3)
        let q = Rect(x: 0, y: 0, width: 100, height: 25)
        #expect(layout.elementIndices(in: q) == Self.brute(layout.elements, q))
    }
}
