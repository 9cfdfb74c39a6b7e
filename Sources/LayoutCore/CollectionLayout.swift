// A computed layout: what UIKit asks a UICollectionViewLayout for after prepare().

/// The direction the content scrolls in; rect queries index along it.
public enum ScrollDirection: String, Sendable, CaseIterable {
    case vertical
    case horizontal
}

/// The result of running an engine: every element's attributes in element order (section by
/// section; in a section the header, the cells by item, then the footer), the content size,
/// and the queries UIKit asks a layout (`layoutAttributesForElements(in:)`,
/// `layoutAttributesForItem(at:)`). Units are points.
public struct CollectionLayout: Sendable {
    /// The engine's name (`waterfall`, `ring`, …).
    public var engine: String
    /// The collection view's bounds size.
    public var bounds: Size
    /// `contentOffset`: the visible bounds' origin.
    public var contentOffset: Point
    /// `collectionViewContentSize`.
    public var contentSize: Size
    /// Every element, in element order.
    public internal(set) var elements: [LayoutAttributes]
    /// The axis rect queries index along (the scroll direction).
    public var scrollDirection: ScrollDirection
    /// The ring layout's heart path, when there is one (SPEC section 7).
    public var heartPath: HeartPath?
    /// The heart path sampled evenly by arc length (`--heart-samples`), when asked for.
    public var heartSamples: [PathSample]?
    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)`, when asked for.
    public var targetContentOffset: Point?
    /// Notes about the input that did not stop the layout (a flow item longer than its line);
    /// the command line prints each on stderr as `cvlayout: warning: …`.
    public var warnings: [String] = []

    /// For each section, the index in `elements` of its first cell and its cell count.
    private var cellRanges: [(start: Int, count: Int)]
    private var index: RectIndex?

    /// Creates a layout from elements already in element order.
    /// - Parameters:
    ///   - cellRanges: for each section, where its cells start in `elements` and how many.
    /// - Complexity: O(1).
    public init(engine: String, bounds: Size, contentOffset: Point = .zero, contentSize: Size,
                elements: [LayoutAttributes], cellRanges: [(start: Int, count: Int)],
                scrollDirection: ScrollDirection = .vertical) {
        self.engine = engine
        self.bounds = bounds
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.elements = elements
        self.cellRanges = cellRanges
        self.scrollDirection = scrollDirection
    }

    /// Runs an engine's sink-taking `layout(…, into:)` with an array and returns its layout
    /// holding the collected elements.
    ///
    /// ```
    /// let layout = try CollectionLayout.collecting { try RingLayout().layout(ringCounts: [1, 6], bounds: size, into: &$0) }
    /// ```
    public static func collecting(_ body: (inout [LayoutAttributes]) throws -> CollectionLayout) rethrows -> CollectionLayout {
        var elements: [LayoutAttributes] = []
        var layout = try body(&elements)
        layout.elements = elements
        return layout
    }

    /// Number of sections.
    public var numberOfSections: Int { cellRanges.count }

    /// Number of cells in `section` (0 when the section does not exist).
    public func numberOfItems(inSection section: Int) -> Int {
        section >= 0 && section < cellRanges.count ? cellRanges[section].count : 0
    }

    /// The position in `elements` of the cell at `indexPath`, or `nil` when out of range.
    /// - Complexity: O(1).
    public func elementIndex(ofItemAt indexPath: IndexPath) -> Int? {
        guard indexPath.section >= 0, indexPath.section < cellRanges.count else { return nil }
        let range = cellRanges[indexPath.section]
        guard indexPath.item >= 0, indexPath.item < range.count else { return nil }
        return range.start + indexPath.item
    }

    /// `layoutAttributesForItem(at:)`: the cell at `indexPath`, or `nil` when out of range.
    /// - Complexity: O(1).
    public func layoutAttributesForItem(at indexPath: IndexPath) -> LayoutAttributes? {
        elementIndex(ofItemAt: indexPath).map { elements[$0] }
    }

    /// `layoutAttributesForElements(in:)`: every element whose untransformed frame strictly
    /// overlaps `rect` (touching edges do not count), in element order.
    /// - Complexity: O(log n + k + f) after `prepareRectIndex()` (f: elements that start
    ///   before the rect's far edge and end past its near edge along the scroll axis without
    ///   meeting it across); O(n) without the index.
    public func layoutAttributesForElements(in rect: Rect) -> [LayoutAttributes] {
        elementIndices(in: rect).map { elements[$0] }
    }

    /// The positions in `elements` of `layoutAttributesForElements(in:)`, ascending.
    public func elementIndices(in rect: Rect) -> [Int] {
        if let index {
            return index.elementIndices(in: rect)
        }
        var result: [Int] = []
        for (i, element) in elements.enumerated() where element.frame.intersects(rect) {
            result.append(i)
        }
        return result
    }

    /// Builds the rect-query index once, so later `layoutAttributesForElements(in:)` calls run
    /// in O(log n + k). - Complexity: O(n log n) time, O(n) memory.
    public mutating func prepareRectIndex() {
        index = RectIndex(elements: elements, axis: scrollDirection)
    }

    /// Rounds every element's edges to the nearest 1/`scale` point (SPEC section 2: edges,
    /// not origin and size, so elements sharing an edge still share it after snapping).
    /// - Parameter scale: the screen scale (1, 2, 3); must be finite and > 0.
    /// - Complexity: O(n).
    public mutating func snapToPixels(scale: Double) {
        precondition(scale > 0 && scale.isFinite, "scale must be finite and > 0")
        for i in elements.indices {
            elements[i].frame = Self.snapped(elements[i].frame, scale: scale)
        }
        index = nil
    }

    /// `frame` with each edge rounded to the nearest 1/`scale` point (halves away from zero,
    /// `-0` as `0`), as `snapToPixels(scale:)` rounds every element; for streamed elements.
    @inline(__always)
    public static func snapped(_ frame: Rect, scale: Double) -> Rect {
        func snap(_ v: Double) -> Double {
            let s = (v * scale).rounded(.toNearestOrAwayFromZero) / scale
            return s == 0 ? 0 : s
        }
        return Rect(minX: snap(frame.minX), minY: snap(frame.minY), maxX: snap(frame.maxX), maxY: snap(frame.maxY))
    }

    /// Throws `LayoutError.nonFiniteLayout` unless the content size, every element and the
    /// heart path hold only finite numbers. - Complexity: O(n).
    public func validateFinite() throws {
        try validateFinite(streamedElement: nil)
    }

    /// `validateFinite()` for a layout whose elements were streamed rather than kept:
    /// `firstNonFinite` is the first streamed element that was not finite, if any. The checks
    /// and messages are those of `validateFinite()`, in the same order.
    public func validateFinite(streamedElement firstNonFinite: LayoutAttributes?) throws {
        guard contentSize.width.isFinite, contentSize.height.isFinite else {
            throw LayoutError.nonFiniteLayout(what: "contentSize")
        }
        func fail(_ element: LayoutAttributes) -> LayoutError {
            let what = element.category == .cell
                ? "the frame of item \(element.indexPath)"
                : "the \(element.kind?.rawValue ?? "element") of section \(element.indexPath.section)"
            return LayoutError.nonFiniteLayout(what: what)
        }
        // Indices, so that each element is read in place rather than copied.
        for i in elements.indices where !elements[i].isFinite {
            throw fail(elements[i])
        }
        if let firstNonFinite { throw fail(firstNonFinite) }
        if let heartPath, !heartPath.isFinite {
            throw LayoutError.nonFiniteLayout(what: "the heart path")
        }
        if let targetContentOffset, !targetContentOffset.isFinite {
            throw LayoutError.nonFiniteLayout(what: "targetContentOffset")
        }
    }
}

/// A rect-query index over a layout's elements ("sorted edges with running maxima"):
/// elements sorted by their leading edge along the scroll axis, with the running maximum
/// of their trailing edges. Both sequences are non-decreasing, so the candidates of a query
/// form one run: from the first element whose running maximum passes the rect's near edge
/// to the last that starts before its far edge. A table of equal-width bands along the axis
/// gives both ends of the run to within a band, so a query costs a short local search plus
/// the run, not a binary search over the whole layout. The run is then filtered exactly, so
/// the answer always equals the brute-force filter.
public struct RectIndex: Sendable {
    private let axis: ScrollDirection
    /// Element positions sorted by leading edge (stable).
    private let order: [Int32]
    /// The frames in `order`, contiguous so a query touches few cache lines.
    private let frames: [Rect]
    private let leading: [Double]
    /// `runningMaxTrailing[k]` = max trailing edge of `order[0...k]`; non-decreasing.
    private let runningMaxTrailing: [Double]
    /// Band `b` starts at `origin + b·bandLength`; `startAt[b]` is the first k whose running
    /// maximum passes that edge, `endAt[b]` the first k whose leading edge reaches it.
    private let origin: Double
    private let bandLength: Double
    private let startAt: [Int32]
    private let endAt: [Int32]

    /// Builds the index. - Complexity: O(n log n) time, O(n) memory.
    public init(elements: [LayoutAttributes], axis: ScrollDirection) {
        self.axis = axis
        let vertical = axis == .vertical
        func lead(_ e: LayoutAttributes) -> Double { vertical ? e.frame.minY : e.frame.minX }
        var sortedOrder = (0..<elements.count).map { Int32($0) }
        // Engines emit nearly sorted runs; a stable sort keeps ties in element order.
        sortedOrder.sort { (l, r) in
            let a = lead(elements[Int(l)]), b = lead(elements[Int(r)])
            return a < b || (a == b && l < r)
        }
        order = sortedOrder
        frames = sortedOrder.map { elements[Int($0)].frame }
        let leading = frames.map { vertical ? $0.minY : $0.minX }
        self.leading = leading
        var running = -Double.infinity
        let runningMaxTrailing = frames.map { f in
            running = max(running, vertical ? f.maxY : f.maxX)
            return running
        }
        self.runningMaxTrailing = runningMaxTrailing

        // About 8 elements a band; bands only where the span is finite and positive.
        let low = leading.first ?? 0, high = runningMaxTrailing.last ?? 0
        let bands = max(1, elements.count / 8)
        let length = (high - low) / Double(bands)
        origin = low
        bandLength = length.isFinite && length > 0 ? length : 0
        var startAt: [Int32] = [], endAt: [Int32] = []
        if bandLength > 0 {
            startAt.reserveCapacity(bands + 1)
            endAt.reserveCapacity(bands + 1)
            var k1 = 0, k2 = 0
            for b in 0...bands {
                let edge = low + Double(b) * bandLength
                while k1 < runningMaxTrailing.count && !(runningMaxTrailing[k1] > edge) { k1 += 1 }
                while k2 < leading.count && !(leading[k2] >= edge) { k2 += 1 }
                startAt.append(Int32(k1))
                endAt.append(Int32(k2))
            }
        }
        self.startAt = startAt
        self.endAt = endAt
    }

    /// The positions of the elements whose frame strictly overlaps `rect`, ascending.
    func elementIndices(in rect: Rect) -> [Int] {
        let vertical = axis == .vertical
        let near = vertical ? rect.minY : rect.minX
        let far = vertical ? rect.maxY : rect.maxX
        // First k whose running max trailing edge passes the near edge: all before end too early.
        let start = partitionPoint(runningMaxTrailing, near: near, table: startAt) { $0 > near }
        // First k whose leading edge is at or past the far edge: from there on, none overlap.
        let end = partitionPoint(leading, near: far, table: endAt) { $0 >= far }
        var result: [Int] = []
        if start < end {
            for k in start..<end where frames[k].intersects(rect) {
                result.append(Int(order[k]))
            }
        }
        result.sort()
        return result
    }

    /// The first index whose value satisfies `predicate`, which must be monotone (false…true)
    /// and be "value passes `edge`" for the `edge` the band `table` was built with: the band
    /// holding `edge` bounds the search.
    private func partitionPoint(_ values: [Double], near edge: Double, table: [Int32],
                                _ predicate: (Double) -> Bool) -> Int {
        var low = 0, high = values.count
        if bandLength > 0, edge.isFinite {
            let last = table.count - 1
            func bandEdge(_ b: Int) -> Double { origin + Double(b) * bandLength }  // as built
            if edge < bandEdge(0) {
                high = Int(table[0])
            } else if edge >= bandEdge(last) {
                low = Int(table[last])
            } else {
                // The band b with bandEdge(b) ≤ edge < bandEdge(b + 1); the division can be
                // off by one near a boundary, so step to the band the table was built with.
                var b = min(last - 1, max(0, Int(((edge - origin) / bandLength).rounded(.down))))
                while b > 0 && bandEdge(b) > edge { b -= 1 }
                while b + 1 < last && bandEdge(b + 1) <= edge { b += 1 }
                low = Int(table[b])
                high = Int(table[b + 1])
            }
        }
        while low < high {
            let mid = (low + high) / 2
            if predicate(values[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
