// The per-element record every engine produces (UIKit's UICollectionViewLayoutAttributes).

import class Foundation.NSLock

/// A section and item number, 0-based (UIKit's `IndexPath`), ordered by section, then item.
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section's number, 0-based.
    public var section: Int
    /// The item's number within its section, 0-based.
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

/// A supplementary or decoration view's kind (`representedElementKind`) and how it is drawn: a code
/// into a process-wide table of names, so `LayoutAttributes` stays a plain value; equal when the names are.
public struct ElementKind: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    /// How a view of the kind is drawn and counted.
    public enum Role: UInt8, Sendable, CaseIterable {
        /// A header, footer or other boundary supplementary item.
        case boundary
        /// A supplementary item attached to an item or group (`NSCollectionLayoutSupplementaryItem`).
        case badge
        /// A decoration view (`NSCollectionLayoutDecorationItem`).
        case decoration
    }

    /// The name's code: 0…3 `header`, `footer`, `badge`, `background`, the rest in `names`.
    let code: UInt16
    /// How views of this kind are drawn.
    public let role: Role

    /// A section header (`UICollectionView.elementKindSectionHeader`), a boundary item.
    public static let header = ElementKind(code: 0, role: .boundary)
    /// A section footer (`UICollectionView.elementKindSectionFooter`), a boundary item.
    public static let footer = ElementKind(code: 1, role: .boundary)
    /// A badge attached to an item (a compositional layout's `NSCollectionLayoutSupplementaryItem`).
    public static let badge = ElementKind(code: 2, role: .badge)
    /// A section background (compositional `NSCollectionLayoutDecorationItem.background`), a decoration.
    public static let background = ElementKind(code: 3, role: .decoration)

    private static let names = NameCodes(first: 4, limit: 65_000)

    /// The longest name a kind may have, in UTF-8 bytes.
    public static let maximumNameLength = 64
}

extension ElementKind {
    /// The kind named `name` in `role`; `nil` for an invalid name (`isValidName`) or past 65,000
    /// names. - Complexity: O(length of `name`), under a lock.
    public init?(_ name: String, role: Role) {
        let fixed = Self.fixedNames.firstIndex(of: name).map(UInt16.init)
        guard Self.isValidName(name), let code = fixed ?? Self.names.code(name).map(UInt16.init) else { return nil }
        self.init(code: code, role: role)
    }

    private static let fixedNames = ["header", "footer", "badge", "background"]

    /// The kind named `rawValue`: `badge` a badge, `background` a decoration, else a boundary.
    public init?(rawValue: String) {
        self.init(rawValue, role: rawValue == "badge" ? .badge : rawValue == "background" ? .decoration : .boundary)
    }

    /// The kind's name, printed as the output's `kind`.
    public var rawValue: String {
        code < 4 ? Self.fixedNames[Int(code)] : Self.names.name(Int(code))
    }

    public var description: String { rawValue }

    /// Whether `name` may name a kind: 1 to 64 ASCII letters, digits, `-`, `_`, `.`, the first
    /// not `-` or `.` (no format quotes it, no spreadsheet reads a formula).
    public static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= maximumNameLength else { return false }
        func word(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
        }
        return word(first) && bytes.allSatisfy { word($0) || $0 == 0x2D || $0 == 0x2E }
    }

    public static func == (lhs: ElementKind, rhs: ElementKind) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

/// Names given codes in the order first seen, from `first` on, at most `limit`; locked.
package final class NameCodes: @unchecked Sendable {
    private let lock = NSLock()
    private let first: Int, limit: Int
    private var names: [String] = []
    private var codes: [String: Int] = [:]

    /// An empty table of codes `first ..< first + limit`.
    package init(first: Int, limit: Int = .max) {
        self.first = first
        self.limit = limit
    }

    /// The code of `name`, added when new; `nil` when the table is full.
    package func code(_ name: String) -> Int? {
        lock.withLock {
            if let code = codes[name] { return code }
            guard names.count < limit else { return nil }
            let code = names.count + first
            names.append(name)
            codes[name] = code
            return code
        }
    }

    /// The name of `code`, which came from this table's `code(_:)`.
    package func name(_ code: Int) -> String {
        lock.withLock { names[code - first] }
    }
}

/// Where and how one element is shown (`UICollectionViewLayoutAttributes`), points; transform about centre.
public struct LayoutAttributes: Hashable, Sendable {
    /// The element's index path. A header or footer carries its section and item 0.
    public var indexPath: IndexPath
    /// `representedElementCategory`.
    public var category: ElementCategory
    /// `representedElementKind`: `nil` for cells.
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

    /// A cell's attributes (`layoutAttributesForCell(with:)`), the defaults otherwise.
    public static func cell(_ indexPath: IndexPath, frame: Rect) -> LayoutAttributes {
        LayoutAttributes(indexPath: indexPath, category: .cell, kind: nil, frame: frame)
    }

    /// A supplementary view's attributes (`layoutAttributesForSupplementaryView(ofKind:with:)`).
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

    /// Whether `transform`, `alpha`, `zIndex` and `isHidden` hold their defaults bit for bit.
    @inlinable @inline(__always)
    public var hasDefaultAppearance: Bool {
        let t = transform
        return t.a.bitPattern == (1.0).bitPattern && t.b.bitPattern == 0 && t.c.bitPattern == 0
            && t.d.bitPattern == (1.0).bitPattern && t.tx.bitPattern == 0 && t.ty.bitPattern == 0
            && alpha.bitPattern == (1.0).bitPattern && zIndex == 0 && !isHidden
    }

    /// The frame's centre and size.
    public var center: Point { frame.center }
    public var size: Size { frame.size }

    /// Whether every number in the attributes is finite.
    @inline(__always) public var isFinite: Bool { frame.isFinite && transform.isFinite && alpha.isFinite }
}
