import LayoutCore
import LayoutDatasets

/// `cvlayout line`: options (SPEC section 6), the mapping onto `LineLayout`, and its snapping.
let lineEngine = EngineDescriptor.singleSection(
    LineLayout.self, options: lineOptions, defaultCount: 20,
    summary: "horizontal line, items scaled by distance from the visible centre, snapping",
    targetContentOffset: LineLayout.targetContentOffset(in:proposed:velocity:)
)

extension LineLayout: EngineConfiguration {}

private let lineOptions: [BoundOption<LineLayout>] = [
    .size("item-size", \.itemSize, "itemSize"),
    .number("spacing", "PT", \.minimumLineSpacing, "gap between neighbouring items (minimumLineSpacing)"),
    .number("min-scale", "F", \.minimumScale, "lower bound of scale = 1 - |center.x - (offset.x + W/2)| / W"),
]

// MARK: - Shared by line, carousel, stack and circle

extension EngineDescriptor {
    /// The descriptor of an engine of one section of items (line, carousel, stack, circle): the
    /// shared schema and help (then `helpNote`), laying out `singleSectionItems` with `Engine`.
    static func singleSection<Engine>(
        _: Engine.Type, options: [BoundOption<Engine>], defaultCount: Int, summary: String, helpNote: String? = nil,
        targetContentOffset: (@Sendable (CollectionLayout, Point, Point) -> Point)? = nil,
        movesWithContentOffset: Bool = true
    ) -> EngineDescriptor where Engine: CollectionLayoutEngine & EngineConfiguration, Engine.Content == SectionItems {
        EngineDescriptor(
            name: Engine.name,
            summary: summary,
            datasetHelp: """
                DATASET: item sizes [[w,h], …], or any one-section data whose item count is used
                (heights [h, …] or {"count": N}); every item is --item-size unless sizes are given.
                Without DATASET: --count (\(defaultCount)) items.
                """ + (helpNote.map { " " + $0 } ?? ""),
            options: options.map(\.spec),
            schema: .items,
            datasetKeys: .singleSection,
            defaultCount: defaultCount,
            layout: { input in try CollectionLayout.collecting { try singleSectionLayout(options, input, into: &$0) } },
            stream: { input, sink in try singleSectionLayout(options, input, into: &sink) },
            check: { input, sink in try singleSectionLayout(options, input, into: &sink) },
            targetContentOffset: targetContentOffset,
            movesWithContentOffset: { _ in movesWithContentOffset }
        )
    }
}

private func singleSectionLayout<Engine, Sink: LayoutAttributesSink>(
    _ options: [BoundOption<Engine>], _ input: EngineInput, into sink: inout Sink
) throws -> CollectionLayout where Engine: CollectionLayoutEngine & EngineConfiguration, Engine.Content == SectionItems {
    let layout: Engine = try options.configuration(from: input.options)
    return try layout.layout(singleSectionItems(input, engine: Engine.name), bounds: input.bounds,
                             contentOffset: input.contentOffset, into: &sink)
}

/// The items of a one-section engine: the dataset's only section, or `--count` items.
/// - Throws: `LayoutError` (65) for a second section, or a header, footer, columns or insets.
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
    try refuseColumnsAndWaterfallKeys(section, section: 0, engine: engine)
    return section.items
}

/// Refuses `columns` and the keys only the waterfall reads: `LayoutError` (65) naming the first.
func refuseColumnsAndWaterfallKeys(_ section: DatasetSection, section s: Int, engine: String) throws {
    if let key = (section.columns != nil ? "columns" : nil) ?? section.waterfallOnlyKeys.first {
        throw LayoutError.unusedParameter(name: key, section: s, engine: engine)
    }
}
