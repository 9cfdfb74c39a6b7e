import LayoutCore

/// `cvlayout circle`: options (SPEC section 6) and the mapping onto `CircleLayout`.
let circleEngine: EngineDescriptor = {
    var descriptor = EngineDescriptor.singleSection(
        CircleLayout.self, options: circleOptions, defaultCount: 8, summary: "items evenly spaced on one circle",
        helpNote: "The small centred circle: --radius 70 --item-size 50,50\n--start-angle 90 --center-single.",
        movesWithContentOffset: false)
    descriptor.check = { input, sink in
        let layout: CircleLayout = try circleOptions.configuration(from: input.options)
        return try layout.checkLayout(singleSectionItems(input, engine: CircleLayout.name), bounds: input.bounds,
                                      contentOffset: input.contentOffset, into: &sink)
    }
    descriptor.capabilities = .streamingWithSummaryCheck
    return descriptor
}()

extension CircleLayout: EngineConfiguration {}

private let circleOptions: [BoundOption<CircleLayout>] = [
    .number("radius", "PT", \.radius, "distance from the bounds centre to the item centres"),
    .size("item-size", \.itemSize, "size of every item"),
    .number("start-angle", "DEG", \.startAngle, "angle of item 0 (0 = 3 o'clock, 90 = 6 o'clock)"),
    .choice("direction", "DIR", \.direction, "direction items advance"),
    .flag("center-single", \.centersSingleItem, "a lone item sits at the centre"),
]
