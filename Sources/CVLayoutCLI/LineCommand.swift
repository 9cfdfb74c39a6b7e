import LayoutCore
import LayoutFormats

/// `cvlayout line`: options (SPEC section 6), the mapping onto `LineLayout`, and its snapping.
let lineEngine = EngineDescriptor(
    name: "line",
    summary: "horizontal line, items scaled by distance from the visible centre, snapping",
    datasetHelp: """
        DATASET: item sizes [[w,h], …], or any one-section data whose item count is used
        (heights [h, …] or {"count": N}); every item is --item-size unless sizes are given.
        Without DATASET: --count (20) items.
        """,
    options: [
        .value("item-size", "W,H", default: "130,130", "itemSize"),
        .value("spacing", "PT", default: "10", "gap between neighbouring items (minimumLineSpacing)"),
        .value("min-scale", "F", default: "0", "lower bound of scale = 1 - |center.x - (offset.x + W/2)| / W"),
    ],
    schema: .items,
    defaultCount: 20,
    layout: { input in try CollectionLayout.collecting { try lineLayout(input, into: &$0) } },
    stream: { input, sink in try lineLayout(input, into: &sink) },
    check: { input, sink in try lineLayout(input, into: &sink) },
    targetContentOffset: { layout, proposed, velocity in
        LineLayout.targetContentOffset(in: layout, proposed: proposed, velocity: velocity)
    }
)

/// The line engine on `input`, its elements sent to `sink` (an array, or blocks when streaming).
private func lineLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let o = input.options
    var layout = LineLayout()
    layout.itemSize = try o.size("item-size", default: layout.itemSize)
    layout.minimumLineSpacing = try o.number("spacing", default: layout.minimumLineSpacing)
    layout.minimumScale = try o.number("min-scale", default: layout.minimumScale)
    return try layout.layout(items: singleSectionItems(input, engine: "line"), bounds: input.bounds,
                             contentOffset: input.contentOffset, into: &sink)
}

// MARK: - Shared by line, carousel, stack and circle

/// The items of an engine that lays out one section: the dataset's only section, or
/// `--count` items of the engine's item size.
/// - Throws: `LayoutError` (bad data, 65) for a second section or for a section's header,
///   footer, columns or insets, which these engines do not use.
func singleSectionItems(_ input: EngineInput, engine: String) throws -> ItemHeights {
    guard let dataset = input.dataset else { return .uniform(count: input.count) }
    if dataset.sections.count > 1 {
        throw LayoutError.invalidItem(IndexPath(item: 0, section: 1),
                                      reason: "\(engine) lays out one section; the dataset has \(dataset.sections.count)")
    }
    guard let section = dataset.sections.first else { return .uniform(count: 0) }
    let unused: [(String, Bool)] = [("header", section.header != nil), ("footer", section.footer != nil),
                                    ("columns", section.columns != nil), ("insets", section.insets != nil)]
    for (key, given) in unused where given {
        throw LayoutError.invalidParameter(name: key, section: 0, value: .nan, reason: "not used by \(engine)")
    }
    try refuseWaterfallKeys(section, section: 0, engine: engine)
    return section.items
}

/// Refuses the section keys only the waterfall reads (`items`, `column-spacing`, …): bad data
/// naming the first, `not used by ENGINE`.
func refuseWaterfallKeys(_ section: DatasetSection, section s: Int, engine: String) throws {
    if let key = section.waterfallOnlyKeys.first {
        throw LayoutError.invalidParameter(name: key, section: s, value: .nan,
                                           reason: key == "items" ? "not used by \(engine) (item objects are the waterfall's; give heights or sizes)"
                                                                  : "not used by \(engine)")
    }
}
