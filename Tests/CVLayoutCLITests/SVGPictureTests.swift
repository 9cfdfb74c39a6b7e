import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import CVLayoutCLI
import LayoutCore

/// What a person sees in the SVG: the canvas holds every drawn shape and label, `--canvas`,
/// `--visible`, `--device`, labels, and the output formats a picture is not. The documents are
/// read back as XML and measured from their own attributes, not from the writer's code.
struct SVGPictureTests {
    /// A rectangle as four edges.
    struct Box: CustomStringConvertible {
        var minX, minY, maxX, maxY: Double
        var description: String { "(\(minX), \(minY))–(\(maxX), \(maxY))" }
        func holds(_ other: Box, slack: Double = 0.001) -> Bool {
            other.minX >= minX - slack && other.minY >= minY - slack
                && other.maxX <= maxX + slack && other.maxY <= maxY + slack
        }
    }

    static func numbers(_ text: String) -> [Double] {
        text.split(whereSeparator: { " ,()".contains($0) }).compactMap { Double($0) }
    }

    /// A tag of the document: its name, its attributes and the text up to its closing tag.
    struct Tag {
        var name: String
        var attributes: [String: String]
        var text: String
        func number(_ key: String) -> Double { Double(attributes[key] ?? "") ?? .nan }
    }

    /// An SVG as cvlayout writes it (one element's group a line): checked well-formed by the XML
    /// parser, its tags read by pattern (Foundation's XML attribute look-up is not
    /// dependable on every platform).
    struct Picture {
        let text: String
        let root: Tag
        /// Per element group (`<g><rect …/>[<text …>…</text>]</g>`), its tags.
        let groups: [[Tag]]

        init(_ text: String) throws {
            self.text = text
            _ = try XMLDocument(xmlString: text)
            func tags(_ line: Substring) -> [Tag] {
                line.matches(of: /<([a-zA-Z]+)((?: [a-zA-Z:-]+="[^"]*")*)\/?>([^<]*)/).map { match in
                    var attributes: [String: String] = [:]
                    for pair in String(match.2).matches(of: /([a-zA-Z:-]+)="([^"]*)"/) {
                        attributes[String(pair.1)] = String(pair.2)
                    }
                    return Tag(name: String(match.1), attributes: attributes, text: String(match.3))
                }
            }
            let lines = text.split(separator: "\n")
            root = try #require(lines.lazy.flatMap(tags).first { $0.name == "svg" })
            groups = lines.filter { $0.hasPrefix("<g><rect") }.map(tags)
        }

        var texts: [Tag] { groups.flatMap { $0.filter { $0.name == "text" } } }
    }

    static func svg(_ arguments: [String], stdin: String? = nil) throws -> Picture {
        let result = run(arguments: arguments + ["-f", "svg"], stdin: { Data((stdin ?? "").utf8) })
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try Picture(result.stdoutText)
    }

    static func viewBox(_ picture: Picture) throws -> Box {
        let v = numbers(try #require(picture.root.attributes["viewBox"]))
        return Box(minX: v[0], minY: v[1], maxX: v[0] + v[2], maxY: v[1] + v[3])
    }

    /// Every element's shape as the box it covers on screen, and every label as the box its
    /// text covers (about 0.6 em a character, ascent 0.95 em above the baseline to a descent of
    /// 0.25 em below).
    static func drawnBoxes(_ picture: Picture) throws -> [(String, Box)] {
        var boxes: [(String, Box)] = []
        for tag in picture.groups.joined() {
            if tag.name == "rect" {
                let x = tag.number("x"), y = tag.number("y"), w = tag.number("width"), h = tag.number("height")
                var m = [1.0, 0, 0, 1, 0, 0]
                if let transform = tag.attributes["transform"] {
                    #expect(transform.hasPrefix("matrix("))
                    m = numbers(transform)
                }
                let corners = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)].map { p in
                    (m[0] * p.0 + m[2] * p.1 + m[4], m[1] * p.0 + m[3] * p.1 + m[5])
                }
                boxes.append(("rect \(tag.attributes)", Box(minX: corners.map(\.0).min()!, minY: corners.map(\.1).min()!,
                                                          maxX: corners.map(\.0).max()!, maxY: corners.map(\.1).max()!)))
            } else if tag.name == "text" {
                let x = tag.number("x"), y = tag.number("y"), size = tag.number("font-size")
                let half = 0.3 * size * Double(tag.text.count)
                boxes.append(("text \(tag.text) \(tag.attributes)",
                              Box(minX: x - half, minY: y - 0.95 * size, maxX: x + half, maxY: y + 0.25 * size)))
            }
        }
        return boxes
    }

    /// Every engine on its embedded data, and the held-out pictures the canvas was cut short on:
    /// the ring at 390 points, a stretchy header pulled down, horizontal flow's headers, a
    /// rotated stack, scaled line and carousel cells, a circle wider than its bounds.
    static let pictures: [[String]] = engineRegistry.map { [$0.name] } + [
        ["ring", "--width", "320"],
        ["ring", "--labels", "item"],
        ["flow", "--stretchy-header", "--header-size", "0,100", "--offset", "0,-80"],
        ["flow", "--scroll-direction", "horizontal", "--header-size", "30,0", "--footer-size", "20,0", "--height", "300"],
        ["stack", "--angles", "0,30,60,-75", "--item-size", "300,80", "--width", "200"],
        ["line", "--offset", "300,0", "--min-scale", "0.2"],
        ["carousel", "--offset", "0,150", "--scroll-direction", "horizontal"],
        ["circle", "--radius", "260", "--item-size", "90,90"],
        ["waterfall", "--header-height", "40", "--footer-height", "20", "--labels", "index-path"],
        ["ring", "--heart-style", "smooth", "--heart-from", "3:4", "--heart-to", "3:14"],
    ]

    @Test(arguments: pictures)
    func theCanvasHoldsEveryDrawnShapeAndLabel(arguments: [String]) throws {
        let document = try Self.svg(arguments)
        let canvas = try Self.viewBox(document)
        let boxes = try Self.drawnBoxes(document)
        #expect(!boxes.isEmpty)
        for (what, box) in boxes {
            #expect(canvas.holds(box), "\(arguments): \(what) \(box) is outside the canvas \(canvas)")
        }
        // The content rect is part of the canvas; so is the heart's path.
        #expect(canvas.minX <= 0 && canvas.minY <= 0)
        for line in document.text.split(separator: "\n") where line.hasPrefix("<path class=\"heart-path\"") {
            let v = Self.numbers(String(try #require(line.firstMatch(of: /\sd="([^"]*)"/)).1))
            for k in stride(from: 0, to: v.count - 1, by: 2) {
                #expect(canvas.holds(Box(minX: v[k] - 19, minY: v[k + 1] - 19, maxX: v[k] + 19, maxY: v[k + 1] + 19)))
            }
        }
        // The width and height are the viewBox's, so a point is a pixel.
        #expect(document.root.number("width") == canvas.maxX - canvas.minX)
        #expect(document.root.number("height") == canvas.maxY - canvas.minY)
    }

    @Test func theCanvasIsTheContentWhenNothingSticksOut() throws {
        let document = try Self.svg(["waterfall"])
        let json = run(arguments: ["waterfall"]).stdoutText
        let height = try #require(json.firstMatch(of: /"contentSize":\{"width":390,"height":([0-9.]+)\}/)).1
        #expect(document.root.attributes["viewBox"] == "0 0 390 \(height)")
    }

    @Test func canvasChoices() throws {
        #expect(try Self.viewBox(try Self.svg(["ring", "--canvas", "content"])).minX == 0)
        #expect(try Self.svg(["ring", "--canvas", "content"]).root.attributes["viewBox"] == "0 0 390 844")
        let visible = try Self.svg(["line", "--offset", "300,0", "--canvas", "visible"])
        #expect(visible.root.attributes["viewBox"] == "300 0 390 844")
        let rect = try Self.svg(["waterfall", "--rect", "10,20,100,200", "--canvas", "rect"])
        #expect(rect.root.attributes["viewBox"] == "10 20 100 200")
        let stretched = try Self.svg(["flow", "--stretchy-header", "--header-size", "0,100", "--offset", "0,-80"])
        #expect(try Self.viewBox(stretched).minY == -80)
        let refused = run(arguments: ["waterfall", "-f", "svg", "--canvas", "rect"])
        #expect(refused.status == 64 && refused.stdout.isEmpty)
        #expect(refused.stderr.hasPrefix("cvlayout: error: --canvas rect draws the --rect area"))
    }

    @Test func theStreamedAndTheKeptCanvasAgree() throws {
        // A whole waterfall or ring SVG is streamed (its canvas measured by a pass of its own); a
        // rect query holding everything keeps the elements. Same document but for the query's
        // outline. Past 8,192 elements the canvas is measured on every core, each thread's
        // blocks into bounds of their own: in 30 columns of 12 points the labels stick out of
        // the cells (the canvas is 396 points wide), and the last items' are the widest; a
        // horizontal waterfall at scale 3 snaps every frame first.
        for arguments in [["ring"], ["ring", "--width", "300", "--scale", "3"], ["waterfall", "--count", "5000"],
                          ["circle", "--radius", "300"], ["waterfall", "--count", "30000"],
                          ["waterfall", "--count", "20000", "--columns", "30", "--column-spacing", "1", "--labels", "index-path"],
                          ["waterfall", "--count", "12000", "--scroll-direction", "horizontal", "--scale", "3"]] {
            let streamed = run(arguments: arguments + ["-f", "svg"]).stdoutText
            let kept = run(arguments: arguments + ["-f", "svg", "--rect", "-1e6,-1e6,3e6,3e6"]).stdoutText
            let outline = kept.range(of: "<rect class=\"query-rect\"")!
            let keptWithoutQuery = kept[..<outline.lowerBound] + kept[kept[outline.lowerBound...].firstIndex(of: "\n")!...].dropFirst()
            #expect(streamed == String(keptWithoutQuery), "\(arguments)")
        }
        // A waterfall is vouched for without laying out, its summary taken from the run that
        // measures the canvas; its labels are index paths when it has several sections, which
        // it counts without laying out: here three, one empty, on one thread and on every core.
        // In 12-point columns "0:8999" sticks out of its cell, where "8999" would not.
        for count in [300, 9_000] {
            let data = #"{"sections":[{"count":\#(count)},{"count":0},{"heights":[20,40,60]}]}"#
            let arguments = ["waterfall", "-", "--header-height", "30", "--columns", "30", "--column-spacing", "1", "-f", "svg"]
            let streamed = run(arguments: arguments, stdin: { Data(data.utf8) }).stdoutText
            let kept = run(arguments: arguments + ["--rect", "-1e6,-1e6,3e6,3e6"], stdin: { Data(data.utf8) }).stdoutText
            let outline = kept.range(of: "<rect class=\"query-rect\"")!
            let keptWithoutQuery = kept[..<outline.lowerBound] + kept[kept[outline.lowerBound...].firstIndex(of: "\n")!...].dropFirst()
            #expect(streamed == String(keptWithoutQuery), "\(count) items")
            #expect(streamed.contains(">2:1</text>") && streamed.contains("header 1"), "\(count) items")
        }
    }

    // MARK: - --visible, --device

    @Test func visibleIsTheRectOfTheVisibleBounds() throws {
        for (arguments, rect) in [(["waterfall", "--offset", "0,300"], "0,300,390,844"),
                                  (["line", "--offset", "250,0", "--width", "320", "--height", "200"], "250,0,320,200"),
                                  (["flow", "--pin-headers", "--header-size", "0,30", "--offset", "0,-20"], "0,-20,390,844")] {
            for format in ["json", "csv", "svg"] {
                let visible = run(arguments: arguments + ["--visible", "-f", format])
                let query = run(arguments: arguments + ["--rect", rect, "-f", format])
                #expect(visible.status == 0 && visible.stdout == query.stdout, "\(arguments) \(format)")
            }
        }
        // Not every element is visible: the query really filters.
        let all = run(arguments: ["waterfall", "--offset", "0,300"]).stdoutText
        let visible = run(arguments: ["waterfall", "--offset", "0,300", "--visible"]).stdoutText
        #expect(visible.split(separator: "\n").count < all.split(separator: "\n").count)
        for other in [["--rect", "0,0,1,1"], ["--item", "0:1"]] {
            let both = run(arguments: ["waterfall", "--visible"] + other)
            #expect(both.status == 64 && both.stdout.isEmpty)
            #expect(both.stderr.hasPrefix("cvlayout: error: --visible and \(other[0]) cannot be used together"))
        }
    }

    @Test(arguments: [("iPhone 15", "393", "852"), ("iphone 15", "393", "852"), ("IPHONE-15-PRO-MAX", "430", "932"),
                      ("iPhone 15-landscape", "852", "393"), ("iPad Pro 12.9", "1024", "1366"),
                      ("ipad-pro-12.9-landscape", "1366", "1024"), ("iPhone SE", "375", "667"), ("iPad mini", "744", "1133")])
    func deviceSetsTheBounds(name: String, width: String, height: String) throws {
        let json = run(arguments: ["waterfall", "--device", name]).stdoutText
        #expect(json.contains("\"bounds\":{\"width\":\(width),\"height\":\(height)}"), "\(name)")
    }

    @Test func explicitSizesWinOverTheDevice() throws {
        let json = run(arguments: ["waterfall", "--device", "iPhone 15", "--width", "300"]).stdoutText
        #expect(json.contains("\"bounds\":{\"width\":300,\"height\":852}"))
        let fromData = run(arguments: ["waterfall", "-"], stdin: { Data(#"{"options": {"device": "iPad Air 13"}, "count": 3}"#.utf8) })
        #expect(fromData.stdoutText.contains("\"bounds\":{\"width\":1024,\"height\":1366}"))
    }

    @Test func unknownDevicesAreRefused() throws {
        let typo = run(arguments: ["waterfall", "--device", "iPhone 51"])
        #expect(typo.status == 64 && typo.stdout.isEmpty)
        #expect(typo.stderr.hasPrefix("cvlayout: error: --device: unknown device 'iPhone 51' (see 'cvlayout devices'); did you mean 'iPhone 15'?\n"))  // two digits swapped: one edit
        let fromData = run(arguments: ["waterfall", "-"], stdin: { Data(#"{"options": {"device": "Pixel 8"}, "count": 3}"#.utf8) })
        #expect(fromData.status == 65)
        #expect(fromData.stderr.hasPrefix("cvlayout: error: <stdin>: options.device: unknown device 'Pixel 8'"))
    }

    @Test func devicesListsTheTable() throws {
        let result = run(arguments: ["devices"])
        #expect(result.status == 0)
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == deviceTable.count)
        #expect(lines.contains { $0.hasPrefix("iPhone 15 ") && $0.hasSuffix("393 × 852") })
        #expect(lines.contains { $0.hasPrefix("iPad Pro 12.9 ") && $0.hasSuffix("1024 × 1366") })
        // Every name is found again by --device, portrait and landscape.
        for device in deviceTable {
            #expect(deviceBounds(device.name) == device.size)
            #expect(deviceBounds(device.name + "-landscape") == Size(width: device.size.height, height: device.size.width))
        }
        #expect(run(arguments: ["devices", "x"]).status == 64)
    }

    // MARK: - Labels

    static func labels(_ picture: Picture) -> [String] {
        picture.texts.map(\.text)
    }

    @Test func labelsByDefaultAreItemsForOneSectionAndIndexPathsForMore() throws {
        #expect(Self.labels(try Self.svg(["circle"])) == (0..<8).map(String.init))
        let rings = Self.labels(try Self.svg(["ring"]))
        #expect(rings.prefix(3) == ["0:0", "1:0", "1:1"])
        #expect(Self.labels(try Self.svg(["ring", "--labels", "item"])).prefix(3) == ["0", "0", "1"])
        #expect(Self.labels(try Self.svg(["circle", "--labels", "index-path"])).first == "0:0")
        let sections = Self.labels(try Self.svg(["waterfall", "-"], stdin: #"{"sections": [{"heights": [50], "header": 20}, {"heights": [60]}]}"#))
        #expect(sections == ["header 0", "0:0", "1:0"])
    }

    /// A section background lies under its cells: it is drawn unlabelled, so that no label
    /// ("ba…") peeks out between them.
    @Test func decorationsAreUnlabelled() throws {
        let picture = try Self.svg(["compositional"])
        let backgrounds = picture.groups.filter { $0.first { $0.name == "rect" }?.attributes["data-kind"] == "background" }
        #expect(!backgrounds.isEmpty)
        #expect(backgrounds.allSatisfy { !$0.contains { $0.name == "text" } })
        #expect(!Self.labels(picture).contains { $0.hasPrefix("background") })
    }

    /// The dashed visible-bounds outline never runs through a label: a label it would cross
    /// is drawn once, after the outline (with a halo of its cell's fill), not in its group;
    /// streamed and kept pictures agree.
    @Test func theOutlineRunsBeneathTheLabels() throws {
        let arguments = ["waterfall", "--count", "40", "--offset", "0,57.5"]  // the top edge through 0:0's label
        let text = try Self.svg(arguments).text
        let outline = try #require(text.range(of: "<rect class=\"visible-bounds\"")).lowerBound
        let above = text[outline...].matches(of: /<text [^>]*>([0-9]+)<\/text>/).map { String($0.1) }
        #expect(!above.isEmpty)
        let all = text.matches(of: /<text [^>]*>([0-9]+)<\/text>/).map { String($0.1) }
        #expect(all.count == Set(all).count && all.count == 40, "each label once: \(all.count)")
        for label in above {
            // Its cell's group has no label; the label comes after the outline with a halo.
            let group = try #require(text.firstMatch(of: try Regex("<g><rect data-index-path=\"0:\(label)\"[^\n]*")))
            #expect(!group.0.contains("<text"))
            #expect(text[outline...].contains("paint-order=\"stroke\" fill=\"") )
        }
        let kept = try Self.svg(arguments + ["--rect", "-1e6,-1e6,1e7,1e7", "--canvas", "all"]).text
        let keptAbove = kept[try #require(kept.range(of: "<rect class=\"visible-bounds\"")).lowerBound...]
            .matches(of: /<text [^>]*>([0-9]+)<\/text>/).map { String($0.1) }
        #expect(keptAbove == above)
    }

    /// Ring avatars of 20 points or more get labels of 10 points or more (pixels at scale 1),
    /// index paths included; smaller ones keep the fitted size.
    @Test func ringAvatarsOfTwentyPointsHaveTenPointLabels() throws {
        for labels in ["index-path", "item"] {
            // The visible bounds far away, so that every label stays in its group.
            let picture = try Self.svg(["ring", "--count", "6", "--labels", labels, "--offset", "0,-5000"])
            var checked = 0
            for group in picture.groups {
                guard let rect = group.first(where: { $0.name == "rect" }), rect.number("width") >= 20,
                      let text = group.first(where: { $0.name == "text" }) else { continue }
                #expect(text.number("font-size") >= 10, "\(text.text) on \(rect.number("width"))")
                checked += 1
            }
            #expect(checked == 37, "\(checked)")  // rings 0-3 (1 + 6 + 12 + 18 avatars; ring 3 is 20.48 points)
        }
    }

    /// The heart has a near-black outline under its white one, readable on every avatar colour.
    @Test func theHeartHasAContrastingOutline() throws {
        let text = try Self.svg(["ring"]).text
        let heart = try #require(text.range(of: "<g class=\"heart\"")).lowerBound
        let paths = text[heart...].matches(of: /<path d="[^"]*" ([^>]*)\/>/).map { String($0.1) }
        #expect(paths == ["fill=\"none\" stroke=\"#1a1a1a\" stroke-width=\"3.5\" stroke-linejoin=\"round\"",
                          "fill=\"#e0245e\" stroke=\"#ffffff\" stroke-width=\"1.25\" stroke-linejoin=\"round\""])
    }

    /// An SVG over 32,767 px in either dimension gets a one-line note on stderr; one screen
    /// does not.
    @Test func aPictureTooLargeForRasterisersGetsANote() throws {
        let tall = run(arguments: ["waterfall", "--count", "2000", "-f", "svg"])
        #expect(tall.status == 0 && tall.stdoutText.contains("height=\"72933\""))
        #expect(tall.stderr == "cvlayout: warning: the SVG is 390 × 72933 px, over the 32767 px that rsvg-convert and most "
                + "rasterisers take in either dimension (browsers show it); --canvas visible or --rect X,Y,W,H --canvas rect "
                + "draws one screen\n")
        #expect(run(arguments: ["waterfall", "--count", "2000", "-f", "svg", "--canvas", "visible"]).stderr.isEmpty)
        #expect(run(arguments: ["waterfall", "--count", "2000", "-f", "csv"]).stderr.isEmpty)
        #expect(run(arguments: ["waterfall", "--count", "200", "-f", "svg"]).stderr.isEmpty)
    }

    @Test func labelsNoneDropsEveryLabel() throws {
        let stdin = #"{"sections": [{"heights": [50, 70], "header": 20, "footer": 10}]}"#
        #expect(Self.labels(try Self.svg(["waterfall", "--labels", "none", "-"], stdin: stdin)).isEmpty)
        #expect(Self.labels(try Self.svg(["waterfall", "--no-labels", "-"], stdin: stdin)).isEmpty)
        let both = run(arguments: ["waterfall", "--no-labels", "--labels", "item"])
        #expect(both.status == 64 && both.stderr.hasPrefix("cvlayout: error: --no-labels and --labels item cannot be used together"))
    }

    @Test func labelsStayReadableOnFadedAndScaledCells() throws {
        // The carousel fades and shrinks the side items: the label has no opacity of its own
        // and keeps its size; the line layout's far items scale towards 0.2.
        for arguments in [["carousel", "--offset", "0,150"], ["line", "--offset", "300,0", "--min-scale", "0.2"]] {
            let picture = try Self.svg(arguments)
            #expect(picture.texts.allSatisfy { $0.attributes["opacity"] == nil })
            #expect(Set(picture.texts.map { $0.number("font-size") }) == [14])
            let faded = picture.groups.joined().filter { $0.name == "rect" && $0.attributes["opacity"] != nil }
            if arguments[0] == "carousel" { #expect(!faded.isEmpty) }
            // A faded cell's fill shows lighter: its label is dark, whatever the palette entry.
            for group in picture.groups {
                guard let rect = group.first(where: { $0.name == "rect" }), rect.number("opacity") < 0.95,
                      let text = group.first(where: { $0.name == "text" }) else { continue }
                #expect(text.attributes["fill"] == "#1a1a1a")
            }
        }
        // A cell drawn fully transparent has no label floating where it would be.
        let transparent = try Self.svg(["carousel", "--standard-alpha", "0", "--offset", "0,105"])
        for group in transparent.groups {
            let rect = try #require(group.first { $0.name == "rect" })
            #expect((rect.attributes["opacity"] == "0") == !group.contains { $0.name == "text" })
        }
        // A label sits on its cell's drawn centre: the stack's rotated cells all at the centre.
        for text in try Self.svg(["stack"]).texts {
            #expect(text.number("x") == 195)
        }
    }

    @Test func labelColoursContrastWithTheirFill() throws {
        let picture = try Self.svg(["waterfall", "--count", "10"])
        #expect(picture.groups.count == 10)
        for group in picture.groups {
            let fill = try #require(group.first { $0.name == "rect" }?.attributes["fill"])
            let colour = try #require(group.first { $0.name == "text" }?.attributes["fill"])
            #expect(colour == (fill == "#4e79a7" ? "#ffffff" : "#1a1a1a"), "\(colour) on \(fill)")
        }
    }

    // MARK: - Formats

    @Test func aPictureFormatIsAUsageErrorThatSaysHowToGetOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.png").path
        let result = run(arguments: ["ring", "-o", path])
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr == "cvlayout: error: -o \(path): cvlayout writes json, csv, svg, not .png; "
                + "for a picture: -f svg | rsvg-convert > \(path)\nRun 'cvlayout ring --help' for usage.\n")
        #expect(!FileManager.default.fileExists(atPath: path))
        // -f that contradicts the name is a usage error too, and so is -f png.
        let contradicted = run(arguments: ["ring", "-f", "svg", "-o", path])
        #expect(contradicted.status == 64 && contradicted.stderr == "cvlayout: error: -o \(path): the name says PNG but -f svg "
                + "writes SVG; for a picture: -f svg | rsvg-convert > \(path)\nRun 'cvlayout ring --help' for usage.\n")
        #expect(!FileManager.default.fileExists(atPath: path))
        let json = directory.appendingPathComponent("out.json").path
        #expect(run(arguments: ["ring", "-f", "csv", "-o", json]).stderr
                == "cvlayout: error: -o \(json): the name says JSON but -f csv writes CSV; name the file .csv, or drop -f\n"
                + "Run 'cvlayout ring --help' for usage.\n")
        for (format, hint) in [("png", "for a picture: -f svg | rsvg-convert > out.png"),
                               ("PDF", "for a PDF: -f svg | rsvg-convert -f pdf > out.pdf")] {
            #expect(run(arguments: ["ring", "-f", format]).stderr
                    == "cvlayout: error: --format: expected one of json, csv, svg, got '\(format)'; \(hint)\n"
                    + "Run 'cvlayout ring --help' for usage.\n")
        }
        // A name that is no picture gets no picture hint.
        let text = directory.appendingPathComponent("r.txt").path
        #expect(run(arguments: ["ring", "-o", text]).stderr == "cvlayout: error: -o \(text): cvlayout writes json, csv, svg, "
                + "not .txt; give -f json, -f csv or -f svg, or name the file .json, .csv or .svg\n"
                + "Run 'cvlayout ring --help' for usage.\n")
        // With -f the file is written as asked, whatever a name that names no format says;
        // a dataset's "format" gives way to -o's extension.
        #expect(run(arguments: ["ring", "-f", "svg", "-o", text]).status == 0)
        #expect(try String(contentsOfFile: text, encoding: .utf8).hasPrefix("<?xml"))
        let fromDataset = run(arguments: ["ring", "-o", json, "-"], stdin: { Data(#"{"rings": [1], "options": {"format": "svg"}}"#.utf8) })
        #expect(fromDataset.status == 0)
        #expect(try String(contentsOfFile: json, encoding: .utf8).hasPrefix("{"))
    }

    @Test func formatNamesIgnoreCase() throws {
        #expect(run(arguments: ["ring", "-f", "SVG"]).stdout == run(arguments: ["ring", "-f", "svg"]).stdout)
        #expect(run(arguments: ["ring", "--format", "Csv"]).stdout == run(arguments: ["ring", "-f", "csv"]).stdout)
        // Every enumerated value, not only -f.
        #expect(run(arguments: ["ring", "-f", "svg", "--canvas", "Visible", "--labels", "INDEX-PATH"]).stdout
                == run(arguments: ["ring", "-f", "svg", "--canvas", "visible", "--labels", "index-path"]).stdout)
        #expect(run(arguments: ["waterfall", "--order", "Left-To-Right", "--layout-direction", "Right-To-Left"]).stdout
                == run(arguments: ["waterfall", "--order", "left-to-right", "--layout-direction", "right-to-left"]).stdout)
        #expect(run(arguments: ["waterfall", "--order", "Left-To-Right"]).stdout != run(arguments: ["waterfall"]).stdout)
        #expect(run(arguments: ["waterfall", "--precision", "FULL"]).stdout == run(arguments: ["waterfall", "--precision", "full"]).stdout)
        // diff's -f too: JSON is taken, and the trouble is the missing file.
        #expect(run(arguments: ["diff", "-f", "JSON", "/nonexistent-a.json", "/nonexistent-b.json"]).stderr
                == "cvlayout: error: /nonexistent-a.json: cannot open: no such file\n")
        let bad = run(arguments: ["ring", "-f", "PNG"])
        #expect(bad.status == 64 && bad.stderr.hasPrefix("cvlayout: error: --format: expected one of json, csv, svg, got 'PNG'"))
    }
}
