// The circle's summary bounds: what vouches for every element of a streamed layout without
// visiting them (the check pass of `PassCapabilities.summaryCheck`).

extension CircleLayout {
    /// The check pass of a streamed layout: no sine or cosine when the sizes and the radius
    /// vouch for every element (`succeedsWithFiniteElements(items:bounds:scale:)`); otherwise
    /// the elements are sent to `sink` one by one. Returns what
    /// `layout(_:bounds:contentOffset:into:)` returns.
    /// - Throws: as `layout(_:bounds:contentOffset:into:)`.
    /// - Complexity: O(n) additions; O(n) elements made only when unsure.
    public func checkLayout(_ items: SectionItems, bounds: Size, contentOffset: Point = .zero,
                            into sink: inout FiniteCheckSink) throws -> CollectionLayout {
        guard succeedsWithFiniteElements(items: items, bounds: bounds, scale: sink.scale) else {
            return try layout(items, bounds: bounds, contentOffset: contentOffset, into: &sink)
        }
        sink.skip(count: items.count, zIndicesNonDecreasing: true)  // every zIndex 0, none hidden
        return summary(items: items, bounds: bounds, contentOffset: contentOffset)
    }

    /// What `layout(_:bounds:contentOffset:into:)` returns when it succeeds, without
    /// computing an element: the content size (the bounds) and the one section.
    /// - Complexity: O(1).
    public func summary(items: SectionItems, bounds: Size, contentOffset: Point = .zero) -> CollectionLayout {
        var summary = CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset, contentSize: bounds,
                                       elements: [], cellRanges: [(start: 0, count: items.count)])
        summary.drawsCellsRound = Self.drawsCellsRound
        return summary
    }

    /// Whether `layout(_:bounds:contentOffset:into:)` succeeds and every element it computes is finite,
    /// pixel-snapped to `scale` or not, decided without a sine or a cosine: the settings and
    /// every item size are checked as `layout` checks them, and every centre is at most
    /// `radius` from the bounds centre (|cos|, |sin| ≤ 1), every frame half an item further,
    /// so `width + height + radius + the largest item side` bounds every number. When this is
    /// false the layout may still succeed: run it to find out, and for its error.
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
