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
}
