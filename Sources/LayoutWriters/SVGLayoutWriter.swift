import Foundation
import LayoutCore
import FastText

// MARK: - Labels and canvas

/// What an SVG's shapes are labelled with (`--labels`).
public enum SVGLabels: String, Sendable, CaseIterable {
    /// The cell's item number (`7`); headers and footers `header S`, `footer S`.
    case item
    /// The cell's index path (`2:7`); headers and footers as with `item`.
    case indexPath = "index-path"
    /// No labels at all.
    case none

    /// The labels asked for, or index paths for more than one section, item numbers otherwise.
    public static func resolved(_ asked: SVGLabels?, numberOfSections: Int) -> SVGLabels {
        asked ?? (numberOfSections > 1 ? .indexPath : .item)
    }
}

/// The area an SVG shows (`--canvas`): its viewBox.
public enum SVGCanvas: String, Sendable, CaseIterable {
    /// The content rect and everything drawn (transformed frames, labels, the heart's flight).
    case all
    /// The content rect, (0, 0, contentSize): elements outside it are cut off.
    case content
    /// The visible bounds at the content offset.
    case visible
    /// The `--rect` query area.
    case rect
}

extension OutputOptions {
    /// The viewBox of a canvas other than `.all` (`.rect` without a query rect: `content`).
    func canvasArea(content: Rect, visible: Rect) -> Rect? {
        switch canvas {
        case .content: content
        case .visible: visible
        case .rect: queryRect ?? content
        case .all: nil
        }
    }
}

extension CollectionLayout {
    /// `bounds`' size at the content offset (the SVGs' dashed outline).
    var visibleRect: Rect { Rect(x: contentOffset.x, y: contentOffset.y, width: bounds.width, height: bounds.height) }
}

// MARK: - The document

/// The labels the visible bounds' outline would cross, kept (from any core) to be drawn above
/// it (`PlainLayoutWriter.svgLabelsAboveOutline`).
final class SVGLabelsAboveOutline: @unchecked Sendable {
    let outline: Rect
    private let lock = NSLock()
    /// In no order.
    private(set) var elements: [LayoutAttributes] = []

    init(outline: Rect) {
        self.outline = outline
    }

    /// Whether the outline (± half its stroke) crosses the label box: 0.3 em a character
    /// either side of the drawn centre, 0.6 em up and down.
    @inline(__always)
    func crosses(_ element: LayoutAttributes, _ label: (characters: Int, size: Double)) -> Bool {
        let t = element.transform, f = element.frame
        let cx = f.origin.x + f.size.width / 2 + t.tx, cy = f.origin.y + f.size.height / 2 + t.ty
        let hw = 0.3 * label.size * Double(label.characters) + 0.5, hh = 0.6 * label.size + 0.5
        let x0 = outline.origin.x, y0 = outline.origin.y
        let x1 = x0 + outline.size.width, y1 = y0 + outline.size.height
        let overlapsY = cy + hh > y0 && cy - hh < y1, overlapsX = cx + hw > x0 && cx - hw < x1
        return (overlapsY && (abs(cx - x0) < hw || abs(cx - x1) < hw)) || (overlapsX && (abs(cy - y0) < hh || abs(cy - y1) < hh))
    }

    func add(_ element: LayoutAttributes) {
        lock.withLock { elements.append(element) }
    }
}

/// The still SVG, fast (`PlainLayoutWriter.svg` is its specification). Units are points.
public enum SVGLayoutWriter {
    /// A heart about 22 × 20 points centred on the origin, pointing down.
    static let heartShape = "M 0 8 C -4 5 -11 0 -11 -5 C -11 -9 -8 -11 -5.5 -11 C -3 -11 -1 -9.5 0 -7.5 "
        + "C 1 -9.5 3 -11 5.5 -11 C 8 -11 11 -9 11 -5 C 11 0 4 5 0 8 Z"
    /// How far the flying heart reaches from the path, points: (15.6 + 1.75) × 1.2, turned any way.
    static let heartReach = 21.0

    /// Writes the SVG document for the selected elements of `layout` to `out`.
    /// - Complexity: O(k) for k selected elements already in zIndex order (checked first),
    ///   O(k log k) otherwise; formatted on every core, no allocation per element.
    public static func write(_ layout: CollectionLayout, selection: [Int]?, options: OutputOptions,
                             to out: OutputBuffer) throws {
        let round = layout.drawsCellsRound
        let labels = SVGLabels.resolved(options.labels, numberOfSections: layout.numberOfSections)
        let above = labels == .none ? nil : SVGLabelsAboveOutline(outline: layout.visibleRect)
        try layout.elements.withUnsafeBufferPointer { elements in
            try (selection ?? []).withUnsafeBufferPointer { selected in
                let indices = selection == nil ? nil : selected.baseAddress
                let count = selection?.count ?? elements.count
                var drawn = DrawnBounds(labels: labels)
                if options.canvas == .all, let base = elements.baseAddress {
                    for k in 0..<count { drawn.add(base[indices?[k] ?? k]) }
                }
                appendStart(layout, options: options, drawn: drawn.bounds, to: out)
                guard let base = elements.baseAddress else { return }
                // Visible elements by zIndex, then element order; drawn as they are when already so.
                let scan = DrawingOrderScan(base, indices, count: count)
                guard scan.hidden || !scan.ordered else {
                    return try appendElements(base, indices, count: count, round: round, labels: labels, above: above, to: out)
                }
                var order = scan.visible ?? (0..<count).map { indices?[$0] ?? $0 }
                if !scan.ordered {
                    order.sort { (l, r) in
                        let a = base[l].zIndex, b = base[r].zIndex
                        return a < b || (a == b && l < r)
                    }
                }
                try order.withUnsafeBufferPointer { order in
                    try appendElements(base, order.baseAddress, count: order.count, round: round, labels: labels, above: above,
                                       to: out)
                }
            }
        }
        appendEnd(layout, options: options, above: above, to: out)
    }

    /// The viewBox: for `.all`, the content rect, `drawn` and the heart's reach about its
    /// control points (a cubic lies in their hull), grown by `outward`.
    public static func canvas(_ layout: CollectionLayout, options: OutputOptions, drawn: Rect?) -> Rect {
        let content = Rect(x: 0, y: 0, width: layout.contentSize.width, height: layout.contentSize.height)
        if let area = options.canvasArea(content: content, visible: layout.visibleRect) { return area }
        var union = content
        if let drawn { union = union.union(drawn) }
        if let heart = layout.heartPath {
            var points = [heart.start]
            for segment in heart.segments { points += [segment.control1, segment.control2, segment.end] }
            let xs = points.map(\.x), ys = points.map(\.y)
            union = union.union(Rect(minX: xs.min()! - heartReach, minY: ys.min()! - heartReach,
                                     maxX: xs.max()! + heartReach, maxY: ys.max()! + heartReach))
        }
        return outward(union, from: content, precision: options.precision)
    }

    /// `content`, each edge that `union` passes once printed at `precision` moved out to the
    /// whole point past it; `content` when that is not finite.
    static func outward(_ union: Rect, from content: Rect, precision: NumberPrecision) -> Rect {
        func printed(_ v: Double) -> Double {
            guard case .decimals(let n) = precision else { return v }
            let unit = (0..<n).reduce(1.0) { product, _ in product * 10 }
            let scaled = (v * unit).rounded(.toNearestOrAwayFromZero) / unit
            return scaled.isFinite ? scaled : v
        }
        let canvas = Rect(minX: printed(union.minX) < content.minX ? union.minX.rounded(.down) : content.minX,
                          minY: printed(union.minY) < content.minY ? union.minY.rounded(.down) : content.minY,
                          maxX: printed(union.maxX) > content.maxX ? union.maxX.rounded(.up) : content.maxX,
                          maxY: printed(union.maxY) > content.maxY ? union.maxY.rounded(.up) : content.maxY)
        return canvas.isFinite ? canvas : content
    }

    /// The union of what visible elements draw (`PlainLayoutWriter.svgDrawnBox`).
    public struct DrawnBounds: Sendable {
        /// Which labels are drawn: a label's box counts as drawn.
        public let labels: SVGLabels
        /// The union so far; `nil` until a visible element came.
        public var bounds: Rect? {
            sawVisible ? Rect(minX: minX, minY: minY, maxX: maxX, maxY: maxY) : nil
        }
        private var sawVisible = false
        private var minX = Double.infinity, minY = Double.infinity
        private var maxX = -Double.infinity, maxY = -Double.infinity

        /// Starts with nothing drawn.
        public init(labels: SVGLabels) {
            self.labels = labels
        }

        /// Adds what `element` draws. - Complexity: O(1).
        public mutating func add(_ element: LayoutAttributes) {
            guard !element.isHidden else { return }
            sawVisible = true
            let f = element.frame, t = element.transform
            let cx = f.midX + t.tx, cy = f.midY + t.ty
            let hw = f.width / 2, hh = f.height / 2
            var rx: Double, ry: Double
            if Self.labelStaysInside(element, labels) {
                rx = hw
                ry = hh
            } else {
                rx = abs(t.a) * hw + abs(t.c) * hh
                ry = abs(t.b) * hw + abs(t.d) * hh
                if let label = SVGElementWriter.label(element, labels) {
                    rx = max(rx, 0.3 * label.size * Double(label.characters))
                    ry = max(ry, 0.6 * label.size)
                }
            }
            include(cx - rx, cy - ry, cx + rx, cy + ry)
        }

        @inline(__always)
        private mutating func include(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            minX = min(minX, x0)
            minY = min(minY, y0)
            maxX = max(maxX, x1)
            maxY = max(maxY, y1)
        }

        /// `add(_:)` of each element of a block of the default appearance (identity transform).
        public mutating func addDefaultAppearance(_ block: UnsafeBufferPointer<LayoutAttributes>) {
            guard let base = block.baseAddress else { return }
            for k in block.indices {
                let element = base + k  // not a copy of the whole element
                let f = element.pointee.frame
                guard Self.labelStaysInside(frameOf: element.pointee, labels) else {
                    add(element.pointee)
                    continue
                }
                sawVisible = true
                // `add(_:)`'s arithmetic with a translation of +0 and the identity's radii.
                let cx = f.midX + 0.0, cy = f.midY + 0.0
                let rx = f.width / 2, ry = f.height / 2
                include(cx - rx, cy - ry, cx + rx, cy + ry)
            }
        }

        /// Adds what another run drew, measured with the same labels. - Complexity: O(1).
        public mutating func add(_ other: DrawnBounds) {
            precondition(other.labels == labels, "bounds measured with other labels")
            guard other.sawVisible else { return }
            sawVisible = true
            include(other.minX, other.minY, other.maxX, other.maxY)
        }

        /// Whether `element` draws just its frame, told cheaply: a finite frame of 51 × 17 or
        /// more, the identity's linear part, no label or a cell's of ≤ 6 characters.
        @inline(__always)
        static func labelStaysInside(_ element: LayoutAttributes, _ labels: SVGLabels) -> Bool {
            let t = element.transform
            return t.a == 1 && t.b == 0 && t.c == 0 && t.d == 1 && labelStaysInside(frameOf: element, labels)
        }

        /// `labelStaysInside(_:_:)` for a transform known to have the identity's linear part.
        @inline(__always)
        static func labelStaysInside(frameOf element: LayoutAttributes, _ labels: SVGLabels) -> Bool {
            let f = element.frame
            guard f.size.width >= 51 && f.size.width < .infinity,
                  f.size.height >= 17 && f.size.height < .infinity else { return false }
            switch labels {
            case .none: return true
            case .item: return element.category == .cell && UInt(bitPattern: element.indexPath.item) < 1_000_000
            case .indexPath:
                return element.category == .cell && UInt(bitPattern: element.indexPath.item) < 10_000
                    && UInt(bitPattern: element.indexPath.section) < 10
            }
        }
    }

    /// Everything before the first shape, the viewBox `canvas(_:options:drawn:)`.
    static func appendStart(_ layout: CollectionLayout, options: OutputOptions, drawn: Rect?, to out: OutputBuffer) {
        appendDocumentStart(canvas: canvas(layout, options: options, drawn: drawn), title: "cvlayout " + layout.engine, to: out)
    }

    /// The visible elements of `block`, in drawing order (streamed); `allDefaultAppearance`:
    /// frame texts may come from the buffer's table (`SVGFrameText`).
    static func appendBlock(_ block: UnsafeBufferPointer<LayoutAttributes>, round: Bool, labels: SVGLabels,
                            allDefaultAppearance: Bool = false, above: SVGLabelsAboveOutline? = nil, to out: OutputBuffer) {
        guard let base = block.baseAddress else { return }
        let frames = allDefaultAppearance && !round ? out.svgFrameTexts : nil
        SVGElementWriter.withWriter(precision: out.precision, round: round, labels: labels, frames: frames, above: above) { writer in
            for k in 0..<block.count where !base[k].isHidden {
                writer.append(base + k, to: out)
            }
        }
    }

    /// Everything after the last shape (`PlainLayoutWriter.svgEnd`), with the labels `above`.
    static func appendEnd(_ layout: CollectionLayout, options: OutputOptions, above: SVGLabelsAboveOutline? = nil,
                          to out: OutputBuffer) {
        out.append(string: PlainLayoutWriter.svgEnd(layout, labelsAboveOutline: above?.elements ?? [],
                                                     labels: SVGLabels.resolved(options.labels,
                                                                                numberOfSections: layout.numberOfSections),
                                                     options: options, precision: out.precision))
    }

    /// Elements formatted by one core at a time (about 400 KB, in its cache).
    static let chunkSize = 2048
    /// Bytes a group usually takes (reserved for a chunk at once).
    static let typicalGroupSize = 256

    /// Writes `elements[indices?[k] ?? k]` for k in `0..<count`, in chunks on every core.
    private static func appendElements(_ elements: UnsafePointer<LayoutAttributes>, _ indices: UnsafePointer<Int>?,
                                       count: Int, round: Bool, labels: SVGLabels, above: SVGLabelsAboveOutline?,
                                       to out: OutputBuffer) throws {
        func appendChunk(_ range: Range<Int>, to buffer: OutputBuffer) {
            _ = buffer.cursor(reserving: range.count * typicalGroupSize)
            SVGElementWriter.withWriter(precision: buffer.precision, round: round, labels: labels, above: above) { writer in
                if let indices {
                    for k in range { writer.append(elements + indices[k], to: buffer) }
                } else {
                    for k in range { writer.append(elements + k, to: buffer) }
                }
            }
        }
        guard count > chunkSize else {
            appendChunk(0..<count, to: out)
            return try out.flushIfFull()
        }
        try appendInParallel(count: (count + chunkSize - 1) / chunkSize, to: out, blockSize: 1) { chunk, buffer in
            appendChunk(chunk * chunkSize..<min(count, chunk * chunkSize + chunkSize), to: buffer)
        }
    }
}

// MARK: - Drawing order

/// One pass over the selected elements: whether one is hidden, and whether the visible ones
/// are in drawing order.
struct DrawingOrderScan {
    private(set) var hidden = false
    /// The visible elements' (zIndex, position) increase strictly.
    private(set) var ordered = true
    /// The positions of the visible elements, in selection order, when one is hidden.
    private(set) var visible: [Int]?

    /// Scans `elements[indices[k]]` (`elements[k]` without indices) for k in `0..<count`.
    init(_ elements: UnsafePointer<LayoutAttributes>, _ indices: UnsafePointer<Int>?, count: Int) {
        var last = (z: Int.min, position: Int.min)
        for k in 0..<count {
            let position = indices?[k] ?? k
            let element = elements + position
            if element.pointee.isHidden {
                if !hidden {
                    hidden = true
                    visible = (0..<k).map { indices?[$0] ?? $0 }
                }
                continue
            }
            let z = element.pointee.zIndex
            if z < last.z || (z == last.z && position <= last.position) { ordered = false }
            last = (z, position)
            if hidden { visible!.append(position) }
        }
    }
}

// MARK: - Shared

/// The document's start (`PlainLayoutWriter.svgDocumentStart`) at the buffer's precision.
package func appendDocumentStart(canvas: Rect, title: String, to out: OutputBuffer, background: Rect? = nil) {
    out.append(string: PlainLayoutWriter.svgDocumentStart(canvas: canvas, title: title, background: background,
                                                          precision: out.precision))
}

/// `<rect data-index-path="S:I" [data-kind="KIND"] x="-w/2" y="-h/2" width="w" height="h"`: an
/// animated shape centred on its group's origin.
func svgCentredRect(_ e: LayoutAttributes, precision: NumberPrecision) -> String {
    func n(_ value: Double) -> String { NumberFormat.string(value, precision: precision) }
    return "<rect data-index-path=\"\(e.indexPath.section):\(e.indexPath.item)\""
        + (e.category == .cell ? "" : " data-kind=\"\(PlainLayoutWriter.svgKindName(e))\"")
        + " x=\"\(n(-e.size.width / 2))\" y=\"\(n(-e.size.height / 2))\" width=\"\(n(e.size.width))\" height=\"\(n(e.size.height))\""
}

/// The timing of a set of SMIL animations and how their values are written.
struct SVGAnimationTiming {
    /// What follows the values: key times, begin, duration, freeze or repeat.
    let timing: String
    /// Points' precision (factors are written at full).
    let precision: NumberPrecision
    /// The values go back to the first (a transition played forth and back).
    var returns = false

    /// `animation(_:_:type:texts:discrete:)` of lists of numbers (points at `precision`,
    /// `factor`s at full); nothing when the values never change.
    func animation(_ tag: String, _ attribute: String, type: String? = nil, _ values: [[Double]], factor: Bool = false,
                   discrete: Bool = false) -> String {
        guard values.contains(where: { $0 != values[0] }) else { return "" }
        let texts = values.map { $0.map { NumberFormat.string($0, precision: factor ? .full : precision) }.joined(separator: " ") }
        return animation(tag, attribute, type: type, texts: texts, discrete: discrete)
    }

    /// `<TAG attributeName="ATTRIBUTE" [type="TYPE"] [calcMode="discrete"] values="V;V…"TIMING/>`.
    func animation(_ tag: String, _ attribute: String, type: String? = nil, texts: [String], discrete: Bool) -> String {
        "<\(tag) attributeName=\"\(attribute)\"" + (type.map { " type=\"\($0)\"" } ?? "") + (discrete ? " calcMode=\"discrete\"" : "")
            + " values=\"\((returns ? texts + [texts[0]] : texts).joined(separator: ";"))\"\(timing)/>"
    }
}

/// `<text x="0" y="0.35·SIZE" font-family="sans-serif" font-size="SIZE" text-anchor="middle"
/// fill="COLOUR"`: an animated element's label, centred on its group's origin.
func svgCentredTextStart(size: Double, colour: String, precision: NumberPrecision) -> String {
    func n(_ value: Double) -> String { NumberFormat.string(value, precision: precision) }
    return "<text x=\"0\" y=\"\(n(size * 0.35))\" font-family=\"sans-serif\" font-size=\"\(n(size))\" "
        + "text-anchor=\"middle\" fill=\"\(colour)\""
}

/// An animated element's drawn centre at `ends[k]` (`translate(X Y)`), its animation, and the
/// groups that rotate (degrees, the shorter way), shear (`skewX`) and scale it where `ends`
/// need it, animated; their ends.
func svgTransformGroups(_ ends: [LayoutAttributes], at k: Int,
                        timing: SVGAnimationTiming) -> (translate: String, open: String, close: String) {
    func factor(_ value: Double) -> String { NumberFormat.string(value, precision: .full) }
    func degrees(_ shear: Double) -> Double { atan(shear) * 180 / Double.pi }
    func animate(_ type: String, _ values: [[Double]], factor: Bool = true) -> String {
        timing.animation("animateTransform", "transform", type: type, values, factor: factor)
    }
    let parts = ends.map { TransformComponents(decomposing: $0.transform) }
    let centres = ends.indices.map { [ends[$0].center.x + parts[$0].tx, ends[$0].center.y + parts[$0].ty] }
    var open = animate("translate", centres, factor: false), close = ""
    if parts.contains(where: { $0.rotation != 0 }) {
        var rotations = [parts[0].rotation]
        for j in parts.indices.dropFirst() { rotations.append(rotations[j - 1] + parts[j - 1].rotationChange(to: parts[j])) }
        open += "<g transform=\"rotate(\(factor(parts[k].rotation)))\">" + animate("rotate", rotations.map { [$0] })
        close += "</g>"
    }
    if parts.contains(where: { $0.shear != 0 }) {
        open += "<g transform=\"skewX(\(factor(degrees(parts[k].shear))))\">" + animate("skewX", parts.map { [degrees($0.shear)] })
        close += "</g>"
    }
    if parts.contains(where: { $0.scaleX != 1 || $0.scaleY != 1 }) {
        open += "<g transform=\"scale(\(factor(parts[k].scaleX)) \(factor(parts[k].scaleY)))\">"
            + animate("scale", parts.map { [$0.scaleX, $0.scaleY] })
        close += "</g>"
    }
    func point(_ value: Double) -> String { NumberFormat.string(value, precision: timing.precision) }
    return ("translate(\(point(centres[k][0])) \(point(centres[k][1])))", open, close)
}

/// Appends `text` XML-escaped, control characters (not in XML 1.0) as `?`.
package func appendXMLText(_ text: String, to out: OutputBuffer) {
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "&"): out.append("&amp;")
        case UInt8(ascii: "<"): out.append("&lt;")
        case UInt8(ascii: ">"): out.append("&gt;")
        case UInt8(ascii: "\""): out.append("&quot;")
        case UInt8(ascii: "'"): out.append("&apos;")
        case 0..<0x20 where byte != 0x09 && byte != 0x0A && byte != 0x0D: out.append("?")
        default: out.append(byte: byte)
        }
    }
}
