// Justified rows of equal height (Flickr, Google Photos, Apple Photos' aspect mode), as
// flickr/justified-layout lays them out, without its whole-pixel rounding, and with line
// breaks chosen for the whole section when asked.

/// How rows are broken.
public enum JustifiedBreaking: String, Sendable, CaseIterable {
    /// Flickr's rule, item by item: an item joins the row while the row's aspect ratio is below
    /// the tolerance band; past the band it joins only when that lands the row closer to the
    /// target aspect ratio, and the row closes.
    case greedy
    /// The breaks that minimise Σ over rows of n·(h − target)² (n items, h the justified
    /// height), every row justified to the full width, the last included; rows only with
    /// heights in [target/2, 2·target] (a lone item always allowed).
    case optimal
}

/// How the last, incomplete row of the greedy rule (the widow row) is laid out.
public enum JustifiedWidowStyle: String, Sendable, CaseIterable {
    /// At the previous row's height (the target without one), from the leading edge.
    case left
    /// Justified to the full width, as the other rows.
    case justify
    /// At the previous row's height, centred.
    case center
}

/// Whose boxes the layout reproduces.
public enum JustifiedCompatibility: String, Sendable, CaseIterable {
    /// cvlayout's own rows: fractional points, every justified row exactly as wide as the
    /// width, widow rows that fit, optimal breaking on request.
    case native
    /// flickr/justified-layout 4.1.0's boxes for the same configuration, to the last bit of its
    /// arithmetic: its greedy rule, its 0.5×/2× clamps with cropping, its panorama and breakout
    /// rows, its widow row at the previous row's height (the target after a breakout row), its
    /// whole-pixel distribution of a justified row's width error, and its `containerHeight`.
    case flickr
}

/// A section of the justified layout: its items' aspect ratios and overrides.
public struct JustifiedSection: Sendable, Equatable {
    /// The items: `.heights` are aspect ratios (width ÷ height, > 0), `.sizes` give them as
    /// width ÷ height, `.uniform(count:)` is that many square items.
    public var items: SectionItems
    /// Overrides `JustifiedLayout.insets`.
    public var insets: EdgeInsets?
    /// Header height above the section, points (full width; 0 or `nil`: none).
    public var headerHeight: Double?
    /// Footer height below the section, points.
    public var footerHeight: Double?

    /// Creates a section.
    public init(items: SectionItems, insets: EdgeInsets? = nil, headerHeight: Double? = nil, footerHeight: Double? = nil) {
        self.items = items
        self.insets = insets
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
    }
}

/// Rows of items of one height each, every row filling the width (flickr/justified-layout's
/// `justifiedLayout`, its option names in parentheses). Points are fractional: a justified
/// row's last item ends exactly at `width − insets.right`.
///
/// Per section: the header, then `insets.top`; rows of items `spacing.horizontal` apart,
/// `spacing.vertical` between rows; then `insets.bottom` and the footer. Each row of items
/// with aspect ratios a₁…aₙ in the width `w` between the insets is `h = (w − (n−1)·H) / Σa`
/// tall, clamped to [target/2, 2·target] (a clamped row's items keep their width share,
/// their height is the clamp: cropped); item i is `aᵢ/Σa · (w − (n−1)·H)` wide.
/// Greedy breaking is Flickr's rule (`JustifiedBreaking.greedy`): with `n` items the row's
/// aspect ratio `Σa` is compared with the band `w/target · (1 ∓ tolerance)`; below it, the row
/// takes more; in it, the row closes; past it, the row keeps the item only when
/// `|Σa − (w − (n−1)·H)/target|` is no farther than without it (`(w − (n−2)·H)/target`
/// against the row without), and closes either way; a first item past the band (a panorama)
/// is a row of its own. Every `breakoutCadence`-th row whose first item is landscape (a ≥ 1)
/// holds that item alone at full width. Items left when the items run out form the widow
/// row (`widowStyle`): left or centred, at the previous row's height (the target after a
/// breakout row, as Flickr's), never wider than the width: shrunk to it when its natural
/// width would overflow.
///
/// On 390 points with the defaults (insets 10, spacing 10, target 320 ± 25 %) the width is
/// 370 and the band 0.867…1.445: items `[1.5, 1.5]` are two panoramas, rows of their own,
/// each 370 × 246.667; items `[0.75, 0.75]` make one row, (370 − 10)/1.5 = 240 tall, each item
/// 180 wide (x = 10 and 200).
public struct JustifiedLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "justified"

    /// Target row height, points (`targetRowHeight`), > 0. Default 320.
    public var targetRowHeight = 320.0
    /// How far a row's height may stray from the target, as a fraction (`targetRowHeightTolerance`),
    /// ≥ 0. Default 0.25.
    public var targetRowHeightTolerance = 0.25
    /// Insets of each section (`containerPadding`), points. Default 10 all round.
    public var insets = EdgeInsets(all: 10)
    /// Horizontal gap between items and vertical gap between rows (`boxSpacing`), points, as
    /// a size (width: horizontal, height: vertical). Default 10, 10.
    public var spacing = Size(width: 10, height: 10)
    /// At most this many rows per section (`maxNumRows`); `nil`: no limit. Items past them are
    /// left out. Default `nil`.
    public var maximumRowCount: Int? = nil
    /// Every item takes this aspect ratio instead of its own (`forceAspectRatio`). Default `nil`.
    public var forcedAspectRatio: Double? = nil
    /// Lay out the widow row (`showWidows`); false leaves its items out. Default `true`.
    public var showsWidows = true
    /// Every N-th row holds a lone landscape item at full width (`fullWidthBreakoutRowCadence`);
    /// `nil`: never. Greedy breaking only. Default `nil`.
    public var breakoutCadence: Int? = nil
    /// How the widow row is laid out (`widowLayoutStyle`). Default `.left`.
    public var widowStyle = JustifiedWidowStyle.left
    /// How rows are broken. Default `.greedy`. `compatibility == .flickr` always breaks greedily
    /// (the command line refuses it with `.optimal`).
    public var breaking = JustifiedBreaking.greedy
    /// Whose boxes: cvlayout's (`.native`) or flickr/justified-layout 4.1.0's (`.flickr`).
    /// Default `.native`.
    public var compatibility = JustifiedCompatibility.native

    /// Creates a layout with the defaults above.
    public init() {}

    /// What a layout's rows were like, for the `--stats` report. Heights in points.
    public struct Statistics: Equatable, Sendable {
        /// Rows laid out, in every section.
        public var rows = 0
        /// Items in the widow rows laid out (0 when there is none or it is hidden).
        public var widows = 0
        /// The lowest, mean (per row) and highest row height; 0 without rows.
        public var minimumRowHeight = 0.0, meanRowHeight = 0.0, maximumRowHeight = 0.0
        /// Σ over every row laid out of n·(h − target)².
        public var objective = 0.0

        /// The smallest and largest aspect ratio laid out in cvlayout's own boxes (∞ and 0
        /// without one): what `elementsAreFinite(in:statistics:scale:)` bounds widths by.
        var smallestRatio = Double.infinity, largestRatio = 0.0
        /// The largest |x| + |width| of a cell in Flickr's boxes (0 without one).
        var flickrReach = 0.0

        /// No rows yet: every figure 0.
        public init() {}
    }

    /// Lays out `sections` in a view of `bounds` size (the width is `containerWidth`).
    ///
    /// - Returns: element order section by section (header, cells, footer); `contentSize` is
    ///   the width by the last section's bottom (a section without rows is as tall as its
    ///   insets, header and footer).
    /// - Throws: `LayoutError.invalidParameter` for a target height ≤ 0, a negative
    ///   tolerance, negative or non-finite insets, spacing or bounds, a `maximumRowCount` or
    ///   `breakoutCadence` below 1, insets wider than the width, breakout rows with optimal
    ///   breaking; `.invalidItem` for an aspect ratio that is not finite and > 0.
    /// - Complexity: O(n) for greedy breaking; O(n·k) for optimal, k the most items a row of
    ///   height ≥ target/2 can hold (bounded for bounded aspect ratios).
    @_specialize(exported: true, where Sink == ElementBlocks)
    @_specialize(exported: true, where Sink == [LayoutAttributes])
    @_specialize(exported: true, where Sink == FiniteCheckSink)
    public func layout<Sink: LayoutAttributesSink>(_ sections: [JustifiedSection], bounds: Size, contentOffset: Point = .zero,
                                                    into sink: inout Sink) throws -> CollectionLayout {
        var statistics = Statistics()
        return try layout(sections, bounds: bounds, contentOffset: contentOffset, into: &sink, statistics: &statistics)
    }

    /// The statistics of the layout of `sections` (`Statistics`), without keeping an element.
    /// - Throws: as `layout(_:bounds:contentOffset:into:)`.
    /// - Complexity: that of the layout.
    public func statistics(_ sections: [JustifiedSection], bounds: Size) throws -> Statistics {
        var statistics = Statistics()
        var counter = CountingSink()
        _ = try layout(sections, bounds: bounds, contentOffset: .zero, into: &counter, statistics: &statistics)
        return statistics
    }

    // MARK: - Rows

    /// A row: items `start..<end`, its height, and the width its items take (the row width,
    /// or less for a left or centred widow row).
    struct Row: Equatable {
        var start: Int, end: Int
        var height: Double
        var itemsWidth: Double
        var isWidow = false
        /// Σa of its items, summed left to right from 0 (as `reduce(0, +)` would).
        var sum = 0.0
    }

    /// The justified height of `count` items whose aspect ratios sum to `sum` in `width`.
    @inline(__always)
    func justifiedHeight(sum: Double, count: Int, width: Double) -> Double {
        (width - Double(count - 1) * spacing.width) / sum
    }

    /// `height` clamped to [target/2, 2·target] (Flickr's edge-case bounds).
    @inline(__always)
    func clamped(_ height: Double) -> Double {
        min(max(height, targetRowHeight / 2), 2 * targetRowHeight)
    }

    /// Greedy rows (Flickr's rule) over `ratios` in `width`, one at a time: no row is kept, so
    /// the layout's memory does not grow with its rows.
    struct GreedyRows {
        let layout: JustifiedLayout
        let ratios: [Double]
        let width: Double
        /// The band of a row's Σa: `width/target · (1 ∓ tolerance)`.
        let minimum: Double, maximum: Double
        /// The settings read per item, unwrapped once: the row limit (`Int.max`: none), the
        /// breakout cadence (0: none), the horizontal spacing and the target.
        let rowLimit: Int, cadence: Int, spacing: Double, target: Double
        /// The next item, the first item of the open row and the open row's Σa.
        var i = 0, start = 0, sum = 0.0
        /// Rows given so far, and the height a widow row takes after the last: its height,
        /// or the target after a breakout row.
        var count = 0
        var lastHeight: Double? = nil
        var done = false

        init(_ layout: JustifiedLayout, _ ratios: [Double], width: Double) {
            self.layout = layout
            self.ratios = ratios
            self.width = width
            minimum = width / layout.targetRowHeight * (1 - layout.targetRowHeightTolerance)
            maximum = width / layout.targetRowHeight * (1 + layout.targetRowHeightTolerance)
            rowLimit = layout.maximumRowCount ?? .max
            cadence = layout.breakoutCadence ?? 0
            spacing = layout.spacing.width
            target = layout.targetRowHeight
        }

        /// The row of items `start..<end` whose ratios sum to `sum`, justified (clamped).
        private func justified(_ start: Int, _ end: Int, sum: Double) -> Row {
            Row(start: start, end: end, height: layout.clamped(layout.justifiedHeight(sum: sum, count: end - start, width: width)),
                itemsWidth: width, sum: sum)
        }

        private mutating func give(_ row: Row) -> Row {
            count += 1
            lastHeight = row.height
            return row
        }

        /// The next row, or `nil` after the last (the widow row, when shown, is the last).
        mutating func next() -> Row? {
            if done { return nil }
            while i < ratios.count {
                if count >= rowLimit {
                    done = true
                    return nil
                }
                let a = ratios[i]
                let n = i - start + 1
                if cadence > 0, n == 1, (count + 1) % cadence == 0, a >= 1 {
                    let row = Row(start: i, end: i + 1, height: layout.clamped(width / a), itemsWidth: width, sum: 0 + a)
                    start = i + 1
                    i += 1
                    let given = give(row)
                    lastHeight = target  // a widow row after a breakout row takes the target, as Flickr's does
                    return given
                }
                let newSum = sum + a
                if newSum < minimum {
                    sum = newSum
                    i += 1
                    continue
                }
                let row: Row
                if newSum > maximum && n > 1
                    && abs(newSum - (width - Double(n - 1) * spacing) / target)
                    > abs(sum - (width - Double(n - 2) * spacing) / target) {
                    row = justified(start, i, sum: sum)  // without it; it starts the next row
                    start = i
                } else {
                    // In the band; past it and closer with the item; or a first item past it
                    // (a panorama), a row of its own.
                    row = justified(start, i + 1, sum: newSum)
                    start = i + 1
                    i += 1
                }
                sum = 0
                return give(row)
            }
            done = true
            guard start < ratios.count, layout.showsWidows, count < rowLimit else {
                return nil
            }
            let n = ratios.count - start
            let natural = layout.justifiedHeight(sum: sum, count: n, width: width)
            switch layout.widowStyle {
            case .justify:
                return give(Row(start: start, end: ratios.count, height: layout.clamped(natural), itemsWidth: width,
                                isWidow: true, sum: sum))
            case .left, .center:
                // The previous row's height (the target without one, or after a breakout
                // row), shrunk to fit the width.
                var height = lastHeight ?? target
                if height > natural { height = natural }
                let itemsWidth = height * sum + Double(n - 1) * spacing
                return give(Row(start: start, end: ratios.count, height: height, itemsWidth: min(itemsWidth, width),
                                isWidow: true, sum: sum))
            }
        }
    }

    /// Optimal rows over `ratios` in `width`, as the end of each row (the first `maximumRowCount`
    /// rows): a dynamic program over suffixes, so that ties (costs within 1e-9 of each other,
    /// relative) go to fewer rows, then to the earliest first break, then the earliest second…
    /// Each start tries rows only down to target/2 tall (rows only get lower as they grow), so
    /// the work is O(n·k), k the most items such a row holds. Memory: the next break of each
    /// suffix (4 bytes an item), and the best cost and row count of the suffixes a row can reach
    /// (a ring of a power of two > 2w/(target · min a) + 2 slots, at most n + 1), so the working
    /// set stays in the cache whatever n for bounded aspect ratios; 4 bytes a row returned.
    ///
    /// Rows too tall for the band (two or more items above 2·target: tiny aspect ratios, no
    /// spacing) are skipped, after `skipAfter` of them, by a walk over sums of aligned blocks
    /// of 2ᵏ items (O(log n), sums of positive numbers, so nothing cancels): the work is the
    /// rows inside the band, whatever comes before it. Those are at most
    /// `optimalBandWork(items:)` in all, else `LayoutError.invalidParameter` for
    /// `breaking` (`.optimalBandRows`): the input cannot be broken optimally in linear time.
    func optimalRowEnds(_ ratios: [Double], width: Double) throws -> [Int32] {
        let n = ratios.count
        guard n > 0 else { return [] }
        precondition(n < Int(Int32.max), "at most 10,000,000 items")
        let target = targetRowHeight
        let lowest = target / 2, highest = 2 * target
        // Sums of aligned blocks, made when first needed: level k holds the sums of items
        // b·2ᵏ ..< (b + 1)·2ᵏ (the last block cut at n).
        var blocks: [[Double]] = []
        func makeBlocks() {
            blocks = [ratios]
            while blocks[blocks.count - 1].count > 1 {
                let below = blocks[blocks.count - 1]
                blocks.append((0..<(below.count + 1) / 2).map { b in
                    2 * b + 1 < below.count ? below[2 * b] + below[2 * b + 1] : below[2 * b]
                })
            }
        }
        var bandWork = 0
        let bandLimit = Self.optimalBandWork(items: n)
        var next = [Int32](repeating: Int32(n), count: n)
        // The ring: slot j & (capacity − 1) holds suffix j's best cost and row count, for the
        // suffixes j in (i, i + capacity] while start i is worked on. A row of c > 1 items at
        // least target/2 tall has Σa ≤ 2·(w − (c−1)·H)/target ≤ 2w/target, and Σa ≥ c·min a, so
        // c ≤ 2w/(target · min a): the ring holds that many and 2 more (rounding), or all n + 1.
        let smallest = ratios.min()!
        let reach = min(Double(n), (2 * width / (target * smallest)).rounded(.down)) + 3
        var capacity = 64
        while Double(capacity) < reach { capacity *= 2 }
        let cost = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        let count = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        defer {
            cost.deallocate()
            count.deallocate()
        }
        cost[n & (capacity - 1)] = 0
        count[n & (capacity - 1)] = 0
        try ratios.withUnsafeBufferPointer { ratios in
            try next.withUnsafeMutableBufferPointer { next in
                for i in stride(from: n - 1, through: 0, by: -1) {
                    var sum = 0.0
                    var j = i
                    var best = Double.infinity, bestRows: Int32 = 0, bestNext = Int32(n)
                    var tooTall = 0
                    while j < n {
                        if tooTall == Self.skipAfter {
                            // Many rows too tall: skip the rest of them at once. The height only
                            // falls as the row grows, so "too tall" holds up to some end.
                            if blocks.isEmpty { makeBlocks() }
                            var k = 0
                            while true {
                                while k + 1 < blocks.count && j % (2 << k) == 0 && j + (2 << k) <= n
                                        && justifiedHeight(sum: sum + blocks[k + 1][j >> (k + 1)], count: j + (2 << k) - i,
                                                           width: width) > highest {
                                    k += 1
                                }
                                if j + (1 << k) <= n,
                                   justifiedHeight(sum: sum + blocks[k][j >> k], count: j + (1 << k) - i, width: width) > highest {
                                    sum += blocks[k][j >> k]
                                    j += 1 << k
                                } else if k == 0 {
                                    break
                                } else {
                                    k -= 1
                                }
                            }
                            tooTall += 1
                            if j >= n { break }
                        }
                        sum += ratios[j]
                        j += 1
                        let items = j - i
                        let h = justifiedHeight(sum: sum, count: items, width: width)
                        // Rows of two or more items only within [target/2, 2·target]; a lone item
                        // always (so every suffix has a layout). The height only falls as the row
                        // grows.
                        if items > 1 && h < lowest { break }
                        if items > 1 && h > highest {
                            tooTall += 1
                            continue
                        }
                        if items > 1 {
                            bandWork += 1
                            if bandWork > bandLimit {
                                throw LayoutError.invalidParameter(name: "breaking", section: nil, value: Double(n),
                                                                   requirement: .optimalBandRows(atMost: bandLimit))
                            }
                        }
                        if items > capacity { break }  // unreachable: the ring holds every admissible row
                        let slot = j & (capacity - 1)
                        let deviation = h - target
                        let total = Double(items) * deviation * deviation + cost[slot]
                        let rows = 1 + count[slot]
                        let tie = best.isFinite && abs(total - best) <= 1e-9 * max(abs(total), abs(best))
                        // Candidates come with j increasing: on a tie of cost and rows the
                        // earlier j, already kept, wins.
                        if !best.isFinite || (!tie && total < best) || (tie && rows < bestRows) {
                            best = total
                            bestRows = rows
                            bestNext = Int32(j)
                        }
                    }
                    cost[i & (capacity - 1)] = best
                    count[i & (capacity - 1)] = bestRows
                    next[i] = bestNext
                }
            }
        }
        var ends: [Int32] = []
        ends.reserveCapacity(Int(count[0]))
        var i = 0
        while i < n {
            let j = Int(next[i])
            ends.append(Int32(j))
            if let maximumRowCount, ends.count >= maximumRowCount { break }
            i = j
        }
        return ends
    }

    /// Rows too tall for the band that a start walks through one by one before it skips the
    /// rest (`optimalRowEnds`).
    static let skipAfter = 32

    /// The most rows of two or more items inside the height band that optimal breaking of
    /// `items` items looks at in all: 256 a start and a million more. Rows of photos of
    /// ordinary aspect ratios stay far below it (a handful a start); millions of slivers of
    /// aspect 1e-6 on one row do not.
    public static func optimalBandWork(items: Int) -> Int { 256 * items + 1_000_000 }

    // MARK: - Layout

    /// The rows optimal breaking gives each section of `sections` in a view `bounds` wide, as
    /// the end (one past the last item) of each row, the first `maximumRowCount` rows: what
    /// `layout` computes before placing a row, for a caller that lays out the same sections
    /// twice (a check, then the writing) to pass as `rowEnds`. Empty lists under greedy
    /// breaking.
    /// - Throws: as `layout(_:bounds:contentOffset:into:)` for settings and aspect ratios.
    /// - Complexity: O(n·k), as optimal breaking in `layout`.
    public func optimalRowEnds(_ sections: [JustifiedSection], bounds: Size) throws -> [[Int32]] {
        try validate(bounds: bounds, sections: sections)
        guard breaking == .optimal && compatibility == .native else { return sections.map { _ in [] } }
        return try sections.enumerated().map { s, section in
            let insets = section.insets ?? self.insets
            return try optimalRowEnds(try aspectRatios(section.items, section: s), width: bounds.width - insets.left - insets.right)
        }
    }

    /// Lays out `sections` as `layout(_:bounds:contentOffset:into:)` does, and sets
    /// `statistics` to the rows' (the `--stats` report) in the same pass. `rowEnds`, when
    /// given, is `optimalRowEnds(sections, bounds: bounds)`, taken rather than computed again.
    /// - Throws: as `layout(_:bounds:contentOffset:into:)`.
    /// - Complexity: as `layout(_:bounds:contentOffset:into:)`; O(n) given `rowEnds`.
    @_specialize(exported: true, where Sink == ElementBlocks)
    @_specialize(exported: true, where Sink == [LayoutAttributes])
    @_specialize(exported: true, where Sink == FiniteCheckSink)
    @_specialize(exported: true, where Sink == CountingSink)
    public func layout<Sink: LayoutAttributesSink>(_ sections: [JustifiedSection], bounds: Size, contentOffset: Point,
                                                   into sink: inout Sink, statistics: inout Statistics,
                                                   rowEnds: [[Int32]]? = nil)
        throws -> CollectionLayout {
        try validate(bounds: bounds, sections: sections)
        var stats = Statistics()
        var heightSum = 0.0
        var y = 0.0
        var cellRanges: [(start: Int, count: Int)] = []
        sink.prepare(count: sections.reduce(0) { $0 + $1.items.count + 2 })
        for (s, section) in sections.enumerated() {
            let insets = section.insets ?? self.insets
            let width = bounds.width - insets.left - insets.right
            if let header = section.headerHeight, header > 0 {
                sink.append(.supplementaryView(ofKind: .header, at: IndexPath(item: 0, section: s),
                                               frame: Rect(x: 0, y: y, width: bounds.width, height: header)))
                y += header
            }
            let ratios = try aspectRatios(section.items, section: s)
            if compatibility == .flickr {
                let start = sink.count
                y = try flickrSection(ratios, section: s, insets: insets, ownInsets: section.insets != nil,
                                      containerWidth: bounds.width, top: y,
                                      into: &sink, statistics: &stats, heightSum: &heightSum)
                cellRanges.append((start: start, count: sink.count - start))
                if let footer = section.footerHeight, footer > 0 {
                    sink.append(.supplementaryView(ofKind: .footer, at: IndexPath(item: 0, section: s),
                                                   frame: Rect(x: 0, y: y, width: bounds.width, height: footer)))
                    y += footer
                }
                continue
            }
            y += insets.top
            for a in ratios {
                stats.smallestRatio = min(stats.smallestRatio, a)
                stats.largestRatio = max(stats.largestRatio, a)
            }
            // Greedy rows one at a time; optimal ones as their ends (4 bytes a row), each justified.
            let optimal = breaking == .optimal
            var greedy = optimal ? nil : GreedyRows(self, ratios, width: width)
            let ends = optimal ? try rowEnds?[s] ?? optimalRowEnds(ratios, width: width) : []
            let firstCell = sink.count
            var laidOut = 0
            var r = 0
            while true {
                let row: Row
                let sum: Double
                if optimal {
                    guard r < ends.count else { break }
                    let start = r == 0 ? 0 : Int(ends[r - 1]), end = Int(ends[r])
                    sum = ratios[start..<end].reduce(0, +)
                    row = Row(start: start, end: end, height: justifiedHeight(sum: sum, count: end - start, width: width),
                              itemsWidth: width)
                } else {
                    guard let next = greedy!.next() else { break }
                    row = next
                    sum = row.sum
                }
                defer { r += 1 }
                laidOut = row.end
                if r > 0 { y += spacing.height }
                let n = row.end - row.start
                // Widths: a justified row shares the width; a left or centred widow row is its
                // items at their own aspect ratio (the sum of which fits).
                let share = row.isWidow && widowStyle != .justify
                    ? row.height : (width - Double(n - 1) * spacing.width) / sum
                var x = insets.left + (row.isWidow && widowStyle == .center ? (width - row.itemsWidth) / 2 : 0)
                let lastEdge = insets.left + width
                for k in row.start..<row.end {
                    var w = ratios[k] * share
                    if k == row.end - 1 && !(row.isWidow && widowStyle != .justify) { w = lastEdge - x }  // exactly to the edge
                    sink.append(.cell(IndexPath(item: k, section: s), frame: Rect(x: x, y: y, width: w, height: row.height)))
                    x += w + spacing.width
                }
                y += row.height
                stats.rows += 1
                heightSum += row.height
                let deviation = row.height - targetRowHeight
                stats.objective += Double(n) * deviation * deviation
                stats.minimumRowHeight = stats.rows == 1 ? row.height : min(stats.minimumRowHeight, row.height)
                stats.maximumRowHeight = max(stats.maximumRowHeight, row.height)
                if row.isWidow { stats.widows += n }
            }
            cellRanges.append((start: firstCell, count: laidOut))
            y += insets.bottom
            if let footer = section.footerHeight, footer > 0 {
                sink.append(.supplementaryView(ofKind: .footer, at: IndexPath(item: 0, section: s),
                                               frame: Rect(x: 0, y: y, width: bounds.width, height: footer)))
                y += footer
            }
        }
        stats.meanRowHeight = stats.rows > 0 ? heightSum / Double(stats.rows) : 0
        statistics = stats
        return CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset,
                                contentSize: Size(width: bounds.width, height: y), elements: [], cellRanges: cellRanges)
    }

    /// Each item's aspect ratio: its own, or `forcedAspectRatio`.
    func aspectRatios(_ items: SectionItems, section: Int) throws -> [Double] {
        if let forcedAspectRatio { return Array(repeating: forcedAspectRatio, count: items.count) }
        switch items {
        case .uniform(let n): return Array(repeating: 1, count: n)
        case .heights(let ratios):
            for (i, a) in ratios.enumerated() where !(a.isFinite && a > 0) {
                throw LayoutError.invalidItem(IndexPath(item: i, section: section), .aspectRatio)
            }
            return ratios
        case .randomHeights(let ratios):
            for (i, a) in ratios.enumerated() where !(a.isFinite && a > 0) {
                throw LayoutError.invalidItem(IndexPath(item: i, section: section), .aspectRatio)
            }
            return Array(ratios)
        case .mixed(let measures):
            throw LayoutError.invalidItem(IndexPath(item: measures.indices.first ?? 0, section: section), .aspectRatio)
        case .sizes(let sizes):
            return try sizes.enumerated().map { i, size in
                let a = size.width / size.height
                guard a.isFinite, a > 0 else { throw LayoutError.invalidItem(IndexPath(item: i, section: section), .aspectRatio) }
                return a
            }
        }
    }

    private func validate(bounds: Size, sections: [JustifiedSection]) throws {
        func require(_ name: String, _ value: Double, _ requirement: LayoutError.Requirement, section: Int? = nil) throws {
            let ok: Bool
            switch requirement {
            case .finitePositive: ok = value.isFinite && value > 0
            default: ok = value.isFinite && value >= 0
            }
            if !ok { throw LayoutError.invalidParameter(name: name, section: section, value: value, requirement: requirement) }
        }
        try require("width", bounds.width, .finiteNonNegative)
        try require("height", bounds.height, .finiteNonNegative)
        try require("row-height", targetRowHeight, .finitePositive)
        try require("row-height-tolerance", targetRowHeightTolerance, .finiteNonNegative)
        try require("spacing", spacing.width, .finiteNonNegative)
        try require("spacing", spacing.height, .finiteNonNegative)
        if let forcedAspectRatio { try require("force-aspect-ratio", forcedAspectRatio, .finitePositive) }
        if let maximumRowCount, maximumRowCount < 1 {
            throw LayoutError.invalidParameter(name: "max-rows", section: nil, value: Double(maximumRowCount),
                                               requirement: .integer(atLeast: 1))
        }
        if let breakoutCadence, breakoutCadence < 1 {
            throw LayoutError.invalidParameter(name: "breakout-cadence", section: nil, value: Double(breakoutCadence),
                                               requirement: .integer(atLeast: 1))
        }
        let allInsets: [(Int?, EdgeInsets)] = [(nil, insets)]
            + sections.enumerated().compactMap { s, section in section.insets.map { (s, $0) } }
        for (s, section) in allInsets {
            for v in [section.top, section.left, section.bottom, section.right] {
                try require("insets", v, .finiteNonNegative, section: s)
            }
            let left = bounds.width - section.left - section.right
            if left < 0 {
                throw LayoutError.invalidParameter(name: "insets", section: s, value: left, requirement: .lineLengthBetweenInsets)
            }
        }
        for (s, section) in sections.enumerated() {
            if let h = section.headerHeight { try require("header", h, .finiteNonNegative, section: s) }
            if let h = section.footerHeight { try require("footer", h, .finiteNonNegative, section: s) }
        }
    }
}
