import LayoutCore
import FastText

/// Every attribute of an element that the JSON and CSV carry, in output order: the list the
/// plain writers write from, the CSV header is made of and the fast writers are checked against.
///
/// | case | CSV column | JSON |
/// | --- | --- | --- |
/// | `section`, `item` | `section`, `item` | `"indexPath":[section,item]` |
/// | `category`, `kind` | `category`, `kind` (empty for none) | `"category":"cell"`, `"kind":"header"` (left out for none) |
/// | `x` … `height` | `x`, `y`, `width`, `height` | `"frame":{"x":…,"y":…,"width":…,"height":…}` |
/// | `centerX`, `centerY` | `centerX`, `centerY` | `"center":{"x":…,"y":…}` |
/// | `a` … `ty` | `a`, `b`, `c`, `d`, `tx`, `ty` | `"transform":[a,b,c,d,tx,ty]` |
/// | `alpha`, `zIndex`, `hidden` | `alpha`, `zIndex`, `hidden` | `"alpha":…`, `"zIndex":…`, `"hidden":true` |
public enum ElementColumn: Int, CaseIterable, Sendable {
    case section, item, category, kind, x, y, width, height, centerX, centerY, a, b, c, d, tx, ty, alpha, zIndex, hidden

    /// How a JSON key holds its columns: one value, an array of them, or an object of them.
    public enum JSONShape: Sendable {
        case value, array, object
    }

    /// The CSV header's name: the case's.
    public var csvName: String { Self.csvNames[rawValue] }

    /// Spelled out: `String(describing:)` reflects on the type, which brings the runtime's
    /// reflection code into memory on every CSV run (about 0.3 MiB).
    private static let csvNames = ["section", "item", "category", "kind", "x", "y", "width", "height", "centerX",
                                   "centerY", "a", "b", "c", "d", "tx", "ty", "alpha", "zIndex", "hidden"]

    /// The element's JSON key that holds it (`frame` for `x`; `indexPath` for `section`).
    public var jsonKey: String {
        switch self {
        case .section, .item: "indexPath"
        case .x, .y, .width, .height: "frame"
        case .centerX, .centerY: "center"
        case .a, .b, .c, .d, .tx, .ty: "transform"
        default: csvName
        }
    }

    /// How `jsonKey` holds its columns, in the order of `allCases`.
    public var jsonShape: JSONShape {
        switch jsonKey {
        case "indexPath", "transform": .array
        case "frame", "center": .object
        default: .value
        }
    }

    /// Its name within `jsonKey`'s object (`x` for `centerX`); `nil` outside an object.
    public var jsonMember: String? {
        switch self {
        case .x, .y, .width, .height: csvName
        case .centerX: "x"
        case .centerY: "y"
        default: nil
        }
    }

    /// Whether its value is a word (a JSON string): the category and the kind.
    public var isWord: Bool { self == .category || self == .kind }

    /// The columns in order, grouped by JSON key: `[(indexPath, [section, item]), (category, [category]), …]`.
    public static let jsonGroups: [(key: String, columns: [ElementColumn])] = allCases.reduce(into: []) { groups, column in
        if groups.last?.key == column.jsonKey { groups[groups.count - 1].columns.append(column) } else {
            groups.append((column.jsonKey, [column]))
        }
    }

    /// Its value for `e` as written, numbers at `precision` (`PlainNumberText`), words bare,
    /// `nil` for no kind.
    public func text(_ e: LayoutAttributes, precision: NumberPrecision) -> String? {
        let f = e.frame, t = e.transform
        switch self {
        case .section: return "\(e.indexPath.section)"
        case .item: return "\(e.indexPath.item)"
        case .category: return e.category.rawValue
        case .kind: return e.kind?.rawValue
        case .zIndex: return "\(e.zIndex)"
        case .hidden: return "\(e.isHidden)"
        default:
            // The numbers, `x` to `alpha` in column order.
            let numbers = [f.minX, f.minY, f.width, f.height, f.midX, f.midY, t.a, t.b, t.c, t.d, t.tx, t.ty, e.alpha]
            return PlainNumberText.string(numbers[rawValue - ElementColumn.x.rawValue], precision: precision)
        }
    }
}
