import LayoutCore
import LayoutDatasets

/// `cvlayout line`: options (SPEC section 6), the mapping onto `LineLayout`, and its snapping.
let lineEngine = EngineDescriptor(
    name: LineLayout.name,
    summary: "horizontal line, items scaled by distance from the visible centre, snapping",
    datasetHelp: """
        DATASET: item sizes [[w,h], …], or any one-section data whose item count is used
        (heights [h, …] or {"count": N}); every item is --item-size unless sizes are given.
        Without DATASET: --count (20) items.
        """,
    options: lineOptions.specs(),
    schema: .items,
    datasetKeys: .singleSection,
    defaultCount: 20,
    layout: { input in try CollectionLayout.collecting { try lineLayout(input, into: &$0) } },
    stream: { input, sink in try lineLayout(input, into: &sink) },
    check: { input, sink in try lineLayout(input, into: &sink) },
    targetContentOffset: { layout, proposed, velocity in
        LineLayout.targetContentOffset(in: layout, proposed: proposed, velocity: velocity)
    }
)

extension LineLayout: EngineConfiguration {}

/// The line layout's options, each bound to its `LineLayout` field.
private let lineOptions: [BoundOption<LineLayout>] = [
    .size("item-size", \.itemSize, "itemSize"),
    .number("spacing", "PT", \.minimumLineSpacing, "gap between neighbouring items (minimumLineSpacing)"),
    .number("min-scale", "F", \.minimumScale, "lower bound of scale = 1 - |center.x - (offset.x + W/2)| / W"),
]

/// The line engine on `input`, its elements sent to `sink` (an array, or blocks when streaming).
private func lineLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let layout: LineLayout = try lineOptions.configuration(from: input.options)
    return try layout.layout(singleSectionItems(input, engine: LineLayout.name), bounds: input.bounds,
                             contentOffset: input.contentOffset, into: &sink)
}

// MARK: - Shared by line, carousel, stack and circle

/// The items of an engine that lays out one section: the dataset's only section, or
/// `--count` items of the engine's item size.
/// - Throws: `LayoutError` (bad data, 65) for a second section or for a section's header,
///   footer, columns or insets, which these engines do not use.
func singleSectionItems(_ input: EngineInput, engine: String) throws -> SectionItems {
    guard let dataset = input.dataset else { return .uniform(count: input.count) }
    if dataset.sections.count > 1 {
        throw LayoutError.tooManySections(engine: engine, count: dataset.sections.count)
    }
    guard let section = dataset.sections.first else { return .uniform(count: 0) }
    let unused: [(String, Bool)] = [("header", section.header != nil), ("footer", section.footer != nil),
                                    ("columns", section.columns != nil), ("insets", section.insets != nil)]
    for (key, given) in unused where given {
        throw LayoutError.unusedParameter(name: key, section: 0, engine: engine)
    }
    try refuseWaterfallKeys(section, section: 0, engine: engine)
    return section.items
}

/// Refuses the section keys only the waterfall reads (`items`, `column-spacing`, …): bad data
/// naming the first, `not used by ENGINE`.
func refuseWaterfallKeys(_ section: DatasetSection, section s: Int, engine: String) throws {
    if let key = section.waterfallOnlyKeys.first {
        throw LayoutError.unusedParameter(name: key, section: s, engine: engine)
    }
}
