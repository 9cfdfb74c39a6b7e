import Foundation
import Testing
import LayoutCore
@testable import LayoutFormats

/// The waterfall's `"items"` (issue 16): heights, sizes and objects with spans, however the
/// scanner stores the array (flat numbers, numbers with a few objects, or general).
struct ItemObjectsDecoderTests {
    func decode(_ text: String) throws -> Dataset {
        try DatasetDecoder.decode(Data(text.utf8), schema: .items)
    }

    @Test func itemsKeepTheirMeasureAndSpan() throws {
        let plain = try decode(#"{"items": [1, 2, 3]}"#).sections[0]
        #expect(plain.items == .heights([1, 2, 3]) && plain.spans == nil && plain.usesItemObjects)
        // Starting with a number: numbers stay flat, the objects aside (`.sparse`).
        let sparse = try decode(#"{"items": [1, {"height": 2, "span": 2}, 3, {"height": 4, "span": "full"}]}"#).sections[0]
        #expect(sparse.items == .heights([1, 2, 3, 4]) && sparse.spans == [1, 2, 1, WaterfallSection.fullSpan])
        // Starting with an object: the general form, the same result.
        let general = try decode(#"{"items": [{"height": 1}, {"height": 2, "span": 2}, 3, {"height": 4, "span": "full"}]}"#).sections[0]
        #expect(general.items == sparse.items && general.spans == sparse.spans)
        let mixed = try decode(#"{"sections": [{"items": [120, {"size": [300, 200], "span": 2}, [10, 5], {"height": 80, "span": "full"}]}]}"#).sections[0]
        #expect(mixed.items == .mixed([.height(120), .size(Size(width: 300, height: 200)), .size(Size(width: 10, height: 5)), .height(80)]))
        #expect(mixed.spans == [1, 2, 1, 0] && mixed.path == "sections[0]")
        let sizes = try decode(#"{"items": [{"size": [3, 4]}, [5, 6]]}"#).sections[0]
        #expect(sizes.items == .sizes([Size(width: 3, height: 4), Size(width: 5, height: 6)]) && sizes.spans == nil)
        let spacing = try decode(#"{"sections": [{"count": 1, "column-spacing": 4, "item-spacing": 5, "header-insets": "1", "footer-insets": [1, 2, 3, 4]}]}"#).sections[0]
        #expect(spacing.columnSpacing == 4 && spacing.itemSpacing == 5 && spacing.headerInsets == EdgeInsets(all: 1)
                && spacing.footerInsets == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        #expect(spacing.waterfallOnlyKeys == ["column-spacing", "item-spacing", "header-insets", "footer-insets"])
    }

    /// Numbers with other values among them are the same array to every reader: the bare
    /// array of heights reports the object where it stands, as before.
    @Test func aSparseArrayReadsAsTheGeneralOne() throws {
        let value = try StrictJSON.values(Data(#"[1, {"a": 2}, 3, "x", [4]]"#.utf8))
        guard case .sparse = value else { Issue.record("expected the sparse shape, got \(value)"); return }
        #expect(value.arrayCount == 5)
        #expect(value.elements == [.number(1), .object(["a": .number(2)]), .number(3), .string("x"), .numbers([4])])
        #expect(throws: DatasetError.invalidValue(path: "[1]", message: "expected a finite number ≥ 0, got an object")) {
            try decode(#"[1, {"a": 2}, 3]"#)
        }
    }

    /// Item objects read by the scanner as they stand (`{"height": h}`, `{"height": h,
    /// "span": s}`) decode as the same objects read member by member (keys in the other
    /// order, or spelled with an escape, take the general path): the same sections, the same
    /// errors, and the same values to any other reader.
    @Test func itemObjectsAsTheyStandDecodeAsObjectsReadMemberByMember() throws {
        let heights = ["0", "-0", "80", "1e3", "-1", "1e400", "12.5e-1", "0.0000001"]
        let spans = [nil, "1", "2", "3", "0", "-2", "2.5", "1e20", "\"full\"", "\"half\"", "\"Full\"", "true", "null", "[2]"]
        let spaces = ["", " ", "\n\t "]
        var rng = SplitMix64(seed: 16)
        for round in 0..<600 {
            let h = heights[Int(rng.next() % UInt64(heights.count))]
            let span = spans[Int(rng.next() % UInt64(spans.count))]
            let w = spaces[Int(rng.next() % 3)]
            func item(_ heightKey: String, reversed: Bool) -> String {
                var members = ["\(w)\"\(heightKey)\"\(w):\(w)\(h)\(w)"]
                if let span { members.append("\(w)\"span\"\(w):\(w)\(span)\(w)") }
                if reversed { members.reverse() }
                return "{" + members.joined(separator: ",") + "}"
            }
            let fast = item("height", reversed: false)
            let slow = round % 2 == 0 ? item("height", reversed: true) : item("h\\u0065ight", reversed: false)
            func document(_ object: String) -> String { #"{"items": [5, "# + object + ", 7, " + object + "]}" }
            func outcome(_ text: String) -> String {
                do {
                    let section = try decode(text).sections[0]
                    return "\(section.items) \(String(describing: section.spans))"
                } catch {
                    // A syntax error's line and column move with the members' order.
                    return "\(error)".replacingOccurrences(of: #"line: \d+, column: \d+"#, with: "", options: .regularExpression)
                }
            }
            #expect(outcome(document(fast)) == outcome(document(slow)), "\(fast) against \(slow)")
            // Any other reader sees the object itself.
            guard let value = try? StrictJSON.values(Data(("[1, " + fast + "]").utf8)) else {
                #expect(h == "1e400", "\(fast)")
                continue
            }
            let general = try StrictJSON.values(Data(("[" + fast + ", 1]").utf8))
            #expect(value.elements?.first == .number(1) && value.elements?.last == general.elements?.first, "\(fast)")
        }
        // The shapes it stands for are read as item objects (not through a member array).
        let value = try StrictJSON.values(Data(#"[1, {"height": 2}, { "height" : 3 , "span" : "full" }, {"height": 4, "span": 2}]"#.utf8))
        guard case .sparse(_, let others) = value else { Issue.record("expected the sparse shape, got \(value)"); return }
        #expect(others == [.itemObject(height: 2, span: .absent), .itemObject(height: 3, span: .full),
                           .itemObject(height: 4, span: .number(2))])
        // A duplicate or a third key goes the general way, and is refused or named as before.
        #expect(throws: JSONDuplicateKeyError.self) { try StrictJSON.values(Data(#"[1, {"height": 2, "span": 2, "span": 3}]"#.utf8)) }
        #expect(throws: DatasetError.invalidValue(path: "items[1].spam", message: "unknown key; did you mean 'span'? (expected 'height', 'size' or 'span')")) {
            try decode(#"{"items": [1, {"height": 2, "spam": 2}]}"#)
        }
    }
}
