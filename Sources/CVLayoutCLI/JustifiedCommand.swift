import LayoutCore
import LayoutDatasets

/// `cvlayout justified`: options (flickr/justified-layout's names in help), the mapping onto
/// `JustifiedLayout`, `--stats`.
let justifiedEngine = EngineDescriptor(
    name: JustifiedLayout.name,
    summary: "justified rows of photos of equal height filling the width (flickr/justified-layout)",
    datasetHelp: """
        DATASET: aspect ratios (width ÷ height) [1.5, 0.75, …], sizes [[w,h], …] or {"sizes": …},
        {"count": N} (N square items), or {"sections": [{"heights": [aspect ratios…], "header": 40,
        "footer": 20, "insets": "10,10,10,10"}, …]}.
        Without DATASET: --count (40) aspect ratios 0.5 + 2·u, u uniform in [0, 1) from
        SplitMix64(--seed).
        """,
    options: justifiedOptions.map(\.spec),
    schema: .items,
    datasetKeys: .sectioned,
    defaultCount: 40,
    embeddedData: { count, seed in Dataset(sections: [DatasetSection(items: .heights(embeddedAspectRatios(count, seed)))]) },
    layout: { input in try CollectionLayout.collecting { try justifiedLayout(input, into: &$0) } },
    stream: { input, sink in try justifiedLayout(input, into: &sink) },
    check: { input, sink in
        try justifiedLayout(input) { layout, sections, rowEnds, statistics in
            try layout.checkLayout(sections, bounds: input.bounds, contentOffset: input.contentOffset,
                                   into: &sink, statistics: &statistics, rowEnds: rowEnds)
        }
    },
    capabilities: .streamingWithSummaryCheck,
    movesWithContentOffset: { _ in false }
)

struct JustifiedConfiguration: EngineConfiguration {
    var layout = JustifiedLayout()
    var reportsStatistics = false
    /// `--hide-widows` (Flickr's `showWidows: false`).
    var hidesWidows: Bool {
        get { !layout.showsWidows }
        set { layout.showsWidows = !newValue }
    }
}

private let justifiedOptions: [BoundOption<JustifiedConfiguration>] = [
    .number("row-height", "PT", \.layout.targetRowHeight, "target row height (targetRowHeight)"),
    .number("row-height-tolerance", "F", \.layout.targetRowHeightTolerance,
            "rows may stray this fraction from the target (targetRowHeightTolerance)"),
    .insets("insets", \.layout.insets, "insets of each section (containerPadding; one number: all four)"),
    .size("spacing", valueName: "H,V", \.layout.spacing, "gap between items, and between rows (boxSpacing; one number: both)"),
    .integer("max-rows", "N", \.layout.maximumRowCount, "at most N rows a section; later items are left out (maxNumRows)"),
    .number("force-aspect-ratio", "R", \.layout.forcedAspectRatio, "every item takes this aspect ratio (forceAspectRatio)"),
    .flag("hide-widows", \.hidesWidows, "leave out the last, incomplete row (showWidows: false)"),
    .integer("breakout-cadence", "N", \.layout.breakoutCadence,
             "every Nth row holds one landscape item at full width (fullWidthBreakoutRowCadence; greedy only)"),
    .choice("widow-style", "STYLE", \.layout.widowStyle, "how the last, incomplete row is laid out (widowLayoutStyle)"),
    .choice("breaking", "RULE", \.layout.breaking,
            "greedy: Flickr's rule, item by item; optimal: the breaks of least Σ n·(h − target)²"),
    .choice("compat", "MODE", \.layout.compatibility,
            "native: cvlayout's exact rows; flickr: flickr/justified-layout 4.1.0's boxes (greedy only)"),
    .flag("stats", \.reportsStatistics,
          "report rows, widows, min/mean/max row height and the objective (JSON: \"stats\"; CSV, SVG: a line on stderr)"),
]

/// The embedded data: `count` aspect ratios `0.5 + 2·u`, u uniform in [0, 1) from SplitMix64(`seed`).
private func embeddedAspectRatios(_ count: Int, _ seed: UInt64) -> [Double] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in 0.5 + 2 * Double(generator.next() >> 11) / 9_007_199_254_740_992 }
}

private let justifiedMemo = PassMemo.Key<(JustifiedConfiguration, [JustifiedSection], [[Int32]]?)>("justified")

/// The justified engine's settings, sections and (optimal breaking) rows' ends, made once a run.
/// - Throws: `CLIError` for conflicting options, `LayoutError` for dataset keys it does not
///   use and for settings and aspect ratios the layout refuses.
func justifiedSettings(_ input: EngineInput) throws -> (JustifiedConfiguration, [JustifiedSection], [[Int32]]?) {
    try input.memo.value(justifiedMemo) {
        let settings: JustifiedConfiguration = try justifiedOptions.configuration(from: input.options)
        let layout = settings.layout
        if layout.breaking == .optimal && layout.breakoutCadence != nil {
            throw input.options.conflict(["breaking", "breakout-cadence"], .fixed(.optimalWithBreakout))
        }
        if layout.breaking == .optimal && layout.compatibility == .flickr {
            throw input.options.conflict(["breaking", "compat"], .fixed(.optimalWithFlickr))
        }
        let sections = try input.dataset.map { dataset in
            try dataset.sections.enumerated().map { s, section in
                try refuseColumnsAndWaterfallKeys(section, section: s, engine: JustifiedLayout.name)
                return JustifiedSection(items: section.items, insets: section.insets, headerHeight: section.header,
                                        footerHeight: section.footer)
            }
        } ?? [JustifiedSection(items: .heights(embeddedAspectRatios(input.count, input.seed)))]
        let rowEnds = layout.breaking == .optimal ? try layout.optimalRowEnds(sections, bounds: input.bounds) : nil
        return (settings, sections, rowEnds)
    }
}

func justifiedLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    try justifiedLayout(input) { layout, sections, rowEnds, statistics in
        try layout.layout(sections, bounds: input.bounds, contentOffset: input.contentOffset,
                          into: &sink, statistics: &statistics, rowEnds: rowEnds)
    }
}

/// `run` on the justified settings for `input`, the statistics it fills kept for `--stats`.
private func justifiedLayout(_ input: EngineInput,
                             _ run: (JustifiedLayout, [JustifiedSection], [[Int32]]?, inout JustifiedLayout.Statistics) throws
                                 -> CollectionLayout) throws -> CollectionLayout {
    let (settings, sections, rowEnds) = try justifiedSettings(input)
    var statistics = JustifiedLayout.Statistics()
    var result = try run(settings.layout, sections, rowEnds, &statistics)
    if settings.reportsStatistics {
        let s = statistics
        result.statistics = [("rows", Double(s.rows)), ("widows", Double(s.widows)), ("minRowHeight", s.minimumRowHeight),
                             ("meanRowHeight", s.meanRowHeight), ("maxRowHeight", s.maximumRowHeight), ("objective", s.objective)]
    }
    return result
}
