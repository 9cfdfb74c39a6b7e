import LayoutCore
import LayoutFormats

/// `cvlayout circle`: options (SPEC section 6) and the mapping onto `CircleLayout`.
let circleEngine = EngineDescriptor(
    name: "circle",
    summary: "items evenly spaced on one circle",
    datasetHelp: """
        DATASET: item sizes [[w,h], …], or any one-section data whose item count is used
        (heights [h, …] or {"count": N}); every item is --item-size unless sizes are given.
        Without DATASET: --count (8) items. The small centred circle: --radius 70 --item-size 50,50
        --start-angle 90 --center-single.
        """,
    options: [
        .value("radius", "PT", default: "100", "distance from the bounds centre to the item centres"),
        .value("item-size", "W,H", default: "60,60", "size of every item"),
        .value("start-angle", "DEG", default: "0", "angle of item 0 (0 = 3 o'clock, 90 = 6 o'clock)"),
        .value("direction", "DIR", default: "counterclockwise", "direction items advance",
               choices: RotationDirection.allCases.map(\.rawValue)),
        .flag("center-single", "a lone item sits at the centre"),
    ],
    schema: .items,
    defaultCount: 8,
    layout: { input in try CollectionLayout.collecting { try circleLayout(input, into: &$0) } },
    stream: { input, sink in try circleLayout(input, into: &sink) },
    check: { input, sink in
        // No sine or cosine when the sizes and the radius vouch for every element; otherwise
        // the elements are checked one by one.
        let (layout, items) = try circleSettings(input)
        guard layout.succeedsWithFiniteElements(items: items, bounds: input.bounds, scale: sink.scale) else {
            return try layout.layout(items: items, bounds: input.bounds, contentOffset: input.contentOffset, into: &sink)
        }
        sink.skip(count: items.count, inDrawingOrder: true)  // every zIndex 0, none hidden
        return layout.summary(items: items, bounds: input.bounds, contentOffset: input.contentOffset)
    }
)

/// The circle engine on `input`, its elements sent to `sink` (an array, or blocks when streaming).
private func circleLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let (layout, items) = try circleSettings(input)
    return try layout.layout(items: items, bounds: input.bounds, contentOffset: input.contentOffset, into: &sink)
}

/// The circle and its items as `input`'s options and dataset give them.
private func circleSettings(_ input: EngineInput) throws -> (CircleLayout, ItemHeights) {
    let o = input.options
    var layout = CircleLayout()
    layout.radius = try o.number("radius", default: layout.radius)
    layout.itemSize = try o.size("item-size", default: layout.itemSize)
    layout.startAngle = try o.number("start-angle", default: layout.startAngle)
    layout.direction = try o.choice("direction", default: layout.direction)
    layout.centersSingleItem = try o.flag("center-single")
    return (layout, try singleSectionItems(input, engine: "circle"))
}
