import Testing
import LayoutCore
@testable import FastText
@testable import LayoutWriters

/// The plain writers (`PlainLayoutWriter`, the specification) against the fast ones on
/// layouts no engine makes: numbers of every kind (tiny, huge, negative, halves at every
/// precision), every element category and kind, transforms, alphas, hidden elements, the
/// heart's path and samples, statistics; the JSON and CSV kept and streamed. And the plain
/// number text against `NumberFormat`. (The command line's runs of every engine go through
/// both in `PlainWriterDifferentialTests`.)
struct PlainWriterTests {
    static let precisions: [NumberPrecision] = [.standard, .decimals(0), .decimals(1), .decimals(2), .decimals(5),
                                                .decimals(9), .decimals(15), .full]

    /// Where two documents first differ, with some context; nil when they are equal.
    static func firstDifference(_ a: String, _ b: String) -> String? {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x != y else { return nil }
        let k = x.indices.first { $0 >= y.count || x[$0] != y[$0] } ?? x.count, from = max(0, k - 60)
        return "at byte \(k): …\(String(decoding: x[from..<min(x.count, k + 40)], as: UTF8.self))… "
            + "vs …\(String(decoding: y[from..<min(y.count, k + 40)], as: UTF8.self))…"
    }

    /// A double of any kind: the number kinds of `SVGWriterSpeedTests.number`, and any bits
    /// of any finite magnitude (subnormals and numbers past 2¹²⁸ included).
    static func anyNumber(_ g: inout SplitMix64) -> Double {
        if g.next() % 4 == 0 {
            let value = Double(bitPattern: g.next() & ~(0x7FF << 52) | (g.next() % 0x7FF) << 52)
            return value.isFinite ? value : 1
        }
        return SVGWriterSpeedTests.number(&g)
    }

    @Test func plainNumberTextIsNumberFormat() {
        var g = SplitMix64(seed: 31)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 2.675, 1e20, 1e23, -1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                0.0005, 0.00049999999999999, 123.4565, 9.9995, 99_999_999.9995, 4_503_599_627_370_496.5]
        for _ in 0..<4_000 { values.append(Self.anyNumber(&g)) }
        for value in values {
            for precision in Self.precisions {
                let plain = PlainNumberText.string(value, precision: precision)
                let fast = NumberFormat.string(value, precision: precision)
                #expect(plain == fast, "\(value) at \(precision)")
            }
        }
        // The reference's examples.
        #expect(PlainNumberText.string(2.675, precision: .decimals(2)) == "2.67")
        #expect(PlainNumberText.string(0.25, precision: .decimals(1)) == "0.3")
        #expect(PlainNumberText.string(-0.0001, precision: .standard) == "0")
        #expect(PlainNumberText.string(120, precision: .standard) == "120")
        #expect(PlainNumberText.string(1e20, precision: .standard) == "100000000000000000000")
        #expect(PlainNumberText.string(0.1, precision: .full) == "0.1")
        #expect(PlainNumberText.string(1e-7, precision: .full) == "0.0000001")
    }

    /// `SVGWriterSpeedTests.randomLayout`'s elements, with badges and backgrounds, a heart
    /// path, samples and statistics now and then.
    static func randomLayout(seed: UInt64, count: Int) -> CollectionLayout {
        var g = SplitMix64(seed: seed)
        let base = SVGWriterSpeedTests.randomLayout(count: count, seed: seed, zOrder: Int(seed % 3),
                                                    engine: ["waterfall", "ring", "compositional"][Int(seed % 3)])
        var elements = base.elements
        for k in elements.indices where g.next() % 7 == 0 {
            let e = elements[k]
            elements[k] = LayoutAttributes(indexPath: e.indexPath, category: g.next() % 2 == 0 ? .supplementaryView : .decorationView,
                                                  kind: g.next() % 2 == 0 ? .badge : .background, frame: e.frame,
                                                  transform: e.transform, alpha: e.alpha, zIndex: e.zIndex,
                                                  isHidden: e.isHidden)
        }
        var layout = Self.layout(base, elements: elements)
        if g.next() % 2 == 0 {
            let start = Point(x: anyNumber(&g), y: 100)
            let segments = (0..<Int(g.next() % 4)).map { _ in
                BezierSegment(control1: Point(x: anyNumber(&g), y: anyNumber(&g)), control2: Point(x: 10.25, y: -3),
                              end: Point(x: anyNumber(&g), y: 0.0005))
            }
            layout.heartPath = HeartPath(from: IndexPath(item: 1, section: 2), to: IndexPath(item: 0, section: 0),
                                         style: g.next() % 2 == 0 ? .seed : .smooth, start: start, segments: segments)
        }
        if g.next() % 3 == 0 {
            layout.heartSamples = (0..<Int(g.next() % 4)).map { k in
                PathSample(t: Double(k) / 3, point: Point(x: anyNumber(&g), y: -0.25), angle: anyNumber(&g).truncatingRemainder(dividingBy: 180))
            }
        }
        if g.next() % 3 == 0 { layout.targetContentOffset = Point(x: anyNumber(&g), y: 12.5) }
        if g.next() % 3 == 0 { layout.statistics = [("rows", 3), ("mean", anyNumber(&g))] }
        return layout
    }

    /// `layout` with other elements.
    static func layout(_ layout: CollectionLayout, elements: [LayoutAttributes]) -> CollectionLayout {
        var other = CollectionLayout(engine: layout.engine, bounds: layout.bounds, contentOffset: layout.contentOffset,
                                     contentSize: layout.contentSize, elements: elements, cellRanges: [(start: 0, count: elements.count)])
        other.drawsCellsRound = layout.drawsCellsRound
        other.heartPath = layout.heartPath
        other.heartSamples = layout.heartSamples
        other.targetContentOffset = layout.targetContentOffset
        other.statistics = layout.statistics
        return other
    }

    @Test(arguments: [OutputFormat.json, .csv, .svg])
    func theFastWritersWriteWhatThePlainWritersWrite(_ format: OutputFormat) throws {
        for seed in UInt64(1)...12 {
            let layout = Self.randomLayout(seed: seed, count: 40 + Int(seed) * 41)
            var g = SplitMix64(seed: seed + 100)
            let selection = layout.elements.indices.filter { _ in g.next() % 3 == 0 }
            for precision in Self.precisions {
                for selected in [nil, selection] as [[Int]?] {
                    var options = OutputOptions()
                    options.precision = precision
                    options.labels = [nil, .item, .indexPath, SVGLabels.none][Int(seed % 4)]
                    options.canvas = SVGCanvas.allCases[Int(seed / 4) % 3]  // .rect only with a query rect
                    options.queryRect = selected == nil ? nil : Rect(x: -3, y: 7.25, width: 100, height: 0.0005)
                    let out = OutputBuffer(precision: precision)
                    try format.write(layout, selection: selected, options: options, to: out)
                    let plain = PlainLayoutWriter.write(format, layout, selection: selected, options: options)
                    #expect(Self.firstDifference(String(decoding: out.bytes, as: UTF8.self), plain) == nil,
                            "seed \(seed), \(precision), selection \(selected?.count ?? -1)")
                    guard format != .svg, selected == nil else { continue }
                    // Streamed, in blocks: the same bytes.
                    let summary = Self.layout(layout, elements: [])
                    let streamed = OutputBuffer(precision: precision)
                    try format.write(summary, streaming: { sink in
                        for element in layout.elements { sink.append(element) }
                    }, options: options, to: streamed)
                    #expect(Self.firstDifference(String(decoding: streamed.bytes, as: UTF8.self), plain) == nil,
                            "streamed: seed \(seed), \(precision)")
                }
            }
        }
    }

    /// The SVG of more than two chunks of elements (formatted on every core), with zIndex
    /// ties in order, all zero, or shuffled, at every precision and with every labels.
    @Test(arguments: [(0, "waterfall"), (1, "ring"), (2, "circle"), (0, "stack"), (2, "flow")])
    func matchesThePlainWriter(zOrder: Int, engine: String) throws {
        // More than two chunks, so the elements are formatted on every core.
        let count = 3 * SVGLayoutWriter.chunkSize + 17
        let layout = SVGWriterSpeedTests.randomLayout(count: count, seed: UInt64(zOrder * 31 + engine.count), zOrder: zOrder, engine: engine)
        var g = SplitMix64(seed: 99)
        let someSelected = (0..<count).filter { _ in g.next() % 3 != 0 }
        for (i, precision) in [NumberPrecision.standard, .decimals(0), .decimals(5), .full].enumerated() {
            for (j, labels) in [nil, SVGLabels.indexPath, SVGLabels.none].enumerated() {
                // Every element or some of them, by turns (the plain writer is slow in debug builds).
                for selection in [(i + j) % 2 == 0 ? nil : someSelected, [], [count - 1]] as [[Int]?] {
                    var options = OutputOptions()
                    options.precision = precision
                    options.labels = labels
                    options.queryRect = selection == nil ? nil : Rect(x: 1, y: 2.5, width: 3, height: 4)
                    let fast = try SVGWriterSpeedTests.fastSVG(layout, selection: selection, options: options)
                    let reference = PlainLayoutWriter.svg(layout, selection: selection, options: options)
                    #expect(Self.firstDifference(fast, reference) == nil,
                            "precision \(precision), labels \(labels), selection \(selection?.count ?? -1)")
                }
            }
        }
    }
}
