import Foundation
import LayoutCore

/// A decoded dataset (SPEC section 5): sections of items, and the `"options"` object.
public struct Dataset: Sendable, Equatable {
    /// The sections in order. A bare array or a top-level `heights`/`sizes`/`count` is one
    /// section; ring counts are one section per ring, each `.uniform(count:)`.
    public var sections: [DatasetSection]
    /// The `"options"` entries in file order.
    public var options: [DatasetOption]

    /// Creates a dataset.
    public init(sections: [DatasetSection], options: [DatasetOption] = []) {
        self.sections = sections
        self.options = options
    }

    /// Total number of items.
    public var itemCount: Int { sections.reduce(0) { $0 + $1.items.count } }
}

/// One section of a dataset with the JSON path it came from (for error messages).
public struct DatasetSection: Sendable, Equatable {
    /// The items.
    public var items: ItemHeights
    /// `"header"` height, points.
    public var header: Double?
    /// `"footer"` height, points.
    public var footer: Double?
    /// `"columns"`, ≥ 1.
    public var columns: Int?
    /// `"insets"`.
    public var insets: EdgeInsets?
    /// JSON path of the section object (`sections[1]`), or `""` for a top-level section.
    public var path: String

    /// Creates a section.
    public init(items: ItemHeights, header: Double? = nil, footer: Double? = nil, columns: Int? = nil,
                insets: EdgeInsets? = nil, path: String = "") {
        self.items = items
        self.header = header
        self.footer = footer
        self.columns = columns
        self.insets = insets
        self.path = path
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
}

/// A dataset that cannot be used. Exit status 65 on the command line.
public enum DatasetError: Error, Equatable, Sendable {
    /// Not JSON: a 1-based line and byte column.
    case syntax(line: Int, column: Int, message: String)
    /// A value of the wrong type or out of range, at a JSON path (`sections[1].heights[3]`,
    /// `[3]` in a bare array).
    case invalidValue(path: String, message: String)
}

/// Decodes datasets with Foundation's `JSONSerialization`, after a strict syntax pass that
/// locates errors by line and column and refuses duplicate keys and deep nesting.
public enum DatasetDecoder {
    /// Decodes `data` as `schema` describes.
    ///
    /// - Throws: `DatasetError`. Counts must be integral and ≥ 0; heights finite and ≥ 0;
    ///   sizes `[width > 0, height ≥ 0]`; at most `maximumElementCount` items in all,
    ///   checked before anything of that size is allocated.
    /// - Complexity: O(size of `data`).
    public static func decode(_ data: Data, schema: DatasetSchema) throws -> Dataset {
        let root: Any
        do {
            root = try StrictJSON.parse(data)
        } catch let e as JSONSyntaxError {
            throw DatasetError.syntax(line: e.line, column: e.column, message: e.message)
        } catch let e as JSONDuplicateKeyError {
            throw DatasetError.invalidValue(path: e.path.isEmpty ? "(top level)" : e.path,
                                            message: "duplicate key '\(e.key)'")
        } catch let e as JSONUnreadable {
            throw DatasetError.invalidValue(path: "(top level)", message: e.message)
        }
        var decoder = Walker(schema: schema)
        return try decoder.dataset(root)
    }
}

/// Walks the Foundation value tree, keeping the JSON path for messages.
private struct Walker {
    let schema: DatasetSchema
    var itemTotal = 0

    init(schema: DatasetSchema) {
        self.schema = schema
    }

    mutating func dataset(_ root: Any) throws -> Dataset {
        if let array = root as? [Any] {
            return Dataset(sections: try topLevelArray(array))
        }
        guard let object = root as? [String: Any] else {
            throw invalid("", "expected " + expectedTopLevel + ", got \(describe(root))")
        }
        let allowedKeys: [String]
        switch schema {
        case .items: allowedKeys = ["heights", "sizes", "count", "sections", "options"]
        case .ringCounts: allowedKeys = ["rings", "options"]
        }
        for key in object.keys.sorted() where !allowedKeys.contains(key) {
            throw invalid(key, "unknown key (expected \(list(allowedKeys)))")
        }
        var options: [DatasetOption] = []
        if let raw = object["options"] {
            options = try self.options(raw)
        }
        let itemKeys = allowedKeys.filter { $0 != "options" && object[$0] != nil }
        guard itemKeys.count <= 1 else {
            throw invalid(itemKeys[1], "conflicts with '\(itemKeys[0])': give only one of \(list(allowedKeys.dropLast()))")
        }
        var sections: [DatasetSection] = []
        switch itemKeys.first {
        case nil:
            throw invalid("", "no items: expected one of \(list(allowedKeys.dropLast()))")
        case "sections":
            guard let list = object["sections"] as? [Any] else {
                throw invalid("sections", "expected an array of section objects, got \(describe(object["sections"]!))")
            }
            for (i, raw) in list.enumerated() {
                sections.append(try section(raw, path: "sections[\(i)]"))
            }
        case "rings":
            guard let list = object["rings"] as? [Any] else {
                throw invalid("rings", "expected an array of ring counts, got \(describe(object["rings"]!))")
            }
            sections = try ringCounts(list, path: "rings")
        case let key?:
            var s = try items(key: key, value: object[key]!, path: key)
            s.path = ""
            sections = [s]
        }
        return Dataset(sections: sections, options: options)
    }

    private var expectedTopLevel: String {
        switch schema {
        case .items: "an array of heights or [width, height] sizes, or an object"
        case .ringCounts: "an array of ring counts or an object with \"rings\""
        }
    }

    private mutating func topLevelArray(_ array: [Any]) throws -> [DatasetSection] {
        switch schema {
        case .ringCounts: return try ringCounts(array, path: "")
        case .items:
            if let first = array.first, first is [Any] {
                return [DatasetSection(items: .sizes(try sizes(array, path: "")))]
            }
            return [DatasetSection(items: .heights(try heights(array, path: "")))]
        }
    }

    private mutating func ringCounts(_ array: [Any], path: String) throws -> [DatasetSection] {
        var sections: [DatasetSection] = []
        sections.reserveCapacity(array.count)
        for (i, raw) in array.enumerated() {
            let n = try count(raw, path: "\(path)[\(i)]")
            try reserve(n, path: "\(path)[\(i)]")
            sections.append(DatasetSection(items: .uniform(count: n), path: "\(path)[\(i)]"))
        }
        return sections
    }

    private mutating func section(_ raw: Any, path: String) throws -> DatasetSection {
        guard let object = raw as? [String: Any] else {
            throw invalid(path, "expected a section object, got \(describe(raw))")
        }
        let allowed = ["heights", "sizes", "count", "header", "footer", "columns", "insets"]
        for key in object.keys.sorted() where !allowed.contains(key) {
            throw invalid(join(path, key), "unknown key (expected \(list(allowed)))")
        }
        let itemKeys = ["heights", "sizes", "count"].filter { object[$0] != nil }
        guard itemKeys.count <= 1 else {
            throw invalid(join(path, itemKeys[1]), "conflicts with '\(itemKeys[0])': give only one of heights, sizes or count")
        }
        var result: DatasetSection
        if let key = itemKeys.first {
            result = try items(key: key, value: object[key]!, path: join(path, key))
        } else {
            result = DatasetSection(items: .heights([]))  // a section with no items
        }
        result.path = path
        if let v = object["header"] { result.header = try nonNegative(v, path: join(path, "header")) }
        if let v = object["footer"] { result.footer = try nonNegative(v, path: join(path, "footer")) }
        if let v = object["columns"] {
            let n = try integer(v, path: join(path, "columns"))
            guard n >= 1 else { throw invalid(join(path, "columns"), "expected an integer ≥ 1, got \(n)") }
            result.columns = n
        }
        if let v = object["insets"] { result.insets = try insets(v, path: join(path, "insets")) }
        return result
    }

    private mutating func items(key: String, value: Any, path: String) throws -> DatasetSection {
        switch key {
        case "heights":
            guard let array = value as? [Any] else {
                throw invalid(path, "expected an array of heights, got \(describe(value))")
            }
            return DatasetSection(items: .heights(try heights(array, path: path)))
        case "sizes":
            guard let array = value as? [Any] else {
                throw invalid(path, "expected an array of [width, height] sizes, got \(describe(value))")
            }
            return DatasetSection(items: .sizes(try sizes(array, path: path)))
        default:
            let n = try count(value, path: path)
            try reserve(n, path: path)
            return DatasetSection(items: .uniform(count: n))
        }
    }

    private mutating func heights(_ array: [Any], path: String) throws -> [Double] {
        try reserve(array.count, path: path)
        var result: [Double] = []
        result.reserveCapacity(array.count)
        for (i, raw) in array.enumerated() {
            // Fast path without building the element's path string.
            if let n = raw as? NSNumber, boolValue(raw) == nil {
                let v = n.doubleValue
                if v.isFinite && v >= 0 {
                    result.append(v == 0 ? 0 : v)
                    continue
                }
            }
            result.append(try nonNegative(raw, path: "\(path)[\(i)]"))
        }
        return result
    }

    private mutating func sizes(_ array: [Any], path: String) throws -> [Size] {
        try reserve(array.count, path: path)
        var result: [Size] = []
        result.reserveCapacity(array.count)
        for (i, raw) in array.enumerated() {
            let itemPath = "\(path)[\(i)]"
            guard let pair = raw as? [Any], pair.count == 2 else {
                throw invalid(itemPath, "expected a size [width, height], got \(describe(raw))")
            }
            let w = try finiteNumber(pair[0], path: itemPath + "[0]")
            guard w > 0 else { throw invalid(itemPath + "[0]", "expected a width > 0, got \(NumberFormat.messageText(w))") }
            let h = try nonNegative(pair[1], path: itemPath + "[1]")
            result.append(Size(width: w, height: h))
        }
        return result
    }

    private func options(_ raw: Any) throws -> [DatasetOption] {
        guard let object = raw as? [String: Any] else {
            throw invalid("options", "expected an object of flag names and values, got \(describe(raw))")
        }
        var result: [DatasetOption] = []
        for key in object.keys.sorted() {
            let value = object[key]!
            let path = "options." + key
            if let b = boolValue(value) {
                result.append(DatasetOption(key: key, value: .bool(b), path: path))
            } else if let n = value as? NSNumber {
                result.append(DatasetOption(key: key, value: .number(n.doubleValue), path: path))
            } else if let s = value as? String {
                result.append(DatasetOption(key: key, value: .string(s), path: path))
            } else {
                throw invalid(path, "expected a number, string or boolean, got \(describe(value))")
            }
        }
        return result
    }

    // MARK: - Scalars

    /// Counts items against the element limit before any array of that size is built.
    private mutating func reserve(_ n: Int, path: String) throws {
        itemTotal += n
        if itemTotal > maximumElementCount {
            throw invalid(path, "more than \(String(maximumElementCount)) elements in all (SPEC limit)")
        }
    }

    private func finiteNumber(_ raw: Any, path: String) throws -> Double {
        guard boolValue(raw) == nil, let n = raw as? NSNumber else {
            throw invalid(path, "expected a number, got \(describe(raw))")
        }
        let v = n.doubleValue
        guard v.isFinite else { throw invalid(path, "expected a finite number, got \(describe(raw))") }
        return v
    }

    private func nonNegative(_ raw: Any, path: String) throws -> Double {
        guard boolValue(raw) == nil, let n = raw as? NSNumber, n.doubleValue.isFinite, n.doubleValue >= 0 else {
            throw invalid(path, "expected a finite number ≥ 0, got \(describe(raw))")
        }
        let v = n.doubleValue
        return v == 0 ? 0 : v
    }

    private func integer(_ raw: Any, path: String) throws -> Int {
        guard boolValue(raw) == nil, let n = raw as? NSNumber else {
            throw invalid(path, "expected an integer, got \(describe(raw))")
        }
        let v = n.doubleValue
        guard v.isFinite, v == v.rounded(.towardZero) else {
            throw invalid(path, "expected an integer, got \(describe(raw))")
        }
        guard v.magnitude <= 1e15 else { throw invalid(path, "integer out of range: \(describe(raw))") }
        return Int(v)
    }

    private func count(_ raw: Any, path: String) throws -> Int {
        let n = try integer(raw, path: path)
        guard n >= 0 else { throw invalid(path, "expected an integer ≥ 0, got \(n)") }
        if n > maximumElementCount {
            throw invalid(path, "more than \(String(maximumElementCount)) elements in all (SPEC limit)")
        }
        return n
    }

    private func insets(_ raw: Any, path: String) throws -> EdgeInsets {
        var values: [Double]
        if let s = raw as? String {
            guard let parsed = ValueSyntax.numbers(s, counts: [1, 4]) else {
                throw invalid(path, "expected \"T,L,B,R\" or one number, got \(describe(raw))")
            }
            values = parsed
        } else if let array = raw as? [Any], array.count == 4 {
            values = []
            for (i, v) in array.enumerated() { values.append(try finiteNumber(v, path: "\(path)[\(i)]")) }
        } else {
            throw invalid(path, "expected \"T,L,B,R\" or an array of four numbers, got \(describe(raw))")
        }
        if values.count == 1 { values = Array(repeating: values[0], count: 4) }
        for v in values where !(v.isFinite && v >= 0) {
            throw invalid(path, "expected insets that are finite numbers ≥ 0, got \(describe(raw))")
        }
        return EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
    }

    // MARK: - Messages

    private func invalid(_ path: String, _ message: String) -> DatasetError {
        .invalidValue(path: path.isEmpty ? "(top level)" : path, message: message)
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private func list<C: Collection>(_ keys: C) -> String where C.Element == String {
        let quoted = keys.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }
}

/// `true`/`false` when `raw` is a JSON boolean (Foundation hands those over as NSNumber
/// with the `c` type on Linux; `1` and `true` must stay distinct).
func boolValue(_ raw: Any) -> Bool? {
    guard let n = raw as? NSNumber, n.objCType.pointee == CChar(UInt8(ascii: "c")) else { return nil }
    return n.boolValue
}

/// A short description of a JSON value for messages: numbers as written, strings quoted.
func describe(_ raw: Any) -> String {
    if let b = boolValue(raw) { return b ? "true" : "false" }
    if let n = raw as? NSNumber { return NumberFormat.messageText(n.doubleValue) }
    if let s = raw as? String {
        let shown = s.count > 40 ? String(s.prefix(40)) + "…" : s
        return "\"" + shown.unicodeScalars.map { $0.value < 0x20 ? "?" : String($0) }.joined() + "\""
    }
    if raw is [Any] { return "an array" }
    if raw is [String: Any] { return "an object" }
    if raw is NSNull { return "null" }
    return "a value"
}


