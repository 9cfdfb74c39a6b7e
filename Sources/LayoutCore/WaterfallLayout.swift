// Columns of varying height: seed 000's SNWaterLayout (round-robin) and seed 001's
// WaterLayout (shortest column first), generalised as CHTCollectionViewWaterfallLayout is.

/// How a waterfall picks the next item's column (CHTCollectionViewWaterfallLayout's `itemRenderDirection`).
public enum WaterfallOrder: String, Sendable, CaseIterable {
    /// The lowest-index column whose height is within the tolerance of the shortest (seed 001).
    case shortestFirst = "shortest-first"
    /// Column `item % n` (seed 000).
    case leftToRight = "left-to-right"
    /// Column `n − 1 − item % n`.
    case rightToLeft = "right-to-left"
}

/// A waterfall section: its items and overrides (CHTCollectionViewDelegateWaterfallLayout's callbacks).
public struct WaterfallSection: Sendable, Equatable {
    /// The section's items.
    public var items: SectionItems
    /// Overrides `WaterfallLayout.columnCount`; ≥ 1.
    public var columnCount: Int?
    /// Overrides `WaterfallLayout.sectionInset`.
    public var sectionInset: EdgeInsets?
    /// Overrides `WaterfallLayout.headerHeight`, points.
    public var headerHeight: Double?
    /// Overrides `WaterfallLayout.footerHeight`, points.
    public var footerHeight: Double?
    /// Overrides `WaterfallLayout.minimumColumnSpacing`, points.
    public var columnSpacing: Double?
    /// Overrides `WaterfallLayout.minimumInteritemSpacing`, points.
    public var itemSpacing: Double?
    /// Overrides `WaterfallLayout.headerInset`.
    public var headerInset: EdgeInsets?
    /// Overrides `WaterfallLayout.footerInset`.
    public var footerInset: EdgeInsets?
    /// How many columns each item spans: 1 or more, or `fullSpan`; `nil`: one each.
    public var spans: [Int]?

    /// The `spans` value of an item spanning every column (`"full"`).
    public static let fullSpan = 0

    /// Creates a section of `items` with optional overrides.
    public init(items: SectionItems, columnCount: Int? = nil, sectionInset: EdgeInsets? = nil,
                headerHeight: Double? = nil, footerHeight: Double? = nil, columnSpacing: Double? = nil,
                itemSpacing: Double? = nil, headerInset: EdgeInsets? = nil, footerInset: EdgeInsets? = nil,
                spans: [Int]? = nil) {
        self.items = items
        self.columnCount = columnCount
        self.sectionInset = sectionInset
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.columnSpacing = columnSpacing
        self.itemSpacing = itemSpacing
        self.headerInset = headerInset
        self.footerInset = footerInset
        self.spans = spans
    }

    var hasSpans: Bool { spans?.contains { $0 != 1 } ?? false }
}

/// Masonry: equal-width items, each atop the column `order` picks (SPEC section 6, seeds 000 and 001).
public struct WaterfallLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "waterfall"

    /// Number of columns `n` (`columnCount`); ≥ 1. Default 3.
    public var columnCount = 3
    /// Horizontal gap between columns, points (`minimumColumnSpacing`). Default 10.
    public var minimumColumnSpacing = 10.0
    /// Vertical gap between items of a column, points (`minimumInteritemSpacing`). Default 10.
    public var minimumInteritemSpacing = 10.0
    /// Insets of each section's item area, points (`sectionInset`). Default zero.
    public var sectionInset = EdgeInsets.zero
    /// Column choice. Default `.shortestFirst`.
    public var order = WaterfallOrder.shortestFirst
    /// A column counts as shortest when its height ≤ minimum + tolerance, points. Default 0.001.
    public var tolerance = 0.001
    /// Section header height, points; no header when 0. Default 0.
    public var headerHeight = 0.0
    /// Section footer height, points; no footer when 0. Default 0.
    public var footerHeight = 0.0
    /// Insets around each header (`headerInset`). Default zero.
    public var headerInset = EdgeInsets.zero
    /// Insets around each footer (`footerInset`). Default zero.
    public var footerInset = EdgeInsets.zero
    /// Lower bound of the content height, points (`minimumContentHeight`). Default 0.
    public var minimumContentHeight = 0.0
    /// Height of the items of `.uniform` sections, points. Default 100.
    public var itemHeight = 100.0
    /// `sectionHeadersPinToVisibleBounds`: a header sticks to `contentOffset.y`, never above its place nor
    /// past its section's end (before the footer), `zIndex` `FlowLayout.pinnedHeaderZIndex`. Default `false`.
    public var sectionHeadersPinToVisibleBounds = false
    /// `.horizontal`: the vertical layout transposed (columns as rows, insets physical). Default `.vertical`.
    public var scrollDirection = ScrollDirection.vertical

    /// Creates a waterfall with the defaults above.
    public init() {}

    /// Lays out `sections` in a view of `bounds` size. Per section: the header (height > 0)
    /// inside `headerInset`; `sectionInset.top`; each item atop the column `order` picks, which
    /// grows by `height + itemSpacing`; the tallest column's last maxY plus `sectionInset.bottom`;
    /// the footer as the header. `contentSize = (bounds.width, max(bottom, minimumContentHeight))`.
    /// - Throws: `LayoutError.invalidParameter` for a negative, non-finite or zero-column
    ///   setting; `.columnsDoNotFit` for a column width `(W − L − R − (n−1)·gap)/n` ≤ 0;
    ///   `.supplementaryTooWide` for a header or footer of negative width.
    /// - Complexity: O(items × log n) shortest first, else O(items); O(min(n, items)) memory.
    public func layout<Sink: LayoutAttributesSink>(_ sections: [WaterfallSection], bounds: Size, contentOffset: Point = .zero,
                                                    into sink: inout Sink) throws -> CollectionLayout {
        guard scrollDirection == .vertical else {
            let vertical = transposedSettings()
            var transposing = TransposingSink(base: sink)
            defer { sink = transposing.base }
            let result = try vertical.layout(sections.map { $0.transposed() }, bounds: bounds.transposed,
                                             contentOffset: contentOffset.transposed, into: &transposing)
            return CollectionLayout(engine: "waterfall", bounds: bounds, contentOffset: contentOffset,
                                    contentSize: result.contentSize.transposed, elements: [],
                                    cellRanges: result.cellRanges, scrollDirection: .horizontal)
        }
        try validate(bounds: bounds, sections: sections)
        let width = bounds.width
        let total = elementCount(of: sections)
        guard total <= maximumElementCount else {
            throw LayoutError.tooManyElements(count: total, limit: maximumElementCount)
        }
        sink.prepare(count: total)
        var cellRanges: [(start: Int, count: Int)] = []
        cellRanges.reserveCapacity(sections.count)
        var top = 0.0

        for (s, section) in sections.enumerated() {
            let n = section.columnCount ?? columnCount
            let insets = section.sectionInset ?? sectionInset
            let columnSpacing = section.columnSpacing ?? minimumColumnSpacing
            let available = width - insets.left - insets.right
            let columnWidth = (available - Double(n - 1) * columnSpacing) / Double(n)
            guard columnWidth > 0, columnWidth.isFinite else {
                let own = section.columnCount != nil || section.sectionInset != nil || section.columnSpacing != nil
                throw LayoutError.columnsDoNotFit(section: own ? s : nil, columns: n, columnWidth: columnWidth,
                                                  availableWidth: available)
            }
            let spanning = section.hasSpans
            try require(!spanning || n <= Self.maximumSpanningColumns, "columns", Double(n),
                        .spanningColumns(atMost: Self.maximumSpanningColumns),
                        section: section.columnCount != nil ? s : nil)

            let header = section.headerHeight ?? headerHeight
            let headerFrame = try header > 0
                ? supplementaryFrame(.header, at: &top, length: header, across: width,
                                     inset: section.headerInset ?? headerInset, section: s) : nil

            top += insets.top
            let itemCount = section.items.count
            let placement = Placement(section: s, columnCount: n, order: order, tolerance: tolerance,
                                      left: insets.left, columnWidth: columnWidth, columnSpacing: columnSpacing,
                                      itemSpacing: section.itemSpacing ?? minimumInteritemSpacing, itemHeight: itemHeight)
            if let frame = headerFrame {
                var attributes = LayoutAttributes.supplementaryView(ofKind: .header,
                                                                    at: IndexPath(item: 0, section: s), frame: frame)
                if sectionHeadersPinToVisibleBounds {
                    // The header's place depends on the section's end: items placed once to find it.
                    var counter = CountingSink()
                    let end = try placement.placeItems(of: section, spanning: spanning, top: top, into: &counter)
                        + insets.bottom
                    attributes.frame.origin.y = min(max(contentOffset.y, frame.minY), end - header)
                    attributes.zIndex = FlowLayout.pinnedHeaderZIndex
                }
                sink.append(attributes)
            }
            cellRanges.append((start: sink.count, count: itemCount))
            top = try placement.placeItems(of: section, spanning: spanning, top: top, into: &sink) + insets.bottom

            let footer = section.footerHeight ?? footerHeight
            if footer > 0 {
                let frame = try supplementaryFrame(.footer, at: &top, length: footer, across: width,
                                                   inset: section.footerInset ?? footerInset, section: s)
                sink.append(.supplementaryView(ofKind: .footer, at: IndexPath(item: 0, section: s), frame: frame))
            }
        }

        return CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset,
                                contentSize: Size(width: width, height: max(top, minimumContentHeight)),
                                elements: [], cellRanges: cellRanges)
    }

    /// The most columns of a section whose items span columns (each item looks at every window).
    public static let maximumSpanningColumns = 256

    /// Moves `top` past the frame and `inset.bottom`.
    private func supplementaryFrame(_ kind: ElementKind, at top: inout Double, length: Double, across width: Double,
                                    inset: EdgeInsets, section s: Int) throws -> Rect {
        top += inset.top
        let frame = Rect(x: inset.left, y: top, width: width - inset.left - inset.right, height: length)
        guard frame.width >= 0 else {
            throw LayoutError.supplementaryTooWide(kind: kind, section: s, width: frame.width)
        }
        top += length + inset.bottom
        return frame
    }

    /// These settings vertical, every inset transposed: the layout a horizontal one transposes.
    func transposedSettings() -> WaterfallLayout {
        var t = self
        t.scrollDirection = .vertical
        t.sectionInset = sectionInset.transposed
        t.headerInset = headerInset.transposed
        t.footerInset = footerInset.transposed
        return t
    }

    /// `size` (width > 0, finite) scaled to `columnWidth`: `height × columnWidth ÷ width` (the
    /// seed's order), or `height ÷ width × columnWidth` when the product alone overflows.
    @inline(__always)
    static func height(of size: Size, atColumnWidth columnWidth: Double) -> Double {
        let height = size.height * columnWidth / size.width
        return height.isFinite ? height : size.height / size.width * columnWidth
    }

    func validate(bounds: Size, sections: [WaterfallSection]) throws {
        try requireFiniteNonNegative(["width": bounds.width, "height": bounds.height])
        try require("columns", columnCount, atLeast: 1)
        try requireFiniteNonNegative(["column-spacing": minimumColumnSpacing, "item-spacing": minimumInteritemSpacing,
                                      "tolerance": tolerance, "header-height": headerHeight, "footer-height": footerHeight,
                                      "min-content-height": minimumContentHeight, "item-height": itemHeight])
        try requireFinite("insets", insets: sectionInset)
        try requireFinite("header-insets", insets: headerInset)
        try requireFinite("footer-insets", insets: footerInset)
        for (s, section) in sections.enumerated() {
            try require("columns", section.columnCount, atLeast: 1, section: s)
            try requireFinite("insets", insets: section.sectionInset, section: s)
            try requireFinite("header", section.headerHeight, section: s)
            try requireFinite("footer", section.footerHeight, section: s)
            try requireFinite("column-spacing", section.columnSpacing, section: s)
            try requireFinite("item-spacing", section.itemSpacing, section: s)
            try requireFinite("header-insets", insets: section.headerInset, section: s)
            try requireFinite("footer-insets", insets: section.footerInset, section: s)
        }
    }
}

extension WaterfallSection {
    /// The section for the vertical layout a horizontal one transposes: its insets transposed.
    func transposed() -> WaterfallSection {
        var t = self
        t.sectionInset = sectionInset?.transposed
        t.headerInset = headerInset?.transposed
        t.footerInset = footerInset?.transposed
        return t
    }
}

/// Hands each element on to `base` transposed (x ↔ y, width ↔ height).
struct TransposingSink<Base: LayoutAttributesSink>: LayoutAttributesSink {
    var base: Base
    var count: Int { base.count }
    @inline(__always)
    mutating func append(_ attributes: LayoutAttributes) {
        var attributes = attributes
        attributes.frame = attributes.frame.transposed
        base.append(attributes)
    }
    mutating func prepare(count: Int) { base.prepare(count: count) }
}
