import LayoutCore

/// `cvlayout stack`: options (SPEC section 6) and the mapping onto `StackLayout`.
let stackEngine = EngineDescriptor.singleSection(
    StackLayout.self, options: stackOptions, defaultCount: 8,
    summary: "rotated pile at the centre, items past the angles hidden", movesWithContentOffset: false
)

extension StackLayout: EngineConfiguration {}

private let stackOptions: [BoundOption<StackLayout>] = [
    .size("item-size", \.itemSize, "size of every item"),
    .numbers("angles", "DEG,…", \.angles, "rotation of items 0, 1, …; later items are hidden (empty: all hidden)",
             expected: "comma-separated degrees"),
]
