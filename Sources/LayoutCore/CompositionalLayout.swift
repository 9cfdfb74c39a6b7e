// UICollectionViewCompositionalLayout without UIKit: sections of groups of items sized by
// fractions, absolute lengths and estimates, orthogonal rows, boundary items that pin,
// badges and section backgrounds, with the semantics of issue 17 (UIKit's, as independent
// backports measured them). The description types mirror the Swift API's names.

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
    fileprivate var exchangingAxes: EdgeInsets { EdgeInsets(top: left, left: top, bottom: right, right: bottom) }
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

// MARK: - The engine

/// `UICollectionViewCompositionalLayout` from a `CompositionalDescription`, every frame as
/// UIKit gives it under the semantics of issues 17 and 32 (docs/REFERENCE.md, `### compositional`).
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
    /// Finite, ≥ 0. Default 1e-9 (issue 17).
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
        // Items held and their reach: a subitem's copies lie on a line, so its furthest is its
        // first or its last.
        var leaves = 0
        var reachX = 0.0, reachY = 0.0
        for k in 0..<distinct {
            let child = node.children[k]
            let copies = n / distinct + (k < n % distinct ? 1 : 0)
            guard copies > 0, child.leafCount > 0 else { continue }
            let (product, overflow) = child.leafCount.multipliedReportingOverflow(by: copies)
            leaves = overflow ? 1 << 60 : min(1 << 60, leaves + product)
            let first = node.cycle[k]
            let lastShift = node.period * Double(copies - 1)
            if horizontal {
                reachX = max(reachX, first.x + max(0, lastShift) + child.reach.x)
                reachY = max(reachY, first.y + child.reach.y)
            } else {
                reachX = max(reachX, first.x + child.reach.x)
                reachY = max(reachY, first.y + max(0, lastShift) + child.reach.y)
            }
        }
        node.leafCount = leaves
        node.reach = Point(x: reachX, y: reachY)
        return node
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

// MARK: - One run

/// The state of one layout pass (vertical scrolling; transposed on output when horizontal).
struct Run {
    let layout: CompositionalLayout
    let description: CompositionalDescription
    let bounds: Size
    let offset: Point
    let transposes: Bool
    var cellRanges: [(start: Int, count: Int)] = []

    init(layout: CompositionalLayout, description: CompositionalDescription, bounds: Size, offset: Point, transposes: Bool) {
        self.layout = layout
        self.description = description
        self.bounds = bounds
        self.offset = offset
        self.transposes = transposes
    }

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
