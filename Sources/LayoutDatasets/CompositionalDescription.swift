import Foundation
import LayoutCore

// The compositional engine's dataset: a JSON description whose names mirror the Swift API
// (`NSCollectionLayoutSize`, `NSCollectionLayoutGroup`, …), decoded into LayoutCore's
// `CompositionalDescription`. Every unknown key, wrong type or impossible value is a
// `DatasetError.invalidValue` naming its JSON path.

/// Decodes a `--sizes` file: a JSON object from `"S:I"` (a cell) and `"KIND S:I"` (a
/// supplementary view) to `[width, height]`, finite points ≥ 0, what
/// `preferredLayoutAttributesFitting(_:)` returned on a device.
public enum CompositionalSizesDecoder {
    /// The measurements in `data`.
    /// - Throws: `DatasetError` (the JSON path is the key) for bad JSON, a key of another
    ///   form, a value that is not two finite numbers ≥ 0, or more than `maximumElementCount` keys.
    /// - Complexity: O(size of `data`).
    public static func decode(_ data: Data) throws -> CompositionalMeasuredSizes {
        let root = try DatasetError.values(data)
        guard case .object(let object) = root else {
            throw DatasetError.invalidValue(path: "(top level)",
                                            message: "expected an object from \"S:I\" or \"KIND S:I\" to [width, height], got \(describe(root))")
        }
        guard object.count <= maximumElementCount else {
            throw DatasetError.invalidValue(path: "(top level)", message: "more than \(maximumElementCount) sizes")
        }
        var sizes: [CompositionalMeasuredSizes.Key: Size] = [:]
        for key in object.keys.sorted() {
            let value = object[key]!
            let parts = key.split(separator: " ", omittingEmptySubsequences: false)
            let pathText = String(parts.last!)
            let pieces = pathText.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, pieces.count == 2, let s = Int(pieces[0]), let i = Int(pieces[1]), s >= 0, i >= 0,
                  pieces.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
                throw DatasetError.invalidValue(path: key, message: "expected a key \"S:I\" (a cell) or \"KIND S:I\" (a supplementary view)")
            }
            var kind: ElementKind? = nil
            if parts.count == 2 {
                guard let k = ElementKind(rawValue: String(parts[0])) else {
                    throw DatasetError.invalidValue(path: key, message: "expected an element kind before the index path")
                }
                kind = k
            }
            guard case .numbers(let v) = value, v.count == 2, v.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
                throw DatasetError.invalidValue(path: key, message: "expected [width, height], finite numbers ≥ 0, got \(describe(value))")
            }
            sizes[CompositionalMeasuredSizes.Key(kind: kind, indexPath: IndexPath(item: i, section: s))] = Size(width: v[0], height: v[1])
        }
        return CompositionalMeasuredSizes(sizes)
    }
}

/// Decodes a compositional description from the strict scanner's values.
struct CompositionalDescriptionDecoder: DescriptionDecoding {
    /// Items in all sections so far (at most `maximumElementCount`).
    private var itemTotal = 0

    /// The JSON path of each decoded section (a repeated section's copies share theirs).
    private(set) var sectionPaths: [String] = []

    /// Sections a description may stand for, `repeat` counted.
    static let maximumSectionCount = 1_000_000

    /// The description in the top-level `object` (its `"options"` read by the caller).
    /// - Throws: `DatasetError.invalidValue` with the JSON path of the first bad value.
    /// - Complexity: O(size of the description).
    mutating func description(_ object: JSONObject) throws -> CompositionalDescription {
        try allow(object, ["configuration", "sections", "options"], path: "")
        var description = CompositionalDescription(sections: [])
        if let raw = object["configuration"] {
            let config = try self.object(raw, path: "configuration", expected: "a configuration object")
            try allow(config, ["scrollDirection", "interSectionSpacing", "boundarySupplementaryItems"], path: "configuration")
            if let v = config["scrollDirection"] {
                description.scrollDirection = try choice(v, path: "configuration.scrollDirection", ScrollDirection.allCases)
            }
            if let v = config["interSectionSpacing"] {
                description.interSectionSpacing = try nonNegative(v, path: "configuration.interSectionSpacing")
            }
            if let v = config["boundarySupplementaryItems"] {
                description.boundarySupplementaryItems = try boundaryItems(v, path: "configuration.boundarySupplementaryItems")
            }
        }
        guard let raw = object["sections"] else {
            throw invalid("", "no sections: expected \"sections\": [{\"count\": N, \"group\": …}, …]")
        }
        guard let list = raw.elements else { throw invalid("sections", "expected an array of section objects, got \(describe(raw))") }
        for (i, element) in list.enumerated() {
            let (section, copies) = try self.section(element, path: "sections[\(i)]")
            if description.sections.count + copies > Self.maximumSectionCount {
                throw invalid("sections[\(i)].repeat", "more than \(Self.maximumSectionCount) sections in all")
            }
            description.sections.append(contentsOf: repeatElement(section, count: copies))
            sectionPaths.append(contentsOf: repeatElement("sections[\(i)]", count: copies))
        }
        return description
    }

    // MARK: - Sections

    /// A section object and how many copies of it it stands for (`"repeat"`); a `"variants"`
    /// object's count is its own or its variants' (which must then agree).
    private mutating func section(_ raw: JSONValue, path: String) throws -> (CompositionalSection, Int) {
        let object = try self.object(raw, path: path, expected: "a section object")
        var copies = 1
        if let v = object["repeat"] {
            copies = try integer(v, path: join(path, "repeat"))
            guard copies >= 1, copies <= Self.maximumSectionCount else {
                throw DatasetError.expected(path: join(path, "repeat"), .integerRange(from: 1, to: Self.maximumSectionCount), got: "\(copies)")
            }
        }
        var section: CompositionalSection
        if let v = object["variants"] {
            try allow(object, ["variants", "count", "repeat"], path: path)
            let p = join(path, "variants")
            guard let list = v.elements, !list.isEmpty else {
                throw invalid(p, "expected a non-empty array of sections, each with an optional \"when\", got \(describe(v))")
            }
            var variants: [CompositionalSectionVariant] = []
            var counts: [Int?] = []
            for (i, element) in list.enumerated() {
                let vp = "\(p)[\(i)]"
                let fields = try self.object(element, path: vp, expected: "a section object")
                let condition = try fields["when"].map { try self.condition($0, path: join(vp, "when")) }
                let (variant, count) = try body(fields, path: vp, extraKeys: ["when"])
                variants.append(CompositionalSectionVariant(condition: condition, section: variant))
                counts.append(count)
            }
            let count: Int
            if let c = object["count"] {
                count = try self.count(c, path: join(path, "count"))
                // A variant's own count must agree with it: none is dropped silently.
                for (i, own) in counts.enumerated() where own != nil && own != count {
                    throw invalid("\(p)[\(i)].count", "count \(own!) differs from the section's \(count) beside \"variants\": "
                                  + "give one \"count\" beside \"variants\", or the same in every variant")
                }
            } else {
                guard let first = counts[0] else { throw invalid("\(p)[0]", "no \"count\": give the section's item count here or beside \"variants\"") }
                for (i, c) in counts.enumerated() where c != first {
                    throw invalid("\(p)[\(i)]" + (c == nil ? "" : ".count"),
                                  c == nil ? "no \"count\": give the section's item count here or beside \"variants\""
                                      : "count \(c!) differs from variants[0]'s \(first): give one \"count\" beside \"variants\"")
                }
                count = first
            }
            section = variants[0].section
            section.count = count
            section.variants = variants
        } else {
            try allow(object, ["count", "group", "interGroupSpacing", "contentInsets", "orthogonalScrollingBehavior",
                               "orthogonalOffset", "boundarySupplementaryItems", "decorationItems",
                               "supplementariesFollowContentInsets", "repeat"], path: path)
            if object["count"] == nil { throw invalid(path, "no \"count\": expected the section's item count") }
            let (plain, count) = try body(object, path: path, extraKeys: ["repeat"])
            guard let count else { throw invalid(path, "no \"count\": expected the section's item count") }
            section = plain
            section.count = count
        }
        let (items, overflow) = section.count.multipliedReportingOverflow(by: copies)
        itemTotal += overflow ? maximumElementCount + 1 : items
        if itemTotal > maximumElementCount {
            throw invalid(join(path, "count"), "more than \(maximumElementCount) items in all")
        }
        return (section, copies)
    }

    /// A `"when"` object: `minWidth`, `maxWidth`, `minHeight`, `maxHeight`, finite points.
    private func condition(_ raw: JSONValue, path: String) throws -> CompositionalCondition {
        let object = try self.object(raw, path: path, expected: "{\"minWidth\": …, \"maxWidth\": …, \"minHeight\": …, \"maxHeight\": …}")
        try allow(object, ["minWidth", "maxWidth", "minHeight", "maxHeight"], path: path)
        var condition = CompositionalCondition()
        if let v = object["minWidth"] { condition.minWidth = try finite(v, path: join(path, "minWidth")) }
        if let v = object["maxWidth"] { condition.maxWidth = try finite(v, path: join(path, "maxWidth")) }
        if let v = object["minHeight"] { condition.minHeight = try finite(v, path: join(path, "minHeight")) }
        if let v = object["maxHeight"] { condition.maxHeight = try finite(v, path: join(path, "maxHeight")) }
        // A size is never negative, and a range that holds for no size is a mistake, not a variant.
        for key in ["minWidth", "maxWidth", "minHeight", "maxHeight"] {
            if let v = object[key], case .number(let value) = v, value < 0 {
                throw invalid(join(path, key), "expected a size ≥ 0, got \(describe(v))")
            }
        }
        if let low = condition.minWidth, let high = condition.maxWidth, low > high, let v = object["maxWidth"] {
            throw invalid(join(path, "maxWidth"), "below minWidth: no width is in the range, got \(describe(v))")
        }
        if let low = condition.minHeight, let high = condition.maxHeight, low > high, let v = object["maxHeight"] {
            throw invalid(join(path, "maxHeight"), "below minHeight: no height is in the range, got \(describe(v))")
        }
        return condition
    }

    /// A section's fields (`extraKeys` also allowed, read by the caller) and its count, if given.
    private func body(_ object: JSONObject, path: String, extraKeys: [String]) throws -> (CompositionalSection, Int?) {
        try allow(object, ["count", "group", "interGroupSpacing", "contentInsets", "orthogonalScrollingBehavior",
                           "orthogonalOffset", "boundarySupplementaryItems", "decorationItems",
                           "supplementariesFollowContentInsets"] + extraKeys, path: path)
        let count = try object["count"].map { try self.count($0, path: join(path, "count")) }
        guard let groupValue = object["group"] else { throw invalid(path, "no \"group\": expected {\"horizontal\": …} or {\"vertical\": …}") }
        let group = try self.group(groupValue, path: join(path, "group"), depth: 1)
        try checkSupplementaryKinds(group, path: join(path, "group"))
        var section = CompositionalSection(count: count ?? 0, group: group)
        if let v = object["interGroupSpacing"] { section.interGroupSpacing = try nonNegative(v, path: join(path, "interGroupSpacing")) }
        if let v = object["contentInsets"] { section.contentInsets = try insets(v, path: join(path, "contentInsets")) }
        if let v = object["orthogonalScrollingBehavior"] {
            section.orthogonalScrollingBehavior = try choice(v, path: join(path, "orthogonalScrollingBehavior"),
                                                             CompositionalOrthogonalScrolling.allCases)
        }
        if let v = object["orthogonalOffset"] { section.orthogonalOffset = try finite(v, path: join(path, "orthogonalOffset")) }
        if let v = object["boundarySupplementaryItems"] {
            section.boundarySupplementaryItems = try boundaryItems(v, path: join(path, "boundarySupplementaryItems"))
        }
        if let v = object["decorationItems"] {
            let p = join(path, "decorationItems")
            guard let list = v.elements else { throw invalid(p, "expected an array of decoration items, got \(describe(v))") }
            section.decorationItems = try list.enumerated().map { i, raw in try decoration(raw, path: "\(p)[\(i)]") }
        }
        if let v = object["supplementariesFollowContentInsets"] {
            section.supplementariesFollowContentInsets = try bool(v, path: join(path, "supplementariesFollowContentInsets"))
        }
        return (section, count)
    }

    private func decoration(_ raw: JSONValue, path: String) throws -> CompositionalDecorationItem {
        let object = try self.object(raw, path: path, expected: "a decoration item object")
        try allow(object, ["elementKind", "contentInsets", "zIndex"], path: path)
        var item = CompositionalDecorationItem()
        guard let kind = object["elementKind"] else { throw missing(path, "elementKind", kindSuchAs: "background") }
        item.kind = try self.kind(kind, path: join(path, "elementKind"), role: .decoration)
        if let v = object["contentInsets"] { item.contentInsets = try insets(v, path: join(path, "contentInsets")) }
        if let v = object["zIndex"] { item.zIndex = try integer(v, path: join(path, "zIndex")) }
        return item
    }

    private func boundaryItems(_ raw: JSONValue, path: String) throws -> [CompositionalBoundaryItem] {
        guard let list = raw.elements else { throw invalid(path, "expected an array of boundary items, got \(describe(raw))") }
        return try list.enumerated().map { i, element in
            let p = "\(path)[\(i)]"
            let object = try self.object(element, path: p, expected: "a boundary item object")
            try allow(object, ["elementKind", "layoutSize", "alignment", "extendsBoundary", "pinToVisibleBounds",
                               "absoluteOffset", "zIndex"], path: p)
            guard let kindValue = object["elementKind"] else { throw missing(p, "elementKind", kindSuchAs: "header") }
            let kind = try self.kind(kindValue, path: join(p, "elementKind"), role: .boundary)
            guard let size = object["layoutSize"] else { throw missing(p, "layoutSize") }
            let footer = kind == .footer || kind.rawValue == "UICollectionElementKindSectionFooter"
            var item = CompositionalBoundaryItem(kind: kind, size: try layoutSize(size, path: join(p, "layoutSize")),
                                                 alignment: footer ? .bottom : .top)
            if let v = object["alignment"] {
                item.alignment = try choice(v, path: join(p, "alignment"), CompositionalAlignment.allCases)
            }
            if let v = object["extendsBoundary"] { item.extendsBoundary = try bool(v, path: join(p, "extendsBoundary")) }
            if let v = object["pinToVisibleBounds"] { item.pinsToVisibleBounds = try bool(v, path: join(p, "pinToVisibleBounds")) }
            if let v = object["absoluteOffset"] { item.absoluteOffset = try point(v, path: join(p, "absoluteOffset")) }
            if let v = object["zIndex"] { item.zIndex = try integer(v, path: join(p, "zIndex")) }
            return item
        }
    }

    // MARK: - Groups and items

    private func group(_ raw: JSONValue, path: String, depth: Int) throws -> CompositionalGroup {
        let (key, body) = try oneOf("horizontal", "vertical", in: raw, path: path)
        let p = join(path, key)
        if depth > CompositionalLayout.maximumNestingDepth {
            throw invalid(p, "groups nest more than \(CompositionalLayout.maximumNestingDepth) deep")
        }
        let axis: CompositionalAxis = key == "horizontal" ? .horizontal : .vertical
        let fields = try self.object(body, path: p, expected: "a group object")
        try allow(fields, ["layoutSize", "subitems", "subitem", "repeatingSubitem", "count", "repeatingCount",
                           "interItemSpacing", "contentInsets", "edgeSpacing", "supplementaryItems"], path: p)
        guard let size = fields["layoutSize"] else { throw missing(p, "layoutSize") }
        let given = ["subitems", "subitem", "repeatingSubitem"].filter { fields[$0] != nil }
        if given.count > 1 { throw conflict(join(p, given[1]), given[0]) }
        let list: [JSONValue]
        let sp: String
        // Swift's `subitem:count:` and iOS 16's `repeatingSubitem:count:`: one subitem, not in
        // an array, and a count (the latter's is a repeating count).
        let single = fields["subitem"] != nil ? "subitem" : fields["repeatingSubitem"] != nil ? "repeatingSubitem" : nil
        if let single, let one = fields[single] {
            sp = join(p, single)
            list = [one]
            if fields["count"] == nil && fields["repeatingCount"] == nil {
                throw invalid(p, "no \"count\": '\(single)' goes with a count, as \(single):count: does")
            }
            if single == "repeatingSubitem" && fields["repeatingCount"] != nil {
                throw invalid(join(p, "repeatingCount"), "'repeatingSubitem' takes \"count\", its repeating count")
            }
        } else {
            guard let subitemsValue = fields["subitems"] else { throw missing(p, "subitems") }
            sp = join(p, "subitems")
            guard let elements = subitemsValue.elements, !elements.isEmpty else {
                throw invalid(sp, "expected a non-empty array of {\"item\": …} or {\"group\": …}, got \(describe(subitemsValue))")
            }
            list = elements
        }
        var repetition = CompositionalRepetition.fit
        if fields["count"] != nil && fields["repeatingCount"] != nil {
            throw conflict(join(p, "repeatingCount"), "count")
        }
        for key in ["count", "repeatingCount"] {
            guard let v = fields[key] else { continue }
            let n = try integer(v, path: join(p, key))
            guard n >= 1, n <= maximumElementCount else {
                throw DatasetError.expected(path: join(p, key), .integerRange(from: 1, to: maximumElementCount), got: "\(n)")
            }
            guard list.count == 1 else {
                throw invalid(sp, "'\(key)' repeats one subitem: expected one, got \(list.count)")
            }
            repetition = key == "count" && fields["repeatingSubitem"] == nil ? .count(n) : .repeating(n)
        }
        let subitems = try list.enumerated().map { i, element in
            try subitem(element, path: single != nil ? sp : "\(sp)[\(i)]", depth: depth)
        }
        var group = CompositionalGroup(axis: axis, size: try layoutSize(size, path: join(p, "layoutSize")), subitems: subitems,
                                       repetition: repetition)
        if let v = fields["interItemSpacing"] { group.interItemSpacing = try spacing(v, path: join(p, "interItemSpacing")) }
        if let v = fields["contentInsets"] { group.contentInsets = try insets(v, path: join(p, "contentInsets")) }
        if let v = fields["edgeSpacing"] { group.edgeSpacing = try edgeSpacing(v, path: join(p, "edgeSpacing")) }
        if let v = fields["supplementaryItems"] { group.supplementaryItems = try badges(v, path: join(p, "supplementaryItems")) }
        return group
    }

    /// An object of exactly one member, `first` or `second` (`{"horizontal": …}`): its key and value.
    private func oneOf(_ first: String, _ second: String, in raw: JSONValue, path: String) throws -> (String, JSONValue) {
        let object = try self.object(raw, path: path, expected: "{\"\(first)\": …} or {\"\(second)\": …}")
        try allow(object, [first, second], path: path)
        guard object.count == 1, let (key, body) = object.first else {
            throw invalid(path, "expected exactly one of '\(first)' or '\(second)'")
        }
        return (key, body)
    }

    private func subitem(_ raw: JSONValue, path: String, depth: Int) throws -> CompositionalSubitem {
        let (key, body) = try oneOf("item", "group", in: raw, path: path)
        if key == "group" { return .group(try group(body, path: join(path, "group"), depth: depth + 1)) }
        let p = join(path, "item")
        let fields = try self.object(body, path: p, expected: "an item object")
        try allow(fields, ["layoutSize", "contentInsets", "edgeSpacing", "supplementaryItems"], path: p)
        guard let size = fields["layoutSize"] else { throw missing(p, "layoutSize") }
        var item = CompositionalItem(size: try layoutSize(size, path: join(p, "layoutSize")))
        if let v = fields["contentInsets"] { item.contentInsets = try insets(v, path: join(p, "contentInsets")) }
        if let v = fields["edgeSpacing"] { item.edgeSpacing = try edgeSpacing(v, path: join(p, "edgeSpacing")) }
        if let v = fields["supplementaryItems"] { item.supplementaryItems = try badges(v, path: join(p, "supplementaryItems")) }
        return .item(item)
    }

    private func badges(_ raw: JSONValue, path: String) throws -> [CompositionalSupplementaryItem] {
        guard let list = raw.elements else { throw invalid(path, "expected an array of supplementary items, got \(describe(raw))") }
        var seen: Set<ElementKind> = []
        return try list.enumerated().map { i, element in
            let badge = try badge(element, path: "\(path)[\(i)]")
            if !seen.insert(badge.kind).inserted {
                throw invalid("\(path)[\(i)].elementKind", "'\(badge.kind)' given twice: one view of a kind per index path")
            }
            return badge
        }
    }

    /// A kind a group's supplementary items use appears on no other item or group of the
    /// section's group (a group's items take its first item's index path, which a badge of
    /// that item or of a group around it would also take).
    private func checkSupplementaryKinds(_ group: CompositionalGroup, path: String) throws {
        var uses: [ElementKind: Int] = [:]
        func count(_ group: CompositionalGroup) {
            for badge in group.supplementaryItems { uses[badge.kind, default: 0] += 1 }
            for subitem in group.subitems {
                switch subitem {
                case .item(let item): for badge in item.supplementaryItems { uses[badge.kind, default: 0] += 1 }
                case .group(let inner): count(inner)
                }
            }
        }
        count(group)
        func check(_ group: CompositionalGroup, _ path: String) throws {
            let p = join(path, group.axis.rawValue)
            for (i, badge) in group.supplementaryItems.enumerated() where uses[badge.kind, default: 0] > 1 {
                throw invalid("\(p).supplementaryItems[\(i)].elementKind",
                              "'\(badge.kind)' is also used by another item or group of the section: give a group's supplementary items kinds of their own")
            }
            for (i, subitem) in group.subitems.enumerated() {
                if case .group(let inner) = subitem { try check(inner, "\(p).subitems[\(i)].group") }
            }
        }
        try check(group, path)
    }

    private func badge(_ raw: JSONValue, path: String) throws -> CompositionalSupplementaryItem {
        let object = try self.object(raw, path: path, expected: "a supplementary item object")
        try allow(object, ["elementKind", "layoutSize", "containerAnchor", "itemAnchor", "zIndex"], path: path)
        guard let kind = object["elementKind"] else { throw missing(path, "elementKind", kindSuchAs: "badge") }
        guard let size = object["layoutSize"] else { throw missing(path, "layoutSize") }
        guard let container = object["containerAnchor"] else { throw missing(path, "containerAnchor") }
        var badge = CompositionalSupplementaryItem(kind: try self.kind(kind, path: join(path, "elementKind"), role: .badge),
                                                   size: try layoutSize(size, path: join(path, "layoutSize")),
                                                   containerAnchor: try anchor(container, path: join(path, "containerAnchor")))
        if let v = object["itemAnchor"] { badge.itemAnchor = try anchor(v, path: join(path, "itemAnchor")) }
        if let v = object["zIndex"] { badge.zIndex = try integer(v, path: join(path, "zIndex")) }
        return badge
    }

    private func anchor(_ raw: JSONValue, path: String) throws -> CompositionalAnchor {
        let object = try self.object(raw, path: path, expected: "an anchor object")
        try allow(object, ["edges", "absoluteOffset", "fractionalOffset"], path: path)
        var anchor = CompositionalAnchor(edges: [])
        if let v = object["edges"] {
            let p = join(path, "edges")
            guard let list = v.elements else { throw invalid(p, "expected an array of edges, got \(describe(v))") }
            for (i, element) in list.enumerated() {
                let name = try choice(element, path: "\(p)[\(i)]", ["top", "leading", "bottom", "trailing"])
                let edge: CompositionalEdges = name == "top" ? .top : name == "leading" ? .leading : name == "bottom" ? .bottom : .trailing
                if anchor.edges.contains(edge) { throw invalid("\(p)[\(i)]", "'\(name)' given twice") }
                anchor.edges.insert(edge)
            }
            if anchor.edges.isSuperset(of: [.top, .bottom]) || anchor.edges.isSuperset(of: [.leading, .trailing]) {
                throw invalid(p, "opposite edges: expected at most one of top and bottom, one of leading and trailing")
            }
        }
        if object["absoluteOffset"] != nil && object["fractionalOffset"] != nil {
            throw conflict(join(path, "fractionalOffset"), "absoluteOffset")
        }
        if let v = object["absoluteOffset"] { anchor.offset = try point(v, path: join(path, "absoluteOffset")) }
        if let v = object["fractionalOffset"] {
            anchor.offset = try point(v, path: join(path, "fractionalOffset"))
            anchor.isFractional = true
        }
        return anchor
    }

    // MARK: - Values

    private func layoutSize(_ raw: JSONValue, path: String) throws -> CompositionalSize {
        let object = try self.object(raw, path: path, expected: "{\"width\": …, \"height\": …}")
        try allow(object, ["width", "height", "widthDimension", "heightDimension"], path: path)
        /// `name` or its Swift spelling `swift` (`widthDimension`), not both.
        func member(_ name: String, _ swift: String) throws -> (JSONValue, String) {
            if object[name] != nil && object[swift] != nil { throw conflict(join(path, swift), name) }
            if let v = object[name] { return (v, name) }
            if let v = object[swift] { return (v, swift) }
            throw invalid(path, "no \"\(name)\" (or \"\(swift)\")")
        }
        let (width, w) = try member("width", "widthDimension")
        let (height, h) = try member("height", "heightDimension")
        return CompositionalSize(width: try dimension(width, path: join(path, w)),
                                 height: try dimension(height, path: join(path, h)))
    }

    private func dimension(_ raw: JSONValue, path: String) throws -> CompositionalDimension {
        let expected = "expected fractionalWidth(f), fractionalHeight(f), absolute(pt) or estimated(pt)"
        guard case .string(let text) = raw, let (name, value) = call(text) else {
            throw invalid(path, "\(expected), got \(describe(raw))")
        }
        guard value.isFinite, value >= 0 else { throw invalid(path, "expected a finite number ≥ 0 in \(name)(…), got \(describe(raw))") }
        switch name {
        case "fractionalWidth": return .fractionalWidth(value)
        case "fractionalHeight": return .fractionalHeight(value)
        case "absolute": return .absolute(value)
        case "estimated": return .estimated(value)
        default: throw invalid(path, "\(expected), got \(describe(raw))")
        }
    }

    private func spacing(_ raw: JSONValue, path: String) throws -> CompositionalSpacing {
        guard case .string(let text) = raw, let (name, value) = call(text), name == "fixed" || name == "flexible" else {
            throw invalid(path, "expected fixed(pt) or flexible(pt), got \(describe(raw))")
        }
        guard value.isFinite, value >= 0 else { throw invalid(path, "expected a finite number ≥ 0 in \(name)(…), got \(describe(raw))") }
        return name == "fixed" ? .fixed(value) : .flexible(value)
    }

    private func edgeSpacing(_ raw: JSONValue, path: String) throws -> CompositionalEdgeSpacing {
        let object = try self.object(raw, path: path, expected: "an edge spacing object")
        try allow(object, ["leading", "top", "trailing", "bottom"], path: path)
        var result = CompositionalEdgeSpacing()
        if let v = object["leading"] { result.leading = try spacing(v, path: join(path, "leading")) }
        if let v = object["top"] { result.top = try spacing(v, path: join(path, "top")) }
        if let v = object["trailing"] { result.trailing = try spacing(v, path: join(path, "trailing")) }
        if let v = object["bottom"] { result.bottom = try spacing(v, path: join(path, "bottom")) }
        return result
    }

    /// `name(number)` or Swift's `.name(number)` split, or `nil` when `text` is not of that form.
    private func call(_ text: String) -> (String, Double)? {
        guard text.hasSuffix(")"), let open = text.firstIndex(of: "(") else { return nil }
        var spelled = Substring(text[..<open])
        if spelled.hasPrefix(".") { spelled = spelled.dropFirst() }
        let name = String(spelled)
        let argument = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard !name.isEmpty, let value = ValueSyntax.number(String(argument).trimmingCharacters(in: .whitespaces)) else { return nil }
        return (name, value)
    }

    /// `[top, leading, bottom, trailing]`, or any other spelling of insets (`JSONInsets`):
    /// finite points (negative insets are allowed, as in UIKit).
    private func insets(_ raw: JSONValue, path: String) throws -> EdgeInsets {
        try JSONInsets.read(raw, path: path)
    }

    /// `[x, y]` or a `CGPoint`'s `{"x": …, "y": …}` (each 0 when left out), finite.
    private func point(_ raw: JSONValue, path: String) throws -> Point {
        if case .object(let object) = raw {
            try allow(object, ["x", "y"], path: path)
            return Point(x: try object["x"].map { try finite($0, path: join(path, "x")) } ?? 0,
                         y: try object["y"].map { try finite($0, path: join(path, "y")) } ?? 0)
        }
        guard case .numbers(let values) = raw, values.count == 2 else {
            throw invalid(path, "expected [x, y] (two numbers), got \(describeArray(raw))")
        }
        return Point(x: values[0], y: values[1])
    }

    private func describeArray(_ raw: JSONValue) -> String {
        if let n = raw.arrayCount { return "an array of \(n)" + (raw.elements?.allSatisfy { if case .number = $0 { true } else { false } } == true ? " numbers" : " values") }
        return describe(raw)
    }

    /// An `elementKind`: any name `ElementKind.isValidName` accepts, in `role`.
    private func kind(_ raw: JSONValue, path: String, role: ElementKind.Role) throws -> ElementKind {
        guard case .string(let name) = raw, ElementKind.isValidName(name) else {
            throw invalid(path, "expected an element kind: 1 to \(ElementKind.maximumNameLength) ASCII letters, digits, '-', '_' "
                          + "or '.', the first a letter, digit or '_', got \(describe(raw))")
        }
        guard let kind = ElementKind(name, role: role) else { throw invalid(path, "more than 65,000 distinct element kinds") }
        return kind
    }

    private func choice<T: RawRepresentable>(_ raw: JSONValue, path: String, _ cases: [T]) throws -> T where T.RawValue == String {
        let name = try choice(raw, path: path, cases.map(\.rawValue))
        return cases.first { $0.rawValue == name }!
    }

    /// One of `names`, or Swift's spelling of it with a leading `.` (`.top`).
    private func choice(_ raw: JSONValue, path: String, _ names: [String]) throws -> String {
        try choice(raw, path: path, names, dropsDot: { names.contains(String($0.dropFirst())) })
    }

    private func nonNegative(_ raw: JSONValue, path: String) throws -> Double { try finiteNonNegative(raw, path: path) }

    private func integer(_ raw: JSONValue, path: String) throws -> Int {
        guard case .number(let v) = raw, v == v.rounded(), v.magnitude < 9.0e15 else { throw expected(path, .integer, raw) }
        return Int(v)
    }
}
