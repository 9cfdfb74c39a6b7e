// The values the strict JSON scanner builds (JSONScanner.swift) and the one-pass entry point
// datasets and layout files read through.

import Foundation

/// Strict JSON in one pass of the scanner: the values, or the first error.
enum StrictJSON {
    /// The document's value as a `JSONValue` tree: numbers are the correctly rounded `Double`
    /// of their text (as `ValueSyntax.number` reads a flag), `-0` included.
    /// - Throws: `JSONSyntaxError` (with a number too large for a double among them) or
    ///   `JSONDuplicateKeyError`.
    /// - Complexity: O(size of `data`) time; memory O(size of `data`) for the tree, 8 bytes
    ///   per number in a numeric array.
    static func values(_ data: Data, objectLimit: JSONSyntaxCheck.ObjectLimit = .dataset) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            try JSONSyntaxCheck.parse(raw.bindMemory(to: UInt8.self), objectLimit: objectLimit)
        }
    }
}

/// A JSON value as the strict scanner builds it for the dataset decoder. Arrays whose
/// elements are all numbers, or all two-number arrays, are held flat (8 bytes a number)
/// rather than one enum case per element; `elements` expands any array to the general form.
/// `==` is structural: a flat array and the same array in general form are not equal.
enum JSONValue: Equatable, Sendable {
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
    /// A non-empty array that starts with a number and holds other values too (a waterfall's
    /// `"items"`: heights with a few objects among them): every element's number, NaN (which
    /// JSON cannot hold) where another value stands, and those other values in order.
    case sparse([Double], [JSONValue])
    /// An object. Keys equal as Swift strings (canonically equivalent) keep the first
    /// spelling and the last value (as `JSONSerialization` does); byte-equal duplicates are
    /// refused before.
    case object([String: JSONValue])

    /// The elements of an array in general form, or `nil` when this is not an array.
    /// - Complexity: O(n) for flat arrays (it builds the elements).
    var elements: [JSONValue]? {
        switch self {
        case .array(let a): return a
        case .numbers(let n): return n.map { .number($0) }
        case .pairs(let p): return stride(from: 0, to: p.count, by: 2).map { .numbers([p[$0], p[$0 + 1]]) }
        case .sparse(let numbers, let others):
            var next = 0
            return numbers.map { n in
                guard n.isNaN else { return .number(n) }
                next += 1
                return others[next - 1]
            }
        default: return nil
        }
    }

    /// The number of elements when this is an array, else `nil`. O(1).
    var arrayCount: Int? {
        switch self {
        case .array(let a): return a.count
        case .numbers(let n): return n.count
        case .pairs(let p): return p.count / 2
        case .sparse(let numbers, _): return numbers.count
        default: return nil
        }
    }
}
