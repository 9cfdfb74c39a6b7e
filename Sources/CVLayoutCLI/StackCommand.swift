import LayoutCore

/// `cvlayout stack`: options (SPEC section 6) and the mapping onto `StackLayout`.
let stackEngine = EngineDescriptor(
    name: StackLayout.name,
    summary: "rotated pile at the centre, items past the angles hidden",
    datasetHelp: """
        DATASET: item sizes [[w,h], …], or any one-section data whose item count is used
        (heights [h, …] or {"count": N}); every item is --item-size unless sizes are given.
        Without DATASET: --count (8) items.
        """,
    options: stackOptions.specs(),
    schema: .items,
    datasetKeys: .singleSection,
    defaultCount: 8,
    layout: { input in try CollectionLayout.collecting { try stackLayout(input, into: &$0) } },
    stream: { input, sink in try stackLayout(input, into: &sink) },
    check: { input, sink in try stackLayout(input, into: &sink) },
    movesWithContentOffset: { _ in false }
)

extension StackLayout: EngineConfiguration {}

/// The stack's options, each bound to its `StackLayout` field.
private let stackOptions: [BoundOption<StackLayout>] = [
    .size("item-size", \.itemSize, "size of every item"),
    .numbers("angles", "DEG,…", \.angles, "rotation of items 0, 1, …; later items are hidden (empty: all hidden)",
             expected: "comma-separated degrees"),
]

/// The stack engine on `input`, its elements sent to `sink` (an array, or blocks when streaming).
private func stackLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let layout: StackLayout = try stackOptions.configuration(from: input.options)
    return try layout.layout(singleSectionItems(input, engine: StackLayout.name), bounds: input.bounds,
                             contentOffset: input.contentOffset, into: &sink)
}
