// `cvlayout diff A B -f svg`: both layouts in one picture, drawn into two spills (faded
// unchanged elements, then the changes) put together once the canvas is known.
import Foundation
import LayoutCore
import FastText
import LayoutWriters

/// How an element of a diff picture changed (`data-change`): its size (moved or not); its
/// position only; only in ACTUAL; only in EXPECTED (the golden); another field (alpha,
/// transform, zIndex, hidden); nothing compared.
enum PictureChange: String, CaseIterable {
    case resized, moved, added, removed, changed, same

    var index: Int { Self.allCases.firstIndex(of: self)! }
    /// The stroke and fill of its shapes.
    var colour: String { Self.colours[index] }
    var legend: String { Self.legends[index] }

    private static let colours = ["#ff7f0e", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#9e9e9e"]
    private static let legends = [
        "resized (COUNT): golden frame dashed, new frame solid", "moved (COUNT): golden frame dashed, new frame solid",
        "added (COUNT): only in the new layout", "removed (COUNT): only in the golden",
        "changed (COUNT): alpha, transform, zIndex or hidden", "same (COUNT)",
    ]
}

/// The diff picture (`cvlayout diff EXPECTED ACTUAL -f svg`, `--check`'s `NAME.diff.svg`): a
/// standalone SVG 1.1 document of both layouts in their own coordinates (points), on the
/// union of their frames (10 points of margin) below a legend of each kind's count.
/// Unchanged elements are faded grey boxes; a moved (blue) or resized (orange) element has
/// its EXPECTED frame dashed, its ACTUAL frame solid and an arrow between their centres;
/// elements only in ACTUAL are green, only in EXPECTED red and dashed; other changes purple,
/// marked with the groups that changed. Every shape carries `data-index-path`, `data-kind`
/// (not for cells), `data-change` and `data-side` (not an arrow); a changed element's solid
/// box holds a `<title>` of its changed fields (`frame.y 120 → 132.5`). Elements are
/// classified as `StreamedComparison` compares them; one without all four frame numbers is
/// counted but not drawn.
public enum LayoutDiffPicture {
    /// Draws the diff of two layouts read as streams (a side not in element order sorted:
    /// `LayoutDiff.withStreams`) in a few chunks plus the picture's spills (`ReportSpill`).
    /// - Throws: `LayoutStreamFallback` (never with `outOfOrder`) when a side cannot be
    ///   streamed (`LayoutDiff.check` it, then draw again); errors of `emit`. Nothing is
    ///   emitted before the whole picture is known.
    /// - Complexity: O(n) in the elements of both sides (plus the sort of a side out of order).
    public static func drawStreams(expected: LayoutInput, expectedFormat: LayoutFileFormat?,
                                   actual: LayoutInput, actualFormat: LayoutFileFormat?,
                                   options: DiffOptions, expectedName: String, actualName: String,
                                   to emit: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let picture = try LayoutDiff.withStreams(expected, expectedFormat, actual, actualFormat) { sorted, _ in
            let picture = DiffPicture(options: options)
            let expected = try expected.stream(format: expectedFormat, sorted: sorted.expected)
            defer { expected.cancel() }
            let actual = try actual.stream(format: actualFormat, sorted: sorted.actual)
            defer { actual.cancel() }
            // The merge of the two streams in element order.
            var e = StreamedElement.placeholder, a = e, lastE = e, lastA = e
            var countE = 0, countA = 0
            func next(_ stream: LayoutElementStream, _ element: inout StreamedElement, _ last: inout StreamedElement,
                      _ count: inout Int, _ side: DiffSide) throws -> Bool {
                guard try stream.next(into: &element) else { return false }
                try StreamedComparison.MergeCore.follow(&last, with: element, count: count, side)
                count += 1
                return true
            }
            var hasE = try next(expected, &e, &lastE, &countE, .expected)
            var hasA = try next(actual, &a, &lastA, &countA, .actual)
            while hasE || hasA {
                let both = hasE && hasA && e.sameKey(a), takesE = both || (hasE && (!hasA || e.precedes(a)))
                try picture.add(takesE ? e.key : a.key, takesE ? e : nil, takesE && !both ? nil : a)
                if takesE { hasE = try next(expected, &e, &lastE, &countE, .expected) }
                if !takesE || both { hasA = try next(actual, &a, &lastA, &countA, .actual) }
            }
            _ = try expected.finish()
            _ = try actual.finish()
            return picture
        }
        try picture.write(title: "cvlayout diff \(expectedName) \(actualName)", to: emit)
    }
}

/// The picture being drawn: the faded and the changed elements' spills, the canvas, the counts.
final class DiffPicture {
    private let fields: [ElementField]
    private let tolerance: Double
    private let same = ReportSpill(), changes = ReportSpill()
    private var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    /// Elements by kind of change, indexed as `PictureChange.allCases`.
    private var tally = [Int](repeating: 0, count: PictureChange.allCases.count)
    /// The fields each side gave so far: a value against none is a change only when the side
    /// without it gives the field for some element (as far as known when the element is drawn).
    private var expectedPresent: UInt16 = 0, actualPresent: UInt16 = 0

    /// x, y, width, height; width and height; x, y and the centre; the fields after the
    /// frame and centre (transform, alpha, zIndex, hidden).
    private static let frameBits: UInt16 = 0xF, sizeBits: UInt16 = 0xC, positionBits: UInt16 = 0x33
    private static let otherBits: UInt16 = 0x7FC0

    init(options: DiffOptions) {
        fields = options.fields.sorted()
        tolerance = options.tolerance
    }

    /// Classifies and draws one element: in both layouts, or only in one (the other `nil`).
    func add(_ key: ElementKey, _ e: StreamedElement?, _ a: StreamedElement?) throws {
        if let e { expectedPresent |= e.mask }
        if let a { actualPresent |= a.mask }
        let change: PictureChange
        var changed: UInt16 = 0
        switch (e, a) {
        case (let e?, let a?):
            changed = e.changedFields(a, fields, tolerance: tolerance, present: (expectedPresent, actualPresent))
            change = changed & Self.sizeBits != 0 ? .resized : changed & Self.positionBits != 0 ? .moved
                : changed != 0 ? .changed : .same
        case (_?, nil): change = .removed
        default: change = .added
        }
        tally[change.index] += 1
        let expectedFrame = e.flatMap(Self.frame), actualFrame = a.flatMap(Self.frame)
        for case let frame? in [expectedFrame, actualFrame] {
            minX = Swift.min(minX, frame[0], frame[0] + frame[2])
            maxX = Swift.max(maxX, frame[0], frame[0] + frame[2])
            minY = Swift.min(minY, frame[1], frame[1] + frame[3])
            maxY = Swift.max(maxY, frame[1], frame[1] + frame[3])
        }
        let out = change == .same ? same.out : changes.out
        switch change {
        case .same, .added, .removed:
            guard let frame = actualFrame ?? expectedFrame else { return }
            let side: StaticString = change == .same ? "" : change == .added ? " data-side=\"actual\"" : " data-side=\"expected\""
            Self.appendRect(key, change, side: side, frame, to: out)
            guard change != .same else {
                out.append("/>\n")
                break
            }
            out.append(change == .added ? " fill=\"#2ca02c\" fill-opacity=\"0.3\" stroke=\"#2ca02c\"><title>"
                                        : " fill=\"#d62728\" fill-opacity=\"0.12\" stroke=\"#d62728\" stroke-dasharray=\"4 3\"><title>")
            LayoutDiff.appendName(key, xml: true, to: out)
            out.append(change == .added ? " added (only in the new layout)</title></rect>\n"
                                        : " removed (only in the golden)</title></rect>\n")
        case .moved, .resized, .changed:
            if change != .changed, let old = expectedFrame {
                Self.appendRect(key, change, side: " data-side=\"expected\"", old, to: out)
                out.append(string: " fill=\"none\" stroke=\"\(change.colour)\" stroke-dasharray=\"4 3\"/>\n")
            }
            if let new = actualFrame {
                Self.appendRect(key, change, side: " data-side=\"actual\"", new, to: out)
                let opacity = change == .changed ? "0.3\" stroke-width=\"2.5" : "0.2"
                out.append(string: " fill=\"\(change.colour)\" fill-opacity=\"\(opacity)\" stroke=\"\(change.colour)\"><title>")
                LayoutDiff.appendName(key, xml: true, to: out)  // then the text report's field lines
                let lines = e!.fieldChanges(a!, changed).map { $0.name + " " + LayoutDiff.valuesText($0, gap: " ", finiteOnly: true) }
                out.append(string: " \(change.rawValue): " + lines.joined(separator: "; ") + "</title></rect>\n")
            }
            if change != .changed, let old = expectedFrame, let new = actualFrame {
                let x1 = old[0] + old[2] / 2, y1 = old[1] + old[3] / 2
                let x2 = new[0] + new[2] / 2, y2 = new[1] + new[3] / 2
                if x1 != x2 || y1 != y2 {
                    out.append("<line")
                    Self.appendAttributes(key, change, to: out)
                    let n = LayoutDiff.number
                    out.append(string: " x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"#333333\" "
                               + "marker-end=\"url(#cvlayout-diff-arrow)\"/>\n")
                }
            }
            // The marker: the names of the other groups that changed (alpha, transform, zIndex,
            // hidden; for a `changed` element whatever changed), at the new box's top left.
            var groups: [String] = []
            let marked = change == .changed ? changed : changed & Self.otherBits
            for field in fields where marked & 1 << UInt16(field.rawValue) != 0 && !groups.contains(field.group) {
                groups.append(field.group)
            }
            if !groups.isEmpty, let new = actualFrame {
                out.append("<text")
                Self.appendAttributes(key, change, to: out)
                out.append(string: " x=\"\(LayoutDiff.number(new[0] + 3))\" y=\"\(LayoutDiff.number(new[1] + 11))\" "
                           + "font-family=\"sans-serif\" font-size=\"10\" fill=\"#4b2a6b\">")
                appendXMLText(groups.joined(separator: ", "), to: out)
                out.append("</text>\n")
            }
        }
        try out.flushIfFull()
    }

    /// ` data-index-path="S:I" data-kind="…" data-change="…"`.
    private static func appendAttributes(_ key: ElementKey, _ change: PictureChange, to out: OutputBuffer) {
        out.append(" data-index-path=\"")
        out.append(integer: key.section)
        out.append(byte: UInt8(ascii: ":"))
        out.append(integer: key.item)
        out.append(byte: UInt8(ascii: "\""))
        if key.category != cellCategory || key.kind != nil {
            out.append(" data-kind=\"")
            appendXMLText(key.kind ?? key.category, to: out)
            out.append(byte: UInt8(ascii: "\""))
        }
        if key.disappearing { out.append(" data-disappearing=\"true\"") }
        out.append(" data-change=\"")
        out.append(string: change.rawValue)
        out.append(byte: UInt8(ascii: "\""))
    }

    /// x, y, width, height when the element gives all four and they are finite.
    private static func frame(_ element: StreamedElement) -> SIMD4<Double>? {
        let frame = element.values.lowHalf.lowHalf
        guard element.mask & frameBits == frameBits, frame[0].isFinite && frame[1].isFinite && frame[2].isFinite && frame[3].isFinite
            && (frame[0] + frame[2]).isFinite && (frame[1] + frame[3]).isFinite else { return nil }
        return frame
    }

    /// The start of a `<rect`: the element's attributes, `side` (a `data-side` attribute or
    /// nothing) and the frame (a negative size drawn from its other corner).
    private static func appendRect(_ key: ElementKey, _ change: PictureChange, side: StaticString,
                                   _ frame: SIMD4<Double>, to out: OutputBuffer) {
        out.append("<rect")
        appendAttributes(key, change, to: out)
        out.append(side)
        out.append(" x=\"")
        out.append(number: Swift.min(frame[0], frame[0] + frame[2]))
        out.append("\" y=\"")
        out.append(number: Swift.min(frame[1], frame[1] + frame[3]))
        out.append("\" width=\"")
        out.append(number: frame[2].magnitude)
        out.append("\" height=\"")
        out.append(number: frame[3].magnitude)
        out.append("\"")
    }

    private static let legendOrder: [PictureChange] = [.moved, .resized, .added, .removed, .changed, .same]
    private static let margin = 10.0, legendRow = 18.0, legendWidth = 360.0

    /// Writes the document: header, legend, the faded elements, the changes.
    func write(title: String, to emit: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try withoutActuallyEscaping(emit) { emit in
            let out = OutputBuffer(precision: .full, chunkSize: 1 << 20, sink: emit)
            // No frame drawn, or frames whose union's size is past a double (±1e308): the
            // canvas is the legend's alone, never 0 × 0 or infinite.
            if !minX.isFinite || !(maxX - minX).isFinite || !(maxY - minY).isFinite
                || !(minY - 2 * Self.margin - Double(Self.legendOrder.count + 1) * Self.legendRow).isFinite {
                (minX, minY, maxX, maxY) = (0, 0, 0, 0)
            }
            let legendHeight = Double(Self.legendOrder.count + 1) * Self.legendRow + Self.margin
            let x0 = minX - Self.margin, y0 = minY - Self.margin - legendHeight
            let width = Swift.max(maxX - minX + 2 * Self.margin, Self.legendWidth)
            let height = maxY - minY + 2 * Self.margin + legendHeight
            appendDocumentStart(canvas: Rect(x: x0, y: y0, width: width, height: height), title: title, to: out)
            out.append("<defs><marker id=\"cvlayout-diff-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333333\"/></marker></defs>\n")
            // The legend, one row per kind of change with its count.
            out.append("<g id=\"legend\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#1a1a1a\">\n")
            let lx = x0 + Self.margin
            var y = y0 + Self.margin
            let n = LayoutDiff.number
            for change in Self.legendOrder {
                let opacity = change == .same ? "0.12\" stroke-opacity=\"0.5" : "0.25"
                let dashes = change == .removed || change == .moved || change == .resized ? " stroke-dasharray=\"4 3\"" : ""
                out.append(string: "<rect x=\"\(n(lx))\" y=\"\(n(y + 2))\" width=\"22\" height=\"12\" fill=\"\(change.colour)\" "
                           + "fill-opacity=\"\(opacity)\" stroke=\"\(change.colour)\"\(dashes)/><text x=\"\(n(lx + 30))\" y=\"\(n(y + 12.5))\">")
                appendXMLText(change.legend.replacingOccurrences(of: "COUNT", with: String(tally[change.index])), to: out)
                out.append("</text>\n")
                y += Self.legendRow
            }
            out.append(string: "<line x1=\"\(n(lx))\" y1=\"\(n(y + 8))\" x2=\"\(n(lx + 22))\" y2=\"\(n(y + 8))\" stroke=\"#333333\" "
                       + "marker-end=\"url(#cvlayout-diff-arrow)\"/><text x=\"\(n(lx + 30))\" y=\"\(n(y + 12.5))\">"
                       + "old centre → new centre</text>\n</g>\n")
            out.append("<g id=\"same\" fill=\"#9e9e9e\" fill-opacity=\"0.12\" stroke=\"#9e9e9e\" stroke-opacity=\"0.5\" stroke-width=\"0.5\">\n")
            try out.flush()
            try same.replay(emit)
            out.append("</g>\n<g id=\"changes\" stroke-width=\"1.5\">\n")
            try out.flush()
            try changes.replay(emit)
            out.append("</g>\n</svg>\n")
            try out.flush()
        }
    }
}
