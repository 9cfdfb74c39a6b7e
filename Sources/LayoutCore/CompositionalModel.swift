// The description of a compositional layout, named as the Swift API names it
// (NSCollectionLayoutDimension, …Size, …Item, …Group, …Section, …BoundarySupplementaryItem,
// …DecorationItem): what `CompositionalLayout` (CompositionalLayout.swift) lays out.

// MARK: - The description

/// A length of a `CompositionalSize` (`NSCollectionLayoutDimension`), points or a fraction.
public enum CompositionalDimension: Equatable, Sendable {
    /// A fraction of the container's width (`fractionalWidth(_:)`); as a height, still of the width.
    case fractionalWidth(Double)
    /// A fraction of the container's height (`fractionalHeight(_:)`).
    case fractionalHeight(Double)
    /// A length in points (`absolute(_:)`).
    case absolute(Double)
    /// An estimate in points (`estimated(_:)`), used as the length; content insets on an
    /// estimated axis are ignored.
    case estimated(Double)

    /// Whether this is an estimate.
    public var isEstimated: Bool {
        if case .estimated = self { return true }
        return false
    }

    /// The same dimension with width and height exchanged (for horizontal scrolling).
    func transposed() -> CompositionalDimension {
        switch self {
        case .fractionalWidth(let f): return .fractionalHeight(f)
        case .fractionalHeight(let f): return .fractionalWidth(f)
        default: return self
        }
    }
}

/// A width and a height (`NSCollectionLayoutSize`).
public struct CompositionalSize: Equatable, Sendable {
    /// `widthDimension`.
    public var width: CompositionalDimension
    /// `heightDimension`.
    public var height: CompositionalDimension

    /// Creates a size.
    public init(width: CompositionalDimension, height: CompositionalDimension) {
        self.width = width
        self.height = height
    }

    func transposed() -> CompositionalSize { CompositionalSize(width: height.transposed(), height: width.transposed()) }
}

/// A spacing (`NSCollectionLayoutSpacing`): fixed, or flexible with a minimum (flexible
/// spacings share the room left over equally).
public enum CompositionalSpacing: Equatable, Sendable {
    /// Exactly this many points (`fixed(_:)`).
    case fixed(Double)
    /// At least this many points, plus an equal share of what is left (`flexible(_:)`).
    case flexible(Double)

    /// The points it takes at least.
    public var minimum: Double {
        switch self {
        case .fixed(let v), .flexible(let v): return v
        }
    }

    /// Whether it takes a share of the room left over.
    public var isFlexible: Bool {
        if case .flexible = self { return true }
        return false
    }
}

/// Spacing outside an item's four edges (`NSCollectionLayoutEdgeSpacing`); `nil` is none.
public struct CompositionalEdgeSpacing: Equatable, Sendable {
    /// Before the item along a horizontal group.
    public var leading: CompositionalSpacing?
    /// Above the item.
    public var top: CompositionalSpacing?
    /// After the item along a horizontal group.
    public var trailing: CompositionalSpacing?
    /// Below the item.
    public var bottom: CompositionalSpacing?

    /// Creates edge spacing; each edge defaults to none.
    public init(leading: CompositionalSpacing? = nil, top: CompositionalSpacing? = nil,
                trailing: CompositionalSpacing? = nil, bottom: CompositionalSpacing? = nil) {
        self.leading = leading
        self.top = top
        self.trailing = trailing
        self.bottom = bottom
    }

    /// No spacing on any edge.
    public static let none = CompositionalEdgeSpacing()

    func transposed() -> CompositionalEdgeSpacing {
        CompositionalEdgeSpacing(leading: top, top: leading, trailing: bottom, bottom: trailing)
    }
}

/// Edges of a rectangle (`NSDirectionalRectEdge`), for anchors and alignments.
public struct CompositionalEdges: OptionSet, Hashable, Sendable {
    /// The edges as bits: top 1, leading 2, bottom 4, trailing 8.
    public let rawValue: UInt8
    /// The edges of the bits `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The top edge.
    public static let top = CompositionalEdges(rawValue: 1)
    /// The leading (left) edge.
    public static let leading = CompositionalEdges(rawValue: 2)
    /// The bottom edge.
    public static let bottom = CompositionalEdges(rawValue: 4)
    /// The trailing (right) edge.
    public static let trailing = CompositionalEdges(rawValue: 8)

    func transposed() -> CompositionalEdges {
        var result: CompositionalEdges = []
        if contains(.top) { result.insert(.leading) }
        if contains(.leading) { result.insert(.top) }
        if contains(.bottom) { result.insert(.trailing) }
        if contains(.trailing) { result.insert(.bottom) }
        return result
    }
}

/// Where a badge attaches (`NSCollectionLayoutAnchor`): on the named edges (the middle of an
/// axis none of whose edges is named), moved by an offset in points or in the badge's own size.
public struct CompositionalAnchor: Equatable, Sendable {
    /// The edges; `[]` is the centre.
    public var edges: CompositionalEdges
    /// The offset: points (`absoluteOffset`), or fractions of the badge's width and height
    /// (`fractionalOffset`) when `isFractional`.
    public var offset: Point
    /// Whether `offset` is fractional.
    public var isFractional: Bool

    /// Creates an anchor.
    public init(edges: CompositionalEdges, offset: Point = Point(x: 0, y: 0), isFractional: Bool = false) {
        self.edges = edges
        self.offset = offset
        self.isFractional = isFractional
    }

    func transposed() -> CompositionalAnchor {
        CompositionalAnchor(edges: edges.transposed(), offset: Point(x: offset.y, y: offset.x), isFractional: isFractional)
    }
}

/// A view attached to an item (`NSCollectionLayoutSupplementaryItem`), a badge.
public struct CompositionalSupplementaryItem: Equatable, Sendable {
    /// `elementKind`.
    public var kind: ElementKind
    /// `layoutSize`, resolved against the item's frame.
    public var size: CompositionalSize
    /// `containerAnchor`: the point on the item's frame.
    public var containerAnchor: CompositionalAnchor
    /// `itemAnchor`: the point on the badge put there; `nil`: the container anchor's edges, no offset.
    public var itemAnchor: CompositionalAnchor?
    /// `zIndex`. Default 1 (UIKit's).
    public var zIndex: Int

    /// Creates a badge.
    public init(kind: ElementKind = .badge, size: CompositionalSize, containerAnchor: CompositionalAnchor,
                itemAnchor: CompositionalAnchor? = nil, zIndex: Int = 1) {
        self.kind = kind
        self.size = size
        self.containerAnchor = containerAnchor
        self.itemAnchor = itemAnchor
        self.zIndex = zIndex
    }

    func transposed() -> CompositionalSupplementaryItem {
        CompositionalSupplementaryItem(kind: kind, size: size.transposed(), containerAnchor: containerAnchor.transposed(),
                                       itemAnchor: itemAnchor?.transposed(), zIndex: zIndex)
    }
}

extension EdgeInsets {
    /// The insets with top ↔ leading and bottom ↔ trailing exchanged (horizontal scrolling).
    var exchangingAxes: EdgeInsets { EdgeInsets(top: left, left: top, bottom: right, right: bottom) }
}

/// A cell (`NSCollectionLayoutItem`).
public struct CompositionalItem: Equatable, Sendable {
    /// `layoutSize`.
    public var size: CompositionalSize
    /// `contentInsets` (top, leading, bottom, trailing as `EdgeInsets`' top, left, bottom, right).
    public var contentInsets: EdgeInsets
    /// `edgeSpacing`.
    public var edgeSpacing: CompositionalEdgeSpacing
    /// `supplementaryItems`: badges.
    public var supplementaryItems: [CompositionalSupplementaryItem]

    /// Creates an item.
    public init(size: CompositionalSize, contentInsets: EdgeInsets = .zero, edgeSpacing: CompositionalEdgeSpacing = .none,
                supplementaryItems: [CompositionalSupplementaryItem] = []) {
        self.size = size
        self.contentInsets = contentInsets
        self.edgeSpacing = edgeSpacing
        self.supplementaryItems = supplementaryItems
    }

    func transposed() -> CompositionalItem {
        CompositionalItem(size: size.transposed(), contentInsets: contentInsets.exchangingAxes,
                          edgeSpacing: edgeSpacing.transposed(), supplementaryItems: supplementaryItems.map { $0.transposed() })
    }
}

/// A subitem of a group: an item or a nested group.
public indirect enum CompositionalSubitem: Equatable, Sendable {
    /// A cell (`{"item": …}`).
    case item(CompositionalItem)
    /// A nested group (`{"group": …}`).
    case group(CompositionalGroup)

    func transposed() -> CompositionalSubitem {
        switch self {
        case .item(let item): return .item(item.transposed())
        case .group(let group): return .group(group.transposed())
        }
    }

    var size: CompositionalSize {
        switch self {
        case .item(let item): return item.size
        case .group(let group): return group.size
        }
    }

    var edgeSpacing: CompositionalEdgeSpacing {
        switch self {
        case .item(let item): return item.edgeSpacing
        case .group(let group): return group.edgeSpacing
        }
    }
}

/// A group's direction: subitems side by side (`horizontal`) or stacked (`vertical`).
public enum CompositionalAxis: String, Equatable, Sendable, CaseIterable {
    /// Subitems side by side, leading to trailing (`NSCollectionLayoutGroup.horizontal`).
    case horizontal
    /// Subitems stacked, top to bottom (`NSCollectionLayoutGroup.vertical`).
    case vertical
}

/// How many subitems a group holds.
public enum CompositionalRepetition: Equatable, Sendable {
    /// `subitems:`: the list repeated cyclically while the next one fits.
    case fit
    /// `subitem:count:`: exactly n copies of the one subitem, each (length − (n−1)·spacing)/n long.
    case count(Int)
    /// `repeatingSubitem:count:` (iOS 16): n copies of the one subitem at its own size.
    case repeating(Int)
}

/// A group (`NSCollectionLayoutGroup`).
public struct CompositionalGroup: Equatable, Sendable {
    /// `horizontal` or `vertical`.
    public var axis: CompositionalAxis
    /// `layoutSize`.
    public var size: CompositionalSize
    /// `subitems` (one for `.count` and `.repeating`).
    public var subitems: [CompositionalSubitem]
    /// How many subitems it holds.
    public var repetition: CompositionalRepetition
    /// `interItemSpacing`. Default fixed 0.
    public var interItemSpacing: CompositionalSpacing
    /// `contentInsets`.
    public var contentInsets: EdgeInsets
    /// `edgeSpacing`: outside the group in its parent group, or, for a section's top-level
    /// group, around each of its copies in the section.
    public var edgeSpacing: CompositionalEdgeSpacing
    /// `supplementaryItems`: views anchored to the group's frame, as badges to their item's.
    public var supplementaryItems: [CompositionalSupplementaryItem]

    /// Creates a group.
    public init(axis: CompositionalAxis, size: CompositionalSize, subitems: [CompositionalSubitem],
                repetition: CompositionalRepetition = .fit, interItemSpacing: CompositionalSpacing = .fixed(0),
                contentInsets: EdgeInsets = .zero, edgeSpacing: CompositionalEdgeSpacing = .none,
                supplementaryItems: [CompositionalSupplementaryItem] = []) {
        self.axis = axis
        self.size = size
        self.subitems = subitems
        self.repetition = repetition
        self.interItemSpacing = interItemSpacing
        self.contentInsets = contentInsets
        self.edgeSpacing = edgeSpacing
        self.supplementaryItems = supplementaryItems
    }

    func transposed() -> CompositionalGroup {
        CompositionalGroup(axis: axis == .horizontal ? .vertical : .horizontal, size: size.transposed(),
                           subitems: subitems.map { $0.transposed() }, repetition: repetition,
                           interItemSpacing: interItemSpacing, contentInsets: contentInsets.exchangingAxes,
                           edgeSpacing: edgeSpacing.transposed(), supplementaryItems: supplementaryItems.map { $0.transposed() })
    }

    /// Whether it or a group nested in it has supplementary items.
    var hasGroupBadges: Bool {
        !supplementaryItems.isEmpty || subitems.contains { if case .group(let g) = $0 { g.hasGroupBadges } else { false } }
    }

    /// How deep groups nest in it: 1 for a group of items.
    public var depth: Int {
        1 + subitems.reduce(0) { deepest, subitem in
            if case .group(let group) = subitem { return max(deepest, group.depth) }
            return deepest
        }
    }
}

/// Where a boundary item sits on its section (`NSRectAlignment`): an edge, centred on the
/// other axis, or a corner.
public enum CompositionalAlignment: String, Equatable, Sendable, CaseIterable {
    /// An edge (centred along it) or a corner, as `NSRectAlignment` names them.
    case top, topLeading, leading, bottomLeading, bottom, bottomTrailing, trailing, topTrailing

    /// The edges it names.
    public var edges: CompositionalEdges {
        switch self {
        case .top: [.top]
        case .topLeading: [.top, .leading]
        case .leading: [.leading]
        case .bottomLeading: [.bottom, .leading]
        case .bottom: [.bottom]
        case .bottomTrailing: [.bottom, .trailing]
        case .trailing: [.trailing]
        case .topTrailing: [.top, .trailing]
        }
    }

    init(edges: CompositionalEdges) {
        self = Self.allCases.first { $0.edges == edges } ?? .top
    }

    func transposed() -> CompositionalAlignment { CompositionalAlignment(edges: edges.transposed()) }
}

/// A header or footer of a section or of the whole layout (`NSCollectionLayoutBoundarySupplementaryItem`).
public struct CompositionalBoundaryItem: Equatable, Sendable {
    /// `elementKind`.
    public var kind: ElementKind
    /// `layoutSize`, resolved against the section's width (less its insets when the section's
    /// supplementaries follow them) and the whole bounds height.
    public var size: CompositionalSize
    /// `alignment`.
    public var alignment: CompositionalAlignment
    /// `extendsBoundary`: outside the content, growing the section. Default `true`.
    public var extendsBoundary: Bool
    /// `pinToVisibleBounds`. Default `false`.
    public var pinsToVisibleBounds: Bool
    /// `absoluteOffset`, points. Default 0, 0.
    public var absoluteOffset: Point
    /// `zIndex`. Default 1 (UIKit's).
    public var zIndex: Int

    /// Creates a boundary item.
    public init(kind: ElementKind, size: CompositionalSize, alignment: CompositionalAlignment, extendsBoundary: Bool = true,
                pinsToVisibleBounds: Bool = false, absoluteOffset: Point = Point(x: 0, y: 0), zIndex: Int = 1) {
        self.kind = kind
        self.size = size
        self.alignment = alignment
        self.extendsBoundary = extendsBoundary
        self.pinsToVisibleBounds = pinsToVisibleBounds
        self.absoluteOffset = absoluteOffset
        self.zIndex = zIndex
    }

    func transposed() -> CompositionalBoundaryItem {
        CompositionalBoundaryItem(kind: kind, size: size.transposed(), alignment: alignment.transposed(),
                                  extendsBoundary: extendsBoundary, pinsToVisibleBounds: pinsToVisibleBounds,
                                  absoluteOffset: Point(x: absoluteOffset.y, y: absoluteOffset.x), zIndex: zIndex)
    }
}

/// A section background (`NSCollectionLayoutDecorationItem.background(elementKind:)`).
public struct CompositionalDecorationItem: Equatable, Sendable {
    /// `elementKind`. Default `.background`.
    public var kind: ElementKind
    /// `contentInsets` from the section's frame.
    public var contentInsets: EdgeInsets
    /// `zIndex`. Default 0 (UIKit's).
    public var zIndex: Int

    /// Creates a background.
    public init(kind: ElementKind = .background, contentInsets: EdgeInsets = .zero, zIndex: Int = 0) {
        self.kind = kind
        self.contentInsets = contentInsets
        self.zIndex = zIndex
    }
}

/// `UICollectionLayoutSectionOrthogonalScrollingBehavior`: all but `none` lay the groups in
/// one row across the scroll axis; `groupPagingCentered` adds (viewport − group)/2 of room at
/// the row's ends. (Snapping is not modelled: frames are at `orthogonalOffset`.)
public enum CompositionalOrthogonalScrolling: String, Equatable, Sendable, CaseIterable {
    /// The groups stack along the scroll axis (no orthogonal row).
    case none
    /// One row; the others lay it out the same, `groupPagingCentered` with room at its ends.
    case continuous, continuousGroupLeadingBoundary, paging, groupPaging, groupPagingCentered
}

/// A section (`NSCollectionLayoutSection`) and its item count.
public struct CompositionalSection: Equatable, Sendable {
    /// Items in the section, ≥ 0.
    public var count: Int
    /// The group repeated to hold them.
    public var group: CompositionalGroup
    /// `interGroupSpacing`, points. Default 0.
    public var interGroupSpacing: Double
    /// `contentInsets`.
    public var contentInsets: EdgeInsets
    /// `orthogonalScrollingBehavior`. Default `.none`.
    public var orthogonalScrollingBehavior: CompositionalOrthogonalScrolling
    /// How far an orthogonal row is scrolled, points (clamped to the row). Default 0.
    public var orthogonalOffset: Double
    /// Headers and footers.
    public var boundarySupplementaryItems: [CompositionalBoundaryItem]
    /// Backgrounds.
    public var decorationItems: [CompositionalDecorationItem]
    /// `supplementariesFollowContentInsets`. Default `true`.
    public var supplementariesFollowContentInsets: Bool
    /// Alternatives chosen by the layout environment, as `sectionProvider` code branches on
    /// `layoutEnvironment.container.effectiveContentSize`: when not empty, the first variant
    /// whose condition holds (the last when none does) stands for the section, with the
    /// section's `count`. Default none.
    public var variants: [CompositionalSectionVariant] = []

    /// Creates a section.
    public init(count: Int, group: CompositionalGroup, interGroupSpacing: Double = 0, contentInsets: EdgeInsets = .zero,
                orthogonalScrollingBehavior: CompositionalOrthogonalScrolling = .none, orthogonalOffset: Double = 0,
                boundarySupplementaryItems: [CompositionalBoundaryItem] = [], decorationItems: [CompositionalDecorationItem] = [],
                supplementariesFollowContentInsets: Bool = true) {
        self.count = count
        self.group = group
        self.interGroupSpacing = interGroupSpacing
        self.contentInsets = contentInsets
        self.orthogonalScrollingBehavior = orthogonalScrollingBehavior
        self.orthogonalOffset = orthogonalOffset
        self.boundarySupplementaryItems = boundarySupplementaryItems
        self.decorationItems = decorationItems
        self.supplementariesFollowContentInsets = supplementariesFollowContentInsets
    }

    func transposed() -> CompositionalSection {
        CompositionalSection(count: count, group: group.transposed(), interGroupSpacing: interGroupSpacing,
                             contentInsets: contentInsets.exchangingAxes,
                             orthogonalScrollingBehavior: orthogonalScrollingBehavior, orthogonalOffset: orthogonalOffset,
                             boundarySupplementaryItems: boundarySupplementaryItems.map { $0.transposed() },
                             decorationItems: decorationItems.map {
                                 CompositionalDecorationItem(kind: $0.kind, contentInsets: $0.contentInsets.exchangingAxes,
                                                             zIndex: $0.zIndex)
                             },
                             supplementariesFollowContentInsets: supplementariesFollowContentInsets)
    }
}

/// A test of the layout environment's effective content size (the bounds: cvlayout's
/// collection view has no content insets), points; `nil` bounds do not test.
public struct CompositionalCondition: Equatable, Sendable {
    /// The width is at least this.
    public var minWidth: Double?
    /// The width is at most this.
    public var maxWidth: Double?
    /// The height is at least this.
    public var minHeight: Double?
    /// The height is at most this.
    public var maxHeight: Double?

    /// Creates a condition; with no bound it always holds.
    public init(minWidth: Double? = nil, maxWidth: Double? = nil, minHeight: Double? = nil, maxHeight: Double? = nil) {
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.minHeight = minHeight
        self.maxHeight = maxHeight
    }

    /// Whether `size` meets every bound given (inclusive).
    public func holds(in size: Size) -> Bool {
        (minWidth.map { size.width >= $0 } ?? true) && (maxWidth.map { size.width <= $0 } ?? true)
            && (minHeight.map { size.height >= $0 } ?? true) && (maxHeight.map { size.height <= $0 } ?? true)
    }
}

/// One alternative of a section's `variants`: a section used when `condition` holds.
public struct CompositionalSectionVariant: Equatable, Sendable {
    /// When it applies; `nil` always.
    public var condition: CompositionalCondition?
    /// The section it stands for (its `count` is replaced by the section's).
    public var section: CompositionalSection

    /// Creates a variant.
    public init(condition: CompositionalCondition?, section: CompositionalSection) {
        self.condition = condition
        self.section = section
    }
}

extension CompositionalSection {
    /// The section the environment of `size` chooses: itself without variants, else the first
    /// variant whose condition holds (the last when none does), with this section's count.
    public func resolvingVariants(in size: Size) -> CompositionalSection {
        guard let chosen = variants.first(where: { $0.condition?.holds(in: size) ?? true }) ?? variants.last else { return self }
        var section = chosen.section.resolvingVariants(in: size)
        section.count = count
        return section
    }
}

/// A whole layout: `UICollectionViewCompositionalLayoutConfiguration` and its sections.
public struct CompositionalDescription: Equatable, Sendable {
    /// `scrollDirection`. Default `.vertical`.
    public var scrollDirection: ScrollDirection
    /// `interSectionSpacing`, points. Default 0.
    public var interSectionSpacing: Double
    /// The layout's own headers and footers (index paths [0, k] in their kind).
    public var boundarySupplementaryItems: [CompositionalBoundaryItem]
    /// The sections.
    public var sections: [CompositionalSection]

    /// Creates a description.
    public init(scrollDirection: ScrollDirection = .vertical, interSectionSpacing: Double = 0,
                boundarySupplementaryItems: [CompositionalBoundaryItem] = [], sections: [CompositionalSection]) {
        self.scrollDirection = scrollDirection
        self.interSectionSpacing = interSectionSpacing
        self.boundarySupplementaryItems = boundarySupplementaryItems
        self.sections = sections
    }

    /// The description with width and height exchanged everywhere (horizontal groups become
    /// vertical, leading edges top edges…): horizontal scrolling is laid out as vertical
    /// scrolling of this, then transposed back.
    func transposed() -> CompositionalDescription {
        CompositionalDescription(scrollDirection: scrollDirection, interSectionSpacing: interSectionSpacing,
                                 boundarySupplementaryItems: boundarySupplementaryItems.map { $0.transposed() },
                                 sections: sections.map { $0.transposed() })
    }
}

/// Sizes measured on a device for self-sizing (`--sizes`): what
/// `preferredLayoutAttributesFitting(_:)` returned, by element: a cell by its index path, a
/// supplementary view by its kind and index path. A measured size replaces each estimated
/// dimension of its element (its other dimensions are kept).
public struct CompositionalMeasuredSizes: Equatable, Sendable {
    /// An element: `kind` `nil` for a cell.
    public struct Key: Hashable, Sendable {
        /// The supplementary view's kind; `nil` for a cell.
        public var kind: ElementKind?
        /// The element's index path.
        public var indexPath: IndexPath

        /// Creates a key.
        public init(kind: ElementKind?, indexPath: IndexPath) {
            self.kind = kind
            self.indexPath = indexPath
        }

        /// `S:I` for a cell, `KIND S:I` for a supplementary view.
        public var text: String { kind.map { "\($0.rawValue) \(indexPath)" } ?? "\(indexPath)" }
    }

    /// The measured sizes, points.
    public var sizes: [Key: Size]

    /// Creates measurements.
    public init(_ sizes: [Key: Size] = [:]) {
        self.sizes = sizes
    }

    /// The measured size of an element, if any.
    @inline(__always)
    func size(_ kind: ElementKind?, section: Int, item: Int) -> Size? {
        sizes[Key(kind: kind, indexPath: IndexPath(item: item, section: section))]
    }

    /// Whether a cell of `section` is measured.
    func measuresCells(inSection section: Int) -> Bool {
        sizes.keys.contains { $0.kind == nil && $0.indexPath.section == section }
    }

    func transposed() -> CompositionalMeasuredSizes {
        CompositionalMeasuredSizes(sizes.mapValues { Size(width: $0.height, height: $0.width) })
    }
}

extension CompositionalSize {
    /// `resolved` with each estimated dimension replaced by `measured`'s.
    func applying(_ measured: Size?, to resolved: Size) -> Size {
        guard let measured else { return resolved }
        return Size(width: width.isEstimated ? measured.width : resolved.width,
                    height: height.isEstimated ? measured.height : resolved.height)
    }
}
