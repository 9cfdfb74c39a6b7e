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
    public private(set) var elements: [LayoutAttributes]
    /// The axis rect queries index along (the scroll direction).
    public var scrollDirection: ScrollDirection
    /// The ring layout's heart path, when there is one (SPEC section 7).
    public var heartPath: HeartPath?
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
            return index.elementIndices(in: rect, elements: elements)
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
        func snap(_ v: Double) -> Double {
            let s = (v * scale).rounded(.toNearestOrAwayFromZero) / scale
            return s == 0 ? 0 : s
        }
        for i in elements.indices {
            let f = elements[i].frame
            elements[i].frame = Rect(minX: snap(f.minX), minY: snap(f.minY),
                                     maxX: snap(f.maxX), maxY: snap(f.maxY))
        }
        index = nil
    }

    /// Throws `LayoutError.nonFiniteLayout` unless the content size, every element and the
    /// heart path hold only finite numbers. - Complexity: O(n).
    public func validateFinite() throws {
        guard contentSize.width.isFinite, contentSize.height.isFinite else {
            throw LayoutError.nonFiniteLayout(what: "contentSize")
        }
        for element in elements where !element.isFinite {
            let what = element.category == .cell
                ? "the frame of item \(element.indexPath)"
                : "the \(element.kind ?? "element") of section \(element.indexPath.section)"
            throw LayoutError.nonFiniteLayout(what: what)
        }
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
/// of their trailing edges. A query binary-searches both ends of the candidate run, then
/// filters it exactly, so the answer always equals the brute-force filter.
public struct RectIndex: Sendable {
    private let axis: ScrollDirection
    /// Element positions sorted by leading edge (stable).
    private let order: [Int32]
    private let leading: [Double]
    /// `runningMaxTrailing[k]` = max trailing edge of `order[0...k]`; non-decreasing.
    private let runningMaxTrailing: [Double]

    /// Builds the index. - Complexity: O(n log n) time, O(n) memory.
    public init(elements: [LayoutAttributes], axis: ScrollDirection) {
        self.axis = axis
        let vertical = axis == .vertical
        func lead(_ e: LayoutAttributes) -> Double { vertical ? e.frame.minY : e.frame.minX }
        func trail(_ e: LayoutAttributes) -> Double { vertical ? e.frame.maxY : e.frame.maxX }
        var sortedOrder = (0..<elements.count).map { Int32($0) }
        // Engines emit nearly sorted runs; a stable sort keeps ties in element order.
        sortedOrder.sort { (l, r) in
            let a = lead(elements[Int(l)]), b = lead(elements[Int(r)])
            return a < b || (a == b && l < r)
        }
        order = sortedOrder
        leading = sortedOrder.map { lead(elements[Int($0)]) }
        var running = -Double.infinity
        runningMaxTrailing = sortedOrder.map { i in
            running = max(running, trail(elements[Int(i)]))
            return running
        }
    }

    /// The positions of the elements whose frame strictly overlaps `rect`, ascending.
    func elementIndices(in rect: Rect, elements: [LayoutAttributes]) -> [Int] {
        let vertical = axis == .vertical
        let near = vertical ? rect.minY : rect.minX
        let far = vertical ? rect.maxY : rect.maxX
        // First k whose running max trailing edge passes the near edge: all before end too early.
        let start = partitionPoint(runningMaxTrailing) { $0 > near }
        // First k whose leading edge is at or past the far edge: from there on, none overlap.
        let end = partitionPoint(leading) { $0 >= far }
        var result: [Int] = []
        if start < end {
            for k in start..<end {
                let i = Int(order[k])
                if elements[i].frame.intersects(rect) { result.append(i) }
            }
        }
        result.sort()
        return result
    }

    /// The first index whose value satisfies `predicate`, which must be monotone (false…true).
    private func partitionPoint(_ values: [Double], _ predicate: (Double) -> Bool) -> Int {
        var low = 0, high = values.count
        while low < high {
            let mid = (low + high) / 2
            if predicate(values[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
