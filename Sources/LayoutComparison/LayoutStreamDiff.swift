// The streamed comparison: the expected side pulled element by element, the actual side
// pushed (a file's reader, or an engine's blocks for `--check`), matched as a merge of two
// lists in element order. Differences are rendered as they are found into a spill (memory,
// then a temporary file), and the report is put together at the end, when its header and
// summary are known (`writeReport`, the one renderer of the text and JSON reports).
import Foundation
import LayoutCore
import FastText
import LayoutDatasets
import LayoutWriters

/// Report text held until the comparison ends: in memory up to 32 MiB, then in an unlinked
/// temporary file.
final class ReportSpill {
    private var memory: [UInt8] = []
    private var fd: Int32 = -1
    private(set) var count = 0
    static let memoryLimit = 32 << 20

    /// The buffer differences are rendered into; it hands its chunks to the spill.
    private(set) lazy var out: OutputBuffer = OutputBuffer(precision: .full, chunkSize: 1 << 20) { [unowned self] chunk in
        try self.store(chunk)
    }

    private func store(_ chunk: UnsafeBufferPointer<UInt8>) throws {
        count += chunk.count
        if fd < 0 && memory.count + chunk.count <= Self.memoryLimit {
            memory.append(contentsOf: chunk)
            return
        }
        if fd < 0 {
            fd = try unlinkedTemporaryFile("report")
            try memory.withUnsafeBufferPointer { try writeFully(fd, $0.baseAddress!, count: $0.count) }
            memory = []
        }
        try writeFully(fd, chunk.baseAddress!, count: chunk.count)
    }

    /// Hands everything held to `body` in chunks, skipping the first `skip` bytes.
    func replay(skip: Int = 0, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try out.flush()
        if fd < 0 {
            guard memory.count > skip else { return }
            try memory.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[skip...])) }
            return
        }
        lseek(fd, off_t(skip), SEEK_SET)
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 20)
        defer { chunk.deallocate() }
        while true {
            let n = read(fd, chunk, 1 << 20)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            try body(UnsafeBufferPointer(start: chunk, count: n))
        }
    }

    deinit { if fd >= 0 { close(fd) } }
}

/// Whether two files list the elements they share in the same order (`LayoutDiffResult.reordered`),
/// from the positions in their files of the elements matched in element order. A side read
/// in element order lists them in that order; when one side was sorted, its positions must
/// rise; when both were, the pairs of positions are sorted by the expected one
/// (`ExternalSorter`, on disk past 4 MiB) and the actual ones must rise.
struct SharedOrder {
    let expectedSorted: Bool, actualSorted: Bool
    /// Whether any side was sorted (otherwise the order is the same).
    let tracks: Bool
    private var last = -1
    private var differs = false
    private var pairs: ExternalSorter<PositionPair>?

    init(expectedSorted: Bool, actualSorted: Bool) {
        self.expectedSorted = expectedSorted
        self.actualSorted = actualSorted
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

/// How the streamed comparison renders differences.
public enum StreamedReportStyle: Sendable, Equatable {
    case text(color: Bool)
    case json
}

/// A comparison of two layouts streamed in element order. Feed the actual side's elements
/// with `feed`, then call `finish`; the expected side is pulled as needed.
public final class StreamedComparison {
    private let expected: LayoutElementStream
    var expectedStream: LayoutElementStream { expected }
    private let options: DiffOptions
    private let style: StreamedReportStyle
    let spill = ReportSpill()
    /// The merge's state, one value so that a `feed` makes one access to this object
    /// (unchecked: only the comparing thread touches it, never reentrantly).
    @exclusivity(unchecked) private var core: MergeCore
    /// The spill's buffer, looked up once.
    private let out: OutputBuffer

    /// A comparison with `expected`; `sorted` says which sides come through a
    /// `SortedLayoutStream` (their elements carry their positions in the file).
    /// - Parameter presence: fields each side is known to give (its first elements', or all
    ///   when a comparison is made again).
    init(expected: LayoutElementStream, options: DiffOptions, style: StreamedReportStyle,
         sorted: (expected: Bool, actual: Bool) = (false, false), presence: (expected: UInt16, actual: UInt16)? = nil) {
        self.expected = expected
        self.options = options
        self.style = style
        out = spill.out
        core = MergeCore(options: options, style: style)
        core.sharedOrder = SharedOrder(expectedSorted: sorted.expected, actualSorted: sorted.actual)
        if let presence { (core.expectedPresent, core.actualPresent) = presence }
    }

    /// Opens `input` as the expected side, read by a thread of its own; with `sorted`, its
    /// elements sorted first (a file not in element order); `actualSorted` says whether the
    /// actual side's are.
    /// - Throws: `LayoutStreamFallback` when it cannot be streamed.
    public convenience init(expected input: LayoutInput, format: LayoutFileFormat?, options: DiffOptions,
                            style: StreamedReportStyle, sorted: Bool = false, actualSorted: Bool = false,
                            presence: (expected: UInt16, actual: UInt16)? = nil) throws {
        let stream = try input.stream(format: format, sorted: sorted)
        self.init(expected: stream, options: options, style: style, sorted: (sorted || input.isSorted, actualSorted),
                  presence: presence)
    }

    deinit { expected.cancel() }

    /// Compares the next actual element (in element order).
    @inline(__always)
    public func feed(_ a: StreamedElement) throws {
        try core.feed(a, expected: expected, out: out)
    }

    /// The merge: the expected element waiting, the counts, the largest deltas.
    struct MergeCore {
        let fields: [ElementField]
        let tolerance: Double
        let style: StreamedReportStyle
        var pending = StreamedElement.placeholder
        var hasPending = false
        var expectedDone = false
        var lastExpected = StreamedElement.placeholder, lastActual = StreamedElement.placeholder
        var expectedCount = 0, actualCount = 0, matchedCount = 0
        var counts = LayoutDiffResult.Counts()
        var bestLength: LargestDelta?, bestOther: LargestDelta?
        /// Their deltas' magnitudes (−1 for none), compared without copying them.
        var bestLengthMagnitude = -1.0, bestOtherMagnitude = -1.0
        /// The largest and smallest magnitudes of the numeric deltas (−1, infinity for none),
        /// and whether `hidden` differed.
        var spread = -1.0, smallestDelta = Double.infinity, otherChange = false
        /// Fields where one side gave a value and the other none before it was known whether
        /// that side gives the field at all (then it is no difference); left out of the report.
        var uncertain: UInt16 = 0
        /// The fields each side gave so far.
        var actualPresent: UInt16 = 0, expectedPresent: UInt16 = 0
        /// Whether the shared elements are in the same order in both files.
        var sharedOrder = SharedOrder(expectedSorted: false, actualSorted: false)

        init(options: DiffOptions, style: StreamedReportStyle) {
            fields = options.fields.sorted()
            tolerance = options.tolerance
            self.style = style
        }

        /// Makes the next expected element `pending`, checking the order; `false` at the end.
        @inline(__always)
        mutating func pull(_ expected: LayoutElementStream) throws -> Bool {
            if hasPending { return true }
            guard !expectedDone else { return false }
            guard try expected.next(into: &pending) else {
                expectedDone = true
                return false
            }
            if expectedCount > 0, !lastExpected.precedes(pending) {
                if lastExpected.sameKey(pending) { throw LayoutStreamFallback("expected: a duplicate element") }
                throw LayoutStreamFallback("expected: not in element order", outOfOrder: .expected)
            }
            lastExpected.copyKey(of: pending)
            expectedCount += 1
            expectedPresent |= pending.mask
            hasPending = true
            return true
        }

        @inline(__always)
        mutating func feed(_ a: StreamedElement, expected: LayoutElementStream, out: OutputBuffer) throws {
            if actualCount > 0, !lastActual.precedes(a) {
                if lastActual.sameKey(a) { throw LayoutStreamFallback("actual: a duplicate element") }
                throw LayoutStreamFallback("actual: not in element order", outOfOrder: .actual)
            }
            lastActual.copyKey(of: a)
            actualCount += 1
            actualPresent |= a.mask
            while try pull(expected) {
                if pending.sameKey(a) {
                    hasPending = false
                    matchedCount += 1
                    if sharedOrder.tracks { try sharedOrder.match(pending.ordinal, a.ordinal) }
                    try compare(pending, a, out: out)
                    return
                }
                guard pending.precedes(a) else { break }
                hasPending = false
                try report(pending.key, .missing, pending, out: out)
            }
            try report(a.key, .extra, a, out: out)
        }

        @inline(__always)
        mutating func compare(_ e: StreamedElement, _ a: StreamedElement, out: OutputBuffer) throws {
            // Most pairs: every field given on both sides, the same bits (the same text),
            // or within the tolerance.
            if e.mask == a.mask {
                if Self.sameBits(e.values, a.values) { return }
                let d = a.values - e.values
                let magnitude = SIMD16<Double>(repeating: 0).replacing(with: d, where: d .> 0)
                    - SIMD16<Double>(repeating: 0).replacing(with: d, where: d .< 0)
                if magnitude.max() <= tolerance && e.values[14] == a.values[14] { return }
            }
            if case .text(let color) = style, e.mask == a.mask {
                return try compareIntoText(e, a, color: color, out: out)
            }
            var changes: [FieldChange] = []
            for field in fields {
                let k = field.rawValue, bit: UInt16 = 1 << UInt16(k)
                let inE = e.mask & bit != 0, inA = a.mask & bit != 0
                if inE && inA {
                    let x = e.values[k], y = a.values[k]
                    if field == .hidden {
                        if x == y { continue }
                    } else if (y - x).magnitude <= tolerance {
                        continue
                    }
                } else if inE || inA {
                    // A value against none is a change only if the side without it gives the
                    // field for some element; when that is not known yet, it is left out, and
                    // the comparison is made again if the side turns out to give the field.
                    if (inE ? actualPresent : expectedPresent) & bit == 0 {
                        uncertain |= bit
                        continue
                    }
                } else {
                    continue
                }
                if let change = LayoutDiff.compareValues(field.name, e.value(field), a.value(field), isLength: field.isLength,
                                                         tolerance: tolerance) {
                    changes.append(change)
                }
            }
            if !changes.isEmpty { try report(e.key, .changed(changes), e, out: out) }
        }

        /// Whether `x` and `y` have the same bits: one `memcmp` (SIMD's `==` goes lane by lane).
        @inline(__always)
        static func sameBits(_ x: SIMD16<Double>, _ y: SIMD16<Double>) -> Bool {
            withUnsafeBytes(of: x) { a in
                withUnsafeBytes(of: y) { b in memcmp(a.baseAddress!, b.baseAddress!, MemoryLayout<SIMD16<Double>>.size) == 0 }
            }
        }

        /// `compare` for a text report when both sides give the same fields (cvlayout's own
        /// files): the changed fields found as bits and written straight into the report, the
        /// same bytes as `LayoutDiff.appendTextBlock`, without a `FieldChange` unless it is
        /// the largest delta so far.
        private mutating func compareIntoText(_ e: StreamedElement, _ a: StreamedElement, color: Bool,
                                              out: OutputBuffer) throws {
            var changed: UInt16 = 0
            for field in fields {
                let k = field.rawValue, bit: UInt16 = 1 << UInt16(k)
                guard e.mask & bit != 0 else { continue }
                let x = e.values[k], y = a.values[k]
                if field == .hidden {
                    if x != y { changed |= bit }
                } else {
                    // `LayoutDiff.compareValues`: exact at 0, inclusive with a few ulps otherwise.
                    let d = (y - x).magnitude, slack = 4 * Swift.max(x.magnitude, y.magnitude).ulp
                    if !(d <= tolerance || (tolerance > 0 && d - slack <= tolerance)) { changed |= bit }
                }
            }
            guard changed != 0 else { return }
            counts.differ += 1
            var width = 0
            for field in fields where changed & 1 << UInt16(field.rawValue) != 0 {
                width = Swift.max(width, Self.nameLengths[field.rawValue])
                guard field != .hidden else { otherChange = true; continue }
                let delta = a.values[field.rawValue] - e.values[field.rawValue]
                spread = Swift.max(spread, delta.magnitude)
                smallestDelta = Swift.min(smallestDelta, delta.magnitude)
                if delta.magnitude > (field.isLength ? bestLengthMagnitude : bestOtherMagnitude) {
                    consider(e.key, FieldChange(name: field.name, expected: e.value(field), actual: a.value(field),
                                                delta: delta, isLength: field.isLength))
                }
            }
            if color { out.append("\u{1B}[36m") }
            out.append("~ ")
            if e.category == 0 && e.kind == 0 {
                out.append(integer: e.section)
                out.append(byte: UInt8(ascii: ":"))
                out.append(integer: e.item)
                if e.disappearing { out.append(" (disappearing)") }
            } else {
                out.append(string: e.key.description)
            }
            if color { out.append("\u{1B}[0m") }
            out.append(byte: 0x0A)
            // The fields' lines through a cursor: numbers from the buffer's table of recent
            // ones (a layout repeats its widths and offsets), names as 16 padded bytes.
            var cursor = out.cursor(reserving: Self.fieldLinesBound)
            for field in fields where changed & 1 << UInt16(field.rawValue) != 0 {
                cursor.append("    ")
                cursor.append(Self.paddedNames[field.rawValue], count: width)
                cursor.append("  ")
                let x = e.values[field.rawValue], y = a.values[field.rawValue]
                if field == .hidden {
                    cursor.append(x != 0 ? "true → " : "false → ")
                    cursor.append(y != 0 ? "true\n" : "false\n")
                    continue
                }
                let xStart = cursor.position
                cursor.append(number: x)
                var decimals = Self.decimals(from: xStart, to: cursor.position)
                cursor.append(" → ")
                let yStart = cursor.position
                cursor.append(number: y)
                decimals = Swift.max(decimals, Self.decimals(from: yStart, to: cursor.position))
                cursor.append("  (")
                let delta = y - x
                if !delta.isFinite {
                    cursor.append(delta > 0 ? "+past the largest double" : "-past the largest double")
                } else {
                    if delta > 0 { cursor.append(byte: UInt8(ascii: "+")) }
                    cursor.append { LayoutDiff.writeDelta(delta, decimals: decimals, to: $0) }
                }
                cursor.append(")\n")
            }
            out.commit(cursor)
            try out.flushIfFull()
        }

        /// Each field's report name, padded with spaces to 16 bytes, and its length.
        private static let paddedNames: [SIMD16<UInt8>] = ElementField.allCases.map { field in
            var bytes = SIMD16<UInt8>(repeating: 0x20)
            for (i, byte) in field.name.utf8.enumerated() { bytes[i] = byte }
            return bytes
        }
        private static let nameLengths = ElementField.allCases.map(\.name.utf8.count)
        /// The most the lines of one element's fields take: per field, three numbers of the
        /// longest kind, the 24 bytes a cached number stores, the name and the punctuation.
        private static let fieldLinesBound = ElementField.allCases.count * (3 * NumberFormat.maximumLength + 96)

        /// The digits after the point in the number written from `start` to `end`.
        @inline(__always)
        private static func decimals(from start: UnsafeMutablePointer<UInt8>, to end: UnsafeMutablePointer<UInt8>) -> Int {
            var p = end
            while p > start {
                p -= 1
                if p.pointee == UInt8(ascii: ".") { return end - p - 1 }
            }
            return 0
        }

        /// Keeps `change` of `key` (or of a part, `nil`) when its delta is the largest of its
        /// kind so far (lengths, others); the first of equals stays.
        mutating func consider(_ key: ElementKey?, _ change: FieldChange) {
            guard let delta = change.delta else { return }
            if change.isLength {
                if delta.magnitude > bestLengthMagnitude {
                    bestLengthMagnitude = delta.magnitude
                    bestLength = LargestDelta(element: key, change: change)
                }
            } else if delta.magnitude > bestOtherMagnitude {
                bestOtherMagnitude = delta.magnitude
                bestOther = LargestDelta(element: key, change: change)
            }
        }

        mutating func report(_ key: ElementKey, _ change: DiffChange, _ element: StreamedElement, out: OutputBuffer) throws {
            counts.differ += 1
            switch change {
            case .missing: counts.missing += 1
            case .extra: counts.extra += 1
            case .changed(let changes):
                for change in changes { consider(key, change) }
            }
            switch style {
            case .text(let color):
                var frame: SIMD4<Double>? = nil
                if change == .missing || change == .extra, element.mask & 0xF == 0xF {
                    frame = SIMD4(element.values[0], element.values[1], element.values[2], element.values[3])
                }
                LayoutDiff.appendTextBlock(key, change, frame: frame, color: color, to: out)
            case .json:
                out.append(",\n")
                LayoutDiff.appendJSONEntry(element: key, change, to: out)
            }
            try out.flushIfFull()
        }
    }

    /// Ends the comparison: the expected elements left are missing; the parts are compared.
    /// - Parameters:
    ///   - actual: the actual side without its elements (shape, parts).
    /// - Returns: the result (its `elements` empty, `streamedCounts` set) and the expected
    ///   side without its elements (for its unknown names).
    /// - Throws: `LayoutStreamFallback` when the comparison must be made again (`presence`).
    public func finish(actual: LayoutDocument) throws -> (LayoutDiffResult, expected: LayoutDocument) {
        while try core.pull(expected) {
            core.hasPending = false
            try core.report(core.pending.key, .missing, core.pending, out: spill.out)
        }
        let reordered = try core.sharedOrder.reordered()
        let expectedCount = core.expectedCount, actualCount = core.actualCount, uncertain = core.uncertain
        let actualPresent = core.actualPresent
        let (expectedDocument, expectedPresent) = try expected.finish()
        // The element fields both sides give; the rest of the selection is noted.
        var selected: UInt16 = 0
        for field in options.fields { selected |= 1 << UInt16(field.rawValue) }
        var fieldNotes: [NotCompared] = []
        if expectedCount > 0 && actualCount > 0 {
            let compared = selected & expectedPresent & actualPresent
            if uncertain & compared != 0 {
                throw LayoutStreamFallback("a field only some elements give", presence: (expectedPresent, actualPresent))
            }
            func fields(_ bits: UInt16) -> Set<ElementField> {
                Set(ElementField.allCases.filter { bits & 1 << UInt16($0.rawValue) != 0 })
            }
            let onlyExpected = selected & expectedPresent & ~actualPresent
            let onlyActual = selected & actualPresent & ~expectedPresent
            if onlyExpected != 0 { fieldNotes.append(NotCompared(names: LayoutDiff.groupNames(fields(onlyExpected)), missingIn: .actual)) }
            if onlyActual != 0 { fieldNotes.append(NotCompared(names: LayoutDiff.groupNames(fields(onlyActual)), missingIn: .expected)) }
        }
        // The parts (in document order, which is the report's), after the elements.
        let parts = LayoutDiff.compareParts(expectedDocument, actual, options: options)
        for part in parts.parts {
            guard case .changed(let changes) = part.change else { continue }
            for change in changes { core.consider(nil, change) }
        }
        let bestLength = core.bestLength, bestOther = core.bestOther
        var result = LayoutDiffResult(tolerance: options.tolerance, expectedCount: expectedCount, actualCount: actualCount,
                                      matchedCount: core.matchedCount, parts: parts.parts, reordered: reordered,
                                      notCompared: parts.notCompared + fieldNotes, largestDelta: bestLength ?? bestOther)
        result.counts = core.counts
        result.spread = .init(largest: core.spread, smallest: core.smallestDelta, otherChange: core.otherChange)
        try spill.out.flush()
        return (result, expectedDocument)
    }

    /// Writes the report of `result` (from `finish`) to `emit`, in the comparison's style.
    ///
    /// The text report: nothing but the summary when the layouts are the same; otherwise
    /// `--- EXPECTED` / `+++ ACTUAL`, then in document order `- ELEMENT  missing (frame
    /// X,Y,W,H)`, `+ ELEMENT  extra (…)`, and `~ ELEMENT` followed by one line per field that
    /// moved (`    frame.y  120 → 132.5  (+12.5)`), then the summary; ends with a newline. In
    /// colour (`.text(color: true)`, only for a terminal): red missing, green extra, cyan
    /// changed, bold headers and summary.
    ///
    /// The JSON report, one object with one difference per line:
    ///
    /// ```
    /// {"same":false,"expected":"a.json","actual":"b.json","tolerance":0.001,
    /// "counts":{"expected":120,"actual":120,"matched":120,"differ":1,"missing":0,"extra":0,"changed":1},
    /// "largestDelta":{"element":"0:17","field":"frame.y","delta":12.5,"unit":"pt"},
    /// "differences":[
    /// {"element":{"indexPath":[0,17],"category":"cell"},"name":"0:17","change":"changed","fields":[
    ///   {"field":"frame.y","expected":120,"actual":132.5,"delta":12.5}, …]}
    /// ],
    /// "notCompared":[],"reordered":false,
    /// "summary":"1 of 120 elements differs; largest delta 12.5 pt at 0:17 frame.y"}
    /// ```
    /// A part's difference has `"part":"contentSize"` instead of `"element"`; an absent value
    /// is `null`; numbers are written in their shortest round-trip form.
    /// - Complexity: O(differences), the elements' read back from the spill.
    public func writeReport(_ result: LayoutDiffResult, expectedName: String, actualName: String,
                            to emit: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try withoutActuallyEscaping(emit) { emit in
            try writeReport(result, expectedName: expectedName, actualName: actualName, escaping: emit)
        }
    }

    private func writeReport(_ result: LayoutDiffResult, expectedName: String, actualName: String,
                             escaping emit: @escaping (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let out = OutputBuffer(precision: .full, chunkSize: 1 << 20, sink: emit)
        let before = result.parts.filter { LayoutPart.namesBeforeElements.contains($0.name) }
        let after = result.parts.filter { !LayoutPart.namesBeforeElements.contains($0.name) }
        switch style {
        case .text(let color):
            let summary = LayoutDiff.summary(result, expectedName: expectedName, actualName: actualName)
            func paint(_ code: String, _ text: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
            if result.isSame {
                out.append(string: summary + "\n")
                return try out.flush()
            }
            out.append(string: paint("1", "--- \(expectedName)") + "\n" + paint("1", "+++ \(actualName)") + "\n")
            for part in before { LayoutDiff.appendTextBlock(nil, part: part.name, part.change, frame: nil, color: color, to: out) }
            try out.flush()
            try spill.replay(emit)
            for part in after { LayoutDiff.appendTextBlock(nil, part: part.name, part.change, frame: nil, color: color, to: out) }
            out.append(string: paint("1", summary) + "\n")
        case .json:
            LayoutDiff.appendJSONHead(result, expectedName: expectedName, actualName: actualName, to: out)
            var k = 0
            for part in before {
                out.append(k == 0 ? "\n" : ",\n")
                LayoutDiff.appendJSONEntry(part: part.name, part.change, to: out)
                k += 1
            }
            try out.flush()
            if spill.count > 0 {
                try spill.replay(skip: k == 0 ? 1 : 0, emit)  // the first entry's "," goes when it is the first
                k += 1
            }
            for part in after {
                out.append(k == 0 ? "\n" : ",\n")
                LayoutDiff.appendJSONEntry(part: part.name, part.change, to: out)
                k += 1
            }
            LayoutDiff.appendJSONTail(result, expectedName: expectedName, actualName: actualName, to: out)
        }
        try out.flush()
    }
}

// MARK: - Two files

extension LayoutDiff {
    /// Compares two layouts as streams (see `StreamedComparison`), each a file, a spooled
    /// standard input or a document. A side whose first elements are not in element order is
    /// sorted (`SortedLayoutStream`); one found out of order later is sorted and the
    /// comparison starts again, as it does, knowing the fields each side gives, when a field
    /// only some elements give was met too early to tell (at most four passes).
    /// - Returns: the result, both sides without their elements (for their unknown names),
    ///   and the comparison, whose `writeReport` writes the report.
    /// - Throws: `LayoutStreamFallback` (never with `outOfOrder`) when a side cannot be
    ///   streamed (a duplicate, anything malformed): `check` each side, then compare again.
    public static func compareStreams(expected: LayoutInput, expectedFormat: LayoutFileFormat?,
                                      actual: LayoutInput, actualFormat: LayoutFileFormat?,
                                      options: DiffOptions, style: StreamedReportStyle)
        throws -> (result: LayoutDiffResult, expected: LayoutDocument, actual: LayoutDocument, comparison: StreamedComparison) {
        var sorted = (expected: false, actual: false)
        // The fields each side's first elements give, known from the start.
        var presence = (expected: UInt16(0), actual: UInt16(0)), knowsPresence = false
        for (input, format, side) in [(expected, expectedFormat, DiffSide.expected), (actual, actualFormat, .actual)]
        where !input.isSorted {
            let stream = try input.stream(format: format, sorted: false)
            defer { stream.cancel() }
            let start = startsInElementOrder(stream)
            if side == .expected { (sorted.expected, presence.expected) = (!start.inOrder, start.present) }
            else { (sorted.actual, presence.actual) = (!start.inOrder, start.present) }
        }
        while true {
            do {
                let comparison = try StreamedComparison(expected: expected, format: expectedFormat, options: options,
                                                        style: style, sorted: sorted.expected,
                                                        actualSorted: sorted.actual || actual.isSorted, presence: presence)
                // Both sides parsed on threads of their own: the comparison and the report take
                // the rest of the time of the thread that runs them.
                let stream = try actual.stream(format: actualFormat, sorted: sorted.actual)
                defer { stream.cancel() }
                var a = StreamedElement.placeholder
                while try stream.next(into: &a) { try comparison.feed(a) }
                let (actualDocument, _) = try stream.finish()
                let (result, expectedDocument) = try comparison.finish(actual: actualDocument)
                return (result, expectedDocument, actualDocument, comparison)
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

    /// Compares two layouts read whole (`LayoutReader.read`) as streams, and renders the
    /// report in `style`.
    /// - Throws: errors of the report's spill (a temporary file that cannot be written).
    public static func compare(_ expected: LayoutDocument, _ actual: LayoutDocument, options: DiffOptions = DiffOptions(),
                               style: StreamedReportStyle = .text(color: false), expectedName: String = "a",
                               actualName: String = "b") throws -> (result: LayoutDiffResult, report: String) {
        let streamed = try compareStreams(expected: .document(expected), expectedFormat: nil, actual: .document(actual),
                                          actualFormat: nil, options: options, style: style)
        var report: [UInt8] = []
        try streamed.comparison.writeReport(streamed.result, expectedName: expectedName, actualName: actualName) {
            report += $0
        }
        return (streamed.result, String(decoding: report, as: UTF8.self))
    }

    /// Reads the layout at `input` to its end as a stream (sorted, when it is not in element
    /// order), for what stopped a comparison: two elements with the same key are refused as
    /// the reader refuses them (the first in the file that repeats one), once the rest of
    /// the file is known to be well formed. Memory stays bounded whatever the element count.
    /// - Returns: the layout without its elements (its shape, parts and unknown names).
    /// - Throws: `LayoutReadError` for a duplicate; `LayoutStreamFallback` when the streams do
    ///   not read the file (malformed, or a form they leave to `LayoutReader`): read it whole,
    ///   which says what is wrong or gives the document.
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
    /// `element` as the JSON (or, with `csv`, the CSV) writer would write it at `precision`
    /// and the reader read it back, without the text: each number is the value of its
    /// printed decimal.
    public init(_ element: LayoutAttributes, precision: NumberPrecision, csv: Bool) {
        self = .placeholder
        setKey(section: element.indexPath.section, item: element.indexPath.item,
               category: element.category == .cell ? 0 : element.category == .supplementaryView ? 1 : 2,
               kind: element.kind.map { $0 == .header ? 1 : $0 == .footer ? 2 : KindNames.shared.code($0.rawValue) } ?? 0)
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
    /// The layout-level parts of `layout` (a summary whose elements are streamed) as its
    /// JSON at `precision` carries them, read back: the actual side of `--check` without
    /// its elements.
    public static func partsDocument(of layout: CollectionLayout, precision: NumberPrecision) throws -> LayoutDocument {
        let out = OutputBuffer(precision: precision)
        JSONLayoutWriter.appendStart(layout, to: out)
        JSONLayoutWriter.appendEnd(layout, to: out)
        return try LayoutReader.read(Data(out.bytes), format: .json)
    }

    /// The actual side of `--check` with a CSV golden, without its elements.
    public static let csvWithoutElements = LayoutDocument(shape: .csv, elements: [], presentFields: [])
}

extension StreamedComparison {
    /// Whether the first elements of the layout at `input` are in element order (else it is
    /// best compared sorted from the start), and the fields they give.
    /// - Throws: `LayoutStreamFallback` when it cannot be streamed.
    public static func startsInElementOrder(_ input: LayoutInput,
                                            format: LayoutFileFormat?) throws -> (inOrder: Bool, present: UInt16) {
        let stream = try input.stream(format: format, sorted: false)
        defer { stream.cancel() }
        return LayoutComparison.startsInElementOrder(stream)
    }

    /// Whether the expected side is a CSV (so the layout is compared as its CSV), and
    /// whether a CSV of heart samples.
    public var expectedCSV: (isCSV: Bool, isHeartSamples: Bool) {
        var stream = expectedStream
        while true {
            if let prefetched = stream as? PrefetchedStream {
                stream = prefetched.source
            } else if let sorted = stream as? SortedLayoutStream {
                stream = sorted.source
            } else if let document = stream as? DocumentStream {
                return (document.isCSV, document.isHeartSamples)
            } else {
                let csv = stream as? CSVLayoutStream
                return (csv != nil, csv?.isHeartSamples == true)
            }
        }
    }
}

// MARK: - A stream read ahead by another thread

/// Reads a stream on a thread of its own, a few blocks of elements ahead of the reader,
/// so that the two sides of a comparison are parsed on two cores.
final class PrefetchedStream: LayoutElementStream, @unchecked Sendable {
    let source: LayoutElementStream
    private let condition = NSCondition()
    /// Filled blocks waiting (guarded by `condition`), at most `depth`.
    private var ready: [[StreamedElement]] = []
    private var ended = false, cancelled = false
    private var failure: Error?
    private var finished: (document: LayoutDocument, present: UInt16)?
    private var current: [StreamedElement] = []
    private var index = 0
    private var spare: [[StreamedElement]] = []
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
            var more = true
            var error: Error? = nil
            var result: (document: LayoutDocument, present: UInt16)? = nil
            do {
                while block.count < Self.blockSize {
                    guard try source.next(into: &element) else {
                        more = false
                        break
                    }
                    block.append(element)
                }
                if !more { result = try source.finish() }
            } catch let caught {
                error = caught
            }
            condition.lock()
            if !block.isEmpty { ready.append(block) }
            if error != nil || !more {
                failure = error
                finished = result
                ended = true
            }
            condition.broadcast()
            condition.unlock()
            if error != nil || !more { return }
        }
    }

    func next(into element: inout StreamedElement) throws -> Bool {
        if index < current.count {
            element = current[index]
            index += 1
            return true
        }
        condition.lock()
        if !current.isEmpty { spare.append(current) }
        current = []
        index = 0
        while ready.isEmpty && !ended && !cancelled { condition.wait() }
        if !ready.isEmpty { current = ready.removeFirst() }
        var failure = ready.isEmpty && current.isEmpty ? self.failure : nil
        if cancelled && current.isEmpty && !ended { failure = LayoutStreamFallback("cancelled") }
        condition.broadcast()
        condition.unlock()
        if let failure { throw failure }
        guard index < current.count else { return false }
        element = current[index]
        index += 1
        return true
    }

    func finish() throws -> (document: LayoutDocument, present: UInt16) {
        condition.lock()
        while !ended && !cancelled { condition.wait() }
        let failure = ended ? self.failure : LayoutStreamFallback("cancelled"), finished = self.finished
        condition.unlock()
        if let failure { throw failure }
        guard let finished else { throw LayoutStreamFallback("not at the end") }
        return finished
    }

    func duplicate(_ key: ElementKey, at ordinal: Int, first: Int) -> LayoutReadError {
        source.duplicate(key, at: ordinal, first: first)
    }

    /// Stops the thread (the reader gave up), and any thread its source reads ahead with.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        source.cancel()
    }
}
