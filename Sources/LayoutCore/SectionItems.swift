// The items of one section as a dataset gives them: heights, sizes, or a count of items of
// the layout's own size. Every engine that lays out items reads them.

/// The items of one section, as the dataset gives them.
///
/// Each engine reads the measure it uses: the waterfall heights (a size scaled to the column
/// width, `h·columnWidth/width`), flow sizes (a height with `itemSize.width`), line, carousel,
/// stack and circle sizes (or their own `itemSize` for heights and counts); ring counts are
/// `uniform` sections.
public enum SectionItems: Sendable, Equatable {
    /// Item heights in points, each finite and ≥ 0.
    case heights([Double])
    /// Item sizes in points, width > 0 and height ≥ 0 (the waterfall keeps their aspect ratio).
    case sizes([Size])
    /// `count` items of the layout's own item size or height.
    case uniform(count: Int)
    /// Heights and sizes mixed, item by item (a waterfall dataset's `"items"` objects).
    case mixed([ItemMeasure])

    /// Number of items. - Complexity: O(1).
    public var count: Int {
        switch self {
        case .heights(let h): h.count
        case .sizes(let s): s.count
        case .uniform(let n): n
        case .mixed(let m): m.count
        }
    }
}

/// One item's measure when a section mixes heights and sizes.
public enum ItemMeasure: Sendable, Equatable {
    /// A height in points, finite and ≥ 0.
    case height(Double)
    /// A size scaled to the item's width keeping its aspect ratio; width > 0, height ≥ 0.
    case size(Size)
}

extension SectionItems {
    /// Item `index`'s size: from `.sizes` (or a size among `.mixed` measures), otherwise
    /// `fallback`.
    /// - Throws: `LayoutError.invalidItem` for a negative or non-finite size.
    func size(at index: Int, default fallback: Size) throws -> Size {
        let size: Size
        switch self {
        case .sizes(let sizes): size = sizes[index]
        case .mixed(let measures):
            guard case .size(let s) = measures[index] else { return fallback }
            size = s
        default: return fallback
        }
        guard size.width >= 0, size.width.isFinite, size.height >= 0, size.height.isFinite else {
            throw LayoutError.invalidItem(IndexPath(item: index, section: 0), .size(size))
        }
        return size
    }
}
