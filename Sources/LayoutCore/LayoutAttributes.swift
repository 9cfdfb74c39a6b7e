// The per-element record every engine produces (UIKit's UICollectionViewLayoutAttributes).

/// A section and item number (UIKit's `IndexPath` for collection views), ordered section
/// first, then item.
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Section number, 0-based.
    public var section: Int
    /// Item number within the section, 0-based.
    public var item: Int

    /// Creates the index path `section:item`.
    public init(item: Int, section: Int) {
        self.section = section
        self.item = item
    }

    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `S:I`, the form the command line takes.
    public var description: String { "\(section):\(item)" }
}

/// Which kind of view an element stands for (UIKit's `UICollectionView.ElementCategory`).
public enum ElementCategory: String, Sendable, CaseIterable {
    case cell
    case supplementaryView
    case decorationView
}

/// The supplementary and decoration view kinds the engines emit (`representedElementKind`); the raw value
/// is the string the output formats print. An enum rather than a `String` keeps
/// `LayoutAttributes` a plain value: copying a million of them is a memory copy, with no
/// reference counting.
public enum ElementKind: String, Hashable, Sendable, CaseIterable {
    /// A section header (`UICollectionView.elementKindSectionHeader`).
    case header
    /// A section footer (`UICollectionView.elementKindSectionFooter`).
    case footer
    /// A badge attached to an item (a compositional layout's `NSCollectionLayoutSupplementaryItem`).
    case badge
    /// A section background (a compositional layout's `NSCollectionLayoutDecorationItem.background`),
    /// a decoration view.
    case background
}

/// Where and how one element is shown: UIKit's `UICollectionViewLayoutAttributes`.
///
/// `frame` is the untransformed frame (`center ± size/2`); `transform` applies about the
/// centre, as UIKit applies a view's transform. Units are points.
public struct LayoutAttributes: Hashable, Sendable {
    /// The element's index path. A header or footer carries its section and item 0.
    public var indexPath: IndexPath
    /// `representedElementCategory`.
    public var category: ElementCategory
    /// `representedElementKind`: `nil` for cells, `.header` / `.footer` / `.badge` for
    /// supplementary views, `.background` for decoration views.
    public var kind: ElementKind?
    /// Untransformed frame, points.
    public var frame: Rect
    /// Affine transform about the centre. Default identity.
    public var transform: AffineTransform
    /// Opacity 0…1. Default 1.
    public var alpha: Double
    /// Stacking order; higher draws on top. Default 0.
    public var zIndex: Int
    /// Whether the element is hidden. Default `false`.
    public var isHidden: Bool

    /// Creates attributes for a cell at `indexPath` with `frame`
    /// (`layoutAttributesForCell(with:)`), identity transform, alpha 1, zIndex 0.
    public static func cell(_ indexPath: IndexPath, frame: Rect) -> LayoutAttributes {
        LayoutAttributes(indexPath: indexPath, category: .cell, kind: nil, frame: frame)
    }

    /// Creates attributes for a supplementary view of `kind` at `indexPath`
    /// (`layoutAttributesForSupplementaryView(ofKind:with:)`).
    public static func supplementaryView(ofKind kind: ElementKind, at indexPath: IndexPath,
                                         frame: Rect) -> LayoutAttributes {
        LayoutAttributes(indexPath: indexPath, category: .supplementaryView, kind: kind, frame: frame)
    }

    /// Memberwise initializer; see the properties for meaning and defaults.
    public init(indexPath: IndexPath, category: ElementCategory, kind: ElementKind?, frame: Rect,
                transform: AffineTransform = .identity, alpha: Double = 1, zIndex: Int = 0,
                isHidden: Bool = false) {
        self.indexPath = indexPath
        self.category = category
        self.kind = kind
        self.frame = frame
        self.transform = transform
        self.alpha = alpha
        self.zIndex = zIndex
        self.isHidden = isHidden
    }

    /// Whether `transform`, `alpha`, `zIndex` and `isHidden` hold their defaults (identity,
    /// 1, 0, `false`) bit for bit (a `-0` is not a default `0`), as most elements' do.
    @inlinable @inline(__always)
    public var hasDefaultAppearance: Bool {
        let t = transform
        return t.a.bitPattern == (1.0).bitPattern && t.b.bitPattern == 0 && t.c.bitPattern == 0
            && t.d.bitPattern == (1.0).bitPattern && t.tx.bitPattern == 0 && t.ty.bitPattern == 0
            && alpha.bitPattern == (1.0).bitPattern && zIndex == 0 && !isHidden
    }

    /// The frame's centre (UIKit's `center`).
    public var center: Point { frame.center }
    /// The frame's size (UIKit's `size`).
    public var size: Size { frame.size }

    /// Whether every number in the attributes is finite.
    @inline(__always) public var isFinite: Bool { frame.isFinite && transform.isFinite && alpha.isFinite }
}
