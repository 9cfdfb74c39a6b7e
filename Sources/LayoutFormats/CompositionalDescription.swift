import LayoutCore

// The compositional engine's dataset: a JSON description whose names mirror the Swift API
// (`NSCollectionLayoutSize`, `NSCollectionLayoutGroup`, …), decoded into LayoutCore's
// `CompositionalDescription`. Every unknown key, wrong type or impossible value is a
// `DatasetError.invalidValue` naming its JSON path.

/// Decodes a compositional description from the strict scanner's values.
struct CompositionalDescriptionDecoder {
    /// Items in all sections so far (at most `maximumElementCount`).
    private var itemTotal = 0

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
            description.sections.append(try section(element, path: "sections[\(i)]"))
        }
        return description
    }

    // MARK: - Sections

    private mutating func section(_ raw: JSONValue, path: String) throws -> CompositionalSection {
        let object = try self.object(raw, path: path, expected: "a section object")
        try allow(object, ["count", "group", "interGroupSpacing", "contentInsets", "orthogonalScrollingBehavior",
                           "orthogonalOffset", "boundarySupplementaryItems", "decorationItems",
                           "supplementariesFollowContentInsets"], path: path)
        guard let countValue = object["count"] else { throw invalid(path, "no \"count\": expected the section's item count") }
        let count = try self.count(countValue, path: join(path, "count"))
        itemTotal += count
        if itemTotal > maximumElementCount {
            throw invalid(join(path, "count"), "more than \(maximumElementCount) items in all")
        }
        guard let groupValue = object["group"] else { throw invalid(path, "no \"group\": expected {\"horizontal\": …} or {\"vertical\": …}") }
        let group = try self.group(groupValue, path: join(path, "group"), depth: 1)
        var section = CompositionalSection(count: count, group: group)
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
        return section
    }

    private func decoration(_ raw: JSONValue, path: String) throws -> CompositionalDecorationItem {
        let object = try self.object(raw, path: path, expected: "a decoration item object")
        try allow(object, ["elementKind", "contentInsets", "zIndex"], path: path)
        var item = CompositionalDecorationItem()
        guard let kind = object["elementKind"] else { throw invalid(path, "no \"elementKind\": expected \"background\"") }
        item.kind = try self.kind(kind, path: join(path, "elementKind"), [.background])
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
            guard let kindValue = object["elementKind"] else { throw invalid(p, "no \"elementKind\": expected \"header\" or \"footer\"") }
            let kind = try self.kind(kindValue, path: join(p, "elementKind"), [.header, .footer])
            guard let size = object["layoutSize"] else { throw invalid(p, "no \"layoutSize\"") }
            var item = CompositionalBoundaryItem(kind: kind, size: try layoutSize(size, path: join(p, "layoutSize")),
                                                 alignment: kind == .footer ? .bottom : .top)
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
        try allow(fields, ["layoutSize", "subitems", "count", "repeatingCount", "interItemSpacing", "contentInsets", "edgeSpacing"],
                  path: p)
        guard let size = fields["layoutSize"] else { throw invalid(p, "no \"layoutSize\"") }
        guard let subitemsValue = fields["subitems"] else { throw invalid(p, "no \"subitems\"") }
        let sp = join(p, "subitems")
        guard let list = subitemsValue.elements, !list.isEmpty else {
            throw invalid(sp, "expected a non-empty array of {\"item\": …} or {\"group\": …}, got \(describe(subitemsValue))")
        }
        var repetition = CompositionalRepetition.fit
        if fields["count"] != nil && fields["repeatingCount"] != nil {
            throw invalid(join(p, "repeatingCount"), "conflicts with 'count': give only one")
        }
        for key in ["count", "repeatingCount"] {
            guard let v = fields[key] else { continue }
            let n = try integer(v, path: join(p, key))
            guard n >= 1, n <= maximumElementCount else {
                throw invalid(join(p, key), "expected an integer from 1 to \(maximumElementCount), got \(n)")
            }
            guard list.count == 1 else {
                throw invalid(sp, "'\(key)' repeats one subitem: expected one, got \(list.count)")
            }
            repetition = key == "count" ? .count(n) : .repeating(n)
        }
        let subitems = try list.enumerated().map { i, element in
            try subitem(element, path: "\(sp)[\(i)]", depth: depth)
        }
        var group = CompositionalGroup(axis: axis, size: try layoutSize(size, path: join(p, "layoutSize")), subitems: subitems,
                                       repetition: repetition)
        if let v = fields["interItemSpacing"] { group.interItemSpacing = try spacing(v, path: join(p, "interItemSpacing")) }
        if let v = fields["contentInsets"] { group.contentInsets = try insets(v, path: join(p, "contentInsets")) }
        if let v = fields["edgeSpacing"] { group.edgeSpacing = try edgeSpacing(v, path: join(p, "edgeSpacing")) }
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
        guard let size = fields["layoutSize"] else { throw invalid(p, "no \"layoutSize\"") }
        var item = CompositionalItem(size: try layoutSize(size, path: join(p, "layoutSize")))
        if let v = fields["contentInsets"] { item.contentInsets = try insets(v, path: join(p, "contentInsets")) }
        if let v = fields["edgeSpacing"] { item.edgeSpacing = try edgeSpacing(v, path: join(p, "edgeSpacing")) }
        if let v = fields["supplementaryItems"] {
            let sp = join(p, "supplementaryItems")
            guard let list = v.elements else { throw invalid(sp, "expected an array of supplementary items, got \(describe(v))") }
            item.supplementaryItems = try list.enumerated().map { i, element in try badge(element, path: "\(sp)[\(i)]") }
        }
        return .item(item)
    }

    private func badge(_ raw: JSONValue, path: String) throws -> CompositionalSupplementaryItem {
        let object = try self.object(raw, path: path, expected: "a supplementary item object")
        try allow(object, ["elementKind", "layoutSize", "containerAnchor", "itemAnchor", "zIndex"], path: path)
        guard let kind = object["elementKind"] else { throw invalid(path, "no \"elementKind\": expected \"badge\"") }
        guard let size = object["layoutSize"] else { throw invalid(path, "no \"layoutSize\"") }
        guard let container = object["containerAnchor"] else { throw invalid(path, "no \"containerAnchor\"") }
        var badge = CompositionalSupplementaryItem(kind: try self.kind(kind, path: join(path, "elementKind"), [.badge]),
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
            throw invalid(join(path, "fractionalOffset"), "conflicts with 'absoluteOffset': give only one")
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
        try allow(object, ["width", "height"], path: path)
        guard let width = object["width"] else { throw invalid(path, "no \"width\"") }
        guard let height = object["height"] else { throw invalid(path, "no \"height\"") }
        return CompositionalSize(width: try dimension(width, path: join(path, "width")),
                                 height: try dimension(height, path: join(path, "height")))
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

    /// `name(number)` split, or `nil` when `text` is not of that form.
    private func call(_ text: String) -> (String, Double)? {
        guard text.hasSuffix(")"), let open = text.firstIndex(of: "(") else { return nil }
        let name = String(text[..<open])
        let argument = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard !name.isEmpty, let value = ValueSyntax.number(String(argument).trimmingCharacters(in: .whitespaces)) else { return nil }
        return (name, value)
    }

    /// `[top, leading, bottom, trailing]`, or any other spelling of insets (`JSONInsets`):
    /// finite points (negative insets are allowed, as in UIKit).
    private func insets(_ raw: JSONValue, path: String) throws -> EdgeInsets {
        try JSONInsets.read(raw, path: path)
    }

    private func point(_ raw: JSONValue, path: String) throws -> Point {
        guard case .numbers(let values) = raw, values.count == 2 else {
            throw invalid(path, "expected [x, y] (two numbers), got \(describeArray(raw))")
        }
        return Point(x: values[0], y: values[1])
    }

    private func describeArray(_ raw: JSONValue) -> String {
        if let n = raw.arrayCount { return "an array of \(n)" + (raw.elements?.allSatisfy { if case .number = $0 { true } else { false } } == true ? " numbers" : " values") }
        return describe(raw)
    }

    private func kind(_ raw: JSONValue, path: String, _ allowed: [ElementKind]) throws -> ElementKind {
        let name = try choice(raw, path: path, allowed.map(\.rawValue))
        return ElementKind(rawValue: name)!
    }

    private func choice<T: RawRepresentable>(_ raw: JSONValue, path: String, _ cases: [T]) throws -> T where T.RawValue == String {
        let name = try choice(raw, path: path, cases.map(\.rawValue))
        return cases.first { $0.rawValue == name }!
    }

    private func choice(_ raw: JSONValue, path: String, _ names: [String]) throws -> String {
        guard case .string(let s) = raw else { throw invalid(path, "expected \(list(names)), got \(describe(raw))") }
        guard names.contains(s) else { throw invalid(path, "expected \(list(names)), got \(describe(raw))" + didYouMean(s, among: names)) }
        return s
    }

    private func bool(_ raw: JSONValue, path: String) throws -> Bool {
        guard case .bool(let b) = raw else { throw invalid(path, "expected true or false, got \(describe(raw))") }
        return b
    }

    private func finite(_ raw: JSONValue, path: String) throws -> Double {
        guard case .number(let v) = raw, v.isFinite else { throw invalid(path, "expected a finite number, got \(describe(raw))") }
        return v
    }

    private func nonNegative(_ raw: JSONValue, path: String) throws -> Double {
        guard case .number(let v) = raw, v.isFinite, v >= 0 else { throw invalid(path, "expected a finite number ≥ 0, got \(describe(raw))") }
        return v
    }

    private func integer(_ raw: JSONValue, path: String) throws -> Int {
        guard case .number(let v) = raw, v == v.rounded(), v.magnitude < 9.0e15 else {
            throw invalid(path, "expected an integer, got \(describe(raw))")
        }
        return Int(v)
    }

    private func count(_ raw: JSONValue, path: String) throws -> Int {
        guard case .number(let v) = raw, v == v.rounded(), v >= 0, v <= Double(maximumElementCount) else {
            throw invalid(path, "expected an integral count from 0 to \(maximumElementCount), got \(describe(raw))")
        }
        return Int(v)
    }

    private func object(_ raw: JSONValue, path: String, expected: String) throws -> JSONObject {
        guard case .object(let object) = raw else { throw invalid(path, "expected \(expected), got \(describe(raw))") }
        return object
    }

    /// Throws for the first key (in sorted order) not among `keys`.
    private func allow(_ object: JSONObject, _ keys: [String], path: String) throws {
        for key in object.keys.sorted() where !keys.contains(key) {
            throw invalid(join(path, key), "unknown key" + didYouMean(key, among: keys) + " (expected \(list(keys)))")
        }
    }

    private func invalid(_ path: String, _ message: String) -> DatasetError {
        .invalidValue(path: path.isEmpty ? "(top level)" : path, message: message)
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private func list(_ keys: [String]) -> String {
        let quoted = keys.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }
}
