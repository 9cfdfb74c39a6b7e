import LayoutCore

// The ring's summary bounds: what vouches for every element of a streamed layout without
// visiting them (`PassCapabilities.summaryCheck`).

/// The ring's check pass: the rings' extents alone (`RingLayout.summary(ringCounts:bounds:)`);
/// the elements are checked one by one only when those cannot vouch for them
/// (`RingLayout.elementsAreFinite(in:scale:)`).
/// - Throws: what the engine throws.
/// - Complexity: O(rings); O(n) elements made only when unsure.
func ringSummaryCheck(_ input: EngineInput, _ sink: inout FiniteCheckSink) throws -> CollectionLayout {
    try ringLayout(input) { layout, counts in
        let summary = try layout.summary(ringCounts: counts, bounds: input.bounds)
        guard layout.elementsAreFinite(in: summary, scale: sink.scale) else {
            return try layout.layout(counts, bounds: input.bounds, into: &sink)
        }
        sink.skip(count: counts.reduce(0, +), zIndicesNonDecreasing: true)  // every zIndex 0, none hidden
        return summary
    }
}
