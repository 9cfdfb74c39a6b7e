import Foundation
import Testing
import LayoutCore
@testable import LayoutFormats

/// The dataset decoder on its own: shapes, per-section overrides, options, paths in errors.
struct DatasetDecoderTests {
    func decode(_ text: String, _ schema: DatasetSchema = .items) throws -> Dataset {
        try DatasetDecoder.decode(Data(text.utf8), schema: schema)
    }

    func failure(_ text: String, _ schema: DatasetSchema = .items) -> DatasetError? {
        do {
            _ = try decode(text, schema)
            return nil
        } catch let error as DatasetError {
            return error
        } catch {
            return nil
        }
    }

    @Test func everyShapeOfItems() throws {
        #expect(try decode("[120, 80.5, 0]").sections == [DatasetSection(items: .heights([120, 80.5, 0]))])
        #expect(try decode("[[300, 200], [1, 0]]").sections
                == [DatasetSection(items: .sizes([Size(width: 300, height: 200), Size(width: 1, height: 0)]))])
        #expect(try decode(#"{"count": 6.0}"#).sections == [DatasetSection(items: .uniform(count: 6))])
        #expect(try decode(#"{"heights": []}"#).itemCount == 0)
        let sections = try decode(#"""
            {"sections": [{"heights": [1, 2], "header": 40, "footer": 20, "columns": 2, "insets": "1,2,3,4"},
                          {}, {"sizes": [[2, 1]], "insets": [5, 6, 7, 8]}, {"count": 3, "insets": "9"}]}
            """#).sections
        #expect(sections.count == 4)
        #expect(sections[0] == DatasetSection(items: .heights([1, 2]), header: 40, footer: 20, columns: 2,
                                              insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4), path: "sections[0]"))
        #expect(sections[1].items == .heights([]) && sections[1].path == "sections[1]")
        #expect(sections[2].insets == EdgeInsets(top: 5, left: 6, bottom: 7, right: 8))
        #expect(sections[3].insets == EdgeInsets(all: 9) && sections[3].items == .uniform(count: 3))
    }

    @Test func ringCounts() throws {
        #expect(try decode("[1, 6, 0, 18]", .ringCounts).sections.map(\.items.count) == [1, 6, 0, 18])
        #expect(try decode(#"{"rings": [1, 6.0]}"#, .ringCounts).sections.map(\.items.count) == [1, 6])
        #expect(failure("[1, 6.5]", .ringCounts) == .invalidValue(path: "[1]", message: "expected an integer, got 6.5"))
        #expect(failure("[120]", .ringCounts) == nil)
    }

    @Test func optionsKeepTheirTypes() throws {
        let options = try decode(#"{"options": {"no-labels": true, "columns": 2, "insets": "1,2,3,4"}, "heights": [1]}"#).options
        // Sorted by key; true stays a boolean, 1 would stay a number.
        #expect(options == [DatasetOption(key: "columns", value: .number(2), path: "options.columns"),
                            DatasetOption(key: "insets", value: .string("1,2,3,4"), path: "options.insets"),
                            DatasetOption(key: "no-labels", value: .bool(true), path: "options.no-labels")])
        #expect(failure(#"{"options": {"columns": [2]}, "heights": [1]}"#)
                == .invalidValue(path: "options.columns", message: "expected a number, string or boolean, got an array"))
    }

    @Test func errorsNameTheJSONPath() {
        #expect(failure("[1, true]") == .invalidValue(path: "[1]", message: "expected a finite number ≥ 0, got true"))
        #expect(failure(#"{"sections": [{"heights": [1]}, {"sizes": [[0, 3]]}]}"#)
                == .invalidValue(path: "sections[1].sizes[0][0]", message: "expected a width > 0, got 0"))
        #expect(failure(#"{"sections": [{"columns": 0}]}"#)
                == .invalidValue(path: "sections[0].columns", message: "expected an integer ≥ 1, got 0"))
        #expect(failure(#"{"heights": [1], "sizes": []}"#)
                == .invalidValue(path: "sizes", message: "conflicts with 'heights': give only one of 'heights', 'sizes', 'items', 'count' or 'sections'"))
        #expect(failure(#"{"count": 10000001}"#)
                == .invalidValue(path: "count", message: "more than 10000000 elements in all (SPEC limit)"))
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        #expect(failure("[1,\n  2,\n  ]") == .syntax(line: 3, column: 3, message: "unexpected character ']': expected a value"))
        #expect(failure("{\"a\": 1,}") == .syntax(line: 1, column: 9, message: "unexpected character '}': expected a string key"))
        #expect(failure("[\"é\", x]") == .syntax(line: 1, column: 7, message: "unexpected character 'x': expected a value"))
        #expect(failure("") == .syntax(line: 1, column: 1, message: "empty document: expected a JSON value"))
        #expect(failure(#"{"a": 1, "\u0061": 2}"#) == .invalidValue(path: "(top level)", message: "duplicate key 'a'"))
        #expect(failure(String(repeating: "[", count: 300)).map { if case .syntax = $0 { true } else { false } } == true)
    }

    @Test func aByteOrderMarkIsTolerated() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array("[1, 2]".utf8))
        #expect(try DatasetDecoder.decode(data, schema: .items).itemCount == 2)
    }
}
