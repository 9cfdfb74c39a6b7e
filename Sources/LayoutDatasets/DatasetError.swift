import Foundation
import LayoutCore
import FastText

/// A dataset that cannot be used. Exit status 65 on the command line.
public enum DatasetError: Error, Equatable, Sendable {
    /// Not JSON: a 1-based line and column.
    case syntax(line: Int, column: Int, message: String)
    /// A value of the wrong type or out of range, at a JSON path (`sections[1].heights[3]`).
    case invalidValue(path: String, message: String)
    /// A key its object does not take (`path` ends in `key`); `expected`: the keys it takes.
    case unknownKey(path: String, key: String, expected: [String])
    /// A key given beside `other`, which it excludes; `choices`: the keys to give one of, if more.
    case conflictingKeys(path: String, other: String, choices: [String])
    /// A key given twice in one object (`path`: the object's).
    case duplicateKey(path: String, key: String)
    /// A value that is none of `names`: `got` as shown, `given` the string given, if one was.
    case notOneOf(path: String, names: [String], got: String, given: String?)
    /// No `key` in the object at `path`; `example`: an element kind such as it takes.
    case missingKey(path: String, key: String, example: String?)
    /// A value that is not what `expected` says; `got` as shown.
    case expected(path: String, DatasetExpectation, got: String)

    /// The values of `data`: its syntax errors and duplicate keys as `DatasetError`s.
    static func values(_ data: Data) throws -> JSONValue {
        do {
            return try StrictJSON.values(data)
        } catch let e as JSONSyntaxError {
            throw DatasetError.syntax(line: e.line, column: e.column, message: e.message)
        } catch let e as JSONDuplicateKeyError {
            throw DatasetError.duplicateKey(path: e.path.isEmpty ? "(top level)" : e.path, key: e.key)
        }
    }
}

extension DatasetError {
    /// The JSON path of the value; `nil` for a syntax error.
    public var path: String? {
        switch self {
        case .syntax: nil
        case .invalidValue(let path, _), .unknownKey(let path, _, _), .conflictingKeys(let path, _, _),
             .duplicateKey(let path, _), .notOneOf(let path, _, _, _), .expected(let path, _, _), .missingKey(let path, _, _): path
        }
    }

    /// What is wrong, as the command line prints it after `file: path: ` (or `file:line:column: invalid JSON: `).
    public var message: String {
        switch self {
        case .syntax(_, _, let message), .invalidValue(_, let message): message
        case .unknownKey(_, let key, let expected): "unknown key" + didYouMean(key, among: expected) + " (expected \(quotedList(expected)))"
        case .conflictingKeys(_, let other, let choices):
            "conflicts with '\(other)': give only one" + (choices.isEmpty ? "" : " of " + quotedList(choices))
        case .duplicateKey(_, let key): "duplicate key '\(key)'"
        case .missingKey(_, let key, let example): "no \"\(key)\"" + (example.map { ": expected a kind such as \"\($0)\"" } ?? "")
        case .notOneOf(_, let names, let got, let given):
            "expected \(quotedList(names)), got \(got)" + (given.map { didYouMean($0, among: names) } ?? "")
        case .expected(_, let expectation, let got): "expected \(expectation.words), got \(got)"
        }
    }

    /// Equal when they say the same at the same place (a case's data, or its words).
    public static func == (a: DatasetError, b: DatasetError) -> Bool {
        switch (a, b) {
        case let (.syntax(l, c, m), .syntax(l2, c2, m2)): (l, c, m) == (l2, c2, m2)
        case (.syntax, _), (_, .syntax): false
        default: a.path == b.path && a.message == b.message
        }
    }
}

/// `'a', 'b' or 'c'`.
func quotedList<C: Collection>(_ names: C) -> String where C.Element == String {
    let quoted = names.map { "'\($0)'" }
    return quoted.count > 1 ? quoted.dropLast().joined(separator: ", ") + " or " + quoted.last! : quoted.joined()
}

/// What a dataset's value should have been, in the words after "expected".
public struct DatasetExpectation: Equatable, Sendable {
    /// `a finite number ≥ 0`.
    public let words: String

    /// The plain expectations, each named by its words: `number` "a number", `finiteNumber`,
    /// `finiteNonNegative` (≥ 0), `finitePositive` (> 0), `integer`, `boolean` ("true or false"),
    /// `integralCount` (0 to `maximumElementCount`), `width` (a size's, > 0), `span` (≥ 1 or "full").
    public static let number = Self(words: "a number")
    public static let finiteNumber = Self(words: "a finite number")
    public static let finiteNonNegative = Self(words: "a finite number ≥ 0")
    public static let finitePositive = Self(words: "a finite number > 0")
    public static let integer = Self(words: "an integer")
    public static let boolean = Self(words: "true or false")
    public static let integralCount = Self(words: "an integral count from 0 to \(maximumElementCount)")
    public static let width = Self(words: "a width > 0")
    public static let span = Self(words: "an integer ≥ 1 or \"full\"")

    /// An integer ≥ `bound`.
    public static func integerAtLeast(_ bound: Int) -> Self { Self(words: "an integer ≥ \(bound)") }
    /// An integer from `low` to `high`, both included.
    public static func integerRange(from low: Int, to high: Int) -> Self { Self(words: "an integer from \(low) to \(high)") }
}

/// `; did you mean 'heights'?` when `key` is a likely typo of one of `keys`, else nothing.
func didYouMean(_ key: String, among keys: [String]) -> String {
    nearest(key, among: keys).map { "; did you mean '\($0)'?" } ?? ""
}

/// A number for an error message: the shortest round-trip digits up to 24 characters, else
/// Swift's description (`1e+300`); words for what is not finite.
package func describe(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "not a number" : (value < 0 ? "-infinity" : "infinity") }
    let plain = NumberFormat.string(value, precision: .full)
    return plain.count <= 24 ? plain : value.description
}

/// A short description of a dataset value for messages: numbers as `describe(_: Double)`,
/// strings quoted (at most 40 characters, control characters as `?`).
package func describe(_ value: JSONValue) -> String {
    switch value {
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return describe(n)
    case .string(let s):
        let shown = s.count > 40 ? String(s.prefix(40)) + "…" : s
        return "\"" + shown.unicodeScalars.map { $0.value < 0x20 ? "?" : String($0) }.joined() + "\""
    case .array, .numbers, .pairs, .sparse: return "an array"
    case .object, .itemObject: return "an object"
    case .null: return "null"
    }
}

/// `describe(value)`, an array told by its count (`an array of 3 values`).
func describeCounted(_ value: JSONValue) -> String {
    value.arrayCount.map { "an array of \($0) \($0 == 1 ? "value" : "values")" } ?? describe(value)
}
