import Foundation
import Testing
import LayoutCore
@testable import CVLayoutCLI

/// `cvlayout compositional` as Apple writes its layouts (issue 32): element kinds are any names,
/// their roles from where they are given; Swift's spellings give the plain spellings' bytes;
/// `repeat` and `variants` equal the sections they stand for; badges carry their item's index
/// path; group supplementary items anchor to the group; `--sizes` self-sizes estimated
/// dimensions.
struct CompositionalSpellingsTests {
    static func layout(_ description: String, _ arguments: [String] = [], format: String = "json") -> CommandResult {
        run(arguments: ["compositional", "-f", format] + arguments + ["-"], stdin: { Data(description.utf8) })
    }

    /// Every element of a JSON layout: index path, category, kind and frame, one line each.
    static func elements(_ result: CommandResult) -> [String] {
        result.stdoutText.split(separator: "\n").filter { $0.hasPrefix("{\"indexPath\"") }.map { line in
            line.components(separatedBy: ",\"center\"")[0]
        }
    }

    static let plain = #"""
    {"sections": [{"count": 5, "group": {"horizontal": {"layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(44)"},
      "subitems": [{"item": {"layoutSize": {"width": "fractionalWidth(0.5)", "height": "fractionalHeight(1)"},
        "contentInsets": [2, 4, 6, 8], "edgeSpacing": {"leading": "flexible(0)", "top": "fixed(3)"}}}],
      "interItemSpacing": "fixed(10)", "contentInsets": [1, 2, 3, 4]}},
      "contentInsets": [10, 20, 30, 40], "orthogonalScrollingBehavior": "none",
      "boundarySupplementaryItems": [{"elementKind": "header", "layoutSize": {"width": "fractionalWidth(1)", "height": "estimated(30)"},
        "alignment": "top", "absoluteOffset": [3, 4]}]},
      {"count": 3, "group": {"vertical": {"layoutSize": {"width": "fractionalWidth(0.5)", "height": "absolute(90)"},
        "subitems": [{"item": {"layoutSize": {"width": "fractionalWidth(1)", "height": "fractionalHeight(1)"},
          "supplementaryItems": [{"elementKind": "badge-element-kind", "layoutSize": {"width": "absolute(20)", "height": "absolute(20)"},
            "containerAnchor": {"edges": ["top", "trailing"], "fractionalOffset": [0.3, -0.3]}}]}}], "count": 2}}}]}
    """#

    static let swift = #"""
    {"sections": [{"count": 5, "group": {"horizontal": {"layoutSize": {"widthDimension": ".fractionalWidth(1)", "heightDimension": ".absolute(44)"},
      "subitems": [{"item": {"layoutSize": {"widthDimension": ".fractionalWidth(0.5)", "heightDimension": ".fractionalHeight(1)"},
        "contentInsets": {"top": 2, "leading": 4, "bottom": 6, "trailing": 8}, "edgeSpacing": {"leading": ".flexible(0)", "top": ".fixed(3)"}}}],
      "interItemSpacing": ".fixed(10)", "contentInsets": {"top": 1, "leading": 2, "bottom": 3, "trailing": 4}}},
      "contentInsets": {"top": 10, "leading": 20, "bottom": 30, "trailing": 40}, "orthogonalScrollingBehavior": ".none",
      "boundarySupplementaryItems": [{"elementKind": "header", "layoutSize": {"widthDimension": ".fractionalWidth(1)", "heightDimension": ".estimated(30)"},
        "alignment": ".top", "absoluteOffset": {"x": 3, "y": 4}}]},
      {"count": 3, "group": {"vertical": {"layoutSize": {"widthDimension": ".fractionalWidth(0.5)", "heightDimension": ".absolute(90)"},
        "subitem": {"item": {"layoutSize": {"widthDimension": ".fractionalWidth(1)", "heightDimension": ".fractionalHeight(1)"},
          "supplementaryItems": [{"elementKind": "badge-element-kind", "layoutSize": {"widthDimension": ".absolute(20)", "heightDimension": ".absolute(20)"},
            "containerAnchor": {"edges": [".top", ".trailing"], "fractionalOffset": {"x": 0.3, "y": -0.3}}}]}}, "count": 2}}}]}
    """#

    /// iOS 16's `repeatingSubitem:count:` is `subitems` with a `repeatingCount`.
    @Test func repeatingSubitemIsARepeatingCount() {
        let item = #"{"item":{"layoutSize":{"width":"fractionalWidth(0.25)","height":"fractionalHeight(1.0)"}}}"#
        let size = #""layoutSize":{"width":"fractionalWidth(1.0)","height":"absolute(44)"}"#
        let swift = #"{"sections":[{"count":7,"group":{"horizontal":{"# + size + #","repeatingSubitem":"# + item + #","count":3}}}]}"#
        let plain = #"{"sections":[{"count":7,"group":{"horizontal":{"# + size + #","subitems":["# + item + #"],"repeatingCount":3}}}]}"#
        let a = Self.layout(swift, format: "csv"), b = Self.layout(plain, format: "csv")
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stdout == b.stdout && !a.stdout.isEmpty)
        // Three 0.25-wide cells a row, repeated: the fourth starts the next row.
        #expect(a.stdoutText.contains("\n0,3,cell,,0,44,97.5,44,"))
    }

    @Test(arguments: ["json", "csv", "svg"])
    func swiftSpellingsGiveThePlainSpellingsBytes(format: String) {
        let a = Self.layout(Self.plain, ["--scale", "2"], format: format), b = Self.layout(Self.swift, ["--scale", "2"], format: format)
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        #expect(a.stdout == b.stdout)
        #expect(!a.stdout.isEmpty)
    }

    /// Apple's badge sample's names: a header, badges on some items, a background.
    static let appleKinds = #"""
    {"sections": [{"count": 4, "group": {"horizontal": {"layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(100)"},
      "subitems": [{"item": {"layoutSize": {"width": "fractionalWidth(0.25)", "height": "fractionalHeight(1)"}}},
                   {"item": {"layoutSize": {"width": "fractionalWidth(0.25)", "height": "fractionalHeight(1)"},
                     "supplementaryItems": [{"elementKind": "badge-element-kind", "layoutSize": {"width": "absolute(20)", "height": "absolute(20)"},
                       "containerAnchor": {"edges": ["top", "trailing"], "fractionalOffset": [0.3, -0.3]}}]}}]}},
      "boundarySupplementaryItems": [
        {"elementKind": "section-header-element-kind", "layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(44)"}, "alignment": "top"},
        {"elementKind": "section-header-element-kind", "layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(20)"}, "alignment": "bottom"},
        {"elementKind": "footer", "layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(10)"}}],
      "decorationItems": [{"elementKind": "section-background-element-kind"}, {"elementKind": "section-background-element-kind"}]}]}
    """#

    @Test func elementKindsAreTheNamesGivenWithRolesFromWhereTheyAreGiven() {
        let result = Self.layout(Self.appleKinds)
        #expect(result.status == 0, "\(result.stderr)")
        let e = Self.elements(result)
        #expect(e.count == 3 + 4 + 2 + 2)
        // Boundary items [s, n] counting their kind; the footer defaults to the bottom.
        #expect(e[0] == #"{"indexPath":[0,0],"category":"supplementaryView","kind":"section-header-element-kind","frame":{"x":0,"y":0,"width":390,"height":44}"#)
        #expect(e[1] == #"{"indexPath":[0,1],"category":"supplementaryView","kind":"section-header-element-kind","frame":{"x":0,"y":144,"width":390,"height":20}"#)
        #expect(e[2] == #"{"indexPath":[0,0],"category":"supplementaryView","kind":"footer","frame":{"x":0,"y":144,"width":390,"height":10}"#)
        // Badges at their items' index paths (1 and 3), anchored to the items' top trailing corners (the item at 292.5…390: its corner 390 + 6, −6 from the content top).
        #expect(e[7] == #"{"indexPath":[0,1],"category":"supplementaryView","kind":"badge-element-kind","frame":{"x":181,"y":38,"width":20,"height":20}"#)
        #expect(e[8] == #"{"indexPath":[0,3],"category":"supplementaryView","kind":"badge-element-kind","frame":{"x":376,"y":38,"width":20,"height":20}"#)
        // Decorations [s, n] per kind.
        #expect(e[9].hasPrefix(#"{"indexPath":[0,0],"category":"decorationView","kind":"section-background-element-kind""#))
        #expect(e[10].hasPrefix(#"{"indexPath":[0,1],"category":"decorationView","kind":"section-background-element-kind""#))
        // CSV prints the names; the SVG draws by role: badges as red pills, backgrounds dashed.
        let csv = Self.layout(Self.appleKinds, format: "csv").stdoutText
        #expect(csv.contains("\n0,3,supplementaryView,badge-element-kind,376,38,20,20,"))
        let svg = Self.layout(Self.appleKinds, format: "svg").stdoutText
        #expect(svg.contains(#"data-kind="badge-element-kind""#) && svg.contains(#"data-kind="section-background-element-kind""#))
        #expect(svg.components(separatedBy: ##"fill="#d62728""##).count - 1 == 2)
        #expect(svg.components(separatedBy: ##"fill="#eef2f8""##).count - 1 == 2)
    }

    @Test func repeatStandsForCopies() {
        let section = #"{"count": 3, "group": {"horizontal": {"layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(44)"}, "subitems": [{"item": {"layoutSize": {"width": "fractionalWidth(0.5)", "height": "fractionalHeight(1)"}}}]}}, "contentInsets": [5, 5, 5, 5]}"#
        let repeated = #"{"sections": [{"repeat": 3, "#
            + section.dropFirst() + "]}"
        let copies = #"{"sections": ["# + [String](repeating: section, count: 3).joined(separator: ", ") + "]}"
        let a = Self.layout(repeated), b = Self.layout(copies)
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stdout == b.stdout)
        #expect(Self.elements(a).count == 9)
    }

    @Test(arguments: [(900.0, 0), (800.0, 0), (799.0, 1), (390.0, 1)])
    func theFirstVariantWhoseConditionHoldsStandsForTheSection(width: Double, chosen: Int) {
        let wide = #""group": {"horizontal": {"layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(100)"}, "subitems": [{"item": {"layoutSize": {"width": "fractionalWidth(0.2)", "height": "fractionalHeight(1)"}}}]}}"#
        let narrow = #""group": {"horizontal": {"layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(60)"}, "subitems": [{"item": {"layoutSize": {"width": "fractionalWidth(0.5)", "height": "fractionalHeight(1)"}}}]}}"#
        let variants = #"{"sections": [{"count": 7, "variants": [{"when": {"minWidth": 800}, "# + wide + #"}, {"# + narrow + "}]}]}"
        let plain = #"{"sections": [{"count": 7, "# + (chosen == 0 ? wide : narrow) + "}]}"
        let arguments = ["--width", "\(Int(width))"]
        let a = Self.layout(variants, arguments), b = Self.layout(plain, arguments)
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stdout == b.stdout)
        // --delete applies to the section the variants stand for.
        let deleted = Self.layout(variants, arguments + ["--delete", "0:0"])
        #expect(Self.elements(deleted).count == 6)
    }

    @Test func repeatedVariantsStandForCopiesOfTheChosenSection() {
        let wide = #""group": {"horizontal": {"layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(100)"}, "subitems": [{"item": {"layoutSize": {"width": "fractionalWidth(0.2)", "height": "fractionalHeight(1)"}}}]}}"#
        let narrow = #""group": {"horizontal": {"layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(60)"}, "subitems": [{"item": {"layoutSize": {"width": "fractionalWidth(0.5)", "height": "fractionalHeight(1)"}}}]}}"#
        let variants = #"{"sections": [{"repeat": 2, "variants": [{"when": {"maxWidth": 500}, "count": 3, "# + narrow + #"}, {"count": 3, "# + wide + "}]}]}"
        let plain = #"{"sections": [{"count": 3, "# + narrow + #"}, {"count": 3, "# + narrow + "}]}"
        let a = Self.layout(variants), b = Self.layout(plain)
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stdout == b.stdout)
        // An update in the second copy names it as its own section.
        #expect(Self.elements(Self.layout(variants, ["--delete", "1:0"])).count == 5)
    }

    @Test func groupSupplementaryItemsAnchorToTheGroup() {
        let description = #"""
        {"sections": [{"count": 3, "group": {"vertical": {"layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(100)"},
          "subitems": [{"item": {"layoutSize": {"width": "fractionalWidth(1)", "height": "absolute(50)"}}}],
          "supplementaryItems": [{"elementKind": "group-badge", "layoutSize": {"width": "absolute(10)", "height": "absolute(10)"},
            "containerAnchor": {"edges": ["bottom", "trailing"]}}]}}, "interGroupSpacing": 10}]}
        """#
        let result = Self.layout(description)
        #expect(result.status == 0, "\(result.stderr)")
        let e = Self.elements(result)
        // Groups at y 0 and 110; each group's badge at its bottom trailing corner, at its first item's index path.
        #expect(e[3] == #"{"indexPath":[0,0],"category":"supplementaryView","kind":"group-badge","frame":{"x":380,"y":90,"width":10,"height":10}"#)
        #expect(e[4] == #"{"indexPath":[0,2],"category":"supplementaryView","kind":"group-badge","frame":{"x":380,"y":200,"width":10,"height":10}"#)
        #expect(e.count == 5)
    }

    /// `text` in a new temporary file; its path.
    static func file(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-sizes-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let selfSizingList = #"""
    {"sections": [{"count": 4, "group": {"horizontal": {"layoutSize": {"width": "fractionalWidth(1)", "height": "estimated(44)"},
      "subitems": [{"item": {"layoutSize": {"width": "fractionalWidth(1)", "height": "estimated(44)"}}}]}}, "interGroupSpacing": 1}]}
    """#

    @Test func aSelfSizingListTakesEachRowsMeasuredHeight() throws {
        let sizes = try Self.file(#"{"0:0": [390, 60], "0:2": [390, 100.5]}"#)
        defer { try? FileManager.default.removeItem(atPath: sizes) }
        let result = Self.layout(Self.selfSizingList, ["--sizes", sizes], format: "csv")
        #expect(result.status == 0, "\(result.stderr)")
        // Rows 60, 44 (estimated), 100.5, 44, one point apart: y = 0, 61, 106, 207.5.
        let rows = result.stdoutText.split(separator: "\n").dropFirst().map { $0.split(separator: ",").prefix(7).joined(separator: ",") }
        #expect(rows == ["0,0,cell,0,0,390,60", "0,1,cell,0,61,390,44", "0,2,cell,0,106,390,100.5", "0,3,cell,0,207.5,390,44"])
        #expect(Self.layout(Self.selfSizingList, ["--sizes", sizes]).stdoutText.contains(#""contentSize":{"width":390,"height":251.5}"#))
    }

    @Test func aSelfSizingRowTakesItsTallerCellAndSupplementariesTheirMeasures() throws {
        let grid = #"""
        {"sections": [{"count": 5, "group": {"horizontal": {"layoutSize": {"width": "fractionalWidth(1)", "height": "estimated(100)"},
          "subitems": [{"item": {"layoutSize": {"width": "fractionalWidth(0.5)", "height": "estimated(100)"},
            "supplementaryItems": [{"elementKind": "badge", "layoutSize": {"width": "estimated(20)", "height": "absolute(20)"},
              "containerAnchor": {"edges": ["top", "trailing"]}}]}}],
          "count": 2, "interItemSpacing": "fixed(10)"}}, "interGroupSpacing": 10,
          "boundarySupplementaryItems": [{"elementKind": "section-header-element-kind",
            "layoutSize": {"width": "fractionalWidth(1)", "height": "estimated(44)"}}]}]}
        """#
        let sizes = try Self.file(#"{"0:0": [190, 80], "0:1": [190, 120], "0:2": [190, 50], "section-header-element-kind 0:0": [390, 30], "badge 0:1": [40, 10]}"#)
        defer { try? FileManager.default.removeItem(atPath: sizes) }
        let result = Self.layout(grid, ["--sizes", sizes], format: "csv")
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdoutText.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(8).joined(separator: ",") }
        // The header measured 30; rows of max(80, 120) = 120 and max(50, 100 estimated) = 100,
        // cells at their row's top with their own heights; the badge's estimated width measured 40.
        #expect(rows == ["0,0,supplementaryView,section-header-element-kind,0,0,390,30",
                         "0,0,cell,,0,30,190,80", "0,1,cell,,200,30,190,120", "0,2,cell,,0,160,190,50",
                         "0,3,cell,,200,160,190,100", "0,4,cell,,0,270,190,100",
                         "0,0,supplementaryView,badge,170,30,20,20", "0,1,supplementaryView,badge,350,30,40,20",
                         "0,2,supplementaryView,badge,170,160,20,20", "0,3,supplementaryView,badge,370,160,20,20",
                         "0,4,supplementaryView,badge,170,270,20,20"])
    }

    @Test(arguments: [(#"{"0:4": [1, 2]}"#, #": "0:4": names no element of the layout"#),
                      (#"{"badge 0:0": [1, 2]}"#, #": "badge 0:0": names no element of the layout"#),
                      (#"{"0-1": [1, 2]}"#, #": 0-1: expected a key "S:I" (a cell) or "KIND S:I" (a supplementary view)"#),
                      (#"{"0:1": [1]}"#, #": 0:1: expected [width, height], finite numbers ≥ 0"#)])
    func badSizesAreDataErrorsNamingTheKey(sizes: String, message: String) throws {
        let file = try Self.file(sizes)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = Self.layout(Self.selfSizingList, ["--sizes", file])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("cvlayout: error: " + file + message), "\(result.stderr)")
        let missing = Self.layout(Self.selfSizingList, ["--sizes", file + ".missing"])
        #expect(missing.status == 66)
    }

    @Test func theDeviceMeasuredRowEndToEnd() {
        // Issue 32's measurement on a 375-point @2x device: widths 84, 37.5, 84.5, 84, 84.5.
        let items = [0.2244798, 0.0999485, 0.2255459, 0.2244798, 0.2255459].map {
            #"{"item": {"layoutSize": {"widthDimension": ".fractionalWidth("# + "\($0)" + #")", "heightDimension": ".fractionalHeight(1)"}}}"#
        }
        let description = #"{"sections": [{"count": 5, "group": {"horizontal": {"layoutSize": {"widthDimension": ".fractionalWidth(1)", "heightDimension": ".absolute(50)"}, "subitems": ["#
            + items.joined(separator: ",") + "]}}}]}"
        let result = Self.layout(description, ["--width", "375", "--height", "667", "--scale", "2"], format: "csv")
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdoutText.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[4...6].joined(separator: ",") }
        #expect(rows == ["0,0,84", "84,0,37.5", "121.5,0,84.5", "206,0,84", "290.5,0,84.5"])
    }
}
