import class Foundation.NSLock
import LayoutCore
import FastText

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Labels and canvas

/// What the shapes of an SVG are labelled with (`--labels`).
public enum SVGLabels: String, Sendable, CaseIterable {
    /// The cell's item number (`7`); headers and footers `header S`, `footer S`.
    case item
    /// The cell's index path (`2:7`); headers and footers as with `item`.
    case indexPath = "index-path"
    /// No labels at all, headers' and footers' included.
    case none

    /// The labels `--labels` asked for, or, when it was not given, the default for `layout`:
    /// index paths when it has more than one section (item numbers repeat there), item numbers
    /// otherwise.
    public static func resolved(_ asked: SVGLabels?, for layout: CollectionLayout) -> SVGLabels {
        resolved(asked, numberOfSections: layout.numberOfSections)
    }

    /// `resolved(_:for:)` for a layout of `numberOfSections` sections.
    public static func resolved(_ asked: SVGLabels?, numberOfSections: Int) -> SVGLabels {
        asked ?? (numberOfSections > 1 ? .indexPath : .item)
    }
}

/// The area an SVG shows (`--canvas`): its viewBox.
public enum SVGCanvas: String, Sendable, CaseIterable {
    /// The content rect together with everything drawn: every visible element's transformed
    /// frame and its label, the heart path and the heart flying along it. The viewBox may start
    /// at negative coordinates (a ring wider than its bounds, a stretchy header pulled down).
    case all
    /// The content rect, (0, 0, contentSize): elements outside it are cut off.
    case content
    /// The visible bounds at the content offset: what the screen shows.
    case visible
    /// The `--rect` query area.
    case rect
}

extension OutputOptions {
    /// The viewBox of a canvas that does not measure what is drawn: `content`, `visible`, or
    /// the query rect (`content` without one); `nil` for `.all`.
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
    /// The visible bounds: `bounds`' size at the content offset, what the screen shows (the
    /// SVGs' dashed outline).
    var visibleRect: Rect { Rect(x: contentOffset.x, y: contentOffset.y, width: bounds.width, height: bounds.height) }
}

// MARK: - The document

/// The labels that would cross the dashed outline of the visible bounds, kept out of their
/// elements' groups as those are written (on any core) and drawn after the outline, above
/// it, so that it never runs through a label.
final class SVGLabelsAboveOutline: @unchecked Sendable {
    /// The outline: the visible bounds.
    let outline: Rect
    private let lock = NSLock()
    private var elements: [LayoutAttributes] = []

    init(outline: Rect) {
        self.outline = outline
    }

    /// Whether the label box of `element` (its size `label`) crosses an edge of the outline
    /// (with the stroke's half width): the box the canvas counts, 0.3 em a character either
    /// side of the centre, 0.6 em up and down.
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

    /// Keeps `element`'s label for later.
    func add(_ element: LayoutAttributes) {
        lock.lock()
        elements.append(element)
        lock.unlock()
    }

    /// The labels kept, as `<text>` lines in element order (index path, then category and
    /// kind), each as its group would have held it, with a halo of its shape's fill (drawn
    /// under the glyphs: `paint-order="stroke"`) over the outline's dashes.
    func append(labels: SVGLabels, to out: OutputBuffer) {
        let sorted = elements.sorted { a, b in
            (a.indexPath.section, a.indexPath.item, a.category.rawValue, a.kind?.rawValue ?? "")
                < (b.indexPath.section, b.indexPath.item, b.category.rawValue, b.kind?.rawValue ?? "")
        }
        for e in sorted {
            guard let label = SVGElementWriter.label(e, labels) else { continue }
            let t = e.transform, f = e.frame
            out.append("<text x=\"")
            out.append(number: f.origin.x + f.size.width / 2 + t.tx)
            out.append("\" y=\"")
            out.append(number: f.origin.y + f.size.height / 2 + t.ty + label.size * 0.35)
            out.append("\" font-family=\"sans-serif\" font-size=\"")
            out.append(number: label.size)
            // A halo of the shape's own fill hides the dashes under the glyphs.
            out.append("\" text-anchor=\"middle\" stroke=\"")
            out.append(SVGPaint.haloColour(e))
            if e.alpha < 1 {  // as faded as its shape
                out.append("\" stroke-opacity=\"")
                out.append(number: SVGPaint.opacity(e.alpha), precision: .full)
            }
            out.append("\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\" fill=\"")
            out.append(SVGPaint.labelColour(e))
            out.append("\">")
            if e.category == .cell {
                if labels == .indexPath { out.append(string: "\(e.indexPath.section):") }
                out.append(string: "\(e.indexPath.item)")
            } else {
                out.append(string: "\(e.kind?.rawValue ?? e.category.rawValue) \(e.indexPath.section)")
            }
            out.append("</text>\n")
        }
    }
}

/// SPEC section 4's SVG: a standalone SVG 1.1 document whose viewBox is the canvas
/// (`SVGCanvas`), one shape per visible element in zIndex order (ties by element order), its
/// transform and alpha applied, filled from the palette by item number (`SVGPaint`) and
/// labelled (`SVGLabels`) at full opacity and untransformed; the visible bounds at the content
/// offset outlined (and the `--rect` area when given); for ring layouts the dashed heart path
/// and a heart that flies along it and pulses (SPEC section 7). Units are points.
public enum SVGLayoutWriter {
    /// A heart about 22 × 20 points centred on the origin, pointing down.
    static let heartShape = "M 0 8 C -4 5 -11 0 -11 -5 C -11 -9 -8 -11 -5.5 -11 C -3 -11 -1 -9.5 0 -7.5 "
        + "C 1 -9.5 3 -11 5.5 -11 C 8 -11 11 -9 11 -5 C 11 0 4 5 0 8 Z"
    /// How far the flying heart reaches from its place on the path, points: the shape's
    /// farthest point (about 15.6 from its centre) and half its dark outline (1.75) at the
    /// pulse's largest scale, 1.2 (20.8), turned any way by `rotate="auto"`.
    static let heartReach = 21.0

    /// Writes the SVG document for the selected elements of `layout` to `out`.
    /// - Complexity: O(k) for k selected elements already in zIndex order (the usual case:
    ///   checked first), O(k log k) otherwise (the zIndex sort); one more pass over them for
    ///   the canvas `.all`. The elements are formatted on every core; no allocation per element.
    public static func write(_ layout: CollectionLayout, selection: [Int]?, options: OutputOptions,
                             to out: OutputBuffer) throws {
        let round = layout.drawsCellsRound
        let labels = SVGLabels.resolved(options.labels, for: layout)
        let above = labelsAboveOutline(layout, labels: labels)
        try layout.elements.withUnsafeBufferPointer { elements in
            try (selection ?? []).withUnsafeBufferPointer { selected in
                let indices = selection == nil ? nil : selected.baseAddress
                let count = selection?.count ?? elements.count
                var drawn = DrawnBounds(labels: labels)
                if options.canvas == .all, let base = elements.baseAddress {
                    for k in 0..<count { drawn.add(base[indices?[k] ?? k]) }
                }
                appendStart(layout, canvas: canvas(layout, options: options, drawn: drawn.bounds), to: out)
                guard let base = elements.baseAddress else { return }
                // The drawing order: visible elements by zIndex, element order breaking ties.
                // When the selection is all visible and already in that order (the usual case),
                // it is drawn as it is: no list to build, nothing to sort.
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

    /// The collector of the labels that cross the visible bounds' outline (drawn after it),
    /// or `nil` without labels.
    static func labelsAboveOutline(_ layout: CollectionLayout, labels: SVGLabels) -> SVGLabelsAboveOutline? {
        guard labels != .none else { return nil }
        return SVGLabelsAboveOutline(outline: layout.visibleRect)
    }

    /// The viewBox of `layout`'s picture with `options.canvas`: for `.all`, the content rect,
    /// `drawn` (the drawn elements' bounds with their labels) and the heart with its path.
    public static func canvas(_ layout: CollectionLayout, options: OutputOptions, drawn: Rect?) -> Rect {
        let content = Rect(x: 0, y: 0, width: layout.contentSize.width, height: layout.contentSize.height)
        if let area = options.canvasArea(content: content, visible: layout.visibleRect) { return area }
        var union = content
        if let drawn { union = union.union(drawn) }
        if let heart = layout.heartPath {
            var points = [heart.start]
            for segment in heart.segments { points += [segment.control1, segment.control2, segment.end] }
            // A cubic lies in the hull of its control points; the heart reaches past it.
            let xs = points.map(\.x), ys = points.map(\.y)
            union = union.union(Rect(minX: xs.min()! - heartReach, minY: ys.min()! - heartReach,
                                     maxX: xs.max()! + heartReach, maxY: ys.max()! + heartReach))
        }
        // Elements far apart near the largest Double can make a union too wide to print.
        let canvas = outward(union, from: content, precision: options.precision)
        return canvas.isFinite ? canvas : content
    }

    /// `union`'s edges that reach past `content`'s once printed at `precision` go out to whole
    /// points, so the printed viewBox holds what is drawn at any precision (and the picture is a
    /// whole number of pixels that way); an edge that only prints past the content
    /// (`-0.0004` prints as `0`) stays the content's.
    static func outward(_ union: Rect, from content: Rect, precision: NumberPrecision) -> Rect {
        func printed(_ v: Double) -> Double {
            guard case .decimals(let n) = precision else { return v }
            let unit = (0..<n).reduce(1.0) { product, _ in product * 10 }
            let scaled = (v * unit).rounded(.toNearestOrAwayFromZero) / unit
            return scaled.isFinite ? scaled : v
        }
        return Rect(minX: printed(union.minX) < content.minX ? union.minX.rounded(.down) : content.minX,
                    minY: printed(union.minY) < content.minY ? union.minY.rounded(.down) : content.minY,
                    maxX: printed(union.maxX) > content.maxX ? union.maxX.rounded(.up) : content.maxX,
                    maxY: printed(union.maxY) > content.maxY ? union.maxY.rounded(.up) : content.maxY)
    }

    /// The union of the bounds of what an SVG draws for a run of elements: each visible
    /// element's frame under its transform, and its label's box, as `SVGElementWriter` writes
    /// them. Feed it every element (hidden ones are passed over), then read `bounds`.
    public struct DrawnBounds: Sendable {
        /// The labels drawn.
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
            // The frame's corners about its centre, through the matrix.
            let hw = f.width / 2, hh = f.height / 2
            var rx: Double, ry: Double
            if Self.labelStaysInside(element, labels) {
                rx = hw  // what the matrix gives, the identity's
                ry = hh
            } else {
                rx = abs(t.a) * hw + abs(t.c) * hh
                ry = abs(t.b) * hw + abs(t.d) * hh
                if let label = SVGElementWriter.label(element, labels) {
                    // Centred on the drawn centre: about 0.6 em a character, 1.2 em high.
                    rx = max(rx, 0.3 * label.size * Double(label.characters))
                    ry = max(ry, 0.6 * label.size)
                }
            }
            minX = min(minX, cx - rx)
            minY = min(minY, cy - ry)
            maxX = max(maxX, cx + rx)
            maxY = max(maxY, cy + ry)
        }

        /// Adds what a block of elements with the default appearance draws (identity, alpha
        /// 1, shown: `LayoutAttributes.hasDefaultAppearance`), as `add(_:)` adds each, with
        /// no test of the transform for the frames whose label surely stays inside them.
        /// - Complexity: O(block.count).
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
                minX = min(minX, cx - rx)
                minY = min(minY, cy - ry)
                maxX = max(maxX, cx + rx)
                maxY = max(maxY, cy + ry)
            }
        }

        /// Adds what another run of elements draws, measured with the same labels: the
        /// bounds of two runs joined are those of the one run they make, whichever came first
        /// (a zero's sign aside, which no canvas shows). - Complexity: O(1).
        public mutating func add(_ other: DrawnBounds) {
            precondition(other.labels == labels, "bounds measured with other labels")
            guard other.sawVisible else { return }
            sawVisible = true
            minX = min(minX, other.minX)
            minY = min(minY, other.minY)
            maxX = max(maxX, other.maxX)
            maxY = max(maxY, other.maxY)
        }

        /// Whether `element` is drawn as its frame, its label (if any) inside it, told without
        /// sizing the label: for most cells of most layouts, whose label need not be measured.
        /// True for a finite frame at least 51 × 17 points under a transform whose linear part
        /// is the identity, and no label, or a cell's label of at most 6 characters. Such a
        /// label is at most 14 points (1.2 em, 8.4 points high; 0.6 em a character, 25.2
        /// points wide): half a frame's height and width hold it with room to spare, so the
        /// bounds are the frame's whatever the label's exact size.
        @inline(__always)
        static func labelStaysInside(_ element: LayoutAttributes, _ labels: SVGLabels) -> Bool {
            let t = element.transform
            return t.a == 1 && t.b == 0 && t.c == 0 && t.d == 1 && labelStaysInside(frameOf: element, labels)
        }

        /// `labelStaysInside(_:_:)` but for the transform, which the caller knows to be one
        /// whose linear part is the identity.
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

    /// Everything before the first shape, with `canvas` as the viewBox.
    static func appendStart(_ layout: CollectionLayout, canvas: Rect, to out: OutputBuffer) {
        appendDocumentStart(canvas: canvas, title: "cvlayout " + layout.engine, to: out)
    }

    /// The shapes of the visible elements of `block`, in order: for a streamed layout whose
    /// visible elements are already in drawing order (zIndex non-decreasing).
    /// `allDefaultAppearance`: every element of the block has the default appearance, so that
    /// its cells' frame texts can come from the buffer's table (`SVGFrameText`).
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

    /// Everything after the last shape: the visible bounds, the query area, the labels that
    /// cross the visible bounds' outline (`above`), the heart.
    static func appendEnd(_ layout: CollectionLayout, options: OutputOptions, above: SVGLabelsAboveOutline? = nil,
                          to out: OutputBuffer) {
        appendVisibleBounds(layout, to: out)
        out.append("/>\n")
        if let rect = options.queryRect {
            appendClassedRect("query-rect", rect, to: out)
            out.append("\" fill=\"#1f77b4\" fill-opacity=\"0.08\" stroke=\"#1f77b4\" stroke-width=\"1\"/>\n")
        }
        above?.append(labels: SVGLabels.resolved(options.labels, for: layout), to: out)
        if let heart = layout.heartPath {
            appendHeart(heart, to: out)
        }
        out.append("</svg>\n")
    }

    /// Elements formatted in one go by one core: 2048 groups (about 400 KB of text) stay in
    /// the core's cache, and one chunk per core a round keeps the rounds few.
    static let chunkSize = 2048
    /// Bytes a group usually takes (one with a transform, a little more): reserved for a
    /// chunk at once, so its buffer grows once rather than doubling its way up.
    static let typicalGroupSize = 256

    /// Writes the elements `elements[indices[k]]` (`elements[k]` without indices) for k in
    /// `0..<count`, in chunks formatted on every core (`appendInParallel`).
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
            // One chunk (a stack, a ring, a query's answer): no workers to ask for.
            appendChunk(0..<count, to: out)
            return try out.flushIfFull()
        }
        try appendInParallel(count: (count + chunkSize - 1) / chunkSize, to: out, blockSize: 1) { chunk, buffer in
            appendChunk(chunk * chunkSize..<min(count, chunk * chunkSize + chunkSize), to: buffer)
        }
    }

    /// The dashed path (seed 000: grey, width 2, dash 4 4, square caps, round joins) and the
    /// heart: at rest on the start avatar, flying along the path in 2 s with `rotate="auto"`,
    /// frozen at the end, pulsing 0.6 → 1 → 1.2 → 1 → 0.6 every 1.5 s.
    ///
    /// Three nested groups, each with one job: the outer one's `transform` puts the heart on the
    /// start avatar (all a renderer without animation shows); the middle one carries only the
    /// `<animateMotion>`, along the path taken relative to the start; the inner one only the
    /// pulse. Browsers apply a motion's rotation to the transform of the element it animates,
    /// so a motion beside the translation would turn the translation too and throw the heart
    /// off its path.
    static func appendHeart(_ heart: HeartPath, to out: OutputBuffer) {
        out.append("<path class=\"heart-path\" d=\"")
        appendPathData(heart, relativeTo: .zero, to: out)
        out.append("\" fill=\"none\" stroke=\"#808080\" stroke-width=\"2\" stroke-dasharray=\"4 4\" ")
        out.append("stroke-linecap=\"square\" stroke-linejoin=\"round\"/>\n")
        out.append("<g class=\"heart\" transform=\"translate(")
        out.append(number: heart.start.x)
        out.append(" ")
        out.append(number: heart.start.y)
        out.append(")\">\n<g><animateMotion dur=\"2s\" begin=\"0s\" rotate=\"auto\" fill=\"freeze\" path=\"")
        appendPathData(heart, relativeTo: heart.start, to: out)
        out.append("\"/>\n<g><animateTransform attributeName=\"transform\" type=\"scale\" ")
        out.append("values=\"0.6;1;1.2;1;0.6\" dur=\"1.5s\" repeatCount=\"indefinite\"/>\n")
        // A near-black outline under a white one: the heart reads on every avatar colour, the
        // pink and red ones included (its fill alone is close to them).
        out.append("<path d=\"")
        out.append(string: heartShape)
        out.append("\" fill=\"none\" stroke=\"#1a1a1a\" stroke-width=\"3.5\" stroke-linejoin=\"round\"/>\n")
        out.append("<path d=\"")
        out.append(string: heartShape)
        out.append("\" fill=\"#e0245e\" stroke=\"#ffffff\" stroke-width=\"1.25\" stroke-linejoin=\"round\"/></g>\n</g>\n</g>\n")
    }
}

// MARK: - Drawing order

/// One pass over the selected elements: whether one is hidden (and then the positions of
/// the visible ones), and whether the visible ones are already in drawing order, (zIndex,
/// position) increasing.
struct DrawingOrderScan {
    /// A selected element is hidden.
    private(set) var hidden = false
    /// The visible elements' (zIndex, position) increase strictly.
    private(set) var ordered = true
    /// The positions of the visible elements, in selection order, when one is hidden.
    private(set) var visible: [Int]?

    /// Scans the `count` elements `elements[indices[k]]` (`elements[k]` without indices).
    init(_ elements: UnsafePointer<LayoutAttributes>, _ indices: UnsafePointer<Int>?, count: Int) {
        var last = (z: Int.min, position: Int.min)
        for k in 0..<count {
            let position = indices?[k] ?? k
            let element = elements + position
            if element.pointee.isHidden {
                if !hidden {
                    // The ones before were all visible.
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

// MARK: - Shared with the transition writer

/// The XML declaration, the `<svg>` element whose viewBox is `canvas` (at least 1 point each
/// way: a zero-sized canvas does not render) and whose `width` and `height` are its size in
/// points, a title, and a white background over the whole canvas (or over `background`, for
/// a viewBox that moves). The caller closes the document with `</svg>`.
package func appendDocumentStart(canvas: Rect, title: String, to out: OutputBuffer, background: Rect? = nil) {
    let width = max(canvas.width, 1), height = max(canvas.height, 1)
    out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"")
    out.append(number: width)
    out.append("\" height=\"")
    out.append(number: height)
    out.append("\" viewBox=\"")
    out.append(number: canvas.minX)
    out.append(" ")
    out.append(number: canvas.minY)
    out.append(" ")
    out.append(number: width)
    out.append(" ")
    out.append(number: height)
    out.append("\">\n<title>")
    appendXMLText(title, to: out)
    let area = background ?? Rect(x: canvas.minX, y: canvas.minY, width: width, height: height)
    out.append("</title>\n<rect x=\"")
    out.append(number: area.minX)
    out.append("\" y=\"")
    out.append(number: area.minY)
    out.append("\" width=\"")
    out.append(number: max(area.width, 1))
    out.append("\" height=\"")
    out.append(number: max(area.height, 1))
    out.append("\" fill=\"#ffffff\"/>\n")
}

/// `<rect class="NAME" x="…" y="…" width="…" height="…`: the visible bounds' outline or the
/// query area, its paint and the rest left to the caller.
func appendClassedRect(_ name: StaticString, _ rect: Rect, to out: OutputBuffer) {
    out.append("<rect class=\"")
    out.append(name)
    out.append("\" x=\"")
    out.append(number: rect.minX)
    out.append("\" y=\"")
    out.append(number: rect.minY)
    out.append("\" width=\"")
    out.append(number: rect.width)
    out.append("\" height=\"")
    out.append(number: rect.height)
}

/// The dashed red outline of `layout`'s visible bounds (class `visible-bounds`) up to its
/// last attribute: the caller closes it (`/>`, or `>` and its animations).
func appendVisibleBounds(_ layout: CollectionLayout, to out: OutputBuffer) {
    appendClassedRect("visible-bounds", layout.visibleRect, to: out)
    out.append("\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1\" stroke-dasharray=\"6 3\"")
}

/// `<rect data-index-path="S:I" [data-kind="KIND"] x="-w/2" y="-h/2" width="w" height="h"`: the
/// shape of an animated element centred on its group's origin, named as every shape is.
func svgCentredRect(_ e: LayoutAttributes, precision: NumberPrecision) -> String {
    func n(_ value: Double) -> String { NumberFormat.string(value, precision: precision) }
    return "<rect data-index-path=\"\(e.indexPath.section):\(e.indexPath.item)\""
        + (e.category == .cell ? "" : " data-kind=\"\(PlainLayoutWriter.svgKindName(e))\"")
        + " x=\"\(n(-e.size.width / 2))\" y=\"\(n(-e.size.height / 2))\" width=\"\(n(e.size.width))\" height=\"\(n(e.size.height))\""
}

/// `<text x="0" y="0.35·SIZE" font-family="sans-serif" font-size="SIZE" text-anchor="middle"
/// fill="COLOUR"`: an animated element's label, centred on its group's origin.
func svgCentredTextStart(size: Double, colour: String, precision: NumberPrecision) -> String {
    func n(_ value: Double) -> String { NumberFormat.string(value, precision: precision) }
    return "<text x=\"0\" y=\"\(n(size * 0.35))\" font-family=\"sans-serif\" font-size=\"\(n(size))\" "
        + "text-anchor=\"middle\" fill=\"\(colour)\""
}

/// The groups that rotate (degrees, unwrapped the shorter way), shear (`skewX`, degrees) and
/// scale an animated element, each only when one of `parts` needs it, at `parts[k]`'s
/// values (full precision), each holding `animate(type, values)`; and their closing tags.
func svgTransformGroups(_ parts: [TransformComponents], at k: Int,
                        animate: (_ type: String, _ values: [[Double]]) -> String) -> (open: String, close: String) {
    func factor(_ value: Double) -> String { NumberFormat.string(value, precision: .full) }
    func degrees(_ shear: Double) -> Double { atan(shear) * 180 / Double.pi }
    var open = "", close = ""
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
    return (open, close)
}

/// Appends `text` with XML's special characters escaped; control characters, which XML 1.0
/// cannot carry, become `?`.
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
