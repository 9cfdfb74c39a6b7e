// The circle's bounds that vouch for streamed elements unseen (`PassCapabilities.summaryCheck`).

extension CircleLayout {
    /// The check pass of a streamed layout: the elements sent to `sink` only when
    /// `succeedsWithFiniteElements(items:bounds:scale:)` cannot vouch for them. - Throws: as `layout`.
    public func checkLayout(_ items: SectionItems, bounds: Size, contentOffset: Point = .zero,
                            into sink: inout FiniteCheckSink) throws -> CollectionLayout {
        let vouched = succeedsWithFiniteElements(items: items, bounds: bounds, scale: sink.scale)
        return try sink.result(summary(items: items, bounds: bounds, contentOffset: contentOffset),
                               count: items.count, vouched: vouched) {
            try layout(items, bounds: bounds, contentOffset: contentOffset, into: &$0)
        }
    }

    /// What `layout` returns when it succeeds, without computing an element.
    public func summary(items: SectionItems, bounds: Size, contentOffset: Point = .zero) -> CollectionLayout {
        var summary = CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset, contentSize: bounds,
                                       elements: [], cellRanges: [(start: 0, count: items.count)])
        summary.drawsCellsRound = Self.drawsCellsRound
        return summary
    }

    /// Whether `layout` succeeds with every element finite (snapped to `scale` or not), without
    /// a sine: `width + height + radius + the largest item side` bounds every number.
    /// - Complexity: O(items) for `.sizes`, O(1) otherwise.
    public func succeedsWithFiniteElements(items: SectionItems, bounds: Size, scale: Double?) -> Bool {
        guard (try? validate(bounds: bounds)) != nil else { return false }
        var largest = Swift.max(itemSize.width, itemSize.height)
        if case .sizes(let sizes) = items {
            for i in sizes.indices {
                guard let size = try? items.size(at: i, default: itemSize) else { return false }
                largest = Swift.max(largest, Swift.max(size.width, size.height))
            }
        }
        return snappedValuesStayFinite(upTo: bounds.width + bounds.height + radius + largest, scale: scale)
    }
}
