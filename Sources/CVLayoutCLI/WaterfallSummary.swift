import LayoutCore
import LayoutWriters

// The waterfall's summary bounds: what vouches for every element of a streamed layout without
// visiting them (`PassCapabilities.summaryCheck`, `.vouchesWithoutLayingOut`).

/// The waterfall's check pass: the column arithmetic alone (elements counted, not made); the
/// elements are checked one by one only when the content size cannot vouch for them
/// (`WaterfallLayout.elementsAreFinite(in:scale:)`), or when headers are pinned.
/// - Throws: what the engine throws.
/// - Complexity: O(n) additions; O(n) elements made only when unsure.
func waterfallSummaryCheck(_ input: EngineInput, _ sink: inout FiniteCheckSink) throws -> CollectionLayout {
    let (layout, sections) = try waterfallSettings(input)
    if layout.sectionHeadersPinToVisibleBounds {
        // Pinned headers are drawn above the cells that follow them: the sink sees every
        // element to tell whether they come in drawing order.
        return try layout.layout(sections, bounds: input.bounds,
                                 contentOffset: input.contentOffset, into: &sink)
    }
    var counter = CountingSink()
    let summary = try layout.layout(sections, bounds: input.bounds,
                                    contentOffset: input.contentOffset, into: &counter)
    guard layout.elementsAreFinite(in: summary, scale: sink.scale) else {
        return try layout.layout(sections, bounds: input.bounds,
                                 contentOffset: input.contentOffset, into: &sink)
    }
    sink.skip(count: counter.count, zIndicesNonDecreasing: true)  // every zIndex 0, none hidden
    return summary
}

/// For a streamed CSV or SVG: the waterfall vouched for without laying out when it succeeds
/// with every element finite once snapped to `scale` (`WaterfallLayout.succeedsWithFiniteElements`);
/// `nil` when unsure. Every zIndex is 0 and none hidden, so the elements come in drawing
/// order unless headers are pinned (drawn above the cells that follow them).
/// - Throws: what reading the options throws.
func waterfallQuickCheck(_ input: EngineInput, _ scale: Double?) throws -> LayoutPipeline.QuickCheck? {
    let (layout, sections) = try waterfallSettings(input)
    guard layout.succeedsWithFiniteElements(sections: sections, bounds: input.bounds, scale: scale) else { return nil }
    return LayoutPipeline.QuickCheck(elementCount: layout.elementCount(of: sections), numberOfSections: sections.count,
                                     isInDrawingOrder: !layout.sectionHeadersPinToVisibleBounds)
}
