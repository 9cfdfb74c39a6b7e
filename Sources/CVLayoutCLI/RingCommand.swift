import LayoutCore
import LayoutDatasets

/// `cvlayout ring`: options (SPEC sections 6, 7), the mapping onto `RingLayout`, the heart path.
let ringEngine = EngineDescriptor(
    name: RingLayout.name,
    summary: "concentric rings of avatars with the \"send a heart\" path",
    datasetHelp: """
        DATASET: ring counts [1, 6, 12, 18] or {"rings": [1, 6, 12, 18]}; ring s is section s.
        Without DATASET: [1, 6, 12, 18]; with --count N: N rings of 1, 6, 12, … (6·s) items.
        """,
    options: ringOptions.map(\.spec),
    schema: .ringCounts,
    defaultCount: 4,
    embeddedData: { count, _ in Dataset(sections: defaultRingCounts(count).map { DatasetSection(items: .uniform(count: $0)) }) },
    layout: { input in try CollectionLayout.collecting { try ringLayout(input, into: &$0) } },
    stream: { input, sink in try ringLayout(input, into: &sink) },
    check: { input, sink in
        try ringLayout(input) { layout, counts in try layout.checkLayout(counts, bounds: input.bounds, into: &sink) }
    },
    capabilities: .streamingWithSummaryCheck,
    movesWithContentOffset: { _ in false }
)

private func ringLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    try ringLayout(input) { layout, counts in try layout.layout(counts, bounds: input.bounds, into: &sink) }
}

/// The embedded rings: 1 avatar in the centre, then 6·s in ring s (4 rings: 1, 6, 12, 18).
private func defaultRingCounts(_ rings: Int) -> [Int] {
    (0..<rings).map { $0 == 0 ? 1 : 6 * $0 }
}

/// What the ring's options set (`heartFrom` `nil`: item 0 of the outermost non-empty ring).
struct RingConfiguration: EngineConfiguration {
    var layout = RingLayout()
    var heartStyle = HeartStyle.seed
    var heartFrom: IndexPath? = nil
    var heartTo = IndexPath(item: 0, section: 0)
    var heartSamples: Int? = nil
    var noHeart = false
}

private let ringOptions: [BoundOption<RingConfiguration>] = [
    .number("radius", "PT", \.layout.radius, "radius base"),
    .number("ring-spacing", "PT", \.layout.ringSpacing, "base step between rings"),
    .number("ring-spacing-growth", "PT", \.layout.ringSpacingGrowth, "growth of the step per ring"),
    .number("item-size", "PT", \.layout.itemSize, "side of ring 0's items"),
    .number("shrink", "F", \.layout.shrink, "item side factor per ring outward"),
    .number("start-angle", "DEG", \.layout.startAngle, "angle of item 0 of each ring (0 = 3 o'clock)"),
    .choice("direction", "DIR", \.layout.direction, "direction items advance"),
    .indexPath("heart-from", \.heartFrom, "the avatar the heart starts from",
               defaultText: "item 0 of the outermost non-empty ring"),
    .indexPath("heart-to", \.heartTo, "the avatar the heart flies to (seed style: 0:0 only)"),
    .integer("heart-samples", "N", \.heartSamples,
             "also give N points of the heart path evenly spaced by arc length (JSON: heartSamples; CSV: t,x,y,angle only)"),
    .choice("heart-style", "STYLE", \.heartStyle, "how the heart path is built"),
    .flag("no-heart", \.noHeart, "leave out the heart path"),
]

/// The ring engine on `input`: its cells by `cells` (given the ring counts), then the heart path.
func ringLayout(_ input: EngineInput,
                cells: (RingLayout, [Int]) throws -> CollectionLayout) throws -> CollectionLayout {
    let o = input.options
    let settings: RingConfiguration = try ringOptions.configuration(from: o)
    let layout = settings.layout, style = settings.heartStyle, from = settings.heartFrom, to = settings.heartTo
    if style == .seed && to != IndexPath(item: 0, section: 0) {
        throw o.conflict(in: "heart-to", "\(to)", .fixed(.seedEndsAtCentre), involving: ["heart-style"])
    }
    let sampleCount = try heartSampleCount(o, settings)
    let counts = input.dataset.map { $0.sections.map(\.items.count) } ?? defaultRingCounts(input.count)
    var result = try cells(layout, counts)
    result.contentOffset = input.contentOffset
    // The heart path reads the cells afresh: the same whether the elements were kept or streamed.
    let geometry = RingGeometry(layout: layout, ringCounts: counts, bounds: input.bounds)
    if !settings.noHeart && style == .smooth {
        result.heartPath = try smoothHeartPath(from: from, to: to, options: o, in: geometry, describing: result)
    } else if !settings.noHeart, let from {
        guard let path = HeartPath.seed(from: from, in: geometry) else {
            throw o.conflict(in: "heart-from", "\(from)", .noSuchItem(section: nil, counts: result.itemCounts))
        }
        result.heartPath = path
    } else if !settings.noHeart, let start = HeartPath.defaultStart(in: geometry) {
        result.heartPath = HeartPath.seed(from: start, in: geometry)
    }
    if let sampleCount {
        result.heartSamples = result.heartPath?.samples(count: sampleCount) ?? []
    }
    return result
}

// MARK: - Smooth style and samples

/// `--heart-style smooth`: the path from `--heart-from` (default as `RingConfiguration`'s) to
/// `--heart-to`; `nil` without a default start. `summary` names the rings' sizes in errors.
/// - Throws: `CLIError` for an index path out of range (a conflict).
private func smoothHeartPath(from: IndexPath?, to: IndexPath, options: OptionValues, in layout: RingGeometry,
                             describing summary: CollectionLayout) throws -> HeartPath? {
    let outOfRange = CLIProblem.noSuchItem(section: nil, counts: summary.itemCounts)
    guard let start = from ?? HeartPath.defaultStart(in: layout) else {
        // No path to draw; a `--heart-to` given still has to name an avatar.
        if options.has("heart-to") && layout.layoutAttributesForItem(at: to) == nil {
            throw options.conflict(in: "heart-to", "\(to)", outOfRange)
        }
        return nil
    }
    if layout.layoutAttributesForItem(at: start) == nil {
        throw options.conflict(in: "heart-from", "\(start)", outOfRange)
    }
    guard let path = HeartPath.smooth(from: start, to: to, in: layout) else {
        throw options.conflict(in: "heart-to", "\(to)", outOfRange)
    }
    return path
}

/// `--heart-samples N`: an integer from 1 to 1,000,000, or `nil` when not given.
/// - Throws: `CLIError`: a conflict with `--no-heart`; bad data (65) for an integer out of range.
private func heartSampleCount(_ o: OptionValues, _ settings: RingConfiguration) throws -> Int? {
    guard let n = settings.heartSamples else { return nil }
    if settings.noHeart {
        throw o.conflict(["heart-samples", "no-heart"], .fixed(.heartSamplesWithNoHeart))
    }
    guard (1...1_000_000).contains(n) else {
        throw CLIError(.invalidValue(o.source(of: "heart-samples")!, .integer(from: 1, to: 1_000_000), got: "\(n)"))
    }
    return n
}
