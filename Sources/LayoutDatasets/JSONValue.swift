import Foundation

/// Strict JSON in one pass of the scanner: the values, or the first error.
package enum StrictJSON {
    /// The document's value: numbers the correctly rounded `Double` of their text, `-0` included.
    /// - Throws: `JSONSyntaxError` (a number too large for a double among them) or `JSONDuplicateKeyError`.
    /// - Complexity: O(size of `data`) time and memory; 8 bytes a number in a numeric array.
    package static func values(_ data: Data, objectLimit: JSONSyntaxCheck.ObjectLimit = .dataset) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            try JSONSyntaxCheck.scan(raw.bindMemory(to: UInt8.self), building: true, objectLimit: objectLimit)
        }
    }
}

/// A JSON value as the strict scanner builds it: arrays of numbers or pairs held flat (8 bytes a
/// number); `elements` expands any array. `==` is structural (flat and general forms differ).
package enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false` (never a number: `1` and `true` stay distinct).
    case bool(Bool)
    /// A number: the correctly rounded `Double` of its text; always finite.
    case number(Double)
    /// A string, escapes resolved.
    case string(String)
    /// An array in general form.
    case array([JSONValue])
    /// A non-empty array of numbers only.
    case numbers([Double])
    /// A non-empty array of two-number arrays `[a, b]`, flat: `a0, b0, a1, b1, …`.
    case pairs([Double])
    /// A non-empty array starting with a number, other values too: the numbers (NaN for another), the others.
    case sparse([Double], [JSONValue])
    /// An object: keys equal as Swift strings keep the first spelling and the last value.
    case object(JSONObject)
    /// `{"height": h}` or `{"height": h, "span": s}` among `.sparse`'s others, held without members.
    case itemObject(height: Double, span: ItemSpan)

    /// The `"span"` of an `.itemObject`.
    package enum ItemSpan: Equatable, Sendable {
        case absent, number(Double), full

        var value: JSONValue? {
            switch self {
            case .absent: return nil
            case .number(let v): return .number(v)
            case .full: return .string("full")
            }
        }
    }

    /// This value, an `.itemObject` given as the `.object` it stands for.
    var general: JSONValue {
        guard case .itemObject(let height, let span) = self else { return self }
        var object: JSONObject = ["height": .number(height)]
        if let value = span.value { object["span"] = value }
        return .object(object)
    }

    /// The elements of an array in general form, or `nil` when this is not an array. O(n) for flat arrays.
    package var elements: [JSONValue]? {
        switch self {
        case .array(let a): return a
        case .numbers(let n): return n.map { .number($0) }
        case .pairs(let p): return stride(from: 0, to: p.count, by: 2).map { .numbers([p[$0], p[$0 + 1]]) }
        case .sparse(let numbers, let others):
            var next = 0
            return numbers.map { n in
                guard n.isNaN else { return .number(n) }
                next += 1
                return others[next - 1].general
            }
        default: return nil
        }
    }

    /// Whether this is an object (`.object` or `.itemObject`).
    var isObject: Bool {
        switch self {
        case .object, .itemObject: true
        default: false
        }
    }

    /// The number of elements when this is an array, else `nil`. O(1).
    var arrayCount: Int? {
        switch self {
        case .array(let a): return a.count
        case .numbers(let n), .sparse(let n, _): return n.count
        case .pairs(let p): return p.count / 2
        default: return nil
        }
    }
}

/// The members of a JSON object in document order, each key once: an array searched in place,
/// with a key index past `indexedCount` members (O(1) look-ups).
package struct JSONObject: Equatable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The members, in the order their keys first appear: each key's first spelling, its last value.
    private(set) var members: [(key: String, value: JSONValue)] = []
    /// Each key's position in `members`, once there are more than `indexedCount`.
    private var index: [String: Int]? = nil
    /// The number of members above which keys are hashed rather than compared in turn.
    static let indexedCount = 8

    init() {}

    /// An object of `elements`' members; a later key equal to an earlier one replaces its value.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// The position of `key`'s member. O(1), or O(`indexedCount`) for small objects.
    func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    /// The value of `key`, or `nil`; setting adds a member or replaces a value, never `nil`.
    package subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            guard let newValue else { preconditionFailure("JSONObject members are never removed") }
            set(newValue, at: position(of: key), key: key)
        }
    }

    /// Sets `key`'s value at `position` (`position(of: key)`), or as a new member when `nil`.
    mutating func set(_ value: JSONValue, at position: Int?, key: String) {
        if let position {
            members[position].value = value
            return
        }
        members.append((key, value))
        if index != nil {
            index![key] = members.count - 1
        } else if members.count > Self.indexedCount {
            index = Dictionary(uniqueKeysWithValues: members.indices.map { (members[$0].key, $0) })
        }
    }

    /// The keys (first spellings), in document order.
    package var keys: [String] { members.map(\.key) }
    package var count: Int { members.count }
    var first: (key: String, value: JSONValue)? { members.first }

    package func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

    /// Equal when both hold the same keys with equal values, in any order (as dictionaries).
    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }
}
