// UICollectionViewFlowLayout, with sticky headers and seed 004's stretchy header.

/// Where a flow line puts its items along the line.
public enum FlowAlignment: String, Sendable, CaseIterable {
    /// UIKit's (as PSTCollectionView reverse-engineered it): full lines spread their spare space
    /// between items (a lone item centred); a last line sits on the full lines' grid when all
    /// the section's sizes are equal, else keeps the minimum spacing from the leading edge; a
    /// section's only item is centred.
    case justified
    /// Minimum spacing from the leading edge (left, or top when scrolling horizontally).
    case leading
    /// Minimum spacing, the line's items centred.
    case center
    /// Minimum spacing, the line's items against the trailing edge.
    case trailing
}

/// A flow section: its items and overrides (UICollectionViewDelegateFlowLayout's per-section callbacks).
public struct FlowSection: Sendable, Equatable {
    /// `.sizes`; `.heights` (`itemSize.width` wide); `.uniform`: items of `itemSize`.
    public var items: SectionItems
    /// Overrides `FlowLayout.sectionInset`.
    public var sectionInset: EdgeInsets?
    /// Overrides the header's extent along the scroll axis, points (0: no header).
    public var headerLength: Double?
    /// Overrides the footer's extent along the scroll axis, points (0: no footer).
    public var footerLength: Double?

    /// Creates a section of `items` with optional overrides.
    public init(items: SectionItems, sectionInset: EdgeInsets? = nil, headerLength: Double? = nil,
                footerLength: Double? = nil) {
        self.items = items
        self.sectionInset = sectionInset
        self.headerLength = headerLength
        self.footerLength = footerLength
    }
}

/// UIKit's `UICollectionViewFlowLayout` (SPEC section 6 `flow`, seed 004). Lines run across
/// the scroll direction, taking items while `Σ length + (k−1)·interitemSpacing ≤ available`
/// (a longer item sits alone, reported in `warnings`); items are centred across their line.
public struct FlowLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "flow"

    /// Size of `.uniform` items and width of `.heights` items, points (`itemSize`). Default 50×50.
    public var itemSize = Size(width: 50, height: 50)
    /// Gap between successive lines, points (`minimumLineSpacing`). Default 10.
    public var minimumLineSpacing = 10.0
    /// Minimum gap between items of a line, points (`minimumInteritemSpacing`). Default 10.
    public var minimumInteritemSpacing = 10.0
    /// Insets of each section's item area, points (`sectionInset`). Default zero.
    public var sectionInset = EdgeInsets.zero
    /// The axis lines advance along (`scrollDirection`). Default `.vertical`.
    public var scrollDirection = ScrollDirection.vertical
    /// Header size; its extent along the scroll axis counts, 0: none (`headerReferenceSize`). Default zero.
    public var headerReferenceSize = Size.zero
    /// Footer size, as `headerReferenceSize` (`footerReferenceSize`). Default zero.
    public var footerReferenceSize = Size.zero
    /// Placement of items along a line. Default `.justified` (UIKit).
    public var alignment = FlowAlignment.justified
    /// Headers stick to the visible bounds' leading edge until their section's end pushes them
    /// off, with `zIndex` `pinnedHeaderZIndex` (`sectionHeadersPinToVisibleBounds`). Default `false`.
    public var sectionHeadersPinToVisibleBounds = false
    /// Seed 004's stretchy header: at a negative offset along the scroll axis the first header
    /// grows by its magnitude and moves back as much. Default `false`.
    public var stretchesFirstHeader = false

    /// `zIndex` of pinned headers (1024, as UIKit's floating headers).
    public static let pinnedHeaderZIndex = 1024

    /// Creates a flow layout with the defaults above.
    public init() {}

    /// Lays out `sections` in a view of `bounds` size scrolled to `contentOffset` (which moves
    /// only pinned and stretchy headers). Per section: header, leading inset, lines, trailing
    /// inset, footer. `contentSize`: the cross extent by the sum along the scroll axis.
    /// - Throws: `LayoutError.invalidParameter` for a negative or non-finite setting or bound;
    ///   `.invalidItem` for a negative or non-finite item size.
    /// - Complexity: O(total items).
    public func layout<Sink: LayoutAttributesSink>(_ sections: [FlowSection], bounds: Size, contentOffset: Point = .zero,
                                                    into sink: inout Sink) throws -> CollectionLayout {
        try validate(bounds: bounds, sections: sections)
        let vertical = scrollDirection == .vertical
        // u runs along a line (across the scroll direction), v along the scroll direction.
        let crossExtent = vertical ? bounds.width : bounds.height
        let offsetV = vertical ? contentOffset.y : contentOffset.x
        func rect(u: Double, v: Double, lengthU: Double, lengthV: Double) -> Rect {
            Rect(u: u, v: v, lengthU: lengthU, lengthV: lengthV, vertical: vertical)
        }
        sink.prepare(count: try elementCount(sections))
        // A section with a pinned header, held until the header's place is known.
        var held: [LayoutAttributes] = []
        var cellRanges: [(start: Int, count: Int)] = []
        cellRanges.reserveCapacity(sections.count)
        var warnings: [String] = []
        var v = 0.0

        for (s, section) in sections.enumerated() {
            let insets = section.sectionInset ?? sectionInset
            let (lineStart, lineEnd) = vertical ? (insets.left, insets.right) : (insets.top, insets.bottom)
            let (before, after) = vertical ? (insets.top, insets.bottom) : (insets.left, insets.right)
            let available = crossExtent - lineStart - lineEnd
            try require(available >= 0, "insets", available, .lineLengthBetweenInsets,
                        section: section.sectionInset == nil ? nil : s)
            let slack = 1e-9 * max(1, available.magnitude)  // rounding of the running sum

            let header = length(.header, of: section)
            let holds = header > 0 && sectionHeadersPinToVisibleBounds
            func emit(_ element: LayoutAttributes) {
                if holds { held.append(element) } else { sink.append(element) }
            }
            let headerV = v
            // The header's frame at `top`: the first section's stretched at a negative offset.
            func headerFrame(at top: Double) -> Rect {
                let stretch = stretchesFirstHeader && s == 0 && offsetV < 0 ? -offsetV : 0
                return rect(u: 0, v: top - stretch, lengthU: crossExtent, lengthV: header + stretch)
            }
            if header > 0 {
                emit(.supplementaryView(ofKind: .header, at: IndexPath(item: 0, section: s),
                                        frame: headerFrame(at: v)))
                v += header
            }
            v += before

            let n = section.items.count
            cellRanges.append((start: sink.count + held.count, count: n))
            // Justified last lines sit on the grid of the full ones when every size is the same.
            let commonSize = alignment == .justified && n >= 2 ? try sameSize(section.items, section: s) : nil
            var first = 0
            var oversized = 0, firstOversized = (item: 0, length: 0.0)
            while first < n {
                let (end, used, sumU, thickness) = try fillLine(section.items, from: first, section: s,
                                                                room: available + slack)
                if first > 0 { v += minimumLineSpacing }
                var u = lineStart, gap = minimumInteritemSpacing
                if end - first == 1 && used > available + slack {
                    if oversized == 0 { firstOversized = (first, used) }  // alone at the leading inset
                    oversized += 1
                } else {
                    (u, gap) = placement(ofLine: first..<end, of: n, used: used, sumU: sumU, available: available,
                                         slack: slack, lineStart: lineStart, commonSize: commonSize)
                }
                for item in first..<end {
                    let (lu, lv) = along(try itemSize(section.items, item: item, section: s))
                    emit(.cell(IndexPath(item: item, section: s),
                               frame: rect(u: u, v: v + (thickness - lv) / 2, lengthU: lu, lengthV: lv)))
                    u += lu + gap
                }
                v += thickness
                first = end
            }
            v += after
            let sectionEnd = v

            if oversized > 0 {
                warnings.append("section \(s): \(oversized) item\(oversized == 1 ? "" : "s") longer "
                                + "than the line's \(shortDecimal(available)) points sit\(oversized == 1 ? "s" : "") "
                                + "alone (first: item \(s):\(firstOversized.item), "
                                + "\(shortDecimal(firstOversized.length)) points)")
            }

            if holds {
                held[0].zIndex = Self.pinnedHeaderZIndex
                held[0].frame = headerFrame(at: min(max(offsetV, headerV), sectionEnd - header))
                for element in held { sink.append(element) }
                held.removeAll(keepingCapacity: true)
            }

            let footer = length(.footer, of: section)
            if footer > 0 {
                sink.append(.supplementaryView(ofKind: .footer, at: IndexPath(item: 0, section: s),
                                               frame: rect(u: 0, v: v, lengthU: crossExtent, lengthV: footer)))
                v += footer
            }
        }

        var result = CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset,
                                      contentSize: vertical ? Size(width: bounds.width, height: v)
                                          : Size(width: v, height: bounds.height),
                                      elements: [], cellRanges: cellRanges, scrollDirection: scrollDirection)
        result.warnings = warnings
        return result
    }

    /// `size` as (length along a line, thickness across it).
    @inline(__always)
    private func along(_ size: Size) -> (u: Double, v: Double) {
        scrollDirection == .vertical ? (size.width, size.height) : (size.height, size.width)
    }

    private func elementCount(_ sections: [FlowSection]) throws -> Int {
        let total = sections.reduce(0) { total, section in
            total + section.items.count + (length(.header, of: section) > 0 ? 1 : 0)
                + (length(.footer, of: section) > 0 ? 1 : 0)
        }
        guard total <= maximumElementCount else {
            throw LayoutError.tooManyElements(count: total, limit: maximumElementCount)
        }
        return total
    }

    /// Items from `first` while they and minimum gaps fit in `room` (one at least); `sumU`: their lengths.
    private func fillLine(_ items: SectionItems, from first: Int, section s: Int,
                          room: Double) throws -> (end: Int, used: Double, sumU: Double, thickness: Double) {
        let n = items.count
        var size = try itemSize(items, item: first, section: s)
        var used = along(size).u, sumU = used, thickness = along(size).v
        var end = first + 1
        while end < n {
            size = try itemSize(items, item: end, section: s)
            let (u, t) = along(size)
            guard used + minimumInteritemSpacing + u <= room else { break }
            used += minimumInteritemSpacing + u
            sumU += u
            thickness = max(thickness, t)
            end += 1
        }
        return (end, used, sumU, thickness)
    }

    /// `commonSize` (all the section's `n` items') puts a justified last line on the full lines' grid.
    private func placement(ofLine line: Range<Int>, of n: Int, used: Double, sumU: Double, available: Double,
                           slack: Double, lineStart: Double, commonSize: Size?) -> (u: Double, gap: Double) {
        let k = line.count, end = line.upperBound
        let spare = available - used
        var u = lineStart, gap = minimumInteritemSpacing
        switch alignment {
        case .leading: break
        case .center: u += spare / 2
        case .trailing: u += spare
        case .justified:
            if n == 1 || (end < n && k == 1) {
                u += spare / 2  // a section's only item, or a full line's lone item
            } else if end < n {
                gap = (available - sumU) / Double(k - 1)
            } else if let commonSize {
                // The last line continues the grid: as many slots as a line holds.
                let length = along(commonSize).u
                let fit = length + minimumInteritemSpacing > 0
                    ? ((available + slack + minimumInteritemSpacing) / (length + minimumInteritemSpacing))
                        .rounded(.down)
                    : Double(k)
                if fit <= 1 {
                    u += spare / 2
                } else {
                    gap = (available - fit * length) / (fit - 1)
                }
            }
        }
        return (u, gap)
    }

    /// Along the scroll axis.
    private func length(_ kind: ElementKind, of section: FlowSection) -> Double {
        let size = kind == .header ? headerReferenceSize : footerReferenceSize
        return (kind == .header ? section.headerLength : section.footerLength) ?? along(size).v
    }

    /// A height is `itemSize.width` wide.
    private func itemSize(_ items: SectionItems, item: Int, section: Int) throws -> Size {
        try items.size(at: item, default: itemSize, section: section, heightsKeepWidth: true)
    }

    /// `nil` when the sizes differ.
    private func sameSize(_ items: SectionItems, section: Int) throws -> Size? {
        let first = try itemSize(items, item: 0, section: section)
        if case .uniform = items { return first }
        for item in 1..<items.count where try itemSize(items, item: item, section: section) != first {
            return nil
        }
        return first
    }

    private func validate(bounds: Size, sections: [FlowSection]) throws {
        try requireFiniteNonNegative(["width": bounds.width, "height": bounds.height, "item-size": itemSize.width,
                                      "item-size": itemSize.height, "line-spacing": minimumLineSpacing,
                                      "interitem-spacing": minimumInteritemSpacing])
        try requireFinite("insets", insets: sectionInset)
        try requireFinite("header-size", headerReferenceSize.width, headerReferenceSize.height)
        try requireFinite("footer-size", footerReferenceSize.width, footerReferenceSize.height)
        for (s, section) in sections.enumerated() {
            try requireFinite("insets", insets: section.sectionInset, section: s)
            try requireFinite("header", section.headerLength, section: s)
            try requireFinite("footer", section.footerLength, section: s)
        }
    }
}

/// `value` with at most three decimals and no trailing zeros, for messages.
func shortDecimal(_ value: Double) -> String {
    guard value.isFinite, value.magnitude < 1e15 else {
        // Swift's own text, without a trailing `.0`.
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
    let scaled = (value * 1000).rounded()
    let sign = scaled < 0 ? "-" : ""
    let units = Int(scaled.magnitude)
    var decimals = String(1000 + units % 1000).dropFirst()  // three digits, zero-padded
    while decimals.last == "0" { decimals.removeLast() }
    return sign + String(units / 1000) + (decimals.isEmpty ? "" : "." + decimals)
}
