// Where a waterfall's next item goes: `Placement`, the shortest-column rule, the column heights.

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

    /// Places every item of `section` from `top` into `sink`; returns the section's bottom
    /// before its inset (the tallest column's last maxY, or `top`).
    @inline(__always)
    func placeItems<Sink: LayoutAttributesSink>(of section: WaterfallSection, spanning: Bool, top: Double,
                                                into sink: inout Sink) throws -> Double {
        let itemCount = section.items.count
        if spanning {
            return try placeSpanning(section.items, spans: section.spans ?? [], top: top, into: &sink)
        }
        // A slot per column that can receive items (the column, or n − 1 − column right to left).
        let slots = min(columnCount, itemCount)
        let columns = ColumnHeights(count: slots, top: top)
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
        return columns.tallestBottom ?? top
    }

    /// A size's height scaled to `width`, checked.
    @inline(__always)
    func height(of size: Size, item: Int, atWidth width: Double) throws -> Double {
        guard size.width > 0, size.width.isFinite, size.height >= 0, size.height.isFinite else {
            throw LayoutError.invalidItem(IndexPath(item: item, section: section), .sizeNeedsPositiveWidth)
        }
        let height = WaterfallLayout.height(of: size, atColumnWidth: width)
        guard height.isFinite else {
            throw LayoutError.invalidItem(IndexPath(item: item, section: section), .scaledHeightNotFinite)
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

    /// The placement of a section whose items span columns. An item of span `k` (`fullSpan`:
    /// all) is `k·w + (k−1)·columnSpacing` wide; it goes to the window of `k` columns whose
    /// tallest is lowest (`lowestColumnWithinTolerance`), at that height, and all `k` columns
    /// end at its maxY. Round-robin orders place span-1 items at a cursor moving one column
    /// on; after a spanning item it continues past the window's far end, wrapping.
    /// - Complexity: O(items × n).
    func placeSpanning<Sink: LayoutAttributesSink>(_ items: SectionItems, spans: [Int], top: Double,
                                                   into sink: inout Sink) throws -> Double {
        let n = columnCount
        let count = items.count
        guard count > 0 else { return top }
        // Raw storage (n ≤ maximumSpanningColumns): captured arrays would be boxed.
        let storage = UnsafeMutablePointer<Double>.allocate(capacity: 3 * n)
        defer { storage.deallocate() }
        let next = storage, bottoms = storage + n, windowMaxima = storage + 2 * n
        storage.initialize(repeating: top, count: 2 * n)  // each column's next top, then its last maxY
        windowMaxima.initialize(repeating: 0, count: n)
        let queue = UnsafeMutablePointer<Int>.allocate(capacity: n)
        defer { queue.deallocate() }
        queue.initialize(repeating: 0, count: n)
        // `measure(item, width)`: the item's height at its width, the kinds told apart once.
        @inline(__always)
        func run(_ measure: (Int, Double) throws -> Double) throws {
            var cursor = order == .rightToLeft ? n - 1 : 0
            // Runs of span-1 items, shortest first in up to 3 columns, go through
            // `placeShortestFirst`'s registers, with the same arithmetic.
            let runs = order == .shortestFirst && n <= 3
            try spans.withUnsafeBufferPointer { spans in
            var item = 0
            while item < count {
                if runs && (item >= spans.count || spans[item] == 1) {
                    var columns = inRegisters(count: n, { next[$0] }, { bottoms[$0] })
                    repeat {
                        let height = try measure(item, columnWidth)
                        guard height >= 0, height.isFinite else {
                            throw LayoutError.invalidItem(IndexPath(item: item, section: section), .height)
                        }
                        sink.append(.cell(IndexPath(item: item, section: section), frame: columns.place(height: height)))
                        item += 1
                    } while item < count && (item >= spans.count || spans[item] == 1)
                    columns.store(count: n) { c, h, b in
                        next[c] = h
                        bottoms[c] = b
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
                    throw LayoutError.invalidItem(IndexPath(item: item, section: section), .height)
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
                    start = lowestColumnWithinTolerance(count: n - k + 1, tolerance: tolerance) { windowMaxima[$0] }
                    y = windowMaxima[start]
                }
                switch order {
                case .shortestFirst: break
                case .leftToRight: cursor = (start + k) % n
                case .rightToLeft: cursor = (start - 1 + n) % n
                }
                let (x, width) = edges(from: start, span: k, width: spanWidth)
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

    /// `maxima[s]` = the tallest of `heights[s..<s + k]`, s in `0...(n − k)`: directly for
    /// n ≤ 8, else by a monotonic queue (`queue`, n slots). - Complexity: O(n·k) or O(n).
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

    /// Places item `item` of `height` atop the column `order` picks, into `sink`.
    /// - Throws: `LayoutError.invalidItem` for a negative or non-finite height.
    @inline(__always)
    func place<Sink: LayoutAttributesSink>(_ height: Double, item: Int, in columns: ColumnHeights,
                                           into sink: inout Sink) throws {
        guard height >= 0, height.isFinite else {
            throw LayoutError.invalidItem(IndexPath(item: item, section: section), .height)
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
        let (x, width) = edges(from: column, span: 1, width: columnWidth)
        sink.append(.cell(IndexPath(item: item, section: section), frame: Rect(x: x, y: y, width: width, height: height)))
        columns.setBottom(slot, y + height)
        columns[slot] = y + height + itemSpacing
    }

    /// The x and width of `k` columns from `column`: the width ends where the next column's
    /// gap starts, so with no spacing neighbours share their edge exactly (`x + width` can
    /// land one ulp past the next column's x).
    @inline(__always)
    func edges(from column: Int, span k: Int, width: Double) -> (x: Double, width: Double) {
        let step = columnWidth + columnSpacing
        let x = left + Double(column) * step
        return (x, max(0, min(width, left + Double(column + k) * step - columnSpacing - x)))
    }

    /// `ShortestOfThree` over the first `n` (1…3) columns, their tops `h` and bottoms `b`.
    @inline(__always)
    func inRegisters(count n: Int, _ h: (Int) -> Double, _ b: (Int) -> Double) -> ShortestOfThree {
        func x(_ c: Int) -> Double { n > c ? edges(from: c, span: 1, width: columnWidth).x : 0 }
        func w(_ c: Int) -> Double { n > c ? edges(from: c, span: 1, width: columnWidth).width : 0 }
        // An absent column's infinite top is never the shortest.
        return ShortestOfThree(h0: h(0), h1: n > 1 ? h(1) : .infinity, h2: n > 2 ? h(2) : .infinity,
                               b0: b(0), b1: n > 1 ? b(1) : 0, b2: n > 2 ? b(2) : 0,
                               x0: x(0), x1: x(1), x2: x(2), w0: w(0), w1: w(1), w2: w(2),
                               tolerance: tolerance, itemSpacing: itemSpacing)
    }

    /// `place` for every item of `heights`, shortest first, in 2 or 3 columns (the usual phone
    /// layouts), with the same arithmetic: the column heights stay in registers through the
    /// chain of dependent choices.
    /// - Throws: `LayoutError.invalidItem` for a negative or non-finite height.
    @inline(__always)
    func placeShortestFirst<Sink: LayoutAttributesSink, Heights: RandomAccessCollection<Double>>(
        _ heights: Heights, in columns: ColumnHeights, into sink: inout Sink) throws where Heights.Index == Int {
        precondition(columns.count == 2 || columns.count == 3, "2 or 3 columns")
        var registers = inRegisters(count: columns.count, { columns[$0] }, { columns.bottom($0) })
        for item in 0..<heights.count {
            let height = heights[item]
            guard height >= 0, height.isFinite else {
                throw LayoutError.invalidItem(IndexPath(item: item, section: section), .height)
            }
            sink.append(.cell(IndexPath(item: item, section: section), frame: registers.place(height: height)))
        }
        registers.store(count: columns.count) { c, h, b in
            columns[c] = h
            columns.setBottom(c, b)
        }
    }
}

/// Shortest-first's rule (seed 001), the one definition every placement uses: the lowest
/// index below `count` with `height(i) ≤ minimum + tolerance`. Up to 3 heights are compared
/// without a branch (the shortest column is as good as random: a branch would be mispredicted
/// every other item); `ColumnHeights` applies the rule through its tree past 8 columns.
/// - Complexity: O(count).
@inline(__always)
func lowestColumnWithinTolerance(count: Int, tolerance: Double, _ height: (Int) -> Double) -> Int {
    if count <= 3 {
        let past = lowestOfThreeWithinTolerance(height(0), count > 1 ? height(1) : .infinity,
                                                count > 2 ? height(2) : .infinity, tolerance: tolerance)
        // Two flags added, which compiles to no jump.
        return (past.column0 ? 1 : 0) + (past.column0 && past.column1 ? 1 : 0)
    }
    var minimum = height(0)
    for c in 1..<count where height(c) < minimum { minimum = height(c) }
    let limit = minimum + tolerance
    var c = 0
    while !(height(c) <= limit) { c += 1 }
    return c
}

/// `lowestColumnWithinTolerance` for three heights (an absent column's infinite) as two flags:
/// whether columns 0 and 1 are past `minimum + tolerance`. - Complexity: O(1), no branch.
@inline(__always)
func lowestOfThreeWithinTolerance(_ h0: Double, _ h1: Double, _ h2: Double,
                                          tolerance: Double) -> (column0: Bool, column1: Bool) {
    var minimum = h0
    minimum = h1 < minimum ? h1 : minimum
    minimum = h2 < minimum ? h2 : minimum
    let limit = minimum + tolerance
    return (!(h0 <= limit), !(h1 <= limit))
}

/// Up to three columns in registers while one-column items go shortest first: each column's
/// next top (`h`), last bottom (`b`), x and width.
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
        // Selects on the two flags (7.3 ms a million items, 7.6 selecting on an index).
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

    /// Hands the first `n` columns' top and bottom to `set`.
    @inline(__always)
    func store(count n: Int, _ set: (Int, Double, Double) -> Void) {
        set(0, h0, b0)
        if n > 1 { set(1, h1, b1) }
        if n > 2 { set(2, h2, b2) }
    }
}

/// Each column's next top in a min segment tree: shortest first in O(log n) (≤ 8 columns: a scan).
final class ColumnHeights {
    /// Nodes 1… of a complete binary tree; leaf `leaves + c` is column c (past the last,
    /// `.infinity`). Raw storage: plain loads and stores.
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

    /// The largest last maxY of any column, `nil` without columns.
    var tallestBottom: Double? {
        guard count > 0 else { return nil }
        var tallest = bottoms[0]
        for c in 1..<count where bottoms[c] > tallest { tallest = bottoms[c] }
        return tallest
    }

    /// Up to this many columns a scan beats the tree's chain of dependent loads.
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
