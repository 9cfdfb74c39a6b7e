import Foundation
import Testing
import LayoutCore
@testable import CVLayoutCLI
import LayoutDatasets

/// `cvlayout compositional` end to end: bad descriptions are data errors (65) naming stdin and
/// the JSON path, with nothing on stdout; `--scale` rounds as UIKit does instead of snapping
/// edges; batch updates change the sections' counts; the embedded data shows nested groups,
/// an orthogonal row, a header and a background.
struct CompositionalCommandTests {
    static let row = #"{"horizontal":{"layoutSize":{"width":"fractionalWidth(1.0)","height":"absolute(44)"},"subitems":[{"item":{"layoutSize":{"width":"fractionalWidth(1.0)","height":"fractionalHeight(1.0)"}}}]}}"#

    /// A description of one section of `count` items in `group`, with `extra` section keys.
    static func description(group: String = row, count: String = "3", extra: String = "", top: String = "") -> String {
        #"{"# + top + #""sections":[{"count":"# + count + #","group":"# + group + extra + #"}]}"#
    }

    static let badDescriptions: [BadDescription] = [
        .init(dataset: "[1, 2]", message: "<stdin>: (top level): expected a compositional layout description: an object with \"sections\", got an array"),
        .init(dataset: #"{"sectons":[]}"#, message: "<stdin>: sectons: unknown key; did you mean 'sections'? (expected 'configuration', 'sections' or 'options')"),
        .init(dataset: #"{"sections":[{"group":{}}]}"#, message: "<stdin>: sections[0]: no \"count\""),
        .init(dataset: description(count: "2.5"), message: "<stdin>: sections[0].count: expected an integral count from 0 to 10000000, got 2.5"),
        .init(dataset: description(group: #"{"diagonal":{}}"#), message: "<stdin>: sections[0].group.diagonal: unknown key (expected 'horizontal' or 'vertical')"),
        .init(dataset: description(group: row.replacingOccurrences(of: "absolute(44)", with: "absolute(-4)")),
             message: "<stdin>: sections[0].group.horizontal.layoutSize.height: expected a finite number ≥ 0 in absolute(…), got \"absolute(-4)\""),
        .init(dataset: description(group: row.replacingOccurrences(of: "absolute(44)", with: "fractional(1)")),
             message: "<stdin>: sections[0].group.horizontal.layoutSize.height: expected fractionalWidth(f), fractionalHeight(f), absolute(pt) or estimated(pt), got \"fractional(1)\""),
        .init(dataset: description(group: row.replacingOccurrences(of: #""fractionalHeight(1.0)"}"#, with: #""fractionalHeight(1.0)"},"colour":1"#)),
             message: "<stdin>: sections[0].group.horizontal.subitems[0].item.colour: unknown key"),
        .init(dataset: description(group: row.replacingOccurrences(of: #""subitems""#, with: #""interItemSpacing":"wide(3)","subitems""#)),
             message: "<stdin>: sections[0].group.horizontal.interItemSpacing: expected fixed(pt) or flexible(pt), got \"wide(3)\""),
        .init(dataset: description(group: row.replacingOccurrences(of: #""subitems""#, with: #""count":0,"subitems""#)),
             message: "<stdin>: sections[0].group.horizontal.count: expected an integer from 1 to 10000000, got 0"),
        .init(dataset: description(group: row.replacingOccurrences(of: #""subitems""#, with: #""count":2,"repeatingCount":2,"subitems""#)),
             message: "<stdin>: sections[0].group.horizontal.repeatingCount: conflicts with 'count': give only one"),
        .init(dataset: description(extra: #","contentInsets":[1,2,3]"#),
             message: #"<stdin>: sections[0].contentInsets: expected insets: a number, "T,L,B,R", [T, L, B, R] or {"top": T, "left": L, "bottom": B, "right": R}, got an array of 3 values"#),
        .init(dataset: description(extra: #","orthogonalScrollingBehavior":"sideways""#),
             message: "<stdin>: sections[0].orthogonalScrollingBehavior: expected 'none', 'continuous', 'continuousGroupLeadingBoundary', 'paging', 'groupPaging' or 'groupPagingCentered', got \"sideways\""),
        .init(dataset: description(extra: #","boundarySupplementaryItems":[{"elementKind":"section header","layoutSize":{"width":"absolute(1)","height":"absolute(1)"}}]"#),
             message: "<stdin>: sections[0].boundarySupplementaryItems[0].elementKind: expected an element kind: 1 to 64 ASCII letters, digits, '-', '_' or '.', the first a letter, digit or '_', got \"section header\""),
        .init(dataset: description(extra: #","decorationItems":[{"elementKind":""}]"#),
             message: "<stdin>: sections[0].decorationItems[0].elementKind: expected an element kind"),
        .init(dataset: description(group: row.replacingOccurrences(of: #""width":"fractionalWidth(1.0)","height":"absolute(44)""#, with: #""width":"fractionalWidth(1.0)","widthDimension":".fractionalWidth(1.0)","height":"absolute(44)""#)),
             message: "<stdin>: sections[0].group.horizontal.layoutSize.widthDimension: conflicts with 'width': give only one"),
        .init(dataset: description(group: row.replacingOccurrences(of: #""fractionalHeight(1.0)"}"#, with: #""fractionalHeight(1.0)"},"supplementaryItems":[{"elementKind":"b","layoutSize":{"width":"absolute(9)","height":"absolute(9)"},"containerAnchor":{}},{"elementKind":"b","layoutSize":{"width":"absolute(9)","height":"absolute(9)"},"containerAnchor":{}}]"#)),
             message: "<stdin>: sections[0].group.horizontal.subitems[0].item.supplementaryItems[1].elementKind: 'b' given twice"),
        .init(dataset: description(group: row.replacingOccurrences(of: #""fractionalHeight(1.0)"}"#, with: #""fractionalHeight(1.0)"},"supplementaryItems":[{"elementKind":"b","layoutSize":{"width":"absolute(9)","height":"absolute(9)"},"containerAnchor":{}}]"#).replacingOccurrences(of: #""subitems""#, with: #""supplementaryItems":[{"elementKind":"b","layoutSize":{"width":"absolute(9)","height":"absolute(9)"},"containerAnchor":{}}],"subitems""#)),
             message: "<stdin>: sections[0].group.horizontal.supplementaryItems[0].elementKind: 'b' is also used by another item or group of the section"),
        .init(dataset: description(extra: #","repeat":0"#),
             message: "<stdin>: sections[0].repeat: expected an integer from 1 to 1000000, got 0"),
        .init(dataset: #"{"sections":[{"variants":[{"when":{"minWidth":800},"count":2,"group":"# + row + #"},{"count":3,"group":"# + row + #"}]}]}"#,
             message: "<stdin>: sections[0].variants[1].count: count 3 differs from variants[0]'s 2"),
        .init(dataset: description(group: row.replacingOccurrences(of: #""subitems":["#, with: #""subitem":"#)
                .replacingOccurrences(of: "}]}}", with: "}}}")),
             message: #"<stdin>: sections[0].group.horizontal: no "count": 'subitem' goes with a count, as subitem:count: does"#),
        .init(dataset: #"{"sections":[{"count":4,"variants":[{"when":{"minWidth":500,"maxWidth":400},"group":"# + row + #"},{"group":"# + row + #"}]}]}"#,
             message: "<stdin>: sections[0].variants[0].when.maxWidth: below minWidth: no width is in the range, got 400"),
        .init(dataset: #"{"sections":[{"count":4,"variants":[{"when":{"minHeight":-1},"group":"# + row + #"},{"group":"# + row + #"}]}]}"#,
             message: "<stdin>: sections[0].variants[0].when.minHeight: expected a size ≥ 0, got -1"),
        .init(dataset: #"{"sections":[{"count":4,"variants":[{"count":5,"group":"# + row + #"},{"group":"# + row + #"}]}]}"#,
             message: #"<stdin>: sections[0].variants[0].count: count 5 differs from the section's 4 beside "variants": give one "count" beside "variants", or the same in every variant"#),
        .init(dataset: #"{"sections":[{"count":1,"variants":[{"when":{"minWidht":800},"group":"# + row + #"}]}]}"#,
             message: "<stdin>: sections[0].variants[0].when.minWidht: unknown key; did you mean 'minWidth'?"),
        .init(dataset: description(extra: #","boundarySupplementaryItems":[{"elementKind":"header","layoutSize":{"width":"absolute(1)","height":"absolute(1)"},"alignment":"middle"}]"#),
             message: "<stdin>: sections[0].boundarySupplementaryItems[0].alignment: expected 'top', 'topLeading', 'leading', 'bottomLeading', 'bottom', 'bottomTrailing', 'trailing' or 'topTrailing', got \"middle\""),
        .init(dataset: description(extra: #","decorationItems":[{"elementKind":"background","zIndex":0.5}]"#),
             message: "<stdin>: sections[0].decorationItems[0].zIndex: expected an integer, got 0.5"),
        .init(dataset: description(group: row.replacingOccurrences(of: #""fractionalHeight(1.0)"}"#, with: #""fractionalHeight(1.0)"},"supplementaryItems":[{"elementKind":"badge","layoutSize":{"width":"absolute(9)","height":"absolute(9)"},"containerAnchor":{"edges":["top","bottom"]}}]"#)),
             message: "<stdin>: sections[0].group.horizontal.subitems[0].item.supplementaryItems[0].containerAnchor.edges: opposite edges"),
        .init(dataset: description(top: #""configuration":{"scrollDirection":"diagonal"},"#),
             message: "<stdin>: configuration.scrollDirection: expected 'vertical' or 'horizontal', got \"diagonal\""),
        .init(dataset: description(top: #""configuration":{"interSectionSpacing":-1},"#),
             message: "<stdin>: configuration.interSectionSpacing: expected a finite number ≥ 0, got -1"),
        .init(dataset: description(group: #"{"vertical":{"layoutSize":{"width":"absolute(1)","height":"absolute(1)"},"subitems":[]}}"#),
             message: "<stdin>: sections[0].group.vertical.subitems: expected a non-empty array"),
        .init(dataset: description(group: nested(depth: 33)),
             message: "<stdin>: sections[0].group" + String(repeating: ".vertical.subitems[0].group", count: 32) + ".vertical: groups nest more than 32 deep"),
        .init(dataset: #"{"options":{"colums":2},"sections":[]}"#, message: "<stdin>: options.colums: unknown option"),
    ]

    /// Groups nested `depth` deep, one item at the bottom.
    static func nested(depth: Int) -> String {
        var group = #"{"vertical":{"layoutSize":{"width":"absolute(10)","height":"absolute(10)"},"subitems":[{"item":{"layoutSize":{"width":"absolute(10)","height":"absolute(10)"}}}]}}"#
        for _ in 1..<depth {
            group = #"{"vertical":{"layoutSize":{"width":"absolute(10)","height":"absolute(10)"},"subitems":[{"group":"# + group + "}]}}"
        }
        return group
    }

    @Test(arguments: badDescriptions)
    func badDescriptionsAreDataErrorsWithTheirPath(_ case_: BadDescription) {
        expectRefused("compositional", case_)
    }

    @Test func aTrimmedGroupIsNeverNegative() {
        // A group 10 tall repeating an item 100 tall twice (the copies stick out); one item:
        // its reach 100 plus what a whole group leaves after its last copy, 10 − 200, is −90,
        // taken as 0 (found by an independent tester). The item still sticks out.
        let description = #"{"sections":[{"count":1,"group":{"vertical":{"layoutSize":{"width":"fractionalWidth(1)","height":"absolute(10)"},"subitems":[{"item":{"layoutSize":{"width":"fractionalWidth(1)","height":"absolute(100)"}}}],"repeatingCount":2}}}]}"#
        let result = run(arguments: ["compositional", "--precision", "full", "-"], stdin: { Data(description.utf8) })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.contains(#""contentSize":{"width":390,"height":0}"#), "\(result.stdoutText)")
        #expect(result.stdoutText.contains(#""frame":{"x":0,"y":0,"width":390,"height":100}"#))
    }

    @Test func aTransposedKeyIsSuggested() {
        let result = run(arguments: ["compositional", "-"], stdin: { Data(#"{"sections":[{"conut":3}]}"#.utf8) })
        #expect(result.status == 65)
        #expect(result.stderr.contains("sections[0].conut: unknown key; did you mean 'count'?"), "\(result.stderr)")
        // One swap of neighbours is one edit, as one insertion or deletion is.
        #expect(editDistance("conut", "count") == 1 && editDistance("count", "count") == 0)
        #expect(editDistance("ab", "ba") == 1 && editDistance("abc", "ca") == 3)
        #expect(editDistance("", "abc") == 3 && editDistance("abc", "") == 3 && editDistance("", "") == 0)
    }

    @Test func thirtyTwoDeepIsAccepted() {
        let result = run(arguments: ["compositional", "-f", "csv", "-"], stdin: { Data(Self.description(group: Self.nested(depth: 32), count: "1").utf8) })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.contains("0,0,cell,,0,0,10,10,"))
    }

    @Test func scaleRoundsAsUIKitNotByEdges() {
        // 0.35 of 390 = 136.5: at --scale 1 each origin and size rounds on its own, 137 wide at
        // x 137 (edge snapping would give 137 … 273, 136 wide, from 136.5 … 273).
        let group = Self.row.replacingOccurrences(of: #""width":"fractionalWidth(1.0)","height":"fractionalHeight(1.0)""#,
                                                  with: #""width":"fractionalWidth(0.35)","height":"fractionalHeight(1.0)""#)
        let result = run(arguments: ["compositional", "-f", "csv", "--scale", "1", "-"], stdin: { Data(Self.description(group: group).utf8) })
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdoutText.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.map { "\($0[4]),\($0[6])" } == ["0,137", "137,137", "0,137"])
    }

    @Test func theToleranceDecidesWhatFits() {
        // Items of 0.01, 0.06 and 0.93 of 390 take 390.00000000000006 in doubles: within the
        // default tolerance all three fit; with a tolerance of 0 a group holds two, and item 2 is
        // the first of the next.
        let group = #"{"horizontal":{"layoutSize":{"width":"fractionalWidth(1.0)","height":"absolute(10)"},"subitems":["#
            + #"{"item":{"layoutSize":{"width":"fractionalWidth(0.01)","height":"fractionalHeight(1.0)"}}},"#
            + #"{"item":{"layoutSize":{"width":"fractionalWidth(0.06)","height":"fractionalHeight(1.0)"}}},"#
            + #"{"item":{"layoutSize":{"width":"fractionalWidth(0.93)","height":"fractionalHeight(1.0)"}}}]}}"#
        let sum = 0.01 * 390 + 0.06 * 390 + 0.93 * 390
        #expect(sum > 390)
        let loose = run(arguments: ["compositional", "-f", "csv", "-"], stdin: { Data(Self.description(group: group).utf8) })
        #expect(loose.stdoutText.contains("0,2,cell,,27.3,0,362.7,10,"), "\(loose.stdoutText)")
        let strict = run(arguments: ["compositional", "-f", "csv", "--tolerance", "0", "-"], stdin: { Data(Self.description(group: group).utf8) })
        #expect(strict.stdoutText.contains("0,2,cell,,0,10,3.9,10,"), "\(strict.stdoutText)")
        let negative = run(arguments: ["compositional", "--tolerance", "-1"])
        #expect(negative.status == 65)
        #expect(negative.stderr == "cvlayout: error: --tolerance: expected a finite number ≥ 0, got -1\n")
    }

    @Test func hostileNestingsStaySmall() {
        // 32 levels of count: 10,000,000 groups: the slots are kept as one cycle per group, so
        // this lays out its 5 cells without allocating per slot.
        var group = #"{"vertical":{"layoutSize":{"width":"absolute(1)","height":"absolute(1)"},"subitems":[{"item":{"layoutSize":{"width":"absolute(1)","height":"absolute(1)"}}}],"count":10000000}}"#
        for _ in 1..<32 {
            group = #"{"vertical":{"layoutSize":{"width":"absolute(1)","height":"absolute(1)"},"subitems":[{"group":"# + group
                + #"}],"count":10000000}}"#
        }
        let result = run(arguments: ["compositional", "-f", "csv", "-"], stdin: { Data(Self.description(group: group, count: "5").utf8) })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.split(separator: "\n").count == 6)
    }

    @Test func batchUpdatesChangeTheSectionsCounts() {
        let result = run(arguments: ["compositional", "-f", "csv", "--delete", "0:0", "-"], stdin: { Data(Self.description().utf8) })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.split(separator: "\n").count == 1 + 2)
        let embedded = run(arguments: ["compositional", "-f", "csv", "--count", "4", "--insert", "0:0"])
        #expect(embedded.status == 0, "\(embedded.stderr)")
        #expect(embedded.stdoutText.split(separator: "\n").filter { $0.hasPrefix("0,") }.count == 5)
    }

    @Test func theEmbeddedDataShowsNestedGroupsAnOrthogonalRowAHeaderAndABackground() {
        let result = run(arguments: ["compositional", "-f", "csv"])
        #expect(result.status == 0)
        let text = result.stdoutText
        #expect(text.contains("1,0,supplementaryView,header,"))
        #expect(text.contains("1,0,decorationView,background,"))
        // Nested: item 1 of section 0 is the top of the vertical pair beside the 0.7-wide item.
        #expect(text.contains("0,1,cell,,283,10,97,148.8,"))
        // The orthogonal row runs past the width.
        #expect(text.contains("1,11,cell,,1660,"))
    }

    /// `--sizes` is read once however many passes a run makes, so a pipe or FIFO works as
    /// a file does (it was opened once a pass, and the second read found it empty).
    @Test func measuredSizesFromAPipeAreReadOnce() throws {
        let binary = try #require(builtCvlayout, "the cvlayout binary is not next to the test bundle")
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/compositional-self-sizing-list").path
        let fromFile = try runProcess(binary.path, ["compositional", "--sizes", folder + "/sizes.json",
                                                    folder + "/layout-description.json", "-f", "csv"])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        let piped = try runProcess("/bin/sh", ["-c", "cat '\(folder)/sizes.json' | '\(binary.path)' compositional "
                                               + "--sizes /dev/stdin '\(folder)/layout-description.json' -f csv"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == fromFile.stdout)
        #expect(fromFile.stdout.contains("0,3,cell,"))
    }
}
