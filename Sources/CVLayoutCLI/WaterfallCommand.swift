import LayoutCore
import LayoutDatasets
import LayoutWriters

/// `cvlayout waterfall`: options (SPEC section 6) and the mapping onto `WaterfallLayout`.
let waterfallEngine = EngineDescriptor(
    name: WaterfallLayout.name,
    summary: "columns of varying height (CHTCollectionViewWaterfallLayout)",
    datasetHelp: """
        DATASET: item heights [120, 80, …], sizes [[w,h], …] scaled to the column width,
        {"count": N} (each --item-height tall), item objects {"items": [{"height": 120},
        {"size": [300, 200], "span": 2}, {"height": 80, "span": "full"}]} or {"sections":
        [{"heights": […], "header": 40, "footer": 20, "columns": 2, "insets": "10,10,10,10",
        "column-spacing": 8, "item-spacing": 8, "header-insets": "0", "footer-insets": "0"}, …]}.
        Without DATASET: --count (50) heights 50 + r % 100, r from SplitMix64(--seed).
        """,
    options: waterfallOptions.map(\.spec),
    schema: .items,
    defaultCount: 50,
    embeddedData: { count, seed in
        // As an array for --insert, --delete and --move (the layout reads `RandomHeights`).
        Dataset(sections: [DatasetSection(items: .heights(Array(RandomHeights(count: count, seed: seed))))])
    },
    layout: { input in try CollectionLayout.collecting { try waterfallLayout(input, into: &$0) } },
    stream: { input, sink in try waterfallLayout(input, into: &sink) },
    check: { input, sink in
        let (layout, sections) = try waterfallSettings(input)
        return try layout.checkLayout(sections, bounds: input.bounds, contentOffset: input.contentOffset, into: &sink)
    },
    quickCheck: { input, scale in
        let (layout, sections) = try waterfallSettings(input)
        guard layout.succeedsWithFiniteElements(sections: sections, bounds: input.bounds, scale: scale) else { return nil }
        // Every zIndex is 0: in drawing order unless pinned headers are drawn above cells.
        return (elementCount: layout.elementCount(of: sections), numberOfSections: sections.count,
                isInDrawingOrder: !layout.sectionHeadersPinToVisibleBounds)
    },
    capabilities: PassCapabilities(streams: true, summaryCheck: true, vouchesWithoutLayingOut: true),
    movesWithContentOffset: { input in try input.options.flag("pin-headers") }
)

private func waterfallLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let (layout, sections) = try waterfallSettings(input)
    return try layout.layout(sections, bounds: input.bounds, contentOffset: input.contentOffset, into: &sink)
}

extension WaterfallLayout: EngineConfiguration {}

private let waterfallOptions: [BoundOption<WaterfallLayout>] = [
    .integer("columns", "N", \.columnCount, "number of columns"),
    .number("column-spacing", "PT", \.minimumColumnSpacing, "gap between columns (minimumColumnSpacing)"),
    .number("item-spacing", "PT", \.minimumInteritemSpacing, "gap between items of a column (minimumInteritemSpacing)"),
    .insets("insets", \.sectionInset, "sectionInset of every section (one number: all four)"),
    .choice("order", "ORDER", \.order, "which column takes the next item"),
    .number("tolerance", "PT", \.tolerance, "columns within this of the shortest count as shortest"),
    .number("header-height", "PT", \.headerHeight, "section header height (0: no header)"),
    .number("footer-height", "PT", \.footerHeight, "section footer height (0: no footer)"),
    .insets("header-insets", \.headerInset, "insets around each header"),
    .insets("footer-insets", \.footerInset, "insets around each footer"),
    .number("min-content-height", "PT", \.minimumContentHeight, "minimum contentSize height"),
    .number("item-height", "PT", \.itemHeight, "height of the items of {\"count\": N} data"),
    .choice("scroll-direction", "DIR", \.scrollDirection, "horizontal: columns become rows (the vertical layout transposed)"),
    .flag("pin-headers", \.sectionHeadersPinToVisibleBounds,
          "sectionHeadersPinToVisibleBounds: headers stick to the top of the visible bounds"),
]

func waterfallSettings(_ input: EngineInput) throws -> (WaterfallLayout, [WaterfallSection]) {
    let layout: WaterfallLayout = try waterfallOptions.configuration(from: input.options)
    let sections = try input.dataset.map { dataset in
        try dataset.sections.enumerated().map { s, section in
            // A span wider than the section is the item's fault: named by its JSON path.
            let n = section.columns ?? layout.columnCount
            if let spans = section.spans, let i = spans.firstIndex(where: { $0 > n }) {
                throw LayoutError.spanTooWide(section: s, item: i, span: spans[i], columns: n,
                                              columnsOfSection: section.columns != nil)
            }
            return WaterfallSection(items: section.items, columnCount: section.columns, sectionInset: section.insets,
                                    headerHeight: section.header, footerHeight: section.footer,
                                    columnSpacing: section.columnSpacing, itemSpacing: section.itemSpacing,
                                    headerInset: section.headerInsets, footerInset: section.footerInsets,
                                    spans: section.spans)
        }
        // Without a dataset each height is computed as its item is placed: no array to fill first.
    } ?? [WaterfallSection(items: .randomHeights(RandomHeights(count: input.count, seed: input.seed)))]
    return (layout, sections)
}
