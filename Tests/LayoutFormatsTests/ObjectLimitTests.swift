import Foundation
import Testing
@testable import LayoutDatasets

/// A dataset may hold a million objects (sections); a layout file read by `diff` and
/// `--check` holds three per element (element, frame, center), so it gets room for the ten
/// million elements a layout may have. (cvlayout once refused its own output past 333,336
/// elements.)
struct ObjectLimitTests {
    let document = Data(("[" + Array(repeating: "{}", count: 1_000_011).joined(separator: ",") + "]").utf8)

    @Test func datasetsStopAtAMillionObjects() {
        #expect(throws: JSONSyntaxError.self) { try StrictJSON.parse(document) }
        do {
            _ = try StrictJSON.parse(document)
        } catch let error as JSONSyntaxError {
            #expect(error.message == "more than 1000010 objects (a million sections, and ten more objects for the top level and options)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// Issue 28: item objects count as items (up to the 10⁷ elements of a layout), not as
    /// objects of the document: more than a million of them are read, in either form.
    @Test func itemObjectsCountAsItems() throws {
        for item in [#"{"height":5}"#, #"{"size":[10,5],"span":"full"}"#, #"{"span":1,"height":5}"#] {
            let items = Data((#"{"items":["# + Array(repeating: item, count: 1_000_020).joined(separator: ",") + "]}").utf8)
            guard case .object(let object) = try StrictJSON.values(items) else {
                Issue.record("not an object")
                continue
            }
            #expect(object["items"]?.elements?.count == 1_000_020, "\(item)")
        }
        // Numbers first (the fast path) and objects alike.
        let mixed = Data(("[1," + Array(repeating: #"{"height":5}"#, count: 1_000_020).joined(separator: ",") + "]").utf8)
        #expect(try StrictJSON.values(mixed).elements?.count == 1_000_021)
        // An object with any other key is an object of the document.
        let other = Data(("[" + Array(repeating: #"{"height":5,"x":1}"#, count: 1_000_011).joined(separator: ",") + "]").utf8)
        #expect(throws: JSONSyntaxError.self) { try StrictJSON.values(other) }
    }

    @Test func layoutFilesTakeThreeObjectsPerElement() throws {
        let value = try StrictJSON.parse(document, objectLimit: .layout)
        #expect((value as? [Any])?.count == 1_000_011)
        #expect(JSONSyntaxCheck.ObjectLimit.layout.count == 31_000_010)
    }
}
