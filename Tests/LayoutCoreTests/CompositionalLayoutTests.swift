import Testing
@testable import LayoutCore

/// CompositionalLayout: frames computed by hand from issue 17's rules, one feature at a time
/// (fit rule, count and repeating groups, trimming, insets, edge spacing, nesting, orthogonal
/// rows, boundary items and pinning, badges, backgrounds, rounding, horizontal scrolling),
/// and properties over random nested descriptions (finite numbers, rect queries equal brute
/// force, streaming equals collecting).
struct CompositionalLayoutTests {
    let phone = Size(width: 390, height: 844)

    // MARK: - Helpers

    static func size(_ w: CompositionalDimension, _ h: CompositionalDimension) -> CompositionalSize {
        CompositionalSize(width: w, height: h)
    }

    static func item(_ w: CompositionalDimension, _ h: CompositionalDimension, insets: EdgeInsets = .zero,
                     edgeSpacing: CompositionalEdgeSpacing = .none, badges: [CompositionalSupplementaryItem] = []) -> CompositionalSubitem {
        .item(CompositionalItem(size: size(w, h), contentInsets: insets, edgeSpacing: edgeSpacing, supplementaryItems: badges))
    }

    /// A list: rows of one full-width item `height` high.
    static func list(_ count: Int, height: Double = 44) -> CompositionalSection {
        CompositionalSection(count: count, group: CompositionalGroup(axis: .horizontal, size: size(.fractionalWidth(1), .absolute(height)),
                                                                     subitems: [item(.fractionalWidth(1), .fractionalHeight(1))]))
    }

    func run(_ sections: [CompositionalSection], bounds: Size? = nil, offset: Point = Point(x: 0, y: 0), scale: Double? = nil,
             configure: (inout CompositionalDescription) -> Void = { _ in }) throws -> CollectionLayout {
        var description = CompositionalDescription(sections: sections)
        configure(&description)
        return try CompositionalLayout(scale: scale).layout(description, bounds: bounds ?? phone, contentOffset: offset)
    }

    func cells(_ layout: CollectionLayout) -> [Rect] {
        layout.elements.filter { $0.category == .cell }.map(\.frame)
    }

    func expectClose(_ a: [Rect], _ b: [Rect], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.count == b.count, "\(a.count) frames, expected \(b.count)", sourceLocation: sourceLocation)
        for (x, y) in zip(a, b) {
            let close = abs(x.minX - y.minX) < 1e-9 && abs(x.minY - y.minY) < 1e-9
                && abs(x.width - y.width) < 1e-9 && abs(x.height - y.height) < 1e-9
            #expect(close, "\(x) ≠ \(y)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Groups

    @Test func aListByHand() throws {
        let layout = try run([Self.list(3)])
        #expect(cells(layout) == [Rect(x: 0, y: 0, width: 390, height: 44), Rect(x: 0, y: 44, width: 390, height: 44),
                                  Rect(x: 0, y: 88, width: 390, height: 44)])
        #expect(layout.contentSize == Size(width: 390, height: 132))
        #expect(layout.elements.map(\.indexPath) == (0..<3).map { IndexPath(item: $0, section: 0) })
    }

    @Test func theFitRuleResolvesFractionsInTheWholeLengthAndFitsWhatFits() throws {
        // 0.5 of 390 = 195: two would take 195 + 10 + 195 = 400 > 390, so one a row (issue 32,
        // IBP: why Apple's two-column sample uses `count:`).
        let halves = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(50)),
                                        subitems: [Self.item(.fractionalWidth(0.5), .fractionalHeight(1))], interItemSpacing: .fixed(10))
        expectClose(cells(try run([CompositionalSection(count: 3, group: halves)])),
                    [Rect(x: 0, y: 0, width: 195, height: 50), Rect(x: 0, y: 50, width: 195, height: 50),
                     Rect(x: 0, y: 100, width: 195, height: 50)])
        // 0.3 of 390 = 117: three take 351 + 20 = 371; four would take 468 + 30.
        var thirds = halves
        thirds.subitems = [Self.item(.fractionalWidth(0.3), .fractionalHeight(1))]
        expectClose(cells(try run([CompositionalSection(count: 3, group: thirds)])),
                    [Rect(x: 0, y: 0, width: 117, height: 50), Rect(x: 127, y: 0, width: 117, height: 50),
                     Rect(x: 254, y: 0, width: 117, height: 50)])
        // The subitems repeat cyclically: 100, 200 fit in 390 (with 10 + 10 spacing a third, 100, would need 420).
        var mixed = halves
        mixed.subitems = [Self.item(.absolute(100), .absolute(20)), Self.item(.absolute(200), .absolute(30))]
        let layout = try run([CompositionalSection(count: 3, group: mixed)])
        expectClose(cells(layout), [Rect(x: 0, y: 0, width: 100, height: 20), Rect(x: 110, y: 0, width: 100 * 2, height: 30),
                                    Rect(x: 0, y: 50, width: 100, height: 20)])
        // The last group holds one item: trimmed to its reach (20) plus what a whole group leaves
        // after its furthest item (50 − 30).
        #expect(layout.contentSize.height == 50 + 20 + 20)
        // Fractions of the axis used across it resolve in the whole length too: 0.1 of 390 = 39.
        var across = halves
        across.subitems = [Self.item(.absolute(100), .fractionalWidth(0.1))]
        expectClose(cells(try run([CompositionalSection(count: 3, group: across)])),
                    [Rect(x: 0, y: 0, width: 100, height: 39), Rect(x: 110, y: 0, width: 100, height: 39),
                     Rect(x: 220, y: 0, width: 100, height: 39)])
    }

    @Test func aTopLevelGroupsFractionalHeightResolvesInTheBoundsLessTheSectionsInsets() throws {
        // 0.5 of (844 − 20 − 24) = 400, in an ordinary section as in an orthogonal one.
        let group = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .fractionalHeight(0.5)),
                                       subitems: [Self.item(.fractionalWidth(1), .fractionalHeight(1))])
        let section = CompositionalSection(count: 2, group: group, contentInsets: EdgeInsets(top: 20, left: 0, bottom: 24, right: 0))
        #expect(cells(try run([section])) == [Rect(x: 0, y: 20, width: 390, height: 400), Rect(x: 0, y: 420, width: 390, height: 400)])
    }

    @Test func aTopLevelGroupsEdgeSpacingLiesAroundEachCopy() throws {
        // Fixed top 5 and bottom 7 around each group; flexible leading and trailing centre the 190-wide group.
        var group = CompositionalGroup(axis: .horizontal, size: Self.size(.absolute(190), .absolute(40)),
                                       subitems: [Self.item(.fractionalWidth(1), .fractionalHeight(1))])
        group.edgeSpacing = CompositionalEdgeSpacing(leading: .flexible(0), top: .fixed(5), trailing: .flexible(0), bottom: .fixed(7))
        let layout = try run([CompositionalSection(count: 2, group: group, interGroupSpacing: 10)])
        #expect(cells(layout) == [Rect(x: 100, y: 5, width: 190, height: 40), Rect(x: 100, y: 5 + 40 + 7 + 10 + 5, width: 190, height: 40)])
        #expect(layout.contentSize.height == 2 * (5 + 40 + 7) + 10)
    }

    @Test func countSlotsShareTheLengthAndTheOtherDimensionResolvesInTheGroup() throws {
        // (390 − 2·10)/3 = 123.33…; the height 0.5 of the group's inner height 100 less insets 10 + 10 = 40.
        let group = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(100)),
                                       subitems: [Self.item(.absolute(999), .fractionalHeight(0.5))], repetition: .count(3),
                                       interItemSpacing: .fixed(10), contentInsets: EdgeInsets(top: 10, left: 0, bottom: 10, right: 0))
        let w = 370.0 / 3
        expectClose(cells(try run([CompositionalSection(count: 3, group: group)])),
                    [Rect(x: 0, y: 10, width: w, height: 40), Rect(x: w + 10, y: 10, width: w, height: 40),
                     Rect(x: 2 * w + 20, y: 10, width: w, height: 40)])
    }

    @Test func repeatingCopiesKeepTheirSizeAndStickOut() throws {
        let group = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(60)),
                                       subitems: [Self.item(.absolute(150), .fractionalHeight(1))], repetition: .repeating(3))
        #expect(cells(try run([CompositionalSection(count: 4, group: group)])) == [
            Rect(x: 0, y: 0, width: 150, height: 60), Rect(x: 150, y: 0, width: 150, height: 60),
            Rect(x: 300, y: 0, width: 150, height: 60), Rect(x: 0, y: 60, width: 150, height: 60),
        ])
    }

    @Test func aGroupWhoseFirstItemIsTooLongLaysOutNothing() throws {
        let group = CompositionalGroup(axis: .horizontal, size: Self.size(.absolute(100), .absolute(50)),
                                       subitems: [Self.item(.absolute(120), .fractionalHeight(1))])
        let layout = try run([CompositionalSection(count: 5, group: group, contentInsets: EdgeInsets(all: 7))])
        #expect(layout.elements.isEmpty)
        #expect(layout.numberOfItems(inSection: 0) == 0)
        #expect(layout.contentSize.height == 14)  // the insets only
    }

    @Test func aPartialLastGroupIsTrimmedToItsReachPlusTheWholeGroupsTrailingRoom() throws {
        // Inner length 280: four items of 50 with 10 between reach 230; the whole group leaves 300 − 230 = 70.
        let group = CompositionalGroup(axis: .vertical, size: Self.size(.fractionalWidth(1), .absolute(300)),
                                       subitems: [Self.item(.fractionalWidth(1), .absolute(50))], interItemSpacing: .fixed(10),
                                       contentInsets: EdgeInsets(top: 0, left: 0, bottom: 20, right: 0))
        let layout = try run([CompositionalSection(count: 6, group: group, interGroupSpacing: 5)])
        #expect(cells(layout).map(\.minY) == [0, 60, 120, 180, 305, 365])
        #expect(layout.contentSize.height == 300 + 5 + 110 + 70)
    }

    @Test func flexibleSpacingSharesTheRoomLeftAndPartialGroupsKeepTheSlots() throws {
        // Three items of 100 fit in 390; 90 left over three flexible leading spacings: 30 each.
        let group = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(40)),
                                       subitems: [Self.item(.absolute(100), .fractionalHeight(1),
                                                            edgeSpacing: CompositionalEdgeSpacing(leading: .flexible(0)))])
        #expect(cells(try run([CompositionalSection(count: 5, group: group)])).map(\.minX) == [30, 160, 290, 30, 160])
        // Flexible inter-item spacing: (390 − 300)/2 = 45 between.
        let spread = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(40)),
                                        subitems: [Self.item(.absolute(100), .fractionalHeight(1))], interItemSpacing: .flexible(0))
        #expect(cells(try run([CompositionalSection(count: 3, group: spread)])).map(\.minX) == [0, 145, 290])
        // Flexible top and bottom centre an item across the group.
        let centred = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(40)),
                                         subitems: [Self.item(.absolute(390), .absolute(10),
                                                              edgeSpacing: CompositionalEdgeSpacing(top: .flexible(0), bottom: .flexible(0)))])
        #expect(cells(try run([CompositionalSection(count: 1, group: centred)])) == [Rect(x: 0, y: 15, width: 390, height: 10)])
    }

    @Test func itemInsetsShrinkTheFrameNotTheSlot() throws {
        // Insets 2 in 78-point slots (0.2 of 390); an estimated height ignores its top and bottom insets.
        let group = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(78)),
                                       subitems: [Self.item(.fractionalWidth(0.2), .fractionalHeight(1), insets: EdgeInsets(all: 2))])
        expectClose(cells(try run([CompositionalSection(count: 2, group: group)])),
                    [Rect(x: 2, y: 2, width: 74, height: 74), Rect(x: 80, y: 2, width: 74, height: 74)])
        let estimated = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(78)),
                                           subitems: [Self.item(.fractionalWidth(0.2), .estimated(50), insets: EdgeInsets(all: 2))])
        expectClose(cells(try run([CompositionalSection(count: 1, group: estimated)])), [Rect(x: 2, y: 0, width: 74, height: 50)])
        // A slot 20 wide with insets 15 + 15: the frame of the difference taken positive, 10 wide at 5.
        let tight = CompositionalGroup(axis: .horizontal, size: Self.size(.absolute(20), .absolute(20)),
                                       subitems: [Self.item(.absolute(20), .absolute(20), insets: EdgeInsets(top: 0, left: 15, bottom: 0, right: 15))])
        #expect(cells(try run([CompositionalSection(count: 1, group: tight)])) == [Rect(x: 5, y: 0, width: 10, height: 20)])
    }

    @Test func applesNestedGroupsByHand() throws {
        // Group 0.4·844 = 337.6 high; a 0.7·390 = 273 slot inset 10; a 0.3 (117) wide vertical pair
        // of count 2, each 168.8, inset 10.
        let inset = EdgeInsets(all: 10)
        let pair = CompositionalGroup(axis: .vertical, size: Self.size(.fractionalWidth(0.3), .fractionalHeight(1)),
                                      subitems: [Self.item(.fractionalWidth(1), .fractionalHeight(0.3), insets: inset)], repetition: .count(2))
        let nested = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .fractionalHeight(0.4)),
                                        subitems: [Self.item(.fractionalWidth(0.7), .fractionalHeight(1), insets: inset), .group(pair)])
        let layout = try run([CompositionalSection(count: 4, group: nested)])
        expectClose(cells(layout), [Rect(x: 10, y: 10, width: 253, height: 317.6), Rect(x: 283, y: 10, width: 97, height: 148.8),
                                    Rect(x: 283, y: 178.8, width: 97, height: 148.8), Rect(x: 10, y: 347.6, width: 253, height: 317.6)])
        #expect(abs(layout.contentSize.height - 2 * 337.6) < 1e-9)
    }

    // MARK: - Sections

    @Test func sectionsStackWithSpacingEmptyOnesIncluded() throws {
        let layout = try run([Self.list(1), Self.list(0), Self.list(1)]) { $0.interSectionSpacing = 20 }
        #expect(cells(layout) == [Rect(x: 0, y: 0, width: 390, height: 44), Rect(x: 0, y: 84, width: 390, height: 44)])
        #expect(layout.contentSize.height == 128)
        #expect(layout.numberOfItems(inSection: 1) == 0)
    }

    @Test func orthogonalRowsAtTheirOffsetClampedToTheRow() throws {
        let card = CompositionalGroup(axis: .horizontal, size: Self.size(.absolute(140), .absolute(180)),
                                      subitems: [Self.item(.fractionalWidth(1), .fractionalHeight(1))])
        func row(_ behaviour: CompositionalOrthogonalScrolling, offset: Double) throws -> [Rect] {
            cells(try run([CompositionalSection(count: 12, group: card, interGroupSpacing: 10, contentInsets: EdgeInsets(all: 10),
                                                orthogonalScrollingBehavior: behaviour, orthogonalOffset: offset)]))
        }
        // Row: 10 + 11·150 + 140 + 10 = 1810; offsets clamp to 0…1420.
        #expect(try row(.continuous, offset: 0).map(\.minX) == (0..<12).map { 10 + Double($0) * 150 })
        #expect(try row(.continuous, offset: 100).first?.minX == -90)
        #expect(try row(.paging, offset: 5000).last == Rect(x: 240, y: 10, width: 140, height: 180))
        #expect(try row(.continuous, offset: -50).first?.minX == 10)
        // Centred paging: (390 − 140)/2 = 125 of room inside the leading inset.
        #expect(try row(.groupPagingCentered, offset: 0).first?.minX == 135)
        let layout = try run([CompositionalSection(count: 12, group: card, contentInsets: EdgeInsets(all: 10),
                                                   orthogonalScrollingBehavior: .continuous)])
        #expect(layout.contentSize == Size(width: 390, height: 200))
    }

    // MARK: - Boundary items, badges, backgrounds

    static let header = CompositionalBoundaryItem(kind: .header, size: size(.fractionalWidth(1), .absolute(50)), alignment: .top)
    static let footer = CompositionalBoundaryItem(kind: .footer, size: size(.fractionalWidth(1), .absolute(30)), alignment: .bottom)

    @Test func headersAndFootersExtendTheSectionInsideItsInsets() throws {
        var section = Self.list(2)
        section.contentInsets = EdgeInsets(top: 10, left: 20, bottom: 10, right: 20)
        section.boundarySupplementaryItems = [Self.header, Self.footer]
        let layout = try run([section])
        #expect(layout.elements.map(\.frame) == [Rect(x: 20, y: 0, width: 350, height: 50), Rect(x: 20, y: 158, width: 350, height: 30),
                                                 Rect(x: 20, y: 60, width: 350, height: 44), Rect(x: 20, y: 104, width: 350, height: 44)])
        #expect(layout.elements.map(\.kind) == [.header, .footer, nil, nil])
        #expect(layout.elements.map(\.zIndex) == [1, 1, 0, 0])
        #expect(layout.contentSize.height == 188)
        // Not following the insets: the full width. Not extending: over the content, which starts at 0.
        section.supplementariesFollowContentInsets = false
        section.boundarySupplementaryItems[0].extendsBoundary = false
        section.boundarySupplementaryItems[0].alignment = .topTrailing
        section.boundarySupplementaryItems[0].size = Self.size(.absolute(100), .absolute(50))
        let over = try run([section])
        #expect(over.elements[0].frame == Rect(x: 290, y: 0, width: 100, height: 50))
        #expect(cells(over).first?.minY == 10)
        #expect(over.contentSize.height == 138)
    }

    /// Issue 28: a boundary item sized `fractionalWidth(1)` in a section whose insets leave
    /// -20 points is standardised as items and backgrounds are (the 20 points between the
    /// inset edges, 180…200), and a rect query meets it where its frame lies.
    @Test func boundaryItemsNarrowerThanTheirInsetsAreStandardised() throws {
        var section = Self.list(1)
        section.contentInsets = EdgeInsets(top: 0, left: 200, bottom: 0, right: 210)
        section.boundarySupplementaryItems = [Self.header, Self.footer]
        section.boundarySupplementaryItems[0].alignment = .topLeading
        section.decorationItems = [CompositionalDecorationItem(contentInsets: EdgeInsets(top: 0, left: 200, bottom: 0, right: 210))]
        var layout = try run([section])
        #expect(layout.elements.map(\.frame) == [Rect(x: 180, y: 0, width: 20, height: 50), Rect(x: 180, y: 94, width: 20, height: 30),
                                                 Rect(x: 180, y: 50, width: 20, height: 44), Rect(x: 180, y: 0, width: 20, height: 124)])
        #expect(layout.elements.allSatisfy { $0.frame.width >= 0 && $0.frame.height >= 0 })
        #expect(layout.elementIndices(in: Rect(x: 185, y: 0, width: 1, height: 10)) == [0, 3])
        layout.prepareRectIndex()
        #expect(layout.elementIndices(in: Rect(x: 185, y: 0, width: 1, height: 10)) == [0, 3])
        // Scrolling horizontally: the same, transposed.
        section.contentInsets = EdgeInsets(top: 200, left: 0, bottom: 210, right: 0)
        section.boundarySupplementaryItems[0].size = Self.size(.absolute(50), .fractionalHeight(1))
        let across = try run([section], bounds: Size(width: 844, height: 390)) { $0.scrollDirection = .horizontal }
        #expect(across.elements[0].frame == Rect(x: 0, y: 180, width: 50, height: 20))
        #expect(across.elements.allSatisfy { $0.frame.width >= 0 && $0.frame.height >= 0 })
    }

    @Test func rectQueriesTakeANegativeFrameStandardised() {
        let frame = Rect(x: 200, y: 10, width: -20, height: -5)
        #expect(frame.standardized == Rect(x: 180, y: 5, width: 20, height: 5))
        #expect(frame.intersects(Rect(x: 185, y: 6, width: 1, height: 1)))
        #expect(!frame.intersects(Rect(x: 201, y: 6, width: 1, height: 1)))
        #expect(!frame.intersects(Rect(x: 185, y: 10, width: 1, height: 1)))  // touching the bottom edge
        var layout = CollectionLayout(engine: "test", bounds: Size(width: 390, height: 844), contentSize: Size(width: 390, height: 844),
                                      elements: [LayoutAttributes(indexPath: IndexPath(item: 0, section: 0), category: .cell, kind: nil,
                                                                  frame: frame)],
                                      cellRanges: [(start: 0, count: 1)])
        #expect(layout.elementIndices(in: Rect(x: 185, y: 6, width: 1, height: 1)) == [0])
        layout.prepareRectIndex()
        #expect(layout.elementIndices(in: Rect(x: 185, y: 6, width: 1, height: 1)) == [0])
        #expect(layout.elementIndices(in: Rect(x: 170, y: 6, width: 5, height: 1)).isEmpty)
    }

    @Test func pinnedHeadersClampToTheVisibleBoundsAndStopAtTheFooter() throws {
        var section = Self.list(2)
        section.contentInsets = EdgeInsets(top: 10, left: 20, bottom: 10, right: 20)
        section.boundarySupplementaryItems = [Self.header, Self.footer]
        section.boundarySupplementaryItems[0].pinsToVisibleBounds = true
        section.boundarySupplementaryItems[0].zIndex = 2
        func header(_ y: Double) throws -> LayoutAttributes { try run([section, section], offset: Point(x: 0, y: y)).elements[0] }
        #expect(try header(0).frame.minY == 0)
        #expect(try header(0).zIndex == 2)
        #expect(try header(100).frame.minY == 100)
        #expect(try header(100).zIndex == 1_000_000_002)
        #expect(try header(130).frame.minY == 108)  // the footer starts at 158
        #expect(try header(-40).frame.minY == 0)
        // Section 1 (188…376, its footer from 346) pins at 250, and stops at 346 − 50 = 296.
        let second = try run([section, section], offset: Point(x: 0, y: 250)).elements.first { $0.indexPath.section == 1 }
        #expect(second?.frame.minY == 250)
        let stopped = try run([section, section], offset: Point(x: 0, y: 300)).elements.first { $0.indexPath.section == 1 }
        #expect(stopped?.frame.minY == 296)
    }

    @Test func badgesAnchorToTheirItemsAndCountPerKindPerSection() throws {
        // Container anchor top trailing, fractional offset (0.3, −0.3) of a 20-point badge:
        // the point (maxX + 6, minY − 6); the badge's own top trailing corner goes there.
        let badge = CompositionalSupplementaryItem(size: Self.size(.absolute(20), .absolute(20)),
                                                   containerAnchor: CompositionalAnchor(edges: [.top, .trailing], offset: Point(x: 0.3, y: -0.3),
                                                                                        isFractional: true))
        let group = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(100)),
                                       subitems: [Self.item(.absolute(100), .fractionalHeight(1), badges: [badge])])
        let layout = try run([CompositionalSection(count: 2, group: group)])
        #expect(layout.elements.map(\.category) == [.cell, .cell, .supplementaryView, .supplementaryView])
        #expect(layout.elements[2].frame == Rect(x: 86, y: -6, width: 20, height: 20))
        #expect(layout.elements[3].frame == Rect(x: 186, y: -6, width: 20, height: 20))
        #expect(layout.elements[2...].map(\.indexPath) == [IndexPath(item: 0, section: 0), IndexPath(item: 1, section: 0)])
        #expect(layout.elements[2...].allSatisfy { $0.kind == .badge && $0.zIndex == 1 })
        // Centre anchors, an item anchor at the badge's leading edge moved by absolute points.
        var centred = badge
        centred.containerAnchor = CompositionalAnchor(edges: [], offset: Point(x: 5, y: 0))
        centred.itemAnchor = CompositionalAnchor(edges: [.leading], offset: Point(x: 0, y: 2))
        var g2 = group
        g2.subitems = [Self.item(.absolute(100), .fractionalHeight(1), badges: [centred])]
        // Container point (55, 50); the badge's point (0 + 0, 10 + 2) goes there.
        #expect(try run([CompositionalSection(count: 1, group: g2)]).elements[1].frame == Rect(x: 55, y: 38, width: 20, height: 20))
    }

    @Test func backgroundsCoverTheSectionLessTheirInsetsBehindTheCells() throws {
        var section = Self.list(2)
        section.contentInsets = EdgeInsets(all: 10)
        section.boundarySupplementaryItems = [Self.header]
        section.decorationItems = [CompositionalDecorationItem(contentInsets: EdgeInsets(all: 5))]
        let layout = try run([Self.list(1), section]) { $0.interSectionSpacing = 10 }
        let background = try #require(layout.elements.last)
        #expect(background.category == .decorationView && background.kind == .background)
        #expect(background.indexPath == IndexPath(item: 0, section: 1))
        // Section 1 runs from 54 to 54 + 50 + 10 + 88 + 10 = 212.
        #expect(background.frame == Rect(x: 5, y: 59, width: 380, height: 148))
        #expect(background.zIndex == 0)
        #expect(layout.elements.filter { $0.category == .cell }.map(\.zIndex) == [0, 1, 1])
        #expect(layout.elements.map(\.kind) == [nil, .header, nil, nil, .background])
    }

    @Test func theLayoutsOwnBoundaryItemsComeFirstAndFrameTheSections() throws {
        let layout = try run([Self.list(1), Self.list(1)]) {
            $0.boundarySupplementaryItems = [Self.footer, Self.header]
            $0.interSectionSpacing = 10
        }
        #expect(layout.elements.map(\.kind) == [.footer, .header, nil, nil])
        #expect(layout.elements.map(\.indexPath) == [IndexPath(item: 0, section: 0), IndexPath(item: 0, section: 0),
                                                     IndexPath(item: 0, section: 0), IndexPath(item: 0, section: 1)])
        #expect(layout.elements.map(\.frame.minY) == [148, 0, 50, 104])
        #expect(layout.contentSize.height == 178)
    }

    // MARK: - Rounding and direction

    @Test func anOrthogonalRowsTopLevelEdgeSpacingLiesAroundEachGroupAlongTheRow() throws {
        // Leading 5 and trailing 7 around each 100-wide group, 10 apart; top 3 moves the row down
        // and makes the section 3 + 50 + 2 tall.
        var group = CompositionalGroup(axis: .horizontal, size: Self.size(.absolute(100), .absolute(50)),
                                       subitems: [Self.item(.fractionalWidth(1), .fractionalHeight(1))])
        group.edgeSpacing = CompositionalEdgeSpacing(leading: .fixed(5), top: .fixed(3), trailing: .fixed(7), bottom: .fixed(2))
        let layout = try run([CompositionalSection(count: 3, group: group, interGroupSpacing: 10, orthogonalScrollingBehavior: .continuous)])
        #expect(cells(layout) == [Rect(x: 5, y: 3, width: 100, height: 50), Rect(x: 127, y: 3, width: 100, height: 50),
                                  Rect(x: 249, y: 3, width: 100, height: 50)])
        #expect(layout.contentSize.height == 55)
    }

    @Test func withAScaleTheExactFramesOriginAndSizeRoundToPixelsEachOnItsOwn() throws {
        // 0.35 of 390 = 136.5: kept at scale 2, 137 at scale 1 (halves away from zero).
        let group = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(44.3)),
                                       subitems: [Self.item(.fractionalWidth(0.35), .fractionalHeight(1))])
        let two = try run([CompositionalSection(count: 3, group: group)], scale: 2)
        #expect(cells(two).map(\.width) == [136.5, 136.5, 136.5])
        #expect(cells(two).map(\.minX) == [0, 136.5, 0])
        #expect(cells(two).map(\.minY) == [0, 0, 44.5])  // 44.3 rounds to 44.5
        #expect(cells(two).map(\.height) == [44.5, 44.5, 44.5])
        let one = try run([CompositionalSection(count: 3, group: group)], scale: 1)
        #expect(cells(one).map(\.width) == [137, 137, 137])
        #expect(cells(one).map(\.minX) == [0, 137, 0])
        #expect(cells(one).map(\.minY) == [0, 0, 44])
        #expect(one.contentSize.height == 88.6)  // not rounded
        // Count slots: 100/3 = 33.33… wide at x = 33.33…, 66.67: 33.5 wide at 0, 33.5, 66.5 on scale 2.
        let count = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(10)),
                                       subitems: [Self.item(.absolute(1), .fractionalHeight(1))], repetition: .count(3))
        let slots = try run([CompositionalSection(count: 3, group: count)], bounds: Size(width: 100, height: 100), scale: 2)
        #expect(cells(slots).map(\.minX) == [0, 33.5, 66.5])
        #expect(cells(slots).map(\.width) == [33.5, 33.5, 33.5])
        // Ties round away from zero: an origin at 0.25 on scale 2 goes to 0.5.
        let quarter = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(10)),
                                         subitems: [Self.item(.absolute(10), .absolute(10), edgeSpacing: CompositionalEdgeSpacing(leading: .fixed(0.25)))])
        #expect(cells(try run([CompositionalSection(count: 1, group: quarter)], scale: 2)).first?.minX == 0.5)
    }

    @Test func theDeviceMeasuredRowAt2x() throws {
        // Measured on a 375-point @2x device (issue 32): widths 84, 37.5, 84.5, 84, 84.5 and a
        // one-pixel gap before the last cell (206 + 84 = 290 < 290.5).
        let fractions = [0.2244798, 0.0999485, 0.2255459, 0.2244798, 0.2255459]
        let row = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(50)),
                                     subitems: fractions.map { Self.item(.fractionalWidth($0), .fractionalHeight(1)) })
        let layout = try run([CompositionalSection(count: 5, group: row)], bounds: Size(width: 375, height: 667), scale: 2)
        #expect(cells(layout).map(\.width) == [84, 37.5, 84.5, 84, 84.5])
        #expect(cells(layout).map(\.minX) == [0, 84, 121.5, 206, 290.5])
    }

    @Test func horizontalScrollingIsTheTransposedLayout() throws {
        // The list transposed: vertical groups 44 wide, full height.
        let column = CompositionalGroup(axis: .vertical, size: Self.size(.absolute(44), .fractionalHeight(1)),
                                        subitems: [Self.item(.fractionalWidth(1), .fractionalHeight(1))])
        var section = CompositionalSection(count: 2, group: column, contentInsets: EdgeInsets(top: 5, left: 10, bottom: 5, right: 0))
        section.boundarySupplementaryItems = [CompositionalBoundaryItem(kind: .header, size: Self.size(.absolute(30), .fractionalHeight(1)),
                                                                        alignment: .leading)]
        let layout = try run([section]) { $0.scrollDirection = .horizontal }
        #expect(layout.scrollDirection == .horizontal)
        #expect(layout.elements.map(\.frame) == [Rect(x: 0, y: 5, width: 30, height: 834), Rect(x: 40, y: 5, width: 44, height: 834),
                                                 Rect(x: 84, y: 5, width: 44, height: 834)])
        #expect(layout.contentSize == Size(width: 128, height: 844))
    }

    @Test func groupsNestAtMost32Deep() throws {
        var group = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(10)),
                                       subitems: [Self.item(.fractionalWidth(1), .fractionalHeight(1))])
        for _ in 1..<32 {
            group = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .fractionalHeight(1)), subitems: [.group(group)])
        }
        #expect(group.depth == 32)
        #expect(try cells(run([CompositionalSection(count: 1, group: group)])) == [Rect(x: 0, y: 0, width: 390, height: 10)])
        let deeper = CompositionalGroup(axis: .vertical, size: Self.size(.fractionalWidth(1), .absolute(10)), subitems: [.group(group)])
        #expect(throws: LayoutError.self) { try run([CompositionalSection(count: 1, group: deeper)]) }
    }

    // MARK: - Properties over random descriptions

    static func dimension(_ g: inout SplitMix64, along: Bool) -> CompositionalDimension {
        switch EngineProperties.int(&g, 5) {
        case 0: return .fractionalWidth(Double(1 + EngineProperties.int(&g, 10)) / 10)
        case 1: return .fractionalHeight(Double(1 + EngineProperties.int(&g, 10)) / 10)
        case 2: return .estimated(Double(5 + EngineProperties.int(&g, 100)))
        default: return .absolute(Double(5 + EngineProperties.int(&g, 2000)) / 10)
        }
    }

    static func spacing(_ g: inout SplitMix64) -> CompositionalSpacing? {
        switch EngineProperties.int(&g, 4) {
        case 0: return nil
        case 1: return .flexible(Double(EngineProperties.int(&g, 10)))
        default: return .fixed(Double(EngineProperties.int(&g, 10)))
        }
    }

    static func randomGroup(_ g: inout SplitMix64, depth: Int) -> CompositionalGroup {
        let m = 1 + EngineProperties.int(&g, 3)
        let subitems: [CompositionalSubitem] = (0..<m).map { _ in
            if depth < 4 && EngineProperties.int(&g, 3) == 0 { return .group(randomGroup(&g, depth: depth + 1)) }
            var badges: [CompositionalSupplementaryItem] = []
            if EngineProperties.int(&g, 4) == 0 {
                badges = [CompositionalSupplementaryItem(size: size(.absolute(12), .fractionalHeight(0.2)),
                                                         containerAnchor: CompositionalAnchor(edges: [.top, .leading], offset: Point(x: -0.5, y: -0.5), isFractional: true))]
            }
            return .item(CompositionalItem(size: size(dimension(&g, along: true), dimension(&g, along: false)),
                                           contentInsets: EdgeInsets(all: Double(EngineProperties.int(&g, 4))),
                                           edgeSpacing: CompositionalEdgeSpacing(leading: spacing(&g), top: spacing(&g)),
                                           supplementaryItems: badges))
        }
        let repetition: CompositionalRepetition
        switch EngineProperties.int(&g, 3) {
        case 0: repetition = .count(1 + EngineProperties.int(&g, 4))
        case 1: repetition = .repeating(1 + EngineProperties.int(&g, 3))
        default: repetition = .fit
        }
        var group = CompositionalGroup(axis: EngineProperties.int(&g, 2) == 0 ? .horizontal : .vertical,
                                       size: size(dimension(&g, along: true), dimension(&g, along: false)),
                                       subitems: repetition == .fit ? subitems : [subitems[0]], repetition: repetition,
                                       interItemSpacing: spacing(&g) ?? .fixed(0),
                                       contentInsets: EdgeInsets(all: Double(EngineProperties.int(&g, 3))))
        if EngineProperties.int(&g, 4) == 0 {
            group.supplementaryItems = [CompositionalSupplementaryItem(kind: ElementKind("group-\(depth)", role: .badge)!,
                                                                       size: size(.fractionalWidth(0.5), .absolute(4)),
                                                                       containerAnchor: CompositionalAnchor(edges: [.bottom]))]
        }
        return group
    }

    static func randomDescription(_ g: inout SplitMix64) -> CompositionalDescription {
        let sections = (0..<(1 + EngineProperties.int(&g, 3))).map { _ in
            var section = CompositionalSection(count: EngineProperties.int(&g, 40), group: randomGroup(&g, depth: 1),
                                               interGroupSpacing: Double(EngineProperties.int(&g, 12)),
                                               contentInsets: EdgeInsets(all: Double(EngineProperties.int(&g, 20))))
            if EngineProperties.int(&g, 3) == 0 {
                section.orthogonalScrollingBehavior = .allCases[EngineProperties.int(&g, 6)]
                section.orthogonalOffset = Double(EngineProperties.int(&g, 500))
            }
            if EngineProperties.int(&g, 2) == 0 {
                var header = CompositionalBoundaryItem(kind: .header, size: size(.fractionalWidth(1), .absolute(40)), alignment: .top)
                header.pinsToVisibleBounds = EngineProperties.int(&g, 2) == 0
                section.boundarySupplementaryItems = [header, CompositionalBoundaryItem(kind: .footer, size: size(.fractionalWidth(0.5), .estimated(20)),
                                                                                        alignment: .bottomTrailing)]
            }
            if EngineProperties.int(&g, 3) == 0 { section.decorationItems = [CompositionalDecorationItem(contentInsets: EdgeInsets(all: 4))] }
            return section
        }
        return CompositionalDescription(scrollDirection: EngineProperties.int(&g, 4) == 0 ? .horizontal : .vertical,
                                        interSectionSpacing: Double(EngineProperties.int(&g, 20)), sections: sections)
    }

    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func randomNestedDescriptionsAreFiniteQueryableAndStreamAsCollected(seed: UInt64) throws {
        var g = SplitMix64(seed: seed)
        let description = Self.randomDescription(&g)
        let bounds = EngineProperties.bounds(&g)
        let offset = Point(x: Double(EngineProperties.int(&g, 400)), y: Double(EngineProperties.int(&g, 800)))
        let scale: Double? = EngineProperties.int(&g, 2) == 0 ? nil : Double(1 + EngineProperties.int(&g, 3))
        let engine = CompositionalLayout(scale: scale)
        let layout = try engine.layout(description, bounds: bounds, contentOffset: offset)
        try EngineProperties.checkFiniteAndQueries(layout, &g)
        // Every cell of every section is there, unless its group holds none.
        for (s, section) in description.sections.enumerated() {
            let n = layout.numberOfItems(inSection: s)
            #expect(n == section.count || n == 0, "section \(s): \(n) of \(section.count)")
            for i in 0..<n { #expect(layout.layoutAttributesForItem(at: IndexPath(item: i, section: s))?.indexPath == IndexPath(item: i, section: s)) }
        }
        // Streaming in small blocks gives the collected elements and summary.
        var streamed: [LayoutAttributes] = []
        var blocks = ElementBlocks(blockSize: 7) { streamed.append(contentsOf: $0) }
        let summary = try engine.layout(description, bounds: bounds, contentOffset: offset, into: &blocks)
        blocks.finish()
        #expect(streamed == layout.elements)
        #expect(summary.contentSize == layout.contentSize)
        // The plans count exactly what is sent (badges and group supplementaries included).
        var counter = PreparedCount()
        _ = try engine.layout(description, bounds: bounds, contentOffset: offset, into: &counter)
        #expect(counter.prepared == counter.count && counter.count == layout.elements.count)
        // With a scale every origin is on the pixel grid.
        if let scale {
            for e in layout.elements {
                let x = e.frame.minX * scale, y = e.frame.minY * scale
                #expect(abs(x - x.rounded()) < 1e-6 && abs(y - y.rounded()) < 1e-6, "\(e.indexPath) \(e.frame)")
            }
        }
    }

    // MARK: - Against a plain re-statement of the rules

    /// The rules of issues 17 and 32 for cells, stated plainly and exactly (rounding is applied
    /// to the result): every slot of every group materialised in order, positions accumulated
    /// one by one, the fit rule tried count by count.
    struct Reference {
        func resolve(_ d: CompositionalDimension, _ w: Double, _ h: Double) -> Double {
            switch d {
            case .fractionalWidth(let f): return f * w
            case .fractionalHeight(let f): return f * h
            case .absolute(let v), .estimated(let v): return v
            }
        }

        /// The group's items' frames and slot ends, at `origin`.
        func leaves(_ g: CompositionalGroup, size: Size, origin: Point) -> [(frame: Rect, slotEnd: Point)] {
            let ins = g.contentInsets
            let w = size.width - ins.left - ins.right, h = size.height - ins.top - ins.bottom
            let horizontal = g.axis == .horizontal
            let length = horizontal ? w : h, cross = horizontal ? h : w
            let spacing = g.interItemSpacing.minimum
            func sizeOf(_ sub: CompositionalSubitem, _ along: Double) -> Size {
                horizontal ? Size(width: resolve(sub.size.width, along, cross), height: resolve(sub.size.height, along, cross))
                    : Size(width: resolve(sub.size.width, cross, along), height: resolve(sub.size.height, cross, along))
            }
            func lead(_ e: CompositionalEdgeSpacing) -> CompositionalSpacing? { horizontal ? e.leading : e.top }
            func trail(_ e: CompositionalEdgeSpacing) -> CompositionalSpacing? { horizontal ? e.trailing : e.bottom }
            // Which subitem and size each slot holds.
            var slots: [(sub: CompositionalSubitem, size: Size)] = []
            switch g.repetition {
            case .count(let n):
                var s = sizeOf(g.subitems[0], length)
                let slot = (length - Double(n - 1) * spacing) / Double(n)
                if horizontal { s.width = slot } else { s.height = slot }
                slots = Array(repeating: (g.subitems[0], s), count: n)
            case .repeating(let n):
                slots = Array(repeating: (g.subitems[0], sizeOf(g.subitems[0], length)), count: n)
            case .fit:
                var n = 1
                while n <= 4096 {
                    let trial = (0..<n).map { i in (g.subitems[i % g.subitems.count], sizeOf(g.subitems[i % g.subitems.count], length)) }
                    var used = Double(n - 1) * spacing
                    for (sub, s) in trial {
                        used += (horizontal ? s.width : s.height) + (lead(sub.edgeSpacing)?.minimum ?? 0) + (trail(sub.edgeSpacing)?.minimum ?? 0)
                    }
                    if used > length + 1e-9 { break }
                    slots = trial
                    n += 1
                }
            }
            var used = Double(max(0, slots.count - 1)) * spacing
            var flexible = g.interItemSpacing.isFlexible ? max(0, slots.count - 1) : 0
            for (sub, s) in slots {
                used += (horizontal ? s.width : s.height) + (lead(sub.edgeSpacing)?.minimum ?? 0) + (trail(sub.edgeSpacing)?.minimum ?? 0)
                flexible += (lead(sub.edgeSpacing)?.isFlexible == true ? 1 : 0) + (trail(sub.edgeSpacing)?.isFlexible == true ? 1 : 0)
            }
            let share = flexible > 0 && length > used ? (length - used) / Double(flexible) : 0
            var result: [(frame: Rect, slotEnd: Point)] = []
            var position = 0.0
            for (i, (sub, s)) in slots.enumerated() {
                let e = sub.edgeSpacing
                if let l = lead(e) { position += l.minimum + (l.isFlexible ? share : 0) }
                let crossLead = horizontal ? e.top : e.leading, crossTrail = horizontal ? e.bottom : e.trailing
                let room = cross - (horizontal ? s.height : s.width) - (crossLead?.minimum ?? 0) - (crossTrail?.minimum ?? 0)
                let k = (crossLead?.isFlexible == true ? 1 : 0) + (crossTrail?.isFlexible == true ? 1 : 0)
                let across = (crossLead?.minimum ?? 0) + (crossLead?.isFlexible == true && room > 0 ? room / Double(k) : 0)
                let o = horizontal ? Point(x: origin.x + ins.left + position, y: origin.y + ins.top + across)
                    : Point(x: origin.x + ins.left + across, y: origin.y + ins.top + position)
                switch sub {
                case .group(let inner): result += leaves(inner, size: s, origin: o)
                case .item(let item):
                    let ci = item.contentInsets
                    let l = item.size.width.isEstimated ? 0 : ci.left, r = item.size.width.isEstimated ? 0 : ci.right
                    let t = item.size.height.isEstimated ? 0 : ci.top, b = item.size.height.isEstimated ? 0 : ci.bottom
                    let x0 = o.x + l, x1 = o.x + s.width - r, y0 = o.y + t, y1 = o.y + s.height - b
                    result.append((Rect(minX: min(x0, x1), minY: min(y0, y1), maxX: max(x0, x1), maxY: max(y0, y1)),
                                   Point(x: o.x + s.width, y: o.y + s.height)))
                }
                position += (horizontal ? s.width : s.height)
                if let t = trail(e) { position += t.minimum + (t.isFlexible ? share : 0) }
                if i < slots.count - 1 { position += spacing + (g.interItemSpacing.isFlexible ? share : 0) }
            }
            return result
        }

        /// Cells of vertically scrolling sections (orthogonal ones included), and the content height.
        func cells(_ description: CompositionalDescription, bounds: Size) -> (cells: [Rect], height: Double) {
            var cells: [Rect] = []
            var y = 0.0
            for (s, section) in description.sections.enumerated() {
                if s > 0 { y += description.interSectionSpacing }
                let ins = section.contentInsets
                let orthogonal = section.orthogonalScrollingBehavior != .none
                // Boundary items that extend the section, sized in its width (less its insets).
                let boundaryWidth = section.supplementariesFollowContentInsets ? bounds.width - ins.left - ins.right : bounds.width
                var top = 0.0, bottom = 0.0
                for item in section.boundarySupplementaryItems where item.extendsBoundary {
                    let h = resolve(item.size.height, boundaryWidth, bounds.height)
                    if item.alignment.edges.contains(.top) { top = max(top, h) }
                    if item.alignment.edges.contains(.bottom) { bottom = max(bottom, h) }
                }
                guard section.count > 0 || !section.boundarySupplementaryItems.isEmpty else { continue }
                y += top + ins.top
                let (cw, ch) = orthogonal ? (bounds.width, bounds.height - ins.top - ins.bottom)
                    : (bounds.width - ins.left - ins.right, bounds.height - ins.top - ins.bottom)
                let size = Size(width: resolve(section.group.size.width, cw, ch), height: resolve(section.group.size.height, cw, ch))
                let whole = section.count > 0 ? leaves(section.group, size: size, origin: Point(x: 0, y: 0)) : []
                if !whole.isEmpty {
                    let reachX = whole.map(\.slotEnd.x).max()!, reachY = whole.map(\.slotEnd.y).max()!
                    var groups: [ArraySlice<(frame: Rect, slotEnd: Point)>] = []
                    var placed = 0
                    while placed < section.count {
                        groups.append(whole.prefix(section.count - placed))
                        placed += groups.last!.count
                    }
                    let last = groups.last!
                    // Trimmed: the last items' reach (at least 0) plus what a whole group leaves
                    // after its furthest item, never below 0.
                    let trimmed = last.count == whole.count ? nil
                        : (x: max(0, max(0, last.map(\.slotEnd.x).max()!) + size.width - reachX),
                           y: max(0, max(0, last.map(\.slotEnd.y).max()!) + size.height - reachY))
                    if orthogonal {
                        let room = section.orthogonalScrollingBehavior == .groupPagingCentered ? (bounds.width - size.width) / 2 : 0
                        var row = ins.left + room
                        for g in groups.indices { row += g < groups.count - 1 ? size.width + section.interGroupSpacing : trimmed?.x ?? size.width }
                        row += room + ins.right
                        let offset = min(max(section.orthogonalOffset, 0), max(0, row - bounds.width))
                        var x = ins.left + room - offset
                        for group in groups {
                            for leaf in group { cells.append(leaf.frame.offsetBy(x: x, y: y)) }
                            x += size.width + section.interGroupSpacing
                        }
                        y += size.height
                    } else {
                        // The top-level group's edge spacing around each copy.
                        let e = section.group.edgeSpacing
                        let room = cw - size.width - (e.leading?.minimum ?? 0) - (e.trailing?.minimum ?? 0)
                        let flexible = (e.leading?.isFlexible == true ? 1 : 0) + (e.trailing?.isFlexible == true ? 1 : 0)
                        let x = ins.left + (e.leading?.minimum ?? 0)
                            + (e.leading?.isFlexible == true && room > 0 ? room / Double(flexible) : 0)
                        for (g, group) in groups.enumerated() {
                            y += e.top?.minimum ?? 0
                            for leaf in group { cells.append(leaf.frame.offsetBy(x: x, y: y)) }
                            y += g < groups.count - 1 ? size.height + section.interGroupSpacing : trimmed?.y ?? size.height
                            y += e.bottom?.minimum ?? 0
                        }
                    }
                }
                y += ins.bottom + bottom
            }
            return (cells, y)
        }
    }

    @Test(arguments: 1...80 as ClosedRange<UInt64>)
    func cellsMatchAPlainRestatementOfTheRules(seed: UInt64) throws {
        var g = SplitMix64(seed: seed &+ 1000)
        var description = Self.randomDescription(&g)
        description.scrollDirection = .vertical
        // Nested groups without insets: a nested group smaller than its insets has a negative
        // inner length, takes 4096 copies by the fit rule, and the reference would materialise
        // 4096 of each level below.
        func plain(_ g: CompositionalGroup, nested: Bool) -> CompositionalGroup {
            var g = g
            if nested { g.contentInsets = .zero }
            g.subitems = g.subitems.map {
                if case .group(let inner) = $0 { return .group(plain(inner, nested: true)) }
                return $0
            }
            return g
        }
        for s in description.sections.indices {
            description.sections[s].group = plain(description.sections[s].group, nested: false)
            if EngineProperties.int(&g, 2) == 0 && description.sections[s].orthogonalScrollingBehavior == .none {
                description.sections[s].group.edgeSpacing = CompositionalEdgeSpacing(
                    leading: Self.spacing(&g), top: Self.spacing(&g), trailing: Self.spacing(&g), bottom: Self.spacing(&g))
            }
        }
        let bounds = EngineProperties.bounds(&g)
        let scale: Double? = EngineProperties.int(&g, 2) == 0 ? nil : 2
        let layout = try CompositionalLayout(scale: scale).layout(description, bounds: bounds)
        let expected = Reference().cells(description, bounds: bounds)
        let got = cells(layout)
        #expect(got.count == expected.cells.count)
        /// Issue 32's rounding: origin and size each to the nearest pixel, halves away from zero.
        func pixel(_ v: Double) -> Double {
            guard let scale else { return v }
            let r = (v * scale).rounded(.toNearestOrAwayFromZero) / scale
            return r == 0 ? 0 : r
        }
        /// `got` is `exact` rounded, or, when `exact` lies within 1e-6 pixel of a half pixel (the
        /// engine and the reference sum in other orders, so a tie may land on either side), the
        /// pixel on either side of it.
        func rounds(_ got: Double, _ exact: Double) -> Bool {
            if abs(got - pixel(exact)) <= 1e-6 { return true }
            guard let scale else { return false }
            let p = exact * scale
            return abs(p - p.rounded(.down) - 0.5) <= 1e-6 && abs(got - exact) <= 0.5 / scale + 1e-6
        }
        for (a, b) in zip(got, expected.cells) {
            #expect(rounds(a.minX, b.minX) && rounds(a.minY, b.minY) && rounds(a.width, b.width) && rounds(a.height, b.height),
                    "\(a) ≠ \(b)")
        }
        #expect(abs(layout.contentSize.height - expected.height) <= 1e-6)
    }

    @Test func theElementLimitCountsTheElementsExactly() throws {
        let badge = CompositionalSupplementaryItem(size: Self.size(.absolute(10), .absolute(10)),
                                                   containerAnchor: CompositionalAnchor(edges: [.top]))
        let pair = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(10)),
                                      subitems: [Self.item(.fractionalWidth(0.5), .fractionalHeight(1), badges: [badge]),
                                                 Self.item(.fractionalWidth(0.5), .fractionalHeight(1))])
        // 5,100,001 cells, badges on the 2,550,001 even ones: 7,650,002 elements, under the limit
        // (one badge for every cell would be over it). Counted from the plan, without laying out.
        let plan = SectionPlan(layout: CompositionalLayout(), section: CompositionalSection(count: 5_100_001, group: pair),
                               bounds: phone, top: 0)
        #expect(plan.elementCount == 7_650_002)
        var small = CountingSink()
        _ = try CompositionalLayout().layout(CompositionalDescription(sections: [CompositionalSection(count: 5, group: pair)]),
                                             bounds: phone, into: &small)
        #expect(small.count == 5 + 3)
        var everyOne = pair
        everyOne.subitems[1] = Self.item(.fractionalWidth(0.5), .fractionalHeight(1), badges: [badge])
        var none = CountingSink()
        #expect(throws: LayoutError.tooManyElements(count: 10_200_002, limit: 10_000_000)) {
            try CompositionalLayout().layout(CompositionalDescription(sections: [CompositionalSection(count: 5_100_001, group: everyOne)]),
                                             bounds: phone, into: &none)
        }
        #expect(none.count == 0)
    }

    @Test func groupSupplementaryItemsAreCountedAndPlacedPerCopyThatHoldsAnItem() throws {
        // A vertical pair (count: 2) inside a horizontal group of two pairs; the inner pair
        // and the outer group each carry a view. 5 items: groups of 4, the last holding one.
        let mark = CompositionalSupplementaryItem(kind: ElementKind("pair-mark", role: .badge)!,
                                                  size: Self.size(.absolute(6), .absolute(6)),
                                                  containerAnchor: CompositionalAnchor(edges: [.top, .leading]))
        let frame = CompositionalSupplementaryItem(kind: ElementKind("group-frame", role: .badge)!,
                                                   size: Self.size(.fractionalWidth(1), .absolute(2)),
                                                   containerAnchor: CompositionalAnchor(edges: [.bottom]))
        let pair = CompositionalGroup(axis: .vertical, size: Self.size(.fractionalWidth(0.5), .fractionalHeight(1)),
                                      subitems: [Self.item(.fractionalWidth(1), .fractionalHeight(1))], repetition: .count(2),
                                      supplementaryItems: [mark])
        let row = CompositionalGroup(axis: .horizontal, size: Self.size(.fractionalWidth(1), .absolute(100)),
                                     subitems: [.group(pair)], supplementaryItems: [frame])
        let section = CompositionalSection(count: 5, group: row)
        let layout = try run([section])
        let views = layout.elements.filter { $0.category == .supplementaryView }
        // Per top-level copy: its own view, then its pairs' (outer first); the last copy holds
        // item 4 only. The frame's bottom edge on the group's bottom edge (the item anchor
        // defaults to the container anchor's edges): y = 100 − 2.
        #expect(views.map(\.kind!.rawValue) == ["group-frame", "pair-mark", "pair-mark", "group-frame", "pair-mark"])
        #expect(views.map(\.indexPath.item) == [0, 0, 2, 4, 4])
        #expect(views.map(\.frame) == [Rect(x: 0, y: 98, width: 390, height: 2), Rect(x: 0, y: 0, width: 6, height: 6),
                                       Rect(x: 195, y: 0, width: 6, height: 6), Rect(x: 0, y: 198, width: 390, height: 2),
                                       Rect(x: 0, y: 100, width: 6, height: 6)])
        let plan = SectionPlan(layout: CompositionalLayout(), section: section, bounds: phone, top: 0)
        #expect(plan.elementCount == layout.elements.count)
    }

    @Test func aMillionCellsLayOutInOnePass() throws {
        var counter = CountingSink()
        let layout = try CompositionalLayout().layout(CompositionalDescription(sections: [Self.list(1_000_000)]), bounds: phone,
                                                      into: &counter)
        #expect(counter.count == 1_000_000)
        #expect(layout.contentSize.height == 44_000_000)
    }
}

/// A sink that keeps the count it was told to prepare for and the count it received.
private struct PreparedCount: LayoutAttributesSink {
    var prepared = -1, count = 0
    mutating func append(_ attributes: LayoutAttributes) { count += 1 }
    mutating func prepare(count: Int) { prepared = count }
}

private extension Rect {
    func offsetBy(x dx: Double, y dy: Double) -> Rect { Rect(x: minX + dx, y: minY + dy, width: width, height: height) }
}
