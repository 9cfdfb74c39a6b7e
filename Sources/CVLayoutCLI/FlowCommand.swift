import LayoutCore
import LayoutFormats

/// `cvlayout flow`: options (SPEC section 6) and the mapping onto `FlowLayout`.
let flowEngine = EngineDescriptor(
    name: "flow",
    summary: "UICollectionViewFlowLayout: lines of items, headers, footers, sticky and stretchy headers",
    datasetHelp: """
        DATASET: item sizes [[w,h], …], heights [120, 80, …] (each --item-size wide),
        {"count": N} (N items of --item-size) or {"sections": [{"sizes": […], "header": 40,
        "footer": 20, "insets": "10,10,10,10"}, …]}; a section's header and footer are its
        lengths along the scroll axis.
        Without DATASET: --count (30) items of --item-size.
        """,
    options: [
        .value("item-size", "W,H", default: "50,50", "itemSize of count-only data; the width of heights-only data"),
        .value("line-spacing", "PT", default: "10", "gap between lines (minimumLineSpacing)"),
        .value("interitem-spacing", "PT", default: "10", "minimum gap between items of a line (minimumInteritemSpacing)"),
        .value("insets", "T,L,B,R", default: "0", "sectionInset of every section (one number: all four)"),
        .value("scroll-direction", "DIR", default: "vertical", "scrollDirection; lines run across it",
               choices: ScrollDirection.allCases.map(\.rawValue)),
        .value("header-size", "W,H", default: "0", "headerReferenceSize; its extent along the scroll axis counts (0: no header)"),
        .value("footer-size", "W,H", default: "0", "footerReferenceSize, as --header-size"),
        .value("alignment", "ALIGN", default: "justified", "items along a line (justified: UIKit's)",
               choices: FlowAlignment.allCases.map(\.rawValue)),
        .flag("pin-headers", "sectionHeadersPinToVisibleBounds: headers stick to the visible edge"),
        .flag("stretchy-header", "while --offset is before the start, the first header grows (a stretchy header)"),
    ],
    schema: .items,
    defaultCount: 30,
    layout: { input in try CollectionLayout.collecting { try flowLayout(input, into: &$0) } },
    stream: { input, sink in try flowLayout(input, into: &sink) },
    check: { input, sink in try flowLayout(input, into: &sink) }
)


/// The flow engine on `input`, its elements sent to `sink` (an array, or blocks when streaming).
private func flowLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let o = input.options
    var layout = FlowLayout()
    layout.itemSize = try o.size("item-size", default: layout.itemSize)
    layout.minimumLineSpacing = try o.number("line-spacing", default: layout.minimumLineSpacing)
    layout.minimumInteritemSpacing = try o.number("interitem-spacing", default: layout.minimumInteritemSpacing)
    layout.sectionInset = try o.insets("insets", default: layout.sectionInset)
    layout.scrollDirection = try o.choice("scroll-direction", default: layout.scrollDirection)
    layout.headerReferenceSize = try o.size("header-size", default: layout.headerReferenceSize)
    layout.footerReferenceSize = try o.size("footer-size", default: layout.footerReferenceSize)
    layout.alignment = try o.choice("alignment", default: layout.alignment)
    layout.sectionHeadersPinToVisibleBounds = try o.flag("pin-headers")
    layout.stretchesFirstHeader = try o.flag("stretchy-header")

    let sections: [FlowSection]
    if let dataset = input.dataset {
        sections = try dataset.sections.enumerated().map { s, section in
            if section.columns != nil {
                throw LayoutError.invalidParameter(name: "columns", section: s, value: .nan,
                                                   reason: "not used by flow (lines take as many items as fit)")
            }
            try refuseWaterfallKeys(section, section: s, engine: "flow")
            return FlowSection(items: section.items, sectionInset: section.insets,
                               headerLength: section.header, footerLength: section.footer)
        }
    } else {
        sections = [FlowSection(items: .uniform(count: input.count))]
    }
    return try layout.layout(sections: sections, bounds: input.bounds, contentOffset: input.contentOffset, into: &sink)
}
