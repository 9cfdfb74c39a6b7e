import LayoutCore
import LayoutFormats

/// `cvlayout stack`: options (SPEC section 6) and the mapping onto `StackLayout`.
let stackEngine = EngineDescriptor(
    name: "stack",
    summary: "rotated pile at the centre, items past the angles hidden",
    datasetHelp: """
        DATASET: item sizes [[w,h], …], or any one-section data whose item count is used
        (heights [h, …] or {"count": N}); every item is --item-size unless sizes are given.
        Without DATASET: --count (8) items.
        """,
    options: [
        .value("item-size", "W,H", default: "150,150", "size of every item"),
        .value("angles", "DEG,…", default: "0,15,30,45,60",
               "rotation of items 0, 1, …; later items are hidden (empty: all hidden)"),
    ],
    schema: .items,
    defaultCount: 8,
    layout: { input in try CollectionLayout.collecting { try stackLayout(input, into: &$0) } },
    stream: { input, sink in try stackLayout(input, into: &sink) },
    check: { input, sink in try stackLayout(input, into: &sink) }
)

/// The stack engine on `input`, its elements sent to `sink` (an array, or blocks when streaming).
private func stackLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let o = input.options
    var layout = StackLayout()
    layout.itemSize = try o.size("item-size", default: layout.itemSize)
    if let text = try o.text("angles") {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let angles = text.isEmpty ? [] : parts.map { ValueSyntax.number(String($0)) }
        guard angles.allSatisfy({ $0 != nil }) else {
            throw o.malformed("angles", o.values["angles"]!, expected: "comma-separated degrees")
        }
        layout.angles = angles.map { $0! }
    }
    return try layout.layout(items: singleSectionItems(input, engine: "stack"), bounds: input.bounds,
                             contentOffset: input.contentOffset, into: &sink)
}
