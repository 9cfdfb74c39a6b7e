// A computed layout: what UIKit asks a UICollectionViewLayout for after prepare().

/// The direction the content scrolls in; rect queries index along it.
public enum ScrollDirection: String, Sendable, CaseIterable {
    case vertical
    case horizontal
}

/// The horizontal direction of the content (UIKit's `UIUserInterfaceLayoutDirection`).
public enum LayoutDirection: String, Sendable, CaseIterable {
    case leftToRight = "left-to-right"
    case rightToLeft = "right-to-left"
}

/// An engine's result: every element in element order (section by section: header, cells by
/// item, footer), the content size, and UIKit's queries. Units are points.
public struct CollectionLayout: Sendable {
    /// The engine's name (`waterfall`, `ring`, …).
    public var engine: String
    /// The collection view's bounds size.
    public var bounds: Size
    /// `contentOffset`: the visible bounds' origin.
    public var contentOffset: Point
    /// `collectionViewContentSize`.
    public var contentSize: Size
    /// Every element, in element order.
    public internal(set) var elements: [LayoutAttributes]
    /// The axis rect queries index along (the scroll direction).
    public var scrollDirection: ScrollDirection
    /// The ring layout's heart path, when there is one (SPEC section 7).
    public var heartPath: HeartPath?
    /// The heart path sampled evenly by arc length (`--heart-samples`), when asked for.
    public var heartSamples: [PathSample]?
    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)`, when asked for.
    public var targetContentOffset: Point?
    /// Figures an engine reports when asked (the justified `--stats`), in order; or `nil`.
    public var statistics: [(name: String, value: Double)]? = nil
    /// Whether pictures draw its cells round (`CollectionLayoutEngine.drawsCellsRound`).
    public var drawsCellsRound = false
    /// Notes on the input that did not stop the layout (`cvlayout: warning: …` on stderr).
    public var warnings: [String] = []
    /// How the engine reached its layout, when asked (the grid's `--explain`), a line each.
    public var explanation: [String] = []

    /// For each section, the index in `elements` of its first cell and its cell count.
    private(set) var cellRanges: [(start: Int, count: Int)]
    private var index: RectIndex?

    /// A layout of `elements` in element order; `cellRanges`: each section's first cell and count.
    public init(engine: String, bounds: Size, contentOffset: Point = .zero, contentSize: Size,
                elements: [LayoutAttributes], cellRanges: [(start: Int, count: Int)],
                scrollDirection: ScrollDirection = .vertical) {
        self.engine = engine
        self.bounds = bounds
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.elements = elements
        self.cellRanges = cellRanges
        self.scrollDirection = scrollDirection
    }

    /// The layout `body` returns (an engine's `layout(…, into:)`) with the elements it appended.
    public static func collecting(_ body: (inout [LayoutAttributes]) throws -> CollectionLayout) rethrows -> CollectionLayout {
        var elements: [LayoutAttributes] = []
        var layout = try body(&elements)
        layout.elements = elements
        return layout
    }

    /// Number of sections.
    public var numberOfSections: Int { cellRanges.count }

    /// Number of cells in `section` (0 when the section does not exist).
    public func numberOfItems(inSection section: Int) -> Int {
        section >= 0 && section < cellRanges.count ? cellRanges[section].count : 0
    }

    /// The position in `elements` of the cell at `indexPath`, or `nil` when out of range. O(1).
    public func elementIndex(ofItemAt indexPath: IndexPath) -> Int? {
        guard indexPath.item >= 0, indexPath.item < numberOfItems(inSection: indexPath.section) else { return nil }
        return cellRanges[indexPath.section].start + indexPath.item
    }

    /// `layoutAttributesForItem(at:)`: the cell at `indexPath`, or `nil` when out of range. O(1).
    public func layoutAttributesForItem(at indexPath: IndexPath) -> LayoutAttributes? {
        elementIndex(ofItemAt: indexPath).map { elements[$0] }
    }

    /// `layoutAttributesForElements(in:)`: every element whose untransformed frame strictly overlaps
    /// `rect` (`Rect.intersects`), in element order. O(log n + k + w) after `prepareRectIndex()`, else O(n).
    public func layoutAttributesForElements(in rect: Rect) -> [LayoutAttributes] {
        guard let index, index.elementCount == elements.count else {
            return elements.filter { $0.frame.intersects(rect) }
        }
        // The closures capture the buffer and the index, not `self` (which would copy the layout).
        return elements.withUnsafeBufferPointer { all in index.map(in: rect) { all[Int($0)] } }
    }

    /// The positions in `elements` of `layoutAttributesForElements(in:)`, ascending; as fast.
    public func elementIndices(in rect: Rect) -> [Int] {
        if let index, index.elementCount == elements.count {
            return index.elementIndices(in: rect)
        }
        return elements.indices.filter { elements[$0].frame.intersects(rect) }
    }

    /// Builds the rect-query index (`RectIndex`). - Complexity: O(n log n); 41 bytes an element.
    public mutating func prepareRectIndex() {
        index = RectIndex(elements: elements, axis: scrollDirection)
    }

    /// Rounds every element's edges (SPEC section 2: not origin and size, so shared edges stay
    /// shared) to 1/`scale` point; `scale` (1, 2, 3) finite and > 0. - Complexity: O(n).
    public mutating func snapToPixels(scale: Double) {
        precondition(scale > 0 && scale.isFinite, "scale must be finite and > 0")
        for i in elements.indices {
            elements[i].frame = Self.snapped(elements[i].frame, scale: scale)
        }
        index = nil
    }

    /// `frame` snapped as `snapToPixels(scale:)` does (halves away from zero, `-0` as `0`).
    @inline(__always)
    public static func snapped(_ frame: Rect, scale: Double) -> Rect {
        func snap(_ v: Double) -> Double {
            let s = (v * scale).rounded(.toNearestOrAwayFromZero) / scale
            return s == 0 ? 0 : s
        }
        return Rect(minX: snap(frame.minX), minY: snap(frame.minY), maxX: snap(frame.maxX), maxY: snap(frame.maxY))
    }

    /// Throws `LayoutError.nonFiniteLayout` unless the content size, every element, then
    /// `firstNonFinite` (a streamed one), the heart path and target offset are finite. O(n).
    public func validateFinite(streamedElement firstNonFinite: LayoutAttributes? = nil) throws {
        guard contentSize.width.isFinite, contentSize.height.isFinite else {
            throw LayoutError.nonFiniteLayout(.contentSize)
        }
        if let e = elements.first(where: { !$0.isFinite }) ?? firstNonFinite {
            throw LayoutError.nonFiniteLayout(e.category == .cell ? .item(e.indexPath)
                                              : .supplementary(kind: e.kind?.rawValue, section: e.indexPath.section))
        }
        if let heartPath, !heartPath.isFinite {
            throw LayoutError.nonFiniteLayout(.heartPath)
        }
        if let targetContentOffset, !targetContentOffset.isFinite {
            throw LayoutError.nonFiniteLayout(.targetContentOffset)
        }
    }

    /// The layout as a right-to-left interface shows it (`flipsHorizontallyInOppositeLayoutDirection`):
    /// each frame at `x' = contentWidth − x − width`, transforms with `b`, `c`, `tx` negated, the heart
    /// path at `x' = contentWidth − x`, its sample angles θ → 180° − θ (a still path keeps 0); all else
    /// kept, so mirroring twice gives the layout back. - Complexity: O(elements + path).
    public func mirroredForRightToLeft() -> CollectionLayout {
        let width = contentSize.width
        func mirror(_ p: Point) -> Point { Point(x: width - p.x, y: p.y) }
        var mirrored = self
        mirrored.index = nil
        mirrored.elements = elements.map { element in
            var e = element
            e.frame.origin.x = width - element.frame.maxX
            e.transform.b = -element.transform.b
            e.transform.c = -element.transform.c
            e.transform.tx = -element.transform.tx
            return e
        }
        if let heartPath {
            mirrored.heartPath?.start = mirror(heartPath.start)
            mirrored.heartPath?.segments = heartPath.segments.map {
                BezierSegment(control1: mirror($0.control1), control2: mirror($0.control2), end: mirror($0.end))
            }
        }
        let still = heartSamples.map { samples in samples.allSatisfy { $0.point == samples.first?.point } } ?? true
        mirrored.heartSamples = heartSamples?.map { sample in
            var angle = still ? sample.angle : 180 - sample.angle  // in (−180, 180]
            if angle > 180 { angle -= 360 }
            return PathSample(t: sample.t, point: mirror(sample.point), angle: angle)
        }
        return mirrored
    }
}

/// A rect-query index over a layout's elements: 40-byte entries sorted by leading edge along the
/// scroll axis, with the running maximum of trailing edges, so the elements a rect can meet form
/// one run; a table of equal bands (crowded ones searched by every 16th running maximum) finds
/// where it starts, and it is filtered branch-free: answers equal `Rect.intersects`'s brute force.
/// Size classes by length (twice the typical length, then ×8) keep one long element from
/// lengthening every run. Infinite edges are checked on every query; NaN edges meet nothing.
/// - Complexity: building O(n log n). A query O(c·(1 + log n) + k + w): c classes, k answers,
///   w entries read that miss (about 10 for a screen). Runs up to 256 entries gather on the stack.
/// - Memory: about 40.8 bytes an element; no reference to the elements.
public struct RectIndex: Sendable {
    /// One element as the index keeps it (vertical axis: lead = minY, cross = minX…maxX).
    struct Entry: Sendable {
        var lead: Double
        var trail: Double
        var crossMin: Double
        var crossMax: Double
        var element: Int32  // the position in `elements`
    }

    /// One size class's entries sorted by leading edge, and their band table.
    struct SizeClass: Sendable {
        let entries: [Entry]
        /// `band(x) = ⌊(x − origin) · bandsPerPoint⌋` clamped to `0…lastBand` (NaN: 0).
        let origin: Double
        let bandsPerPoint: Double
        let lastBand: Int
        /// `startAt[b]`: the first entry whose running maximum trailing edge is in band ≥ `b`.
        let startAt: [Int32]
        /// `blockMax[j]`: the running maximum at the end of block `j` (entries `16j ..< 16j + 16`).
        let blockMax: [Double]

        static let entriesPerBand = 16
        static let blockLength = 16

        /// Sorts `entries` by leading edge (in place when unshared) and builds the band table.
        init(sorting unsorted: consuming [Entry]) {
            var entries = consume unsorted
            entries.sort { $0.lead < $1.lead || ($0.lead == $1.lead && $0.element < $1.element) }
            let low = entries.first?.lead ?? 0
            let high = entries.reduce(-Double.infinity) { max($0, $1.trail) }
            var bands = max(1, entries.count / Self.entriesPerBand)
            var perPoint = Double(bands) / (high - low)
            if !(perPoint.isFinite && perPoint > 0) {
                bands = 1
                perPoint = 0
            }
            origin = low
            bandsPerPoint = perPoint
            lastBand = bands - 1
            var startAt = [Int32](repeating: Int32(entries.count), count: bands)
            var blockMax: [Double] = []
            blockMax.reserveCapacity(entries.count / Self.blockLength + 1)
            var running = -Double.infinity, next = 0
            for k in entries.indices {
                running = max(running, entries[k].trail)
                let b = Self.band(running, origin: low, bandsPerPoint: perPoint, lastBand: bands - 1)
                while next <= b {
                    startAt[next] = Int32(k)
                    next += 1
                }
                if k % Self.blockLength == Self.blockLength - 1 || k == entries.count - 1 { blockMax.append(running) }
            }
            self.entries = entries
            self.startAt = startAt
            self.blockMax = blockMax
        }

        @inline(__always)
        static func band(_ x: Double, origin: Double, bandsPerPoint: Double, lastBand: Int) -> Int {
            let t = (x - origin) * bandsPerPoint
            if t >= Double(lastBand) { return lastBand }
            return t > 0 ? Int(t) : 0
        }

        /// Where the run of a rect with near edge `near` starts; a band over 64 entries is searched.
        @inline(__always)
        func runStart(near: Double) -> Int {
            let b = Self.band(near, origin: origin, bandsPerPoint: bandsPerPoint, lastBand: lastBand)
            let low = Int(startAt[b])
            let high = b < lastBand ? Int(startAt[b + 1]) : entries.count
            guard high - low > 4 * Self.blockLength else { return low }
            // The first block reaching past `near`.
            var first = low / Self.blockLength, last = (high + Self.blockLength - 1) / Self.blockLength
            while first < last {
                let mid = (first + last) / 2
                if blockMax[mid] > near { last = mid } else { first = mid + 1 }
            }
            return min(max(low, first * Self.blockLength), entries.count)
        }

        /// The end of the run from `start`: the first entry starting at or past `far` (NaN: at once).
        @inline(__always)
        func runEnd(from start: Int, far: Double) -> Int {
            entries.withUnsafeBufferPointer { entries in
                var end = start
                while end < entries.count && entries[end].lead < far { end += 1 }
                return end
            }
        }
    }

    private let axis: ScrollDirection
    private let classes: [SizeClass]
    /// Elements with an infinite leading or trailing edge, checked one by one.
    private let unbounded: [Entry]
    /// The number of elements the index was built from.
    public let elementCount: Int

    /// Builds the index of `elements` along `axis`. - Complexity: O(n log n); about 40.8 bytes an element.
    public init(elements: [LayoutAttributes], axis: ScrollDirection) {
        precondition(elements.count <= Int(Int32.max), "too many elements for a RectIndex")
        self.axis = axis
        elementCount = elements.count
        let vertical = axis == .vertical
        var bounded: [Entry] = [], unbounded: [Entry] = []
        bounded.reserveCapacity(elements.count)
        elements.withUnsafeBufferPointer { all in
            for i in all.indices {
                let s = all[i].frame.standardized  // as `Rect.intersects` takes it
                let f = vertical ? s : s.transposed
                let e = Entry(lead: f.minY, trail: f.maxY, crossMin: f.minX, crossMax: f.maxX, element: Int32(i))
                // A comparison with NaN is false, so such an element intersects no rect.
                if e.lead.isNaN || e.trail.isNaN || e.crossMin.isNaN || e.crossMax.isNaN { continue }
                if e.lead.isFinite && e.trail.isFinite { bounded.append(e) } else { unbounded.append(e) }
            }
        }
        self.unbounded = unbounded

        // Size classes: lengths up to `unit` (twice the 90th percentile of a sample, at least
        // the mean spacing of leading edges), then ×8 per class.
        let classCount = 12
        var unit = 0.0
        if !bounded.isEmpty {
            let step = max(1, bounded.count / 1024)
            var sample = stride(from: 0, to: bounded.count, by: step).map { bounded[$0].trail - bounded[$0].lead }
            sample.sort()
            let (low, high) = bounded.reduce((Double.infinity, -Double.infinity)) { (min($0.0, $1.lead), max($0.1, $1.trail)) }
            unit = max(2 * sample[(sample.count - 1) * 9 / 10], (high - low) / Double(bounded.count))
        }
        if !(unit > 0 && unit.isFinite) { unit = .infinity }  // one class
        var classOf = [UInt8](repeating: 0, count: bounded.count)
        var members = [Int](repeating: 0, count: classCount)
        for i in bounded.indices {
            let length = bounded[i].trail - bounded[i].lead
            var c = 0, limit = unit
            while c < classCount - 1 && length > limit {
                c += 1
                limit *= 8
            }
            classOf[i] = UInt8(c)
            members[c] += 1
        }
        if members[0] == bounded.count {
            classes = bounded.isEmpty ? [] : [SizeClass(sorting: consume bounded)]
        } else {
            var split = members.map { [Entry](unsafeUninitializedCapacity: $0) { _, count in count = 0 } }
            for i in bounded.indices { split[Int(classOf[i])].append(bounded[i]) }
            var classes: [SizeClass] = []
            for c in split.indices where !split[c].isEmpty {
                var entries: [Entry] = []
                swap(&entries, &split[c])  // the only reference, so the sort is in place
                classes.append(SizeClass(sorting: consume entries))
            }
            self.classes = classes
        }
    }

    /// The positions of the elements whose frame strictly overlaps `rect`, ascending.
    public func elementIndices(in rect: Rect) -> [Int] {
        map(in: rect) { Int($0) }
    }

    /// `transform` of each position meeting `rect`, ascending, in a new array.
    @inline(__always)
    func map<T>(in rect: Rect, _ transform: (Int32) -> T) -> [T] {
        withElementPositions(in: rect) { found in
            Array(unsafeUninitializedCapacity: found.count) { out, count in
                for j in found.indices { (out.baseAddress! + j).initialize(to: transform(found[j])) }
                count = found.count
            }
        }
    }

    /// Calls `body` with each position of `elementIndices(in:)`, ascending; no allocation up to 256.
    public func forEachElementIndex(in rect: Rect, _ body: (Int) throws -> Void) rethrows {
        try withElementPositions(in: rect) { found in
            for position in found { try body(Int(position)) }
        }
    }

    /// A rect's edges along and across the axis, and the test of `Rect.intersects`.
    struct Edges {
        let near: Double, far: Double, crossNear: Double, crossFar: Double

        @inline(__always)
        init(_ rect: Rect, _ axis: ScrollDirection) {
            let vertical = axis == .vertical
            near = vertical ? rect.minY : rect.minX
            far = vertical ? rect.maxY : rect.maxX
            crossNear = vertical ? rect.minX : rect.minY
            crossFar = vertical ? rect.maxX : rect.maxY
        }

        /// 1 when an entry of a run (which starts before `far`) meets the rect, else 0.
        @inline(__always)
        func meetsInRun(_ e: Entry) -> Int {
            (near < e.trail ? 1 : 0) & (e.crossMin < crossFar ? 1 : 0) & (crossNear < e.crossMax ? 1 : 0)
        }
    }

    /// Calls `body` with the positions meeting `rect`, ascending, in a buffer valid during the
    /// call: on the stack for runs of up to 256 entries (1 KiB), else on the heap.
    @inline(__always)
    func withElementPositions<R>(in rect: Rect, _ body: (UnsafeBufferPointer<Int32>) throws -> R) rethrows -> R {
        let edges = Edges(rect, axis)
        // The positions meeting the rect, written unordered then sorted; `nil` when the runs do not fit.
        func gather(_ buffer: UnsafeMutableBufferPointer<Int32>) throws -> R? {
            var count = 0
            for c in classes {
                let start = c.runStart(near: edges.near), end = c.runEnd(from: start, far: edges.far)
                guard end - start <= buffer.count - count else { return nil }
                c.entries.withUnsafeBufferPointer { entries in
                    // Branch-free: every entry is written, and kept when it meets the rect.
                    for k in start..<end {
                        let e = entries[k]
                        buffer[count] = e.element
                        count += edges.meetsInRun(e)
                    }
                }
            }
            guard unbounded.count <= buffer.count - count else { return nil }
            for e in unbounded {
                buffer[count] = e.element
                count += (e.lead < edges.far ? 1 : 0) & edges.meetsInRun(e)
            }
            let found = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
            Self.sortAscending(found)
            return try body(UnsafeBufferPointer(found))
        }
        if let answer = try withUnsafeTemporaryAllocation(of: Int32.self, capacity: 256, gather) {
            return answer
        }
        // Longer runs: a heap buffer that holds them all.
        var capacity = unbounded.count
        for c in classes {
            let start = c.runStart(near: edges.near)
            capacity += c.runEnd(from: start, far: edges.far) - start
        }
        var heap = [Int32](repeating: 0, count: capacity)
        return try heap.withUnsafeMutableBufferPointer { try gather($0)! }
    }

    /// Sorts distinct positions: by a bitmap of their stretch when it is short (one register up
    /// to 64, up to 4,096 on the stack), in O(k + stretch/64); else by an ordinary sort.
    @inline(__always)
    private static func sortAscending(_ buffer: UnsafeMutableBufferPointer<Int32>) {
        guard buffer.count > 1 else { return }
        var low = buffer[0], high = buffer[0]
        for p in buffer {
            low = min(low, p)
            high = max(high, p)
        }
        let stretch = Int(high) - Int(low)
        if stretch < 64 {
            var word: UInt64 = 0
            for p in buffer { word |= 1 << UInt64(p - low) }
            for j in buffer.indices {
                buffer[j] = low + Int32(word.trailingZeroBitCount)
                word &= word - 1
            }
            return
        }
        let words = stretch / 64 + 1
        guard words <= 64, words <= buffer.count else {
            var b = buffer
            b.sort()
            return
        }
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) { bits in
            for w in 0..<words { bits[w] = 0 }
            for p in buffer {
                let offset = Int(p - low)
                bits[offset >> 6] |= 1 << UInt64(offset & 63)
            }
            var j = 0
            for w in 0..<words {
                var word = bits[w]
                while word != 0 {
                    buffer[j] = low + Int32(w * 64 + word.trailingZeroBitCount)
                    j += 1
                    word &= word - 1
                }
            }
        }
    }
}
