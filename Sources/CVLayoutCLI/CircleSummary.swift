import LayoutCore

// The circle's summary bounds: what vouches for every element of a streamed layout without
// visiting them (`PassCapabilities.summaryCheck`).

/// The circle's check pass: no sine or cosine when the sizes and the radius vouch for every
/// element (`CircleLayout.succeedsWithFiniteElements(items:bounds:scale:)`); otherwise the
/// elements are checked one by one.
/// - Throws: what the engine throws.
/// - Complexity: O(n) additions; O(n) elements made only when unsure.
func circleSummaryCheck(_ input: EngineInput, _ sink: inout FiniteCheckSink) throws -> CollectionLayout {
    let (layout, items) = try circleSettings(input)
    guard layout.succeedsWithFiniteElements(items: items, bounds: input.bounds, scale: sink.scale) else {
        return try layout.layout(items, bounds: input.bounds, contentOffset: input.contentOffset, into: &sink)
    }
    sink.skip(count: items.count, zIndicesNonDecreasing: true)  // every zIndex 0, none hidden
    return layout.summary(items: items, bounds: input.bounds, contentOffset: input.contentOffset)
}
