// SwiftUI's lazy grids: LazyVGrid and LazyHGrid from their GridItems, with sections, pinned
// headers and footers, and the column sizing people trip over (the off-centre grid).

/// How a `GridItem` is sized (SwiftUI's `GridItem.Size`).
public enum GridItemSize: Sendable, Equatable {
    /// A column of exactly this width, points (`.fixed`).
    case fixed(Double)
    /// A column taking its share of the remaining width, clamped to `minimum…maximum`
    /// (`.flexible`; SwiftUI's defaults are 10 and infinity).
    case flexible(minimum: Double, maximum: Double)
    /// A share of the remaining width holding as many sub-columns of at least `minimum` as
    /// fit, each at most `maximum` (`.adaptive`; SwiftUI's default maximum is infinity).
    case adaptive(minimum: Double, maximum: Double)
}

/// Where an item sits in its cell, as SwiftUI's `Alignment` names it: a horizontal part
/// (leading, centre, trailing) and a vertical part (top, centre, bottom). `top` is centred
/// horizontally; `topLeading` is not.
public enum GridItemAlignment: String, Sendable, CaseIterable {
    case center, leading, trailing, top, bottom, topLeading, topTrailing, bottomLeading, bottomTrailing

    /// The horizontal part as a fraction of the spare width: 0 leading, ½ centre, 1 trailing.
    var horizontalFraction: Double {
        switch self {
        case .leading, .topLeading, .bottomLeading: 0
        case .trailing, .topTrailing, .bottomTrailing: 1
        case .center, .top, .bottom: 0.5
        }
    }

    /// The vertical part as a fraction of the spare height: 0 top, ½ centre, 1 bottom.
    var verticalFraction: Double {
        switch self {
        case .top, .topLeading, .topTrailing: 0
        case .bottom, .bottomLeading, .bottomTrailing: 1
        case .center, .leading, .trailing: 0.5
        }
    }
}

/// The grid's own alignment across its axis (`LazyVGrid(alignment:)`, a `HorizontalAlignment`:
/// leading, center, trailing; `LazyHGrid(alignment:)`, a `VerticalAlignment`, top, center,
/// bottom, is the same along the other axis: top is `.leading`, bottom `.trailing`).
public enum GridLineAlignment: String, Sendable, CaseIterable {
    case leading, center, trailing

    /// The spare length's fraction before the item: 0, ½, 1.
    var fraction: Double {
        switch self {
        case .leading: 0
        case .center: 0.5
        case .trailing: 1
        }
    }
}

/// One column of a `LazyVGrid` (one row of a `LazyHGrid`): SwiftUI's `GridItem`.
public struct GridItem: Sendable, Equatable {
    /// How it is sized.
    public var size: GridItemSize
    /// Space to the next column, points (ignored after the last; between an adaptive
    /// column's sub-columns too). Default 8 (SwiftUI's).
    public var spacing: Double
    /// Where items sit in its cells; `nil`: the grid's `alignment` across the axis, centred
    /// along it. Default `nil`.
    public var alignment: GridItemAlignment?

    /// Creates a grid item.
    public init(_ size: GridItemSize, spacing: Double = 8, alignment: GridItemAlignment? = nil) {
        self.size = size
        self.spacing = spacing
        self.alignment = alignment
    }
}

/// A `Section` of a lazy grid: its items, and the lengths of its header and footer along
/// the scroll axis (0: none).
public struct GridSection: Sendable, Equatable {
    /// The items. Along a `LazyVGrid`: `.heights` are views that fill their column's width
    /// (`Color.frame(height:)`); `.sizes` are fixed `[width, height]` frames; `.uniform` items
    /// are `GridLayout.itemLength` high. Along a `LazyHGrid` everything is mirrored: a number
    /// is a width, the view fills its row's height.
    public var items: SectionItems
    /// The header's length along the scroll axis, points (0: no header).
    public var header: Double
    /// The footer's length along the scroll axis, points (0: no footer).
    public var footer: Double

    /// Creates a section.
    public init(items: SectionItems, header: Double = 0, footer: Double = 0) {
        self.items = items
        self.header = header
        self.footer = footer
    }
}

/// SwiftUI's `LazyVGrid` (vertical) and `LazyHGrid` (horizontal) in a `ScrollView`, with
/// `.padding()` around the grid (docs/REFERENCE.md, grid, has the rules and their sources).
///
/// Column widths come from two passes of the sizing rule (`columnSizing(proposed:)`): one
/// at the bounds' width less the padding, whose total is the grid's width; one at that total,
/// which gives the columns, laid from the grid's leading edge. The grid frame is centred in
/// the padded width, so that flexible(minimum 100) + flexible(minimum 180) at 300 points is a
/// grid 334 wide at x = −17 whose columns are 163 and 180 (the "off-centre grid"). Items fill
/// the columns in order, each adaptive sub-column a column; a row is as tall as its tallest
/// item. A section's header spans the grid above its rows, its footer below; headers, rows and
/// footers are `spacing` apart. Everything here says "column", "width", "x" for the vertical
/// grid; a horizontal grid is the same transposed.
public struct GridLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "grid"

    /// `.vertical`: `LazyVGrid` (columns, scrolling down); `.horizontal`: `LazyHGrid` (rows,
    /// scrolling right). Default `.vertical`.
    public var axis = ScrollDirection.vertical
    /// The columns (`LazyVGrid(columns:)`) or rows (`LazyHGrid(rows:)`); at least one.
    /// Default one flexible column, SwiftUI's `GridItem()`.
    public var items = [GridItem(.flexible(minimum: 10, maximum: .infinity))]
    /// Space between rows, and between a header, the rows and a footer, points
    /// (`LazyVGrid(spacing:)`). Default 8.
    public var spacing = 8.0
    /// The grid's alignment across its axis (`LazyVGrid(alignment:)`). Default `.center`.
    public var alignment = GridLineAlignment.center
    /// Headers stick to the visible bounds' leading edge (`pinnedViews: .sectionHeaders`).
    /// Default `false`.
    public var pinsSectionHeaders = false
    /// Footers stick to the visible bounds' trailing edge (`pinnedViews: .sectionFooters`).
    /// Default `false`.
    public var pinsSectionFooters = false
    /// `.padding()` around the grid, points. Default zero.
    public var padding = EdgeInsets.zero
    /// The length along the scroll axis of `.uniform` items, points. Default 100.
    public var itemLength = 100.0

    /// `zIndex` of pinned headers and footers (as the flow layout's floating headers).
    public static let pinnedZIndex = 1024

    /// Creates a grid with the defaults above.
    public init() {}

    /// One column of a sizing pass, with the numbers that gave its width.
    public struct SizedColumn: Sendable, Equatable {
        /// The grid item.
        public var item: GridItem
        /// For a flexible or adaptive column: the remaining width when its turn came, and
        /// how many columns were still to size (itself included); 0 and 0 for a fixed one.
        public var remaining: Double, unsized: Int
        /// The width it takes in the grid (an adaptive column's whole share).
        public var width: Double
        /// An adaptive column's sub-columns: how many (`⌊(width + s)/(minimum + s)⌋`, at
        /// least 1) and each one's width (`(width − (n−1)·s)/n`, at most the maximum); 1 and
        /// `width` for the others.
        public var count: Double, subwidth: Double
        /// Its offset from the grid's leading edge.
        public var offset: Double
    }

    /// One pass of the column sizing at a proposed width.
    public struct Sizing: Sendable, Equatable {
        /// The proposed width, points.
        public var proposed: Double
        /// Every fixed column's width and every spacing but the last column's.
        public var fixedAndSpacing: Double
        /// The columns in order.
        public var columns: [SizedColumn]
        /// Σ widths + the spacings: the grid's width for this proposal.
        public var total: Double
    }

    /// The sizing rule at `proposed` points: subtract the fixed columns and the spacings
    /// (each column's but the last); then each other column in order takes the remaining
    /// width ÷ the columns still to size — a flexible one clamped to its range, an adaptive one
    /// as is (never below 0) — and that width leaves the remaining. An adaptive column is
    /// then cut into its sub-columns.
    /// - Complexity: O(columns).
    public func columnSizing(proposed: Double) -> Sizing {
        var fixedAndSpacing = 0.0
        var unsized = 0
        for (c, item) in items.enumerated() {
            if c < items.count - 1 { fixedAndSpacing += item.spacing }
            if case .fixed(let w) = item.size { fixedAndSpacing += w } else { unsized += 1 }
        }
        var remaining = proposed - fixedAndSpacing
        var columns: [SizedColumn] = []
        columns.reserveCapacity(items.count)
        var offset = 0.0
        for (c, item) in items.enumerated() {
            var column = SizedColumn(item: item, remaining: 0, unsized: 0, width: 0, count: 1, subwidth: 0, offset: offset)
            switch item.size {
            case .fixed(let w):
                column.width = w
            case .flexible(let minimum, let maximum):
                column.remaining = remaining
                column.unsized = unsized
                column.width = min(max(remaining / Double(unsized), minimum), maximum)
                remaining -= column.width
                unsized -= 1
            case .adaptive(let minimum, let maximum):
                column.remaining = remaining
                column.unsized = unsized
                column.width = max(0, remaining / Double(unsized))
                remaining -= column.width
                unsized -= 1
                let s = item.spacing
                column.count = max(1, ((column.width + s) / (minimum + s)).rounded(.down))
                column.subwidth = min((column.width - (column.count - 1) * s) / column.count, maximum)
            }
            if case .adaptive = item.size {} else { column.subwidth = column.width }
            offset += column.width + (c < items.count - 1 ? item.spacing : 0)
            columns.append(column)
        }
        return Sizing(proposed: proposed, fixedAndSpacing: fixedAndSpacing, columns: columns, total: offset)
    }

    /// The two passes for a view of `bounds`: the first at the bounds' width (height for a
    /// horizontal grid) less the padding, whose total is the grid's width; the second at that
    /// total, which gives the columns; and the grid's leading edge, the padding's plus half of
    /// what the first pass leaves (negative when the grid is wider: the frame is centred).
    public func columnPasses(bounds: Size) -> (first: Sizing, second: Sizing, origin: Double) {
        let vertical = axis == .vertical
        let (lead, trail) = vertical ? (padding.left, padding.right) : (padding.top, padding.bottom)
        let proposed = (vertical ? bounds.width : bounds.height) - lead - trail
        let first = columnSizing(proposed: proposed)
        let second = columnSizing(proposed: first.total)
        return (first, second, lead + (proposed - first.total) / 2)
    }

    /// Lays out `sections` in a view of `bounds` size scrolled to `contentOffset`.
    ///
    /// Per section: its header (when its length > 0) across the grid's width, its rows, its
    /// footer, each `spacing` from the last thing placed; pinned headers stick at the content
    /// offset within their section, pinned footers at the visible bounds' far edge. The
    /// content size is the grid's width plus the padding (at least the bounds' width) by the
    /// padding plus every section.
    ///
    /// - Throws: `LayoutError.invalidParameter` for a negative or non-finite setting or
    ///   bounds, no grid items, or a range whose maximum is below its minimum;
    ///   `.invalidItem` for a negative or non-finite item; `.tooManyElements` past the limit.
    /// - Complexity: O(columns + total items): each item is read three times (the
    ///   section's extent, its row's height, its frame).
    @_specialize(exported: true, where Sink == ElementBlocks)
    @_specialize(exported: true, where Sink == [LayoutAttributes])
    @_specialize(exported: true, where Sink == FiniteCheckSink)
    public func layout<Sink: LayoutAttributesSink>(_ sections: [GridSection], bounds: Size, contentOffset: Point = .zero,
                                                    into sink: inout Sink) throws -> CollectionLayout {
        try validate(bounds: bounds, sections: sections)
        let vertical = axis == .vertical
        func rect(u: Double, v: Double, lengthU: Double, lengthV: Double) -> Rect {
            Rect(u: u, v: v, lengthU: lengthU, lengthV: lengthV, vertical: vertical)
        }
        let boundsV = vertical ? bounds.height : bounds.width
        let offsetV = vertical ? contentOffset.y : contentOffset.x
        let (padU0, padU1) = vertical ? (padding.left, padding.right) : (padding.top, padding.bottom)
        let (padV0, padV1) = vertical ? (padding.top, padding.bottom) : (padding.left, padding.right)

        let (total, largest) = try elementCount(sections)
        let (first, second, origin) = columnPasses(bounds: bounds)
        let (columnU, columnLength, columnFraction) = flattenedColumns(second, origin: origin, upTo: largest)
        let perRow = columnU.count

        /// The height of the row of `items` starting at `start`.
        func rowLength(_ items: SectionItems, _ start: Int, section s: Int) throws -> Double {
            var length = 0.0
            for i in start..<min(start + perRow, items.count) { length = max(length, try measure(items, i, section: s).v) }
            return length
        }

        sink.prepare(count: total)
        var cellRanges: [(start: Int, count: Int)] = []
        cellRanges.reserveCapacity(sections.count)
        var v = padV0
        var placedAny = false
        /// Where the next thing goes: `spacing` after the last one.
        func next() -> Double {
            if placedAny { v += spacing }
            placedAny = true
            return v
        }
        for (s, section) in sections.enumerated() {
            let n = section.items.count
            // The section's extent first, for its pinned views.
            let headerV = section.header > 0 ? next() : nil
            if let headerV { v = headerV + section.header }
            var rowsExtent = 0.0
            if n > 0 {
                var start = 0
                while start < n {
                    if start > 0 { rowsExtent += spacing }
                    rowsExtent += try rowLength(section.items, start, section: s)
                    start += perRow
                }
            }
            let rowsV = n > 0 ? next() : nil
            if let rowsV { v = rowsV + rowsExtent }
            let footerV = section.footer > 0 ? next() : nil
            if let footerV { v = footerV + section.footer }
            let sectionStart = headerV ?? rowsV ?? footerV ?? v
            let sectionEnd = v

            if let headerV {
                var element = LayoutAttributes.supplementaryView(ofKind: .header, at: IndexPath(item: 0, section: s),
                                                                 frame: rect(u: origin, v: headerV, lengthU: first.total,
                                                                             lengthV: section.header))
                if pinsSectionHeaders {
                    let pinned = min(max(offsetV, headerV), sectionEnd - section.header)
                    element.frame = rect(u: origin, v: pinned, lengthU: first.total, lengthV: section.header)
                    element.zIndex = Self.pinnedZIndex
                }
                sink.append(element)
            }
            cellRanges.append((start: sink.count, count: n))
            if var rowV = rowsV {
                var start = 0
                while start < n {
                    let end = min(start + perRow, n)
                    let thickness = try rowLength(section.items, start, section: s)
                    for i in start..<end {
                        let c = i - start
                        let (itemU, itemV) = try measure(section.items, i, section: s)
                        let lengthU = itemU ?? columnLength[c]
                        let fraction = columnFraction[c]
                        sink.append(.cell(IndexPath(item: i, section: s),
                                          frame: rect(u: columnU[c] + (columnLength[c] - lengthU) * fraction.u,
                                                      v: rowV + (thickness - itemV) * fraction.v,
                                                      lengthU: lengthU, lengthV: itemV)))
                    }
                    rowV += thickness + spacing
                    start = end
                }
            }
            if let footerV {
                var element = LayoutAttributes.supplementaryView(ofKind: .footer, at: IndexPath(item: 0, section: s),
                                                                 frame: rect(u: origin, v: footerV, lengthU: first.total,
                                                                             lengthV: section.footer))
                if pinsSectionFooters {
                    let pinned = max(min(offsetV + boundsV - section.footer, footerV), sectionStart)
                    element.frame = rect(u: origin, v: pinned, lengthU: first.total, lengthV: section.footer)
                    element.zIndex = Self.pinnedZIndex
                }
                sink.append(element)
            }
        }
        v += padV1
        let contentU = max(vertical ? bounds.width : bounds.height, first.total + padU0 + padU1)
        return CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset,
                                contentSize: vertical ? Size(width: contentU, height: v) : Size(width: v, height: contentU),
                                elements: [], cellRanges: cellRanges, scrollDirection: axis)
    }

    // MARK: - Private

    /// The elements of `sections` (items, and headers and footers of positive length), and
    /// the most items of a section (at least 1).
    /// - Throws: `LayoutError.tooManyElements` past `maximumElementCount`.
    private func elementCount(_ sections: [GridSection]) throws -> (total: Int, largest: Int) {
        var total = 0, largest = 1
        for section in sections {
            total += section.items.count + (section.header > 0 ? 1 : 0) + (section.footer > 0 ? 1 : 0)
            largest = max(largest, section.items.count)
        }
        guard total <= maximumElementCount else {
            throw LayoutError.tooManyElements(count: total, limit: maximumElementCount)
        }
        return (total, largest)
    }

    /// The columns of the sizing pass `second` flattened (each adaptive sub-column one), as
    /// many as `largest` items fill: each one's start across the axis (from `origin`), its
    /// length, and the fractions (across, along) that place an item in its slot.
    private func flattenedColumns(_ second: Sizing, origin: Double, upTo largest: Int)
        -> (u: [Double], length: [Double], fraction: [(u: Double, v: Double)]) {
        let vertical = axis == .vertical
        var columnU: [Double] = [], columnLength: [Double] = [], columnFraction: [(u: Double, v: Double)] = []
        for column in second.columns where columnU.count < largest {
            let fraction = column.item.alignment.map { vertical ? ($0.horizontalFraction, $0.verticalFraction)
                                                                : ($0.verticalFraction, $0.horizontalFraction) }
                ?? (alignment.fraction, 0.5)
            let step = column.subwidth + column.item.spacing
            let n = Int(min(column.count, Double(largest - columnU.count)))
            for k in 0..<n {
                columnU.append(origin + column.offset + Double(k) * step)
                columnLength.append(column.subwidth)
                columnFraction.append(fraction)
            }
        }
        return (columnU, columnLength, columnFraction)
    }

    /// Item `i` of `items`' lengths across the axis (`nil`: its column's) and along it.
    /// - Throws: `LayoutError.invalidItem` for a negative or non-finite length.
    @inline(__always)
    private func measure(_ items: SectionItems, _ i: Int, section s: Int) throws -> (u: Double?, v: Double) {
        let vertical = axis == .vertical
        let result: (u: Double?, v: Double)
        switch items {
        case .heights(let h): result = (nil, h[i])
        case .randomHeights(let h): result = (nil, h[i])
        case .uniform: return (nil, itemLength)
        case .sizes(let sizes): result = vertical ? (sizes[i].width, sizes[i].height) : (sizes[i].height, sizes[i].width)
        case .mixed(let measures):
            switch measures[i] {
            case .height(let h): result = (nil, h)
            case .size(let size): result = vertical ? (size.width, size.height) : (size.height, size.width)
            }
        }
        guard result.v.isFinite, result.v >= 0, (result.u ?? 0).isFinite, (result.u ?? 0) >= 0 else {
            let path = IndexPath(item: i, section: s)
            if let u = result.u {
                throw LayoutError.invalidItem(path, .size(vertical ? Size(width: u, height: result.v) : Size(width: result.v, height: u)))
            }
            throw LayoutError.invalidItem(path, .height)
        }
        return result
    }

    private func validate(bounds: Size, sections: [GridSection]) throws {
        try requireFinite("width", bounds.width)
        try requireFinite("height", bounds.height)
        try requireFinite("spacing", spacing)
        try requireFinite("item-height", itemLength)
        try requireFinite("padding", insets: padding)
        guard !items.isEmpty else {
            throw LayoutError.invalidParameter(name: axis == .vertical ? "columns" : "rows", section: nil, value: 0,
                                               requirement: .integer(atLeast: 1))
        }
        for item in items {
            try requireFinite("spacing", item.spacing)
            switch item.size {
            case .fixed(let w): try requireFinite("fixed", w)
            case .flexible(let minimum, let maximum):
                try requireFinite("minimum", minimum)
                if !(maximum >= minimum) || maximum.isNaN {
                    throw LayoutError.invalidParameter(name: "maximum", section: nil, value: maximum, requirement: .finiteNonNegative)
                }
            case .adaptive(let minimum, let maximum):
                try requireFinite("minimum", minimum, positive: true)
                if !(maximum >= minimum) || maximum.isNaN {
                    throw LayoutError.invalidParameter(name: "maximum", section: nil, value: maximum, requirement: .finiteNonNegative)
                }
            }
        }
        for (s, section) in sections.enumerated() {
            try requireFinite("header", section.header, section: s)
            try requireFinite("footer", section.footer, section: s)
        }
    }
}
