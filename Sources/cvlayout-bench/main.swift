// The rect-query benchmark of `make bench`: `layoutAttributesForElements(in:)` on laid-out
// waterfall and flow layouts of 10⁴…10⁶ elements, with the index built once per layout.
// Prints the mean time per screen-sized query; it should stay flat as n grows.
import Foundation
import LayoutCore

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

print("query benchmark: layoutAttributesForElements(in:) with a 390×844 rect, index built once")
print("engine       elements     index ms   µs per query       hits")
for engine in ["waterfall", "flow"] {
    for n in [10_000, 100_000, 1_000_000] {
        var generator = SplitMix64(seed: 1)
        let heights = (0..<n).map { _ in 50 + Double(generator.next() % 100) }
        var layout: CollectionLayout
        if engine == "waterfall" {
            layout = try WaterfallLayout().layout(sections: [WaterfallSection(items: .heights(heights))],
                                                  bounds: Size(width: 390, height: 844))
        } else {
            layout = try FlowLayout().layout(sections: [FlowSection(items: .heights(heights))],
                                             bounds: Size(width: 390, height: 844))
        }
        let indexTime = seconds { layout.prepareRectIndex() }
        let queries = 2_000
        var hits = 0
        let height = layout.contentSize.height
        let queryTime = seconds {
            for q in 0..<queries {
                let y = Double(q) / Double(queries) * max(0, height - 844)
                hits += layout.layoutAttributesForElements(in: Rect(x: 0, y: y, width: 390, height: 844)).count
            }
        }
        let name = engine.padding(toLength: 10, withPad: " ", startingAt: 0)
        print(name + String(format: " %10d %12.1f %14.2f %10d", n, indexTime * 1000,
                            queryTime / Double(queries) * 1e6, hits / queries))
    }
}
