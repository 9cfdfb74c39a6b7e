// Justified rows of equal height (Flickr, Google Photos), as flickr/justified-layout lays
// them out, without its whole-pixel rounding; optionally with optimal line breaks.

/// How rows are broken.
public enum JustifiedBreaking: String, Sendable, CaseIterable {
    /// Flickr's rule, item by item (see `JustifiedLayout`).
    case greedy
    /// The breaks minimising Σ n·(h − target)² over rows (n items, h the justified height),
    /// every row justified, heights in [target/2, 2·target] (a lone item always allowed).
    case optimal
}

/// How the greedy rule's last, incomplete row (the widow row) is laid out.
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
    /// cvlayout's rows: fractional points, exact-width justified rows, fitting widows, optimal breaking.
    case native
    /// flickr/justified-layout 4.1.0's boxes, to the last bit of its arithmetic (clamps,
    /// panoramas, breakout and widow rows, whole-pixel error distribution, `containerHeight`).
    case flickr
}

/// A section of the justified layout: its items' aspect ratios and overrides.
public struct JustifiedSection: Sendable, Equatable {
    /// Aspect ratios (width ÷ height, > 0) as `.heights`, or `.sizes`; `.uniform`: squares.
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
/// `justifiedLayout`; its option names in parentheses). Points are fractional.
///
/// Per section: header, `insets.top`, rows (`spacing` H between items, V between rows),
/// `insets.bottom`, footer. A row of aspect ratios a₁…aₙ in the width `w` between the insets
/// is `h = (w − (n−1)·H) / Σa` tall, clamped to [target/2, 2·target] (cropped); item i is
/// `aᵢ/Σa · (w − (n−1)·H)` wide. Greedy breaking (Flickr's): Σa below the band
/// `w/target · (1 ∓ tolerance)` takes more; in it, the row closes; past it, the item stays
/// only when `|Σa − (w − (n−1)·H)/target|` is no farther than without it, and the row closes;
/// a first item past the band (a panorama) is a row of its own. Every `breakoutCadence`-th
/// row whose first item is landscape (a ≥ 1) holds it alone. The widow row (`widowStyle`)
/// takes the previous row's height (the target after a breakout row), shrunk to fit.
public struct JustifiedLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "justified"

    /// Target row height, points (`targetRowHeight`), > 0. Default 320.
    public var targetRowHeight = 320.0
    /// Fraction a row's height may stray from the target (`targetRowHeightTolerance`). Default 0.25.
    public var targetRowHeightTolerance = 0.25
    /// Insets of each section (`containerPadding`), points. Default 10 all round.
    public var insets = EdgeInsets(all: 10)
    /// Gap between items (width) and between rows (height), points (`boxSpacing`). Default 10, 10.
    public var spacing = Size(width: 10, height: 10)
    /// At most this many rows per section (`maxNumRows`), later items left out. Default `nil`.
    public var maximumRowCount: Int? = nil
    /// Every item takes this aspect ratio instead of its own (`forceAspectRatio`). Default `nil`.
    public var forcedAspectRatio: Double? = nil
    /// Lay out the widow row (`showWidows`); false leaves its items out. Default `true`.
    public var showsWidows = true
    /// Every N-th row holds a lone landscape item (`fullWidthBreakoutRowCadence`, greedy). Default `nil`.
    public var breakoutCadence: Int? = nil
    /// How the widow row is laid out (`widowLayoutStyle`). Default `.left`.
    public var widowStyle = JustifiedWidowStyle.left
    /// How rows are broken. Default `.greedy` (always, under `.flickr`).
    public var breaking = JustifiedBreaking.greedy
    /// Whose boxes. Default `.native`.
    public var compatibility = JustifiedCompatibility.native

    /// Creates a layout with the defaults above.
    public init() {}

    /// The rows' figures for `--stats`. Heights in points.
    public struct Statistics: Equatable, Sendable {
        /// Rows laid out, in every section.
        public var rows = 0
        /// Items in the widow rows laid out.
        public var widows = 0
        /// The lowest, mean (per row) and highest row height; 0 without rows.
        public var minimumRowHeight = 0.0, meanRowHeight = 0.0, maximumRowHeight = 0.0
        /// Σ over every row laid out of n·(h − target)².
        public var objective = 0.0

        /// What `elementsAreFinite(in:statistics:scale:)` bounds by.
        var smallestRatio = Double.infinity, largestRatio = 0.0
        var flickrReach = 0.0

        /// No rows yet: every figure 0.
        public init() {}

        mutating func add(row height: Double, items n: Int, widow: Bool, target: Double, heightSum: inout Double) {
            rows += 1
            heightSum += height
            let deviation = height - target
            objective += Double(n) * deviation * deviation
            minimumRowHeight = rows == 1 ? height : min(minimumRowHeight, height)
            maximumRowHeight = max(maximumRowHeight, height)
            if widow { widows += n }
        }
    }

    /// Lays out `sections` in a view of `bounds` size (the width is `containerWidth`);
    /// `contentSize` is the width by the last section's bottom.
    /// - Throws: `LayoutError.invalidParameter` for a target ≤ 0, a negative or non-finite
    ///   setting or bound, a row limit or cadence below 1, insets wider than the width;
    ///   `.invalidItem` for an aspect ratio not finite and > 0.
    /// - Complexity: O(n) greedy; O(n·k) optimal, k the most items a row ≥ target/2 holds.
    public func layout<Sink: LayoutAttributesSink>(_ sections: [JustifiedSection], bounds: Size, contentOffset: Point = .zero,
                                                    into sink: inout Sink) throws -> CollectionLayout {
        var statistics = Statistics()
        return try layout(sections, bounds: bounds, contentOffset: contentOffset, into: &sink, statistics: &statistics)
    }

    /// `natural`: the height before the clamp; `itemsWidth`: less than the width in a widow row.
    struct Row: Equatable {
        var start: Int, end: Int
        var height: Double
        var natural = 0.0
        var itemsWidth: Double
        var isWidow = false
        /// Σa, summed left to right from 0 (as `reduce(0, +)` would).
        var sum = 0.0
    }

    @inline(__always)
    func justifiedHeight(sum: Double, count: Int, width: Double) -> Double {
        (width - Double(count - 1) * spacing.width) / sum
    }

    /// To [target/2, 2·target] (Flickr's edge-case bounds).
    @inline(__always)
    func clamped(_ height: Double) -> Double {
        min(max(height, targetRowHeight / 2), 2 * targetRowHeight)
    }

    /// Flickr's greedy rows, one at a time (none kept).
    struct GreedyRows {
        let layout: JustifiedLayout
        let ratios: [Double]
        let width: Double
        /// The band of a row's Σa: `width/target · (1 ∓ tolerance)`.
        let minimum: Double, maximum: Double
        /// Unwrapped once (`Int.max`, 0: none).
        let rowLimit: Int, cadence: Int, spacing: Double, target: Double
        /// The next item, the open row's first item and Σa.
        var i = 0, start = 0, sum = 0.0
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

        private func justified(_ start: Int, _ end: Int, sum: Double) -> Row {
            let natural = layout.justifiedHeight(sum: sum, count: end - start, width: width)
            return Row(start: start, end: end, height: layout.clamped(natural), natural: natural, itemsWidth: width, sum: sum)
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
                    defer { lastHeight = target }  // after give: a widow row after a breakout row takes the target
                    let row = Row(start: i, end: i + 1, height: layout.clamped(width / a), natural: width / a, itemsWidth: width,
                                  sum: 0 + a)
                    start = i + 1
                    i += 1
                    return give(row)
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
                var height = lastHeight ?? target
                if height > natural { height = natural }
                let itemsWidth = height * sum + Double(n - 1) * spacing
                return give(Row(start: start, end: ratios.count, height: height, itemsWidth: min(itemsWidth, width),
                                isWidow: true, sum: sum))
            }
        }
    }

    /// Optimal rows over `ratios` in `width`, as each row's end (the first `maximumRowCount`):
    /// a dynamic program over suffixes; ties (within 1e-9, relative) go to fewer rows, then
    /// the earliest breaks. Each start tries rows down to target/2 tall: O(n·k). Memory: 4
    /// bytes an item, and a ring of the suffix costs a row can reach (> 2w/(target · min a)
    /// + 2 slots). Rows too tall for the band are skipped, after `skipAfter` of them, by a walk
    /// over sums of aligned blocks of 2ᵏ items (O(log n)).
    /// - Throws: `LayoutError.invalidParameter` (`.optimalBandRows`) past
    ///   `optimalBandWork(items:)` rows inside the band.
    func optimalRowEnds(_ ratios: [Double], width: Double) throws -> [Int32] {
        let n = ratios.count
        guard n > 0 else { return [] }
        precondition(n < Int(Int32.max), "at most 10,000,000 items")
        let target = targetRowHeight
        let lowest = target / 2, highest = 2 * target
        // Level k: the sums of items b·2ᵏ ..< (b + 1)·2ᵏ (the last cut at n); made when needed.
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
        // The ring: slot j & (capacity − 1) holds suffix j's best cost and row count. A row of
        // c > 1 items ≥ target/2 tall has c·min a ≤ Σa ≤ 2w/target: c ≤ 2w/(target · min a).
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
                            // Skip the rest of the too-tall rows at once (heights fall as rows grow).
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
                        // Rows of 2+ items only within [target/2, 2·target]; a lone item always.
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
                        // j increases: on a tie of cost and rows the earlier j, kept, wins.
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
            ends.append(next[i])
            if let maximumRowCount, ends.count >= maximumRowCount { break }
            i = Int(next[i])
        }
        return ends
    }

    /// Too-tall rows a start walks one by one before skipping the rest.
    static let skipAfter = 32

    /// The most rows of 2+ items inside the height band optimal breaking of `items` items
    /// looks at: 256 a start and a million more (photos need a handful a start).
    public static func optimalBandWork(items: Int) -> Int { 256 * items + 1_000_000 }

    /// Each section's optimal row ends (one past each row's last item), for a caller that lays
    /// out the same sections twice to pass as `rowEnds`; empty lists under greedy breaking.
    /// - Throws: as `layout`. - Complexity: O(n·k).
    public func optimalRowEnds(_ sections: [JustifiedSection], bounds: Size) throws -> [[Int32]] {
        try validate(bounds: bounds, sections: sections)
        guard breaking == .optimal && compatibility == .native else { return sections.map { _ in [] } }
        return try sections.enumerated().map { s, section in
            let insets = section.insets ?? self.insets
            return try optimalRowEnds(try aspectRatios(section.items, section: s), width: bounds.width - insets.left - insets.right)
        }
    }

    /// `layout(_:bounds:contentOffset:into:)`, also setting `statistics`; `rowEnds`, when
    /// given, is `optimalRowEnds(sections, bounds:)`. - Complexity: O(n) given `rowEnds`.
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
        func supplementary(_ kind: ElementKind, _ height: Double?, section s: Int) {
            guard let height, height > 0 else { return }
            sink.append(.supplementaryView(ofKind: kind, at: IndexPath(item: 0, section: s),
                                           frame: Rect(x: 0, y: y, width: bounds.width, height: height)))
            y += height
        }
        for (s, section) in sections.enumerated() {
            let insets = section.insets ?? self.insets
            let width = bounds.width - insets.left - insets.right
            supplementary(.header, section.headerHeight, section: s)
            let ratios = try aspectRatios(section.items, section: s)
            let firstCell = sink.count
            defer {
                cellRanges.append((start: firstCell, count: sink.count - firstCell))
                supplementary(.footer, section.footerHeight, section: s)
            }
            if compatibility == .flickr {
                y = try flickrSection(ratios, section: s, insets: insets, ownInsets: section.insets != nil,
                                      containerWidth: bounds.width, top: y,
                                      into: &sink, statistics: &stats, heightSum: &heightSum)
                continue
            }
            y += insets.top
            stats.smallestRatio = min(stats.smallestRatio, ratios.min() ?? .infinity)
            stats.largestRatio = max(stats.largestRatio, ratios.max() ?? 0)
            // Greedy rows one at a time; optimal ones as their ends (4 bytes a row), each justified.
            let optimal = breaking == .optimal
            var greedy = optimal ? nil : GreedyRows(self, ratios, width: width)
            let ends = optimal ? try rowEnds?[s] ?? optimalRowEnds(ratios, width: width) : []
            var r = 0
            while true {
                let row: Row
                if optimal {
                    guard r < ends.count else { break }
                    let start = r == 0 ? 0 : Int(ends[r - 1]), end = Int(ends[r])
                    let sum = ratios[start..<end].reduce(0, +)
                    row = Row(start: start, end: end, height: justifiedHeight(sum: sum, count: end - start, width: width),
                              itemsWidth: width, sum: sum)
                } else {
                    guard let next = greedy!.next() else { break }
                    row = next
                }
                defer { r += 1 }
                if r > 0 { y += spacing.height }
                let n = row.end - row.start
                // A justified row shares the width; a left or centred widow row takes its height.
                let share = row.isWidow && widowStyle != .justify
                    ? row.height : (width - Double(n - 1) * spacing.width) / row.sum
                var x = insets.left + (row.isWidow && widowStyle == .center ? (width - row.itemsWidth) / 2 : 0)
                let lastEdge = insets.left + width
                for k in row.start..<row.end {
                    var w = ratios[k] * share
                    if k == row.end - 1 && !(row.isWidow && widowStyle != .justify) { w = lastEdge - x }  // exactly to the edge
                    sink.append(.cell(IndexPath(item: k, section: s), frame: Rect(x: x, y: y, width: w, height: row.height)))
                    x += w + spacing.width
                }
                y += row.height
                stats.add(row: row.height, items: n, widow: row.isWidow, target: targetRowHeight, heightSum: &heightSum)
            }
            y += insets.bottom
        }
        stats.meanRowHeight = stats.rows > 0 ? heightSum / Double(stats.rows) : 0
        statistics = stats
        return CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset,
                                contentSize: Size(width: bounds.width, height: y), elements: [], cellRanges: cellRanges)
    }

    func aspectRatios(_ items: SectionItems, section: Int) throws -> [Double] {
        if let forcedAspectRatio { return Array(repeating: forcedAspectRatio, count: items.count) }
        switch items {
        case .uniform(let n): return Array(repeating: 1, count: n)
        case .heights(let ratios): return try checked(ratios, section: section)
        case .randomHeights(let ratios): return try checked(Array(ratios), section: section)
        case .mixed:
            throw LayoutError.invalidItem(IndexPath(item: 0, section: section), .aspectRatio)
        case .sizes(let sizes): return try checked(sizes.map { $0.width / $0.height }, section: section)
        }
    }

    private func checked(_ ratios: [Double], section: Int) throws -> [Double] {
        for (i, a) in ratios.enumerated() where !(a.isFinite && a > 0) {
            throw LayoutError.invalidItem(IndexPath(item: i, section: section), .aspectRatio)
        }
        return ratios
    }

    private func validate(bounds: Size, sections: [JustifiedSection]) throws {
        try requireFiniteNonNegative(["width": bounds.width, "height": bounds.height])
        try requireFinite("row-height", targetRowHeight, positive: true)
        try requireFiniteNonNegative(["row-height-tolerance": targetRowHeightTolerance, "spacing": spacing.width,
                                      "spacing": spacing.height])
        try requireFinite("force-aspect-ratio", forcedAspectRatio, positive: true)
        try require("max-rows", maximumRowCount, atLeast: 1)
        try require("breakout-cadence", breakoutCadence, atLeast: 1)
        let allInsets: [(Int?, EdgeInsets)] = [(nil, insets)]
            + sections.enumerated().compactMap { s, section in section.insets.map { (s, $0) } }
        for (s, section) in allInsets {
            try requireFinite("insets", insets: section, section: s)
            let left = bounds.width - section.left - section.right
            try require(!(left < 0), "insets", left, .lineLengthBetweenInsets, section: s)
        }
        for (s, section) in sections.enumerated() {
            try requireFinite("header", section.headerHeight, section: s)
            try requireFinite("footer", section.footerHeight, section: s)
        }
    }
}
