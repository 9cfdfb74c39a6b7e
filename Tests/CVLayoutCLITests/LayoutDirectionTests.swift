import Foundation
import Testing
import LayoutCore
@testable import CVLayoutCLI

/// `--layout-direction right-to-left` for every engine: the left-to-right layout mirrored
/// about the content's vertical centre (frames, transforms, the heart path), applied before
/// `--rect` and pixel snapping; and the waterfall's `--pin-headers` and
/// `--scroll-direction horizontal` through the command line (streamed or kept, the same bytes).
struct LayoutDirectionTests {
    static let cases: [[String]] = [
        ["waterfall", "--count", "40"],
        ["waterfall", "--order", "right-to-left", "--insets", "5,7,9,30", "--header-height", "20", "--pin-headers", "--offset", "0,300"],
        ["waterfall", "--scroll-direction", "horizontal", "--columns", "2", "--count", "12"],
        ["ring"], ["ring", "--heart-style", "smooth", "--heart-from", "3:7", "--heart-to", "1:2", "--heart-samples", "9"],
        ["flow", "--item-size", "70,40", "--alignment", "leading"],
        ["flow", "--scroll-direction", "horizontal", "--header-size", "30,30", "--pin-headers", "--offset", "200,0"],
        ["line", "--offset", "300,0"], ["carousel", "--offset", "0,150"],
        ["stack", "--angles", "0,10,-10,20"], ["circle", "--radius", "70", "--item-size", "50,50", "--start-angle", "90"],
        ["grid", "--count", "10", "--width", "250", "--item-height", "40"],
        ["grid", "--width", "300", ReferenceTests.root.appendingPathComponent("Examples/grid-off-centre/grid.json").path],
        ["grid", "--offset", "0,420", ReferenceTests.root.appendingPathComponent("Examples/grid-pinned-catalogue/catalogue.json").path],
    ]

    static func json(_ arguments: [String]) throws -> [String: Any] {
        let result = run(arguments: arguments + ["-f", "json", "--precision", "full"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
    }

    static func number(_ object: Any?, _ key: String) -> Double { ((object as? [String: Any])?[key] as? NSNumber)?.doubleValue ?? .nan }

    @Test(arguments: cases)
    func rightToLeftIsTheMirroredLeftToRightLayout(_ arguments: [String]) throws {
        let ltr = try Self.json(arguments)
        let rtl = try Self.json(arguments + ["--layout-direction", "right-to-left"])
        let width = Self.number(ltr["contentSize"], "width")
        #expect(Self.number(rtl["contentSize"], "width") == width)
        let a = try #require(ltr["elements"] as? [[String: Any]]), b = try #require(rtl["elements"] as? [[String: Any]])
        try #require(a.count == b.count && !a.isEmpty)
        for (l, r) in zip(a, b) {
            let lf = l["frame"], rf = r["frame"]
            let expectedX = width - Self.number(lf, "x") - Self.number(lf, "width")
            #expect(abs(Self.number(rf, "x") - expectedX) <= 1e-9 * max(1, abs(width)), "\(l["indexPath"]!)")
            for key in ["y", "width", "height"] { #expect(Self.number(rf, key) == Self.number(lf, key)) }
            let lt = try #require(l["transform"] as? [NSNumber]).map(\.doubleValue)
            let rt = try #require(r["transform"] as? [NSNumber]).map(\.doubleValue)
            #expect(rt == [lt[0], -lt[1], -lt[2], lt[3], -lt[4], lt[5]].map { $0 == 0 ? 0 : $0 })
            for key in ["indexPath", "zIndex", "alpha", "hidden"] {
                #expect((l[key] as? NSObject) == (r[key] as? NSObject), "\(key)")
            }
        }
        if let path = ltr["heartPath"] as? [String: Any], let mirrored = rtl["heartPath"] as? [String: Any] {
            #expect(abs(Self.number(mirrored["start"], "x") - (width - Self.number(path["start"], "x"))) <= 1e-9 * width)
        }
        if let samples = ltr["heartSamples"] as? [[String: Any]], let mirrored = rtl["heartSamples"] as? [[String: Any]] {
            for (l, r) in zip(samples, mirrored) {
                #expect(abs((r["x"] as! NSNumber).doubleValue - (width - (l["x"] as! NSNumber).doubleValue)) <= 1e-9 * width)
                var angle = 180 - (l["angle"] as! NSNumber).doubleValue
                if angle > 180 { angle -= 360 }
                #expect(abs((r["angle"] as! NSNumber).doubleValue - angle) <= 1e-9)
            }
        }
    }

    @Test func mirroringHappensBeforeTheRectAndTheSnapping() throws {
        // Three columns of w = 123.333 at 0, 133.333, 266.667; mirrored: item 0 at 266.667.
        let rect = run(arguments: ["waterfall", "--count", "3", "--layout-direction", "right-to-left",
                                   "--rect", "300,0,10,10", "-f", "csv"])
        let rows = rect.stdoutText.split(separator: "\n")
        #expect(rows.count == 2 && rows[1].hasPrefix("0,0,cell,,266.667,"))
        let snapped = run(arguments: ["waterfall", "--count", "1", "--layout-direction", "right-to-left", "--scale", "1", "-f", "csv"])
        #expect(snapped.stdoutText.split(separator: "\n")[1].hasPrefix("0,0,cell,,267,0,123,"))
    }

    @Test func mirroringTwiceGivesTheLayoutBack() throws {
        var g = SplitMix64(seed: 2)
        for _ in 0..<50 {
            let heights = (0..<Int(g.next() % 30)).map { _ in Double(g.next() % 200) }
            let layout = try WaterfallLayout().layout([WaterfallSection(items: .heights(heights))],
                                                      bounds: Size(width: Double(100 + g.next() % 700), height: 800))
            let twice = layout.mirroredForRightToLeft().mirroredForRightToLeft()
            for (a, b) in zip(layout.elements, twice.elements) {
                #expect(abs(a.frame.minX - b.frame.minX) <= 1e-9 && a.frame.size == b.frame.size && a.transform == b.transform)
            }
        }
    }

    /// Pinned waterfall headers are not in drawing order: the SVG keeps the elements and
    /// draws headers last; streamed JSON and CSV equal the kept layout's.
    @Test func pinnedAndHorizontalWaterfallsStreamTheSameBytesTheyKeep() throws {
        for extra in [["--pin-headers", "--offset", "0,500"], ["--scroll-direction", "horizontal"], []] {
            let arguments = ["waterfall", "--header-height", "30", "--footer-height", "10", "--count", "60"] + extra
            for format in ["json", "csv"] {
                let streamed = run(arguments: arguments + ["-f", format])
                // --rect of everything keeps the elements (no streaming).
                let kept = run(arguments: arguments + ["-f", format, "--rect", "-1e6,-1e6,1e7,1e7"])
                #expect(streamed.status == 0 && streamed.stdoutText.split(separator: "\n").filter { $0.contains("cell") }
                        == kept.stdoutText.split(separator: "\n").filter { $0.contains("cell") })
            }
            let svg = run(arguments: arguments + ["-f", "svg"]).stdoutText
            let lastCell = try #require(svg.range(of: "data-index-path=\"0:59\""))
            let header = try #require(svg.range(of: "data-index-path=\"0:0\" data-kind=\"header\""))
            // Pinned headers are drawn above the cells (after them); otherwise in element order.
            #expect((header.lowerBound > lastCell.lowerBound) == (extra.first == "--pin-headers"))
        }
    }

    /// An item keeps its span through `--move`, `--delete` and `--insert` (inserted items span one column).
    @Test func updatesCarryTheSpans() throws {
        let data = Data(#"{"items":[{"height":10,"span":"full"},20,{"size":[100,50],"span":2}]}"#.utf8)
        let moved = run(arguments: ["waterfall", "--move", "0:0..0:2", "--insert", "0:3=7", "-f", "csv", "-"], stdin: { data })
        let rows = moved.stdoutText.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        try #require(moved.status == 0 && rows.count == 5, "\(moved.stderr)")
        // After the update: 20 (column 0), the size of span 2 (columns 1–2), the full item, 7.
        #expect(rows[1][4] == "0" && rows[1][6] == "123.333")
        #expect(rows[2][4] == "133.333" && rows[2][6] == "256.667")
        #expect(rows[3][4] == "0" && rows[3][6] == "390" && rows[3][7] == "10")
        #expect(rows[4][6] == "123.333" && rows[4][7] == "7")
    }

    @Test func aBadLayoutDirectionIsAUsageError() {
        let result = run(arguments: ["ring", "--layout-direction", "rtl"])
        #expect(result.status == 64 && result.stderr.contains("--layout-direction: expected one of left-to-right, right-to-left, got 'rtl'"))
    }

    /// Round avatars stay round: a right-to-left ring or circle SVG draws each cell with a
    /// corner radius of half its side, as the left-to-right one does.
    @Test(arguments: [["ring"], ["circle", "--count", "6"]])
    func mirroringKeepsTheRoundCells(_ arguments: [String]) throws {
        let right = run(arguments: arguments + ["-f", "svg", "--layout-direction", "right-to-left"])
        #expect(right.status == 0, "\(right.stderr)")
        let cells = right.stdoutText.split(separator: "<rect data-index-path=").dropFirst()
        #expect(!cells.isEmpty)
        for cell in cells {
            func attribute(_ name: String) -> Double? {
                guard let start = cell.range(of: " \(name)=\"")?.upperBound else { return nil }
                return Double(cell[start...].prefix { $0 != "\"" })
            }
            #expect(attribute("rx") == attribute("width").map { $0 / 2 }, "\(cell.prefix(120))")
        }
    }

    /// What the engine computes besides the frames goes along with the mirror: justified's
    /// `--stats` (JSON `stats`, the stderr line otherwise) are the left-to-right run's.
    @Test func mirroringKeepsTheStatistics() throws {
        for format in ["json", "csv"] {
            let left = run(arguments: ["justified", "--count", "9", "--stats", "-f", format])
            let right = run(arguments: ["justified", "--count", "9", "--stats", "-f", format, "--layout-direction", "right-to-left"])
            #expect(left.status == 0 && right.status == 0, "\(right.stderr)")
            if format == "json" {
                let stats = try #require(left.stdoutText.split(separator: "\n").first { $0.hasPrefix("\"stats\"") })
                #expect(right.stdoutText.contains(stats))
            } else {
                #expect(left.stderr.hasPrefix("cvlayout: stats: rows "))
                #expect(right.stderr == left.stderr)
            }
        }
    }
}
