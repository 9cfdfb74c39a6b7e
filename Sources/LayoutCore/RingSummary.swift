// The ring's summary bounds: what vouches for every element of a streamed layout without
// visiting them (the check pass of `PassCapabilities.summaryCheck`).

extension RingLayout {
    /// The check pass of a streamed layout: the rings' extents alone
    /// (`summary(ringCounts:bounds:)`); the elements are sent to `sink` one by one only when
    /// those cannot vouch for them (`elementsAreFinite(in:scale:)`). Returns what
    /// `layout(_:bounds:contentOffset:into:)` returns.
    /// - Throws: as `layout(_:bounds:contentOffset:into:)`.
    /// - Complexity: O(rings); O(n) elements made only when unsure.
    public func checkLayout(_ ringCounts: [Int], bounds: Size, into sink: inout FiniteCheckSink) throws -> CollectionLayout {
        let summary = try summary(ringCounts: ringCounts, bounds: bounds)
        guard elementsAreFinite(in: summary, scale: sink.scale) else {
            return try layout(ringCounts, bounds: bounds, into: &sink)
        }
        sink.skip(count: ringCounts.reduce(0, +), zIndicesNonDecreasing: true)  // every zIndex 0, none hidden
        return summary
    }

    /// What `layout(_:bounds:contentOffset:into:)` returns, without computing an element: the
    /// content size (the bounds) and the sections, after the same validation.
    /// - Throws: as `layout(_:bounds:contentOffset:into:)`.
    /// - Complexity: O(rings).
    public func summary(ringCounts: [Int], bounds: Size) throws -> CollectionLayout {
        try validate(bounds: bounds, ringCounts: ringCounts)
        var cellRanges: [(start: Int, count: Int)] = []
        cellRanges.reserveCapacity(ringCounts.count)
        var start = 0
        for count in ringCounts {
            cellRanges.append((start: start, count: count))
            start += count
        }
        var summary = CollectionLayout(engine: Self.name, bounds: bounds, contentSize: bounds,
                                       elements: [], cellRanges: cellRanges)
        summary.drawsCellsRound = Self.drawsCellsRound
        return summary
    }

    /// Whether every element of `summary` (from `summary(ringCounts:bounds:)`) holds only
    /// finite numbers, pixel-snapped to `scale` or not, judged ring by ring: an item's centre
    /// is at most `|r_s|` (|cos|, |sin| ≤ 1) from the bounds centre and its frame reaches
    /// `w_s/2` further, so `width + height + max(|r_s| + w_s)` over the non-empty rings
    /// bounds every number. When this is true the elements need no check one by one
    /// (`FiniteCheckSink.skip`); when false some may still be finite, and they must be
    /// checked.
    /// - Complexity: O(rings).
    public func elementsAreFinite(in summary: CollectionLayout, scale: Double?) -> Bool {
        var reach = 0.0
        for s in 0..<summary.numberOfSections where summary.numberOfItems(inSection: s) > 0 {
            let extent = ringRadius(ring: s).magnitude + itemSide(ring: s)
            guard extent.isFinite else { return false }
            reach = Swift.max(reach, extent)
        }
        return snappedValuesStayFinite(upTo: summary.bounds.width + summary.bounds.height + reach, scale: scale)
    }
}
