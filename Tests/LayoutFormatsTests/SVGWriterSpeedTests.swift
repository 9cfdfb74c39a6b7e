import Foundation
import Testing
import LayoutCore
@testable import FastText
@testable import LayoutWriters

extension SVGPaint {
    /// Label colours per palette entry at alpha 1: white or near-black, whichever contrasts
    /// more by WCAG's relative luminance (at least 3:1; tested).
    static let labelColours = ["#ffffff", "#1a1a1a", "#1a1a1a", "#1a1a1a", "#1a1a1a",
                               "#1a1a1a", "#1a1a1a", "#1a1a1a", "#1a1a1a", "#1a1a1a"]
}

/// The SVG writer's fast paths (groups written through a cursor, numbers formatted inline or
/// copied from a table, the zIndex sort skipped when the order is already right) against the
/// plain rules they stand for: label sizes, number texts, paint, drawing order, drawn bounds.
/// (The whole documents against the plain writer: `PlainWriterTests`.)
struct SVGWriterSpeedTests {
    static func fastSVG(_ layout: CollectionLayout, selection: [Int]?, options: OutputOptions) throws -> String {
        let out = OutputBuffer(precision: options.precision)
        try OutputFormat.svg.write(layout, selection: selection, options: options, to: out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// A number of one of the kinds that take different paths: small integers, exact
    /// halves at 3 decimals and around them, tiny and huge magnitudes, negatives, any bits.
    static func number(_ g: inout SplitMix64) -> Double {
        let sign: Double = g.next() % 4 == 0 ? -1 : 1
        switch g.next() % 10 {
        case 0: return sign * Double(g.next() % 1000)
        case 1: return sign * (Double(g.next() % 100_000) + 0.0005)
        case 2: return sign * Double(g.next() % 10_000_000) / 1000
        case 3: return sign * Double(g.next() % 1_000_000) / 8
        case 4: return sign * Double(bitPattern: (0x3F0 + g.next() % 8) << 52 | g.next() >> 12)  // 2⁻¹⁵…2⁻⁸
        case 5: return sign * Double(g.next() % (1 << 40)) * 1.000001
        case 6: return sign * Double(g.next() % 1_000_000_000) + 0.4995
        case 7: return sign * 1e16 * Double(g.next() % 1000)
        case 8: return sign * Double(g.next() % 200) * 0.35 + 4.9
        default: return sign * Double(bitPattern: (g.next() % 0x3FF) << 52 | g.next() >> 12) // 0…2
        }
    }

    /// Random elements: any category, transforms, alphas, hidden ones, zIndex ties in or out
    /// of order, numbers of every kind.
    static func randomLayout(count: Int, seed: UInt64, zOrder: Int, engine: String) -> CollectionLayout {
        var g = SplitMix64(seed: seed)
        var elements: [LayoutAttributes] = []
        for k in 0..<count {
            let frame = g.next() % 3 == 0
                ? Rect(x: Double(k % 3) * 133.333333333, y: Double(k) * 73, width: 123.333333333, height: Double(50 + g.next() % 100))
                : Rect(x: number(&g), y: number(&g), width: abs(number(&g)), height: abs(number(&g)))
            var e: LayoutAttributes
            switch g.next() % 8 {
            case 0: e = .supplementaryView(ofKind: .header, at: IndexPath(item: 0, section: k), frame: frame)
            case 1: e = .supplementaryView(ofKind: .footer, at: IndexPath(item: 0, section: k), frame: frame)
            case 2: e = LayoutAttributes(indexPath: IndexPath(item: k, section: 1), category: .decorationView, kind: nil, frame: frame)
            default:
                let item = g.next() % 16 == 0 ? Int(g.next() % 10_000_000_000) : k
                e = .cell(IndexPath(item: item, section: 0), frame: frame)
            }
            switch g.next() % 6 {
            case 0: e.transform = AffineTransform(rotationDegrees: Double(g.next() % 360) - 180)
            case 1: e.transform = AffineTransform(a: number(&g), b: number(&g), c: number(&g), d: number(&g),
                                                  tx: number(&g), ty: number(&g))
            default: break
            }
            switch g.next() % 5 {
            case 0: e.alpha = Double(g.next() % 1000) / 999
            case 1: e.alpha = -0.25
            default: break
            }
            switch zOrder {
            case 0: e.zIndex = 0
            case 1: e.zIndex = k / 7  // ascending, with ties
            default: e.zIndex = Int(g.next() % 5) - 2
            }
            e.isHidden = zOrder == 1 ? false : g.next() % 9 == 0
            elements.append(e)
        }
        var layout = CollectionLayout(engine: engine, bounds: Size(width: 390, height: 844),
                                      contentOffset: Point(x: 0.0005, y: -12.5), contentSize: Size(width: 390, height: 1e6),
                                      elements: elements, cellRanges: [(start: 0, count: count)])
        layout.drawsCellsRound = engine == RingLayout.name || engine == CircleLayout.name
        return layout
    }

    /// A label's size skips the division when 14 points surely fit: the same size, bit for
    /// bit, as the plain rule (0.45 of the smaller side, at most 14, at least 4, and 0.6 em a
    /// character within the width; at least 10 on a cell of 20 points or more where its digits
    /// fit at 0.56 em), on both sides of where each limit takes over.
    @Test func labelSizesAreThePlainRules() {
        var r = RandomPicks(seed: 5)
        var largest = 0
        for _ in 0..<50_000 {
            let item = r.pick([0, 9, 10, 99_999, 1_000_000, -5, Int(r.next() % 1_000_000_000)])
            let characters = String(item).count
            // Widths near 8.4 and 8.5 points a character, and sides near 14 / 0.45.
            let width = r.pick([8.4, 8.5, 8.45, 8.3].map { $0 * Double(characters) } + [31.1, 31.12, 31.2, 4, r.uniform(300)])
            let height = r.pick([31.1, 31.111, 31.112, 31.2, 4, 8.8, 9, r.uniform(100)])
            let e = LayoutAttributes.cell(IndexPath(item: item, section: 0), frame: Rect(x: 0, y: 0, width: width, height: height))
            guard width >= 4 && height >= 4 else {
                #expect(SVGElementWriter.label(e, .item) == nil)
                continue
            }
            let label = SVGElementWriter.label(e, .item)!
            var fitted = min(14, min(width, height) * 0.45, width / (0.6 * Double(characters)))
            if fitted < 10 && min(width, height) >= 20 { fitted = max(fitted, min(10, width / (0.56 * Double(characters)))) }
            let plain = max(4, fitted)
            #expect(label.characters == characters && label.size.bitPattern == plain.bitPattern,
                    "\(width) × \(height), \(characters) characters: \(label.size), not \(plain)")
            if label.size == 14 { largest += 1 }
        }
        #expect(largest > 5_000 && largest < 45_000, "\(largest)")
    }

    /// A label's length counts the digits of its numbers without a loop: the same as the
    /// text's length, at every power of ten and either side of it, and at the extremes.
    @Test func decimalLengthIsTheTextsLength() {
        var values = [0, 1, -1, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 0..<19 {
            values += [power - 1, power, power + 1, -power, -(power - 1), -(power + 1)]
            if power <= Int.max / 10 { power *= 10 }
        }
        var g = SplitMix64(seed: 11)
        for _ in 0..<10_000 {
            let r = Int(bitPattern: UInt(g.next()))
            values += [r, r >> Int(g.next() % 64)]
        }
        for v in values {
            #expect(SVGElementWriter.decimalLength(v) == String(v).count, "\(v)")
        }
    }

    @Test func numbersAtThreeDecimalsMatchNumberFormat() throws {
        // One number per field of many elements: every path of the inline formatting and the
        // table, at the default precision, and of the numbers kept apart (a y repeated).
        var g = SplitMix64(seed: 7)
        var elements: [LayoutAttributes] = []
        for k in 0..<20_000 {
            var e = LayoutAttributes.cell(IndexPath(item: k, section: 0),
                                          frame: Rect(x: Self.number(&g), y: Self.number(&g),
                                                      width: abs(Self.number(&g)), height: abs(Self.number(&g))))
            if k % 2 == 0 { e.alpha = abs(Self.number(&g)).truncatingRemainder(dividingBy: 1) }
            if k % 3 == 1, let last = elements.last {
                // The last element's y and height again (a row of a grid): its rect's y and
                // label's y are copied from the last ones' text.
                e.frame.origin.y = last.frame.minY
                e.frame.size.height = last.frame.height
            }
            elements.append(e)
        }
        let layout = CollectionLayout(engine: "waterfall", bounds: Size(width: 390, height: 844), contentSize: Size(width: 390, height: 844),
                                      elements: elements, cellRanges: [(start: 0, count: elements.count)])
        let fast = try Self.fastSVG(layout, selection: nil, options: OutputOptions())
        #expect(PlainWriterTests.firstDifference(fast, PlainLayoutWriter.svg(layout, selection: nil, options: OutputOptions())) == nil)
    }

    @Test func paletteLiteralsMatchThePalette() {
        for item in 0..<25 {
            #expect(SVGPaint.fill(item: item).description == SVGPaint.palette[item % SVGPaint.palette.count])
            #expect(SVGPaint.cellLabelColour(item: item).description
                    == SVGPaint.labelColours[item % SVGPaint.palette.count])
        }
    }

    @Test func paintOfViewsAndHalos() {
        // Views by their kind's role, whatever its name; a halo is the shape's own fill.
        var badge = LayoutAttributes.supplementaryView(ofKind: .badge, at: IndexPath(item: 2, section: 0), frame: Rect(x: 0, y: 0, width: 30, height: 20))
        #expect(SVGPaint.viewPaint(badge.kind).description.hasPrefix("#d62728\""))
        #expect(SVGPaint.haloColour(badge).description == "#d62728")
        #expect(SVGPaint.cornerRadius(badge, size: badge.size, round: false) == 10)
        badge.kind = .header
        #expect(SVGPaint.viewPaint(badge.kind).description.hasPrefix(SVGPaint.viewFill + "\""))
        #expect(SVGPaint.haloColour(badge).description == SVGPaint.viewFill)
        #expect(SVGPaint.labelColour(badge).description == SVGPaint.viewLabelColour)
        #expect(SVGPaint.cornerRadius(badge, size: badge.size, round: false) == nil)
        #expect(SVGPaint.viewPaint(nil).description == SVGPaint.viewPaint(.footer).description)
        var cell = LayoutAttributes.cell(IndexPath(item: 13, section: 1), frame: Rect(x: 0, y: 0, width: 100, height: 10))
        #expect(SVGPaint.haloColour(cell).description == SVGPaint.palette[3])
        #expect(SVGPaint.cornerRadius(cell, size: cell.size, round: false) == 2.5)
        #expect(SVGPaint.cornerRadius(cell, size: cell.size, round: true) == 50)
        cell.alpha = 0.5
        cell.indexPath.item = 20
        #expect(SVGPaint.labelColour(cell).description == "#1a1a1a")
        #expect(SVGPaint.cellLabelColour(item: 20).description == "#ffffff")
        #expect(SVGPaint.opacity(-0.5) == 0 && SVGPaint.opacity(0.25) == 0.25 && SVGPaint.opacity(3) == 1)
    }

    /// WCAG 2's relative luminance of `#rrggbb`.
    static func luminance(_ hex: String) -> Double {
        let value = Int(hex.dropFirst(), radix: 16)!
        func channel(_ shift: Int) -> Double {
            let c = Double((value >> shift) & 0xff) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
    }

    static func contrast(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test func labelsContrastWithTheirFill() {
        // At least 3:1 (WCAG's large-text minimum), and the better of white and near-black.
        for (fill, label) in zip(SVGPaint.palette, SVGPaint.labelColours) {
            #expect(Self.contrast(fill, label) >= 3, "\(label) on \(fill)")
            #expect(Self.contrast(fill, label) >= max(Self.contrast(fill, "#ffffff"), Self.contrast(fill, "#1a1a1a")))
        }
        #expect(Self.contrast(SVGPaint.viewFill, SVGPaint.viewLabelColour) >= 3)
        // A faded cell's fill is blended with the white background: the label the writer picks
        // is still the better one, and at least 3:1, at every alpha.
        for (k, fill) in SVGPaint.palette.enumerated() {
            let value = Int(fill.dropFirst(), radix: 16)!
            for step in 0...100 {
                let alpha = Double(step) / 100
                let blended = [16, 8, 0].map { shift -> Int in
                    let c = Double((value >> shift) & 0xff)
                    return Int((alpha * c + (1 - alpha) * 255).rounded())
                }
                let hex = "#" + blended.map { String(format: "%02x", $0) }.joined()
                let label = SVGPaint.cellLabelColour(item: k, alpha: alpha).description
                let other = label == "#ffffff" ? "#1a1a1a" : "#ffffff"
                #expect(Self.contrast(hex, label) >= 3, "\(label) on \(fill) at \(alpha)")
                #expect(Self.contrast(hex, label) >= Self.contrast(hex, other) - 0.05, "\(label) on \(fill) at \(alpha)")
            }
        }
    }

    @Test func drawingOrderKeepsTiesInElementOrder() throws {
        // zIndex 1, 0, 1, 0 (unsorted, with ties) and one hidden: drawn 1, 3, 0, 2 → items.
        var elements: [LayoutAttributes] = []
        for (k, z) in [1, 0, 1, 0, -1].enumerated() {
            var e = LayoutAttributes.cell(IndexPath(item: k, section: 0), frame: Rect(x: 0, y: Double(k * 10), width: 20, height: 20))
            e.zIndex = z
            e.isHidden = z < 0
            elements.append(e)
        }
        let layout = CollectionLayout(engine: "test", bounds: Size(width: 20, height: 50), contentSize: Size(width: 20, height: 50),
                                      elements: elements, cellRanges: [(start: 0, count: elements.count)])
        let labels = try Self.fastSVG(layout, selection: nil, options: OutputOptions())
            .split(separator: "\n").filter { $0.hasPrefix("<g><rect") }
            .map { $0.split(separator: ">")[3].split(separator: "<")[0] }
        #expect(labels == ["1", "3", "0", "2"])
    }

    /// The canvas's measure of one element the plain way: the frame's corners through the
    /// matrix, and the label, whenever there is one, sized and compared with them.
    static func referenceDrawnBounds(_ e: LayoutAttributes, labels: SVGLabels) -> Rect {
        let f = e.frame, t = e.transform
        let cx = f.midX + t.tx, cy = f.midY + t.ty
        let hw = f.width / 2, hh = f.height / 2
        var rx = abs(t.a) * hw + abs(t.c) * hh, ry = abs(t.b) * hw + abs(t.d) * hh
        if let label = SVGElementWriter.label(e, labels) {
            rx = max(rx, 0.3 * label.size * Double(label.characters))
            ry = max(ry, 0.6 * label.size)
        }
        // Folded into an empty union as `DrawnBounds` folds it (a NaN leaves the union as it was).
        return Rect(minX: min(.infinity, cx - rx), minY: min(.infinity, cy - ry),
                    maxX: max(-.infinity, cx + rx), maxY: max(-.infinity, cy + ry))
    }

    /// `DrawnBounds` skips sizing the labels that surely fit their frame: it measures every
    /// element as the plain way does, bit for bit, on both sides of each of the shortcut's
    /// limits (51 × 17 points, 6 characters, the identity's linear part, cells only).
    @Test func drawnBoundsSizeOnlyTheLabelsThatMayNotFit() {
        var r = RandomPicks(seed: 2026)
        var shortcuts = 0
        for _ in 0..<60_000 {
            let width = r.pick([50.99, 51, 51.01, 4, 3.99, r.uniform(200), r.uniform(60), .infinity])
            let height = r.pick([16.99, 17, 17.01, 4, r.uniform(60), r.uniform(20)])
            let item = r.pick([0, 7, 9_999, 10_000, 999_999, 1_000_000, -1, Int(r.next() % 2_000_000)])
            let section = r.pick([0, 9, 10, -1, Int(r.next() % 20)])
            let category = r.pick([ElementCategory.cell, .supplementaryView, .decorationView])
            let kind: ElementKind? = category == .cell ? nil : r.pick([.header, .footer, .badge, .background])
            let transform = r.pick([AffineTransform.identity, AffineTransform(scaleX: 0.5, y: 0.5),
                                  AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: r.uniform(30), ty: -r.uniform(30)),
                                  AffineTransform(a: 0.8, b: 0.6, c: -0.6, d: 0.8, tx: 0, ty: 0),
                                  AffineTransform(a: 1, b: 0, c: 0.25, d: 1, tx: 0, ty: 0)])
            let e = LayoutAttributes(indexPath: IndexPath(item: item, section: section), category: category, kind: kind,
                                     frame: Rect(x: r.uniform(400) - 50, y: r.uniform(400), width: width, height: height),
                                     transform: transform, alpha: r.pick([1, 0.5, 0]))
            let labels = r.pick(SVGLabels.allCases)
            var drawn = SVGLayoutWriter.DrawnBounds(labels: labels)
            drawn.add(e)
            let expected = Self.referenceDrawnBounds(e, labels: labels)
            let got = drawn.bounds!
            #expect([got.minX, got.minY, got.maxX, got.maxY].map(\.bitPattern)
                    == [expected.minX, expected.minY, expected.maxX, expected.maxY].map(\.bitPattern),
                    "\(e) with \(labels)")
            if SVGLayoutWriter.DrawnBounds.labelStaysInside(e, labels) { shortcuts += 1 }
        }
        // Both ways were taken, often.
        #expect(shortcuts > 1_000 && shortcuts < 50_000, "\(shortcuts)")
    }

    /// A block of elements with the default appearance is measured as each element is
    /// (`addDefaultAppearance`), bit for bit: frames on both sides of the shortcut's limits,
    /// negative zeros, every category and label, one element per block too.
    @Test func drawnBoundsOfDefaultAppearanceBlocksAreEachElements() {
        var r = RandomPicks(seed: 404)
        for labels in SVGLabels.allCases {
            var elements: [LayoutAttributes] = []
            for _ in 0..<20_000 {
                let width = r.pick([50.99, 51, 51.01, 4, 0, r.uniform(200), r.uniform(60)])
                let height = r.pick([16.99, 17, 17.01, 4, 0, r.uniform(60), r.uniform(20)])
                let category = r.pick([ElementCategory.cell, .cell, .cell, .supplementaryView, .decorationView])
                let kind: ElementKind? = category == .cell ? nil : r.pick([.header, .footer, .badge, .background])
                let item = r.pick([0, 9_999, 10_000, 999_999, 1_000_000, Int(r.next() % 2_000_000)])
                let e = LayoutAttributes(indexPath: IndexPath(item: item, section: r.pick([0, 9, 10])), category: category,
                                         kind: kind, frame: Rect(x: r.pick([-0.0, 0, r.uniform(400) - 50]),
                                                                 y: r.pick([-0.0, r.uniform(4000)]), width: width, height: height))
                #expect(e.hasDefaultAppearance)
                elements.append(e)
            }
            var each = SVGLayoutWriter.DrawnBounds(labels: labels)
            for e in elements { each.add(e) }
            var blocks = SVGLayoutWriter.DrawnBounds(labels: labels)
            elements.withUnsafeBufferPointer { all in
                var start = 0
                while start < all.count {
                    let end = min(all.count, start + 1 + Int(r.next() % 1_500))
                    blocks.addDefaultAppearance(UnsafeBufferPointer(rebasing: all[start..<end]))
                    start = end
                }
            }
            let a = each.bounds!, b = blocks.bounds!
            #expect([a.minX, a.minY, a.maxX, a.maxY].map(\.bitPattern) == [b.minX, b.minY, b.maxX, b.maxY].map(\.bitPattern),
                    "\(labels)")
        }
    }

    /// A streamed SVG's canvas is measured on every core, each thread's blocks into bounds
    /// of their own, joined at the end: runs of elements measured apart and joined, in any
    /// order, give the bounds of the whole run, bit for bit (but a zero's sign).
    @Test func drawnBoundsOfRunsJoinedAreThoseOfTheWhole() {
        var r = RandomPicks(seed: 77)
        for (round, engine) in [(0, "waterfall"), (1, "ring"), (2, "flow"), (3, "circle")] {
            let layout = Self.randomLayout(count: 2_000, seed: UInt64(round + 5), zOrder: round % 3, engine: engine)
            for labels in SVGLabels.allCases {
                var whole = SVGLayoutWriter.DrawnBounds(labels: labels)
                for e in layout.elements { whole.add(e) }
                // Cut into 1 to 6 runs, some empty, and joined in a shuffled order.
                let cuts = ([0, layout.elements.count] + (0..<Int(r.next() % 6)).map { _ in Int(r.next() % 2_001) }).sorted()
                var runs: [SVGLayoutWriter.DrawnBounds] = []
                for (low, high) in zip(cuts, cuts.dropFirst()) {
                    var run = SVGLayoutWriter.DrawnBounds(labels: labels)
                    for e in layout.elements[low..<high] { run.add(e) }
                    runs.append(run)
                }
                var joined = SVGLayoutWriter.DrawnBounds(labels: labels)
                for run in runs.shuffled(using: &r) { joined.add(run) }
                let a = whole.bounds!, b = joined.bounds!
                #expect([a.minX, a.minY, a.maxX, a.maxY] == [b.minX, b.minY, b.maxX, b.maxY], "\(engine) \(labels) \(cuts)")
            }
        }
        // Nothing visible in either: nothing drawn.
        var empty = SVGLayoutWriter.DrawnBounds(labels: .item)
        empty.add(SVGLayoutWriter.DrawnBounds(labels: .item))
        #expect(empty.bounds == nil)
    }
}

/// Random choices for the property tests: one of some values, or a number spread evenly
/// below a top (in millionths of it).
private struct RandomPicks: RandomNumberGenerator {
    private var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }
    mutating func next() -> UInt64 { generator.next() }
    mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
    mutating func uniform(_ top: Double) -> Double { Double(next() % 1_000_000) / 1_000_000 * top }
}
