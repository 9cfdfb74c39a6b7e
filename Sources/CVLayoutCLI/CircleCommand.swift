import LayoutCore

/// `cvlayout circle`: options (SPEC section 6) and the mapping onto `CircleLayout`.
let circleEngine = EngineDescriptor(
    name: CircleLayout.name,
    summary: "items evenly spaced on one circle",
    datasetHelp: """
        DATASET: item sizes [[w,h], …], or any one-section data whose item count is used
        (heights [h, …] or {"count": N}); every item is --item-size unless sizes are given.
        Without DATASET: --count (8) items. The small centred circle: --radius 70 --item-size 50,50
        --start-angle 90 --center-single.
        """,
    options: circleOptions.specs(),
    schema: .items,
    datasetKeys: .singleSection,
    defaultCount: 8,
    layout: { input in try CollectionLayout.collecting { try circleLayout(input, into: &$0) } },
    stream: { input, sink in try circleLayout(input, into: &sink) },
    check: circleSummaryCheck,
    capabilities: .streamingWithSummaryCheck,
    movesWithContentOffset: { _ in false }
)

/// The circle engine on `input`, its elements sent to `sink` (an array, or blocks when streaming).
private func circleLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let (layout, items) = try circleSettings(input)
    return try layout.layout(items, bounds: input.bounds, contentOffset: input.contentOffset, into: &sink)
}

extension CircleLayout: EngineConfiguration {}

/// The circle's options, each bound to its `CircleLayout` field.
private let circleOptions: [BoundOption<CircleLayout>] = [
    .number("radius", "PT", \.radius, "distance from the bounds centre to the item centres"),
    .size("item-size", \.itemSize, "size of every item"),
    .number("start-angle", "DEG", \.startAngle, "angle of item 0 (0 = 3 o'clock, 90 = 6 o'clock)"),
    .choice("direction", "DIR", \.direction, "direction items advance"),
    .flag("center-single", \.centersSingleItem, "a lone item sits at the centre"),
]

/// The circle and its items as `input`'s options and dataset give them.
func circleSettings(_ input: EngineInput) throws -> (CircleLayout, SectionItems) {
    let layout: CircleLayout = try circleOptions.configuration(from: input.options)
    return (layout, try singleSectionItems(input, engine: CircleLayout.name))
}
