// One pass of the compositional engine: the sections laid out in order, their groups
// repeated and fitted, boundary items, badges and decorations placed (CompositionalLayout.swift
// holds the engine and the solving of groups).

// MARK: - One run

/// The state of one layout pass (vertical scrolling; transposed on output when horizontal).
struct Run {
    let layout: CompositionalLayout
    let description: CompositionalDescription
    let bounds: Size
    let offset: Point
    let transposes: Bool
    var cellRanges: [(start: Int, count: Int)] = []

    /// The element as output: standardised (a boundary item or badge whose resolved width
    /// is negative, in bounds narrower than its insets, runs from its origin back: its frame
    /// is the positive one over the same span, as items' and decorations' are), then its
    /// origin and size each rounded to a pixel (with a scale), transposed back when
    /// scrolling horizontally.
    @inline(__always)
    func output(_ category: ElementCategory, _ kind: ElementKind?, section: Int, item: Int, _ frame: Rect, zIndex: Int)
        -> LayoutAttributes {
        var f = frame.size.width < 0 || frame.size.height < 0 ? frame.standardized : frame
        f.origin.x = layout.rounded(f.origin.x)
        f.origin.y = layout.rounded(f.origin.y)
        f.size.width = layout.rounded(f.size.width)
        f.size.height = layout.rounded(f.size.height)
        if transposes {
            f = Rect(x: f.origin.y, y: f.origin.x, width: f.size.height, height: f.size.width)
        }
        return LayoutAttributes(indexPath: IndexPath(item: item, section: section), category: category, kind: kind,
                                frame: f, zIndex: zIndex)
    }

    /// A boundary item placed: its frame and whether pinning moved it.
    struct PlacedBoundary {
        var frame: Rect
        var pinned: Bool
    }

    /// Places `items` on a section whose frame runs from `top` to `bottom` (`contentTop`…
    /// `contentBottom` between the extending items), across `minX`…`maxX`.
    func placeBoundaryItems(_ items: [CompositionalBoundaryItem], sizes: [Size], minX: Double, maxX: Double,
                            top: Double, contentTop: Double, contentBottom: Double, bottom: Double) -> [PlacedBoundary] {
        var natural: [Rect] = []
        for (item, size) in zip(items, sizes) {
            let edges = item.alignment.edges
            let x = edges.contains(.leading) ? minX : edges.contains(.trailing) ? maxX - size.width
                : minX + (maxX - minX - size.width) / 2
            let y: Double
            if edges.contains(.top) {
                y = item.extendsBoundary ? contentTop - size.height : contentTop
            } else if edges.contains(.bottom) {
                y = item.extendsBoundary ? contentBottom : contentBottom - size.height
            } else {
                y = contentTop + (contentBottom - contentTop - size.height) / 2
            }
            natural.append(Rect(x: x + item.absoluteOffset.x, y: y + item.absoluteOffset.y,
                                width: size.width, height: size.height))
        }
        // Pinned headers stop where the first footer starts (else at the section's far edge);
        // pinned footers where the last header ends (else at its near edge).
        let footerStart = zip(items, natural).filter { $0.0.alignment.edges.contains(.bottom) }.map(\.1.minY).min() ?? bottom
        let headerEnd = zip(items, natural).filter { $0.0.alignment.edges.contains(.top) }.map(\.1.maxY).max() ?? top
        return zip(items, natural).map { item, frame in
            guard item.pinsToVisibleBounds else { return PlacedBoundary(frame: frame, pinned: false) }
            var f = frame
            if item.alignment.edges.contains(.top) {
                f.origin.y = max(frame.minY, min(offset.y, footerStart - frame.height))
            } else if item.alignment.edges.contains(.bottom) {
                f.origin.y = min(frame.minY, max(offset.y + bounds.height - frame.height, headerEnd))
            }
            return PlacedBoundary(frame: f, pinned: f.origin.y != frame.origin.y)
        }
    }

    /// Lays out every section; returns the content size (vertical terms).
    /// - Throws: `LayoutError.tooManyElements` past `maximumElementCount` elements (counted
    ///   exactly from the sections' plans, before any is sent).
    mutating func layout<Sink: LayoutAttributesSink>(into sink: inout Sink) throws -> Size {
        let W = bounds.width, H = bounds.height
        // The layout's own boundary items need the content's extent first: a pass without output.
        let globalItems = description.boundarySupplementaryItems
        var globalCounts: [ElementKind: Int] = [:]
        let globalSizes = globalItems.map { item in
            let k = globalCounts[item.kind, default: 0]
            globalCounts[item.kind] = k + 1
            return item.size.applying(layout.measuredSizes?.size(item.kind, section: 0, item: k),
                                      to: layout.resolve(item.size, width: W, height: H))
        }
        let globalTop = zip(globalItems, globalSizes).filter { $0.0.extendsBoundary && $0.0.alignment.edges.contains(.top) }
            .map(\.1.height).max() ?? 0
        let globalBottom = zip(globalItems, globalSizes).filter { $0.0.extendsBoundary && $0.0.alignment.edges.contains(.bottom) }
            .map(\.1.height).max() ?? 0
        var plans: [SectionPlan] = []
        var y = globalTop
        var widest = W
        for (s, section) in description.sections.enumerated() {
            if s > 0 { y += description.interSectionSpacing }
            let plan = SectionPlan(layout: layout, section: section, bounds: bounds, top: y, index: s)
            if !plan.orthogonal { widest = max(widest, plan.groupSize.width) }
            plans.append(plan)
            y = plan.bottom
        }
        let contentBottom = y
        if let sizes = layout.measuredSizes {
            try Self.check(sizes, plans: plans, globalCounts: globalCounts)
        }
        var total = globalItems.count
        for plan in plans {
            total += plan.elementCount
            if total > maximumElementCount {
                throw LayoutError.tooManyElements(count: total, limit: maximumElementCount)
            }
        }
        sink.prepare(count: total)
        let contentHeight = contentBottom + globalBottom
        if !globalItems.isEmpty {
            let placed = placeBoundaryItems(globalItems, sizes: globalSizes, minX: 0, maxX: W, top: 0, contentTop: globalTop,
                                            contentBottom: contentBottom, bottom: contentHeight)
            var counts: [ElementKind: Int] = [:]
            for (item, p) in zip(globalItems, placed) {
                let k = counts[item.kind, default: 0]
                counts[item.kind] = k + 1
                sink.append(output(.supplementaryView, item.kind, section: 0, item: k, p.frame,
                                   zIndex: p.pinned ? CompositionalLayout.pinnedZIndex + item.zIndex : item.zIndex))
            }
        }
        for (s, plan) in plans.enumerated() {
            emit(plan, section: s, into: &sink)
        }
        return Size(width: widest, height: contentHeight)
    }

    /// Throws for the first measured size (by section, item, kind) that names no element.
    static func check(_ sizes: CompositionalMeasuredSizes, plans: [SectionPlan], globalCounts: [ElementKind: Int]) throws {
        let keys = sizes.sizes.keys.sorted {
            ($0.indexPath, $0.kind?.rawValue ?? "") < ($1.indexPath, $1.kind?.rawValue ?? "")
        }
        for key in keys {
            let s = key.indexPath.section, i = key.indexPath.item
            guard s >= 0, i >= 0 else { throw LayoutError.unknownMeasurement(key: key.text) }
            if let kind = key.kind, s == 0, i < globalCounts[kind, default: 0] { continue }
            guard s < plans.count, plans[s].names(kind: key.kind, item: i) else {
                throw LayoutError.unknownMeasurement(key: key.text)
            }
        }
    }

    /// Sends a section's elements to `sink`.
    mutating func emit<Sink: LayoutAttributesSink>(_ plan: SectionPlan, section s: Int, into sink: inout Sink) {
        let section = plan.section
        let placed = placeBoundaryItems(section.boundarySupplementaryItems, sizes: plan.boundarySizes, minX: plan.boundaryMinX,
                                        maxX: plan.boundaryMaxX, top: plan.top, contentTop: plan.contentTop,
                                        contentBottom: plan.contentBottom, bottom: plan.bottom)
        var counts: [ElementKind: Int] = [:]
        for (item, p) in zip(section.boundarySupplementaryItems, placed) {
            let k = counts[item.kind, default: 0]
            counts[item.kind] = k + 1
            sink.append(output(.supplementaryView, item.kind, section: s, item: k, p.frame,
                               zIndex: p.pinned ? CompositionalLayout.pinnedZIndex + item.zIndex : item.zIndex))
        }
        let cellZ = section.decorationItems.isEmpty ? 0 : 1
        let start = sink.count
        plan.forEachCell { item, leaf, frame in
            sink.append(output(.cell, nil, section: s, item: item, frame, zIndex: cellZ))
        }
        cellRanges.append((start: start, count: sink.count - start))
        if plan.hasBadges || !plan.groupBadges.isEmpty {
            // Group by group: its groups' supplementary items (at their first item's index
            // path), then its items' badges item by item (at their item's).
            for g in 0..<plan.groups {
                let origin = plan.groupOrigin(g)
                let base = g * plan.perGroup
                let n = min(plan.leaves.count, section.count - base)
                for group in plan.groupBadges where group.firstLeaf < n {
                    var frame = group.frame
                    frame.origin.x += origin.x
                    frame.origin.y += origin.y
                    if group.topLevel, let length = plan.groupLength(g) { frame.size.height = length }
                    for badge in group.badges {
                        let measured = layout.measuredSizes?.size(badge.kind, section: s, item: base + group.firstLeaf)
                        sink.append(output(.supplementaryView, badge.kind, section: s, item: base + group.firstLeaf,
                                           Self.badgeFrame(badge, on: frame, layout: layout, measured: measured), zIndex: badge.zIndex))
                    }
                }
                guard plan.hasBadges else { continue }
                for j in 0..<n {
                    let leaf = plan.leaves[j]
                    var frame = plan.cellFrame(leaf, item: base + j)
                    frame.origin.x += origin.x
                    frame.origin.y += origin.y
                    for badge in plan.items[Int(leaf.itemID)].supplementaryItems {
                        let measured = layout.measuredSizes?.size(badge.kind, section: s, item: base + j)
                        sink.append(output(.supplementaryView, badge.kind, section: s, item: base + j,
                                           Self.badgeFrame(badge, on: frame, layout: layout, measured: measured), zIndex: badge.zIndex))
                    }
                }
            }
        }
        if plan.hasSize {
            var decorationCounts: [ElementKind: Int] = [:]
            for decoration in section.decorationItems {
                let k = decorationCounts[decoration.kind, default: 0]
                decorationCounts[decoration.kind] = k + 1
                let ins = decoration.contentInsets
                let x0 = ins.left, x1 = bounds.width - ins.right
                let y0 = plan.top + ins.top, y1 = plan.bottom - ins.bottom
                let frame = Rect(minX: min(x0, x1), minY: min(y0, y1), maxX: max(x0, x1), maxY: max(y0, y1))
                sink.append(output(.decorationView, decoration.kind, section: s, item: k, frame, zIndex: decoration.zIndex))
            }
        }
    }

    /// A badge's frame on an item's `frame`: the container anchor's point on the frame plus its
    /// offset, less the item anchor's point on the badge plus its offset.
    static func badgeFrame(_ badge: CompositionalSupplementaryItem, on frame: Rect, layout: CompositionalLayout,
                           measured: Size? = nil) -> Rect {
        let size = badge.size.applying(measured, to: layout.resolve(badge.size, width: frame.width, height: frame.height))
        func point(_ anchor: CompositionalAnchor, in rect: Rect) -> Point {
            let e = anchor.edges
            let x = e.contains(.leading) ? rect.minX : e.contains(.trailing) ? rect.maxX : rect.midX
            let y = e.contains(.top) ? rect.minY : e.contains(.bottom) ? rect.maxY : rect.midY
            let dx = anchor.isFractional ? anchor.offset.x * size.width : anchor.offset.x
            let dy = anchor.isFractional ? anchor.offset.y * size.height : anchor.offset.y
            return Point(x: x + dx, y: y + dy)
        }
        let container = point(badge.containerAnchor, in: frame)
        let itemAnchor = badge.itemAnchor ?? CompositionalAnchor(edges: badge.containerAnchor.edges)
        let onBadge = point(itemAnchor, in: Rect(x: 0, y: 0, width: size.width, height: size.height))
        return Rect(x: container.x - onBadge.x, y: container.y - onBadge.y, width: size.width, height: size.height)
    }
}

/// A section's geometry, computed before any of its elements is sent.
struct SectionPlan {
    let layout: CompositionalLayout
    let section: CompositionalSection
    let orthogonal: Bool
    /// The top-level group's size.
    var groupSize = Size(width: 0, height: 0)
    /// The first min(count, group's items) items of one group.
    var leaves: [CompositionalLeaf] = []
    /// The items of `leaves`, by `itemID`.
    var items: [CompositionalItem] = []
    var hasBadges = false
    /// The supplementary items of the top-level group and the groups in it, pre-order.
    var groupBadges: [CompositionalGroupBadges] = []
    /// Items per whole group, groups, and the last group's length along its stacking axis.
    var perGroup = 0, groups = 0
    var lastLength = 0.0
    /// Where the groups start, the orthogonal row's scroll position, and the distance from
    /// one group to the next along the section's axis (the top-level group's edge spacing included).
    var firstGroup = Point(x: 0, y: 0)
    var rowOffset = 0.0
    var step = 0.0
    /// The section's extent along the scroll axis.
    var top: Double, contentTop = 0.0, contentBottom = 0.0, bottom = 0.0
    var hasSize = true
    var boundarySizes: [Size] = []
    var boundaryMinX = 0.0, boundaryMaxX = 0.0
    /// The section's index, for measured sizes.
    let index: Int
    /// Whether some cell of the section has a measured size.
    var measuresCells = false
    /// With measured sizes and a top-level group estimated along the scroll axis: where each
    /// copy starts (from the first) and how long it is; empty otherwise.
    var groupStarts: [Double] = []
    var groupLengths: [Double] = []

    init(layout: CompositionalLayout, section: CompositionalSection, bounds: Size, top: Double, index: Int = 0) {
        self.layout = layout
        self.section = section
        self.top = top
        self.index = index
        let W = bounds.width, H = bounds.height
        let ins = section.contentInsets
        orthogonal = section.orthogonalScrollingBehavior != .none
        // Boundary items.
        boundaryMinX = section.supplementariesFollowContentInsets ? ins.left : 0
        boundaryMaxX = section.supplementariesFollowContentInsets ? W - ins.right : W
        var kindCounts: [ElementKind: Int] = [:]
        boundarySizes = section.boundarySupplementaryItems.map { item in
            let k = kindCounts[item.kind, default: 0]
            kindCounts[item.kind] = k + 1
            return item.size.applying(layout.measuredSizes?.size(item.kind, section: index, item: k),
                                      to: layout.resolve(item.size, width: boundaryMaxX - boundaryMinX, height: H))
        }
        let extending = zip(section.boundarySupplementaryItems, boundarySizes).filter { $0.0.extendsBoundary }
        let topExtent = extending.filter { $0.0.alignment.edges.contains(.top) }.map(\.1.height).max() ?? 0
        let bottomExtent = extending.filter { $0.0.alignment.edges.contains(.bottom) }.map(\.1.height).max() ?? 0
        // The group, solved once.
        if section.count > 0 {
            groupSize = orthogonal
                ? layout.resolve(section.group.size, width: W, height: H - ins.top - ins.bottom)
                : layout.resolve(section.group.size, width: W - ins.left - ins.right, height: H - ins.top - ins.bottom)
            let cap = min(maximumElementCount, max(4096, 2 * section.count))
            let node = layout.solve(section.group, size: groupSize, cap: cap)
            perGroup = node.leafCount
            if perGroup > 0 {
                layout.flatten(node, at: Point(x: 0, y: 0), limit: min(perGroup, section.count), into: &leaves, items: &items,
                               groups: &groupBadges)
                groups = (section.count + perGroup - 1) / perGroup
                hasBadges = items.contains { !$0.supplementaryItems.isEmpty }
                let lastCount = section.count - (groups - 1) * perGroup
                if lastCount == perGroup {
                    lastLength = orthogonal ? groupSize.width : groupSize.height
                } else {
                    // Trimmed: its items' reach plus what a whole group leaves after its furthest item.
                    var reach = 0.0
                    for leaf in leaves[0..<lastCount] { reach = max(reach, orthogonal ? leaf.slotMaxX : leaf.slotMaxY) }
                    // Never negative: items that stick out past the group's end leave nothing after them.
                    lastLength = max(0, orthogonal ? reach + (groupSize.width - node.reach.x) : reach + (groupSize.height - node.reach.y))
                }
            }
        }
        hasSize = section.count > 0 || !section.boundarySupplementaryItems.isEmpty
        contentTop = top + topExtent
        measuresCells = groups > 0 && layout.measuredSizes?.measuresCells(inSection: index) == true
        if groups > 0 && !orthogonal && section.group.size.height.isEstimated, layout.measuredSizes != nil {
            // Self-sizing: each copy as long as its items reach, plus its bottom inset.
            let spacing = section.interGroupSpacing + (section.group.edgeSpacing.top?.minimum ?? 0)
                + (section.group.edgeSpacing.bottom?.minimum ?? 0)
            groupStarts.reserveCapacity(groups)
            groupLengths.reserveCapacity(groups)
            var start = 0.0
            for g in 0..<groups {
                let base = g * perGroup
                var reach = 0.0
                for j in 0..<min(leaves.count, section.count - base) {
                    let leaf = leaves[j]
                    let item = items[Int(leaf.itemID)]
                    reach = max(reach, item.size.height.isEstimated ? cellFrame(leaf, item: base + j).maxY : leaf.slotMaxY)
                }
                let length = max(0, reach + section.group.contentInsets.bottom)
                groupStarts.append(start)
                groupLengths.append(length)
                start += length + spacing
            }
        }
        // The top-level group's edge spacing lies around each copy: along the section's axis
        // its minimums, across it as in a group (flexible edges share the room left).
        let e = section.group.edgeSpacing
        let alongLead = orthogonal ? e.leading : e.top, alongTrail = orthogonal ? e.trailing : e.bottom
        let crossLead = orthogonal ? e.top : e.leading, crossTrail = orthogonal ? e.bottom : e.trailing
        let lead = alongLead?.minimum ?? 0, trail = alongTrail?.minimum ?? 0
        let crossRoom = (orthogonal ? 0 : W - ins.left - ins.right - groupSize.width)
            - (crossLead?.minimum ?? 0) - (crossTrail?.minimum ?? 0)
        let crossFlexible = (crossLead?.isFlexible == true ? 1 : 0) + (crossTrail?.isFlexible == true ? 1 : 0)
        let crossShift = (crossLead?.minimum ?? 0)
            + (crossLead?.isFlexible == true && crossRoom > 0 ? crossRoom / Double(crossFlexible) : 0)
        let groupsLength: Double
        if groups == 0 {
            groupsLength = 0
        } else if orthogonal {
            groupsLength = crossShift + groupSize.height + (crossTrail?.minimum ?? 0)
        } else if !groupLengths.isEmpty {
            groupsLength = Double(groups) * (lead + trail) + Double(groups - 1) * section.interGroupSpacing
                + groupLengths.reduce(0, +)
        } else {
            groupsLength = Double(groups) * (lead + trail) + Double(groups - 1) * (groupSize.height + section.interGroupSpacing)
                + lastLength
        }
        contentBottom = hasSize ? contentTop + ins.top + groupsLength + ins.bottom : contentTop
        bottom = contentBottom + bottomExtent
        step = (orthogonal ? groupSize.width : groupSize.height) + lead + trail + section.interGroupSpacing
        firstGroup = orthogonal ? Point(x: ins.left + lead, y: contentTop + ins.top + crossShift)
            : Point(x: ins.left + crossShift, y: contentTop + ins.top + lead)
        if orthogonal && groups > 0 {
            let room = section.orthogonalScrollingBehavior == .groupPagingCentered ? (W - groupSize.width) / 2 : 0
            firstGroup.x = ins.left + room + lead
            let row = ins.left + 2 * room + Double(groups) * (lead + trail)
                + Double(groups - 1) * (groupSize.width + section.interGroupSpacing) + lastLength + ins.right
            rowOffset = min(max(section.orthogonalOffset, 0), max(0, row - W))
        }
    }

    /// The elements the section sends: boundary items, cells, badges, backgrounds.
    var elementCount: Int {
        let cells = groups > 0 ? section.count : 0
        var badges = 0
        if hasBadges && groups > 0 {
            let perLeaf = leaves.map { items[Int($0.itemID)].supplementaryItems.count }
            let lastCount = section.count - (groups - 1) * perGroup
            badges = (groups - 1) * perLeaf.reduce(0, +) + perLeaf.prefix(lastCount).reduce(0, +)
        }
        if groups > 0 {
            let lastCount = section.count - (groups - 1) * perGroup
            for group in groupBadges {
                badges += (groups - 1 + (group.firstLeaf < lastCount ? 1 : 0)) * group.badges.count
            }
        }
        return section.boundarySupplementaryItems.count + cells + badges + (hasSize ? section.decorationItems.count : 0)
    }

    /// The origin of top-level group `g`.
    @inline(__always)
    func groupOrigin(_ g: Int) -> Point {
        if !groupStarts.isEmpty { return Point(x: firstGroup.x, y: firstGroup.y + groupStarts[g]) }
        return orthogonal ? Point(x: firstGroup.x + Double(g) * step - rowOffset, y: firstGroup.y)
            : Point(x: firstGroup.x, y: firstGroup.y + Double(g) * step)
    }

    /// Top-level group `g`'s self-sized length, if the section self-sizes.
    func groupLength(_ g: Int) -> Double? { groupLengths.isEmpty ? nil : groupLengths[g] }

    /// A cell's frame relative to its group: the leaf's, its estimated dimensions replaced by
    /// the measured ones (at the slot's origin: insets are ignored on an estimated axis).
    @inline(__always)
    func cellFrame(_ leaf: CompositionalLeaf, item: Int) -> Rect {
        guard measuresCells, let measured = layout.measuredSizes?.size(nil, section: index, item: item) else { return leaf.frame }
        let size = items[Int(leaf.itemID)].size
        var frame = leaf.frame
        if size.width.isEstimated { frame.size.width = measured.width }
        if size.height.isEstimated { frame.size.height = measured.height }
        return frame
    }

    /// Whether the section has an element of `kind` (a cell when `nil`) at item `i`.
    func names(kind: ElementKind?, item i: Int) -> Bool {
        guard let kind else { return groups > 0 && i < section.count }
        if section.boundarySupplementaryItems.filter({ $0.kind == kind }).count > i { return true }
        guard groups > 0, i < section.count, perGroup > 0 else { return false }
        let j = i % perGroup
        if j < leaves.count, items[Int(leaves[j].itemID)].supplementaryItems.contains(where: { $0.kind == kind }) { return true }
        return groupBadges.contains { $0.firstLeaf == j && $0.badges.contains { $0.kind == kind } }
    }

    /// Calls `body` with each cell's item number, leaf and frame, in item order.
    @inline(__always)
    func forEachCell(_ body: (Int, CompositionalLeaf, Rect) -> Void) {
        guard groups > 0 else { return }
        let count = section.count
        let step = self.step
        if measuresCells || !groupStarts.isEmpty {
            // Self-sizing: measured frames, groups at their own starts.
            var item = 0
            for g in 0..<groups {
                let origin = groupOrigin(g)
                for j in 0..<min(leaves.count, count - item) {
                    var frame = cellFrame(leaves[j], item: item)
                    frame.origin.x += origin.x
                    frame.origin.y += origin.y
                    body(item, leaves[j], frame)
                    item += 1
                }
            }
            return
        }
        var item = 0
        leaves.withUnsafeBufferPointer { leaves in
            for g in 0..<groups {
                let ox = orthogonal ? firstGroup.x + Double(g) * step - rowOffset : firstGroup.x
                let oy = orthogonal ? firstGroup.y : firstGroup.y + Double(g) * step
                let n = min(leaves.count, count - item)
                for j in 0..<n {
                    let leaf = leaves[j]
                    var frame = leaf.frame
                    frame.origin.x += ox
                    frame.origin.y += oy
                    body(item, leaf, frame)
                    item += 1
                }
            }
        }
    }
}
