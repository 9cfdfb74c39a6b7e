import Foundation
import Testing
import LayoutCore
@testable import CVLayoutCLI

/// `cvlayout grid` end to end: bad descriptions are data errors (65) naming stdin and the JSON
/// path, with nothing on stdout; `--explain` prints what the reference shows; the horizontal
/// grid is the vertical one transposed; batch updates and `--item-height` apply.
struct GridCommandTests {
    /// A description of `columns` and one section of `section` keys, with `top` keys first.
    static func description(columns: String = #"[{"flexible":{}}]"#, section: String = #""count":3"#, top: String = "") -> String {
        #"{"# + top + #""columns":"# + columns + #","sections":[{"# + section + "}]}"
    }

    static let badDescriptions: [BadDescription] = [
        .init(dataset: "[1, 2]", message: "<stdin>: (top level): expected a grid description: an object with \"columns\" (or \"rows\") and \"sections\", got an array"),
        .init(dataset: #"{"colums":[],"sections":[]}"#, message: "<stdin>: colums: unknown key; did you mean 'columns'?"),
        .init(dataset: #"{"sections":[]}"#, message: "<stdin>: (top level): no \"columns\""),
        .init(dataset: #"{"axis":"horizontal","sections":[]}"#, message: "<stdin>: (top level): no \"rows\""),
        .init(dataset: #"{"columns":[{"fixed":1}]}"#, message: "<stdin>: (top level): no sections"),
        .init(dataset: description(columns: "[]"), message: "<stdin>: columns: expected a non-empty array of grid items, got an array"),
        .init(dataset: description(columns: "3"), message: "<stdin>: columns: expected a non-empty array of grid items, got 3"),
        .init(dataset: description(top: #""axis":"diagonal","#), message: "<stdin>: axis: expected 'vertical' or 'horizontal', got \"diagonal\""),
        .init(dataset: description(top: #""axis":"horizontal","#), message: "<stdin>: columns: goes with axis vertical: a LazyHGrid has 'rows'"),
        .init(dataset: description(top: #""rows":[{"fixed":1}],"#), message: "<stdin>: rows: conflicts with 'columns'"),
        .init(dataset: description(columns: "[{}]"), message: "<stdin>: columns[0]: no size: expected one of 'fixed', 'flexible' or 'adaptive'"),
        .init(dataset: description(columns: "[7]"), message: "<stdin>: columns[0]: expected a grid item object"),
        .init(dataset: description(columns: #"[{"fixed":1,"flexible":{}}]"#), message: "<stdin>: columns[0].flexible: conflicts with 'fixed': give only one size"),
        .init(dataset: description(columns: #"[{"fixed":-1}]"#), message: "<stdin>: columns[0].fixed: expected a finite number ≥ 0, got -1"),
        .init(dataset: description(columns: #"[{"fixed":"70"}]"#), message: "<stdin>: columns[0].fixed: expected a finite number ≥ 0, got \"70\""),
        .init(dataset: description(columns: #"[{"flexible":10}]"#), message: "<stdin>: columns[0].flexible: expected {\"minimum\": …, \"maximum\": …} (both optional), got 10"),
        .init(dataset: description(columns: #"[{"flexible":{"minimum":50,"maximum":10}}]"#),
             message: "<stdin>: columns[0].flexible.maximum: expected a maximum ≥ the minimum (50), got 10"),
        .init(dataset: description(columns: #"[{"flexible":{"maximum":5}}]"#),
             message: "<stdin>: columns[0].flexible.maximum: expected a maximum ≥ the minimum (10), got 5"),
        .init(dataset: description(columns: #"[{"flexible":{"minimun":5}}]"#),
             message: "<stdin>: columns[0].flexible.minimun: unknown key; did you mean 'minimum'?"),
        .init(dataset: description(columns: #"[{"adaptive":{}}]"#), message: "<stdin>: columns[0].adaptive: no \"minimum\""),
        .init(dataset: description(columns: #"[{"fixed":9},{"adaptive":{"minimum":0}}]"#),
             message: "<stdin>: columns[1].adaptive.minimum: expected a finite number > 0, got 0"),
        .init(dataset: description(columns: #"[{"fixed":9,"spacing":-2}]"#), message: "<stdin>: columns[0].spacing: expected a finite number ≥ 0, got -2"),
        .init(dataset: description(columns: #"[{"fixed":9,"alignment":"topleading"}]"#),
             message: "<stdin>: columns[0].alignment: expected 'center', 'leading', 'trailing', 'top', 'bottom', 'topLeading', 'topTrailing', 'bottomLeading' or 'bottomTrailing', got \"topleading\"; did you mean 'topLeading'?"),
        .init(dataset: description(top: #""alignment":"top","#), message: "<stdin>: alignment: expected 'leading', 'center' or 'trailing', got \"top\""),
        .init(dataset: #"{"rows":[{"fixed":9}],"alignment":"leading","sections":[]}"#,
             message: "<stdin>: alignment: expected 'top', 'center' or 'bottom', got \"leading\""),
        .init(dataset: description(top: #""spacing":-8,"#), message: "<stdin>: spacing: expected a finite number ≥ 0, got -8"),
        .init(dataset: description(top: #""pinnedViews":"sectionHeaders","#),
             message: "<stdin>: pinnedViews: expected an array of \"sectionHeaders\" and \"sectionFooters\", got \"sectionHeaders\""),
        .init(dataset: description(top: #""pinnedViews":["headers"],"#),
             message: "<stdin>: pinnedViews[0]: expected 'sectionHeaders' or 'sectionFooters', got \"headers\""),
        .init(dataset: description(top: #""padding":"1,2","#),
             message: #"<stdin>: padding: expected insets: a number, "T,L,B,R", [T, L, B, R] or {"top": T, "left": L, "bottom": B, "right": R}, got "1,2""#),
        .init(dataset: description(top: #""padding":[1,2,-3,4],"#), message: "<stdin>: padding: expected padding of finite numbers ≥ 0, got an array"),
        .init(dataset: #"{"columns":[{"fixed":1}],"sections":{}}"#, message: "<stdin>: sections: expected an array of section objects, got an object"),
        .init(dataset: #"{"columns":[{"fixed":1}],"sections":[3]}"#, message: "<stdin>: sections[0]: expected a section object, got 3"),
        .init(dataset: description(section: #""heights":[1]"#), message: "<stdin>: sections[0].heights: unknown key"),
        .init(dataset: description(section: #""count":2,"items":[1]"#), message: "<stdin>: sections[0].count: conflicts with 'items': give only one"),
        .init(dataset: description(section: #""count":2.5"#), message: "<stdin>: sections[0].count: expected an integral count from 0 to 10000000, got 2.5"),
        .init(dataset: description(section: #""count":10000001"#), message: "<stdin>: sections[0].count: expected an integral count from 0 to 10000000"),
        .init(dataset: description(section: #""items":5"#), message: "<stdin>: sections[0].items: expected an array of heights and [width, height] sizes, got 5"),
        .init(dataset: description(section: #""items":[1,-2]"#), message: "<stdin>: sections[0].items[1]: expected a finite number ≥ 0, got -2"),
        .init(dataset: description(section: #""items":[[0,2]]"#), message: "<stdin>: sections[0].items[0][0]: expected a finite width > 0, got 0"),
        .init(dataset: description(section: #""items":[[3,-2]]"#), message: "<stdin>: sections[0].items[0][1]: expected a finite number ≥ 0, got -2"),
        .init(dataset: description(section: #""items":[1,[2,3],{"height":1}]"#),
             message: "<stdin>: sections[0].items[2]: expected a height or a [width, height] size, got an object"),
        .init(dataset: description(section: #""items":[1,[2,3,4]]"#),
             message: "<stdin>: sections[0].items[1]: expected a height or a [width, height] size, got an array of 3 values"),
        .init(dataset: description(section: #""count":1,"header":-4"#), message: "<stdin>: sections[0].header: expected a finite number ≥ 0, got -4"),
        .init(dataset: description(section: #""count":1,"footer":"big""#), message: "<stdin>: sections[0].footer: expected a finite number ≥ 0, got \"big\""),
        .init(dataset: description(top: #""options":{"item-height":-1},"#), message: "<stdin>: options.item-height: expected a finite number ≥ 0, got -1"),
        .init(dataset: description(top: #""options":{"explain":3},"#), message: "<stdin>: options.explain: expected true or false"),
    ]

    @Test(arguments: badDescriptions)
    func badDescriptionsAreDataErrorsWithTheirPath(_ case_: BadDescription) {
        expectRefused("grid", case_)
    }

    @Test func explainPrintsWhatTheReferenceShows() throws {
        let reference = try String(contentsOf: ReferenceTests.root.appendingPathComponent("docs/REFERENCE.md"), encoding: .utf8)
        let lines = reference.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("$ cvlayout grid --width 300 --explain") })
        let shown = lines[(start + 1)...].prefix { $0 != "```" }.map { $0 + "\n" }.joined()
        let example = ReferenceTests.root.appendingPathComponent("Examples/grid-off-centre/grid.json").path
        let result = run(arguments: ["grid", "--width", "300", "--explain", example])
        #expect(result.status == 0)
        #expect(result.stderr == shown)
        // The layout itself is unchanged by --explain.
        #expect(result.stdout == run(arguments: ["grid", "--width", "300", example]).stdout)
    }

    @Test func explainShowsAdaptiveSubColumnsAndTheirCap() {
        let description = Self.description(columns: #"[{"fixed":70},{"adaptive":{"minimum":40,"maximum":50}}]"#)
        let result = run(arguments: ["grid", "--width", "200", "--explain", "-f", "csv", "-"], stdin: { Data(description.utf8) })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("column 1 adaptive(minimum 40, maximum 50): 122 ÷ 1 = 122; ⌊(122 + 8) ÷ (40 + 8)⌋ = 2 sub-columns "
                                       + "of (122 − 1·8) ÷ 2 = 57, cut to the maximum: 50 (the share keeps 122)"), "\(result.stderr)")
        // Sub-columns at 78 and 78 + 50 + 8 = 136, 50 wide.
        #expect(result.stdoutText.contains("0,1,cell,,78,0,50,100,"), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("0,2,cell,,136,0,50,100,"), "\(result.stdoutText)")
    }

    /// Frames of a JSON layout, as (x, y, width, height).
    static func frames(_ output: [UInt8]) throws -> [[Double]] {
        try RegistryPropertiesTests.elements(output).map {
            let f = RegistryPropertiesTests.frame($0)
            return [f.0, f.1, f.2, f.3]
        }
    }

    @Test func theLazyHGridIsTheLazyVGridTransposed() throws {
        let vertical = #"{"columns":[{"fixed":70,"alignment":"topTrailing"},{"adaptive":{"minimum":40},"spacing":4},{"flexible":{"minimum":60}}],"#
            + #""spacing":6,"alignment":"trailing","pinnedViews":["sectionHeaders","sectionFooters"],"padding":[1,2,3,4],"#
            + #""sections":[{"header":30,"footer":12,"items":[50,[30,20],70,[90,10],15,40,60]},{"header":20,"count":5}]}"#
        let horizontal = #"{"axis":"horizontal","rows":[{"fixed":70,"alignment":"bottomLeading"},{"adaptive":{"minimum":40},"spacing":4},{"flexible":{"minimum":60}}],"#
            + #""spacing":6,"alignment":"bottom","pinnedViews":["sectionHeaders","sectionFooters"],"padding":[2,1,4,3],"#
            + #""sections":[{"header":30,"footer":12,"items":[50,[20,30],70,[10,90],15,40,60]},{"header":20,"count":5}]}"#
        let v = run(arguments: ["grid", "--precision", "full", "--width", "300", "--height", "500", "--offset", "0,140", "-"],
                    stdin: { Data(vertical.utf8) })
        let h = run(arguments: ["grid", "--precision", "full", "--width", "500", "--height", "300", "--offset", "140,0", "-"],
                    stdin: { Data(horizontal.utf8) })
        #expect(v.status == 0 && h.status == 0, "\(v.stderr) \(h.stderr)")
        let vFrames = try Self.frames(v.stdout), hFrames = try Self.frames(h.stdout)
        #expect(vFrames.count == 15)
        #expect(hFrames == vFrames.map { [$0[1], $0[0], $0[3], $0[2]] })
    }

    @Test func updatesAndItemHeightApplyToTheSections() {
        let description = Self.description(columns: #"[{"fixed":100},{"fixed":100}]"#, section: #""count":3"#)
        let result = run(arguments: ["grid", "-f", "csv", "--width", "208", "--item-height", "40", "--delete", "0:0", "-"],
                         stdin: { Data(description.utf8) })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == """
            section,item,category,kind,x,y,width,height,centerX,centerY,a,b,c,d,tx,ty,alpha,zIndex,hidden
            0,0,cell,,0,0,100,40,50,20,1,0,0,1,0,0,1,0,false
            0,1,cell,,108,0,100,40,158,20,1,0,0,1,0,0,1,0,false

            """)
    }

    @Test func theEmbeddedPhotoGridHasThreeColumnsOnAPhone() {
        // (390 + 8) ÷ (100 + 8) → 3 sub-columns of (390 − 16) ÷ 3 = 124.667.
        let result = run(arguments: ["grid", "-f", "csv", "--count", "4"])
        #expect(result.status == 0)
        #expect(result.stdoutText.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[3...6].joined(separator: ",") }
                == ["0,0,124.667,100", "132.667,0,124.667,100", "265.333,0,124.667,100", "0,108,124.667,100"])
    }

    /// SwiftUI's own spellings — a leading dot on enumerations, `EdgeInsets` for the
    /// padding — give the bytes the plain spellings give.
    @Test func swiftSpellingsAreThePlainOnes() {
        let swift = #"{"axis":".vertical","columns":[{"flexible":{}},{"adaptive":{"minimum":40},"alignment":".topLeading"}],"#
            + #""alignment":".leading","pinnedViews":[".sectionHeaders"],"padding":{"top":1,"leading":2,"bottom":3,"trailing":4},"#
            + #""sections":[{"header":20,"items":[30,[20,10],50]}]}"#
        let plain = #"{"axis":"vertical","columns":[{"flexible":{}},{"adaptive":{"minimum":40},"alignment":"topLeading"}],"#
            + #""alignment":"leading","pinnedViews":["sectionHeaders"],"padding":[1,2,3,4],"#
            + #""sections":[{"header":20,"items":[30,[20,10],50]}]}"#
        for format in ["json", "csv", "svg"] {
            let a = run(arguments: ["grid", "-", "-f", format, "--offset", "0,10"], stdin: { Data(swift.utf8) })
            let b = run(arguments: ["grid", "-", "-f", format, "--offset", "0,10"], stdin: { Data(plain.utf8) })
            #expect(a.status == 0, "\(a.stderr)")
            #expect(a.stdout == b.stdout && !a.stdout.isEmpty)
        }
    }
}
