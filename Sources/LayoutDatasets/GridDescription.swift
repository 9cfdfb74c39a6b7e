import FastText
import LayoutCore

// The grid engine's dataset: a LazyVGrid or LazyHGrid described with SwiftUI's names
// (`columns` of `GridItem`s, `spacing`, `alignment`, `pinnedViews`) and its sections, decoded
// into LayoutCore's `GridLayout` and the dataset's sections. Every unknown key, wrong type or
// impossible value is a `DatasetError.invalidValue` naming its JSON path.

/// Decodes a grid description from the strict scanner's values.
struct GridDescriptionDecoder: DescriptionDecoding {
    /// Items in all sections so far (at most `maximumElementCount`).
    private var itemTotal = 0

    /// The grid (its `itemLength` left at the default: `--item-height` sets it) and its
    /// sections, from the top-level `object` (whose `"options"` the caller reads).
    /// - Throws: `DatasetError.invalidValue` with the JSON path of the first bad value.
    /// - Complexity: O(size of the description).
    mutating func description(_ object: JSONObject) throws -> (GridLayout, [DatasetSection]) {
        try allow(object, ["axis", "columns", "rows", "spacing", "alignment", "pinnedViews", "padding", "sections", "options"],
                  path: "")
        var grid = GridLayout()
        if object["columns"] != nil && object["rows"] != nil {
            throw invalid("rows", "conflicts with 'columns': a LazyVGrid has columns, a LazyHGrid rows; give only one")
        }
        if let v = object["axis"] {
            grid.axis = try choice(v, path: "axis", ScrollDirection.allCases.map(\.rawValue)) == "vertical" ? .vertical : .horizontal
        } else if object["rows"] != nil {
            grid.axis = .horizontal
        }
        let vertical = grid.axis == .vertical
        let key = vertical ? "columns" : "rows"
        let other = vertical ? "rows" : "columns"
        if object[other] != nil {
            throw invalid(other, "goes with axis \(vertical ? "horizontal" : "vertical"): a \(vertical ? "LazyVGrid" : "LazyHGrid") has '\(key)'")
        }
        guard let itemsValue = object[key] else {
            throw invalid("", "no \"\(key)\": expected \"\(key)\": [{\"flexible\": {}}, {\"fixed\": 100}, {\"adaptive\": {\"minimum\": 80}}, …]")
        }
        guard let itemList = itemsValue.elements, !itemList.isEmpty else {
            throw invalid(key, "expected a non-empty array of grid items, got \(describe(itemsValue))")
        }
        grid.items = try itemList.enumerated().map { i, raw in try gridItem(raw, path: "\(key)[\(i)]", vertical: vertical) }
        if let v = object["spacing"] { grid.spacing = try nonNegative(v, path: "spacing") }
        if let v = object["alignment"] {
            let names = vertical ? ["leading", "center", "trailing"] : ["top", "center", "bottom"]
            let others = vertical ? ["top", "bottom"] : ["leading", "trailing"]
            if case .string(let given) = v, others.contains(given) {
                throw invalid("alignment", "expected \(quotedList(names)), got \(describe(v)) (a \(vertical ? "LazyVGrid" : "LazyHGrid")'s "
                              + "alignment is \(vertical ? "horizontal" : "vertical"); an item's own goes in its GridItem)")
            }
            let name = try choice(v, path: "alignment", names)
            grid.alignment = name == names[0] ? .leading : name == "center" ? .center : .trailing
        }
        if let v = object["pinnedViews"] {
            guard let views = v.elements else {
                throw invalid("pinnedViews", "expected an array of \"sectionHeaders\" and \"sectionFooters\", got \(describe(v))")
            }
            for (i, view) in views.enumerated() {
                let name = try choice(view, path: "pinnedViews[\(i)]", ["sectionHeaders", "sectionFooters"])
                if name == "sectionHeaders" { grid.pinsSectionHeaders = true } else { grid.pinsSectionFooters = true }
            }
        }
        if let v = object["padding"] { grid.padding = try padding(v, path: "padding") }
        guard let raw = object["sections"] else {
            throw invalid("", "no sections: expected \"sections\": [{\"header\": 44, \"items\": [120, 80, [100, 60]]} or {\"count\": N}, …]")
        }
        guard let sectionList = raw.elements else {
            throw invalid("sections", "expected an array of section objects, got \(describe(raw))")
        }
        var sections: [DatasetSection] = []
        for (i, element) in sectionList.enumerated() {
            sections.append(try section(element, path: "sections[\(i)]"))
        }
        return (grid, sections)
    }

    // MARK: - Grid items

    private func gridItem(_ raw: JSONValue, path: String, vertical: Bool) throws -> GridItem {
        let sizes = ["fixed", "flexible", "adaptive"]
        let object = try self.object(raw, path: path, expected: "a grid item object ({\"fixed\": 100}, {\"flexible\": {}} or {\"adaptive\": {\"minimum\": 80}})")
        try allow(object, sizes + ["spacing", "alignment"], path: path)
        let given = sizes.filter { object[$0] != nil }
        guard let kind = given.first else { throw invalid(path, "no size: expected one of 'fixed', 'flexible' or 'adaptive'") }
        guard given.count == 1 else { throw invalid(join(path, given[1]), "conflicts with '\(kind)': give only one size") }
        let p = join(path, kind)
        let value = object[kind]!
        let size: GridItemSize
        switch kind {
        case "fixed":
            size = .fixed(try nonNegative(value, path: p))
        default:
            let range = try self.object(value, path: p, expected: kind == "flexible" ? "{\"minimum\": …, \"maximum\": …} (both optional)"
                                                                                      : "{\"minimum\": …, \"maximum\": …} (maximum optional)")
            try allow(range, ["minimum", "maximum"], path: p)
            var minimum = 10.0
            if let v = range["minimum"] {
                minimum = kind == "adaptive" ? try positive(v, path: join(p, "minimum")) : try nonNegative(v, path: join(p, "minimum"))
            } else if kind == "adaptive" {
                throw invalid(p, "no \"minimum\": an adaptive item needs its minimum width")
            }
            var maximum = Double.infinity
            if let v = range["maximum"] {
                maximum = try nonNegative(v, path: join(p, "maximum"))
                guard maximum >= minimum else {
                    throw invalid(join(p, "maximum"), "expected a maximum ≥ the minimum (\(describe(minimum))), got \(describe(v))")
                }
            }
            size = kind == "flexible" ? .flexible(minimum: minimum, maximum: maximum) : .adaptive(minimum: minimum, maximum: maximum)
        }
        var item = GridItem(size)
        if let v = object["spacing"] { item.spacing = try nonNegative(v, path: join(path, "spacing")) }
        if let v = object["alignment"] {
            let name = try choice(v, path: join(path, "alignment"), GridItemAlignment.allCases.map(\.rawValue))
            item.alignment = GridItemAlignment(rawValue: name)
        }
        return item
    }

    // MARK: - Sections

    private mutating func section(_ raw: JSONValue, path: String) throws -> DatasetSection {
        let object = try self.object(raw, path: path, expected: "a section object")
        try allow(object, ["header", "footer", "items", "count"], path: path)
        if object["items"] != nil && object["count"] != nil {
            throw conflict(join(path, "count"), "items")
        }
        var section: DatasetSection
        if let v = object["count"] {
            let n = try count(v, path: join(path, "count"))
            try reserve(n, path: join(path, "count"))
            section = DatasetSection(items: .uniform(count: n))
        } else if let v = object["items"] {
            section = DatasetSection(items: try items(v, path: join(path, "items")))
        } else {
            section = DatasetSection(items: .heights([]))
        }
        section.path = path
        if let v = object["header"] { section.header = try nonNegative(v, path: join(path, "header")) }
        if let v = object["footer"] { section.footer = try nonNegative(v, path: join(path, "footer")) }
        return section
    }

    /// Heights (or widths, along a LazyHGrid) and `[width, height]` frames, in any mix.
    private mutating func items(_ raw: JSONValue, path: String) throws -> SectionItems {
        guard let n = raw.arrayCount else {
            throw invalid(path, "expected an array of heights and [width, height] sizes, got \(describe(raw))")
        }
        try reserve(n, path: path)
        switch raw {
        case .numbers(let values):
            var result = values
            for i in result.indices {
                let v = result[i]
                guard v.isFinite && v >= 0 else {
                    throw expected("\(path)[\(i)]", .finiteNonNegative, .number(v))
                }
                if v == 0 { result[i] = 0 }  // -0 reads as 0
            }
            return .heights(result)
        case .pairs(let flat):
            var sizes: [Size] = []
            sizes.reserveCapacity(n)
            for i in 0..<n { sizes.append(try size(flat[2 * i], flat[2 * i + 1], path: "\(path)[\(i)]")) }
            return .sizes(sizes)
        default:
            var measures: [ItemMeasure] = []
            measures.reserveCapacity(n)
            for (i, element) in (raw.elements ?? []).enumerated() {
                let p = "\(path)[\(i)]"
                switch element {
                case .number(let v):
                    measures.append(.height(try nonNegative(.number(v), path: p)))
                case .numbers(let pair) where pair.count == 2:
                    measures.append(.size(try size(pair[0], pair[1], path: p)))
                default:
                    throw invalid(p, "expected a height or a [width, height] size, got \(describeCounted(element))")
                }
            }
            return .mixed(measures)
        }
    }

    private func size(_ w: Double, _ h: Double, path: String) throws -> Size {
        guard w.isFinite, w > 0 else { throw invalid(path + "[0]", "expected a finite width > 0, got \(describe(w))") }
        guard h.isFinite, h >= 0 else { throw expected(path + "[1]", .finiteNonNegative, .number(h)) }
        return Size(width: w, height: h == 0 ? 0 : h)
    }

    // MARK: - Values

    /// Insets as everywhere else (`JSONInsets`: a number, `"T,L,B,R"`, `[T, L, B, R]`, or
    /// SwiftUI's `EdgeInsets` as `{"top", "leading", "bottom", "trailing"}`); finite, ≥ 0.
    private func padding(_ raw: JSONValue, path: String) throws -> EdgeInsets {
        let insets = try JSONInsets.read(raw, path: path)
        guard [insets.top, insets.left, insets.bottom, insets.right].allSatisfy({ $0 >= 0 }) else {
            throw invalid(path, "expected padding of finite numbers ≥ 0, got \(describe(raw))")
        }
        return insets
    }

    private mutating func reserve(_ n: Int, path: String) throws {
        itemTotal += n
        if itemTotal > maximumElementCount {
            throw invalid(path, "more than \(maximumElementCount) items in all")
        }
    }

    private func choice(_ raw: JSONValue, path: String, _ names: [String]) throws -> String {
        try choice(raw, path: path, names, dropsDot: { _ in true })  // Swift's spelling: `.topLeading`, `.sectionHeaders`
    }

    /// A finite number ≥ 0, −0 read as 0.
    private func nonNegative(_ raw: JSONValue, path: String) throws -> Double {
        let v = try finiteNonNegative(raw, path: path)
        return v == 0 ? 0 : v
    }
}
