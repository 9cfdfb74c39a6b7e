import Testing
import LayoutCore

/// GridLayout: SwiftUI's LazyVGrid and LazyHGrid; expected frames computed by hand from the
/// rules in docs/REFERENCE.md (grid).
struct GridLayoutTests {
    func frames(_ layout: CollectionLayout, category: ElementCategory = .cell) -> [Rect] {
        layout.elements.filter { $0.category == category }.map(\.frame)
    }

    func grid(_ items: [GridItem], spacing: Double = 8) -> GridLayout {
        var grid = GridLayout()
        grid.items = items
        grid.spacing = spacing
        return grid
    }

    func sized(_ sizes: [(Double, Double)]) -> SectionItems {
        .sizes(sizes.map { Size(width: $0.0, height: $0.1) })
    }

    // MARK: - Column sizing

    @Test func fixedAndAdaptiveColumnsOfTheObjcIoQuiz() throws {
        // fixed(70) + adaptive(minimum 40) at 200: 200 − 70 − 8 = 122 for the adaptive column,
        // ⌊(122 + 8)/(40 + 8)⌋ = 2 sub-columns of (122 − 8)/2 = 57, at 78 and 143.
        let g = grid([GridItem(.fixed(70)), GridItem(.adaptive(minimum: 40, maximum: .infinity))])
        let layout = try g.layout([GridSection(items: .heights([40, 50, 30, 20]))], bounds: Size(width: 200, height: 400))
        // Row 0 is 50 high; each item centred in it; item 3 starts row 1 at 50 + 8.
        #expect(frames(layout) == [Rect(x: 0, y: 5, width: 70, height: 40), Rect(x: 78, y: 0, width: 57, height: 50),
                                   Rect(x: 143, y: 10, width: 57, height: 30), Rect(x: 0, y: 58, width: 70, height: 20)])
        #expect(layout.contentSize == Size(width: 200, height: 78))
        let sizing = g.columnSizing(proposed: 200)
        #expect(sizing.fixedAndSpacing == 78)
        #expect(sizing.columns[1].count == 2 && sizing.columns[1].subwidth == 57 && sizing.columns[1].width == 122)
        #expect(sizing.total == 200)
    }

    @Test func twoFlexibleColumnsMakeTheOffCentreGrid() throws {
        // Pass 1 at 300: 292 ÷ 2 = 146; 146 → its minimum 180; total 146 + 180 + 8 = 334.
        // Pass 2 at 334: 326 ÷ 2 = 163; 163 → 180. The grid, 334 wide, is centred in 300:
        // x = (300 − 334)/2 = −17; columns at −17 and −17 + 163 + 8 = 154.
        let g = grid([GridItem(.flexible(minimum: 100, maximum: .infinity)), GridItem(.flexible(minimum: 180, maximum: .infinity))])
        let layout = try g.layout([GridSection(items: .heights([50, 60, 70]), header: 30)], bounds: Size(width: 300, height: 600))
        #expect(frames(layout, category: .supplementaryView) == [Rect(x: -17, y: 0, width: 334, height: 30)])
        #expect(frames(layout) == [Rect(x: -17, y: 43, width: 163, height: 50), Rect(x: 154, y: 38, width: 180, height: 60),
                                   Rect(x: -17, y: 106, width: 163, height: 70)])
        #expect(layout.contentSize == Size(width: 334, height: 176))
        let passes = g.columnPasses(bounds: Size(width: 300, height: 600))
        #expect(passes.first.total == 334 && passes.second.columns.map(\.width) == [163, 180] && passes.origin == -17)
    }

    @Test func theGitbookPairOfFlexibleColumns() throws {
        // flexible(50) + flexible(120) at 200: pass 1 96, 120 → 224; pass 2 at 224: 108, 120.
        let g = grid([GridItem(.flexible(minimum: 50, maximum: .infinity)), GridItem(.flexible(minimum: 120, maximum: .infinity))])
        let layout = try g.layout([GridSection(items: .uniform(count: 2))], bounds: Size(width: 200, height: 600))
        #expect(frames(layout) == [Rect(x: -12, y: 0, width: 108, height: 100), Rect(x: 104, y: 0, width: 120, height: 100)])
        #expect(layout.contentSize == Size(width: 224, height: 100))
    }

    @Test func aCappedAdaptiveColumnKeepsItsShare() throws {
        // 300 − 40 − 10 = 250 for the adaptive column: ⌊260/60⌋ = 4 sub-columns of (250 − 30)/4
        // = 55, cut to 52, laid from its leading edge 62 apart; the fixed column still starts
        // after the whole share, at 250 + 10.
        let g = grid([GridItem(.adaptive(minimum: 50, maximum: 52), spacing: 10), GridItem(.fixed(40))])
        let layout = try g.layout([GridSection(items: .uniform(count: 6))], bounds: Size(width: 300, height: 600))
        #expect(frames(layout).map(\.minX) == [0, 62, 124, 186, 260, 0])
        #expect(frames(layout).map(\.width) == [52, 52, 52, 52, 40, 52])
        #expect(frames(layout).map(\.minY) == [0, 0, 0, 0, 0, 108])
        #expect(g.columnSizing(proposed: 300).total == 300)
    }

    @Test func flexibleColumnsClampToTheirMaximumAndTheNarrowGridIsCentred() throws {
        // 390 − 8 = 382: 191 → cut to 100; then 282 → 100. The grid is 208 wide, centred:
        // x = (390 − 208)/2 = 91; the header spans the grid.
        let g = grid([GridItem(.flexible(minimum: 10, maximum: 100)), GridItem(.flexible(minimum: 10, maximum: 100))])
        let layout = try g.layout([GridSection(items: .uniform(count: 2), header: 20)], bounds: Size(width: 390, height: 600))
        #expect(frames(layout) == [Rect(x: 91, y: 28, width: 100, height: 100), Rect(x: 199, y: 28, width: 100, height: 100)])
        #expect(frames(layout, category: .supplementaryView) == [Rect(x: 91, y: 0, width: 208, height: 20)])
        #expect(layout.contentSize == Size(width: 390, height: 128))
    }

    @Test func anAdaptiveShareIsNeverBelowZeroAndFixedColumnsMayOverflow() throws {
        // 100 − 150 − 8 = −58: the adaptive column gets 0 (one sub-column 0 wide). The grid
        // is 158 wide at (100 − 158)/2 = −29.
        let g = grid([GridItem(.fixed(150)), GridItem(.adaptive(minimum: 40, maximum: .infinity))])
        let layout = try g.layout([GridSection(items: .heights([10, 10]))], bounds: Size(width: 100, height: 600))
        #expect(frames(layout) == [Rect(x: -29, y: 0, width: 150, height: 10), Rect(x: 129, y: 0, width: 0, height: 10)])
        #expect(layout.contentSize == Size(width: 158, height: 10))
    }

    @Test func aTinyAdaptiveMinimumMakesManySubColumnsWithoutBuildingThemAll() throws {
        let g = grid([GridItem(.adaptive(minimum: 1e-300, maximum: .infinity), spacing: 0)])
        let layout = try g.layout([GridSection(items: .uniform(count: 3))], bounds: Size(width: 300, height: 600))
        #expect(frames(layout).map(\.minY) == [0, 0, 0])
        #expect(frames(layout).allSatisfy { $0.width.isFinite && $0.width > 0 })
    }

    // MARK: - Alignment

    @Test func itemsSitInTheirCellsByAlignment() throws {
        // Three fixed 100 columns at 316: x = 0, 108, 216; the row is 60 high.
        var g = grid([GridItem(.fixed(100), alignment: .topLeading), GridItem(.fixed(100), alignment: .bottomTrailing),
                      GridItem(.fixed(100)), GridItem(.fixed(100), alignment: .top)])
        g.alignment = .leading
        let items = sized([(40, 20), (30, 10), (50, 60), (20, 20), (140, 10)])
        let layout = try g.layout([GridSection(items: items)], bounds: Size(width: 424, height: 600))
        #expect(frames(layout) == [
            Rect(x: 0, y: 0, width: 40, height: 20),        // topLeading
            Rect(x: 178, y: 50, width: 30, height: 10),     // bottomTrailing: 108 + 100 − 30, 60 − 10
            Rect(x: 216, y: 0, width: 50, height: 60),      // the grid's leading, centred vertically
            Rect(x: 364, y: 0, width: 20, height: 20),      // top: centred horizontally, 324 + 40
            Rect(x: 0, y: 68, width: 140, height: 10),      // wider than its column: from its leading edge
        ])
        // Centred, a wide item overflows both sides.
        let centred = try grid([GridItem(.fixed(100))]).layout([GridSection(items: sized([(140, 10)]))],
                                                                bounds: Size(width: 100, height: 600))
        #expect(frames(centred) == [Rect(x: -20, y: 0, width: 140, height: 10)])
    }

    // MARK: - Sections, padding, pinned views

    /// Two flexible columns in 340 less 20 + 20 of padding: 146 each at x = 20 and 174.
    func sectioned() -> (GridLayout, [GridSection]) {
        var g = grid([GridItem(.flexible(minimum: 10, maximum: .infinity)), GridItem(.flexible(minimum: 10, maximum: .infinity))],
                     spacing: 10)
        g.padding = EdgeInsets(top: 16, left: 20, bottom: 16, right: 20)
        return (g, [GridSection(items: .heights([30, 50, 20]), header: 40, footer: 24), GridSection(items: .heights([10]))])
    }

    @Test func sectionsStackHeadersRowsAndFootersSpacingApart() throws {
        let (g, sections) = sectioned()
        let layout = try g.layout(sections, bounds: Size(width: 340, height: 100))
        // Header 16…56; rows at 66 (50 high) and 126 (20); footer at 156…180; section 1's row at 190.
        #expect(frames(layout, category: .supplementaryView) == [Rect(x: 20, y: 16, width: 300, height: 40),
                                                                 Rect(x: 20, y: 156, width: 300, height: 24)])
        #expect(frames(layout) == [Rect(x: 20, y: 76, width: 146, height: 30), Rect(x: 174, y: 66, width: 146, height: 50),
                                   Rect(x: 20, y: 126, width: 146, height: 20), Rect(x: 20, y: 190, width: 146, height: 10)])
        #expect(layout.contentSize == Size(width: 340, height: 216))
        #expect(layout.numberOfSections == 2)
        #expect(layout.elements.allSatisfy { $0.zIndex == 0 })
    }

    @Test func pinnedHeadersStickAtTheOffsetWithinTheirSection() throws {
        var (g, sections) = sectioned()
        g.pinsSectionHeaders = true
        func header(_ offset: Double) throws -> Rect {
            let layout = try g.layout(sections, bounds: Size(width: 340, height: 100), contentOffset: Point(x: 0, y: offset))
            #expect(layout.elements[0].zIndex == GridLayout.pinnedZIndex)
            return layout.elements[0].frame
        }
        // Never above its place (16); at the offset; at most the section's end (180) less 40.
        #expect(try header(0).minY == 16)
        #expect(try header(100).minY == 100)
        #expect(try header(160).minY == 140)
        #expect(try header(1000).minY == 140)
    }

    @Test func pinnedFootersStickToTheVisibleBottomWithinTheirSection() throws {
        var (g, sections) = sectioned()
        g.pinsSectionFooters = true
        func footer(_ offset: Double, height: Double = 100) throws -> Rect {
            let layout = try g.layout(sections, bounds: Size(width: 340, height: height), contentOffset: Point(x: 0, y: offset))
            let footer = layout.elements.first { $0.kind == .footer }!
            #expect(footer.zIndex == GridLayout.pinnedZIndex)
            return footer.frame
        }
        // 0 + 100 − 24 = 76; never below its place (156); never above its section's start (16).
        #expect(try footer(0).minY == 76)
        #expect(try footer(100).minY == 156)
        #expect(try footer(0, height: 30).minY == 16)
    }

    @Test func emptySectionsAndHeaderlessSectionsTakeNoSpacing() throws {
        let g = grid([GridItem(.fixed(50))])
        let layout = try g.layout([GridSection(items: .heights([])), GridSection(items: .heights([10])),
                                   GridSection(items: .heights([]), header: 5), GridSection(items: .heights([20]))],
                                  bounds: Size(width: 50, height: 100))
        // Row 0…10; the header at 18…23; the next row at 31.
        #expect(frames(layout) == [Rect(x: 0, y: 0, width: 50, height: 10), Rect(x: 0, y: 31, width: 50, height: 20)])
        #expect(frames(layout, category: .supplementaryView) == [Rect(x: 0, y: 18, width: 50, height: 5)])
        #expect(layout.contentSize.height == 51)
    }

    // MARK: - The horizontal grid

    /// `alignment` with its horizontal and vertical parts swapped.
    static func transposed(_ alignment: GridItemAlignment?) -> GridItemAlignment? {
        switch alignment {
        case nil: nil
        case .center: .center
        case .leading: .top
        case .trailing: .bottom
        case .top: .leading
        case .bottom: .trailing
        case .topLeading: .topLeading
        case .bottomTrailing: .bottomTrailing
        case .topTrailing: .bottomLeading
        case .bottomLeading: .topTrailing
        }
    }

    static func transposed(_ r: Rect) -> Rect { Rect(x: r.minY, y: r.minX, width: r.height, height: r.width) }

    @Test func theHorizontalGridIsTheVerticalOneTransposed() throws {
        var g = SplitMix64(seed: 34)
        func int(_ bound: Int) -> Int { Int(g.next() % UInt64(bound)) }
        for _ in 0..<200 {
            var vertical = GridLayout()
            vertical.items = (0..<(1 + int(4))).map { _ in
                let size: GridItemSize
                switch int(3) {
                case 0: size = .fixed(Double(int(120)))
                case 1:
                    let minimum = Double(int(150))
                    size = .flexible(minimum: minimum, maximum: int(2) == 0 ? .infinity : minimum + Double(int(100)))
                default:
                    let minimum = Double(1 + int(120))
                    size = .adaptive(minimum: minimum, maximum: int(2) == 0 ? .infinity : minimum + Double(int(60)))
                }
                let alignment = int(3) == 0 ? nil : GridItemAlignment.allCases[int(GridItemAlignment.allCases.count)]
                return GridItem(size, spacing: Double(int(12)), alignment: alignment)
            }
            vertical.spacing = Double(int(12))
            vertical.alignment = GridLineAlignment.allCases[int(3)]
            vertical.pinsSectionHeaders = int(2) == 0
            vertical.pinsSectionFooters = int(2) == 0
            vertical.padding = EdgeInsets(top: Double(int(20)), left: Double(int(20)), bottom: Double(int(20)), right: Double(int(20)))
            let sections = (0..<(1 + int(3))).map { _ in
                let items: SectionItems = switch int(3) {
                case 0: .uniform(count: int(20))
                case 1: .heights((0..<int(20)).map { _ in Double(int(150)) })
                default: .mixed((0..<int(20)).map { _ in
                    int(2) == 0 ? .height(Double(int(150))) : .size(Size(width: Double(1 + int(200)), height: Double(int(150))))
                })
                }
                return GridSection(items: items, header: Double(int(3) * 20), footer: Double(int(3) * 15))
            }
            let bounds = Size(width: Double(100 + int(400)), height: Double(200 + int(600)))
            let offset = Point(x: Double(int(50)), y: Double(int(900)) - 100)

            var horizontal = vertical
            horizontal.axis = .horizontal
            horizontal.items = vertical.items.map { GridItem($0.size, spacing: $0.spacing, alignment: Self.transposed($0.alignment)) }
            let p = vertical.padding
            horizontal.padding = EdgeInsets(top: p.left, left: p.top, bottom: p.right, right: p.bottom)
            let swappedSections = sections.map { section in
                var s = section
                if case .mixed(let measures) = section.items {
                    s.items = .mixed(measures.map {
                        if case .size(let size) = $0 { .size(Size(width: size.height, height: size.width)) } else { $0 }
                    })
                }
                return s
            }
            let v = try vertical.layout(sections, bounds: bounds, contentOffset: offset)
            let h = try horizontal.layout(swappedSections, bounds: Size(width: bounds.height, height: bounds.width),
                                          contentOffset: Point(x: offset.y, y: offset.x))
            #expect(h.scrollDirection == .horizontal)
            #expect(h.contentSize == Size(width: v.contentSize.height, height: v.contentSize.width))
            #expect(h.elements.map(\.frame) == v.elements.map { Self.transposed($0.frame) })
            #expect(h.elements.map(\.indexPath) == v.elements.map(\.indexPath))
            #expect(h.elements.map(\.zIndex) == v.elements.map(\.zIndex))
        }
    }

    // MARK: - Bad settings and size

    @Test func badSettingsThrowLayoutErrors() {
        var g = GridLayout()
        g.items = []
        #expect(throws: LayoutError.self) { try g.layout([GridSection(items: .uniform(count: 1))], bounds: Size(width: 100, height: 100)) }
        g.items = [GridItem(.adaptive(minimum: 0, maximum: .infinity))]
        #expect(throws: LayoutError.self) { try g.layout([GridSection(items: .uniform(count: 1))], bounds: Size(width: 100, height: 100)) }
        g.items = [GridItem(.flexible(minimum: 50, maximum: 10))]
        #expect(throws: LayoutError.self) { try g.layout([GridSection(items: .uniform(count: 1))], bounds: Size(width: 100, height: 100)) }
        g.items = [GridItem(.fixed(.nan))]
        #expect(throws: LayoutError.self) { try g.layout([GridSection(items: .uniform(count: 1))], bounds: Size(width: 100, height: 100)) }
        g.items = [GridItem(.fixed(10))]
        #expect(throws: LayoutError.self) { try g.layout([GridSection(items: .heights([.infinity]))], bounds: Size(width: 100, height: 100)) }
        #expect(throws: LayoutError.self) { try g.layout([GridSection(items: .heights([1]), header: -1)], bounds: Size(width: 100, height: 100)) }
    }

    @Test func aMillionItemsInOneSectionLayOutInOnePassEach() throws {
        // Linear: the flattened columns are as many as a row holds, not one per item.
        var g = GridLayout()
        g.items = [GridItem(.adaptive(minimum: 100, maximum: .infinity))]
        var sink = CountingSink()
        let layout = try g.layout([GridSection(items: .uniform(count: 1_000_000))], bounds: Size(width: 390, height: 844), into: &sink)
        #expect(sink.count == 1_000_000)
        // 3 sub-columns: ⌈10⁶/3⌉ rows of 100, 8 apart.
        #expect(layout.contentSize.height == 333_334 * 100 + 333_333 * 8)
    }
}
