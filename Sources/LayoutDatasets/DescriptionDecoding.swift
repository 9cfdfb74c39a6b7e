import LayoutCore

/// A decoder of a JSON description (a dataset, a compositional layout, a lazy grid), with the
/// helpers they share; every error a `DatasetError` at the value's JSON path (`(top level)`).
protocol DescriptionDecoding {}

extension DescriptionDecoding {
    /// `raw` as an object, else an error at `path` saying `expected` and what came instead.
    func object(_ raw: JSONValue, path: String, expected: String) throws -> JSONObject {
        guard case .object(let object) = raw else { throw invalid(path, "expected \(expected), got \(describe(raw))") }
        return object
    }

    /// Throws at the first key (sorted) of `object` not in `keys`, naming `named` (or `keys`) and the nearest.
    func allow(_ object: JSONObject, _ keys: [String], path: String, named: [String]? = nil) throws {
        for key in object.keys.sorted() where !keys.contains(key) {
            throw DatasetError.unknownKey(path: join(path, key), key: key, expected: named ?? keys)
        }
    }

    /// No `key` in the object at `path`; `kindSuchAs`: an example element kind, for `elementKind`.
    func missing(_ path: String, _ key: String, kindSuchAs example: String? = nil) -> DatasetError {
        .missingKey(path: path.isEmpty ? "(top level)" : path, key: key, example: example)
    }

    func conflict(_ path: String, _ other: String) -> DatasetError {
        .conflictingKeys(path: path, other: other, choices: [])
    }

    /// One of `names`, the string `raw` holds, without a leading `.` when `dropsDot` says so.
    func choice(_ raw: JSONValue, path: String, _ names: [String], dropsDot: (String) -> Bool) throws -> String {
        guard case .string(var s) = raw else { throw DatasetError.notOneOf(path: path, names: names, got: describe(raw), given: nil) }
        if s.hasPrefix("."), dropsDot(s) { s.removeFirst() }
        guard names.contains(s) else { throw DatasetError.notOneOf(path: path, names: names, got: describe(raw), given: s) }
        return s
    }

    /// The data error at `path` (`(top level)` when empty).
    func invalid(_ path: String, _ message: String) -> DatasetError {
        .invalidValue(path: path.isEmpty ? "(top level)" : path, message: message)
    }

    /// `path.key`, or `key` at the top level.
    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// The data error at `path`: not what `expectation` says, `raw` instead.
    func expected(_ path: String, _ expectation: DatasetExpectation, _ raw: JSONValue) -> DatasetError {
        .expected(path: path.isEmpty ? "(top level)" : path, expectation, got: describe(raw))
    }

    func bool(_ raw: JSONValue, path: String) throws -> Bool {
        guard case .bool(let b) = raw else { throw expected(path, .boolean, raw) }
        return b
    }

    /// A finite number passing `test` (−0 as it is), else `expectation`'s error.
    func number(_ raw: JSONValue, path: String, _ expectation: DatasetExpectation, _ test: (Double) -> Bool) throws -> Double {
        guard case .number(let v) = raw, v.isFinite, test(v) else { throw expected(path, expectation, raw) }
        return v
    }

    func finite(_ raw: JSONValue, path: String) throws -> Double { try number(raw, path: path, .finiteNumber) { _ in true } }

    func finiteNonNegative(_ raw: JSONValue, path: String) throws -> Double {
        try number(raw, path: path, .finiteNonNegative) { $0 >= 0 }
    }

    func positive(_ raw: JSONValue, path: String) throws -> Double { try number(raw, path: path, .finitePositive) { $0 > 0 } }

    /// An item count: an integer from 0 to `maximumElementCount`.
    func count(_ raw: JSONValue, path: String) throws -> Int {
        Int(try number(raw, path: path, .integralCount) { $0 == $0.rounded() && $0 >= 0 && $0 <= Double(maximumElementCount) })
    }
}
