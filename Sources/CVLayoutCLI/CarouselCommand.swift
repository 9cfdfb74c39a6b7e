import LayoutCore

/// `cvlayout carousel`: options (SPEC section 6), the mapping onto `CarouselLayout`, and its
/// snapping.
let carouselEngine = EngineDescriptor(
    name: CarouselLayout.name,
    summary: "carousel: alpha, scale and zIndex by distance from the visible centre, snapping",
    datasetHelp: """
        DATASET: item sizes [[w,h], …], or any one-section data whose item count is used
        (heights [h, …] or {"count": N}); every item is --item-size unless sizes are given.
        Without DATASET: --count (10) items.
        """,
    options: carouselOptions.specs(),
    schema: .items,
    datasetKeys: .singleSection,
    defaultCount: 10,
    layout: { input in try CollectionLayout.collecting { try carouselLayout(input, into: &$0) } },
    stream: { input, sink in try carouselLayout(input, into: &sink) },
    check: { input, sink in try carouselLayout(input, into: &sink) },
    targetContentOffset: { layout, proposed, velocity in
        CarouselLayout.targetContentOffset(in: layout, proposed: proposed, velocity: velocity)
    }
)

extension CarouselLayout: EngineConfiguration {}

/// The carousel's options, each bound to its `CarouselLayout` field.
private let carouselOptions: [BoundOption<CarouselLayout>] = [
    .size("item-size", \.itemSize, "itemSize"),
    .number("spacing", "PT", \.minimumLineSpacing, "gap between neighbouring items (minimumLineSpacing); negative overlaps them"),
    .choice("scroll-direction", "DIR", \.scrollDirection, "scrollDirection"),
    .number("standard-alpha", "F", \.standardItemAlpha, "alpha of items one item length + spacing or more from the centre"),
    .number("standard-scale", "F", \.standardItemScale, "scale of items one item length + spacing or more from the centre"),
]

/// The carousel engine on `input`, its elements sent to `sink` (an array, or blocks when streaming).
private func carouselLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let layout: CarouselLayout = try carouselOptions.configuration(from: input.options)
    return try layout.layout(singleSectionItems(input, engine: CarouselLayout.name), bounds: input.bounds,
                             contentOffset: input.contentOffset, into: &sink)
}
