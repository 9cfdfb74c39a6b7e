// The ring's bounds that vouch for streamed elements unseen (`PassCapabilities.summaryCheck`).

extension RingLayout {
    /// The check pass of a streamed layout: the elements sent to `sink` only when
    /// `elementsAreFinite(in:scale:)` cannot vouch for them. Returns what `layout` does.
    /// - Throws: as `layout`. - Complexity: O(rings) when vouched for.
    public func checkLayout(_ ringCounts: [Int], bounds: Size, into sink: inout FiniteCheckSink) throws -> CollectionLayout {
        let summary = try summary(ringCounts: ringCounts, bounds: bounds)
        return try sink.result(summary, count: ringCounts.reduce(0, +),
                               vouched: elementsAreFinite(in: summary, scale: sink.scale)) {
            try layout(ringCounts, bounds: bounds, into: &$0)
        }
    }

    /// What `layout` returns, validated, without computing an element. - Throws: as `layout`.
    public func summary(ringCounts: [Int], bounds: Size) throws -> CollectionLayout {
        try validate(bounds: bounds, ringCounts: ringCounts)
        var start = 0
        var summary = CollectionLayout(engine: Self.name, bounds: bounds, contentSize: bounds, elements: [],
                                       cellRanges: ringCounts.map { count in
                                           defer { start += count }
                                           return (start: start, count: count)
                                       })
        summary.drawsCellsRound = Self.drawsCellsRound
        return summary
    }

    /// Whether every element of `summary` is finite (snapped to `scale` or not):
    /// `width + height + max(|r_s| + w_s)` over the non-empty rings bounds every number.
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
