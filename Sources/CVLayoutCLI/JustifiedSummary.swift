import LayoutCore

// The justified engine's summary bounds: what vouches for every element of a streamed layout
// without visiting them (`PassCapabilities.summaryCheck`).

/// The justified engine's check pass: the rows alone (elements counted, not made); the
/// elements are checked one by one only when the summary cannot vouch for them (a row of
/// negative height, an overflow near: `JustifiedLayout.elementsAreFinite(in:statistics:scale:)`).
/// With `--stats` the summary carries the statistics.
/// - Throws: what the engine throws.
/// - Complexity: the rows' breaking; O(n) elements made only when unsure.
func justifiedSummaryCheck(_ input: EngineInput, _ sink: inout FiniteCheckSink) throws -> CollectionLayout {
    let (settings, sections, rowEnds) = try justifiedSettings(input)
    var counter = CountingSink()
    var statistics = JustifiedLayout.Statistics()
    var summary = try settings.layout.layout(sections, bounds: input.bounds, contentOffset: input.contentOffset,
                                             into: &counter, statistics: &statistics, rowEnds: rowEnds)
    guard settings.layout.elementsAreFinite(in: summary, statistics: statistics, scale: sink.scale) else {
        return try justifiedLayout(input, into: &sink)
    }
    sink.skip(count: counter.count, zIndicesNonDecreasing: true)  // every zIndex 0, none hidden
    if settings.reportsStatistics { summary.statistics = statisticsReport(statistics) }
    return summary
}
