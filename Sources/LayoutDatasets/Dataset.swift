import Foundation
import LayoutCore
import FastText

/// A decoded dataset (SPEC section 5): sections of items, and the `"options"` object.
public struct Dataset: Sendable, Equatable {
    /// The sections in order: one for a bare array or a top-level `heights`/`sizes`/`count`;
    /// one `.uniform(count:)` per ring for ring counts.
    public var sections: [DatasetSection]
    /// The `"options"` entries in key order.
    public var options: [DatasetOption]
    /// The `.compositional` description, its sections' counts also in `sections` (for batch updates).
    public var compositional: CompositionalDescription?
    /// The grid's settings (`DatasetSchema.grid`), its sections in `sections`; else `nil`.
    public var grid: GridLayout?

    /// Creates a dataset.
    public init(sections: [DatasetSection], options: [DatasetOption] = [], compositional: CompositionalDescription? = nil,
                grid: GridLayout? = nil) {
        self.sections = sections
        self.options = options
        self.compositional = compositional
        self.grid = grid
    }

    /// Total number of items.
    public var itemCount: Int { sections.reduce(0) { $0 + $1.items.count } }
}

/// One section of a dataset with the JSON path it came from (for error messages).
public struct DatasetSection: Sendable, Equatable {
    /// The items.
    public var items: SectionItems
    /// `"header"` height, points.
    public var header: Double?
    /// `"footer"` height, points.
    public var footer: Double?
    /// `"columns"`, ≥ 1.
    public var columns: Int?
    /// `"insets"`.
    public var insets: EdgeInsets?
    /// `"column-spacing"` (waterfall), points.
    public var columnSpacing: Double?
    /// `"item-spacing"` (waterfall), points.
    public var itemSpacing: Double?
    /// `"header-insets"` (waterfall).
    public var headerInsets: EdgeInsets?
    /// `"footer-insets"` (waterfall).
    public var footerInsets: EdgeInsets?
    /// Each item's `"span"` from `"items"` objects (`"full"`: `WaterfallSection.fullSpan`); `nil` if all are 1.
    public var spans: [Int]?
    /// Whether the items came from an `"items"` array (the waterfall's item objects).
    public var usesItemObjects = false
    /// JSON path of the section object (`sections[1]`), or `""` for a top-level section.
    public var path: String

    /// Creates a section.
    public init(items: SectionItems, header: Double? = nil, footer: Double? = nil, columns: Int? = nil,
                insets: EdgeInsets? = nil, path: String = "") {
        self.items = items
        self.header = header
        self.footer = footer
        self.columns = columns
        self.insets = insets
        self.path = path
    }

    /// The keys given that only the waterfall reads, in `DatasetKeys.all` order (not `columns`).
    public var waterfallOnlyKeys: [String] {
        [("items", usesItemObjects), ("column-spacing", columnSpacing != nil), ("item-spacing", itemSpacing != nil),
         ("header-insets", headerInsets != nil), ("footer-insets", footerInsets != nil)]
            .filter(\.1).map(\.0)
    }
}

/// One `"options"` entry: a long flag name without dashes, and its value.
public struct DatasetOption: Sendable, Equatable {
    /// A value as JSON gives it.
    public enum Value: Sendable, Equatable {
        case number(Double)
        case string(String)
        case bool(Bool)
    }

    /// The long flag name without dashes (`column-spacing`).
    public var key: String
    /// The value as JSON gave it.
    public var value: Value
    /// JSON path, `options.columns`.
    public var path: String
}

/// What a dataset's items mean, which decides the keys it may hold.
public enum DatasetSchema: Sendable {
    /// Item heights or sizes: a bare array, `heights`, `sizes`, `count`, `sections`.
    case items
    /// Ring counts: a bare array of counts or `rings`.
    case ringCounts
    /// A compositional layout's description (CompositionalDescription.swift).
    case compositional
    /// A lazy grid's description (GridDescription.swift).
    case grid
}

/// The keys of an `.items` dataset an engine reads, for messages (it refuses others as "not used by ENGINE").
public struct DatasetKeys: Sendable, Equatable {
    /// Top-level keys besides `"options"`, the item keys first (`heights`, `sizes`, …).
    public var topLevel: [String]
    /// Keys of a section object.
    public var section: [String]

    /// Every key of the `.items` schema: the waterfall's.
    public static let all = DatasetKeys(
        topLevel: ["heights", "sizes", "items", "count", "sections"],
        section: ["heights", "sizes", "items", "count", "header", "footer", "columns", "insets",
                  "column-spacing", "item-spacing", "header-insets", "footer-insets"])
    /// Sections with headers, footers and insets, no columns or item objects (flow, justified).
    public static let sectioned = DatasetKeys(
        topLevel: ["heights", "sizes", "count", "sections"],
        section: ["heights", "sizes", "count", "header", "footer", "insets"])
    /// One section of items, nothing else (line, carousel, stack, circle).
    public static let singleSection = DatasetKeys(
        topLevel: ["heights", "sizes", "count", "sections"], section: ["heights", "sizes", "count"])
}

/// Decodes datasets: the strict scanner builds the values, then a walk checks them.
public enum DatasetDecoder {
    /// Decodes `data` as `schema` describes; `keys`: those the engine reads (`.items`), for messages.
    /// - Throws: `DatasetError`. Counts must be integral and ≥ 0; heights finite and ≥ 0;
    ///   sizes `[width > 0, height ≥ 0]`; at most `maximumElementCount` items in all,
    ///   checked before anything of that size is allocated.
    /// - Complexity: O(size of `data`); 8 bytes a number in an array of numbers or pairs.
    public static func decode(_ data: Data, schema: DatasetSchema, keys: DatasetKeys = .all) throws -> Dataset {
        var decoder = Walker(schema: schema, keys: keys)
        return try decoder.dataset(DatasetError.values(data))
    }
}

/// Walks the value tree, keeping the JSON path for messages.
private struct Walker: DescriptionDecoding {
    let schema: DatasetSchema
    let keys: DatasetKeys
    var itemTotal = 0

    mutating func dataset(_ root: JSONValue) throws -> Dataset {
        if root.arrayCount != nil && (schema == .items || schema == .ringCounts) {
            return Dataset(sections: try topLevelArray(root))
        }
        let object = try self.object(root, path: "", expected: expectedTopLevel)
        if schema == .compositional {
            var decoder = CompositionalDescriptionDecoder()
            let description = try decoder.description(object)
            let sections = zip(description.sections, decoder.sectionPaths).map { DatasetSection(items: .uniform(count: $0.count), path: $1) }
            return Dataset(sections: sections, options: try options(object["options"]), compositional: description)
        }
        if schema == .grid {
            var decoder = GridDescriptionDecoder()
            let (grid, sections) = try decoder.description(object)
            return Dataset(sections: sections, options: try options(object["options"]), grid: grid)
        }
        let allowedKeys = schema == .items ? DatasetKeys.all.topLevel + ["options"] : ["rings", "options"]
        let namedKeys = schema == .items ? keys.topLevel + ["options"] : allowedKeys
        try allow(object, allowedKeys, path: "", named: namedKeys)
        let options = try self.options(object["options"])
        let itemKeys = allowedKeys.filter { $0 != "options" && object[$0] != nil }
        guard itemKeys.count <= 1 else {
            throw DatasetError.conflictingKeys(path: itemKeys[1], other: itemKeys[0], choices: Array(namedKeys.dropLast()))
        }
        guard let key = itemKeys.first, let value = object[key] else {
            throw invalid("", "no items: expected one of \(quotedList(namedKeys.dropLast()))")
        }
        guard key == "sections" || key == "rings" else {
            return Dataset(sections: [try items(key: key, value: value, path: key)], options: options)  // its path ""
        }
        guard value.arrayCount != nil else {
            throw invalid(key, "expected an array of \(key == "rings" ? "ring counts" : "section objects"), got \(describe(value))")
        }
        if key == "rings" { return Dataset(sections: try ringCounts(value, path: key), options: options) }
        let sections = try value.elements!.enumerated().map { try section($1, path: "sections[\($0)]") }
        return Dataset(sections: sections, options: options)
    }

    private var expectedTopLevel: String {
        switch schema {
        case .items: "an array of heights, [width, height] sizes or {\"width\": W, \"height\": H} objects, or an object of "
            + quotedList(keys.topLevel + ["options"])
        case .ringCounts: "an array of ring counts or an object with \"rings\""
        case .compositional: "a compositional layout description: an object with \"sections\""
        case .grid: "a grid description: an object with \"columns\" (or \"rows\") and \"sections\""
        }
    }

    /// A top-level array (`array.arrayCount != nil`) of an `.items` or `.ringCounts` dataset.
    private mutating func topLevelArray(_ array: JSONValue) throws -> [DatasetSection] {
        if schema == .ringCounts { return try ringCounts(array, path: "") }
        // `[[w, h], …]`, or Flickr's own input `[{"width": w, "height": h}, …]`, are sizes.
        var takesSizes = false
        if case .pairs = array { takesSizes = true }
        if case .array(let elements) = array, let first = elements.first { takesSizes = first.arrayCount != nil || first.isObject }
        return [try measures(array, path: "", takesSizes ? .sizes : .heights)]
    }

    /// Ring counts from an array (`array.arrayCount != nil`): one section per ring.
    private mutating func ringCounts(_ array: JSONValue, path: String) throws -> [DatasetSection] {
        // Plain counts are read in place, not expanded.
        let numbers: [Double]? = if case .numbers(let values) = array { values } else { nil }
        let elements = numbers == nil ? array.elements ?? [] : []
        return try (0..<(array.arrayCount ?? 0)).map { i in
            let raw = numbers.map { .number($0[i]) } ?? elements[i], itemPath = "\(path)[\(i)]"
            if raw.arrayCount != nil || raw.isObject {
                // Sizes or item objects: another engine's data; say what ring takes.
                throw invalid(itemPath, "expected a ring count (an integer ≥ 0; ring takes [1, 6, 12, …] "
                              + "or {\"rings\": […]}), got \(describe(raw))")
            }
            return DatasetSection(items: .uniform(count: try count(raw, path: itemPath)), path: itemPath)
        }
    }

    private mutating func section(_ raw: JSONValue, path: String) throws -> DatasetSection {
        let object = try self.object(raw, path: path, expected: "a section object")
        let named = keys.section
        try allow(object, DatasetKeys.all.section, path: path, named: named)
        let itemKeys = ["heights", "sizes", "items", "count"].filter { object[$0] != nil }
        guard itemKeys.count <= 1 else {
            let namedItems = ["heights", "sizes", "items", "count"].filter(named.contains)
            throw invalid(join(path, itemKeys[1]), "conflicts with '\(itemKeys[0])': give only one of "
                          + quotedList(namedItems).replacingOccurrences(of: "'", with: ""))
        }
        var result = try itemKeys.first.map { try items(key: $0, value: object[$0]!, path: join(path, $0)) }
            ?? DatasetSection(items: .heights([]))  // a section with no items
        result.path = path
        if let v = object["header"] { result.header = try nonNegative(v, path: join(path, "header")) }
        if let v = object["footer"] { result.footer = try nonNegative(v, path: join(path, "footer")) }
        if let v = object["columns"] { result.columns = try integer(v, path: join(path, "columns"), atLeast: 1) }
        if let v = object["insets"] { result.insets = try insets(v, path: join(path, "insets")) }
        if let v = object["column-spacing"] { result.columnSpacing = try nonNegative(v, path: join(path, "column-spacing")) }
        if let v = object["item-spacing"] { result.itemSpacing = try nonNegative(v, path: join(path, "item-spacing")) }
        if let v = object["header-insets"] { result.headerInsets = try insets(v, path: join(path, "header-insets")) }
        if let v = object["footer-insets"] { result.footerInsets = try insets(v, path: join(path, "footer-insets")) }
        return result
    }

    /// The section of the item key `key` (`heights`, `sizes`, `items` or `count`).
    private mutating func items(key: String, value: JSONValue, path: String) throws -> DatasetSection {
        if key == "count" { return DatasetSection(items: .uniform(count: try count(value, path: path))) }
        let kinds = ElementKinds(rawValue: key)!
        guard value.arrayCount != nil else {
            let what = kinds == .heights ? "heights" : kinds == .sizes ? "[width, height] sizes"
                : "items ({\"height\": H} or {\"size\": [W, H]}, with an optional \"span\")"
            throw invalid(path, "expected an array of \(what), got \(describe(value))")
        }
        var section = try measures(value, path: path, kinds)
        section.usesItemObjects = kinds == .items
        return section
    }

    /// What an array of measures may hold, by its key: `"items"` takes heights, sizes and item objects.
    private enum ElementKinds: String {
        case heights, sizes, items
    }

    /// The measures of `array` (an array) as `kinds` allows; flat numbers or pairs checked in place.
    private mutating func measures(_ array: JSONValue, path: String, _ kinds: ElementKinds) throws -> DatasetSection {
        try reserve(array.arrayCount ?? 0, path: path)
        switch array {
        case .numbers(let values) where kinds != .sizes:
            // The common shape: check in place, build no path unless one is bad.
            var result = values
            for i in result.indices {
                let v = result[i]
                guard v.isFinite && v >= 0 else { throw expected("\(path)[\(i)]", .finiteNonNegative, .number(v)) }
                if v == 0 && v.sign == .minus { result[i] = 0 }  // -0 reads as 0
            }
            return DatasetSection(items: .heights(result))
        case .pairs(let flat) where kinds != .heights:
            var result: [Size] = []
            result.reserveCapacity(flat.count / 2)
            for i in 0..<(flat.count / 2) {
                let w = flat[2 * i], h = flat[2 * i + 1]
                guard w.isFinite && w > 0 && h.isFinite && h >= 0 else {
                    // A JSON number is finite.
                    let itemPath = "\(path)[\(i)]"
                    throw w > 0 ? expected(itemPath + "[1]", .finiteNonNegative, .number(h)) : expected(itemPath + "[0]", .width, .number(w))
                }
                result.append(Size(width: w, height: h == 0 ? 0 : h))
            }
            return DatasetSection(items: .sizes(result))
        default: break
        }
        // A sparse array (numbers with a few objects) is read in place, not expanded.
        let (numbers, elements): ([Double], [JSONValue])
        if case .sparse(let n, let others) = array { (numbers, elements) = (n, others) } else { (numbers, elements) = ([], array.elements ?? []) }
        let count = numbers.isEmpty ? elements.count : numbers.count
        var nextOther = 0
        var measures = ItemMeasures(all: kinds == .sizes ? [] : nil)  // `.sizes` even when empty
        measures.heights.reserveLargeCapacity(count)  // huge pages for a million items: few page faults
        var spans: [Int]? = nil
        var i = 0
        while i < count {
            // The common case first: a run of plain heights of a sparse array, copied.
            if !numbers.isEmpty && measures.all == nil {
                let start = i
                numbers.withUnsafeBufferPointer { numbers in
                    // Bits at most +infinity's: ≥ 0, not −0 (made 0 below) nor NaN (another value).
                    while i < count && numbers[i].bitPattern <= Double.infinity.bitPattern { i += 1 }
                    measures.heights.append(contentsOf: numbers[start..<i])
                }
                if i == count { break }
            }
            defer { i += 1 }
            let raw: JSONValue
            if numbers.isEmpty {
                raw = elements[i]
            } else if numbers[i].isNaN {
                raw = elements[nextOther]
                nextOther += 1
            } else {
                raw = .number(numbers[i])
            }
            // The path is built only for a message (a million cost more than the rest).
            var itemPath: String { "\(path)[\(i)]" }
            var span = 1
            switch raw {
            case .number where kinds != .sizes, _ where kinds == .heights:
                measures.append(.height(try nonNegative(raw, path: itemPath)))
            case _ where kinds == .sizes, .numbers, .array:
                measures.append(.size(try size(raw, path: itemPath)))
            case .object, .itemObject:
                let (measure, itemSpan) = try itemObject(raw, path: path, index: i)
                measures.append(measure)
                span = itemSpan
            default:
                throw invalid(itemPath, "expected a height, a [width, height] size or an item object, got \(describe(raw))")
            }
            if span != 1 {
                if spans == nil {
                    var ones: [Int] = []
                    ones.reserveLargeCapacity(count)
                    ones.append(contentsOf: repeatElement(1, count: count))
                    spans = ones
                }
                spans![i] = span
            }
        }
        var section = measures.section
        section.spans = spans
        return section
    }

    /// An item object at `path[index]`: its `"height"` or `"size"` and its `"span"` (1 when absent).
    /// - Throws: `DatasetError` for an unknown key, both measures or neither, or a bad value.
    @inline(__always)
    private mutating func itemObject(_ raw: JSONValue, path: String, index i: Int) throws -> (ItemMeasure, span: Int) {
        var itemPath: String { "\(path)[\(i)]" }
        var height: JSONValue? = nil, size: JSONValue? = nil, spanValue: JSONValue? = nil, unknown = false
        if case .itemObject(let h, let s) = raw {
            height = .number(h)
            spanValue = s.value
        } else if case .object(let object) = raw {
            // One walk over the members (no hashing per key).
            for (key, value) in object {
                switch key {
                case "height": height = value
                case "size": size = value
                case "span": spanValue = value
                default: unknown = true
                }
            }
        }
        if unknown, case .object(let object) = raw { try allow(object, ["height", "size", "span"], path: itemPath) }
        let measure: ItemMeasure
        switch (height, size) {
        case (let h?, nil):
            measure = .height(try nonNegative(h, path: itemPath + ".height"))
        case (nil, .numbers(let pair)?) where pair.count == 2 && pair[0].isFinite && pair[0] > 0
                                              && pair[1].isFinite && pair[1] >= 0:
            measure = .size(Size(width: pair[0], height: pair[1] == 0 ? 0 : pair[1]))
        case (nil, let size?):
            guard size.arrayCount != nil else {
                throw invalid(itemPath + ".size", "expected a size [width, height], got \(describe(size))")
            }
            measure = .size(try self.size(size, path: itemPath + ".size"))
        case (_?, _?): throw DatasetError.conflictingKeys(path: itemPath + ".size", other: "height", choices: ["height", "size"])
        case (nil, nil): throw invalid(itemPath, "an item needs 'height' or 'size'")
        }
        guard let raw = spanValue else { return (measure, 1) }
        return (measure, try span(raw, path: itemPath + ".span"))
    }

    /// An item's `"span"`: an integer ≥ 1, or `"full"` (`WaterfallSection.fullSpan`).
    private func span(_ raw: JSONValue, path spanPath: @autoclosure () -> String) throws -> Int {
        if case .string("full") = raw { return WaterfallSection.fullSpan }
        guard case .number = raw else { throw expected(spanPath(), .span, raw) }
        return try integer(raw, path: spanPath(), atLeast: 1, else: .span)
    }

    /// A size at `path`: `[width, height]`, or `{"width": w, "height": h}` (flickr/justified-layout's input).
    private func size(_ raw: JSONValue, path: String) throws -> Size {
        if case .object(let object) = raw {
            let sizeKeys = ["width", "height"]
            for key in object.keys.sorted() where !sizeKeys.contains(key) {
                throw invalid(path + "." + key, "unknown key" + didYouMean(key, among: sizeKeys) + " (expected 'width' and 'height')")
            }
            guard let width = object["width"], let height = object["height"] else {
                throw invalid(path, "expected a size {\"width\": W, \"height\": H}, got no '\(object["width"] == nil ? "width" : "height")'")
            }
            return Size(width: try self.width(width, path: path + ".width"), height: try nonNegative(height, path: path + ".height"))
        }
        guard let pair = raw.elements, pair.count == 2 else {
            throw invalid(path, "expected a size [width, height], got \(describeCounted(raw))")
        }
        return Size(width: try width(pair[0], path: path + "[0]"), height: try nonNegative(pair[1], path: path + "[1]"))
    }

    /// The `"options"` object's entries (none when `raw` is `nil`).
    private func options(_ raw: JSONValue?) throws -> [DatasetOption] {
        guard let raw else { return [] }
        let object = try self.object(raw, path: "options", expected: "an object of flag names and values")
        return try object.keys.sorted().map { key in
            let path = "options." + key
            switch object[key]! {
            case .bool(let b): return DatasetOption(key: key, value: .bool(b), path: path)
            case .number(let n): return DatasetOption(key: key, value: .number(n), path: path)
            case .string(let s): return DatasetOption(key: key, value: .string(s), path: path)
            case let value:
                // Insets as an array or an object, as sections give them: the flag's text.
                guard let text = try JSONInsets.flagText(value, path: path) else {
                    throw invalid(path, "expected a number, string or boolean, got \(describe(value))")
                }
                return DatasetOption(key: key, value: .string(text), path: path)
            }
        }
    }

    /// Counts items against the element limit before any array of that size is built.
    private mutating func reserve(_ n: Int, path: String) throws {
        itemTotal += n
        if itemTotal > maximumElementCount {
            throw invalid(path, "more than \(String(maximumElementCount)) elements in all (SPEC limit)")
        }
    }

    /// A width: a number > 0 (a JSON number is finite).
    private func width(_ raw: JSONValue, path: String) throws -> Double {
        guard case .number(let v) = raw else { throw expected(path, .number, raw) }
        guard v > 0 else { throw expected(path, .width, raw) }
        return v
    }

    /// `finiteNonNegative`, −0 read as 0 (−0 + 0 is +0); `path` made only for a message.
    @inline(__always)
    private func nonNegative(_ raw: JSONValue, path: @autoclosure () -> String) throws -> Double {
        guard case .number(let v) = raw, v.isFinite, v >= 0 else { throw expected(path(), .finiteNonNegative, raw) }
        return v + 0
    }

    /// An integer of magnitude ≤ 10¹⁵ and ≥ `minimum`, else `expectation` (`.integerAtLeast(minimum)`).
    private func integer(_ raw: JSONValue, path: @autoclosure () -> String, atLeast minimum: Int,
                         else expectation: DatasetExpectation? = nil) throws -> Int {
        guard case .number(let v) = raw, v.isFinite, v == v.rounded(.towardZero) else { throw expected(path(), .integer, raw) }
        guard v.magnitude <= 1e15 else { throw invalid(path(), "integer out of range: \(describe(raw))") }
        guard Int(v) >= minimum else { throw DatasetError.expected(path: path(), expectation ?? .integerAtLeast(minimum), got: "\(Int(v))") }
        return Int(v)
    }

    /// An integer ≥ 0, counted against the element limit.
    private mutating func count(_ raw: JSONValue, path: String) throws -> Int {
        let n = try integer(raw, path: path, atLeast: 0)
        try reserve(n, path: path)
        return n
    }

    private func insets(_ raw: JSONValue, path: String) throws -> EdgeInsets {
        let insets = try JSONInsets.read(raw, path: path)
        for v in [insets.top, insets.left, insets.bottom, insets.right] where !(v.isFinite && v >= 0) {
            throw invalid(path, "expected insets that are finite numbers ≥ 0, got \(describe(raw))")
        }
        return insets
    }
}

/// A section's measures as they are read: heights kept flat until a size comes, then every measure.
private struct ItemMeasures {
    var heights: [Double] = []
    /// Every measure, from the first size on.
    var all: [ItemMeasure]?

    mutating func append(_ measure: ItemMeasure) {
        switch measure {
        case .height(let h):
            if all != nil { all?.append(measure) } else { heights.append(h) }
        case .size:
            if all == nil {
                all = heights.map { .height($0) }
                heights = []
            }
            all?.append(measure)
        }
    }

    /// The section of these items: heights, sizes, or both mixed.
    var section: DatasetSection {
        guard let all else { return DatasetSection(items: .heights(heights)) }  // no size
        let sizes = all.compactMap { if case .size(let s) = $0 { s } else { nil } }
        return DatasetSection(items: sizes.count == all.count ? .sizes(sizes) : .mixed(all))
    }
}
