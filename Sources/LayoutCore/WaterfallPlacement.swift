// Where a waterfall's next item goes: one section's column geometry (`Placement`), the
// shortest-column rule written once (`lowestColumnWithinTolerance`), and the column
// heights behind it (WaterfallLayout.swift holds the engine).

/// One section's column geometry: where an item of a given height goes.
struct Placement {
    let section: Int
    let columnCount: Int
    let order: WaterfallOrder
    let tolerance: Double
    let left: Double
    let columnWidth: Double
    let columnSpacing: Double
    let itemSpacing: Double
    /// The height of `.uniform` items.
    let itemHeight: Double

    /// Places every item of `section` from `top`, sends them to `sink` in item order and
    /// returns the section's bottom before its inset: the tallest column's last maxY, or
    /// `top` without items.
    @inline(__always)
    func placeItems<Sink: LayoutAttributesSink>(of section: WaterfallSection, spanning: Bool, top: Double,
                                                into sink: inout Sink) throws -> Double {
        let itemCount = section.items.count
        if spanning {
            return try placeSpanning(section.items, spans: section.spans ?? [], top: top, into: &sink)
        }
        // Only the first min(n, items) columns can receive items (with fewer items than
        // columns, an untouched column is always the shortest and the lowest-index one),
        // so a slot per such column: the column itself, or n − 1 − column right to left.
        let slots = min(columnCount, itemCount)
        let columns = ColumnHeights(count: slots, top: top)
        // The kinds of `items` are told apart once per section, not once per item.
        switch section.items {
        case .heights(let heights):
            try heights.withUnsafeBufferPointer { heights in
                if order == .shortestFirst && (slots == 2 || slots == 3) {
                    try placeShortestFirst(heights, in: columns, into: &sink)
                } else {
                    for item in 0..<itemCount { try place(heights[item], item: item, in: columns, into: &sink) }
                }
            }
        case .sizes(let sizes):
            for item in 0..<itemCount {
                try place(try height(of: sizes[item], item: item, atWidth: columnWidth), item: item, in: columns, into: &sink)
            }
        case .randomHeights(let heights):
            if order == .shortestFirst && (slots == 2 || slots == 3) {
                try placeShortestFirst(heights, in: columns, into: &sink)
            } else {
                for item in 0..<itemCount { try place(heights[item], item: item, in: columns, into: &sink) }
            }
        case .uniform:
            for item in 0..<itemCount { try place(itemHeight, item: item, in: columns, into: &sink) }
        case .mixed(let measures):
            for item in 0..<itemCount {
                try place(try height(of: measures[item], item: item, atWidth: columnWidth), item: item, in: columns, into: &sink)
            }
        }
        // The tallest column's last maxY (no trailing spacing); `top` when empty.
        return columns.tallestBottom ?? top
    }

    /// A size's height scaled to `width`, checked.
    @inline(__always)
    func height(of size: Size, item: Int, atWidth width: Double) throws -> Double {
        guard size.width > 0, size.width.isFinite, size.height >= 0, size.height.isFinite else {
            throw LayoutError.invalidItem(IndexPath(item: item, section: section),
                                          .sizeNeedsPositiveWidth)
        }
        let height = WaterfallLayout.height(of: size, atColumnWidth: width)
        guard height.isFinite else {
            throw LayoutError.invalidItem(IndexPath(item: item, section: section),
                                          .scaledHeightNotFinite)
        }
        return height
    }

    /// A measure's height at `width` (a height as it is; it is checked when placed).
    @inline(__always)
    func height(of measure: ItemMeasure, item: Int, atWidth width: Double) throws -> Double {
        switch measure {
        case .height(let h): h
        case .size(let size): try height(of: size, item: item, atWidth: width)
        }
    }

    /// The placement of a section some of whose items span several columns (a slower path
    /// than `place`, taken only then). Every column's height is kept. An item of span `k`
    /// (`WaterfallSection.fullSpan`: every column) is `k·w + (k−1)·columnSpacing` wide, a
    /// size scaled to that width; it goes to the window of `k` adjacent columns whose
    /// tallest column is lowest (the leftmost within `tolerance` of the lowest), at that
    /// tallest height, and all `k` columns end at its maxY (plus the item spacing). A span-1
    /// item under `.shortestFirst` follows the same rule, which is `place`'s. Round-robin
    /// orders place span-1 items at a cursor that starts at the first column in their
    /// direction and moves one column on; a spanning item takes its window by the rule and
    /// the cursor continues after it: the column after its last (left to right) or before
    /// its first (right to left), wrapping.
    /// - Complexity: O(items × n).
    func placeSpanning<Sink: LayoutAttributesSink>(_ items: SectionItems, spans: [Int], top: Double,
                                                   into sink: inout Sink) throws -> Double {
        let n = columnCount
        let count = items.count
        guard count > 0 else { return top }
        // Raw storage (n ≤ maximumSpanningColumns), not captured arrays: the nested function
        // below would box them and check exclusive access on every use.
        let storage = UnsafeMutablePointer<Double>.allocate(capacity: 3 * n)
        defer { storage.deallocate() }
        let next = storage, bottoms = storage + n, windowMaxima = storage + 2 * n  // next: where each column's next item goes
        next.initialize(repeating: top, count: n)
        bottoms.initialize(repeating: top, count: n)  // each column's last maxY
        windowMaxima.initialize(repeating: 0, count: n)
        let queue = UnsafeMutablePointer<Int>.allocate(capacity: n)
        defer { queue.deallocate() }
        queue.initialize(repeating: 0, count: n)
        let step = columnWidth + columnSpacing
        // The kinds of `items` are told apart once, not once per item: `measure(item, width)`
        // is the item's height at its width.
        @inline(__always)
        func run(_ measure: (Int, Double) throws -> Double) throws {
            var cursor = order == .rightToLeft ? n - 1 : 0
            // Runs of span-1 items, shortest first in up to 3 columns (most items of a feed),
            // go through `placeShortestFirst`'s loop: the columns in registers, the column
            // computed rather than branched on, the same arithmetic.
            let runs = order == .shortestFirst && n <= 3
            func x(_ column: Int) -> Double { left + Double(column) * step }
            func width(_ column: Int) -> Double {
                max(0, min(columnWidth, left + Double(column + 1) * step - columnSpacing - x(column)))
            }
            let x0 = x(0), x1 = n > 1 ? x(1) : 0, x2 = n > 2 ? x(2) : 0
            let w0 = width(0), w1 = n > 1 ? width(1) : 0, w2 = n > 2 ? width(2) : 0
            try spans.withUnsafeBufferPointer { spans in
            var item = 0
            while item < count {
                if runs && (item >= spans.count || spans[item] == 1) {
                    var columns = ShortestOfThree(
                        h0: next[0], h1: n > 1 ? next[1] : .infinity, h2: n > 2 ? next[2] : .infinity,
                        b0: bottoms[0], b1: n > 1 ? bottoms[1] : 0, b2: n > 2 ? bottoms[2] : 0,
                        x0: x0, x1: x1, x2: x2, w0: w0, w1: w1, w2: w2, tolerance: tolerance, itemSpacing: itemSpacing)
                    repeat {
                        let height = try measure(item, columnWidth)
                        guard height >= 0, height.isFinite else {
                            throw LayoutError.invalidItem(IndexPath(item: item, section: section),
                                                          .height)
                        }
                        sink.append(.cell(IndexPath(item: item, section: section), frame: columns.place(height: height)))
                        item += 1
                    } while item < count && (item >= spans.count || spans[item] == 1)
                    next[0] = columns.h0
                    bottoms[0] = columns.b0
                    if n > 1 {
                        next[1] = columns.h1
                        bottoms[1] = columns.b1
                    }
                    if n > 2 {
                        next[2] = columns.h2
                        bottoms[2] = columns.b2
                    }
                    continue
                }
                defer { item += 1 }
                let span = item < spans.count ? spans[item] : 1
                let k = span == WaterfallSection.fullSpan ? n : span
                guard k >= 1, k <= n else {
                    throw LayoutError.spanTooWide(section: section, item: item, span: span, columns: n, columnsOfSection: true)
                }
                let spanWidth = Double(k) * columnWidth + Double(k - 1) * columnSpacing
                let height = try measure(item, spanWidth)
                guard height >= 0, height.isFinite else {
                    throw LayoutError.invalidItem(IndexPath(item: item, section: section),
                                                  .height)
                }
                let start: Int, y: Double
                if k == 1 && order != .shortestFirst {
                    start = cursor
                    y = next[start]
                } else if k == 1 {
                    start = lowestColumnWithinTolerance(count: n, tolerance: tolerance) { next[$0] }
                    y = next[start]
                } else {
                    Self.windowMaxima(of: next, count: n, window: k, into: windowMaxima, queue: queue)
                    // The window whose tallest column is lowest, as a column is chosen.
                    start = lowestColumnWithinTolerance(count: n - k + 1, tolerance: tolerance) { windowMaxima[$0] }
                    y = windowMaxima[start]
                }
                switch order {
                case .shortestFirst: break
                case .leftToRight: cursor = (start + k) % n
                case .rightToLeft: cursor = (start - 1 + n) % n
                }
                let x = left + Double(start) * step
                let width = max(0, min(spanWidth, left + Double(start + k) * step - columnSpacing - x))
                sink.append(.cell(IndexPath(item: item, section: section), frame: Rect(x: x, y: y, width: width, height: height)))
                let bottom = y + height
                for c in start..<(start + k) {
                    bottoms[c] = bottom
                    next[c] = bottom + itemSpacing
                }
            }
            }
        }
        switch items {
        case .heights(let heights): try heights.withUnsafeBufferPointer { heights in try run { item, _ in heights[item] } }
        case .sizes(let sizes): try run { item, width in try self.height(of: sizes[item], item: item, atWidth: width) }
        case .randomHeights(let heights): try run { item, _ in heights[item] }
        case .uniform: try run { _, _ in itemHeight }
        case .mixed(let measures): try run { item, width in try self.height(of: measures[item], item: item, atWidth: width) }
        }
        var tallest = bottoms[0]
        for c in 1..<n where bottoms[c] > tallest { tallest = bottoms[c] }
        return tallest
    }

    /// The tallest of `heights[s..<s + k]` for every window start `s` in `0...(n − k)`, into
    /// `maxima[s]`: for few columns (n ≤ 8) each window looked at directly, otherwise by a
    /// monotonic queue (`queue`, n slots) of column indices whose heights decrease.
    /// - Complexity: O(n·k) for n ≤ 8, O(n) otherwise.
    @inline(__always)
    private static func windowMaxima(of heights: UnsafeMutablePointer<Double>, count n: Int, window k: Int,
                                     into maxima: UnsafeMutablePointer<Double>, queue: UnsafeMutablePointer<Int>) {
        if n <= 8 {
            for s in 0...(n - k) {
                var tallest = heights[s]
                for c in (s + 1)..<(s + k) where heights[c] > tallest { tallest = heights[c] }
                maxima[s] = tallest
            }
        } else {
            var head = 0, tail = 0
            for c in 0..<n {
                while tail > head && heights[queue[tail - 1]] <= heights[c] { tail -= 1 }
                queue[tail] = c
                tail += 1
                if queue[head] <= c - k { head += 1 }
                if c >= k - 1 { maxima[c - k + 1] = heights[queue[head]] }
            }
        }
    }

    // MARK: - Placement

    /// Places the next item (`item`, of `height`) at the top of the column `order` picks,
    /// sends it to `sink` and grows that column.
    /// - Throws: `LayoutError.invalidItem` for a negative or non-finite height.
    @inline(__always)
    func place<Sink: LayoutAttributesSink>(_ height: Double, item: Int, in columns: ColumnHeights,
                                           into sink: inout Sink) throws {
        guard height >= 0, height.isFinite else {
            throw LayoutError.invalidItem(IndexPath(item: item, section: section),
                                          .height)
        }
        let slot: Int, column: Int
        switch order {
        case .shortestFirst:
            slot = columns.shortest(tolerance: tolerance)
            column = slot
        case .leftToRight:
            slot = item % columnCount
            column = slot
        case .rightToLeft:
            slot = item % columnCount
            column = columnCount - 1 - slot
        }
        let y = columns[slot]
        // The width ends where the next column's gap starts, so that with a spacing of 0
        // neighbouring columns share their edge exactly instead of overlapping by a rounding
        // error (x + columnWidth can land one ulp past the next column's x).
        let step = columnWidth + columnSpacing
        let x = left + Double(column) * step
        let width = max(0, min(columnWidth, left + Double(column + 1) * step - columnSpacing - x))
        sink.append(.cell(IndexPath(item: item, section: section), frame: Rect(x: x, y: y, width: width, height: height)))
        columns.setBottom(slot, y + height)
        columns[slot] = y + height + itemSpacing
    }

    /// `place` for every item of `heights`, shortest column first, in a section of 2 or 3
    /// columns (the usual phone layouts), with the same arithmetic in the same order. Each
    /// item's column depends on the one before, so this loop is a chain of dependent
    /// operations: the column heights stay in registers rather than go through memory.
    /// - Throws: `LayoutError.invalidItem` for a negative or non-finite height.
    @inline(__always)
    func placeShortestFirst<Sink: LayoutAttributesSink, Heights: RandomAccessCollection<Double>>(
        _ heights: Heights, in columns: ColumnHeights, into sink: inout Sink) throws where Heights.Index == Int {
        let three = columns.count == 3
        precondition(columns.count == 2 || three, "2 or 3 columns")
        // The x and width of each column, as `place` computes them.
        let step = columnWidth + columnSpacing
        func x(_ column: Int) -> Double { left + Double(column) * step }
        func width(_ column: Int) -> Double {
            max(0, min(columnWidth, left + Double(column + 1) * step - columnSpacing - x(column)))
        }
        let x0 = x(0), x1 = x(1), x2 = three ? x(2) : 0
        let w0 = width(0), w1 = width(1), w2 = three ? width(2) : 0
        // A third column of infinite height is never the shortest.
        var registers = ShortestOfThree(
            h0: columns[0], h1: columns[1], h2: three ? columns[2] : .infinity,
            b0: columns.bottom(0), b1: columns.bottom(1), b2: three ? columns.bottom(2) : 0,
            x0: x0, x1: x1, x2: x2, w0: w0, w1: w1, w2: w2, tolerance: tolerance, itemSpacing: itemSpacing)
        for item in 0..<heights.count {
            let height = heights[item]
            guard height >= 0, height.isFinite else {
                throw LayoutError.invalidItem(IndexPath(item: item, section: section),
                                              .height)
            }
            sink.append(.cell(IndexPath(item: item, section: section), frame: registers.place(height: height)))
        }
        columns[0] = registers.h0
        columns[1] = registers.h1
        columns.setBottom(0, registers.b0)
        columns.setBottom(1, registers.b1)
        if three {
            columns[2] = registers.h2
            columns.setBottom(2, registers.b2)
        }
    }
}

/// Shortest-first's rule, the one definition every placement uses: the lowest index below
/// `count` whose height is within `tolerance` (finite, ≥ 0) of the smallest,
/// `height(i) ≤ minimum + tolerance` (seed 001; `WaterfallOrder.shortestFirst`). Windows of
/// spanning items are chosen by it too, by their tallest columns. Up to 3 heights (the usual
/// phone layouts; an absent column's height infinite) are compared without a loop or a
/// branch: which column is shortest is as good as random, so a branch on it would be
/// mispredicted every other item (`lowestOfThreeWithinTolerance`). `ColumnHeights` applies
/// the same rule through its tree past 8 columns.
/// - Complexity: O(count).
@inline(__always)
func lowestColumnWithinTolerance(count: Int, tolerance: Double, _ height: (Int) -> Double) -> Int {
    if count <= 3 {
        let past = lowestOfThreeWithinTolerance(height(0), count > 1 ? height(1) : .infinity,
                                                count > 2 ? height(2) : .infinity, tolerance: tolerance)
        // 0 when column 0 qualifies, else 1, plus 1 more when column 1 does not either: two
        // flags added, which compiles to no jump.
        return (past.column0 ? 1 : 0) + (past.column0 && past.column1 ? 1 : 0)
    }
    var minimum = height(0)
    for c in 1..<count where height(c) < minimum { minimum = height(c) }
    let limit = minimum + tolerance
    var c = 0
    while !(height(c) <= limit) { c += 1 }
    return c
}

/// `lowestColumnWithinTolerance` for three heights (an absent column's infinite), as the
/// two flags it is computed from: whether column 0 is past `minimum + tolerance`, and whether
/// column 1 is. The chosen column is 0 unless column 0 is past, else 1 unless column 1 is
/// past too, else 2. For the columns held in registers (`ShortestOfThree`), which select on
/// the flags themselves. - Complexity: O(1), no branch.
@inline(__always)
func lowestOfThreeWithinTolerance(_ h0: Double, _ h1: Double, _ h2: Double,
                                          tolerance: Double) -> (column0: Bool, column1: Bool) {
    var minimum = h0
    minimum = h1 < minimum ? h1 : minimum
    minimum = h2 < minimum ? h2 : minimum
    let limit = minimum + tolerance
    return (!(h0 <= limit), !(h1 <= limit))
}

/// Two or three columns held in registers while one-column items go shortest first (the
/// usual phone layouts): each column's next top (`h`; an absent third column's is infinite,
/// never the shortest) and last bottom (`b`), x and width, with `ColumnHeights.shortest`'s
/// rule and arithmetic.
struct ShortestOfThree {
    var h0, h1, h2: Double
    var b0, b1, b2: Double
    let x0, x1, x2, w0, w1, w2: Double
    let tolerance, itemSpacing: Double

    /// Places an item `height` points tall in the first column within `tolerance` of the
    /// shortest; returns its frame. - Complexity: O(1).
    @inline(__always)
    mutating func place(height: Double) -> Rect {
        let past = lowestOfThreeWithinTolerance(h0, h1, h2, tolerance: tolerance)
        // Every choice is a select on one of two comparisons of Doubles. LLVM makes branches
        // of them all the same (the column is as good as random, so one is mispredicted about
        // every other item), but two rather than the three it made of selects on an index:
        // a million items placed in 7.3 ms rather than 7.6.
        let first = !past.column0, second = !past.column1
        let y = first ? h0 : second ? h1 : h2
        let x = first ? x0 : second ? x1 : x2
        let width = first ? w0 : second ? w1 : w2
        let bottom = y + height
        let next = bottom + itemSpacing
        h2 = first ? h2 : second ? h2 : next
        h1 = first ? h1 : second ? next : h1
        h0 = first ? next : h0
        b2 = first ? b2 : second ? b2 : bottom
        b1 = first ? b1 : second ? bottom : b1
        b0 = first ? bottom : b0
        return Rect(x: x, y: y, width: width, height: height)
    }
}

/// Where each column's next item goes, as a min segment tree, so that shortest-first finds
/// "the lowest-index column whose height is ≤ minimum + tolerance" in O(log n) rather than
/// scanning every column for every item (a layout of 10,000 columns stays fast); up to 8
/// columns the heights are scanned instead.
final class ColumnHeights {
    /// Nodes 1… of a complete binary tree; leaf `leaves + c` is column c (`.infinity` past the
    /// last column). Raw storage: the hot loop's reads and writes are plain loads and stores.
    private let tree: UnsafeMutablePointer<Double>
    private let leaves: Int
    /// Each column's last item's maxY (its top while empty).
    private let bottoms: UnsafeMutablePointer<Double>
    /// Number of columns.
    let count: Int

    /// `count` columns, all at height `top`.
    init(count: Int, top: Double) {
        var leaves = 1
        while leaves < count { leaves *= 2 }
        self.leaves = leaves
        self.count = count
        bottoms = .allocate(capacity: max(count, 1))
        bottoms.initialize(repeating: top, count: max(count, 1))
        tree = .allocate(capacity: 2 * leaves)
        tree.initialize(repeating: .infinity, count: 2 * leaves)
        for i in 0..<count { tree[leaves + i] = top }
        var node = leaves - 1
        while node >= 1 {
            tree[node] = min(tree[2 * node], tree[2 * node + 1])
            node -= 1
        }
    }

    deinit {
        tree.deallocate()
        bottoms.deallocate()
    }

    /// Records column `column`'s last maxY.
    @inline(__always)
    func setBottom(_ column: Int, _ value: Double) {
        bottoms[column] = value
    }

    /// Column `column`'s last maxY (its top while empty).
    @inline(__always)
    func bottom(_ column: Int) -> Double {
        bottoms[column]
    }

    /// The largest last maxY of any column, `nil` without columns (the section's bottom
    /// before its inset).
    var tallestBottom: Double? {
        guard count > 0 else { return nil }
        var tallest = bottoms[0]
        for c in 1..<count where bottoms[c] > tallest { tallest = bottoms[c] }
        return tallest
    }

    /// Up to this many columns the heights are scanned rather than kept in the tree: a few
    /// independent loads beat a chain of dependent ones.
    private static let scanLimit = 8
    private var scans: Bool { leaves <= Self.scanLimit }

    /// The lowest-index column whose height is within `tolerance` of the smallest.
    /// - Complexity: O(log n); O(n) for n ≤ 8.
    @inline(__always)
    func shortest(tolerance: Double) -> Int {
        if scans {
            let heights = tree + leaves
            return lowestColumnWithinTolerance(count: count, tolerance: tolerance) { heights[$0] }
        }
        // The same rule over the tree: its root is the minimum.
        return leftmost(atMost: tree[1] + tolerance)
    }

    /// A column's height; setting it updates the tree in O(log n) (just the height for n ≤ 8).
    subscript(column: Int) -> Double {
        get { tree[leaves + column] }
        set {
            var node = leaves + column
            tree[node] = newValue
            guard !scans else { return }
            node /= 2
            while node >= 1 {
                tree[node] = min(tree[2 * node], tree[2 * node + 1])
                node /= 2
            }
        }
    }

    /// The lowest-index column whose height is ≤ `limit` (there is one when `limit` ≥ the
    /// minimum). - Complexity: O(log n).
    func leftmost(atMost limit: Double) -> Int {
        var node = 1
        while node < leaves {
            node = tree[2 * node] <= limit ? 2 * node : 2 * node + 1
        }
        return node - leaves
    }
}
