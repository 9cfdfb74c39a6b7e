// The streamed comparison's sides: two files (`compareStreams`), a file checked on its own
// (`check`), a layout as it is produced (`--check`), a stream read ahead by another thread.
import Foundation
import LayoutCore
import FastText
import LayoutDatasets
import LayoutWriters

/// Report text held until the comparison ends: in memory up to 32 MiB, then in a temporary file.
final class ReportSpill {
    private var memory: [UInt8] = []
    private var file: OpenFile?
    private(set) var count = 0
    static let memoryLimit = 32 << 20

    /// The buffer differences are rendered into; it hands its chunks to the spill.
    private(set) lazy var out: OutputBuffer = OutputBuffer(precision: .full, chunkSize: 1 << 20) { [unowned self] chunk in
        try self.store(chunk)
    }

    private func store(_ chunk: UnsafeBufferPointer<UInt8>) throws {
        count += chunk.count
        if file == nil && memory.count + chunk.count <= Self.memoryLimit {
            return memory.append(contentsOf: chunk)
        }
        if file == nil {
            let file = try OpenFile(temporary: "report")
            try memory.withUnsafeBufferPointer { try file.write($0.baseAddress!, count: $0.count) }
            memory = []
            self.file = file
        }
        try file!.write(chunk.baseAddress!, count: chunk.count)
    }

    /// Hands everything held to `body` in chunks, skipping the first `skip` bytes.
    func replay(skip: Int = 0, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try out.flush()
        guard let file else {
            guard memory.count > skip else { return }
            return try memory.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[skip...])) }
        }
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 20)
        defer { chunk.deallocate() }
        var offset = skip
        while let n = try? file.read(into: chunk, count: 1 << 20, at: offset), n > 0 {
            try body(UnsafeBufferPointer(start: chunk, count: n))
            offset += n
        }
    }
}

/// Whether two files list their shared elements in the same order (`LayoutDiffResult.reordered`):
/// a sorted side's positions must rise; both sorted, the actual ones sorted by the expected ones.
struct SharedOrder {
    let expectedSorted: Bool
    /// Whether any side was sorted (otherwise the order is the same).
    let tracks: Bool
    private var last = -1
    private var differs = false
    private var pairs: ExternalSorter<PositionPair>?

    init(expectedSorted: Bool, actualSorted: Bool) {
        self.expectedSorted = expectedSorted
        tracks = expectedSorted || actualSorted
        if expectedSorted && actualSorted { pairs = ExternalSorter(runBytes: 4 << 20) }
    }

    /// Notes a matched element at `expected` in its file and `actual` in the other.
    @inline(__always)
    mutating func match(_ expected: Int, _ actual: Int) throws {
        if let pairs { return try pairs.append(PositionPair(first: expected, second: actual)) }
        let position = expectedSorted ? expected : actual
        if position < last { differs = true }
        last = position
    }

    /// After the last match: whether the order differs.
    mutating func reordered() throws -> Bool {
        guard let pairs else { return differs }
        var pair = PositionPair(first: 0, second: 0)
        var last = -1
        while try pairs.next(into: &pair) {
            if pair.second < last { return true }
            last = pair.second
        }
        return false
    }
}

// MARK: - Two files

extension LayoutDiff {
    /// Compares two layouts (files, spooled standard input or documents) as streams (`withStreams`).
    /// - Throws: `LayoutStreamFallback` (never with `outOfOrder`) when a side cannot be
    ///   streamed (a duplicate, anything malformed): `check` each side, then compare again.
    public static func compareStreams(expected: LayoutInput, expectedFormat: LayoutFileFormat?,
                                      actual: LayoutInput, actualFormat: LayoutFileFormat?,
                                      options: DiffOptions, style: StreamedReportStyle) throws -> StreamedDiff {
        try withStreams(expected, expectedFormat, actual, actualFormat) { sorted, presence in
            let comparison = try StreamedComparison(expected: expected, format: expectedFormat, options: options,
                                                    style: style, sorted: sorted.expected,
                                                    actualSorted: sorted.actual || actual.isSorted, presence: presence)
            // Both sides parsed on threads of their own: the comparison and the report take
            // the rest of the time of the thread that runs them.
            let stream = try actual.stream(format: actualFormat, sorted: sorted.actual)
            defer { stream.cancel() }
            var a = StreamedElement.placeholder
            while try stream.next(into: &a) { try comparison.feed(a) }
            return try comparison.finish(actual: stream.finish().document)
        }
    }

    /// Runs `body` on two layouts, told which side to stream sorted (`SortedLayoutStream`)
    /// and the fields each side gives: a side not in element order is sorted from the start
    /// when its first elements say so, else `body` runs again, as it does, knowing the
    /// fields, when it throws a `LayoutStreamFallback` with `presence` (at most 4 passes).
    /// `actual` `nil`: produced by the caller in element order, its fields known only then.
    /// - Throws: `LayoutStreamFallback` (never with `outOfOrder`) for what neither remedies.
    public static func withStreams<T>(_ expected: LayoutInput, _ expectedFormat: LayoutFileFormat?,
                                      _ actual: LayoutInput?, _ actualFormat: LayoutFileFormat?,
                                      _ body: (_ sorted: (expected: Bool, actual: Bool),
                                               _ presence: (expected: UInt16, actual: UInt16)) throws -> T) throws -> T {
        // Whether the first 4096 elements are in element order (else the side is sorted from
        // the start), and the fields they give; a stream that fails meets the comparison.
        func start(_ input: LayoutInput, _ format: LayoutFileFormat?) throws -> (inOrder: Bool, present: UInt16) {
            guard !input.isSorted else { return (true, 0) }
            let stream = try input.stream(format: format, sorted: false)
            defer { stream.cancel() }
            var previous = StreamedElement.placeholder, element = StreamedElement.placeholder
            var present: UInt16 = 0
            for k in 0..<4096 {
                guard let more = try? stream.next(into: &element), more else { break }
                if k > 0 && !previous.precedes(element) { return (false, present) }
                present |= element.mask
                previous = element
            }
            return (true, present)
        }
        let startE = try start(expected, expectedFormat)
        let startA = try actual.map { try start($0, actualFormat) } ?? (inOrder: true, present: 0)
        var sorted = (expected: !startE.inOrder, actual: !startA.inOrder)
        var presence = (expected: startE.present, actual: startA.present), knowsPresence = false
        while true {
            do {
                return try body(sorted, presence)
            } catch let error as LayoutStreamFallback {
                switch (error.outOfOrder, error.presence) {
                case (.expected?, _) where !sorted.expected: sorted.expected = true
                case (.actual?, _) where !sorted.actual: sorted.actual = true
                case (nil, let known?) where !knowsPresence: (presence, knowsPresence) = (known, true)
                default: throw LayoutStreamFallback(error.description)
                }
            }
        }
    }

    /// Reads the layout at `input` to its end as a stream (sorted when not in element order),
    /// for what stopped a comparison: a repeated key is refused as the reader refuses it,
    /// once the rest of the file is known to be well formed. Memory stays bounded.
    /// - Returns: the layout without its elements (its shape, parts and unknown names).
    /// - Throws: `LayoutReadError` for a duplicate; `LayoutStreamFallback` when the streams do
    ///   not read the file: read it whole, which says what is wrong or gives the document.
    /// - Complexity: O(n), or O(n log n) for a file not in element order.
    public static func check(_ input: LayoutInput, format: LayoutFileFormat?) throws -> LayoutDocument {
        for sorted in [false, true] {
            let stream = try input.stream(format: format, sorted: sorted)
            defer { stream.cancel() }
            var element = StreamedElement.placeholder, previous = StreamedElement.placeholder
            var count = 0, inOrder = true
            // The repeated key whose second element comes first, and its first two positions.
            var duplicate: (key: ElementKey, at: Int, first: Int)? = nil
            var run = (first: 0, second: Int.max)
            func endRun() {
                if run.second < (duplicate?.at ?? Int.max) { duplicate = (previous.key, run.second, run.first) }
            }
            // What is malformed (in a CSV, on its line); which comes first in the file, it or a
            // duplicate, the in-order pass knows (the duplicate before it), the sorted one not.
            var failure: LayoutReadError? = nil
            do {
                while try stream.next(into: &element) {
                    if count > 0 && previous.sameKey(element) {
                        let at = element.ordinal
                        if at < run.first { run = (at, run.first) } else if at < run.second { run.second = at }
                    } else {
                        if count > 0 && !previous.precedes(element) {
                            inOrder = false
                            break
                        }
                        if count > 0 { endRun() }
                        run = (element.ordinal, Int.max)
                    }
                    previous = element
                    count += 1
                }
            } catch let error as LayoutReadError {
                if sorted { throw LayoutStreamFallback("malformed: \(error)") }
                failure = error
            }
            guard inOrder else { continue }
            if count > 0 { endRun() }
            if let duplicate { throw stream.duplicate(duplicate.key, at: duplicate.at, first: duplicate.first) }
            if let failure { throw failure }
            let (document, _) = try stream.finish()
            return document
        }
        throw LayoutStreamFallback("not in element order once sorted")
    }
}

// MARK: - The layout as it is produced (`--check`)

extension StreamedElement {
    /// `element` as its JSON (with `csv`, CSV) at `precision` reads back, without the text.
    public init(_ element: LayoutAttributes, precision: NumberPrecision, csv: Bool) {
        self = .placeholder
        setKey(section: element.indexPath.section, item: element.indexPath.item,
               category: element.category == .cell ? 0 : element.category == .supplementaryView ? 1 : 2,
               kind: element.kind.map { $0 == .header ? 1 : $0 == .footer ? 2 : Int32(kindNames.code($0.rawValue)!) } ?? 0)
        let f = element.frame, t = element.transform
        @inline(__always) func p(_ v: Double) -> Double { printedValue(v, precision: precision, csv: csv) }
        let identity = t == .identity
        values = SIMD16(p(f.minX), p(f.minY), p(f.width), p(f.height), p(f.midX), p(f.midY),
                        identity ? 1 : p(t.a), identity ? 0 : p(t.b), identity ? 0 : p(t.c), identity ? 1 : p(t.d),
                        identity ? 0 : p(t.tx), identity ? 0 : p(t.ty), element.alpha == 1 ? 1 : p(element.alpha),
                        Double(element.zIndex), element.isHidden ? 1 : 0, 0)
        mask = 0x7FFF
    }
}

/// The value a reader gives for `v` written at `precision`: JSON numbers as the strict
/// scanner reads them, CSV's as `ValueSyntax.number`. At 3 decimals (the default) and
/// usual magnitudes it is the writer's rounded integer over 1000, which both readers give
/// exactly (Clinger: an integer ≤ 2⁵³ over an exact power of ten, one rounding); otherwise
/// the number is formatted and read back.
@inline(__always)
func printedValue(_ v: Double, precision: NumberPrecision, csv: Bool) -> Double {
    if case .decimals(3) = precision {
        let k = 1075 &- Int(v.exponentBitPattern)
        if k >= 1 && k <= 63 {
            let m = v.significandBitPattern | 1 << 52
            let n = ((m &* 1000) >> UInt64(k &- 1) &+ 1) >> 1
            if n == 0 { return 0 }
            if n < 1_000_000_000_000_000 {
                let magnitude = Double(n) / 1000
                return v < 0 ? -magnitude : magnitude
            }
        }
    }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: NumberFormat.maximumLength) { scratch in
        let count = NumberFormat.write(v, precision: precision, to: scratch.baseAddress!)
        let text = String(decoding: UnsafeBufferPointer(start: scratch.baseAddress!, count: count), as: UTF8.self)
        return (csv ? ValueSyntax.number(text) : JSONNumber.value(text)) ?? v
    }
}

extension LayoutDiff {
    /// The actual side of `--check` without its elements: the parts of `layout` as its JSON
    /// at `precision` reads back.
    public static func partsDocument(of layout: CollectionLayout, precision: NumberPrecision) throws -> LayoutDocument {
        let out = OutputBuffer(precision: precision)
        JSONLayoutWriter.appendStart(layout, to: out)
        JSONLayoutWriter.appendEnd(layout, to: out)
        return try LayoutReader.read(Data(out.bytes), format: .json)
    }

    /// The actual side of `--check` with a CSV golden, without its elements.
    public static let csvWithoutElements = LayoutDocument(shape: .csv, elements: [], presentFields: [])
}

// MARK: - A stream read ahead by another thread

/// Reads a stream on a thread of its own, a few blocks of elements ahead of the reader,
/// so that the two sides of a comparison are parsed on two cores.
final class PrefetchedStream: LayoutElementStream, @unchecked Sendable {
    let source: LayoutElementStream
    private let condition = NSCondition()
    /// Filled blocks waiting, at most `depth`, and read ones to fill again (guarded by `condition`).
    private var ready: [[StreamedElement]] = [], spare: [[StreamedElement]] = []
    /// The source's end, once read (guarded by `condition`).
    private var end: Result<(document: LayoutDocument, present: UInt16), Error>?
    private var cancelled = false
    /// The block being read and the place in it: the reader's alone, so not checked for
    /// exclusive access at run time (a check for each element).
    @exclusivity(unchecked) private var current: [StreamedElement] = []
    @exclusivity(unchecked) private var index = 0
    private static let blockSize = 2048, depth = 4

    init(_ source: LayoutElementStream) {
        self.source = source
        runConcurrently(stackSize: 1 << 22) { [self] in produce() }
    }

    private func produce() {
        var element = StreamedElement.placeholder
        while true {
            condition.lock()
            while ready.count >= Self.depth && !cancelled { condition.wait() }
            if cancelled {
                condition.unlock()
                return
            }
            var block = spare.popLast() ?? []
            condition.unlock()
            block.removeAll(keepingCapacity: true)
            block.reserveCapacity(Self.blockSize)
            var end: Result<(document: LayoutDocument, present: UInt16), Error>? = nil
            do {
                while block.count < Self.blockSize {
                    guard try source.next(into: &element) else {
                        end = .success(try source.finish())
                        break
                    }
                    block.append(element)
                }
            } catch {
                end = .failure(error)
            }
            condition.lock()
            if !block.isEmpty { ready.append(block) }
            self.end = end
            condition.broadcast()
            condition.unlock()
            if end != nil { return }
        }
    }

    func next(into element: inout StreamedElement) throws -> Bool {
        guard try index < current.count || nextBlock() else { return false }
        element = current[index]
        index += 1
        return true
    }

    /// Takes the next filled block as `current`; `false` at the end.
    private func nextBlock() throws -> Bool {
        condition.lock()
        if !current.isEmpty { spare.append(current) }
        current = []
        index = 0
        while ready.isEmpty && end == nil && !cancelled { condition.wait() }
        if !ready.isEmpty { current = ready.removeFirst() }
        let end = self.end
        condition.broadcast()
        condition.unlock()
        guard current.isEmpty else { return true }
        guard let end else { throw LayoutStreamFallback("cancelled") }
        _ = try end.get()
        return false
    }

    func finish() throws -> (document: LayoutDocument, present: UInt16) {
        condition.lock()
        while end == nil && !cancelled { condition.wait() }
        let end = self.end
        condition.unlock()
        guard let end else { throw LayoutStreamFallback("cancelled") }
        return try end.get()
    }

    /// Stops the thread and any its source reads ahead with (the reader gave up).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        source.cancel()
    }
}
