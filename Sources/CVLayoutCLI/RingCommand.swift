import LayoutCore
import LayoutFormats

/// `cvlayout ring`: options (SPEC sections 6 and 7), the mapping onto `RingLayout`, and the
/// heart path.
let ringEngine = EngineDescriptor(
    name: "ring",
    summary: "concentric rings of avatars with the \"send a heart\" path",
    datasetHelp: """
        DATASET: ring counts [1, 6, 12, 18] or {"rings": [1, 6, 12, 18]}; ring s is section s.
        Without DATASET: [1, 6, 12, 18]; with --count N: N rings of 1, 6, 12, … (6·s) items.
        """,
    options: [
        .value("radius", "PT", default: "60", "radius base"),
        .value("ring-spacing", "PT", default: "30", "base step between rings"),
        .value("ring-spacing-growth", "PT", default: "5", "growth of the step per ring"),
        .value("item-size", "PT", default: "40", "side of ring 0's items"),
        .value("shrink", "F", default: "0.8", "item side factor per ring outward"),
        .value("start-angle", "DEG", default: "-90", "angle of item 0 of each ring (0 = 3 o'clock)"),
        .value("direction", "DIR", default: "clockwise", "direction items advance",
               choices: RotationDirection.allCases.map(\.rawValue)),
        .value("heart-from", "S:I", default: "item 0 of the outermost non-empty ring",
               "the avatar the heart starts from"),
        .value("heart-to", "S:I", default: "0:0", "the avatar the heart flies to (seed style: 0:0 only)"),
        .value("heart-samples", "N", default: "-",
               "also give N points of the heart path evenly spaced by arc length (JSON: heartSamples; CSV: t,x,y,angle only)"),
        .value("heart-style", "STYLE", default: "seed", "how the heart path is built",
               choices: HeartStyle.allCases.map(\.rawValue)),
        .flag("no-heart", "leave out the heart path"),
    ],
    schema: .ringCounts,
    defaultCount: 4,
    layout: { input in try CollectionLayout.collecting { try ringLayout(input, into: &$0) } },
    stream: { input, sink in try ringLayout(input, into: &sink) },
    check: { input, sink in
        try ringLayout(input) { layout, counts in
            // The rings' extents alone; the elements are checked one by one only when those
            // cannot vouch for them.
            let summary = try layout.summary(ringCounts: counts, bounds: input.bounds)
            guard layout.elementsAreFinite(in: summary, scale: sink.scale) else {
                return try layout.layout(ringCounts: counts, bounds: input.bounds, into: &sink)
            }
            sink.skip(count: counts.reduce(0, +), inDrawingOrder: true)  // every zIndex 0, none hidden
            return summary
        }
    }
)

/// The ring engine on `input`, its elements sent to `sink` (an array, or blocks when streaming).
private func ringLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    try ringLayout(input) { layout, counts in try layout.layout(ringCounts: counts, bounds: input.bounds, into: &sink) }
}

/// The ring engine on `input`, its cells computed by `cells` (given the engine and the ring
/// counts), then the content offset and the heart path.
private func ringLayout(_ input: EngineInput,
                        cells: (RingLayout, [Int]) throws -> CollectionLayout) throws -> CollectionLayout {
    let o = input.options
    var layout = RingLayout()
    layout.radius = try o.number("radius", default: layout.radius)
    layout.ringSpacing = try o.number("ring-spacing", default: layout.ringSpacing)
    layout.ringSpacingGrowth = try o.number("ring-spacing-growth", default: layout.ringSpacingGrowth)
    layout.itemSize = try o.number("item-size", default: layout.itemSize)
    layout.shrink = try o.number("shrink", default: layout.shrink)
    layout.startAngle = try o.number("start-angle", default: layout.startAngle)
    layout.direction = try o.choice("direction", default: layout.direction)
    let style: HeartStyle = try o.choice("heart-style", default: .seed)
    let from = try o.indexPath("heart-from")
    let to = try o.indexPath("heart-to") ?? IndexPath(item: 0, section: 0)
    if style == .seed && to != IndexPath(item: 0, section: 0) {
        throw o.conflict(in: "heart-to", "\(to)", "the seed style always ends at the centre, 0:0 (--heart-style smooth goes to any avatar)",
                         involving: ["heart-style"])
    }
    let noHeart = try o.flag("no-heart")
    let sampleCount = try heartSampleCount(o, noHeart: noHeart)

    let counts: [Int]
    if let dataset = input.dataset {
        counts = dataset.sections.map(\.items.count)
    } else {
        // The seed's rings: 1 in the centre, then 6·s.
        counts = (0..<input.count).map { $0 == 0 ? 1 : 6 * $0 }
    }
    var result = try cells(layout, counts)
    result.contentOffset = input.contentOffset
    // The heart path reads the cells computed afresh, so it is the same whether the elements
    // were kept or streamed.
    let geometry = RingGeometry(layout: layout, ringCounts: counts, bounds: input.bounds)
    if !noHeart && style == .smooth {
        result.heartPath = try smoothHeartPath(from: from, to: to, options: o, in: geometry, describing: result)
    } else if !noHeart {
        if let from {
            guard let path = HeartPath.seed(from: from, in: geometry) else {
                throw o.conflict(in: "heart-from", "\(from)",
                                 "no such item (index path out of range: \(describeItems(result))")
            }
            result.heartPath = path
        } else if let start = HeartPath.defaultStart(in: geometry) {
            result.heartPath = HeartPath.seed(from: start, in: geometry)
        }
    }
    if let sampleCount {
        result.heartSamples = result.heartPath?.samples(count: sampleCount) ?? []
    }
    return result
}

// MARK: - Smooth style and samples

/// `--heart-style smooth`: the path from `--heart-from` (default: item 0 of the outermost
/// non-empty ring) to `--heart-to`; `nil` when there is no default start (a `--heart-to`
/// given must name an avatar even then). `summary` names the rings' sizes in errors.
/// - Throws: `CLIError` for an index path out of range: usage (64), or bad data (65) when it
///   came from the dataset's options.
private func smoothHeartPath(from: IndexPath?, to: IndexPath, options: OptionValues, in layout: RingGeometry,
                             describing summary: CollectionLayout) throws -> HeartPath? {
    let outOfRange = "no such item (index path out of range: \(describeItems(summary))"
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
/// - Throws: `CLIError`: usage for text that is not an integer or for `--no-heart` (bad data
///   when either came from the dataset's options); data for an integer out of range.
private func heartSampleCount(_ o: OptionValues, noHeart: Bool) throws -> Int? {
    guard o.has("heart-samples") else { return nil }
    let n = try o.integer("heart-samples", default: 0)
    if noHeart {
        throw o.conflict(["heart-samples", "no-heart"],
                         "--heart-samples samples the heart path; it cannot be used with --no-heart")
    }
    guard (1...1_000_000).contains(n) else {
        throw CLIError.data("\(o.source(of: "heart-samples")!): expected an integer from 1 to 1000000, got \(n)")
    }
    return n
}
