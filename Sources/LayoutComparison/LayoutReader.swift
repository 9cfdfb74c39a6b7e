// Reads layouts back (cvlayout's JSON and CSV, SPEC section 4, and element lists with the
// same names) through the streams; here is what they share, and a layout read whole.
import Foundation
import FastText
import LayoutDatasets
import LayoutWriters

/// Reads cvlayout JSON or CSV back into a `LayoutDocument`: a cvlayout JSON layout; a JSON
/// array of element objects (`indexPath` `[S, I]` or `section` and `item`, `category`, `kind`,
/// any of `frame {x,y,width,height}`, `center {x,y}`, `transform [a,b,c,d,tx,ty]`, `alpha`,
/// `zIndex`, `hidden`, or the CSV columns as flat keys); CSV (RFC 4180) whose header names at
/// least `section` and `item` (without `category`, every row is a cell).
///
/// Refused, as the dataset reader refuses it: another category (in JSON, none), a cell with
/// a kind, an index path not two integers ≥ 0, a `zIndex` not an integer, two elements with
/// one key. Columns and keys cvlayout does not know are not compared, and named in `unknownNames`.
public enum LayoutReader {
    /// Reads `data` as `format`, or when `nil` as its first non-blank byte suggests.
    /// - Throws: `LayoutReadError`; for JSON, a syntax error anywhere before any other.
    /// - Complexity: O(size of `data`) plus O(n) hashing for the duplicate check.
    public static func read(_ data: Data, format: LayoutFileFormat?) throws -> LayoutDocument {
        try collect(openLayoutStream(ByteWindow(data), format: format))
    }

    /// Every element of `stream` in file order, and the rest of its document.
    /// - Throws: what `stream` throws; `LayoutReadError` at the second of two with one key.
    static func collect(_ stream: LayoutElementStream) throws -> LayoutDocument {
        var elements: [StreamedElement] = []
        var seen: [ElementKey: Int] = [:]
        var element = StreamedElement.placeholder
        while try stream.next(into: &element) {
            let key = element.key
            if let first = seen.updateValue(element.ordinal, forKey: key) {
                throw stream.duplicate(key, at: element.ordinal, first: first)
            }
            elements.append(element)
        }
        var (document, present) = try stream.finish()
        document.elements = elements
        document.presentFields = Set(ElementField.allCases.filter { present & 1 << UInt16($0.rawValue) != 0 })
        return document
    }

    /// How many bytes of a stream `checkStart` looks at.
    public static let startLength = 64 << 10

    /// Refuses the start (`prefix`, about `startLength` bytes) of a longer input that is plainly
    /// not a layout, before the rest is read: SVG or XML; JSON whose syntax fails before the
    /// prefix's last bytes; CSV whose header or a row among its whole lines is refused. Anything
    /// else passes: the whole input decides.
    /// - Throws: `LayoutReadError`, as `read` words it.
    /// - Complexity: O(prefix).
    public static func checkStart(_ prefix: Data) throws {
        let bytes = [UInt8](prefix)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let firstByte = bytes[start...].first(where: { !isSpace($0) }) else { return }
        if firstByte == UInt8(ascii: "<") { throw notSVG }
        if firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[") {
            do {
                _ = try StrictJSON.values(prefix, objectLimit: .layout)
            } catch let e as JSONSyntaxError {
                // Cut short: the error lies at the prefix's end, not before.
                if byteOffset(line: e.line, column: e.column, in: bytes) + 16 >= bytes.count { return }
                throw jsonError(e)
            } catch {}  // a duplicate key: the whole input says it, with its path
            return
        }
        // CSV: the whole lines, cut after the last newline outside quotes.
        var inQuotes = false, lastNewline = -1
        for i in start..<bytes.count {
            if bytes[i] == UInt8(ascii: "\"") { inQuotes.toggle() } else if bytes[i] == 0x0A && !inQuotes { lastNewline = i }
        }
        guard lastNewline >= 0 else { return }
        _ = try collect(CSVLayoutStream(ByteWindow(bytes[..<(lastNewline + 1)]), position: start))
    }

    /// The byte offset of a 1-based line and character column in `bytes`.
    private static func byteOffset(line: Int, column: Int, in bytes: [UInt8]) -> Int {
        var i = 0, l = 1, c = 1
        while i < bytes.count && (l, c) < (line, column) {
            (l, c) = bytes[i] == 0x0A ? (l + 1, 1) : (l, c + 1)
            i += 1
            while i < bytes.count && bytes[i] & 0xC0 == 0x80 { i += 1 }
        }
        return i
    }

    static let notSVG = LayoutReadError.notALayout(message: "looks like SVG or XML; only cvlayout JSON or CSV can be compared")
    static let emptyFile = LayoutReadError.notALayout(message: "empty file: expected a layout (JSON or CSV)")

    /// The strict scanner's error as the reader words it.
    static func jsonError(_ error: Error) -> Error {
        switch error {
        case let e as JSONSyntaxError:
            return LayoutReadError.syntax(line: e.line, column: e.column, message: "invalid JSON: \(e.message)")
        case let e as JSONDuplicateKeyError:
            return LayoutReadError.invalidValue(location: e.path.isEmpty ? "(top level)" : e.path, message: "duplicate key '\(e.key)'")
        default: return error
        }
    }

    // MARK: JSON

    /// Checks a JSON layout read whole before its elements are streamed: its syntax anywhere, then
    /// its root (an array, or an object whose `elements` is one). O(size) time and memory.
    static func checkWholeJSON(_ data: Data) throws {
        let root: JSONValue
        do { root = try StrictJSON.values(data, objectLimit: .layout) } catch { throw jsonError(error) }
        if root.elements != nil { return }
        guard case .object(let object) = root, let list = object["elements"] else {
            throw LayoutReadError.notALayout(
                message: "expected a cvlayout layout (an object with \"elements\") or a list of elements, got \(describe(root))")
        }
        guard list.elements != nil else { throw expected("an array", got: list, at: "elements") }
    }

    /// The layout-level parts of a layout object (`LayoutPart.names`); its keys cvlayout does
    /// not know go to `unknown`, sorted.
    /// - Throws: `LayoutReadError` naming the value at fault.
    static func parts(of object: JSONObject, unknown: inout UnknownNames) throws -> [LayoutPart] {
        for key in object.keys.sorted() where !knownLayoutKeys.contains(key) { unknown.insert(key) }
        let shapes = partShapes
        return try LayoutPart.names.compactMap { name in
            guard let raw = object[name] else { return nil }
            var values: [NamedValue] = []
            try flatten(raw, as: shapes[name]!, path: name, into: &values)
            return LayoutPart(name: name, values: values)
        }
    }

    /// What a part holds, flattened into `NamedValue`s named by their JSON paths.
    private indirect enum PartShape: Sendable {
        /// A string; else "expected" the description.
        case text(String)
        /// An index path `[section, item]`, as `S:I` text.
        case indexPath
        case number
        /// An object's members (those present), in this order.
        case object([(String, PartShape)])
        case array(PartShape)

        static func numbers(_ keys: String...) -> PartShape { .object(keys.map { ($0, .number) }) }
    }

    /// The parts' shapes; `heartPath`'s `d` is derived from the rest and not compared. Made
    /// for each call: held in a global, its indirect cases' boxes are reported as leaks by
    /// LeakSanitizer (the fuzzers' `detect_leaks`).
    private static var partShapes: [String: PartShape] { [
        "engine": .text("an engine name"), "bounds": .numbers("width", "height"), "contentOffset": .numbers("x", "y"),
        "contentSize": .numbers("width", "height"), "targetContentOffset": .numbers("x", "y"),
        "heartSamples": .array(.numbers("t", "x", "y", "angle")),
        "heartPath": .object([("from", .indexPath), ("to", .indexPath), ("style", .text("a string")), ("start", .numbers("x", "y")),
                              ("segments", .array(.object(["control1", "control2", "end"].map { ($0, .numbers("x", "y")) })))]),
    ] }

    /// `raw` at `path` as `shape` has it, into `values`; `LayoutReadError` naming the value at fault.
    private static func flatten(_ raw: JSONValue, as shape: PartShape, path: String, into values: inout [NamedValue]) throws {
        switch shape {
        case .text(let what):
            guard case .string(let text) = raw else { throw expected(what, got: raw, at: path) }
            values.append(NamedValue(path, .text(text)))
        case .indexPath:
            let (s, i) = try indexPair(raw, path: path)
            values.append(NamedValue(path, .text("\(s):\(i)")))
        case .number:
            values.append(NamedValue(path, .number(try finiteNumber(raw, path: path))))
        case .object(let members):
            guard case .object(let object) = raw else { throw expected("an object", got: raw, at: path) }
            for (key, shape) in members {
                if let value = object[key] { try flatten(value, as: shape, path: path + "." + key, into: &values) }
            }
        case .array(let shape):
            guard let array = raw.elements else { throw expected("an array", got: raw, at: path) }
            for (k, value) in array.enumerated() { try flatten(value, as: shape, path: "\(path)[\(k)]", into: &values) }
        }
    }

    /// The keys of a cvlayout JSON layout or transition (`from`, `to`, `progress`,
    /// `duration`), and `stats` (figures computed from the frames, which are compared).
    private static let knownLayoutKeys = Set(LayoutPart.names + ["elements", "from", "to", "progress", "duration", "stats"])
    /// The keys of an element: the JSON writers', a transition's, and the CSV columns as flat keys.
    static let knownElementKeys = Set(["indexPath", "section", "item", "category", "kind", "change",
                                       "fromIndexPath", "toIndexPath", "frame", "center", "transform"]
                                      + ElementField.allCases.map(\.csvColumn))
    static let expectedCategory = "expected cell, supplementaryView or decorationView"

    /// Reads element objects not in cvlayout's own form one at a time (`JSONLayoutStream`),
    /// naming the keys it does not know once across them.
    struct JSONElementDecoder {
        /// `elements`, or empty for a list of elements.
        let path: String
        var unknown = UnknownNames()
        private var seenKeys = Set<String>(), seenNestedKeys = [Set<String>(), Set<String>()]
        /// `frame` and `center`, and their members' names and fields.
        private static let nestedMembers = ["frame", "center"].map { key in
            (key, ElementField.allCases.filter { $0.group == key }.map { ($0.column.jsonMember!, $0) })
        }

        init(path: String) { self.path = path }

        /// The element `raw` at `location` (`elements[3]`); `LayoutReadError` naming the member at fault.
        mutating func decode(_ raw: JSONValue, location: String) throws -> StreamedElement {
            guard case .object(let object) = raw else {
                throw expected("an element object", got: raw, at: location)
            }
            // The keys read, counted so that an element holding no others is not searched.
            var found = 0
            var element = StreamedElement.placeholder
            let section: Int, item: Int
            if let raw = object["indexPath"] {
                found += 1
                (section, item) = try indexPair(raw, path: location + ".indexPath")
            } else if let s = object["section"], let i = object["item"] {
                found += 2
                section = try indexNumber(s, path: location + ".section")
                item = try indexNumber(i, path: location + ".item")
            } else {
                throw LayoutReadError.invalidValue(location: location,
                                                   message: "expected \"indexPath\": [section, item] or \"section\" and \"item\"")
            }
            guard let rawCategory = object["category"] else {
                throw LayoutReadError.invalidValue(location: location,
                                                   message: "expected \"category\": cell, supplementaryView or decorationView")
            }
            found += 1
            guard case .string(let name) = rawCategory, let category = categoryCode(name) else {
                throw LayoutReadError.invalidValue(location: location + ".category",
                                                   message: "\(expectedCategory), got \(describe(rawCategory))")
            }
            var kind: Int32 = 0
            if let raw = object["kind"] {
                found += 1
                if raw != .null {
                    guard case .string(let text) = raw else {
                        throw expected("a string", got: raw, at: location + ".kind")
                    }
                    if !text.isEmpty && category == 0 {
                        throw LayoutReadError.invalidValue(location: location + ".kind",
                                                           message: "a cell has no kind, got \(describe(raw))")
                    }
                    kind = kindCode(text)
                }
            }
            var disappearing = false
            if let raw = object["change"] {
                found += 1
                guard case .string(let change) = raw else {
                    throw expected("a string", got: raw, at: location + ".change")
                }
                disappearing = change == "disappear"
            }
            element.setKey(section: section, item: item, category: category, kind: kind, disappearing: disappearing)
            // `frame` and `center`: objects of numbers, whose other members are named once.
            for (k, (key, members)) in Self.nestedMembers.enumerated() {
                guard let raw = object[key] else { continue }
                found += 1
                guard case .object(let nested) = raw else {
                    throw expected("an object", got: raw, at: "\(location).\(key)")
                }
                var read = 0
                for (member, field) in members {
                    guard let value = nested[member] else { continue }
                    element.set(field, try finiteNumber(value, path: "\(location).\(key).\(member)"))
                    read += 1
                }
                if read < nested.count && unknown.isOpen {
                    unknown.insert(newKeysOf: nested, known: Set(members.map(\.0)), seen: &seenNestedKeys[k],
                                   prefix: "\(path)[].\(key).")
                }
            }
            if let transform = object["transform"] {
                found += 1
                guard let array = transform.elements, array.count == 6 else {
                    throw expected("[a, b, c, d, tx, ty]", got: transform, at: location + ".transform", counted: true)
                }
                for (k, field) in [ElementField.a, .b, .c, .d, .tx, .ty].enumerated() {
                    element.set(field, try finiteNumber(array[k], path: "\(location).transform[\(k)]"))
                }
            }
            for field in ElementField.allCases where element[field] == nil {
                let key = field.column.jsonShape == .value ? field.group : field.csvColumn
                guard let raw = object[key] else { continue }
                found += 1
                if field == .hidden {
                    guard case .bool(let b) = raw else {
                        throw expected("true or false", got: raw, at: "\(location).\(key)")
                    }
                    element.set(field, b ? 1 : 0)
                } else if field == .zIndex {
                    guard case .number(let n) = raw, n.isFinite, n == n.rounded(), n.magnitude < 9.0e15 else {
                        throw expected("an integer", got: raw, at: "\(location).\(key)")
                    }
                    element.set(field, n == 0 ? 0 : n)
                } else {
                    element.set(field, try finiteNumber(raw, path: "\(location).\(key)"))
                }
            }
            // Keys no element of cvlayout has, each named once (in key order within an element:
            // a dictionary's order is not the file's).
            if found < object.count && unknown.isOpen {
                unknown.insert(newKeysOf: object, known: knownElementKeys, seen: &seenKeys, prefix: path + "[].")
            }
            return element
        }
    }

    /// `LayoutReadError.invalidValue` at `location`: "expected `what`, got" `raw`, with an
    /// array's length when `counted` (`[0]` for an index path is "an array of 1 value").
    static func expected(_ what: String, got raw: JSONValue, at location: String, counted: Bool = false) -> LayoutReadError {
        let count = counted ? raw.elements?.count : nil
        let got = count.map { "an array of \($0) \($0 == 1 ? "value" : "values")" } ?? describe(raw)
        return .invalidValue(location: location, message: "expected \(what), got \(got)")
    }

    /// An index path `[section, item]` at `path`.
    static func indexPair(_ raw: JSONValue, path: String) throws -> (section: Int, item: Int) {
        guard let array = raw.elements, array.count == 2 else {
            throw expected("[section, item]", got: raw, at: path, counted: true)
        }
        return (try indexNumber(array[0], path: path + "[0]"), try indexNumber(array[1], path: path + "[1]"))
    }

    /// A number (JSON numbers are always finite once read).
    static func finiteNumber(_ raw: JSONValue, path: @autoclosure () -> String) throws -> Double {
        guard case .number(let n) = raw, n.isFinite else {
            throw expected("a finite number", got: raw, at: path())
        }
        return n
    }

    static func indexNumber(_ raw: JSONValue, path: @autoclosure () -> String) throws -> Int {
        guard case .number(let n) = raw, let value = Int(exactly: n), value >= 0 else {
            throw expected("an integer ≥ 0", got: raw, at: path())
        }
        return value
    }
}

/// The columns or keys of a file that cvlayout does not know, each once, in order of first
/// appearance; at most `limit` (a file of made-up keys still gives a short warning).
struct UnknownNames {
    private(set) var names: [String] = []
    static let limit = 20

    /// Whether another name would still be kept.
    var isOpen: Bool { names.count < Self.limit }

    mutating func insert(_ name: String) {
        if isOpen && !names.contains(name) { names.append(name) }
    }

    /// Names the keys of `object` that are not `known` and not yet `seen` (then seen), as
    /// `prefix` and the key, sorted. Allocates only when there is a new one.
    mutating func insert(newKeysOf object: JSONObject, known: Set<String>, seen: inout Set<String>,
                         prefix: @autoclosure () -> String) {
        var new: [String] = []
        for key in object.keys where !known.contains(key) && !seen.contains(key) { new.append(key) }
        guard !new.isEmpty else { return }
        let prefix = prefix()
        for key in new.sorted() {
            seen.insert(key)
            insert(prefix + key)
        }
    }
}
