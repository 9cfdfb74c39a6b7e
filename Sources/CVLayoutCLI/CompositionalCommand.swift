import Foundation
import LayoutCore
import LayoutDatasets

/// `cvlayout compositional`: a UICollectionViewCompositionalLayout from a JSON description
/// whose names mirror the Swift API (`CompositionalDescription`), laid out by
/// `CompositionalLayout`, which rounds to `--scale` itself as UIKit does.
let compositionalEngine = EngineDescriptor(
    name: CompositionalLayout.name,
    summary: "UICollectionViewCompositionalLayout: sections of nested groups, orthogonal rows, pinned headers, badges",
    datasetHelp: """
        DATASET: a description named as the Swift API: {"configuration": {"scrollDirection": "vertical",
        "interSectionSpacing": 0, "boundarySupplementaryItems": […]}, "sections": [{"count": N, "group":
        {"horizontal": {"layoutSize": {"width": "fractionalWidth(1.0)", "height": "absolute(44)"},
        "subitems": [{"item": {"layoutSize": …, "contentInsets": [t, l, b, r], "supplementaryItems": […]}},
        {"group": …}], "count": 2, "interItemSpacing": "fixed(10)"}}, "interGroupSpacing": 10,
        "contentInsets": [t, l, b, r], "orthogonalScrollingBehavior": "continuous", "orthogonalOffset": 0,
        "boundarySupplementaryItems": [{"elementKind": "header", "layoutSize": …, "alignment": "top",
        "pinToVisibleBounds": true}], "decorationItems": [{"elementKind": "background"}]}]}
        Element kinds are any names ("section-header-element-kind"); Swift's spellings work too
        ("widthDimension": ".fractionalWidth(0.5)", insets {"top": …, "leading": …, …}); a
        section may "repeat": N or choose among "variants" by {"when": {"minWidth": 800}}
        (docs/REFERENCE.md, compositional, has every key).
        Without DATASET: nested groups of --count (30) items, then an orthogonal row of 12 with a
        header and a section background.
        --scale rounds as UIKit does (each frame's origin and size to the pixel), not by edges.
        --offset pins boundary items.
        """,
    options: compositionalOptions.map(\.spec),
    schema: .compositional,
    defaultCount: 30,
    embeddedData: { count, _ in
        let description = embeddedCompositionalDescription(count: count)
        return Dataset(sections: description.sections.enumerated().map { i, section in
            DatasetSection(items: .uniform(count: section.count), path: "sections[\(i)]")
        }, compositional: description)
    },
    layout: { input in try CollectionLayout.collecting { try compositionalLayout(input, into: &$0) } },
    stream: { input, sink in try compositionalLayout(input, into: &sink) },
    check: { input, sink in try compositionalLayout(input, into: &sink) },
    roundsToPixels: true
)

extension CompositionalLayout: EngineConfiguration {}

/// The compositional engine's options, each bound to its `CompositionalLayout` field (`--scale`,
/// a global option, sets `scale`).
private let compositionalOptions: [BoundOption<CompositionalLayout>] = [
    .number("tolerance", "PT", \.tolerance,
            "slack of the fit rule, points, ≥ 0"),
    BoundOption(spec: .value("sizes", "FILE", default: "-",
                             "self-sizing: measured sizes, {\"S:I\": [w, h], \"KIND S:I\": [w, h]}, replace estimates")) { values, layout in
        guard let name = try values.text("sizes", expected: "a file name") else { return }
        let source = values.source(of: "sizes").map { $0.hasPrefix("--") ? $0 : $0 + ":" } ?? "--sizes"
        if name.isEmpty, let given = values.values["sizes"] { throw values.malformed("sizes", given, expected: "a file name") }
        layout.measuredSizes = try readMeasuredSizes(name, source: source)
    },
]

/// The measured sizes in the file `name`, given by `source` (`--sizes`, or a dataset's
/// `options.sizes`).
/// - Throws: `CLIError` 66 when it cannot be opened, 65 when it is not a sizes object.
private func readMeasuredSizes(_ name: String, source: String) throws -> CompositionalMeasuredSizes {
    let handle = try openForReading(name, shownAs: "\(source) \(name)")
    defer { try? handle.close() }
    do {
        return try CompositionalSizesDecoder.decode(try readBounded(handle))
    } catch let error as DatasetError {
        throw CLIError.from(error, file: name)
    } catch let error as DatasetTooLarge {
        throw CLIError(.tooLarge(name, limit: error.limit))
    } catch {
        throw CLIError(.cannotRead("\(source) \(name)", nil))
    }
}

/// The embedded description: Apple's "Nested Groups" sample (a 0.7-wide item beside a
/// vertical pair, each inset 10, 0.4 of the height) with `count` items, then an orthogonal,
/// continuously scrolling row of 12 cards 140 × 180 with a header and a section background.
func embeddedCompositionalDescription(count: Int) -> CompositionalDescription {
    let inset = EdgeInsets(all: 10)
    let leading = CompositionalItem(size: CompositionalSize(width: .fractionalWidth(0.7), height: .fractionalHeight(1)),
                                    contentInsets: inset)
    let trailing = CompositionalItem(size: CompositionalSize(width: .fractionalWidth(1), height: .fractionalHeight(0.5)),
                                     contentInsets: inset)
    let trailingGroup = CompositionalGroup(axis: .vertical,
                                           size: CompositionalSize(width: .fractionalWidth(0.3), height: .fractionalHeight(1)),
                                           subitems: [.item(trailing)], repetition: .count(2))
    let nested = CompositionalGroup(axis: .horizontal,
                                    size: CompositionalSize(width: .fractionalWidth(1), height: .fractionalHeight(0.4)),
                                    subitems: [.item(leading), .group(trailingGroup)])
    let card = CompositionalItem(size: CompositionalSize(width: .fractionalWidth(1), height: .fractionalHeight(1)))
    let row = CompositionalGroup(axis: .horizontal, size: CompositionalSize(width: .absolute(140), height: .absolute(180)),
                                 subitems: [.item(card)])
    let header = CompositionalBoundaryItem(kind: .header, size: CompositionalSize(width: .fractionalWidth(1), height: .absolute(44)),
                                           alignment: .top)
    return CompositionalDescription(interSectionSpacing: 20, sections: [
        CompositionalSection(count: count, group: nested),
        CompositionalSection(count: 12, group: row, interGroupSpacing: 10, contentInsets: EdgeInsets(all: 10),
                             orthogonalScrollingBehavior: .continuous, boundarySupplementaryItems: [header],
                             decorationItems: [CompositionalDecorationItem(contentInsets: EdgeInsets(all: 5))]),
    ])
}

/// The compositional engine on `input`, its elements sent to `sink` (an array, or blocks when
/// streaming). The sections' item counts come from the dataset's sections, so that `--delete`,
/// `--insert` and `--move` apply.
/// The run's compositional settings, measured sizes included (`compositionalLayout`).
private let compositionalSettingsMemo = PassMemo.Key<CompositionalLayout>("compositional")

private func compositionalLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws
    -> CollectionLayout {
    var description: CompositionalDescription
    if let dataset = input.dataset {
        description = dataset.compositional ?? CompositionalDescription(sections: [])
        for (s, section) in dataset.sections.enumerated() where s < description.sections.count {
            description.sections[s].count = section.items.count
        }
    } else {
        description = embeddedCompositionalDescription(count: input.count)
    }
    // Made once for the run's passes: `--sizes` may name a pipe, which can be read only once.
    var layout = try input.memo.value(compositionalSettingsMemo) { try compositionalOptions.configuration(from: input.options) }
    layout.scale = try input.options.has(GlobalOption.scale) ? input.options.number(GlobalOption.scale, default: 1) : nil
    return try layout.layout(description, bounds: input.bounds, contentOffset: input.contentOffset, into: &sink)
}
