import Testing
@testable import LayoutCore

struct WaterfallLayoutTests {
    let phone = Size(width: 390, height: 844)

    @Test func shortestColumnFirstWithDefaults() throws {
        let layout = try WaterfallLayout().layout([WaterfallSection(items: .heights([120, 80, 200, 50]))],
                                                 bounds: phone)
        // w = (390 − 2·10) / 3 = 123.333…; columns at x = 0, 133.333, 266.667.
        let w = 370.0 / 3
        expectFrame(layout.elements[0], 0, 0, w, 120)
        expectFrame(layout.elements[1], w + 10, 0, w, 80)
        expectFrame(layout.elements[2], 2 * (w + 10), 0, w, 200)
        // Column heights 130, 90, 210: item 3 goes to column 1 at y = 90.
        expectFrame(layout.elements[3], w + 10, 90, w, 50)
        #expect(layout.contentSize == Size(width: 390, height: 200))
    }

    @Test func toleranceTreatsNearlyEqualColumnsAsEqual() throws {
        var waterfall = WaterfallLayout()
        waterfall.columnCount = 2
        waterfall.minimumInteritemSpacing = 0
        // After two items the columns are 100.0005 and 100: within 0.001, so column 0 wins.
        let items = WaterfallSection(items: .heights([100.0005, 100, 10]))
        let loose = try waterfall.layout([items], bounds: phone)
        #expect(loose.elements[2].frame.minX == 0)
        waterfall.tolerance = 0
        let strict = try waterfall.layout([items], bounds: phone)
        #expect(strict.elements[2].frame.minX > 0)
    }

    @Test func roundRobinOrdersAsSeed000() throws {
        var waterfall = WaterfallLayout()
        waterfall.order = .leftToRight
        let layout = try waterfall.layout([WaterfallSection(items: .heights([50, 60, 70, 80, 90]))],
                                          bounds: Size(width: 320, height: 480))
        // w = (320 − 20)/3 = 100. Item 3 goes under item 0 even though column 0 is not the shortest.
        expectFrame(layout.elements[3], 0, 60, 100, 80)
        expectFrame(layout.elements[4], 110, 70, 100, 90)
        #expect(layout.contentSize.height == 160)

        waterfall.order = .rightToLeft
        let mirrored = try waterfall.layout([WaterfallSection(items: .heights([50, 60, 70, 80]))],
                                            bounds: Size(width: 320, height: 480))
        expectFrame(mirrored.elements[0], 220, 0, 100, 50)
        expectFrame(mirrored.elements[2], 0, 0, 100, 70)
        expectFrame(mirrored.elements[3], 220, 60, 100, 80)
    }

    @Test func sizesScaleToTheColumnWidth() throws {
        var waterfall = WaterfallLayout()
        waterfall.sectionInset = EdgeInsets(all: 10)
        let layout = try waterfall.layout([WaterfallSection(items: .sizes([
            Size(width: 200, height: 100), Size(width: 100, height: 300)]))], bounds: phone)
        // Seed 001: w = (390 − 10 − 10 − 20)/3 = 116.667; heights h·w/width.
        let w = 350.0 / 3
        expectFrame(layout.elements[0], 10, 10, w, w / 2)
        expectFrame(layout.elements[1], 10 + w + 10, 10, w, 3 * w)
        #expect(close(layout.contentSize.height, 10 + 3 * w + 10))
    }

    /// `[1e307, 1e307]` is a square: one column width tall, though `height × column width`
    /// alone overflows (it was refused as not finite; found by a tester). A size whose scaled
    /// height really is not finite is refused for that, with the same error from the quick
    /// verdict's fallback.
    @Test func hugeSizesScaleWithoutOverflowingOnTheWay() throws {
        let w = 350.0 / 3
        var waterfall = WaterfallLayout()
        waterfall.sectionInset = EdgeInsets(all: 10)
        let layout = try waterfall.layout([WaterfallSection(items: .sizes([
            Size(width: 1e307, height: 1e307), Size(width: 1e308, height: 5e307)]))], bounds: phone)
        expectFrame(layout.elements[0], 10, 10, w, w)
        expectFrame(layout.elements[1], 10 + w + 10, 10, w, 0.5 * w)
        #expect(WaterfallLayout.height(of: Size(width: 200, height: 100), atColumnWidth: w) == 100 * w / 200)
        let tall = [WaterfallSection(items: .sizes([Size(width: 1e-300, height: 1e300)]))]
        #expect(throws: LayoutError.invalidItem(IndexPath(item: 0, section: 0),
                                                .scaledHeightNotFinite)) {
            try waterfall.layout(tall, bounds: phone)
        }
        #expect(!waterfall.succeedsWithFiniteElements(sections: tall, bounds: phone, scale: nil))
    }

    @Test func sectionsWithHeadersFootersAndEmptySections() throws {
        var waterfall = WaterfallLayout()
        waterfall.columnCount = 2
        waterfall.sectionInset = EdgeInsets(all: 10)
        waterfall.headerHeight = 40
        waterfall.headerInset = EdgeInsets(top: 5, left: 0, bottom: 5, right: 0)
        waterfall.footerHeight = 20
        waterfall.itemHeight = 100
        let sections = [
            WaterfallSection(items: .heights([50, 30, 40])),
            WaterfallSection(items: .heights([])),
            WaterfallSection(items: .uniform(count: 1)),
        ]
        let layout = try waterfall.layout(sections, bounds: Size(width: 300, height: 500))
        let e = layout.elements
        #expect(e.count == 5 + 2 + 3)
        #expect(waterfall.elementCount(of: sections) == 10)  // told without laying out
        #expect(layout.numberOfSections == sections.count)
        var footerless = sections
        footerless[1].footerHeight = 0
        #expect(waterfall.elementCount(of: footerless) == 9)
        // Section 0: header at 5; items from 60; w = (300 − 20 − 10)/2 = 135.
        #expect(e[0].kind == ElementKind.header && e[0].category == .supplementaryView)
        expectFrame(e[0], 0, 5, 300, 40)
        expectFrame(e[1], 10, 60, 135, 50)
        expectFrame(e[2], 155, 60, 135, 30)
        expectFrame(e[3], 155, 100, 135, 40)
        // Bottom = 140 (tallest last maxY), + 10 inset: footer at 150.
        #expect(e[4].kind == ElementKind.footer)
        expectFrame(e[4], 0, 150, 300, 20)
        // Section 1, empty: header at 175, top 220 + 10 = 230, bottom 240, footer 240.
        expectFrame(e[5], 0, 175, 300, 40)
        expectFrame(e[6], 0, 240, 300, 20)
        #expect(e[5].indexPath == IndexPath(item: 0, section: 1))
        // Section 2: header 265, item at 320, footer 430.
        expectFrame(e[7], 0, 265, 300, 40)
        expectFrame(e[8], 10, 320, 135, 100)
        expectFrame(e[9], 0, 430, 300, 20)
        #expect(layout.contentSize == Size(width: 300, height: 450))
        #expect(layout.layoutAttributesForItem(at: IndexPath(item: 0, section: 2))?.frame.minY == 320)
        #expect(layout.layoutAttributesForItem(at: IndexPath(item: 0, section: 1)) == nil)
    }

    @Test func perSectionOverridesAndMinimumContentHeight() throws {
        var waterfall = WaterfallLayout()
        waterfall.minimumContentHeight = 1000
        waterfall.headerHeight = 10
        let layout = try waterfall.layout([
            WaterfallSection(items: .heights([10, 20]), columnCount: 1,
                             sectionInset: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4), headerHeight: 0),
        ], bounds: Size(width: 100, height: 100))
        // No header (overridden to 0); one column of width 100 − 6 = 94.
        expectFrame(layout.elements[0], 2, 1, 94, 10)
        expectFrame(layout.elements[1], 2, 21, 94, 20)
        #expect(layout.contentSize.height == 1000)
    }

    @Test func invalidSettingsThrow() {
        var waterfall = WaterfallLayout()
        waterfall.columnCount = 0
        #expect(throws: LayoutError.invalidParameter(name: "columns", section: nil, value: 0,
                                                     requirement: .integer(atLeast: 1))) {
            try waterfall.layout([], bounds: phone)
        }
        waterfall.columnCount = 40
        #expect(throws: LayoutError.self) {
            try waterfall.layout([WaterfallSection(items: .heights([1]))], bounds: phone)
        }
        waterfall.columnCount = 3
        waterfall.minimumColumnSpacing = -1
        #expect(throws: LayoutError.self) { try waterfall.layout([], bounds: phone) }
        waterfall.minimumColumnSpacing = 10
        let sizes = WaterfallSection(items: .sizes([Size(width: 0, height: 10)]))
        #expect(throws: LayoutError.self) { try waterfall.layout([sizes], bounds: phone) }
    }

    @Test func overflowingHeightsAreReportedNotPrinted() throws {
        let layout = try WaterfallLayout().layout(
            [WaterfallSection(items: .heights([1e308, 1e308, 1e308, 1e308]), columnCount: 1)],
            bounds: phone)
        #expect(throws: LayoutError.self) { try layout.validateFinite() }
    }

    /// The summary's proof that every element is finite (which lets the command line skip
    /// checking them one by one) is never wrong: on random layouts, from ordinary to
    /// overflowing, snapped or not, whenever it says so the element-by-element check agrees.
    /// It vouches for every ordinary layout, and for none whose content size overflows.
    @Test func summaryVouchesOnlyForFiniteElements() throws {
        try tallyVerdicts(rounds: 400, seed: 11, moreThan: 1000, 100) { round, random, tally in
            var waterfall = WaterfallLayout()
            let huge = round % 4 == 0
            waterfall.columnCount = 1 + Int(random.next() % 5)
            waterfall.minimumInteritemSpacing = huge ? 1e307 : Double(random.next() % 20)
            waterfall.headerHeight = round % 3 == 0 ? 30 : 0
            waterfall.footerHeight = round % 5 == 0 ? (huge ? 1.7e308 : 20) : 0
            let count = Int(random.next() % 40)
            let heights = (0..<count).map { _ in huge ? Double(random.next() % 4) * 4e307 : Double(random.next() % 300) }
            let sections = [WaterfallSection(items: .heights(heights)), WaterfallSection(items: .uniform(count: 3))]
            let bounds = Size(width: 390, height: 844)
            let scales: [Double?] = [nil, 2, 3, 1e-300, 1e300]
            for scale in scales {
                var counter = CountingSink()
                let summary = try waterfall.layout(sections, bounds: bounds, into: &counter)
                var check = FiniteCheckSink(scale: scale)
                let full = try waterfall.layout(sections, bounds: bounds, into: &check)
                #expect(counter.count == check.count && summary.contentSize == full.contentSize)
                if tally.record(vouches: waterfall.elementsAreFinite(in: summary, scale: scale), check: check,
                                mayRefuse: huge || scale == 1e300 || scale == 1e-300,
                                "round \(round) scale \(String(describing: scale))") {
                    #expect(check.zIndicesAreNonDecreasing)
                }
                if !summary.contentSize.height.isFinite {
                    #expect(!waterfall.elementsAreFinite(in: summary, scale: scale))
                }
            }
        }
    }

    /// Two or three columns shortest-first (the branch-free loop) against a plain simulation
    /// of the rule: every frame and the content size exactly, with ties (whole heights), a
    /// zero, a tiny and a huge tolerance, and sections of fewer items than columns.
    @Test func twoAndThreeColumnsMatchAPlainSimulation() throws {
        var random = SplitMix64(seed: 21)
        for round in 0..<300 {
            var waterfall = WaterfallLayout()
            let n = 2 + Int(random.next() % 2)
            waterfall.columnCount = n
            waterfall.minimumColumnSpacing = Double(random.next() % 12)
            waterfall.minimumInteritemSpacing = round % 5 == 0 ? 0 : Double(random.next() % 12) / 4
            waterfall.tolerance = [0, 0.001, 0.5, 25][Int(random.next() % 4)]
            waterfall.sectionInset = EdgeInsets(top: 3, left: Double(random.next() % 9), bottom: 2, right: 1)
            let count = Int(random.next() % 60)
            let heights = (0..<count).map { _ in
                round % 2 == 0 ? Double(random.next() % 5) * 10 : Double(random.next() % 10_000) / 7
            }
            let bounds = Size(width: 390, height: 844)
            let layout = try waterfall.layout([WaterfallSection(items: .heights(heights))], bounds: bounds)

            let columnWidth = (bounds.width - waterfall.sectionInset.left - waterfall.sectionInset.right
                               - Double(n - 1) * waterfall.minimumColumnSpacing) / Double(n)
            let step = columnWidth + waterfall.minimumColumnSpacing
            let used = min(n, count)
            var tops = [Double](repeating: waterfall.sectionInset.top, count: used)
            var bottoms = tops
            for (item, height) in heights.enumerated() {
                let limit = tops.min()! + waterfall.tolerance
                let column = tops.firstIndex { $0 <= limit }!
                let x = waterfall.sectionInset.left + Double(column) * step
                let width = max(0, min(columnWidth, waterfall.sectionInset.left + Double(column + 1) * step
                                                   - waterfall.minimumColumnSpacing - x))
                let frame = layout.elements[item].frame
                #expect(frame == Rect(x: x, y: tops[column], width: width, height: height), "round \(round) item \(item)")
                bottoms[column] = tops[column] + height
                tops[column] = tops[column] + height + waterfall.minimumInteritemSpacing
            }
            let bottom = (bottoms.max() ?? waterfall.sectionInset.top) + waterfall.sectionInset.bottom
            #expect(layout.contentSize == Size(width: 390, height: bottom), "round \(round)")
        }
    }

    /// The verdict reached without laying out (for a CSV) is never wrong: on random layouts,
    /// valid or not, ordinary or overflowing, whenever it says the layout succeeds with finite
    /// elements, the layout does succeed and the element-by-element check (snapped or not)
    /// agrees. It vouches for ordinary layouts.
    @Test func verdictWithoutLayingOutIsNeverWrong() throws {
        tallyVerdicts(rounds: 600, seed: 31, moreThan: 300, 300) { _, random, tally in
            func pick<T>(_ values: [T]) -> T { pickMostlyFirst(values, &random) }
            var waterfall = WaterfallLayout()
            waterfall.columnCount = pick([1, 2, 3, 5, 40])
            waterfall.minimumColumnSpacing = pick([0, 10, 200])
            waterfall.minimumInteritemSpacing = pick([0, 10, 1e307])
            waterfall.headerHeight = pick([0, 30, 1e308])
            waterfall.headerInset = pick([.zero, EdgeInsets(top: 0, left: 300, bottom: 0, right: 300)])
            waterfall.footerHeight = pick([0, 20])
            waterfall.minimumContentHeight = pick([0, 1.7e308])
            waterfall.itemHeight = pick([100, 1e308])
            let count = Int(random.next() % 30)
            let heights = (0..<count).map { _ in random.next() % 8 != 0 ? Double(random.next() % 300)
                                                : pick([0, 12.5, 1e308, -1, .nan, .infinity]) }
            let sizes = (0..<count).map { _ in random.next() % 8 != 0 ? Size(width: 3, height: 7)
                                               : Size(width: pick([1, 1e-300, 0]), height: pick([10, 1e300])) }
            let items: SectionItems = pick([.heights(heights), .sizes(sizes), .uniform(count: count)])
            let sections = [WaterfallSection(items: items), WaterfallSection(items: .heights([5, 6]), columnCount: pick([nil, 2]))]
            let bounds = Size(width: pick([390, 0]), height: 844)
            for scale in [nil, 3, 1e300] as [Double?] {
                guard waterfall.succeedsWithFiniteElements(sections: sections, bounds: bounds, scale: scale) else {
                    tally.refused += 1
                    continue
                }
                var check = FiniteCheckSink(scale: scale)
                #expect(throws: Never.self) {
                    _ = try waterfall.layout(sections, bounds: bounds, into: &check)
                }
                tally.record(vouches: true, check: check)
            }
        }
        let ordinary = [WaterfallSection(items: .heights([120, 80, 200, 50]))]
        #expect(WaterfallLayout().succeedsWithFiniteElements(sections: ordinary, bounds: Size(width: 390, height: 844), scale: 3))
    }
}

/// `RandomHeights`: the embedded data's heights computed when read, the same numbers as
/// drawing them in turn, and a waterfall of them the same as one of their array.
struct RandomHeightsTests {
    let phone = Size(width: 390, height: 844)

    /// Each height is the one a generator drawing in turn gives, at any distance from the seed.
    @Test(arguments: [0, 1, 42, UInt64.max])
    func heightsAreTheGeneratorsInTurn(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        let drawn = (0..<100_000).map { _ in 50 + Double(g.next() % 100) }
        let random = RandomHeights(count: 100_000, seed: seed)
        #expect(random.count == drawn.count)
        #expect(Array(random) == drawn)
        #expect(drawn.allSatisfy { $0 >= 50 && $0 <= random.upperBound } && random.upperBound == 149)
        // SplitMix64 from seed 1: the first value is 0x910A2DEC89025CC1 (SPEC section 6).
        #expect(SplitMix64.value(0, seed: 1) == 0x910A_2DEC_8902_5CC1)
        #expect(SplitMix64.value(99_999, seed: seed) == g.state.mixedForTest)
    }

    /// Another base and spread: `base + r % spread`.
    @Test func baseAndSpreadAreThoseGiven() {
        var g = SplitMix64(seed: 7)
        let random = RandomHeights(count: 1_000, seed: 7, base: 0.5, spread: 3)
        #expect(Array(random) == (0..<1_000).map { _ in 0.5 + Double(g.next() % 3) })
        #expect(Set(random) == [0.5, 1.5, 2.5] && random.upperBound == 2.5)
        #expect(RandomHeights(count: 0, seed: 7).isEmpty)
    }

    /// `FixedDivisor` gives `%` and `/`'s answers without dividing: for divisors of every
    /// kind (1, powers of two and their neighbours, the embedded data's 100, the largest,
    /// random ones of every length) and numerators at the edges (0, the largest, each side of
    /// multiples of the divisor) and at random.
    @Test func fixedDivisorAgreesWithDivision() {
        var rng = SplitMix64(seed: 5)
        var divisors: [UInt64] = [1, 2, 3, 5, 7, 10, 100, 101, 1_000, 641, 6_700_417, .max, .max - 1, 1 << 63, (1 << 63) + 1]
        for k in 1..<64 { divisors += [1 << k, (1 << k) - 1, (1 << k) + 1] }
        for _ in 0..<300 { divisors.append(max(1, rng.next() >> (rng.next() % 64))) }
        for d in divisors {
            let fixed = FixedDivisor(d)
            var numerators: [UInt64] = [0, 1, d - 1, d, .max, .max - 1, .max / d * d, .max / d * d &- 1]
            for _ in 0..<2_000 {
                let n = rng.next() >> (rng.next() % 64)
                numerators += [n, n / d * d, n / d * d &- 1]
            }
            for n in numerators {
                #expect(fixed.quotient(n) == n / d && fixed.remainder(n) == n % d, "\(n) / \(d)")
            }
        }
    }

    /// A waterfall of random heights is, element for element, the waterfall of the same
    /// heights in an array: every column order, 1 to 5 columns (2 and 3 take their own
    /// loop), spanning items, horizontal; and the finite-elements verdict agrees.
    @Test func waterfallIsTheSameAsOfTheArray() throws {
        for columns in 1...5 {
            for order in WaterfallOrder.allCases {
                for direction in ScrollDirection.allCases {
                    for spans in [nil, [1, 2, 1, WaterfallSection.fullSpan, 1]] as [[Int]?] {
                        var waterfall = WaterfallLayout()
                        waterfall.columnCount = columns
                        waterfall.order = order
                        waterfall.scrollDirection = direction
                        waterfall.headerHeight = 20
                        let random = RandomHeights(count: 2_000, seed: UInt64(columns))
                        let spans = spans.map { s in (0..<random.count).map { i in min(s[i % s.count], columns) } }
                        let fromRandom = [WaterfallSection(items: .randomHeights(random), spans: spans)]
                        let fromArray = [WaterfallSection(items: .heights(Array(random)), spans: spans)]
                        let a = try waterfall.layout(fromRandom, bounds: phone)
                        let b = try waterfall.layout(fromArray, bounds: phone)
                        #expect(a.elements == b.elements, "\(columns) columns, \(order), \(direction), spans \(spans != nil)")
                        #expect(a.contentSize == b.contentSize)
                        #expect(waterfall.succeedsWithFiniteElements(sections: fromRandom, bounds: phone, scale: nil))
                        #expect(waterfall.succeedsWithFiniteElements(sections: fromArray, bounds: phone, scale: nil))
                    }
                }
            }
        }
    }

    /// A negative least height fails as the same heights in an array fail, at the same item;
    /// the quick verdict says no rather than vouch for it.
    @Test func negativeHeightsFailAsInAnArray() {
        let random = RandomHeights(count: 10, seed: 3, base: -200, spread: 100)
        let waterfall = WaterfallLayout()
        let sections = [WaterfallSection(items: .randomHeights(random))]
        #expect(throws: LayoutError.invalidItem(IndexPath(item: 0, section: 0), .height)) {
            try waterfall.layout(sections, bounds: phone)
        }
        #expect(throws: LayoutError.invalidItem(IndexPath(item: 0, section: 0), .height)) {
            try waterfall.layout([WaterfallSection(items: .heights(Array(random)))], bounds: phone)
        }
        #expect(!waterfall.succeedsWithFiniteElements(sections: sections, bounds: phone, scale: nil))
    }
}

private extension UInt64 {
    /// SplitMix64's output function applied to this state (what `next()` returns after
    /// advancing to it).
    var mixedForTest: UInt64 {
        var z = self
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
