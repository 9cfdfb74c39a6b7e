import Testing
import LayoutCore
@testable import LayoutWriters

extension PassCapabilities {
    /// Always kept: the engine must see all its elements before it is done.
    static let keepsOnly = PassCapabilities(streams: false)
}

/// `PassPlan.make`: which passes a run makes, from the engine's capabilities, the options and
/// the format; each row written by hand from the pipeline's rules. Then `LayoutPipeline`
/// follows the plan: the entry points it runs are counted.
struct PassPlanTests {
    /// One row: capabilities, options and format, and the plan expected.
    struct Row: CustomTestStringConvertible, Sendable {
        var capabilities: PassCapabilities
        var options: PassOptions
        var format: OutputFormat
        var expected: PassPlan
        var testDescription: String { "\(capabilities), \(options), \(format.rawValue)" }
    }

    static let vouching = PassCapabilities(streams: true, summaryCheck: true, vouchesWithoutLayingOut: true)
    static func kept(_ reason: PassPlan.KeepReason) -> PassPlan {
        PassPlan(elements: .kept(because: reason), check: .inMemory, needsDrawingOrder: false)
    }
    static func streamed(_ check: PassPlan.Check, svg: Bool = false) -> PassPlan {
        PassPlan(elements: .streamed, check: check, needsDrawingOrder: svg)
    }

    static let rows: [Row] = [
        // An engine without a streaming entry point keeps, whatever is asked.
        Row(capabilities: .keepsOnly, options: PassOptions(), format: .json, expected: kept(.engineKeepsOnly)),
        Row(capabilities: .keepsOnly, options: PassOptions(), format: .csv, expected: kept(.engineKeepsOnly)),
        Row(capabilities: .keepsOnly, options: PassOptions(query: true), format: .svg, expected: kept(.engineKeepsOnly)),
        // A plain whole layout streams; the check pass visits every element, or a summary vouches.
        Row(capabilities: .streaming, options: PassOptions(), format: .json, expected: streamed(.checkPass(summaryVouches: false))),
        Row(capabilities: .streaming, options: PassOptions(), format: .csv, expected: streamed(.checkPass(summaryVouches: false))),
        Row(capabilities: .streaming, options: PassOptions(), format: .svg,
            expected: streamed(.checkPass(summaryVouches: false), svg: true)),
        Row(capabilities: .streamingWithSummaryCheck, options: PassOptions(), format: .json,
            expected: streamed(.checkPass(summaryVouches: true))),
        Row(capabilities: .streamingWithSummaryCheck, options: PassOptions(), format: .csv,
            expected: streamed(.checkPass(summaryVouches: true))),
        Row(capabilities: .streamingWithSummaryCheck, options: PassOptions(), format: .svg,
            expected: streamed(.checkPass(summaryVouches: true), svg: true)),
        // Vouched for without laying out: a CSV and an SVG; a JSON shows the content size, so
        // its check pass runs.
        Row(capabilities: vouching, options: PassOptions(), format: .json, expected: streamed(.checkPass(summaryVouches: true))),
        Row(capabilities: vouching, options: PassOptions(), format: .csv,
            expected: streamed(.vouchedWithoutLayingOut(fallbackSummaryVouches: true))),
        Row(capabilities: vouching, options: PassOptions(), format: .svg,
            expected: streamed(.vouchedWithoutLayingOut(fallbackSummaryVouches: true), svg: true)),
        Row(capabilities: PassCapabilities(streams: true, vouchesWithoutLayingOut: true), options: PassOptions(), format: .csv,
            expected: streamed(.vouchedWithoutLayingOut(fallbackSummaryVouches: false))),
        // A scroll of a layout that does not move streams its still picture.
        Row(capabilities: vouching, options: PassOptions(scroll: .still), format: .svg,
            expected: streamed(.vouchedWithoutLayingOut(fallbackSummaryVouches: true), svg: true)),
        Row(capabilities: .streamingWithSummaryCheck, options: PassOptions(scroll: .still), format: .svg,
            expected: streamed(.checkPass(summaryVouches: true), svg: true)),
        // Whatever reads or changes the elements keeps them, for every engine and format.
        Row(capabilities: vouching, options: PassOptions(query: true), format: .json, expected: kept(.query)),
        Row(capabilities: vouching, options: PassOptions(query: true), format: .csv, expected: kept(.query)),
        Row(capabilities: .streaming, options: PassOptions(query: true), format: .svg, expected: kept(.query)),
        Row(capabilities: vouching, options: PassOptions(targetOffset: true), format: .csv, expected: kept(.targetOffset)),
        Row(capabilities: .streaming, options: PassOptions(targetOffset: true), format: .json, expected: kept(.targetOffset)),
        Row(capabilities: vouching, options: PassOptions(rightToLeft: true), format: .csv, expected: kept(.rightToLeft)),
        Row(capabilities: .streamingWithSummaryCheck, options: PassOptions(rightToLeft: true), format: .svg,
            expected: kept(.rightToLeft)),
        Row(capabilities: vouching, options: PassOptions(scroll: .moving), format: .svg, expected: kept(.scrollMoves)),
        Row(capabilities: .streaming, options: PassOptions(scroll: .moving), format: .svg, expected: kept(.scrollMoves)),
        Row(capabilities: vouching, options: PassOptions(callerReadsElements: true), format: .csv,
            expected: kept(.callerReadsElements)),
        Row(capabilities: .streaming, options: PassOptions(callerReadsElements: true), format: .json,
            expected: kept(.callerReadsElements)),
        // Several at once: one reason is named, the elements kept.
        Row(capabilities: vouching, options: PassOptions(query: true, targetOffset: true, rightToLeft: true), format: .csv,
            expected: kept(.query)),
        Row(capabilities: .streaming, options: PassOptions(targetOffset: true, rightToLeft: true), format: .json,
            expected: kept(.rightToLeft)),
    ]

    @Test(arguments: rows)
    func planOf(_ row: Row) {
        #expect(PassPlan.make(capabilities: row.capabilities, options: row.options, format: row.format) == row.expected)
    }

    /// Every option that reads or changes the elements keeps them, whatever the engine and format.
    @Test(arguments: OutputFormat.allCases)
    func keepingOptionsKeepEverywhere(_ format: OutputFormat) {
        let keeping = [PassOptions(query: true), PassOptions(targetOffset: true), PassOptions(rightToLeft: true),
                       PassOptions(scroll: .moving), PassOptions(callerReadsElements: true)]
        for capabilities in [PassCapabilities.keepsOnly, .streaming, .streamingWithSummaryCheck, Self.vouching] {
            for options in keeping {
                let plan = PassPlan.make(capabilities: capabilities, options: options, format: format)
                #expect(!plan.streams && plan.check == .inMemory && !plan.needsDrawingOrder, "\(capabilities), \(options)")
            }
        }
    }

    /// A layout vouched for without laying out runs the check pass for the content size only
    /// when the format shows it and no canvas pass gives it: JSON always, an SVG unless it
    /// measures its canvas (`.all`), a CSV never.
    @Test(arguments: SVGCanvas.allCases)
    func deferredSummary(_ canvas: SVGCanvas) {
        #expect(PassPlan.deferredSummaryNeedsCheckPass(writing: .json, canvas: canvas))
        #expect(!PassPlan.deferredSummaryNeedsCheckPass(writing: .csv, canvas: canvas))
        #expect(PassPlan.deferredSummaryNeedsCheckPass(writing: .svg, canvas: canvas) == (canvas != .all))
    }

    /// The entry points `LayoutPipeline` runs before writing follow the plan: kept, one
    /// `layout`; streamed, one `check` (none when vouched for, unless unsure or out of
    /// drawing order for an SVG); an SVG out of drawing order after its check, kept.
    @Test(arguments: [
        // format, keeps, quick check answer (nil: no quick check; .some(nil): unsure), check's order,
        // expected: (layout, check, quick) runs, streamed
        (OutputFormat.json, false, Optional<Bool?>.none, true, [0, 1, 0], true),
        (.json, true, .none, true, [1, 0, 0], false),
        (.csv, false, .some(true), true, [0, 0, 1], true),
        (.csv, false, .some(false), true, [0, 0, 1], true),   // a CSV needs no drawing order
        (.csv, false, .some(nil), true, [0, 1, 1], true),     // unsure: the check pass
        (.svg, false, .some(true), true, [0, 0, 1], true),
        (.svg, false, .some(false), true, [0, 1, 1], true),   // out of order: the check pass decides
        (.svg, false, .some(false), false, [1, 1, 1], false), // and the check finds it out of order: kept
        (.svg, false, .none, false, [1, 1, 0], false),
        (.json, false, .some(true), true, [0, 1, 0], true),   // JSON: no quick check asked
        (.csv, true, .some(true), true, [1, 0, 0], false),
    ] as [(OutputFormat, Bool, Bool??, Bool, [Int], Bool)])
    func pipelineRunsThePlannedPasses(format: OutputFormat, keeps: Bool, quick: Bool??, checkInOrder: Bool,
                                      runs: [Int], streamed: Bool) throws {
        final class Counts: @unchecked Sendable { var layout = 0, check = 0, quick = 0 }
        let counts = Counts()
        let cell = LayoutAttributes.cell(IndexPath(item: 0, section: 0), frame: Rect(x: 0, y: 0, width: 10, height: 10))
        var above = LayoutAttributes.cell(IndexPath(item: 1, section: 0), frame: Rect(x: 0, y: 10, width: 10, height: 10))
        above.zIndex = 1
        let elements = checkInOrder ? [cell] : [above, cell]
        let bounds = Size(width: 100, height: 100)
        let summary = CollectionLayout(engine: "test", bounds: bounds, contentOffset: .zero, contentSize: bounds,
                                       elements: [], cellRanges: [])
        let engine = LayoutPipeline.Engine(
            layout: {
                counts.layout += 1
                return CollectionLayout(engine: "test", bounds: bounds, contentOffset: .zero, contentSize: bounds,
                                        elements: elements, cellRanges: [(start: 0, count: elements.count)])
            },
            stream: { sink in for e in elements { sink.append(e) }; return summary },
            check: { sink in counts.check += 1; for e in elements { sink.append(e) }; return summary },
            quickCheck: quick.map { answer in { _ in
                counts.quick += 1
                return answer.map { (elementCount: elements.count, numberOfSections: 1, isInDrawingOrder: $0) }
            } })
        let pipeline = try LayoutPipeline(engine: engine, request: LayoutPipeline.Request(
            format: format, scale: nil, keepsElements: keeps, target: nil, engine: "test", bounds: bounds, contentOffset: .zero))
        #expect([counts.layout, counts.check, counts.quick] == runs)
        #expect(pipeline.isStreamed == streamed)
        #expect(pipeline.plan.streams == !keeps)
    }
}

/// Short names for the test cases' descriptions.
extension PassCapabilities: CustomStringConvertible {
    public var description: String {
        !streams ? "keepsOnly" : vouchesWithoutLayingOut ? "vouchesWithoutLayingOut" : summaryCheck ? "summaryCheck" : "streaming"
    }
}

extension PassOptions: CustomStringConvertible {
    public var description: String {
        var parts: [String] = []
        if query { parts.append("query") }
        if targetOffset { parts.append("target-offset") }
        if rightToLeft { parts.append("right-to-left") }
        if scroll != .none { parts.append("scroll \(scroll.rawValue)") }
        if callerReadsElements { parts.append("caller") }
        return parts.isEmpty ? "plain" : parts.joined(separator: ", ")
    }
}
