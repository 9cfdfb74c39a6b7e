import LayoutCore

/// `cvlayout carousel`: options (SPEC section 6), the mapping onto `CarouselLayout`, snapping.
let carouselEngine = EngineDescriptor.singleSection(
    CarouselLayout.self, options: carouselOptions, defaultCount: 10,
    summary: "carousel: alpha, scale and zIndex by distance from the visible centre, snapping",
    targetContentOffset: CarouselLayout.targetContentOffset(in:proposed:velocity:)
)

extension CarouselLayout: EngineConfiguration {}

private let carouselOptions: [BoundOption<CarouselLayout>] = [
    .size("item-size", \.itemSize, "itemSize"),
    .number("spacing", "PT", \.minimumLineSpacing, "gap between neighbouring items (minimumLineSpacing); negative overlaps them"),
    .choice("scroll-direction", "DIR", \.scrollDirection, "scrollDirection"),
    .number("standard-alpha", "F", \.standardItemAlpha, "alpha of items one item length + spacing or more from the centre"),
    .number("standard-scale", "F", \.standardItemScale, "scale of items one item length + spacing or more from the centre"),
]
