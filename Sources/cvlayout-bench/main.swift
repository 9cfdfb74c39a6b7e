// `make bench`'s rect-query benchmark: waterfall and flow layouts of 10⁴, 10⁵ and 10⁶ elements in
// 390×844 bounds, queried with screen rects at `random` offsets and as `scroll`ing screens from the
// top, wrapping (what UIKit asks); ns per query, the best of 5 rounds of 20,000 queries made before
// timing; k: the mean answers per query. Last, the 10⁶/10⁴ time ratios.
import Foundation
import LayoutCore

let screen = Size(width: 390, height: 844)
let queriesPerRound = 20_000
let rounds = 5

/// The fewest ns `body` took in `times` runs.
func best(of times: Int, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<times {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    return best
}

/// The best of `rounds` rounds, in ns per query, and the mean count per query.
func measure(_ rects: [Rect], _ query: (Rect) -> Int) -> (ns: Double, k: Double) {
    var total = 0
    let ns = best(of: rounds) {
        total = 0
        for rect in rects { total &+= query(rect) }
    }
    return (ns / Double(rects.count), Double(total) / Double(rects.count))
}

/// `n` heights 50 + r % 100, SplitMix64 seed 1.
func heights(_ n: Int) -> [Double] {
    var generator = SplitMix64(seed: 1)
    return (0..<n).map { _ in 50 + Double(generator.next() % 100) }
}

/// `value` with `digits` decimals, right-aligned in `width`.
func fixed(_ value: Double, _ digits: Int, _ width: Int) -> String {
    let text = String(format: "%.\(digits)f", value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

// `cvlayout-bench spans`: the waterfall on 10⁶ heights, plain and with every tenth item spanning (2 columns
// or full width), as the summary pass (`CountingSink`) and streamed (`ElementBlocks`); ms, best of 7.
if CommandLine.arguments.dropFirst().first == "spans" {
    let n = 1_000_000
    let spans = (0..<n).map { i in i % 10 == 5 ? (i % 20 == 5 ? 2 : WaterfallSection.fullSpan) : 1 }
    let waterfall = WaterfallLayout()
    for (name, section) in [("plain", WaterfallSection(items: .heights(heights(n)))),
                            ("10% spanning", WaterfallSection(items: .heights(heights(n)), spans: spans))] {
        let summary = try best(of: 7) {
            var sink = CountingSink()
            _ = try waterfall.layout([section], bounds: screen, into: &sink)
        }
        let streamed = try best(of: 7) {
            var sink = ElementBlocks(blockSize: 1024) { _ in }
            _ = try waterfall.layout([section], bounds: screen, into: &sink)
            sink.finish()
        }
        print("\(name): summary \(String(format: "%.2f", summary / 1e6)) ms, streamed \(String(format: "%.2f", streamed / 1e6)) ms")
    }
    exit(0)
}

// `cvlayout-bench [ENGINE [N]]` runs one engine (and one size) only, e.g. under a profiler.
let arguments = Array(CommandLine.arguments.dropFirst())
let engines = arguments.count > 0 ? [arguments[0]] : [WaterfallLayout.name, FlowLayout.name]
guard engines.allSatisfy({ $0 == WaterfallLayout.name || $0 == FlowLayout.name }), arguments.count < 3 else {
    FileHandle.standardError.write("usage: cvlayout-bench [waterfall|flow [N]]\n".data(using: .utf8)!)
    exit(64)
}
let sizes = arguments.count > 1 ? [Int(arguments[1]) ?? 10_000] : [10_000, 100_000, 1_000_000]

print("rect-query benchmark: \(Int(screen.width))×\(Int(screen.height)) rects, index built once per layout;",
      "ns per query, best of \(rounds) rounds of \(queriesPerRound)")
print("  indices: elementIndices(in:) -> [Int]; for-each: RectIndex.forEachElementIndex(in:), no allocation;")
print("  attributes: layoutAttributesForElements(in:) -> [LayoutAttributes];")
print("  copy floor: only copying the k answers' attributes into a new array, positions known (no search)")
print("engine      elements  index ms  stream       k   indices  for-each  attributes  copy floor")
var results: [String: [(n: Int, cells: [Double])]] = [:]
for engine in engines {
    for n in sizes {
        var layout = engine == WaterfallLayout.name
            ? try WaterfallLayout().layout([WaterfallSection(items: .heights(heights(n)))], bounds: screen)
            : try FlowLayout().layout([FlowSection(items: .heights(heights(n)))], bounds: screen)
        let indexMs = best(of: 1) { layout.prepareRectIndex() } / 1e6
        let laidOut = layout  // a constant: the closures below do not copy it per call
        let index = RectIndex(elements: layout.elements, axis: layout.scrollDirection)
        let span = max(0, layout.contentSize.height - screen.height)
        var g = SplitMix64(seed: 42)
        let random = (0..<queriesPerRound).map { _ in
            Rect(x: 0, y: Double(g.next() % 1_000_000_007) / 1_000_000_007 * span, width: screen.width, height: screen.height)
        }
        let screens = max(1, Int(span / screen.height) + 1)
        let scroll = (0..<queriesPerRound).map { q in
            Rect(x: 0, y: Double(q % screens) * screen.height, width: screen.width, height: screen.height)
        }
        // Each closure uses its answer, so no call can be dropped.
        let indices: (Rect) -> Int = { r in let a = laidOut.elementIndices(in: r); return a.count &+ (a.first ?? 0) & 1 }
        let attributes: (Rect) -> Int = { r in
            let a = laidOut.layoutAttributesForElements(in: r)
            return a.count &+ (a.first?.indexPath.item ?? 0) & 1
        }
        let forEach: (Rect) -> Int = { r in
            var count = 0, first = 0
            index.forEachElementIndex(in: r) { i in
                if count == 0 { first = i }
                count += 1
            }
            return count &+ first & 1
        }
        var cells: [Double] = []
        for (name, rects) in [("random", random), ("scroll", scroll)] {
            let i = measure(rects, indices), f = measure(rects, forEach), a = measure(rects, attributes)
            // The floor: the answers' positions are known; only their attributes are copied.
            let answers = rects.map { laidOut.elementIndices(in: $0) }
            var q = 0
            let floor = laidOut.elements.withUnsafeBufferPointer { all in
                measure(rects) { _ in
                    let positions = answers[q]
                    q = q + 1 == answers.count ? 0 : q + 1
                    let a = Array(unsafeUninitializedCapacity: positions.count) { out, count in
                        for j in positions.indices { (out.baseAddress! + j).initialize(to: all[positions[j]]) }
                        count = positions.count
                    }
                    return a.count &+ (a.first?.indexPath.item ?? 0) & 1
                }
            }
            cells += [i.ns, f.ns, a.ns, floor.ns]
            let head = name == "random"
                ? engine.padding(toLength: 10, withPad: " ", startingAt: 0) + fixed(Double(n), 0, 10) + fixed(indexMs, 1, 10)
                : String(repeating: " ", count: 30)
            print(head + "  " + name + fixed(i.k, 1, 8) + fixed(i.ns, 0, 10) + fixed(f.ns, 0, 10) + fixed(a.ns, 0, 12) + fixed(floor.ns, 0, 12))
        }
        results[engine, default: []].append((n, cells))
    }
}
if sizes.count > 1 {
    print("10⁶/10⁴ time ratio: random indices, for-each, attributes, copy floor | the same, scroll")
    for engine in engines {
        guard let rows = results[engine], let small = rows.first, let large = rows.last else { continue }
        let ratios = zip(large.cells, small.cells).map { String(format: "%.2f", $0 / $1) }
        print("  " + engine.padding(toLength: 10, withPad: " ", startingAt: 0) + ratios[0..<4].joined(separator: "  ")
              + "  | " + ratios[4...].joined(separator: "  "))
    }
}
