import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import CVLayoutCLI
import LayoutCore
import FastText
import LayoutWriters

/// `--scroll-to`: the keyframes' offsets, and the animated SVG read back from its own text
/// (not through the writer): at every sample each shown shape's box is the engine's at that
/// sample's offset, the last keyframe exactly the engine at X,Y (or at the snap target),
/// unchanged elements are not animated, the painting order follows each sample's zIndex, and
/// the options' errors.
struct ScrollSVGTests {
    // MARK: - The keyframes

    @Test func easeOutAndLinearKeyframes() {
        var scroll = ScrollAnimation(start: Point(x: 0, y: 100), end: Point(x: 0, y: 1100), frameCount: 5)
        // u = 0, 1/4, 1/2, 3/4, 1; e(u) = 1 − (1 − u)³ = 0, 37/64, 7/8, 63/64, 1.
        let eased: [Double] = [100, 100 + 1000 * (37.0 / 64), 100 + 1000 * (7.0 / 8), 100 + 1000 * (63.0 / 64), 1100]
        #expect(scroll.offsets.map(\.y) == eased)
        #expect(scroll.keyTimes == [0, 0.25, 0.5, 0.75, 1])
        scroll.timing = .linear
        #expect(scroll.offsets.map(\.y) == [100, 350, 600, 850, 1100])
        #expect(scroll.offsets.allSatisfy { $0.x == 0 })
    }

    @Test func theEndsAreExactWhateverTheArithmetic() {
        // 0.1 + (0.3 − 0.1)·1 is 0.30000000000000004: the last keyframe is 0.3 all the same.
        let scroll = ScrollAnimation(start: Point(x: 0.1, y: 0), end: Point(x: 0.3, y: 0), frameCount: 7)
        #expect(scroll.offsets.first == Point(x: 0.1, y: 0))
        #expect(scroll.offsets.last == Point(x: 0.3, y: 0))
        #expect(scroll.keyTimes.last == 1)
        for n in [2, 3, 60, 61, 999, 1000] {
            let times = ScrollAnimation(start: .zero, end: .zero, frameCount: n).keyTimes
            #expect(times.count == n && times.first == 0 && times.last == 1)
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test func snappingKeyframes() {
        // N = 11: K = round(0.7·10) = 7; keyframes 0…7 go 0 → 700, 7…10 go 700 → 750.
        let scroll = ScrollAnimation(start: .zero, end: Point(x: 700, y: 0), target: Point(x: 750, y: 0), frameCount: 11,
                                     timing: .linear)
        #expect(scroll.proposedKeyframe == 7)
        let third: Double = 50.0 / 3, twoThirds: Double = 100.0 / 3
        let linear: [Double] = [0, 100, 200, 300, 400, 500, 600, 700, 700 + third, 700 + twoThirds, 750]
        #expect(scroll.offsets.map(\.x) == linear)
        // Ease-out on each leg: keyframe 1 is e(1/7) of the first, keyframe 9 e(2/3) of the second.
        var eased = scroll
        eased.timing = .easeOut
        let first: Double = 1 - (6.0 / 7) * (6.0 / 7) * (6.0 / 7), second: Double = 1 - 1.0 / 27
        #expect(abs(eased.offsets[1].x - 700 * first) < 1e-9)
        #expect(abs(eased.offsets[9].x - (700 + 50 * second)) < 1e-9)
        // K = round(0.7·(N−1)) for small N: 3 → 1, 4 → 2, 5 → 3, 60 → 41.
        for (n, k) in [(3, 1), (4, 2), (5, 3), (60, 41)] {
            #expect(ScrollAnimation(start: .zero, end: .zero, target: .zero, frameCount: n).proposedKeyframe == k)
        }
        #expect(scroll.minimumFrameCount == 3)
        // Exactly, halves up: 0.7·45 = 31.5 → 32 (in binary 0.7·45.0 is just below 31.5);
        // 0.7·15 = 10.5 → 11.
        for (n, k) in [(46, 32), (16, 11), (1000, 699)] {
            #expect(ScrollAnimation(start: .zero, end: .zero, target: .zero, frameCount: n).proposedKeyframe == k)
        }
    }

    @Test func offsetsNearTheLargestDoubleDoNotOverflow() {
        // end − start overflows: the offsets are start·(1 − e) + end·e instead.
        let scroll = ScrollAnimation(start: Point(x: -1e308, y: 0), end: Point(x: 1e308, y: 0), frameCount: 3, timing: .linear)
        #expect(scroll.offsets.map(\.x) == [-1e308, 0, 1e308])
        let eased = ScrollAnimation(start: Point(x: -1e308, y: 0), end: Point(x: 1e308, y: 0), frameCount: 3)
        #expect(abs(eased.offsets[1].x - 0.75e308) < 1e293)
        #expect(eased.offset(atTime: 0.5).x.isFinite)
    }

    @Test func offsetBetweenKeyframesFollowsTheTiming() {
        for target in [nil, Point(x: 640, y: -20)] {
            let scroll = ScrollAnimation(start: Point(x: -30, y: 10), end: Point(x: 600, y: 0), target: target, frameCount: 60)
            // At the keyframes, the formula of `offsets`.
            for (k, offset) in scroll.offsets.enumerated() {
                let at = scroll.offset(atTime: Double(k) / 59)
                #expect(abs(at.x - offset.x) < 1e-9 && abs(at.y - offset.y) < 1e-9, "keyframe \(k)")
            }
            // Between them, the timing of the leg: halfway through the plain scroll, e(0.5) = 7/8.
            if target == nil {
                #expect(abs(scroll.offset(atTime: 0.5).x - (-30 + 630 * 0.875)) < 1e-9)
            }
        }
    }

    // MARK: - The document read back

    /// One shape of the animated document as its own attributes say, at every sample.
    struct Shape {
        var key: String
        /// The drawn box at each sample (minX, minY, maxX, maxY), and whether it is shown there.
        var boxes: [[Double]]
        var shown: [Bool]
        /// Animations on the shape's group and rect.
        var animated: Bool
        /// The document line, for messages.
        var line: Substring
    }

    /// A `--scroll-to` SVG: its samples' times and every shape.
    struct Movie {
        var times: [Double]
        var shapes: [Shape]
        var text: String
        /// `values` of `<animate attributeName="viewBox">`, per sample.
        var viewBoxes: [[Double]]?
        /// The visible-bounds outline's origin per sample.
        var outline: [[Double]]

        /// Reads `text`; the samples are its keyTimes and `moments` (times 0…1 between them,
        /// where the values are what SMIL plays there).
        init(_ text: String, moments: [Double] = []) throws {
            self.text = text
            _ = try XMLDocument(xmlString: text)
            func numbers(_ s: Substring) -> [Double] { s.split(whereSeparator: { " ,".contains($0) }).map { Double($0)! } }
            // Every animation has the keyTimes of the samples it needs; the samples are all of them.
            var allTimes = Set<Double>()
            func keys(_ s: Substring) -> [Double] { s.split(separator: ";").map { Double($0)! } }
            for match in text.matches(of: /keyTimes="([^"]*)"/) { allTimes.formUnion(keys(match.1)) }
            allTimes.formUnion(moments)
            let times = allTimes.isEmpty ? [0] : allTimes.sorted()
            self.times = times
            let n = times.count
            /// The attribute's value at each sample: its animation's values at its keyTimes, in
            /// between linear (or held, discrete) as SMIL plays them; else the static one.
            func track(_ segment: Substring, tag: String, attribute: String, type: String? = nil,
                       staticValue: [Double]) -> [[Double]] {
                for match in segment.matches(of: /<(animate|animateTransform) attributeName="([a-zA-Z-]+)"(?: type="([a-zA-Z]+)")?( calcMode="discrete")? values="([^"]*)" keyTimes="([^"]*)"/) {
                    guard match.1 == tag && match.2 == attribute && (type == nil || match.3.map(String.init) == type) else { continue }
                    let values = match.5.split(separator: ";").map(numbers), keys = keys(match.6)
                    precondition(values.count == keys.count && keys.first == 0 && keys.last == 1, "a value per key time")
                    return times.map { t in
                        let i = keys.lastIndex { $0 <= t }!
                        if keys[i] == t || match.4 != nil || i == keys.count - 1 { return values[i] }
                        let u = (t - keys[i]) / (keys[i + 1] - keys[i])
                        return zip(values[i], values[i + 1]).map { $0 + ($1 - $0) * u }
                    }
                }
                return Array(repeating: staticValue, count: n)
            }
            func attribute(_ name: String, in segment: Substring) -> Double? {
                let pattern = try! Regex(" \(name)=\"([^\"]*)\"")
                return segment.firstMatch(of: pattern).flatMap { Double(String($0.output[1].substring!)) }
            }
            var shapes: [Shape] = []
            for line in text.split(separator: "\n") {
                if line.hasPrefix("<g><rect data-index-path") {
                    // Static: the first keyframe's shape, a matrix about the centre.
                    let key = String(line.firstMatch(of: /data-index-path="([^"]*)"/)!.1)
                        + (line.firstMatch(of: /data-kind="([^"]*)"/).map { " " + $0.1 } ?? "")
                    let x = attribute("x", in: line)!, y = attribute("y", in: line)!
                    let w = attribute("width", in: line)!, h = attribute("height", in: line)!
                    var box = [x, y, x + w, y + h]
                    if let m = line.firstMatch(of: /transform="matrix\(([^)]*)\)"/) {
                        let t = numbers(m.1)  // a b c d e f, about the origin
                        let xs = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)].map { t[0] * $0.0 + t[2] * $0.1 + t[4] }
                        let ys = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)].map { t[1] * $0.0 + t[3] * $0.1 + t[5] }
                        box = [xs.min()!, ys.min()!, xs.max()!, ys.max()!]
                    }
                    shapes.append(Shape(key: key, boxes: Array(repeating: box, count: n), shown: Array(repeating: true, count: n),
                                        animated: line.contains("<animate"), line: line))
                } else if line.hasPrefix("<g transform=\"translate(") {
                    let rectStart = line.range(of: "<rect ")!.lowerBound
                    let textStart = line.range(of: "<text ")?.lowerBound ?? line.endIndex
                    let firstGroup = line.dropFirst(2).range(of: "<g ")?.lowerBound ?? rectStart
                    let outer = line[..<min(firstGroup, rectStart)], groups = line[firstGroup..<rectStart]
                    let rect = line[rectStart..<textStart]
                    let key = String(rect.firstMatch(of: /data-index-path="([^"]*)"/)!.1)
                        + (rect.firstMatch(of: /data-kind="([^"]*)"/).map { " " + $0.1 } ?? "")
                    let centre = track(outer, tag: "animateTransform", attribute: "transform", type: "translate",
                                       staticValue: numbers(outer.firstMatch(of: /translate\(([^)]*)\)/)!.1))
                    let shown = track(outer, tag: "animate", attribute: "opacity",
                                      staticValue: [outer.contains("opacity=\"0\"") ? 0 : 1]).map { $0[0] == 1 }
                    let rotation = track(groups, tag: "animateTransform", attribute: "transform", type: "rotate",
                                         staticValue: groups.firstMatch(of: /rotate\(([^)]*)\)/).map { numbers($0.1) } ?? [0])
                    let scale = track(groups, tag: "animateTransform", attribute: "transform", type: "scale",
                                      staticValue: groups.firstMatch(of: /scale\(([^)]*)\)/).map { numbers($0.1) } ?? [1, 1])
                    let width = track(rect, tag: "animate", attribute: "width", staticValue: [attribute("width", in: rect)!])
                    let height = track(rect, tag: "animate", attribute: "height", staticValue: [attribute("height", in: rect)!])
                    #expect(!groups.contains("skewX"), "no engine shears")
                    let boxes = (0..<n).map { k -> [Double] in
                        let angle = rotation[k][0] * Double.pi / 180
                        let (c, s) = (cos(angle), sin(angle))
                        let a = scale[k][0] * c, b = scale[k][0] * s, cc = -scale[k][1] * s, d = scale[k][1] * c
                        let hw = (abs(a) * width[k][0] + abs(cc) * height[k][0]) / 2
                        let hh = (abs(b) * width[k][0] + abs(d) * height[k][0]) / 2
                        return [centre[k][0] - hw, centre[k][1] - hh, centre[k][0] + hw, centre[k][1] + hh]
                    }
                    shapes.append(Shape(key: key, boxes: boxes, shown: shown, animated: true, line: line))
                }
            }
            self.shapes = shapes
            viewBoxes = text.contains("attributeName=\"viewBox\"")
                ? track(text[...], tag: "animate", attribute: "viewBox", staticValue: []) : nil
            let outlineLine = text.split(separator: "\n").first { $0.hasPrefix("<rect class=\"visible-bounds\"") }!
            let xs = track(outlineLine, tag: "animate", attribute: "x", staticValue: [attribute("x", in: outlineLine)!])
            let ys = track(outlineLine, tag: "animate", attribute: "y", staticValue: [attribute("y", in: outlineLine)!])
            outline = zip(xs, ys).map { [$0[0], $1[0]] }
        }
    }

    /// The engine's visible elements at `offset`: key (index path and kind) → transformed box, zIndex.
    func engineBoxes(_ words: [String], offset: Point) throws -> [String: (box: [Double], z: Int, position: Int)] {
        let result = run(arguments: words + ["--offset", "\(offset.x),\(offset.y)", "-f", "json", "--precision", "full"])
        try #require(result.status == 0, "\(result.stderr)")
        let layout = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let elements = try #require(layout["elements"] as? [[String: Any]])
        var boxes: [String: (box: [Double], z: Int, position: Int)] = [:]
        for (position, e) in elements.enumerated() where !(e["hidden"] as? Bool ?? false) {
            let path = e["indexPath"] as! [Int], category = e["category"] as! String
            let key = "\(path[0]):\(path[1])" + (category == "cell" ? "" : " " + (e["kind"] as? String ?? category))
            let frame = e["frame"] as! [String: Double], t = e["transform"] as? [Double] ?? [1, 0, 0, 1, 0, 0]
            let (w, h) = (frame["width"]!, frame["height"]!)
            let cx = frame["x"]! + w / 2 + t[4], cy = frame["y"]! + h / 2 + t[5]
            let hw = (abs(t[0]) * w + abs(t[2]) * h) / 2, hh = (abs(t[1]) * w + abs(t[3]) * h) / 2
            boxes[key] = ([cx - hw, cy - hh, cx + hw, cy + hh], e["zIndex"] as? Int ?? 0, position)
        }
        return boxes
    }

    /// Runs `words` with `--scroll-to` options, reads the movie back and compares every sample
    /// that is a keyframe with the engine at that keyframe's offset: every shown shape's box
    /// to `tolerance`, the same set of shapes, the painting order by zIndex, the outline.
    func checkKeyframes(_ words: [String], scroll: [String], animation: ScrollAnimation, tolerance: Double = 1e-9,
                        keyframes: [Int]? = nil) throws -> Movie {
        let result = run(arguments: words + scroll + ["-f", "svg", "--precision", "full"])
        try #require(result.status == 0, "\(result.stderr)")
        let movie = try Movie(result.stdoutText)
        let keyTimes = animation.keyTimes, offsets = animation.offsets
        for k in keyframes ?? Array(0..<animation.frameCount) {
            let sample = try #require(movie.times.firstIndex(of: keyTimes[k]), "keyframe \(k)'s time is a sample")
            let engine = try engineBoxes(words, offset: offsets[k])
            let shown = movie.shapes.filter { $0.shown[sample] }
            #expect(Set(shown.map(\.key)) == Set(engine.keys), "keyframe \(k): the shapes shown")
            #expect(shown.count == engine.count, "keyframe \(k): each element shown once")
            for shape in shown {
                guard let want = engine[shape.key] else { continue }
                let got = shape.boxes[sample]
                let worst = zip(got, want.box).map { abs($0 - $1) }.max()!
                #expect(worst <= tolerance, "keyframe \(k) \(shape.key): \(got) ≠ \(want.box)")
            }
            // Painting order: document order is (zIndex, element order) at this keyframe.
            let order = shown.compactMap { engine[$0.key] }.map { ($0.z, $0.position) }
            #expect(zip(order, order.dropFirst()).allSatisfy { $0 < $1 }, "keyframe \(k): painting order")
            #expect(movie.outline[sample] == [offsets[k].x, offsets[k].y], "keyframe \(k): the visible bounds' outline")
        }
        return movie
    }

    @Test func lineScrollingPastThreeItemsIsTheEngineAtEveryKeyframe() throws {
        let movie = try checkKeyframes(["line"], scroll: ["--scroll-to", "420,0", "--frames", "12"],
                                       animation: ScrollAnimation(start: .zero, end: Point(x: 420, y: 0), frameCount: 12))
        // Items far to the right keep scale 0 throughout: written once, not animated.
        #expect(movie.shapes.contains { !$0.animated })
        #expect(movie.shapes.contains { $0.animated })
    }

    @Test func carouselFlingSettlesOnTheSnapTarget() throws {
        let words = ["carousel"]
        // The engine's own target for the proposed offset and velocity.
        // The carousel scrolls vertically.
        let target = run(arguments: words + ["--offset", "0,530", "--target-offset", "0,530", "--velocity", "0,0.8",
                                             "--precision", "full"])
        let layout = try #require(try JSONSerialization.jsonObject(with: Data(target.stdout)) as? [String: Any])
        let proposed = try #require(layout["targetContentOffset"] as? [String: Double])
        let settle = Point(x: proposed["x"]!, y: proposed["y"]!)
        #expect(settle != Point(x: 0, y: 530), "the fling snaps somewhere else")
        let animation = ScrollAnimation(start: .zero, end: Point(x: 0, y: 530), target: settle, frameCount: 20)
        let movie = try checkKeyframes(words + ["--velocity", "0,0.8"],
                                       scroll: ["--scroll-to", "0,530", "--snap", "--frames", "20"], animation: animation)
        // Keyframe 13 (round(0.7·19)) is at X,Y; the last at the target.
        #expect(movie.outline[movie.times.firstIndex(of: 13.0 / 19)!] == [0, 530])
        #expect(movie.outline.last == [settle.x, settle.y])
        // The carousel's zIndex follows alpha: some element is drawn in more than one layer.
        #expect(Set(movie.shapes.map(\.key)).count < movie.shapes.count)
    }

    @Test func pinnedFlowHeadersMoveAndCellsDoNot() throws {
        let movie = try checkKeyframes(["flow", "--pin-headers", "--header-size", "0,40", "--count", "120"],
                                       scroll: ["--scroll-to", "0,900", "--frames", "9"],
                                       animation: ScrollAnimation(start: .zero, end: Point(x: 0, y: 900), frameCount: 9))
        let animated = movie.shapes.filter(\.animated).map(\.key)
        #expect(!animated.isEmpty && animated.allSatisfy { $0.hasSuffix(" header") }, "\(animated)")
    }

    @Test func stretchyHeaderPulledDownAndReleased() throws {
        let start = Point(x: 0, y: -150)
        let movie = try checkKeyframes(["flow", "--stretchy-header", "--header-size", "0,180"], scroll: ["--offset", "0,-150", "--scroll-to", "0,0",
                                                                               "--frames", "8", "--timing", "linear"],
                                       animation: ScrollAnimation(start: start, end: .zero, frameCount: 8, timing: .linear))
        let header = try #require(movie.shapes.first { $0.key == "0:0 header" })
        // Pulled down 150 points, the header is 150 taller at the first keyframe than at the last.
        let first = header.boxes[0], last = header.boxes[header.boxes.count - 1]
        #expect(abs((first[3] - first[1]) - (last[3] - last[1]) - 150) < 1e-9)
    }

    @Test func rightToLeftAndScaledScrollsAreTheEngineToo() throws {
        _ = try checkKeyframes(["line", "--layout-direction", "right-to-left", "--scale", "3"],
                               scroll: ["--scroll-to", "900,0", "--frames", "6", "--offset", "1200,0"],
                               animation: ScrollAnimation(start: Point(x: 1200, y: 0), end: Point(x: 900, y: 0), frameCount: 6))
        _ = try checkKeyframes(["waterfall", "--pin-headers", "--columns", "3"],
                               scroll: ["--scroll-to", "0,700", "--frames", "5"],
                               animation: ScrollAnimation(start: .zero, end: Point(x: 0, y: 700), frameCount: 5))
    }

    @Test func samplesBetweenKeyframesKeepEveryMomentNearTheEngine() throws {
        // The line layout's scale has kinks (its floor, the centre): between two keyframes the
        // straight line misses them, and samples are added where it would stray.
        let words = ["line"]
        let animation = ScrollAnimation(start: .zero, end: Point(x: 600, y: 0), frameCount: 6)
        let result = run(arguments: words + ["--scroll-to", "600,0", "--frames", "6", "-f", "svg", "--precision", "full"])
        let movie = try Movie(result.stdoutText)
        #expect(movie.times.count > 6, "samples were added")
        for k in 0..<6 { #expect(movie.times.contains(animation.keyTimes[k])) }
        // Halfway between any two samples, the straight line SMIL draws is within 0.5 point of
        // the engine at that moment's offset.
        for j in 0..<movie.times.count - 1 {
            let u = (movie.times[j] + movie.times[j + 1]) / 2
            let engine = try engineBoxes(words, offset: animation.offset(atTime: u))
            for shape in movie.shapes where shape.shown[j] && shape.shown[j + 1] {
                let drawn = zip(shape.boxes[j], shape.boxes[j + 1]).map { ($0 + $1) / 2 }
                guard let want = engine[shape.key] else { continue }
                let worst = zip(drawn, want.box).map { abs($0 - $1) }.max()!
                #expect(worst < 0.5, "t = \(u): \(shape.key) strays \(worst)")
            }
        }
    }

    /// Reads the movie of `words` at `count` random moments (seeded) and compares every shown
    /// shape with the engine at that moment's offset: the largest difference of an edge.
    func worstAtRandomMoments(_ words: [String], scroll: [String], animation: ScrollAnimation, count: Int,
                              seed: UInt64 = 7) throws -> Double {
        var generator = SplitMix64(seed: seed)
        let moments = (0..<count).map { _ in Double(generator.next() >> 11) / 9_007_199_254_740_992 }
        let result = run(arguments: words + scroll + ["-f", "svg", "--precision", "full"])
        try #require(result.status == 0, "\(result.stderr)")
        let movie = try Movie(result.stdoutText, moments: moments)
        var worst = 0.0
        for u in moments {
            let sample = movie.times.firstIndex(of: u)!
            let offset = animation.offset(atTime: u)
            let engine = try engineBoxes(words, offset: offset)
            for shape in movie.shapes where shape.shown[sample] {
                guard let want = engine[shape.key] else { continue }
                worst = max(worst, zip(shape.boxes[sample], want.box).map { abs($0 - $1) }.max()!)
            }
            let outline = movie.outline[sample]
            worst = max(worst, abs(outline[0] - offset.x), abs(outline[1] - offset.y))
        }
        return worst
    }

    @Test func longScrollsStayWithinHalfAPointAtEveryMoment() throws {
        // A thousand items scrolled 20,000 points in 60 keyframes: about 340 points a keyframe at
        // first, many items through the centre between two keyframes.
        let line = try worstAtRandomMoments(["line", "--count", "1000"], scroll: ["--scroll-to", "20000,0"],
                                            animation: ScrollAnimation(start: .zero, end: Point(x: 20000, y: 0)), count: 30)
        #expect(line < 0.5, "\(line)")
        // Two keyframes only, and a scale that peaks between them.
        let carousel = try worstAtRandomMoments(["carousel"], scroll: ["--scroll-to", "0,2000", "--frames", "2"],
                                                animation: ScrollAnimation(start: .zero, end: Point(x: 0, y: 2000), frameCount: 2),
                                                count: 30)
        #expect(carousel < 0.5, "\(carousel)")
        // A layout that does not move: only the screen does, sampled as closely.
        let still = try worstAtRandomMoments(["waterfall", "--count", "300"], scroll: ["--scroll-to", "0,20000", "--frames", "2"],
                                             animation: ScrollAnimation(start: .zero, end: Point(x: 0, y: 20000), frameCount: 2),
                                             count: 30)
        #expect(still < 0.5, "\(still)")
    }

    @Test func snappedEdgesStayWithinAPixel() throws {
        // At scale 1 a pinned header steps a whole point at a time; no straight line follows
        // a step closer than half of it, so a pixel is the bound.
        let words = ["flow", "--pin-headers", "--header-size", "0,40", "--count", "120", "--scale", "1"]
        let worst = try worstAtRandomMoments(words, scroll: ["--scroll-to", "0,900"],
                                             animation: ScrollAnimation(start: .zero, end: Point(x: 0, y: 900)), count: 30)
        #expect(worst <= 1, "\(worst)")
    }

    @Test func theScreenScrollsWithCanvasVisible() throws {
        let result = run(arguments: ["line", "--scroll-to", "300,0", "--frames", "4", "--timing", "linear", "--canvas", "visible",
                                     "-f", "svg"])
        let movie = try Movie(result.stdoutText)
        let viewBoxes = try #require(movie.viewBoxes)
        #expect(viewBoxes.first == [0, 0, 390, 844] && viewBoxes.last == [300, 0, 390, 844])
        #expect(result.stdoutText.contains("viewBox=\"0 0 390 844\""))
        // The white background covers every screen the animation shows.
        #expect(result.stdoutText.contains("<rect x=\"0\" y=\"0\" width=\"690\" height=\"844\" fill=\"#ffffff\"/>"))
    }

    @Test func everyAnimationPlaysOnceAndHolds() throws {
        let text = run(arguments: ["carousel", "--scroll-to", "0,400", "--duration", "1.5", "-f", "svg"]).stdoutText
        let animations = text.matches(of: /<animate[^>]*>/).map { String($0.output) }
        #expect(animations.count > 10)
        #expect(animations.allSatisfy { $0.contains("begin=\"0s\" dur=\"1.5s\" fill=\"freeze\"") && !$0.contains("repeat") })
        // keyTimes at full precision: 1/59 is 0.01694915254237288. Each animation has the
        // samples at which its element changes, from 0 to 1.
        let keyTimes = text.matches(of: /keyTimes="([^"]*)"/).map { String($0.1) }
        #expect(keyTimes.contains { $0.contains(";0.01694915254237288;") })
        #expect(keyTimes.allSatisfy { $0.hasPrefix("0;") && $0.hasSuffix(";1") })
    }

    @Test func nothingMovesNothingIsAnimated() throws {
        // A ring does not depend on the offset: only the outline moves.
        let text = run(arguments: ["ring", "--scroll-to", "0,200", "-f", "svg"]).stdoutText
        #expect(!text.contains("<g transform=\"translate("), "no element is animated")
        #expect(text.matches(of: /<animate attributeName=/).count == 1, "only the outline's y")
        #expect(text.contains("<animate attributeName=\"y\""))
        #expect(text.contains("<rect class=\"visible-bounds\""))
        #expect(text.contains("class=\"heart-path\""))
    }

    @Test func anElementAnimatesOnlyWhereItChanges() throws {
        // Scrolled 2,800 points, the line passes twenty items through the centre one after
        // another: each animates over the samples around its own passage, not all of them.
        let text = run(arguments: ["line", "--scroll-to", "2800,0", "-f", "svg"]).stdoutText
        let outline = try #require(text.firstMatch(of: /class="visible-bounds"[^\n]*keyTimes="([^"]*)"/))
        let samples = outline.1.split(separator: ";").count
        let lists = text.split(separator: "\n").filter { $0.hasPrefix("<g transform") }.compactMap {
            $0.firstMatch(of: /keyTimes="([^"]*)"/).map { $0.1.split(separator: ";").count }
        }
        #expect(lists.count >= 15)
        #expect(lists.allSatisfy { $0 < samples }, "\(lists) of \(samples)")
    }

    @Test func aThousandElementsAtSixtyFramesStaySmall() throws {
        for words in [["line", "--count", "1000", "--scroll-to", "20000,0"],
                      ["carousel", "--count", "1000", "--scroll-to", "20000,0", "--snap"],
                      ["flow", "--count", "1000", "--pin-headers", "--scroll-to", "0,20000"]] {
            let result = run(arguments: words + ["-f", "svg"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.count < 10_000_000, "\(words): \(result.stdout.count) bytes")
        }
    }

    // MARK: - Bounds (issue 28)

    /// The writer on a line layout of `count` items scrolled from 0 to `end`.
    func writeLine(count: Int, to end: Point, frames: Int = 60, limits: ScrollSVGWriter.Limits = .standard,
                   canvas: SVGCanvas = .all) throws -> (accurate: Bool, statistics: ScrollSVGWriter.Statistics, text: String) {
        let statistics = ScrollSVGWriter.Statistics()
        var options = OutputOptions()
        options.canvas = canvas
        let out = OutputBuffer(precision: options.precision)
        let accurate = try ScrollSVGWriter.write(ScrollAnimation(start: .zero, end: end, frameCount: frames), layout: { offset in
            try LineLayout().layout(.uniform(count: count), bounds: Size(width: 390, height: 844), contentOffset: offset)
        }, limits: limits, statistics: statistics, options: options, to: out)
        return (accurate, statistics, String(decoding: out.bytes, as: UTF8.self))
    }

    @Test func samplesAreCountedWhateverTheElementCount() throws {
        // No elements: the budget of elements laid out never runs out, so the samples are
        // bounded by their own count, the keyframes included.
        var limits = ScrollSVGWriter.Limits.standard
        limits.maximumSamples = 500
        let long = try writeLine(count: 0, to: Point(x: 1e13, y: 0), limits: limits)
        #expect(!long.accurate)
        #expect(long.statistics.samples == 500)
        let outline = try #require(long.text.firstMatch(of: /class="visible-bounds"[^\n]*keyTimes="([^"]*)"/))
        #expect(outline.1.split(separator: ";").count == 500)
        // A short scroll needs fewer and keeps the half-point promise.
        let short = try writeLine(count: 0, to: Point(x: 2000, y: 0), limits: limits)
        #expect(short.accurate)
        #expect(short.statistics.samples > 60 && short.statistics.samples < 500)
        #expect(ScrollSVGWriter.Limits.standard.maximumSamples == 100_000)
    }

    @Test func theEstimatedSizeBoundsTheDocument() throws {
        // Offsets near 1e307 print 308 digits: the estimate counts them, and the samples
        // between keyframes stop at the refinement bytes (a warning), not at the samples.
        var limits = ScrollSVGWriter.Limits.standard
        limits.refinementBytes = 200_000
        limits.maximumBytes = 1_000_000
        let huge = try writeLine(count: 3, to: Point(x: -5.6e306, y: 5.98e307), frames: 3, limits: limits, canvas: .visible)
        #expect(!huge.accurate)
        #expect(huge.statistics.samples < 1000)
        #expect(huge.statistics.estimatedBytes >= 200_000 && huge.statistics.estimatedBytes < 1_000_000)
        // The estimate is generous: the document is at most it plus the still picture.
        let still = try writeLine(count: 3, to: .zero, frames: 2, canvas: .visible).text.utf8.count
        #expect(huge.text.utf8.count <= huge.statistics.estimatedBytes + still + 2000)
        for (count, end) in [(1000, Point(x: 20000, y: 0)), (40, Point(x: 3000, y: 0)), (0, Point(x: 1e9, y: 0))] {
            let run = try writeLine(count: count, to: end)
            let still = try writeLine(count: count, to: .zero, frames: 2).text.utf8.count
            #expect(run.text.utf8.count <= run.statistics.estimatedBytes + still, "\(count) items to \(end)")
        }
    }

    @Test func keyframesPastTheBoundsAreRefused() throws {
        var limits = ScrollSVGWriter.Limits.standard
        limits.keyframeWork = 1000
        // 60 keyframes of 20 items: 1,200 elements laid out, more than 1,000.
        #expect(throws: ScrollSVGWriter.TooLarge.self) { try writeLine(count: 20, to: Point(x: 3000, y: 0), limits: limits) }
        #expect((try? writeLine(count: 16, to: Point(x: 3000, y: 0), limits: limits)) != nil)
        // Keyframes alone over the byte bound: refused before anything is written.
        limits = .standard
        limits.maximumBytes = 20_000
        let out = OutputBuffer()
        #expect(throws: ScrollSVGWriter.TooLarge.self) {
            try ScrollSVGWriter.write(ScrollAnimation(start: .zero, end: Point(x: 20000, y: 0)), layout: { offset in
                try LineLayout().layout(.uniform(count: 200), bounds: Size(width: 390, height: 844), contentOffset: offset)
            }, limits: limits, options: OutputOptions(), to: out)
        }
        #expect(out.bytes.isEmpty)
        // From the command line: bad data, one line, nothing written.
        let refused = run(arguments: ["line", "--count", "400000", "--scroll-to", "100,0", "-f", "svg"])
        #expect(refused.status == 65)
        #expect(refused.stderr == "cvlayout: error: --scroll-to: 60 keyframes of 400000 elements would lay out more than "
                + "20000000 elements (the limit of a scroll); fewer --frames or fewer elements fit\n")
        #expect(refused.stdout.isEmpty)
    }

    /// Issue 28: a layout that does not move with the offset is streamed (its still picture
    /// written as the still SVG streams it, never kept), byte for byte the document of the
    /// kept layout, on every canvas; and from the command line as well.
    @Test(arguments: [SVGCanvas.all, .visible, .content])
    func aStillLayoutScrollsStreamed(canvas: SVGCanvas) throws {
        var waterfall = WaterfallLayout()
        waterfall.headerHeight = 30
        let sections = [WaterfallSection(items: .heights((0..<5000).map { Double(40 + $0 * 37 % 90) })),
                        WaterfallSection(items: .heights([120, 60, 90]))]
        let bounds = Size(width: 390, height: 844)
        let scroll = ScrollAnimation(start: Point(x: 0, y: 100), end: Point(x: 0, y: 9000), frameCount: 7)
        var options = OutputOptions()
        options.canvas = canvas
        func engine(at offset: Point) -> LayoutPipeline.Engine {
            LayoutPipeline.Engine(layout: { try waterfall.layout(sections, bounds: bounds, contentOffset: offset) },
                                  stream: { sink in try waterfall.layout(sections, bounds: bounds, contentOffset: offset, into: &sink) },
                                  check: { sink in try waterfall.layout(sections, bounds: bounds, contentOffset: offset, into: &sink) })
        }
        let kept = OutputBuffer(precision: options.precision)
        try ScrollSVGWriter.write(scroll, layout: { try engine(at: $0).layout() }, movesWithOffset: false, options: options, to: kept)
        let request = LayoutPipeline.Request(format: .svg, scale: nil, keepsElements: false, target: nil, engine: "waterfall",
                                             bounds: bounds, contentOffset: scroll.start)
        let pipeline = try LayoutPipeline(engine: engine(at: scroll.start), request: request)
        #expect(pipeline.isStreamed)
        let streamed = OutputBuffer(precision: options.precision)
        var elementsKept = -1
        let streams = try pipeline.withStreamedShapes(options: options, precision: options.precision) { summary, shapes in
            elementsKept = summary.elements.count
            try ScrollSVGWriter.write(scroll, layout: { _ in summary }, movesWithOffset: false, streamed: shapes, options: options,
                                      to: streamed)
        }
        #expect(streams && elementsKept == 0)
        #expect(streamed.bytes.count > 500_000)
        #expect(streamed.bytes == kept.bytes)
        // The command line streams it too: the same picture as the kept writer's of its layout.
        let words = ["ring", "--count", "300", "--scroll-to", "0,400", "--frames", "5", "--canvas", canvas.rawValue]
        let result = run(arguments: words + ["-f", "svg"])
        #expect(result.status == 0)
        #expect(result.stdoutText.hasPrefix("<?xml") && result.stdoutText.hasSuffix("</svg>\n"))
        #expect(result.stdoutText.contains("<rect class=\"visible-bounds\""))
    }

    // MARK: - Every SVG names its shapes

    @Test(arguments: engineRegistry.map(\.name))
    func everyShapeCarriesItsIndexPath(engine: String) throws {
        let visible = try engineBoxes([engine], offset: .zero)
        let text = run(arguments: [engine, "-f", "svg"]).stdoutText
        let drawn = text.matches(of: /<rect data-index-path="(\d+):(\d+)"(?: data-kind="([a-zA-Z]+)")?/).map {
            "\($0.1):\($0.2)" + ($0.3.map { " " + $0 } ?? "")
        }
        #expect(drawn.sorted() == visible.keys.sorted())
    }

    @Test func transitionShapesCarryTheirIndexPathAfterTheUpdate() throws {
        let text = run(arguments: ["transition", "--from", "stack", "--to", "circle", "--count", "5", "--delete", "0:1",
                                   "-f", "svg"]).stdoutText
        let paths = text.matches(of: /data-index-path="([^"]*)"/).map { String($0.1) }
        // Five items, one deleted: it keeps its old path 0:1, and the next item is now 0:1 as
        // well; each is drawn once per painting-order layer.
        #expect(Set(paths) == ["0:0", "0:1", "0:2", "0:3"])
        #expect(paths.count % 5 == 0 && paths.filter { $0 == "0:1" }.count == 2 * paths.count / 5)
        // data-change tells the two 0:1 apart.
        let deleted = text.matches(of: /data-index-path="0:1"[^>]*data-change="disappear"/).count
        #expect(deleted == paths.count / 5, "the deleted item once per layer")
    }

    // MARK: - Errors

    @Test func theOptionsGoTogether() {
        let cases: [([String], Int32, String)] = [
            (["line", "--scroll-to", "100,0"], 64, "add -f svg"),
            (["line", "--scroll-to", "100,0", "-f", "csv"], 64, "run once per offset"),
            (["line", "--scroll-to", "100,0", "-f", "svg", "--frames", "1"], 64, "--frames 1: expected an integer from 2 to 1000"),
            (["line", "--scroll-to", "100,0", "-f", "svg", "--frames", "1001"], 64, "from 2 to 1000"),
            (["line", "--scroll-to", "100,0", "-f", "svg", "--frames", "2", "--snap"], 64, "--frames 2: --snap needs 3 keyframes or more"),
            (["line", "--scroll-to", "100,0", "-f", "svg", "--duration", "0"], 64, "--duration 0: expected a finite number of seconds > 0"),
            (["line", "--scroll-to", "100,0", "-f", "svg", "--duration", "-1"], 64, "--duration -1: expected"),
            (["line", "--scroll-to", "100,0", "-f", "svg", "--timing", "bounce"], 64, "--timing"),
            (["line", "--snap", "-f", "svg"], 64, "--snap goes with --scroll-to"),
            (["line", "--frames", "10"], 64, "--frames goes with --scroll-to"),
            (["line", "--scroll-to", "100,0", "-f", "svg", "--visible"], 64, "--scroll-to and --visible cannot be used together"),
            (["line", "--scroll-to", "100,0", "-f", "svg", "--rect", "0,0,10,10"], 64, "--rect cannot"),
            (["line", "--scroll-to", "100,0", "-f", "svg", "--item", "0:1"], 64, "--item cannot"),
            (["line", "--scroll-to", "nan,0", "-f", "svg"], 64, "--scroll-to"),
            (["line", "--scroll-to", "1e400,0", "-f", "svg"], 65, "--scroll-to: expected finite numbers"),
        ]
        for (words, status, message) in cases {
            let result = run(arguments: words)
            #expect(result.status == status, "\(words): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(words): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(words): nothing written")
        }
    }

    @Test func aDatasetsOptionsAreNamedByTheirPath() throws {
        let result = run(arguments: ["line", "-f", "svg", "-"], stdin: {
            Data(#"{"options": {"scroll-to": "100,0", "frames": 0}, "count": 2}"#.utf8)
        })
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("<stdin>: options.frames: 0: expected an integer from 2 to 1000\n"), "\(result.stderr)")
        // A bad value is bad even when a flag overrides it.
        for (options, flag) in [(#""frames": 1"#, ["--frames", "5"]), (#""duration": -1"#, ["--duration", "1"])] {
            let overridden = run(arguments: ["line", "-f", "svg", "-"] + flag, stdin: {
                Data(#"{"options": {"scroll-to": "100,0", \#(options)}, "count": 2}"#.utf8)
            })
            #expect(overridden.status == 65 && overridden.stdout.isEmpty, "\(options): \(overridden.stderr)")
        }
    }
}
