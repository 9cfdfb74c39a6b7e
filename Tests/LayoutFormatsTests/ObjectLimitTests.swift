import Foundation
import Testing
@testable import LayoutFormats

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

    @Test func layoutFilesTakeThreeObjectsPerElement() throws {
        let value = try StrictJSON.parse(document, objectLimit: .layout)
        #expect((value as? [Any])?.count == 1_000_011)
        #expect(JSONSyntaxCheck.ObjectLimit.layout.count == 31_000_010)
    }
}
