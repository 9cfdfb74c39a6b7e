// The justified engine's summary bounds: what vouches for every element of a streamed layout
// without visiting them (the check pass of `PassCapabilities.summaryCheck`).

extension JustifiedLayout {
    /// The check pass of a streamed layout: the rows alone (elements counted, not made); the
    /// elements are sent to `sink` one by one only when the summary cannot vouch for them (a
    /// row of negative height, an overflow near: `elementsAreFinite(in:statistics:scale:)`).
    /// Returns what `layout(_:bounds:contentOffset:into:statistics:rowEnds:)` returns, and
    /// fills `statistics` as it does.
    /// - Throws: as `layout(_:bounds:contentOffset:into:)`.
    /// - Complexity: the rows' breaking; O(n) elements made only when unsure.
    public func checkLayout(_ sections: [JustifiedSection], bounds: Size, contentOffset: Point,
                            into sink: inout FiniteCheckSink, statistics: inout Statistics,
                            rowEnds: [[Int32]]? = nil) throws -> CollectionLayout {
        var counter = CountingSink()
        var counted = Statistics()
        let summary = try layout(sections, bounds: bounds, contentOffset: contentOffset,
                                 into: &counter, statistics: &counted, rowEnds: rowEnds)
        guard elementsAreFinite(in: summary, statistics: counted, scale: sink.scale) else {
            return try layout(sections, bounds: bounds, contentOffset: contentOffset,
                              into: &sink, statistics: &statistics, rowEnds: rowEnds)
        }
        sink.skip(count: counter.count, zIndicesNonDecreasing: true)  // every zIndex 0, none hidden
        statistics = counted
        return summary
    }

    /// Whether every element of a layout holds only finite numbers, pixel-snapped to `scale`
    /// or not, judged from its summary (`layout(_:bounds:contentOffset:into:statistics:)`'s
    /// result, run with a `CountingSink`) and its `statistics` alone. With no row of negative
    /// height, every y, height and maxY lies between 0 and the content height (insets,
    /// spacing, headers and footers are ≥ 0). In cvlayout's own boxes (`.native`) an item's
    /// width is its aspect ratio a times its row's share: (w − (n−1)·spacing)/Σa for a
    /// justified row, at most (w + items·spacing)/smallest a in magnitude, or a widow row's
    /// height; x moves by a width and the spacing an item. From those bounds (each taken
    /// twice over, for rounding), with the margin snapping needs: when they are finite, so is
    /// every number. Flickr's boxes (`.flickr`), whose widow rows can be wider than the
    /// container and whose widths follow its rounding, are bounded by the largest |x| + |width|
    /// the layout met (`statistics`), its rows all of positive height (clamped).
    /// - Complexity: O(sections).
    public func elementsAreFinite(in summary: CollectionLayout, statistics: Statistics, scale: Double?) -> Bool {
        guard statistics.rows == 0 || statistics.minimumRowHeight >= 0 else { return false }
        let width = summary.contentSize.width, height = summary.contentSize.height
        if compatibility == .flickr {
            return snappedValuesStayFinite(upTo: 2 * (statistics.flickrReach + width) + height, scale: scale)
        }
        var reach = width
        if statistics.rows > 0 {
            let items = Double((0..<summary.numberOfSections).reduce(0) { $0 + summary.numberOfItems(inSection: $1) })
            let share = max((width + items * spacing.width) / statistics.smallestRatio, statistics.maximumRowHeight)
            reach += items * (statistics.largestRatio * share + spacing.width)
        }
        return snappedValuesStayFinite(upTo: 4 * reach + height, scale: scale)
    }
}
