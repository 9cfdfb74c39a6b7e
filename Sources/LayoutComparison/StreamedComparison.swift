// A comparison of two layouts streamed in element order: the expected side pulled, the
// actual side fed, differences rendered into a spill as they are found.
import Foundation
import LayoutCore
import FastText
import LayoutDatasets
import LayoutWriters

/// How the streamed comparison renders differences.
public enum StreamedReportStyle: Sendable, Equatable {
    case text(color: Bool)
    case json
}

/// Two layouts compared: the result, both sides without their elements (for their unknown
/// names), and the comparison, whose spill holds the elements' report.
public struct StreamedDiff {
    /// The counts, the part differences and the largest delta.
    public let result: LayoutDiffResult
    /// EXPECTED and ACTUAL without their elements: shape, parts, unknown names.
    public let expected: LayoutDocument, actual: LayoutDocument
    let comparison: StreamedComparison

    /// Writes the text or JSON report to `emit`, in the comparison's style, as docs/REFERENCE.md
    /// ("cvlayout diff") gives them; numbers in their shortest round-trip form.
    /// - Complexity: O(differences), the elements' read back from the spill.
    public func writeReport(_ expectedName: String, _ actualName: String,
                            to emit: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let (style, spill) = (comparison.style, comparison.spill)
        try withoutActuallyEscaping(emit) { emit in
            let out = OutputBuffer(precision: .full, chunkSize: 1 << 20, sink: emit)
            let summary = LayoutDiff.summary(result, expectedName: expectedName, actualName: actualName)
            var entries = 0
            func appendParts(before: Bool) {
                for part in result.parts where LayoutPart.namesBeforeElements.contains(part.name) == before {
                    if case .text(let color) = style {
                        LayoutDiff.appendTextBlock(nil, part: part.name, part.change, frame: nil, color: color, to: out)
                    } else {
                        out.append(entries == 0 ? "\n" : ",\n")
                        out.append("{\"part\":")
                        appendJSONString(part.name, to: out)
                        LayoutDiff.appendJSONChange(part.change, to: out)
                        entries += 1
                    }
                }
            }
            switch style {
            case .text where result.isSame:
                out.append(string: summary + "\n")
            case .text(let color):
                func paint(_ text: String) -> String { color ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
                out.append(string: paint("--- \(escapingControlCharacters(expectedName))") + "\n"
                           + paint("+++ \(escapingControlCharacters(actualName))") + "\n")
                appendParts(before: true)
                try out.flush()
                try spill.replay(emit)
                appendParts(before: false)
                out.append(string: paint(summary) + "\n")
            case .json:
                LayoutDiff.appendJSONHead(result, expectedName: expectedName, actualName: actualName, to: out)
                appendParts(before: true)
                try out.flush()
                if spill.count > 0 {
                    try spill.replay(skip: entries == 0 ? 1 : 0, emit)  // no "," before the first entry
                    entries += 1
                }
                appendParts(before: false)
                LayoutDiff.appendJSONTail(result, expectedName: expectedName, actualName: actualName, to: out)
            }
            try out.flush()
        }
    }
}

/// A comparison of two layouts streamed in element order. Feed the actual side's elements
/// with `feed`, then call `finish`; the expected side is pulled as needed.
public final class StreamedComparison {
    let expected: LayoutElementStream
    private let options: DiffOptions
    let style: StreamedReportStyle
    let spill = ReportSpill()
    /// The merge's state, one value so that a `feed` makes one access to this object
    /// (unchecked: only the comparing thread touches it, never reentrantly).
    @exclusivity(unchecked) private var core: MergeCore
    /// The spill's buffer, looked up once.
    private let out: OutputBuffer

    /// Opens `input` as the expected side, read by a thread of its own; with `sorted`, its
    /// elements sorted first (a file not in element order); `actualSorted` says whether the
    /// actual side's are (then both sides' elements carry their positions in their files).
    /// - Parameter presence: fields each side is known to give (its first elements', or all
    ///   when a comparison is made again).
    /// - Throws: `LayoutStreamFallback` when it cannot be streamed.
    public init(expected input: LayoutInput, format: LayoutFileFormat?, options: DiffOptions,
                style: StreamedReportStyle, sorted: Bool = false, actualSorted: Bool = false,
                presence: (expected: UInt16, actual: UInt16)? = nil) throws {
        expected = try input.stream(format: format, sorted: sorted)
        self.options = options
        self.style = style
        out = spill.out
        core = MergeCore(fields: options.fields.sorted(), tolerance: options.tolerance, style: style,
                         sharedOrder: SharedOrder(expectedSorted: sorted || input.isSorted, actualSorted: actualSorted))
        if let presence { (core.expectedPresent, core.actualPresent) = presence }
    }

    deinit { expected.cancel() }

    /// Whether the expected file (a path or spooled input) is a CSV (so the layout is
    /// compared as its CSV), and whether a CSV of heart samples.
    public var expectedCSV: (isCSV: Bool, isHeartSamples: Bool) {
        var stream = expected
        while let source = (stream as? PrefetchedStream)?.source ?? (stream as? SortedLayoutStream)?.source {
            stream = source
        }
        let csv = stream as? CSVLayoutStream
        return (csv != nil, csv?.isHeartSamples == true)
    }

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
        /// The largest deltas of lengths and of other numbers, and their magnitudes (−1 for none).
        var best: [LargestDelta?] = [nil, nil], bestMagnitude = SIMD2<Double>(-1, -1)
        /// `LayoutDiffResult.spread` of the elements' changes.
        var spread: (largest: Double, smallest: Double, otherChange: Bool) = (-1, .infinity, false)
        /// Fields where one side gave a value and the other none before it was known whether
        /// that side gives the field at all (then it is no difference); left out of the report.
        var uncertain: UInt16 = 0
        /// The fields each side gave so far.
        var actualPresent: UInt16 = 0, expectedPresent: UInt16 = 0
        var sharedOrder = SharedOrder(expectedSorted: false, actualSorted: false)

        /// Makes the next expected element `pending`, checking the order; `false` at the end.
        @inline(__always)
        mutating func pull(_ expected: LayoutElementStream) throws -> Bool {
            if hasPending { return true }
            guard !expectedDone else { return false }
            guard try expected.next(into: &pending) else {
                expectedDone = true
                return false
            }
            try Self.follow(&lastExpected, with: pending, count: expectedCount, .expected)
            expectedCount += 1
            expectedPresent |= pending.mask
            hasPending = true
            return true
        }

        @inline(__always)
        mutating func feed(_ a: StreamedElement, expected: LayoutElementStream, out: OutputBuffer) throws {
            try Self.follow(&lastActual, with: a, count: actualCount, .actual)
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

        /// Checks that `element` comes after `last`, the side's previous one, and makes it `last`.
        @inline(__always)
        static func follow(_ last: inout StreamedElement, with element: StreamedElement, count: Int, _ side: DiffSide) throws {
            if count > 0, !last.precedes(element) {
                if last.sameKey(element) { throw LayoutStreamFallback("\(side.rawValue): a duplicate element") }
                throw LayoutStreamFallback("\(side.rawValue): not in element order", outOfOrder: side)
            }
            last.copyKey(of: element)
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
            // A value against none is a change only if the side without it gives the field for
            // some element; when that is not known yet, it is left out, and the comparison is
            // made again if the side turns out to give the field.
            let changed = e.changedFields(a, fields, tolerance: tolerance, present: (expectedPresent, actualPresent))
            if case .text(let color) = style, e.mask == a.mask {
                return try compareIntoText(e, a, changed, color: color, out: out)
            }
            uncertain |= (e.mask ^ a.mask) & ~changed
            if changed != 0 { try report(e.key, .changed(e.fieldChanges(a, changed)), e, out: out) }
        }

        /// Whether `x` and `y` have the same bits: one `memcmp` (SIMD's `==` goes lane by lane).
        @inline(__always)
        static func sameBits(_ x: SIMD16<Double>, _ y: SIMD16<Double>) -> Bool {
            withUnsafeBytes(of: x) { a in
                withUnsafeBytes(of: y) { b in memcmp(a.baseAddress!, b.baseAddress!, MemoryLayout<SIMD16<Double>>.size) == 0 }
            }
        }

        /// `compare` for a text report when both sides give the same fields: the bytes of
        /// `LayoutDiff.appendTextBlock`, without a `FieldChange` unless it is the largest delta.
        private mutating func compareIntoText(_ e: StreamedElement, _ a: StreamedElement, _ changed: UInt16, color: Bool,
                                              out: OutputBuffer) throws {
            guard changed != 0 else { return }
            counts.differ += 1
            var width = 0
            for field in fields where changed & 1 << UInt16(field.rawValue) != 0 {
                width = Swift.max(width, Self.nameLengths[field.rawValue])
                guard field != .hidden else { spread.otherChange = true; continue }
                let delta = a.values[field.rawValue] - e.values[field.rawValue]
                spread.largest = Swift.max(spread.largest, delta.magnitude)
                spread.smallest = Swift.min(spread.smallest, delta.magnitude)
                if delta.magnitude > bestMagnitude[field.isLength ? 0 : 1] {
                    consider(e.key, FieldChange(name: field.name, expected: e.value(field), actual: a.value(field),
                                                delta: delta, isLength: field.isLength))
                }
            }
            if color { out.append("\u{1B}[36m") }
            out.append("~ ")
            LayoutDiff.appendName(e.key, to: out)
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
                cursor.append { LayoutDiff.writeDelta(y - x, decimals: decimals, signed: true, to: $0) }
                cursor.append(")\n")
            }
            out.commit(cursor)
            try out.flushIfFull()
        }

        /// Each field's report name padded with spaces to 16 bytes, and its length.
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
            let k = change.isLength ? 0 : 1
            guard let delta = change.delta, delta.magnitude > bestMagnitude[k] else { return }
            bestMagnitude[k] = delta.magnitude
            best[k] = LargestDelta(element: key, change: change)
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
                let frame = element.mask & 0xF == 0xF ? element.values.lowHalf.lowHalf : nil  // shown if missing or extra
                LayoutDiff.appendTextBlock(key, change, frame: frame, color: color, to: out)
            case .json:
                out.append(",\n")
                LayoutDiff.appendJSONEntry(element: key, change, to: out)
            }
            try out.flushIfFull()
        }
    }

    /// Ends the comparison (the expected elements left are missing) and compares the parts
    /// with `actual`'s, the actual side without its elements.
    /// - Throws: `LayoutStreamFallback` when the comparison must be made again (`presence`).
    public func finish(actual: LayoutDocument) throws -> StreamedDiff {
        while try core.pull(expected) {
            core.hasPending = false
            try core.report(core.pending.key, .missing, core.pending, out: out)
        }
        let reordered = try core.sharedOrder.reordered()
        let (expectedDocument, expectedPresent) = try expected.finish()
        let actualPresent = core.actualPresent
        // The element fields both sides give; the rest of the selection is noted.
        let selected = options.fields.reduce(UInt16(0)) { $0 | 1 << UInt16($1.rawValue) }
        var fieldNotes: [NotCompared] = []
        if core.expectedCount > 0 && core.actualCount > 0 {
            if core.uncertain & selected & expectedPresent & actualPresent != 0 {
                throw LayoutStreamFallback("a field only some elements give", presence: (expectedPresent, actualPresent))
            }
            for (only, side) in [(expectedPresent & ~actualPresent, DiffSide.actual), (actualPresent & ~expectedPresent, .expected)]
            where selected & only != 0 {
                let fields = ElementField.allCases.filter { selected & only & 1 << UInt16($0.rawValue) != 0 }
                fieldNotes.append(NotCompared(names: LayoutDiff.groupNames(fields), missingIn: side))
            }
        }
        // The parts (in document order, which is the report's), after the elements.
        let parts = LayoutDiff.compareParts(expectedDocument, actual, options: options)
        for case .changed(let changes) in parts.parts.map(\.change) {
            for change in changes { core.consider(nil, change) }
        }
        let result = LayoutDiffResult(tolerance: options.tolerance, expectedCount: core.expectedCount,
                                      actualCount: core.actualCount, matchedCount: core.matchedCount, parts: parts.parts,
                                      reordered: reordered, notCompared: parts.notCompared + fieldNotes,
                                      largestDelta: core.best[0] ?? core.best[1], counts: core.counts, spread: core.spread)
        try out.flush()
        return StreamedDiff(result: result, expected: expectedDocument, actual: actual, comparison: self)
    }
}

extension StreamedElement {
    /// The fields of `fields` in which `a` differs from this element, as bits: numbers as
    /// `LayoutDiff.compareValues` tells, and a value against none when the side without it
    /// gives the field (`present`: the fields each side gives).
    @inline(__always)
    func changedFields(_ a: StreamedElement, _ fields: [ElementField], tolerance: Double,
                       present: (expected: UInt16, actual: UInt16)) -> UInt16 {
        var changed: UInt16 = 0
        for field in fields {
            let k = field.rawValue, bit: UInt16 = 1 << UInt16(k)
            let inE = mask & bit != 0, inA = a.mask & bit != 0
            if inE && inA {
                let x = values[k], y = a.values[k]
                if field == .hidden {
                    if x != y { changed |= bit }
                } else {
                    let d = (y - x).magnitude, slack = 4 * Swift.max(x.magnitude, y.magnitude).ulp
                    if !(d <= tolerance || (tolerance > 0 && d - slack <= tolerance)) { changed |= bit }
                }
            } else if inE || inA, (inE ? present.actual : present.expected) & bit != 0 {
                changed |= bit
            }
        }
        return changed
    }

    /// The changes of the fields whose bits are set in `changed`, in field order.
    func fieldChanges(_ a: StreamedElement, _ changed: UInt16) -> [FieldChange] {
        var changes: [FieldChange] = [], bits = changed
        while bits != 0 {
            let field = ElementField(rawValue: bits.trailingZeroBitCount)!
            bits &= bits - 1
            let x = value(field), y = a.value(field)
            var delta: Double? = nil
            if case .number(let u)? = x, case .number(let v)? = y { delta = v - u }
            changes.append(FieldChange(name: field.name, expected: x, actual: y, delta: delta, isLength: field.isLength))
        }
        return changes
    }
}
