import LayoutCore
import LayoutDatasets

/// `cvlayout grid`: SwiftUI's LazyVGrid and LazyHGrid from a JSON description named as the
/// Swift API (`GridDescriptionDecoder`), laid out by `GridLayout`; `--explain` says how each
/// column got its width.
let gridEngine = EngineDescriptor(
    name: GridLayout.name,
    summary: "SwiftUI LazyVGrid / LazyHGrid: fixed, flexible and adaptive GridItems, sections, pinned headers",
    datasetHelp: """
        DATASET: a description named as the Swift API: {"axis": "vertical", "columns": [{"fixed": 70},
        {"flexible": {"minimum": 10, "maximum": 200}}, {"adaptive": {"minimum": 40, "maximum": 120},
        "spacing": 2, "alignment": "leading"}], "spacing": 8, "alignment": "center", "pinnedViews":
        ["sectionHeaders", "sectionFooters"], "padding": 16, "sections": [{"header": 44, "footer": 0,
        "items": [120, 80, [100, 60]]}, {"count": 30}]}; "rows" (with "axis": "horizontal") for a
        LazyHGrid, everything mirrored. Items are heights (the view fills its column) or [w, h]
        frames; count items are --item-height high. Defaults are SwiftUI's (docs/REFERENCE.md, grid).
        Without DATASET: a photo grid, adaptive(minimum: 100) columns, of --count (30) items.
        --offset moves pinned headers and footers.
        """,
    options: gridOptions.map(\.spec),
    schema: .grid,
    defaultCount: 30,
    embeddedData: { count, _ in
        Dataset(sections: [DatasetSection(items: .uniform(count: count), path: "sections[0]")], grid: embeddedGrid)
    },
    layout: { input in try CollectionLayout.collecting { try gridLayout(input, into: &$0) } },
    stream: { input, sink in try gridLayout(input, into: &sink) },
    check: { input, sink in try gridLayout(input, into: &sink) },
    movesWithContentOffset: { input in
        let grid = input.dataset?.grid ?? embeddedGrid
        return grid.pinsSectionHeaders || grid.pinsSectionFooters
    }
)

/// What the grid engine's options set: the length of count items and whether to explain.
struct GridConfiguration: EngineConfiguration {
    /// `--item-height`: `GridLayout.itemLength`.
    var itemLength = GridLayout().itemLength
    /// `--explain`: each column's width and its arithmetic, on stderr.
    var explains = false
}

/// The grid engine's options, each bound to its field.
private let gridOptions: [BoundOption<GridConfiguration>] = [
    .number("item-height", "PT", \.itemLength, "length of count items along the scroll axis (a LazyHGrid's: their width)"),
    .flag("explain", \.explains, "print each column's width and the arithmetic that gave it on stderr"),
]

/// The embedded grid: a photo grid, `GridItem(.adaptive(minimum: 100))` columns.
let embeddedGrid: GridLayout = {
    var grid = GridLayout()
    grid.items = [GridItem(.adaptive(minimum: 100, maximum: .infinity))]
    return grid
}()

/// The grid engine on `input`, its elements sent to `sink` (an array, or blocks when
/// streaming). The sections come from the dataset's, so that `--delete`, `--insert` and
/// `--move` apply.
private func gridLayout<Sink: LayoutAttributesSink>(_ input: EngineInput, into sink: inout Sink) throws -> CollectionLayout {
    let configuration: GridConfiguration = try gridOptions.configuration(from: input.options)
    var grid = input.dataset?.grid ?? embeddedGrid
    grid.itemLength = configuration.itemLength
    let sections = input.dataset.map { dataset in
        dataset.sections.map { GridSection(items: $0.items, header: $0.header ?? 0, footer: $0.footer ?? 0) }
    } ?? [GridSection(items: .uniform(count: input.count))]
    var result = try grid.layout(sections, bounds: input.bounds, contentOffset: input.contentOffset, into: &sink)
    if configuration.explains {
        result.explanation = explanation(grid, bounds: input.bounds, precision: try outputPrecision(input.options))
    }
    return result
}

/// `--explain`: the two sizing passes column by column, with the arithmetic, and where the
/// grid's frame lands; numbers as `--precision` prints them.
func explanation(_ grid: GridLayout, bounds: Size, precision: NumberPrecision) -> [String] {
    let vertical = grid.axis == .vertical
    let column = vertical ? "column" : "row", width = vertical ? "width" : "height", x = vertical ? "x" : "y"
    let (lead, trail) = vertical ? (grid.padding.left, grid.padding.right) : (grid.padding.top, grid.padding.bottom)
    let boundsLength = vertical ? bounds.width : bounds.height
    func t(_ v: Double) -> String {
        v == .infinity ? "∞" : precision.text(v == 0 ? 0 : v)
    }
    func name(_ item: GridItem) -> String {
        var text: String
        switch item.size {
        case .fixed(let w): text = "fixed(\(t(w)))"
        case .flexible(let minimum, let maximum): text = "flexible(minimum \(t(minimum)), maximum \(t(maximum)))"
        case .adaptive(let minimum, let maximum): text = "adaptive(minimum \(t(minimum)), maximum \(t(maximum)))"
        }
        if item.spacing != 8 { text += ", spacing \(t(item.spacing))" }
        return text
    }
    let (first, second, origin) = grid.columnPasses(bounds: bounds)
    var lines: [String] = []
    for (number, pass) in [(1, first), (2, second)] {
        let source = number == 1 ? "the bounds' \(width) \(t(boundsLength)) less the padding \(t(lead)) + \(t(trail))"
                                 : "pass 1's total"
        lines.append("pass \(number) at \(t(pass.proposed)) (\(source)): fixed \(column)s and spacings take \(t(pass.fixedAndSpacing)), "
                     + "\(t(pass.proposed - pass.fixedAndSpacing)) remain")
        for (c, sized) in pass.columns.enumerated() {
            var line = "  \(column) \(c) \(name(sized.item)): "
            switch sized.item.size {
            case .fixed(let w):
                line += "\(t(w))"
            case .flexible(let minimum, let maximum):
                let share = sized.remaining / Double(sized.unsized)
                line += "\(t(sized.remaining)) ÷ \(sized.unsized) = \(t(share))"
                line += share < minimum ? ", raised to the minimum: \(t(sized.width))"
                    : share > maximum ? ", cut to the maximum: \(t(sized.width))" : ""
            case .adaptive(let minimum, let maximum):
                let share = sized.remaining / Double(sized.unsized)
                line += "\(t(sized.remaining)) ÷ \(sized.unsized) = \(t(share))" + (share < 0 ? ", never below 0: 0" : "")
                let s = sized.item.spacing
                let n = sized.count
                line += "; ⌊(\(t(sized.width)) + \(t(s))) ÷ (\(t(minimum)) + \(t(s)))⌋ = \(t(n)) sub-\(column)\(n == 1 ? "" : "s")"
                let each = (sized.width - (n - 1) * s) / n
                line += " of (\(t(sized.width)) − \(t(n - 1))·\(t(s))) ÷ \(t(n)) = \(t(each))"
                if each > maximum { line += ", cut to the maximum: \(t(maximum)) (the share keeps \(t(sized.width)))" }
            }
            if number == 2 {
                // Where it starts; an adaptive column's sub-columns each (the first eight).
                let shown = Int(min(sized.count, 8))
                let starts = (0..<shown).map { t(origin + sized.offset + Double($0) * (sized.subwidth + sized.item.spacing)) }
                line += ", \(x) = " + starts.joined(separator: ", ") + (sized.count > 8 ? ", …" : "")
            }
            lines.append(line)
        }
        let widths = pass.columns.map { t($0.width) }.joined(separator: " + ")
        let spacings = pass.columns.dropLast().reduce(0) { $0 + $1.item.spacing }
        lines.append("  total \(widths) + spacings \(t(spacings)) = \(t(pass.total))"
                     + (number == 1 ? ": the grid's \(width)" : ""))
    }
    let overflow = second.total - first.total
    lines.append("grid: \(t(first.total)) \(vertical ? "wide" : "high") at \(x) = \(t(origin)) "
                 + "(padding \(t(lead)) + (\(t(first.proposed)) − \(t(first.total))) ÷ 2)"
                 + (overflow > 0 ? "; its \(column)s take \(t(second.total)), \(t(overflow)) past its trailing edge" : ""))
    return lines
}
