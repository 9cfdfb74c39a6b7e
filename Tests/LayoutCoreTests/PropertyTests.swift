import Testing
@testable import LayoutCore

/// Properties over seeded random datasets.
struct PropertyTests {
    func randomWaterfall(_ g: inout SplitMix64) throws -> CollectionLayout {
        var waterfall = WaterfallLayout()
        waterfall.columnCount = Int(1 + g.next() % 5)
        waterfall.minimumColumnSpacing = Double(g.next() % 20)
        waterfall.minimumInteritemSpacing = Double(g.next() % 20)
        waterfall.sectionInset = EdgeInsets(top: Double(g.next() % 30), left: Double(g.next() % 30),
                                            bottom: Double(g.next() % 30), right: Double(g.next() % 30))
        waterfall.order = WaterfallOrder.allCases[Int(g.next() % 3)]
        waterfall.headerHeight = Double(g.next() % 3 == 0 ? 0 : g.next() % 60)
        waterfall.footerHeight = Double(g.next() % 2 == 0 ? 0 : g.next() % 60)
        let sections = (0..<Int(1 + g.next() % 4)).map { _ in
            let n = Int(g.next() % 60)
            if g.next() % 2 == 0 {
                return WaterfallSection(items: .heights((0..<n).map { _ in Double(g.next() % 3000) / 10 }))
            }
            return WaterfallSection(items: .sizes((0..<n).map { _ in
                Size(width: Double(1 + g.next() % 500), height: Double(g.next() % 500)) }))
        }
        return try waterfall.layout(sections, bounds: Size(width: Double(300 + g.next() % 500), height: 800))
    }

    @Test func waterfallCellsNeverOverlapAndStayInsideTheContent() throws {
        var g = SplitMix64(seed: 2024)
        for _ in 0..<200 {
            let layout = try randomWaterfall(&g)
            try layout.validateFinite()
            let cells = layout.elements
            for e in cells {
                #expect(e.frame.minX >= 0 && e.frame.maxX <= layout.contentSize.width + 1e-9)
                #expect(e.frame.minY >= 0 && e.frame.maxY <= layout.contentSize.height + 1e-9)
            }
            // No two elements overlap (strictly).
            for i in cells.indices {
                for j in (i + 1)..<cells.count where cells[i].frame.intersects(cells[j].frame) {
                    Issue.record("\(cells[i].indexPath) overlaps \(cells[j].indexPath)")
                }
            }
        }
    }

    @Test func rectQueriesEqualBruteForceWithAndWithoutTheIndex() throws {
        var g = SplitMix64(seed: 77)
        for _ in 0..<100 {
            var layout = try randomWaterfall(&g)
            var queries: [Rect] = []
            for _ in 0..<20 {
                let h = layout.contentSize.height
                queries.append(Rect(x: Double(g.next() % 800) - 100, y: Double(g.next() % UInt64(h + 200)) - 100,
                                    width: Double(g.next() % 400), height: Double(g.next() % 900)))
            }
            // Touching edges exactly: the first cell's own frame shifted by its height.
            if let first = layout.elements.first {
                queries.append(Rect(x: first.frame.minX, y: first.frame.maxY, width: 10, height: 10))
            }
            let brute = queries.map { q in layout.elements.indices.filter { layout.elements[$0].frame.intersects(q) } }
            #expect(queries.map { layout.elementIndices(in: $0) } == brute)
            layout.prepareRectIndex()
            #expect(queries.map { layout.elementIndices(in: $0) } == brute)
            #expect(queries.map { layout.layoutAttributesForElements(in: $0) } == brute.map { $0.map { layout.elements[$0] } })
        }
    }

    @Test func indexedQueriesOnEdgesOfALargeLayoutEqualBruteForce() throws {
        var g = SplitMix64(seed: 3)
        let heights = (0..<5000).map { _ in Double(g.next() % 2000) / 8 }
        var waterfall = WaterfallLayout()
        waterfall.columnCount = 4
        var layout = try waterfall.layout([WaterfallSection(items: .heights(heights))],
                                          bounds: Size(width: 390, height: 844))
        let elements = layout.elements
        layout.prepareRectIndex()
        for _ in 0..<400 {
            // Rect edges exactly on element edges, where a band lookup is most fragile.
            let a = elements[Int(g.next() % UInt64(elements.count))].frame
            let b = elements[Int(g.next() % UInt64(elements.count))].frame
            let top = min(a.minY, b.maxY), bottom = max(a.minY, b.maxY)
            for q in [Rect(x: 0, y: top, width: 390, height: bottom - top),
                      Rect(x: a.minX, y: a.maxY, width: 1, height: 0),
                      Rect(x: -10, y: -1e9, width: 1000, height: 1e9 + a.minY)] {
                let brute = elements.indices.filter { elements[$0].frame.intersects(q) }
                #expect(layout.elementIndices(in: q) == brute)
            }
        }
    }

    @Test func ringNumbersAreFiniteForAnyCounts() throws {
        var g = SplitMix64(seed: 5)
        for _ in 0..<100 {
            let counts = (0..<Int(g.next() % 8)).map { _ in Int(g.next() % 40) }
            var layout = try RingLayout().layout(counts, bounds: Size(width: Double(g.next() % 500), height: Double(g.next() % 900)))
            if let start = HeartPath.defaultStart(in: layout) {
                layout.heartPath = HeartPath.seed(from: start, in: layout)
                #expect(layout.heartPath != nil)
            }
            try layout.validateFinite()
        }
    }

    @Test func pixelSnappingSharesEdges() throws {
        var waterfall = WaterfallLayout()
        waterfall.minimumColumnSpacing = 0
        waterfall.minimumInteritemSpacing = 0
        var layout = try waterfall.layout([WaterfallSection(items: .heights([33.3333, 33.3333, 10, 20]))],
                                          bounds: Size(width: 100, height: 100))
        layout.snapToPixels(scale: 3)
        let e = layout.elements
        // Column width 33.333…: edges snap to thirds; columns still tile 0…100.
        #expect(e[0].frame.maxX == e[1].frame.minX)
        #expect(e[1].frame.maxX == e[2].frame.minX)
        #expect(e[2].frame.maxX == 100)
        for f in e.map(\.frame) {
            for v in [f.minX, f.minY, f.maxX, f.maxY] { #expect(abs(v * 3 - (v * 3).rounded()) < 1e-9) }
        }
        // Item 3 sits on item 2 (column 2 is the shortest): it shares the snapped edge.
        #expect(e[3].frame.minY == e[2].frame.maxY)
        #expect(e[3].frame.minX == e[2].frame.minX)
    }
}
