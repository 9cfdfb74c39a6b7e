// UICollectionViewCompositionalLayout without UIKit: sections of groups of items sized by
// fractions, absolute lengths and estimates, orthogonal rows, boundary items that pin,
// badges and section backgrounds, with UIKit's semantics as the reference states them
// (docs/REFERENCE.md, `### compositional`). The description types are in
// CompositionalModel.swift, one layout pass in CompositionalRun.swift.

// MARK: - The engine

/// `UICollectionViewCompositionalLayout` from a `CompositionalDescription`, every frame as
/// UIKit gives it under the semantics docs/REFERENCE.md states (`### compositional`).
///
/// Vertical scrolling (horizontal is the same with the axes exchanged):
/// - A section's variants are resolved against the bounds first.
/// - A section's top-level group resolves width fractions against the bounds width less the
///   section's leading and trailing insets, height fractions against the bounds height less
///   its top and bottom insets; a group's subitems against the group's size less its content
///   insets, from the inset corner. `fractionalWidth` as a height is a fraction of the width.
///   The top-level group's edge spacing lies around each of its copies.
/// - A `.fit` group takes the largest n such that n subitems (cyclically), every fraction
///   resolved in the group's whole inner size, plus their edge spacing and the n−1 spacings,
///   fit in the length (1e-9 tolerance). `.count(n)` slots are each (length − (n−1)·spacing)/n;
///   `.repeating(n)` copies keep their own size. Flexible spacings (inter-item and edge)
///   share the room left equally.
/// - An item's frame is its slot less its content insets (not on an estimated axis),
///   standardised when the insets are larger than the slot.
/// - Groups stack with `interGroupSpacing`, sections with `interSectionSpacing`; a section's
///   last, partial group is trimmed to its items' reach plus what a whole group leaves after
///   its furthest item. Orthogonal sections lay their groups in one row at `orthogonalOffset`.
/// - Element order: the layout's boundary items, then section by section its boundary items,
///   cells, supplementary items (group by group: the groups', then the items'), decorations.
///   A badge has its item's index path, a group's supplementary item its first item's.
///
/// With `scale` (`--scale`), the exact layout's every frame has its origin and its size each
/// rounded to the nearest 1/scale, halves away from zero (as measured on a device); the
/// content size is not rounded.
///
/// On 390 × 844, one section of 3 items in a horizontal group of `fractionalWidth(1)` ×
/// `absolute(44)` holding `fractionalWidth(0.5)` × `fractionalHeight(1)` items: cells
/// (0, 0, 195, 44), (195, 0, 195, 44), (0, 44, 195, 44); the last group is trimmed to 44
/// (it is full along the scroll axis); content size 390 × 88.
public struct CompositionalLayout: CollectionLayoutEngine, Equatable {
    /// The engine's name in layouts and on the command line.
    public static let name = "compositional"

    /// The screen scale whose pixels UIKit rounds to (`--scale`), finite and > 0; `nil`: exact.
    public var scale: Double?
    /// The slack of the fit rule, points: items fit when they take at most the length plus this.
    /// Finite, ≥ 0. Default 1e-9.
    public var tolerance = 1e-9

    /// Measured sizes for self-sizing (`--sizes`); `nil`: every estimate is used as given.
    /// With them, a section's top-level group whose length along the scroll axis is estimated
    /// takes, copy by copy, its items' furthest reach plus its trailing content inset.
    public var measuredSizes: CompositionalMeasuredSizes?

    /// Creates an exact layout with the default tolerance.
    public init() {}

    /// Creates a layout, exact (`nil`) or rounding to `scale`.
    public init(scale: Double?) {
        self.scale = scale
    }

    /// The zIndex added to a boundary item's own while it is pinned (moved by pinning).
    public static let pinnedZIndex = 1_000_000_000

    /// Groups nest at most this deep (a group of items is 1 deep).
    public static let maximumNestingDepth = 32

    /// Lays out `description` in a view of `bounds` (points) scrolled to `contentOffset` (which
    /// pins boundary items), sending every element to `sink` in element order.
    ///
    /// - Returns: the content size (the bounds width, or the widest group when wider, by the
    ///   sum of the sections; exchanged when scrolling horizontally), one cell range per
    ///   section, and the scroll direction.
    /// - Throws: `LayoutError.invalidParameter` for bounds, a scale or a tolerance that is not
    ///   finite and ≥ 0 (a scale > 0), or groups nested deeper than 32; `.tooManyElements` past 10,000,000 elements.
    /// - Complexity: O(n + Σ over distinct groups of their slots) for n elements: a section's
    ///   group is solved once and repeated.
    @_specialize(exported: true, where Sink == ElementBlocks)
    @_specialize(exported: true, where Sink == [LayoutAttributes])
    @_specialize(exported: true, where Sink == FiniteCheckSink)
    public func layout<Sink: LayoutAttributesSink>(_ description: CompositionalDescription, bounds: Size,
                                                    contentOffset: Point = Point(x: 0, y: 0),
                                                    into sink: inout Sink) throws -> CollectionLayout {
        for (name, v) in [("width", bounds.width), ("height", bounds.height)] where !(v.isFinite && v >= 0) {
            throw LayoutError.invalidParameter(name: name, section: nil, value: v, requirement: .finiteNonNegative)
        }
        if let scale, !(scale.isFinite && scale > 0) {
            throw LayoutError.invalidParameter(name: "scale", section: nil, value: scale, requirement: .finitePositive)
        }
        if !(tolerance.isFinite && tolerance >= 0) {
            throw LayoutError.invalidParameter(name: "tolerance", section: nil, value: tolerance, requirement: .finiteNonNegative)
        }
        var description = description
        if description.sections.contains(where: { !$0.variants.isEmpty }) {
            description.sections = description.sections.map { $0.resolvingVariants(in: bounds) }
        }
        for (s, section) in description.sections.enumerated() where section.group.depth > Self.maximumNestingDepth {
            throw LayoutError.invalidParameter(name: "group", section: s, value: Double(section.group.depth),
                                               requirement: .integer(atLeast: 1))
        }
        let horizontal = description.scrollDirection == .horizontal
        var engine = self
        if horizontal { engine.measuredSizes = measuredSizes?.transposed() }
        var run = Run(layout: engine, description: horizontal ? description.transposed() : description,
                      bounds: horizontal ? Size(width: bounds.height, height: bounds.width) : bounds,
                      offset: horizontal ? Point(x: contentOffset.y, y: contentOffset.x) : contentOffset,
                      transposes: horizontal)
        let content = try run.layout(into: &sink)
        return CollectionLayout(engine: Self.name, bounds: bounds, contentOffset: contentOffset,
                                contentSize: horizontal ? Size(width: content.height, height: content.width) : content,
                                elements: [], cellRanges: run.cellRanges, scrollDirection: description.scrollDirection)
    }

    // MARK: - Rounding

    /// A position or length rounded to the nearest 1/scale, halves away from zero (`-0` as 0).
    @inline(__always)
    func rounded(_ v: Double) -> Double {
        guard let scale else { return v }
        let r = (v * scale).rounded(.toNearestOrAwayFromZero) / scale
        return r == 0 ? 0 : r
    }

    /// `dimension` resolved in a container of `width` × `height`.
    @inline(__always)
    func resolve(_ dimension: CompositionalDimension, width: Double, height: Double) -> Double {
        switch dimension {
        case .fractionalWidth(let f): return f * width
        case .fractionalHeight(let f): return f * height
        case .absolute(let v), .estimated(let v): return v
        }
    }

    func resolve(_ size: CompositionalSize, width: Double, height: Double) -> Size {
        Size(width: resolve(size.width, width: width, height: height), height: resolve(size.height, width: width, height: height))
    }
}

// MARK: - Solving groups

/// A group or item resolved at one size. A group's slots are periodic (every copy of a
/// subitem has the same size and the same spacing around it), so they are kept as one
/// cycle: slot i is at `cycle[i % d]` moved `period · (i / d)` along the group's axis, for
/// d distinct subitems. Memory is O(d) whatever the count.
final class CompositionalNode {
    /// The item (`nil` for a group).
    let item: CompositionalItem?
    /// Index of the item in the section's item table (for its badges); −1 before it has one.
    var itemID: Int32 = -1
    /// The resolved size (the slot's, for an item).
    let size: Size
    /// Slots the group holds.
    var slotCount = 0
    /// Where the first copy of each distinct subitem lies, relative to the group.
    var cycle: [Point] = []
    /// How far a whole cycle moves along the axis, points.
    var period = 0.0
    /// Whether the group's axis is horizontal.
    var horizontal = true
    /// One node per distinct subitem.
    var children: [CompositionalNode] = []
    /// Items it holds, saturating at 2⁶⁰.
    var leafCount = 0
    /// How far its items' slots reach from its origin (x, y); 0, 0 without items.
    var reach = Point(x: 0, y: 0)
    /// A group's own supplementary items.
    var groupBadges: [CompositionalSupplementaryItem] = []

    init(item: CompositionalItem?, size: Size) {
        self.item = item
        self.size = size
        if item != nil {
            leafCount = 1
            reach = Point(x: size.width, y: size.height)
        }
    }

    /// The origin of slot `i`, relative to the group.
    @inline(__always)
    func origin(ofSlot i: Int) -> Point {
        let d = cycle.count
        var p = cycle[i % d]
        let shift = period * Double(i / d)
        if horizontal { p.x += shift } else { p.y += shift }
        return p
    }
}

extension CompositionalLayout {
    /// Solves `group` at `size`; a `subitems` group holds at most `cap` subitems.
    /// - Complexity: O(n·m) for the fit rule (n subitems taken, m listed; O(m log cap) when no
    ///   length along the axis depends on n), plus the nested groups, each solved once.
    func solve(_ group: CompositionalGroup, size: Size, cap: Int) -> CompositionalNode {
        let node = CompositionalNode(item: nil, size: size)
        node.groupBadges = group.supplementaryItems
        let ins = group.contentInsets
        let innerW = size.width - ins.left - ins.right, innerH = size.height - ins.top - ins.bottom
        let horizontal = group.axis == .horizontal
        node.horizontal = horizontal
        let length = horizontal ? innerW : innerH
        let cross = horizontal ? innerH : innerW
        let spacing = group.interItemSpacing.minimum
        func along(_ s: Size) -> Double { horizontal ? s.width : s.height }
        func across(_ s: Size) -> Double { horizontal ? s.height : s.width }
        func edgeMin(_ e: CompositionalEdgeSpacing) -> (lead: Double, trail: Double) {
            horizontal ? (e.leading?.minimum ?? 0, e.trailing?.minimum ?? 0) : (e.top?.minimum ?? 0, e.bottom?.minimum ?? 0)
        }
        /// A subitem's size in a container whose length along the axis is `containerLength`.
        func sizeOf(_ subitem: CompositionalSubitem, containerLength: Double) -> Size {
            horizontal ? resolve(subitem.size, width: containerLength, height: cross)
                : resolve(subitem.size, width: cross, height: containerLength)
        }
        var n = 0
        var sizes: [Size] = []
        let m = group.subitems.count
        switch group.repetition {
        case .count(let k):
            let slot = (length - Double(k - 1) * spacing) / Double(k)
            var s = sizeOf(group.subitems[0], containerLength: length)
            if horizontal { s.width = slot } else { s.height = slot }
            sizes = [s]
            n = k
        case .repeating(let k):
            sizes = [sizeOf(group.subitems[0], containerLength: length)]
            n = k
        case .fit:
            guard m > 0 else { break }
            let edges = group.subitems.map { edgeMin($0.edgeSpacing) }
            /// What `count` subitems of `trial` sizes and their spacing take along the axis.
            func used(_ count: Int, _ trial: [Size]) -> Double {
                let cycles = count / m, rest = count % m
                var total = Double(count - 1) * spacing
                for k in 0..<m {
                    let copies = Double(cycles + (k < rest ? 1 : 0))
                    if copies > 0 { total += copies * (along(trial[k]) + edges[k].lead + edges[k].trail) }
                }
                return total
            }
            // Every length resolves in the group's whole inner size, so `used` never decreases
            // as the count grows: the largest n that fits, by bisection.
            let fixed = group.subitems.map { sizeOf($0, containerLength: length) }
            guard used(1, fixed) <= length + tolerance else { break }
            var low = 1, high = cap
            while low < high {
                let mid = low + (high - low + 1) / 2
                if used(mid, fixed) <= length + tolerance { low = mid } else { high = mid - 1 }
            }
            n = low
            sizes = fixed
        }
        guard n > 0 else { return node }
        // Children: one per distinct subitem.
        let distinct = min(group.repetition == .fit ? m : 1, n)
        node.children = (0..<distinct).map { k in
            switch group.subitems[k] {
            case .item(let item): return CompositionalNode(item: item, size: sizes[k])
            case .group(let inner): return solve(inner, size: sizes[k], cap: cap)
            }
        }
        // Room left along the axis, shared by the flexible spacings.
        var usedLength = Double(n - 1) * spacing
        var flexibleCount = group.interItemSpacing.isFlexible ? n - 1 : 0
        for k in 0..<distinct {
            let copies = n / distinct + (k < n % distinct ? 1 : 0)
            let e = group.subitems[k].edgeSpacing
            let (lead, trail) = edgeMin(e)
            usedLength += Double(copies) * (along(sizes[k]) + lead + trail)
            let flexLead = horizontal ? e.leading?.isFlexible ?? false : e.top?.isFlexible ?? false
            let flexTrail = horizontal ? e.trailing?.isFlexible ?? false : e.bottom?.isFlexible ?? false
            flexibleCount += copies * ((flexLead ? 1 : 0) + (flexTrail ? 1 : 0))
        }
        let share = flexibleCount > 0 && length - usedLength > 0 ? (length - usedLength) / Double(flexibleCount) : 0
        // One cycle of slots.
        var position = 0.0
        node.cycle.reserveCapacity(distinct)
        for k in 0..<distinct {
            let e = group.subitems[k].edgeSpacing
            let s = sizes[k]
            let leadSpacing = horizontal ? e.leading : e.top, trailSpacing = horizontal ? e.trailing : e.bottom
            let crossLead = horizontal ? e.top : e.leading, crossTrail = horizontal ? e.bottom : e.trailing
            position += (leadSpacing?.minimum ?? 0) + (leadSpacing?.isFlexible == true ? share : 0)
            // Across the axis: the edge spacing's minimums, flexible ones sharing the room left.
            let crossRoom = cross - across(s) - (crossLead?.minimum ?? 0) - (crossTrail?.minimum ?? 0)
            let crossFlexible = (crossLead?.isFlexible == true ? 1 : 0) + (crossTrail?.isFlexible == true ? 1 : 0)
            let crossShare = crossFlexible > 0 && crossRoom > 0 ? crossRoom / Double(crossFlexible) : 0
            let crossPosition = (crossLead?.minimum ?? 0) + (crossLead?.isFlexible == true ? crossShare : 0)
            node.cycle.append(horizontal ? Point(x: ins.left + position, y: ins.top + crossPosition)
                                         : Point(x: ins.left + crossPosition, y: ins.top + position))
            position += along(s) + (trailSpacing?.minimum ?? 0) + (trailSpacing?.isFlexible == true ? share : 0)
            position += spacing + (group.interItemSpacing.isFlexible ? share : 0)
        }
        node.period = position
        node.slotCount = n
        node.countLeavesAndReach()
        return node
    }
}

extension CompositionalNode {
    /// Sets a solved group's `leafCount` (saturating at 2⁶⁰) and `reach` from its children,
    /// `cycle`, `period` and `slotCount`: a subitem's copies lie on a line along the axis, so
    /// its furthest is its first or its last.
    /// - Complexity: O(distinct subitems).
    func countLeavesAndReach() {
        let n = slotCount, distinct = children.count
        var leaves = 0
        var reachX = 0.0, reachY = 0.0
        for k in 0..<distinct {
            let child = children[k]
            let copies = n / distinct + (k < n % distinct ? 1 : 0)
            guard copies > 0, child.leafCount > 0 else { continue }
            let (product, overflow) = child.leafCount.multipliedReportingOverflow(by: copies)
            leaves = overflow ? 1 << 60 : min(1 << 60, leaves + product)
            let first = cycle[k]
            let lastShift = period * Double(copies - 1)
            if horizontal {
                reachX = max(reachX, first.x + max(0, lastShift) + child.reach.x)
                reachY = max(reachY, first.y + child.reach.y)
            } else {
                reachX = max(reachX, first.x + child.reach.x)
                reachY = max(reachY, first.y + max(0, lastShift) + child.reach.y)
            }
        }
        leafCount = leaves
        reach = Point(x: reachX, y: reachY)
    }
}

/// A group's supplementary items and the group's frame, relative to the top-level group's origin.
struct CompositionalGroupBadges {
    /// The group's frame.
    var frame: Rect
    /// The group's first item, in the top-level group's items: the items' index path.
    var firstLeaf: Int
    /// The supplementary items.
    var badges: [CompositionalSupplementaryItem]
    /// Whether the group is the section's top-level group.
    var topLevel: Bool
}

/// An item of a solved group, relative to the group's origin.
struct CompositionalLeaf {
    /// The item's frame (its slot less its content insets).
    var frame: Rect
    /// The far edges of its slot.
    var slotMaxX: Double, slotMaxY: Double
    /// Its item, in the section's item table.
    var itemID: Int32
}

extension CompositionalLayout {
    /// The first `limit` items of `node` placed at `origin`, appended to `leaves`; each new item
    /// is added to `items`.
    /// - Complexity: O(limit · depth), plus the slots of subitems holding no items.
    func flatten(_ node: CompositionalNode, at origin: Point, limit: Int, into leaves: inout [CompositionalLeaf],
                 items: inout [CompositionalItem], groups: inout [CompositionalGroupBadges], topLevel: Bool = true) {
        if let item = node.item {
            let s = node.size
            let ins = item.contentInsets
            let l = item.size.width.isEstimated ? 0 : ins.left, r = item.size.width.isEstimated ? 0 : ins.right
            let t = item.size.height.isEstimated ? 0 : ins.top, b = item.size.height.isEstimated ? 0 : ins.bottom
            let x0 = origin.x + l, x1 = origin.x + s.width - r
            let y0 = origin.y + t, y1 = origin.y + s.height - b
            if node.itemID < 0 {
                node.itemID = Int32(items.count)
                items.append(item)
            }
            leaves.append(CompositionalLeaf(frame: Rect(minX: min(x0, x1), minY: min(y0, y1), maxX: max(x0, x1), maxY: max(y0, y1)),
                                            slotMaxX: origin.x + s.width, slotMaxY: origin.y + s.height,
                                            itemID: node.itemID))
            return
        }
        guard node.leafCount > 0 else { return }
        // A group's own supplementary items, before those of the groups in it (kept when it holds an item).
        let first = leaves.count
        if !node.groupBadges.isEmpty {
            groups.append(CompositionalGroupBadges(frame: Rect(x: origin.x, y: origin.y, width: node.size.width,
                                                               height: node.size.height),
                                                   firstLeaf: first, badges: node.groupBadges, topLevel: topLevel))
        }
        let recorded = groups.count
        for i in 0..<node.slotCount {
            if leaves.count >= limit { break }
            let child = node.children[i % node.children.count]
            if child.leafCount == 0 { continue }
            let slot = node.origin(ofSlot: i)
            flatten(child, at: Point(x: origin.x + slot.x, y: origin.y + slot.y), limit: limit, into: &leaves, items: &items,
                    groups: &groups, topLevel: false)
        }
        if !node.groupBadges.isEmpty && leaves.count == first { groups.remove(at: recorded - 1) }
    }
}
