import Testing
import LayoutCore

/// JustifiedLayout: frames by hand from the row formulas, the greedy rule against a plain
/// re-statement of Flickr's rule, optimal breaks against an exhaustive search, and the native
/// promises (rows fill the width exactly, widows fit, zero insets honoured).
struct JustifiedLayoutTests {
    let phone = Size(width: 390, height: 844)

    func cells(_ layout: CollectionLayout) -> [Rect] {
        layout.elements.filter { $0.category == .cell }.map(\.frame)
    }

    func rows(_ frames: [Rect]) -> [[Rect]] {
        var rows: [[Rect]] = []
        for f in frames {
            if let last = rows.last?.last, last.minY == f.minY { rows[rows.count - 1].append(f) } else { rows.append([f]) }
        }
        return rows
    }

    // MARK: - By hand

    @Test func panoramasAndAPairByHand() throws {
        // Width 370, band 370/320·(0.75…1.25) = 0.867…1.445.
        let two = try JustifiedLayout().layout([JustifiedSection(items: .heights([1.5, 1.5]))], bounds: phone)
        let h: Double = 370 / 1.5
        let secondTop: Double = 20 + h
        #expect(cells(two) == [Rect(x: 10, y: 10, width: 370, height: h), Rect(x: 10, y: secondTop, width: 370, height: h)])
        let contentHeight: Double = 30 + 2 * h
        #expect(two.contentSize.height == contentHeight)
        // 0.75 alone is below the band; 1.5 is in it: one row (370 − 10)/1.5 = 240 tall.
        let pair = try JustifiedLayout().layout([JustifiedSection(items: .heights([0.75, 0.75]))], bounds: phone)
        #expect(cells(pair) == [Rect(x: 10, y: 10, width: 180, height: 240), Rect(x: 200, y: 10, width: 180, height: 240)])
    }

    @Test func flickrsDefaultsOnItsOwnWidth() throws {
        // 1060 wide: w = 1040, band 2.4375…4.0625. [1, 1, 1] = 3 is in the band: (1040 − 20)/3 = 340.
        let layout = try JustifiedLayout().layout([JustifiedSection(items: .uniform(count: 3))],
                                                  bounds: Size(width: 1060, height: 800))
        #expect(cells(layout).map(\.minX) == [10, 360, 710])
        #expect(cells(layout).map(\.width) == [340, 340, 340])
        #expect(cells(layout).allSatisfy { $0.height == 340 })
    }

    @Test func aWidowRowSitsAtThePreviousRowsHeightAndFits() throws {
        // 1060 wide: [1, 1, 1] is a row 340 tall; the widow [1] is 340 × 340 from the left.
        var flickr = JustifiedLayout()
        let bounds = Size(width: 1060, height: 800)
        let left = try flickr.layout([JustifiedSection(items: .uniform(count: 4))], bounds: bounds)
        #expect(cells(left)[3] == Rect(x: 10, y: 360, width: 340, height: 340))
        flickr.widowStyle = .center
        let centre = try flickr.layout([JustifiedSection(items: .uniform(count: 4))], bounds: bounds)
        #expect(cells(centre)[3] == Rect(x: 10 + (1040 - 340) / 2, y: 360, width: 340, height: 340))
        flickr.widowStyle = .justify
        let justified = try flickr.layout([JustifiedSection(items: .uniform(count: 4))], bounds: bounds)
        #expect(cells(justified)[3].width == 1040)
        #expect(cells(justified)[3].height == 640)  // 1040 tall, clamped to 2 × 320: cropped
        flickr.showsWidows = false
        #expect(cells(try flickr.layout([JustifiedSection(items: .uniform(count: 4))], bounds: bounds)).count == 3)
    }

    @Test func aWidowWiderThanTheWidthShrinksToIt() throws {
        // Row 1: [0.5 … ] tall rows; then a widow whose natural width at that height overflows.
        var layout = JustifiedLayout()
        layout.targetRowHeight = 100
        layout.targetRowHeightTolerance = 0
        layout.insets = .zero
        layout.spacing = .zero
        // Width 390: band exactly 3.9. [3.9] closes a row 100 tall; then [3, 0.85]: 3 < 3.9,
        // 3.85 < 3.9 — the widow; at 100 it would be 385 ≤ 390, so it stays 100 tall.
        let fits = try layout.layout([JustifiedSection(items: .heights([3.9, 3, 0.85]))], bounds: phone)
        #expect(cells(fits)[1] == Rect(x: 0, y: 100, width: 300, height: 100))
        // A first row of a panorama 13 wide (30 tall, lower than the widow's natural height),
        // then the widow [2, 1.8] at 30 would be 114 wide: fine; make the previous row tall
        // instead: [1.95, 1.95] → 100; widow [3.8]: at 100 it is 380 ≤ 390: fits as is.
        let tall = try layout.layout([JustifiedSection(items: .heights([1.95, 1.95, 3.8]))], bounds: phone)
        #expect(cells(tall)[2].width == 380)
        // A widow that would overflow: previous row 200 tall (a lone 1.95), widow [3.85].
        layout.targetRowHeightTolerance = 0.5
        let over = try layout.layout([JustifiedSection(items: .heights([1.5, 1.5, 3.85]))], bounds: Size(width: 390, height: 800))
        let widow = cells(over).last!
        #expect(widow.maxX <= 390 + 1e-9)
    }

    @Test func zeroInsetsAndSpacingAreHonoured() throws {
        var layout = JustifiedLayout()
        layout.insets = .zero
        layout.spacing = .zero
        let result = try layout.layout([JustifiedSection(items: .heights([0.6, 0.6]))], bounds: phone)
        #expect(cells(result) == [Rect(x: 0, y: 0, width: 195, height: 325), Rect(x: 195, y: 0, width: 195, height: 325)])
        #expect(result.contentSize.height == 325)
    }

    @Test func noRowsIsAsTallAsTheInsets() throws {
        let layout = try JustifiedLayout().layout([JustifiedSection(items: .heights([]))], bounds: phone)
        #expect(layout.contentSize.height == 20)
        #expect(try JustifiedLayout().layout([], bounds: phone).contentSize.height == 0)
    }

    // MARK: - Properties

    static func randomRatios(_ n: Int, seed: UInt64) -> [Double] {
        var g = SplitMix64(seed: seed)
        return (0..<n).map { _ in 0.4 + Double(g.next() % 2200) / 1000 }
    }

    @Test(arguments: 1...20)
    func justifiedRowsFillTheWidthExactly(seed: Int) throws {
        var layout = JustifiedLayout()
        var g = SplitMix64(seed: UInt64(seed))
        layout.targetRowHeight = 80 + Double(g.next() % 300)
        layout.breaking = seed % 2 == 0 ? .optimal : .greedy
        let width = 300 + Double(g.next() % 900)
        let result = try layout.layout([JustifiedSection(items: .heights(Self.randomRatios(60, seed: UInt64(seed))))],
                                       bounds: Size(width: width, height: 800))
        let all = rows(cells(result))
        for (r, row) in all.enumerated() {
            // Every row but a greedy left widow ends at width − 10, to 1e-9.
            if layout.breaking == .greedy && r == all.count - 1 { #expect(row.last!.maxX <= width - 10 + 1e-9); continue }
            #expect(abs(row.last!.maxX - (width - 10)) <= 1e-9, "row \(r)")
            #expect(row.first!.minX == 10)
            for (a, b) in zip(row, row.dropFirst()) { #expect(abs(b.minX - a.maxX - 10) <= 1e-9) }
        }
    }

    /// The summary's verdict (`elementsAreFinite(in:statistics:scale:)`) is sound: whenever it
    /// vouches, every element of the layout, snapped, is finite. Over ordinary and hostile
    /// settings (aspect ratios from 1e-300 to 1e300, spacing wider than the row, huge
    /// widths, every widow style and breaking, Flickr's boxes) and scales; it vouches for
    /// the ordinary ones.
    @Test(arguments: 1...4)
    func theSummaryVouchesOnlyForFiniteElements(seed: Int) throws {
        var g = SplitMix64(seed: UInt64(seed) &* 977)
        var vouched = 0, ordinary = 0, hostileVouched = 0
        for round in 0..<300 {
            var layout = JustifiedLayout()
            let hostile = round % 3 == 0
            let pick = { (values: [Double]) in values[Int(g.next() % UInt64(values.count))] }
            // In a hostile round each setting is extreme one time in two: a few extremes at once.
            var wild: Bool { hostile && g.next() % 2 == 0 }
            layout.targetRowHeight = wild ? pick([1e-300, 1e-10, 1, 320, 1e200, 1e307]) : 50 + Double(g.next() % 400)
            layout.spacing = Size(width: wild ? pick([0, 10, 1e6, 1e300]) : Double(g.next() % 20),
                                  height: wild ? pick([0, 1e300]) : Double(g.next() % 20))
            layout.widowStyle = [.left, .justify, .center][Int(g.next() % 3)]
            layout.breaking = g.next() % 3 == 0 ? .optimal : .greedy
            if layout.breaking == .greedy && g.next() % 4 == 0 { layout.compatibility = .flickr }
            let width = wild ? pick([1, 390, 1e9, 1e300, 1.7e308]) : 200 + Double(g.next() % 1000)
            let wildRatios = wild
            let ratios: [Double] = (0..<(1 + Int(g.next() % 40))).map { _ in
                wildRatios && g.next() % 2 == 0 ? pick([1e-300, 1e-5, 0.5, 1, 2.5, 1e5, 1e300]) : 0.5 + Double(g.next() % 2000) / 1000
            }
            let section = JustifiedSection(items: .heights(ratios), headerHeight: wild ? pick([0, 40, 1e308]) : 40)
            let bounds = Size(width: width, height: 800)
            let scale: Double? = [nil, 1, 2, 3][Int(g.next() % 4)]
            var counter = CountingSink()
            var statistics = JustifiedLayout.Statistics()
            guard let summary = try? layout.layout([section], bounds: bounds, contentOffset: .zero,
                                                   into: &counter, statistics: &statistics) else { continue }
            #expect(statistics == (try layout.statistics([section], bounds: bounds)))
            if !hostile && layout.compatibility == .native { ordinary += 1 }
            guard layout.elementsAreFinite(in: summary, statistics: statistics, scale: scale) else { continue }
            vouched += 1
            if hostile { hostileVouched += 1 }
            var kept = try layout.layout([section], bounds: bounds)
            #expect(kept.elements.count == counter.count)
            if let scale { kept.snapToPixels(scale: scale) }
            for element in kept.elements {
                #expect(element.isFinite, "round \(round): \(element) of \(layout) in \(width) at scale \(String(describing: scale))")
            }
        }
        #expect(vouched >= ordinary && ordinary > 100 && hostileVouched > 5)
    }

    /// Row ends computed once (`optimalRowEnds`) and passed to `layout` give the layout and
    /// statistics computed without them, section insets and `--max-rows` included.
    @Test(arguments: 1...5)
    func rowEndsPassedInAreTheRowsComputed(seed: Int) throws {
        var g = SplitMix64(seed: UInt64(seed) &* 131)
        var layout = JustifiedLayout()
        layout.breaking = .optimal
        layout.targetRowHeight = 60 + Double(g.next() % 300)
        if seed % 2 == 0 { layout.maximumRowCount = 1 + Int(g.next() % 5) }
        let sections = (0..<3).map { s in
            JustifiedSection(items: .heights(Self.randomRatios(5 + Int(g.next() % 60), seed: g.next())),
                             insets: s == 1 ? EdgeInsets(top: 5, left: 30, bottom: 5, right: 0) : nil, headerHeight: 20)
        }
        let bounds = Size(width: 300 + Double(g.next() % 700), height: 800)
        let ends = try layout.optimalRowEnds(sections, bounds: bounds)
        #expect(ends.count == 3 && ends.allSatisfy { !$0.isEmpty })
        var given: [LayoutAttributes] = [], computed: [LayoutAttributes] = []
        var givenStatistics = JustifiedLayout.Statistics(), computedStatistics = JustifiedLayout.Statistics()
        let a = try layout.layout(sections, bounds: bounds, contentOffset: .zero, into: &given,
                                  statistics: &givenStatistics, rowEnds: ends)
        let b = try layout.layout(sections, bounds: bounds, contentOffset: .zero, into: &computed,
                                  statistics: &computedStatistics)
        #expect(given == computed && a.contentSize == b.contentSize && givenStatistics == computedStatistics)
        var greedy = layout
        greedy.breaking = .greedy
        #expect(try greedy.optimalRowEnds(sections, bounds: bounds) == [[], [], []])
    }

    /// Exhaustive search over every break set: the least Σ n·(h − target)² under the same
    /// admissibility, ties by fewer rows, then earliest breaks.
    static func exhaustive(_ ratios: [Double], width: Double, target: Double, spacing: Double) -> [Int] {
        let n = ratios.count
        var best: (cost: Double, rows: Int, breaks: [Int])? = nil
        for mask in 0..<(1 << (n - 1)) {
            var breaks: [Int] = []
            for k in 0..<(n - 1) where mask & (1 << k) != 0 { breaks.append(k + 1) }
            let bounds = [0] + breaks + [n]
            var cost = 0.0, ok = true
            for (i, j) in zip(bounds, bounds.dropFirst()) {
                let sum = ratios[i..<j].reduce(0, +)
                let h = (width - Double(j - i - 1) * spacing) / sum
                if j - i > 1 && (h < target / 2 || h > 2 * target) { ok = false; break }
                cost += Double(j - i) * (h - target) * (h - target)
            }
            guard ok else { continue }
            if let b = best {
                let tie = abs(cost - b.cost) <= 1e-9 * max(cost, b.cost)
                if (!tie && cost < b.cost) || (tie && (bounds.count - 1 < b.rows
                    || (bounds.count - 1 == b.rows && breaks.lexicographicallyPrecedes(b.breaks)))) {
                    best = (cost, bounds.count - 1, breaks)
                }
            } else {
                best = (cost, bounds.count - 1, breaks)
            }
        }
        return best!.breaks
    }

    @Test(arguments: 1...40)
    func optimalBreaksEqualAnExhaustiveSearch(seed: Int) throws {
        var g = SplitMix64(seed: UInt64(seed) * 31)
        let n = 2 + Int(g.next() % 11)
        let ratios = Self.randomRatios(n, seed: UInt64(seed) + 100)
        var layout = JustifiedLayout()
        layout.breaking = .optimal
        layout.targetRowHeight = 60 + Double(g.next() % 200)
        let width = 250 + Double(g.next() % 500)
        let result = try layout.layout([JustifiedSection(items: .heights(ratios))], bounds: Size(width: width, height: 800))
        var breaks: [Int] = []
        var count = 0
        for row in rows(cells(result)).dropLast() {
            count += row.count
            breaks.append(count)
        }
        #expect(breaks == Self.exhaustive(ratios, width: width - 20, target: layout.targetRowHeight, spacing: 10),
                "\(ratios) width \(width) target \(layout.targetRowHeight)")
        // The statistics' objective is the search's cost of those breaks.
        let stats = try layout.statistics([JustifiedSection(items: .heights(ratios))], bounds: Size(width: width, height: 800))
        #expect(stats.rows == breaks.count + 1)
    }

    /// A plain dynamic program, quadratic: every row of every start, the inadmissible ones
    /// skipped rather than cut off; ties as the engine's (1e-9 relative, then fewer rows, then
    /// the earlier break). Returns the row ends.
    static func referenceRowEnds(_ ratios: [Double], width: Double, target: Double, spacing: Double) -> [Int] {
        let n = ratios.count
        var cost = [Double](repeating: .infinity, count: n + 1), count = [Int](repeating: 0, count: n + 1)
        var next = [Int](repeating: n, count: n + 1)
        cost[n] = 0
        for i in stride(from: n - 1, through: 0, by: -1) {
            var sum = 0.0
            for j in (i + 1)...n {
                sum += ratios[j - 1]
                let h = (width - Double(j - i - 1) * spacing) / sum
                if j - i > 1 && (h < target / 2 || h > 2 * target) { continue }
                let total = Double(j - i) * (h - target) * (h - target) + cost[j]
                let tie = cost[i].isFinite && abs(total - cost[i]) <= 1e-9 * max(abs(total), abs(cost[i]))
                if !cost[i].isFinite || (!tie && total < cost[i]) || (tie && 1 + count[j] < count[i]) {
                    (cost[i], count[i], next[i]) = (total, 1 + count[j], j)
                }
            }
        }
        var ends: [Int] = [], i = 0
        while i < n { i = next[i]; ends.append(i) }
        return ends
    }

    /// Issue 28: rows too tall for the band (tiny aspect ratios, no spacing) are skipped by
    /// block sums, not walked one by one: the breaks are the plain program's, on inputs where
    /// long runs of slivers sit among ordinary photos.
    @Test(arguments: 1...8)
    func tooTallRowsAreSkippedWithTheSameBreaks(seed: Int) throws {
        var g = SplitMix64(seed: UInt64(seed) * 977)
        var ratios: [Double] = []
        while ratios.count < 600 {
            if g.next() % 3 == 0 {
                ratios += [Double](repeating: [1e-9, 1e-6, 3e-4][Int(g.next() % 3)], count: 1 + Int(g.next() % 200))
            } else {
                ratios.append(0.3 + Double(g.next() % 1000) / 400)
            }
        }
        var layout = JustifiedLayout()
        layout.breaking = .optimal
        layout.spacing = Size(width: seed % 2 == 0 ? 0 : 1e-9, height: 0)
        layout.targetRowHeight = 100 + Double(g.next() % 300)
        let width = 300 + Double(g.next() % 900)
        let ends = try Self.ends(layout, ratios, width: width)
        #expect(ends == Self.referenceRowEnds(ratios, width: width, target: layout.targetRowHeight,
                                              spacing: layout.spacing.width))
    }

    /// The optimal rows' ends of one section of aspect ratios `ratios`, `width` between the
    /// insets.
    static func ends(_ layout: JustifiedLayout, _ ratios: [Double], width: Double) throws -> [Int] {
        try layout.optimalRowEnds([JustifiedSection(items: .heights(ratios))], bounds: Size(width: width + 20, height: 800))[0]
            .map(Int.init)
    }

    @Test func slivers160000AreLinearOrRefused() throws {
        var layout = JustifiedLayout()
        layout.breaking = .optimal
        layout.spacing = .zero
        // Aspect 1e-9 on 390 points: every row of two or more is far above 2·target, so each
        // sliver is a row of its own (the whole band skipped at each start).
        let slivers = [Double](repeating: 1e-9, count: 160_000)
        let ends = try Self.ends(layout, slivers, width: 390)
        #expect(ends.count == 160_000 && ends.first == 1 && ends.last == 160_000)
        // Huge aspect ratios: every row of two is below target/2, cut off at once.
        #expect(try Self.ends(layout, [Double](repeating: 1e9, count: 160_000), width: 390).count == 160_000)
        // Aspect 1e-3: rows of 609 to 2,437 items are in the band, 1,800 a start: more than the
        // 256 a start (and a million) optimal breaking looks at. Refused, naming the limit.
        let limit = JustifiedLayout.optimalBandWork(items: 10_000)
        #expect(limit == 3_560_000)
        #expect(throws: LayoutError.invalidParameter(name: "breaking", section: nil, value: 10_000,
                                                     requirement: .optimalBandRows(atMost: limit))) {
            try Self.ends(layout, [Double](repeating: 1e-3, count: 10_000), width: 390)
        }
        // Fewer of them fit the limit: 1,000 items, 1,000 + 256,000 … the band holds fewer.
        #expect(try Self.ends(layout, [Double](repeating: 1e-3, count: 1_000), width: 390).count == 1)
    }

    @Test(arguments: 1...6)
    func optimalBreaksEqualAPlainDynamicProgramOnLargeInputs(seed: Int) throws {
        var g = SplitMix64(seed: UInt64(seed) * 131)
        let ratios = Self.randomRatios(1000, seed: UInt64(seed) + 500)
        var layout = JustifiedLayout()
        layout.breaking = .optimal
        layout.targetRowHeight = 80 + Double(g.next() % 300)
        let width = 300 + Double(g.next() % 900)
        let result = try layout.layout([JustifiedSection(items: .heights(ratios))], bounds: Size(width: width, height: 800))
        var ends: [Int] = [], total = 0
        for row in rows(cells(result)) { total += row.count; ends.append(total) }
        #expect(ends == Self.referenceRowEnds(ratios, width: width - 20, target: layout.targetRowHeight, spacing: 10))
    }

    /// Flickr's greedy rule, restated plainly: the rows' item counts.
    static func flickrRows(_ ratios: [Double], width: Double, target: Double, tolerance: Double, spacing: Double) -> [Int] {
        var rows: [Int] = []
        var row: [Double] = []
        let minimum = width / target * (1 - tolerance), maximum = width / target * (1 + tolerance)
        var i = 0
        while i < ratios.count {
            let candidate = row + [ratios[i]]
            let sum = candidate.reduce(0, +)
            if sum < minimum { row = candidate; i += 1; continue }
            if sum > maximum && !row.isEmpty {
                let t = (width - Double(candidate.count - 1) * spacing) / target
                let previous = (width - Double(row.count - 1) * spacing) / target
                if abs(sum - t) > abs(row.reduce(0, +) - previous) { rows.append(row.count); row = []; continue }
            }
            rows.append(candidate.count)
            row = []
            i += 1
        }
        if !row.isEmpty { rows.append(row.count) }
        return rows
    }

    @Test(arguments: 1...30)
    func greedyRowsFollowFlickrsRule(seed: Int) throws {
        var g = SplitMix64(seed: UInt64(seed) * 7)
        var layout = JustifiedLayout()
        layout.targetRowHeight = 60 + Double(g.next() % 300)
        layout.targetRowHeightTolerance = Double(g.next() % 50) / 100
        let width = 300 + Double(g.next() % 800)
        let ratios = Self.randomRatios(80, seed: UInt64(seed) + 7)
        let result = try layout.layout([JustifiedSection(items: .heights(ratios))], bounds: Size(width: width, height: 800))
        #expect(rows(cells(result)).map(\.count)
                == Self.flickrRows(ratios, width: width - 20, target: layout.targetRowHeight,
                                   tolerance: layout.targetRowHeightTolerance, spacing: 10))
    }

    @Test func maxRowsKeepsTheFirstRowsAndBreakoutRowsGoFullWidth() throws {
        var layout = JustifiedLayout()
        layout.maximumRowCount = 2
        let result = try layout.layout([JustifiedSection(items: .heights(Self.randomRatios(40, seed: 3)))], bounds: phone)
        #expect(rows(cells(result)).count == 2)
        layout.maximumRowCount = nil
        layout.breakoutCadence = 2
        layout.targetRowHeight = 100
        let breakout = try layout.layout([JustifiedSection(items: .heights([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1.2, 0.5]))],
                                         bounds: phone)
        // Row 2 starts with a landscape item? Rows of 0.5s first; the landscape 1.2 alone at full width
        // when it opens an even row.
        let all = rows(cells(breakout))
        for (r, row) in all.enumerated() where (r + 1) % 2 == 0 && row.count == 1 {
            #expect(row[0].width == 370)
        }
    }

    /// A widow row after a breakout row takes the target height, as flickr/justified-layout
    /// 4.1.0 does (`nextToLastRowHeight` is a breakout row's `targetRowHeight`), not the
    /// breakout row's; after another row, that row's height.
    @Test func aWidowAfterABreakoutRowTakesTheTarget() throws {
        var layout = JustifiedLayout()
        layout.breakoutCadence = 1
        // 1.5 opens row 1: a breakout row, 370 / 1.5 = 246.667 tall; 0.5 is the widow: 320
        // (its natural 740 is taller), 0.5 · 320 = 160 wide, left.
        let result = try layout.layout([JustifiedSection(items: .heights([1.5, 0.5]))], bounds: phone)
        let frames = cells(result)
        #expect(frames[0] == Rect(x: 10, y: 10, width: 370, height: 370 / 1.5))
        #expect(frames[1] == Rect(x: 10, y: 10 + 370 / 1.5 + 10, width: 160, height: 320))
        // The same under --compat flickr.
        layout.compatibility = .flickr
        let flickr = try layout.layout([JustifiedSection(items: .heights([1.5, 0.5]))], bounds: phone)
        #expect(cells(flickr)[1].size == Size(width: 160, height: 320))
        // After a panorama row (not a breakout row): that row's height.
        layout = JustifiedLayout()
        let panorama = try layout.layout([JustifiedSection(items: .heights([1.5, 0.5]))], bounds: phone)
        #expect(cells(panorama)[1].size.height == cells(panorama)[0].size.height)
    }

    @Test func badSettingsAndItemsThrow() {
        var layout = JustifiedLayout()
        layout.targetRowHeight = 0
        #expect(throws: LayoutError.invalidParameter(name: "row-height", section: nil, value: 0, requirement: .finitePositive)) {
            try layout.layout([JustifiedSection(items: .uniform(count: 1))], bounds: phone)
        }
        #expect(throws: LayoutError.invalidItem(IndexPath(item: 1, section: 0), .aspectRatio)) {
            try JustifiedLayout().layout([JustifiedSection(items: .heights([1, 0]))], bounds: phone)
        }
        layout = JustifiedLayout()
        layout.maximumRowCount = 0
        #expect(throws: LayoutError.self) { try layout.layout([], bounds: phone) }
        layout = JustifiedLayout()
        layout.targetRowHeightTolerance = -0.1
        #expect(throws: LayoutError.self) { try layout.layout([], bounds: phone) }
    }

    // MARK: - --compat flickr: flickr/justified-layout 4.1.0's boxes

    /// The library's configuration in cvlayout's terms: Flickr's defaults (container 1060 wide,
    /// padding 10, spacing 10, target 320 ± 25 %), its boxes as (left, top, width, height).
    func flickr(_ ratios: [Double], width: Double = 1060, _ configure: (inout JustifiedLayout) -> Void = { _ in })
        throws -> (boxes: [Rect], containerHeight: Double, widowCount: Int) {
        var layout = JustifiedLayout()
        layout.compatibility = .flickr
        configure(&layout)
        let sections = [JustifiedSection(items: .heights(ratios))]
        let bounds = Size(width: width, height: 800)
        let result = try layout.layout(sections, bounds: bounds)
        return (cells(result), result.contentSize.height, try layout.statistics(sections, bounds: bounds).widows)
    }

    /// The expectations of the library's own test suite (test/test.js, with its fixtures
    /// four-squares.json and four-squares-400.json), transcribed as numbers.
    @Test func flickrsPublishedTestSuite() throws {
        // "should create additional rows if it won't fit within constraints"
        let two = try flickr([1, 2], width: 200) { $0.targetRowHeight = 100 }
        #expect(two.boxes.map(\.minY) == [10, 200])
        // "should not add the row if we are limiting it with maxNumRows"
        #expect(try flickr([1, 2, 1], width: 200) { $0.targetRowHeight = 100; $0.maximumRowCount = 2 }.boxes.count == 2)
        // "should handle a panorama as only row item"
        #expect(try flickr([5]).boxes.count == 1)
        // "should allow new item added to the row to get closer to the targetRowHeight"
        #expect(try flickr([1, 4, 1.1], width: 1000) { $0.targetRowHeight = 250 }.boxes.map(\.height) == [194, 194, 194])
        // four-squares.json: [1, 1, 1, 1] with the defaults (and the same as sizes).
        let fourSquares = [Rect(x: 10, y: 10, width: 340, height: 340), Rect(x: 360, y: 10, width: 340, height: 340),
                           Rect(x: 710, y: 10, width: 340, height: 340), Rect(x: 10, y: 360, width: 340, height: 340)]
        let four = try flickr([1, 1, 1, 1])
        #expect(four.boxes == fourSquares)
        #expect(four.containerHeight == 710)
        #expect(four.widowCount == 1)
        var sized = JustifiedLayout()
        sized.compatibility = .flickr
        let sizes = [400.0, 500, 600, 700].map { Size(width: $0, height: $0) }
        #expect(cells(try sized.layout([JustifiedSection(items: .sizes(sizes))], bounds: Size(width: 1060, height: 800)))
                == fourSquares)
        // four-squares-400.json: every square a row of its own, 380 × 380.
        let narrow = try flickr([1, 1, 1, 1], width: 400)
        #expect(narrow.boxes == [10.0, 400, 790, 1180].map { Rect(x: 10, y: $0, width: 380, height: 380) })
        #expect(narrow.containerHeight == 1570)
        #expect(narrow.widowCount == 0)
        // containerPadding 20; {top 50, left 5, bottom 10, right 10}.
        #expect(try flickr([1]) { $0.insets = EdgeInsets(all: 20) }.boxes[0].origin == Point(x: 20, y: 20))
        #expect(try flickr([1]) { $0.insets = EdgeInsets(top: 50, left: 5, bottom: 10, right: 10) }.boxes[0].origin
                == Point(x: 5, y: 50))
        // boxSpacing 40; {horizontal 40, vertical 5}.
        let spaced = try flickr([1, 1, 1, 1]) { $0.spacing = Size(width: 40, height: 40) }
        #expect(spaced.boxes[1].minX == 370)
        #expect(spaced.boxes[3].minY == 370)
        let spacedApart = try flickr([1, 1, 1, 1]) { $0.spacing = Size(width: 40, height: 5) }
        #expect(spacedApart.boxes[1].minX == 370)
        #expect(spacedApart.boxes[3].minY == 335)
        // targetRowHeight 255 with tolerance 0; tolerance 0.
        #expect(try flickr([1, 1, 1, 1]) { $0.targetRowHeight = 255; $0.targetRowHeightTolerance = 0 }.boxes[0].height == 255)
        #expect(try flickr([1, 1, 1]) { $0.targetRowHeightTolerance = 0 }.boxes[0].height == 320)
        // maxNumRows 1; forceAspectRatio 1; showWidows false.
        #expect(try flickr([1, 1, 1, 1, 1]) { $0.maximumRowCount = 1 }.boxes.count == 3)
        let forced = try flickr([2, 2, 2, 2]) { $0.forcedAspectRatio = 1 }
        #expect(forced.boxes[0].size == Size(width: 340, height: 340))
        #expect(try flickr([1, 1, 1, 1]) { $0.showsWidows = false }.boxes.count == 3)
        // fullWidthBreakoutRowCadence 3: box 5 is 1040 wide; box 6 is a row below it.
        let breakout = try flickr([1, 1, 1, 1, 2, 2, 2, 2]) { $0.breakoutCadence = 3 }
        #expect(breakout.boxes[5].width == 1040)
        #expect(breakout.boxes[6].minY == breakout.boxes[5].maxY + 10)
        // Widows: at the previous row's height; after a breakout row, at the target.
        #expect(four.boxes[0].height == four.boxes[3].height)
        #expect(try flickr([1, 1, 1, 1, 1, 1, 1, 1]) { $0.breakoutCadence = 3 }.boxes.last!.height == 320)
        #expect(try flickr([1, 1, 1]).widowCount == 0)
        #expect(try flickr([1, 1, 1, 1, 0.5]).widowCount == 2)
        #expect(four.boxes[3].minX == four.boxes[0].minX)
        // Centred widows (its padding equals its spacing, so they are centred in the container).
        // Its test compares with === but asserts nothing (`expect(value)` without a matcher):
        // for [1.6, 1, 2.3, 1.2, 0.1] the two sides differ in the last bit, hence 1e-9 here.
        for ratios in [[1.0, 1, 1, 1], [1, 1, 1, 1, 1], [1.6, 1, 2.3, 1.2, 0.1]] {
            let centred = try flickr(ratios) { $0.widowStyle = .center }
            let widows = centred.boxes.suffix(centred.widowCount)
            let rowWidth = widows.reduce(0) { $0 + $1.width + 10 } - 10
            #expect(abs(widows.first!.minX - (1060 / 2 - rowWidth / 2)) <= 1e-9, "\(ratios)")
        }
        // A single justified widow fills the row: 880 − 2 × 10.
        #expect(try flickr([1, 1, 1, 2.5], width: 880) { $0.widowStyle = .justify }.boxes.last!.width == 860)
        // containerPadding 100: 100 + 320 + 100; zero padding with tolerance 0: 320.
        #expect(try flickr([1]) { $0.insets = EdgeInsets(all: 100) }.containerHeight == 520)
        #expect(try flickr([1, 1, 1]) { $0.insets = .zero; $0.targetRowHeightTolerance = 0 }.containerHeight == 320)
    }

    @Test func flickrsWholePointErrorDistributionByHand() throws {
        // [1, 1, 1] closes a row (1040 − 20)/3 = 340 tall. A justified widow [0.71, 0.6] at 340 is
        // 241.4 + 204 wide: the error (455.4 − 1040)/2 = −292.3 per item, rounded cumulatively to
        // −292 and −585: the first item grows by 292, the second moves 292 and grows by 293, so the
        // row ends at 1050.4, 0.4 past the container's padding (its issue 34).
        let widows = try flickr([1, 1, 1, 0.71, 0.6]) { $0.widowStyle = .justify }.boxes.suffix(2)
        let first = widows.first!, second = widows.last!
        #expect(abs(first.width - (0.71 * 340 + 292)) <= 1e-9)
        #expect(abs(second.minX - (10 + 0.71 * 340 + 10 + 292)) <= 1e-9)
        #expect(abs(second.width - (0.6 * 340 + 293)) <= 1e-9)
        #expect(abs(second.maxX - 1050.4) <= 1e-9)
        // A lone justified widow 1.33 × 340 = 452.2 wide grows by round(587.8) = 588: 1040.2.
        #expect(abs(try flickr([1, 1, 1, 1.33]) { $0.widowStyle = .justify }.boxes[3].width - 1040.2) <= 1e-9)
        // Cvlayout's own mode fills 1040 exactly.
        var native = JustifiedLayout()
        native.widowStyle = .justify
        let exact = cells(try native.layout([JustifiedSection(items: .heights([1, 1, 1, 0.71, 0.6]))],
                                            bounds: Size(width: 1060, height: 800)))
        #expect(abs(exact.last!.maxX - 1050) <= 1e-9)
    }

    @Test func flickrsClampsCropAndItsCentredWidowIsOffByHalfThePaddingLessTheSpacing() throws {
        // Tolerance 0.9 on 1040: the band is 0.325…6.175. [0.3, 0.3] is in it at (1040 − 10)/0.6 =
        // 1716.7, clamped to 2 × 320 = 640; the items keep their widths at 1716.7: 515 each (cropped).
        let tall = try flickr([0.3, 0.3]) { $0.targetRowHeightTolerance = 0.9 }
        #expect(tall.boxes.map(\.height) == [640, 640])
        #expect(tall.boxes.allSatisfy { abs($0.width - 515) <= 1e-9 })
        #expect(abs(tall.boxes[1].minX - 535) <= 1e-9)
        // A panorama 10 wide: 1040/10 = 104 tall, clamped up to 160; 1040 wide.
        #expect(try flickr([10]).boxes == [Rect(x: 10, y: 10, width: 1040, height: 160)])
        // Padding 30, spacing 10: w = 1000; [1, 1, 1] is (1000 − 20)/3 tall; the centred widow
        // [1] moves by (1000 − (30 + h + 10))/2 + 10 from the padding: 10 left of the centre,
        // (padding − spacing)/2.
        let h: Double = 980.0 / 3
        let centred = try flickr([1, 1, 1, 1]) { $0.insets = EdgeInsets(all: 30); $0.widowStyle = .center }
        let expectedLeft: Double = 30 + (1000 - (30 + h + 10)) / 2 + 10
        #expect(centred.boxes[3].minX == expectedLeft)
        #expect(abs(centred.boxes[3].midX - 530 + 10) <= 1e-9)
        // No rows: Flickr's containerHeight is padding top − spacing + padding bottom.
        #expect(try flickr([]).containerHeight == 10)
        #expect(try flickr([]) { $0.insets = .zero }.containerHeight == 0)  // −10, never above the top
    }

    @Test func flickrModeLaysOutEachSectionBelowItsHeader() throws {
        var layout = JustifiedLayout()
        layout.compatibility = .flickr
        let bounds = Size(width: 1060, height: 800)
        let one = try layout.layout([JustifiedSection(items: .uniform(count: 4))], bounds: bounds)
        let two = try layout.layout([JustifiedSection(items: .uniform(count: 4)),
                                     JustifiedSection(items: .uniform(count: 4), headerHeight: 40)], bounds: bounds)
        let second = two.elements.filter { $0.category == .cell && $0.indexPath.section == 1 }.map(\.frame)
        #expect(second == cells(one).map { Rect(x: $0.minX, y: $0.minY + 750, width: $0.width, height: $0.height) })
        #expect(two.contentSize.height == 710 + 40 + 710)
    }

    // MARK: - Optimal breaking against react-photo-album's published fixture

    /// react-photo-album's rows layout minimises the same Σ n·(h − target)² (its
    /// `computeRowsLayout`, a shortest path over break points). Its test fixture (test/photos.ts,
    /// 21 photos 1080 wide) laid out by `computeRowsLayout(photos, spacing 10, padding 10,
    /// width 800, targetRowHeight 150)` has the rows of test/static/__snapshots__/
    /// StaticPhotoAlbum.spec.tsx.snap ("supports rows layout"), transcribed here: 4, 4, 4, 5, 1
    /// and 3 photos, every photo's width and height printed to 3 decimals. Its padding p is
    /// inside each photo's box (a row is `(W − (n−1)·s − 2·p·n)/Σa` tall), so in cvlayout's
    /// terms it is insets p on the left and right and a spacing of s + 2p.
    @Test func optimalBreakingReproducesReactPhotoAlbumsFixture() throws {
        let heights: [Double] = [800, 1620, 720, 721, 1620, 607, 608, 720, 1549, 720, 694, 1620, 720, 1440, 1620, 810,
                                 1620, 160, 810, 720, 1440]
        var layout = JustifiedLayout()
        layout.breaking = .optimal
        layout.targetRowHeight = 150
        layout.insets = EdgeInsets(top: 0, left: 10, bottom: 0, right: 10)
        layout.spacing = Size(width: 10 + 2 * 10, height: 10)
        let result = try layout.layout([JustifiedSection(items: .sizes(heights.map { Size(width: 1080, height: $0) }))],
                                       bounds: Size(width: 800, height: 600))
        let published: [[(width: Double, height: Double)]] = [
            [(185.758, 137.599), (91.732, 137.599), (206.398, 137.599), (206.112, 137.599)],
            [(80.388, 120.582), (214.545, 120.582), (214.193, 120.582), (180.874, 120.582)],
            [(108.841, 156.106), (234.158, 156.106), (242.931, 156.106), (104.07, 156.106)],
            [(201.356, 134.237), (100.678, 134.237), (89.492, 134.237), (178.983, 134.237), (89.492, 134.237)],
            [(780, 115.556)],
            [(267.907, 200.93), (301.395, 200.93), (150.698, 200.93)],
        ]
        let mine = rows(cells(result))
        #expect(mine.map(\.count) == published.map(\.count))
        for (row, expected) in zip(mine, published) {
            for (frame, photo) in zip(row, expected) {
                #expect(abs(frame.width - photo.width) <= 0.0005 && abs(frame.height - photo.height) <= 0.0005,
                        "\(frame) vs \(photo)")
            }
        }
    }
}

extension JustifiedLayout {
    /// The `Statistics` of the layout of `sections`, keeping no element.
    func statistics(_ sections: [JustifiedSection], bounds: Size) throws -> Statistics {
        var statistics = Statistics()
        var counter = CountingSink()
        _ = try layout(sections, bounds: bounds, contentOffset: .zero, into: &counter, statistics: &statistics)
        return statistics
    }
}
