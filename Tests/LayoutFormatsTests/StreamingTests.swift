import Foundation
import Testing
import LayoutCore
@testable import FastText
@testable import LayoutWriters

/// The streaming path (engine → `ElementBlocks` → `OutputFormat.write(_:streaming:…)`) writes
/// exactly the bytes of the kept-array path, whatever the block size, for every engine that
/// streams; and large layouts cross the parallel writer's block boundaries.
struct StreamingTests {
    /// A layout function of each streaming engine, over a small random input from `seed`.
    typealias Run = (inout ElementBlocks) throws -> CollectionLayout
    typealias Collect = () throws -> CollectionLayout

    static func engines(seed: UInt64, count: Int) -> [(String, Collect, Run)] {
        var rng = SplitMix64(seed: seed)
        let heights = (0..<count).map { _ in Double(rng.next() % 20_000) / 64 }
        let sizes = (0..<count).map { _ in Size(width: 1 + Double(rng.next() % 300) / 4, height: Double(rng.next() % 300) / 8) }
        let bounds = Size(width: 320 + Double(rng.next() % 100), height: 600)
        var waterfall = WaterfallLayout()
        waterfall.columnCount = 1 + Int(rng.next() % 5)
        waterfall.headerHeight = Double(rng.next() % 3) * 17.5
        waterfall.footerHeight = Double(rng.next() % 3) * 9.25
        let sections = [
            WaterfallSection(items: .heights(heights)),
            WaterfallSection(items: .sizes(sizes), columnCount: 2),
            WaterfallSection(items: .uniform(count: count / 3)),
        ]
        var ring = RingLayout()
        ring.startAngle = Double(rng.next() % 360)
        let rings = [1, 0] + Array(repeating: 40, count: count / 40)
        var stack = StackLayout()
        stack.angles = [0, 7.5, -12, 30]
        let items = SectionItems.sizes(sizes)
        let offset = Point(x: Double(rng.next() % 2000), y: Double(rng.next() % 2000))
        // Flow with headers pinned (held a section at a time) and the first one stretched.
        var flow = FlowLayout()
        flow.headerReferenceSize = Size(width: 0, height: 30)
        flow.footerReferenceSize = Size(width: 0, height: Double(rng.next() % 2) * 12)
        flow.sectionHeadersPinToVisibleBounds = seed % 2 == 1
        flow.stretchesFirstHeader = true
        let flowSections = [
            FlowSection(items: .sizes(sizes)),
            FlowSection(items: .heights([]), headerLength: 44),
            FlowSection(items: .sizes(Array(sizes.prefix(count / 2))), headerLength: 0),
        ]
        let flowOffset = Point(x: 0, y: seed % 3 == 0 ? -25 : Double(rng.next() % 5000))
        return [
            ("flow", { try flow.layout(flowSections, bounds: bounds, contentOffset: flowOffset) },
             { try flow.layout(flowSections, bounds: bounds, contentOffset: flowOffset, into: &$0) }),
            ("waterfall", { try waterfall.layout(sections, bounds: bounds) },
             { try waterfall.layout(sections, bounds: bounds, into: &$0) }),
            ("ring", { try ring.layout(rings, bounds: bounds) },
             { try ring.layout(rings, bounds: bounds, into: &$0) }),
            ("line", { try LineLayout().layout(items, bounds: bounds, contentOffset: offset) },
             { try LineLayout().layout(items, bounds: bounds, contentOffset: offset, into: &$0) }),
            ("carousel", { try CarouselLayout().layout(items, bounds: bounds, contentOffset: offset) },
             { try CarouselLayout().layout(items, bounds: bounds, contentOffset: offset, into: &$0) }),
            ("stack", { try stack.layout(items, bounds: bounds) },
             { try stack.layout(items, bounds: bounds, into: &$0) }),
            ("circle", { try CircleLayout().layout(items, bounds: bounds) },
             { try CircleLayout().layout(items, bounds: bounds, into: &$0) }),
        ]
    }

    func kept(_ layout: CollectionLayout, _ format: OutputFormat, _ precision: NumberPrecision) throws -> [UInt8] {
        let out = OutputBuffer(precision: precision)
        try format.write(layout, selection: nil, options: OutputOptions(), to: out)
        return out.bytes
    }

    func streamed(_ run: Run, blockSize: Int, _ format: OutputFormat, _ precision: NumberPrecision) throws -> (bytes: [UInt8], count: Int) {
        // The first pass gives the summary, as the command line's does.
        var counter = ElementBlocks(blockSize: blockSize) { _ in }
        let summary = try run(&counter)
        counter.finish()
        #expect(summary.elements.isEmpty)
        let out = OutputBuffer(precision: precision)
        var options = OutputOptions()
        options.precision = precision
        try format.write(summary, streaming: { sink in
            _ = try run(&sink)
        }, options: options, to: out)
        return (out.bytes, counter.count)
    }

    /// SVG streams when the visible elements come in drawing order, which the check pass
    /// reports; then its bytes are the kept writer's, which sorts by zIndex.
    @Test func svgStreamsTheKeptBytesWhenInDrawingOrder() throws {
        for seed in UInt64(1)...3 {
            for (name, collect, run) in Self.engines(seed: seed, count: 9_000) {
                let layout = try collect()
                var check = FiniteCheckSink()
                for element in layout.elements { check.append(element) }
                if name == "stack" { #expect(!check.zIndicesAreNonDecreasing) }
                if name == "waterfall" || name == "ring" || name == "circle" { #expect(check.zIndicesAreNonDecreasing) }
                guard check.zIndicesAreNonDecreasing else { continue }
                var counter = ElementBlocks(blockSize: 4_096) { _ in }
                let summary = try run(&counter)
                for labels in [SVGLabels.item, .indexPath, .none] {
                    var options = OutputOptions()
                    options.labels = labels
                    // The canvas `.all` of a streamed SVG: the drawn bounds measured beforehand.
                    var drawn = SVGLayoutWriter.DrawnBounds(labels: labels)
                    for element in layout.elements { drawn.add(element) }
                    options.drawnBounds = drawn.bounds
                    let out = OutputBuffer()
                    try OutputFormat.svg.write(summary, streaming: { sink in _ = try run(&sink) },
                                               options: options, to: out)
                    let keptOut = OutputBuffer()
                    try OutputFormat.svg.write(layout, selection: nil, options: options, to: keptOut)
                    #expect(out.bytes == keptOut.bytes, "\(name) labels \(labels)")
                }
            }
        }
    }

    /// Past `LayoutPipeline.serialElementLimit` a streamed SVG's canvas is measured on every
    /// core, each slot's blocks into bounds of their own, joined at the end; below it, on one
    /// thread. Either way one element far out, in any block, moves the canvas as it moves the
    /// kept layout's: the documents are the same, byte for byte.
    @Test func svgCanvasMeasuredOnEveryCoreIsTheKeptOne() throws {
        for count in [LayoutPipeline.serialElementLimit, 3 * LayoutPipeline.serialElementLimit / 2] {
            for outlier in [0, 1_023, 1_024, 5_000, count / 2, count - 1] {
                var elements = (0..<count).map { k in
                    LayoutAttributes.cell(IndexPath(item: k, section: 0),
                                          frame: Rect(x: Double(k % 3) * 130, y: Double(k / 3) * 60, width: 120, height: 50))
                }
                // Left of the content, or below it.
                if outlier % 2 == 0 { elements[outlier].frame.origin.x = -777.5 } else { elements[outlier].frame.origin.y += 1e6 }
                let layout = CollectionLayout(engine: "test", bounds: Size(width: 390, height: 844), contentOffset: Point(x: 0, y: 0),
                                              contentSize: Size(width: 390, height: Double(count / 3 + 1) * 60),
                                              elements: elements, cellRanges: [(start: 0, count: count)])
                let summary = CollectionLayout(engine: "test", bounds: layout.bounds, contentOffset: layout.contentOffset,
                                               contentSize: layout.contentSize, elements: [], cellRanges: [])
                let engine = LayoutPipeline.Engine(
                    layout: { layout },
                    stream: { sink in for e in elements { sink.append(e) }; return summary },
                    check: { sink in for e in elements { sink.append(e) }; return summary })
                func svg(keepsElements: Bool) throws -> [UInt8] {
                    let pipeline = try LayoutPipeline(engine: engine, request: LayoutPipeline.Request(
                        format: .svg, scale: nil, keepsElements: keepsElements, target: nil, engine: "test",
                        bounds: layout.bounds, contentOffset: layout.contentOffset))
                    #expect(pipeline.isStreamed == !keepsElements)
                    let out = OutputBuffer()
                    try pipeline.write(.svg, selection: nil, options: OutputOptions(), to: out)
                    return out.bytes
                }
                let streamed = try svg(keepsElements: false)
                #expect(streamed == (try svg(keepsElements: true)), "\(count) elements, outlier \(outlier)")
                let text = String(decoding: streamed.prefix(400), as: UTF8.self)
                let bottom = Int(Double(outlier / 3) * 60 + 1e6 + 50)
                #expect(text.contains(outlier % 2 == 0 ? "viewBox=\"-778 " : "viewBox=\"0 0 390 \(bottom)\""), "\(text)")
            }
        }
    }

    @Test(arguments: [1, 7, 64])
    func smallLayoutsStreamTheKeptBytes(blockSize: Int) throws {
        for seed in UInt64(1)...4 {
            for (name, collect, run) in Self.engines(seed: seed, count: 150) {
                let layout = try collect()
                for format in [OutputFormat.json, .csv] {
                    for precision in [NumberPrecision.standard, .decimals(0), .full] {
                        let (bytes, count) = try streamed(run, blockSize: blockSize, format, precision)
                        #expect(count == layout.elements.count, "\(name)")
                        #expect(bytes == (try kept(layout, format, precision)), "\(name) \(format) \(precision) block \(blockSize)")
                    }
                }
            }
        }
    }

    /// More elements than two parallel formatting blocks (2 × 8,192), so the workers share
    /// every block and the rounds meet at block edges.
    @Test func largeLayoutsStreamTheKeptBytes() throws {
        for (name, collect, run) in Self.engines(seed: 9, count: 40_000) {
            let layout = try collect()
            for format in [OutputFormat.json, .csv] {
                for blockSize in [16_384, 10_000] {
                    let (bytes, _) = try streamed(run, blockSize: blockSize, format, .standard)
                    #expect(bytes == (try kept(layout, format, .standard)), "\(name) \(format) block \(blockSize)")
                }
            }
        }
    }

    /// Elements in runs of the default appearance and of others (an alpha, a zIndex, a
    /// transform, hidden, a `-0` that is not a default `0`), whose lengths straddle the
    /// pipeline's blocks: the engine stores a default-appearance element without its
    /// appearance into slots that hold one, and the streamed bytes are still the kept ones.
    static func appearanceRuns(seed: UInt64, count: Int) -> [LayoutAttributes] {
        var rng = SplitMix64(seed: seed)
        var elements: [LayoutAttributes] = []
        while elements.count < count {
            let run = Int(rng.next() % 3) == 0 ? Int(rng.next() % 5) : Int(rng.next() % 3_000)
            let variant = Int(rng.next() % 6)
            for _ in 0..<min(run, count - elements.count) {
                let item = elements.count
                var e = LayoutAttributes.cell(IndexPath(item: item, section: 0),
                                              frame: Rect(x: Double(item % 7), y: Double(item), width: 10, height: 20))
                switch variant {
                case 1: e.alpha = 0.5
                case 2: e.zIndex = 3
                case 3: e.transform = AffineTransform(a: 1, b: -0.0, c: 0, d: 1, tx: 0, ty: 0)
                case 4: e.isHidden = true
                case 5: e.transform = AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 1, ty: 0)
                default: break
                }
                elements.append(e)
            }
        }
        return elements
    }

    @Test func mixedAppearancesStreamTheKeptBytes() throws {
        for seed in UInt64(1)...3 {
            let elements = Self.appearanceRuns(seed: seed, count: 30_000)
            let layout = CollectionLayout(engine: "test", bounds: Size(width: 100, height: 100),
                                          contentSize: Size(width: 100, height: 30_020), elements: elements,
                                          cellRanges: [(start: 0, count: elements.count)])
            let summary = CollectionLayout(engine: "test", bounds: layout.bounds, contentSize: layout.contentSize,
                                           elements: [], cellRanges: [(start: 0, count: elements.count)])
            for format in [OutputFormat.json, .csv] {
                for precision in [NumberPrecision.standard, .full] {
                    var options = OutputOptions()
                    options.precision = precision
                    let out = OutputBuffer(precision: precision)
                    try format.write(summary, streaming: { sink in
                        for e in elements { sink.append(e) }
                    }, options: options, to: out)
                    #expect(out.bytes == (try kept(layout, format, precision)), "seed \(seed) \(format) \(precision)")
                }
            }
        }
    }

    /// Frames that share an entry of a table of frame texts (`FrameKey.slot`) while differing
    /// in one of x, width and height only, 200 of each in turn: a key of fewer than all three
    /// would take one for the other.
    static let framesSharingEntries: [Rect] = {
        let base = Rect(x: 133.333, y: 0, width: 123.333, height: 115)
        func slot(_ f: Rect) -> Int { FrameKey(x: f.minX, width: f.width, height: f.height).slot }
        var frames: [Rect] = []
        for change in [WritableKeyPath<Rect, Double>](arrayLiteral: \.origin.x, \.size.width, \.size.height) {
            var other = base
            repeat { other[keyPath: change] += 0.5 } while slot(other) != slot(base)
            frames += Array(repeating: base, count: 200) + Array(repeating: other, count: 200)
        }
        return frames
    }()

    /// A CSV block of default-appearance rows, written with the buffer's table of frame texts
    /// and each column's last y and centerY (`appendRows`), is what `appendRow` writes row
    /// by row: over blocks that share the table, frames drawn from a pool larger than the
    /// table (x alike but width or height not, so a key of fewer than all three fails), texts too long to keep
    /// (x past 8 bytes, a middle past 24), negatives, `-0`, halves, fractions and numbers far
    /// past 10⁸, runs of one y, every kind, at four precisions.
    @Test func csvRowsWithTheFrameTableAreAppendRowsOwn() throws {
        var rng = SplitMix64(seed: 11)
        let values: [Double] = [0, -0.0, 1, 7.5, -7.5, 123.333, 266.6666666, 12_345.678, -99_999_999.5, 99_999_999.5,
                                1e8, 123_456_789.25, 1e20, .leastNonzeroMagnitude, 0.0005, -0.0004, 61.667, 1 / 3]
        // More frames than the table has entries, many alike in x and width: entries collide.
        var pool = (0..<3_000).map { k in
            Rect(x: values[Int(rng.next() % UInt64(values.count))], y: 0, width: values[Int(rng.next() % 4)],
                 height: k % 2 == 0 ? values[Int(rng.next() % UInt64(values.count))] : Double(rng.next() % 5_000) / 4)
        }
        pool += Self.framesSharingEntries
        let kinds: [ElementKind?] = [nil, nil, nil, .header, .footer, .badge, .background]
        var elements: [LayoutAttributes] = []
        for item in 0..<20_000 {
            var frame = pool[Int(rng.next() % UInt64(pool.count))]
            frame.origin.y = rng.next() % 4 == 0 ? elements.last?.frame.minY ?? 0 : values[Int(rng.next() % UInt64(values.count))]
            let section = Int(rng.next() % 3)
            let kind = kinds[Int(rng.next() % UInt64(kinds.count))]
            let e = kind.map { LayoutAttributes.supplementaryView(ofKind: $0, at: IndexPath(item: item, section: section), frame: frame) }
                ?? .cell(IndexPath(item: item, section: section), frame: frame)
            #expect(e.hasDefaultAppearance)
            elements.append(e)
        }
        for precision in [NumberPrecision.standard, .decimals(0), .decimals(6), .full] {
            let rows = OutputBuffer(precision: precision), expected = OutputBuffer(precision: precision)
            elements.withUnsafeBufferPointer { all in
                var start = 0
                while start < all.count {  // blocks of every size, one table throughout
                    let end = min(all.count, start + 1 + Int(rng.next() % 900))
                    CSVLayoutWriter.appendRows(UnsafeBufferPointer(rebasing: all[start..<end]), allDefaultAppearance: true, to: rows)
                    start = end
                }
            }
            for e in elements {
                var items = CountingDigits()  // each row on its own
                CSVLayoutWriter.appendRow(e, to: expected, items: &items)
            }
            let a = rows.bytes, b = expected.bytes
            let difference = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? (a.count == b.count ? nil : min(a.count, b.count))
            #expect(difference == nil, "\(precision): \(String(decoding: a[(difference ?? 0)...].prefix(120), as: UTF8.self))")
        }
    }

    /// SVG blocks of default-appearance elements, written with the buffer's table of frame
    /// texts (`SVGFrameText`), are what the writer writes without it: the same pool of
    /// colliding frames, long texts (x past 24 bytes with its attribute, width, height and
    /// radius past 40, a centre past 32), cells too small or too narrow for a label, and
    /// headers among them, at four precisions and with every kind of label.
    @Test func svgBlocksWithTheFrameTableAreTheWritersOwn() throws {
        var rng = SplitMix64(seed: 12)
        let values: [Double] = [0, -0.0, 1, 7.5, 123.333, 266.6666666, 12_345.678, 99_999_999.5, 123_456_789.25,
                                1e20, 0.0005, 61.667, 1 / 3, 3, 60]
        var pool = (0..<2_000).map { k in
            Rect(x: values[Int(rng.next() % UInt64(values.count))], y: 0,
                 width: k % 3 == 0 ? values[Int(rng.next() % UInt64(values.count))] : 123.333,
                 height: k % 2 == 0 ? values[Int(rng.next() % UInt64(values.count))] : Double(rng.next() % 300) / 2)
        }
        pool += Self.framesSharingEntries
        var elements: [LayoutAttributes] = []
        for item in 0..<12_000 {
            var frame = pool[Int(rng.next() % UInt64(pool.count))]
            frame.origin.y = rng.next() % 4 == 0 ? elements.last?.frame.minY ?? 0 : values[Int(rng.next() % UInt64(values.count))]
            let path = IndexPath(item: item, section: Int(rng.next() % 12))
            elements.append(rng.next() % 20 == 0 ? .supplementaryView(ofKind: .header, at: path, frame: frame) : .cell(path, frame: frame))
        }
        for precision in [NumberPrecision.standard, .decimals(0), .decimals(6), .full] {
            for labels in SVGLabels.allCases {
                let withTable = OutputBuffer(precision: precision), without = OutputBuffer(precision: precision)
                elements.withUnsafeBufferPointer { all in
                    var start = 0
                    while start < all.count {
                        let end = min(all.count, start + 1 + Int(rng.next() % 900))
                        let block = UnsafeBufferPointer(rebasing: all[start..<end])
                        SVGLayoutWriter.appendBlock(block, round: false, labels: labels, allDefaultAppearance: true, to: withTable)
                        SVGLayoutWriter.appendBlock(block, round: false, labels: labels, allDefaultAppearance: false, to: without)
                        start = end
                    }
                }
                let a = withTable.bytes, b = without.bytes
                let difference = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? (a.count == b.count ? nil : min(a.count, b.count))
                #expect(difference == nil, "\(precision) \(labels): \(String(decoding: a[(difference ?? 0)...].prefix(120), as: UTF8.self))")
            }
        }
    }

    /// `ElementBlocks` on its own, over a ring of three buffers that start with the default
    /// appearance in every slot: each block it hands on holds exactly the elements appended,
    /// and what it says of each buffer is true of every slot.
    @Test func elementBlocksStoreOnlyWhatTheSlotsLack() throws {
        for blockSize in [1, 5, 64, 1_000] {
            let elements = Self.appearanceRuns(seed: UInt64(blockSize), count: 12_345)
            let plain = LayoutAttributes.cell(IndexPath(item: 9, section: 9), frame: Rect(x: 1, y: 2, width: 3, height: 4))
            let buffers = (0..<3).map { _ in UnsafeMutablePointer<LayoutAttributes>.allocate(capacity: blockSize) }
            defer { for b in buffers { b.deallocate() } }
            for b in buffers { b.initialize(repeating: plain, count: blockSize) }
            var holds = [true, true, true]
            var next = 0
            var received: [LayoutAttributes] = []
            var sink = ElementBlocks(blockSize: blockSize, buffer: buffers[0], holdsDefaultAppearance: true) { block, holdsDefaults in
                received.append(contentsOf: block)
                let whole = UnsafeBufferPointer(start: buffers[next], count: blockSize)
                #expect(!holdsDefaults || whole.allSatisfy(\.hasDefaultAppearance), "block size \(blockSize)")
                holds[next] = holdsDefaults
                next = (next + 1) % 3
                return (buffers[next], holds[next])
            }
            for e in elements { sink.append(e) }
            sink.finish()
            #expect(received == elements, "block size \(blockSize)")
        }
    }

    /// The parallel writer on its own: any count, any block size, the sequential bytes.
    @Test func parallelFormattingKeepsTheOrder() throws {
        for count in [0, 1, 5, 8_191, 16_384, 16_385, 50_001] {
            for blockSize in [1, 3, 4_096] where count / blockSize < 20_000 {
                let out = OutputBuffer()
                try appendInParallel(count: count, to: out, blockSize: blockSize) { k, buffer in
                    buffer.append(integer: k)
                    buffer.append(byte: 0x0A)
                }
                var expected: [UInt8] = []
                for k in 0..<count { expected += Array("\(k)\n".utf8) }
                #expect(out.bytes == expected, "count \(count) block \(blockSize)")
            }
        }
    }

    /// The pipeline's slots keep their text in memory of the pipeline's (one allocation, on
    /// huge pages): a block whose text outgrows its slot's room (256 bytes an element) moves
    /// to memory of its own, in order, and the pipeline runs again after it.
    @Test func slotsOutgrowTheirRoomAndRunAgain() throws {
        let pipeline = BlockPipeline(precision: .standard)
        defer { pipeline.stop() }
        for (count, width) in [(5_000, 1_500), (3_000, 3), (2_500, 700)] {
            let out = OutputBuffer()
            try pipeline.run(to: out, formatBlock: { block, first, _, buffer in
                for k in block.indices {
                    buffer.append(integer: first + k)
                    for _ in 0..<width { buffer.append(byte: UInt8(ascii: "a") + UInt8((first + k) % 26)) }
                    buffer.append(byte: 0x0A)
                }
            }) { sink in
                for i in 0..<count {
                    sink.append(.cell(IndexPath(item: i, section: 0), frame: Rect(x: 0, y: Double(i), width: 1, height: 1)))
                }
            }
            var expected: [UInt8] = []
            for k in 0..<count {
                expected += Array(String(k).utf8) + Array(repeating: UInt8(ascii: "a") + UInt8(k % 26), count: width) + [0x0A]
            }
            #expect(out.bytes == expected, "\(count) elements of \(width) bytes")
        }
    }

    /// The writers count the cores `nproc` counts (the affinity mask), no more than
    /// Foundation's online CPUs: 2 on this machine, 1 under `taskset -c 0`.
    @Test func availableCoresAreTheAffinityMasks() throws {
        let nproc = Process()
        nproc.executableURL = URL(fileURLWithPath: "/usr/bin/nproc")
        let pipe = Pipe()
        nproc.standardOutput = pipe
        try nproc.run()
        nproc.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let counted = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(AvailableCores.count == min(counted, max(1, ProcessInfo.processInfo.activeProcessorCount)))
    }

    struct Full: Error {}

    /// A sink that fails part-way (a full disk, a closed pipe): the error comes out of the
    /// write, the workers stop, nothing hangs, and nothing after the failure is handed on.
    @Test func aFailingSinkStopsTheStream() throws {
        for failAfter in [0, 1, 3 << 20] {
            var received = 0
            var calls = 0
            let out = OutputBuffer(chunkSize: 1 << 16) { bytes in
                calls += 1
                if received >= failAfter { throw Full() }
                received += bytes.count
            }
            let (_, _, run) = Self.engines(seed: 3, count: 60_000)[0]
            var counter = ElementBlocks(blockSize: 4_096) { _ in }
            let summary = try run(&counter)
            #expect(throws: Full.self) {
                try OutputFormat.json.write(summary, streaming: { sink in _ = try run(&sink) },
                                            options: OutputOptions(), to: out)
            }
            let callsAtFailure = calls
            #expect(received <= failAfter + (1 << 21))
            // No worker hands anything on afterwards.
            Thread.sleep(forTimeInterval: 0.05)
            #expect(calls == callsAtFailure)
        }
    }

    /// A producer that fails (an engine error) makes the streamed write fail, without
    /// hanging its pipeline.
    @Test func aFailingProducerFailsTheStreamedWrite() throws {
        let summary = CollectionLayout(engine: "test", bounds: Size(width: 1, height: 1), contentSize: Size(width: 1, height: 1),
                                       elements: [], cellRanges: [])
        for format in OutputFormat.allCases {
            #expect(throws: Full.self) {
                try format.write(summary, streaming: { sink in
                    for item in 0..<10_000 {
                        sink.append(.cell(IndexPath(item: item, section: 0), frame: Rect(x: 0, y: 0, width: 1, height: 1)))
                    }
                    throw Full()
                }, options: OutputOptions(), to: OutputBuffer())
            }
        }
    }
}
