// The justified engine's bounds that vouch for streamed elements unseen (`PassCapabilities`).

extension JustifiedLayout {
    /// The check pass of a streamed layout: the rows alone, the elements sent to `sink` only
    /// when `elementsAreFinite(in:statistics:scale:)` cannot vouch for them. Returns and fills
    /// what `layout(_:bounds:contentOffset:into:statistics:rowEnds:)` does. - Throws: as it.
    public func checkLayout(_ sections: [JustifiedSection], bounds: Size, contentOffset: Point,
                            into sink: inout FiniteCheckSink, statistics: inout Statistics,
                            rowEnds: [[Int32]]? = nil) throws -> CollectionLayout {
        var counter = CountingSink()
        var counted = Statistics()
        let summary = try layout(sections, bounds: bounds, contentOffset: contentOffset,
                                 into: &counter, statistics: &counted, rowEnds: rowEnds)
        let vouched = elementsAreFinite(in: summary, statistics: counted, scale: sink.scale)
        if vouched { statistics = counted }
        return try sink.result(summary, count: counter.count, vouched: vouched) {
            try layout(sections, bounds: bounds, contentOffset: contentOffset, into: &$0,
                       statistics: &statistics, rowEnds: rowEnds)
        }
    }

    /// Whether every element of a layout is finite (snapped to `scale` or not), judged from its
    /// summary (run with a `CountingSink`) and `statistics`: with no row of negative height
    /// every y lies in 0…content height; a `.native` width is a·share, the share at most
    /// (w + items·spacing)/smallest a or a widow row's height; `.flickr` boxes are bounded by
    /// the largest |x| + |width| met. - Complexity: O(sections).
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
