import LayoutCore
import LayoutFormats

/// `cvlayout waterfall`: options (SPEC section 6) and the mapping onto `WaterfallLayout`.
let waterfallEngine = EngineDescriptor(
    name: "waterfall",
    summary: "columns of varying height (CHTCollectionViewWaterfallLayout)",
    datasetHelp: """
        DATASET: item heights [120, 80, …], sizes [[w,h], …] scaled to the column width,
        {"count": N} (each --item-height tall), item objects {"items": [{"height": 120},
        {"size": [300, 200], "span": 2}, {"height": 80, "span": "full"}]} or {"sections":
        [{"heights": […], "header": 40, "footer": 20, "columns": 2, "insets": "10,10,10,10",
        "column-spacing": 8, "item-spacing": 8, "header-insets": "0", "footer-insets": "0"}, …]}.
        Without DATASET: --count (50) heights 50 + r % 100, r from SplitMix64(--seed).
        """,
    options: [
        .value("columns", "N", default: "3", "number of columns"),
        .value("column-spacing", "PT", default: "10", "gap between columns (minimumColumnSpacing)"),
        .value("item-spacing", "PT", default: "10", "gap between items of a column (minimumInteritemSpacing)"),
        .value("insets", "T,L,B,R", default: "0", "sectionInset of every section (one number: all four)"),
        .value("order", "ORDER", default: "shortest-first", "which column takes the next item",
               choices: WaterfallOrder.allCases.map(\.rawValue)),
        .value("tolerance", "PT", default: "0.001", "columns within this of the shortest count as shortest"),
        .value("header-height", "PT", default: "0", "section header height (0: no header)"),
        .value("footer-height", "PT", default: "0", "section footer height (0: no footer)"),
        .value("header-insets", "T,L,B,R", default: "0", "insets around each header"),
        .value("footer-insets", "T,L,B,R", default: "0", "insets around each footer"),
        .value("min-content-height", "PT", default: "0", "minimum contentSize height"),
        .value("item-height", "PT", default: "100", "height of the items of {\"count\": N} data"),
        .value("scroll-direction", "DIR", default: "vertical", "horizontal: columns become rows (the vertical layout transposed)",
               choices: ScrollDirection.allCases.map(\.rawValue)),
        .flag("pin-headers", "sectionHeadersPinToVisibleBounds: headers stick to the top of the visible bounds"),
    ],
    schema: .items,
    defaultCount: 50,
    layout: { input in try CollectionLayout.collecting { try waterfallLayout(input, into: &$0) } },
    stream: { input, sink in try waterfallLayout(input, into: &sink) },
    check: { input, sink in
        // The column arithmetic alone; the elements are checked one by one only when the
        // content size cannot vouch for them.
        let (layout, sections) = try waterfallSettings(input)
        if layout.sectionHeadersPinToVisibleBounds {
            // Pinned headers are drawn above the cells that follow them: the sink sees every
            // element to tell whether they come in drawing order.
            return try layout.layout(sections: sections, bounds: input.bounds,
                                     contentOffset: input.contentOffset, into: &sink)
        }
        var counter = CountingSink()
        let summary = try layout.layout(sections: sections, bounds: input.bounds,
                                        contentOffset: input.contentOffset, into: &counter)
        guard layout.elementsAreFinite(in: summary, scale: sink.scale) else {
            return try layout.layout(sections: sections, bounds: input.bounds,
                                     contentOffset: input.contentOffset, into: &sink)
        }
        sink.skip(count: counter.count, inDrawingOrder: true)  // every zIndex 0, none hidden
        return summary
    },
    quickCheck: { input, scale in
        let (layout, sections) = try waterfallSettings(input)
        return layout.succeedsWithFiniteElements(sections: sections, bounds: input.bounds, scale: scale)
    }
)

/// The waterfall engine on `input`, its elements sent to `sink` (an array, or blocks when streaming).
private func waterfallLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let (layout, sections) = try waterfallSettings(input)
    return try layout.layout(sections: sections, bounds: input.bounds, contentOffset: input.contentOffset, into: &sink)
}

/// The waterfall and its sections as `input`'s options and dataset give them.
private func waterfallSettings(_ input: EngineInput) throws -> (WaterfallLayout, [WaterfallSection]) {
    let o = input.options
    var layout = WaterfallLayout()
    layout.columnCount = try o.integer("columns", default: layout.columnCount)
    layout.minimumColumnSpacing = try o.number("column-spacing", default: layout.minimumColumnSpacing)
    layout.minimumInteritemSpacing = try o.number("item-spacing", default: layout.minimumInteritemSpacing)
    layout.sectionInset = try o.insets("insets", default: layout.sectionInset)
    layout.order = try o.choice("order", default: layout.order)
    layout.tolerance = try o.number("tolerance", default: layout.tolerance)
    layout.headerHeight = try o.number("header-height", default: layout.headerHeight)
    layout.footerHeight = try o.number("footer-height", default: layout.footerHeight)
    layout.headerInset = try o.insets("header-insets", default: layout.headerInset)
    layout.footerInset = try o.insets("footer-insets", default: layout.footerInset)
    layout.minimumContentHeight = try o.number("min-content-height", default: layout.minimumContentHeight)
    layout.itemHeight = try o.number("item-height", default: layout.itemHeight)
    layout.scrollDirection = try o.choice("scroll-direction", default: layout.scrollDirection)
    layout.sectionHeadersPinToVisibleBounds = try o.flag("pin-headers")

    let sections: [WaterfallSection]
    if let dataset = input.dataset {
        sections = try dataset.sections.enumerated().map { s, section in
            if let spans = section.spans {
                // A span wider than the section is the item's fault: named by its JSON path.
                let n = section.columns ?? layout.columnCount
                if let i = spans.firstIndex(where: { $0 > n }) {
                    let given = section.columns != nil ? "" : " (\(o.source(of: "columns") ?? "the default"))"
                    throw LayoutError.invalidParameter(name: "items[\(i)].span", section: s, value: .nan,
                                                       reason: "span \(spans[i]) is wider than the section's \(n) columns\(given)")
                }
            }
            return WaterfallSection(items: section.items, columnCount: section.columns, sectionInset: section.insets,
                                    headerHeight: section.header, footerHeight: section.footer,
                                    columnSpacing: section.columnSpacing, itemSpacing: section.itemSpacing,
                                    headerInset: section.headerInsets, footerInset: section.footerInsets,
                                    spans: section.spans)
        }
    } else {
        sections = [WaterfallSection(items: .heights(input.embeddedHeights()))]
    }
    return (layout, sections)
}
