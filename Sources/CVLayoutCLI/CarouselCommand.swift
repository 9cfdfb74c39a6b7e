import LayoutCore
import LayoutFormats

/// `cvlayout carousel`: options (SPEC section 6), the mapping onto `CarouselLayout`, and its
/// snapping.
let carouselEngine = EngineDescriptor(
    name: "carousel",
    summary: "carousel: alpha, scale and zIndex by distance from the visible centre, snapping",
    datasetHelp: """
        DATASET: item sizes [[w,h], …], or any one-section data whose item count is used
        (heights [h, …] or {"count": N}); every item is --item-size unless sizes are given.
        Without DATASET: --count (10) items.
        """,
    options: [
        .value("item-size", "W,H", default: "200,200", "itemSize"),
        .value("spacing", "PT", default: "10",
               "gap between neighbouring items (minimumLineSpacing); negative overlaps them"),
        .value("scroll-direction", "DIR", default: "vertical", "scrollDirection",
               choices: ScrollDirection.allCases.map(\.rawValue)),
        .value("standard-alpha", "F", default: "0.5", "alpha of items one item length + spacing or more from the centre"),
        .value("standard-scale", "F", default: "0.5", "scale of items one item length + spacing or more from the centre"),
    ],
    schema: .items,
    defaultCount: 10,
    layout: { input in try CollectionLayout.collecting { try carouselLayout(input, into: &$0) } },
    stream: { input, sink in try carouselLayout(input, into: &sink) },
    check: { input, sink in try carouselLayout(input, into: &sink) },
    targetContentOffset: { layout, proposed, velocity in
        CarouselLayout.targetContentOffset(in: layout, proposed: proposed, velocity: velocity)
    }
)

/// The carousel engine on `input`, its elements sent to `sink` (an array, or blocks when streaming).
private func carouselLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let o = input.options
    var layout = CarouselLayout()
    layout.itemSize = try o.size("item-size", default: layout.itemSize)
    layout.minimumLineSpacing = try o.number("spacing", default: layout.minimumLineSpacing)
    layout.scrollDirection = try o.choice("scroll-direction", default: layout.scrollDirection)
    layout.standardItemAlpha = try o.number("standard-alpha", default: layout.standardItemAlpha)
    layout.standardItemScale = try o.number("standard-scale", default: layout.standardItemScale)
    return try layout.layout(items: singleSectionItems(input, engine: "carousel"), bounds: input.bounds,
                             contentOffset: input.contentOffset, into: &sink)
}
