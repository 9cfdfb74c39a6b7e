import LayoutCore

/// `cvlayout flow`: options (SPEC section 6) and the mapping onto `FlowLayout`.
let flowEngine = EngineDescriptor(
    name: FlowLayout.name,
    summary: "UICollectionViewFlowLayout: lines of items, headers, footers, sticky and stretchy headers",
    datasetHelp: """
        DATASET: item sizes [[w,h], …], heights [120, 80, …] (each --item-size wide),
        {"count": N} (N items of --item-size) or {"sections": [{"sizes": […], "header": 40,
        "footer": 20, "insets": "10,10,10,10"}, …]}; a section's header and footer are its
        lengths along the scroll axis.
        Without DATASET: --count (30) items of --item-size.
        """,
    options: flowOptions.map(\.spec),
    schema: .items,
    datasetKeys: .sectioned,
    defaultCount: 30,
    layout: { input in try CollectionLayout.collecting { try flowLayout(input, into: &$0) } },
    stream: { input, sink in try flowLayout(input, into: &sink) },
    check: { input, sink in try flowLayout(input, into: &sink) },
    movesWithContentOffset: { input in try input.options.flag("pin-headers") || input.options.flag("stretchy-header") }
)

extension FlowLayout: EngineConfiguration {}

private let flowOptions: [BoundOption<FlowLayout>] = [
    .size("item-size", \.itemSize, "itemSize of count-only data; the width of heights-only data"),
    .number("line-spacing", "PT", \.minimumLineSpacing, "gap between lines (minimumLineSpacing)"),
    .number("interitem-spacing", "PT", \.minimumInteritemSpacing, "minimum gap between items of a line (minimumInteritemSpacing)"),
    .insets("insets", \.sectionInset, "sectionInset of every section (one number: all four)"),
    .choice("scroll-direction", "DIR", \.scrollDirection, "scrollDirection; lines run across it"),
    .size("header-size", \.headerReferenceSize, "headerReferenceSize; its extent along the scroll axis counts (0: no header)"),
    .size("footer-size", \.footerReferenceSize, "footerReferenceSize, as --header-size"),
    .choice("alignment", "ALIGN", \.alignment, "items along a line (justified: UIKit's)"),
    .flag("pin-headers", \.sectionHeadersPinToVisibleBounds, "sectionHeadersPinToVisibleBounds: headers stick to the visible edge"),
    .flag("stretchy-header", \.stretchesFirstHeader, "while --offset is before the start, the first header grows (a stretchy header)"),
]

private func flowLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let layout: FlowLayout = try flowOptions.configuration(from: input.options)
    let sections = try input.dataset.map { dataset in
        try dataset.sections.enumerated().map { s, section in
            try refuseColumnsAndWaterfallKeys(section, section: s, engine: FlowLayout.name)
            return FlowSection(items: section.items, sectionInset: section.insets,
                               headerLength: section.header, footerLength: section.footer)
        }
    } ?? [FlowSection(items: .uniform(count: input.count))]
    return try layout.layout(sections, bounds: input.bounds, contentOffset: input.contentOffset, into: &sink)
}
