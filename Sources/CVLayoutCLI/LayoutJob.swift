import Foundation
import LayoutCore
import LayoutDatasets
import LayoutWriters

/// A layout computed from an engine's command-line arguments, ready to be written.
struct LayoutJob {
    let descriptor: EngineDescriptor
    /// Every option of the run (command line over dataset `"options"`).
    let options: OptionValues
    private let pipeline: LayoutPipeline
    /// The layout, snapped, with `targetContentOffset` when asked for; a streamed one's summary.
    var layout: CollectionLayout { pipeline.layout }
    /// Positions in `layout.elements` to write (`--rect`, `--item`), or `nil` for all.
    let selection: [Int]?
    /// `-f`, or `-o`'s extension, or JSON.
    let format: OutputFormat
    let outputOptions: OutputOptions
    /// `--scroll-to`'s animation (`-f svg` only), or `nil`.
    let scroll: ScrollAnimation?
    /// The layout at a content offset, snapped and checked: `scroll`'s keyframes.
    let layoutAtOffset: (Point) throws -> CollectionLayout
    /// Whether the engine's layout moves with the offset (else `scroll` lays it out once).
    let movesWithOffset: Bool
    /// How far the middle of two samples of `scroll` may stray before it is sampled too: 0.25 pt, or
    /// just over half a pixel with `--scale` below 2.
    let scrollTolerance: Double
    private let scrollReport = ScrollReport()

    /// What the last write found: a scrolling SVG out of samples, the SVG's size.
    final class ScrollReport: @unchecked Sendable {
        var budgetReached = false
        let pictureSize = SVGSizeProbe()
    }

    /// Warnings the write added (a scroll sampled coarser than promised; an SVG too large).
    var writeWarnings: [String] {
        var warnings: [String] = []
        if scrollReport.budgetReached {
            let limits = ScrollSVGWriter.Limits.standard
            warnings.append("--scroll-to: the sample budget ran out before every moment was within the tolerance "
               + "(\(limits.sampleWork) elements laid out, \(limits.maximumSamples) samples, "
               + "\(limits.refinementBytes >> 20) MiB); "
               + "some moments may stray more than half a point from the engine (a shorter scroll, or fewer elements, stays within it)")
        }
        if let size = scrollReport.pictureSize.size, let note = oversizedPictureNote(width: size.width, height: size.height) {
            warnings.append(note)
        }
        return warnings
    }

    /// Parses `arguments` (after the engine name), reads the dataset and lays out; `streaming: false`
    /// keeps the elements. Throws `CLIError` with the status SPEC section 3 gives.
    init(descriptor: EngineDescriptor, arguments: [String], io: CommandIO, streaming: Bool = true) throws {
        let parsed = try ArgumentParser.parse(arguments, engine: descriptor)
        var options = parsed.options

        if parsed.dataset != nil && options.has(GlobalOption.count) {
            throw options.conflict([GlobalOption.count], .fixed(.countWithDataset))
        }

        var dataset: Dataset? = nil
        var datasetName: String? = nil
        // No DATASET and no --count: a pipe or file on standard input is the dataset unless
        // only white space (`--check -` reads the golden from it instead).
        var piped: Data? = nil
        if parsed.dataset == nil && !options.has(GlobalOption.count) && io.stdinHoldsData
            && (try? options.text(GlobalOption.check)) != "-" {
            let data = try readDataset("-", name: "<stdin>", stdin: io.stdin)
            if data.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) { piped = data }
        }
        if parsed.dataset != nil || piped != nil {
            let path = parsed.dataset ?? "-"
            let name = path == "-" ? "<stdin>" : path.isEmpty ? "''" : shortenedForMessage(path, limit: 4096)
            datasetName = name
            let data = try piped ?? readDataset(path, name: name, stdin: io.stdin)
            do {
                dataset = try DatasetDecoder.decode(data, schema: descriptor.schema, keys: descriptor.datasetKeys)
            } catch let error as DatasetError {
                // A top-level key that is an option's name: the option meant for "options".
                if case .unknownKey(let path, _, _) = error,
                   let option = knownOptions(for: descriptor.name).first(where: { $0.name == path }), option.allowedInDataset {
                    throw CLIError(.optionAsKey(file: name, key: path))
                }
                throw CLIError.from(error, file: name)
            }
            let overridden = try mergeDatasetOptions(dataset!.options, into: &options, descriptor: descriptor, file: name)
            try Self.checkOverridden(overridden, options: options, descriptor: descriptor, datasetName: name)
        }
        try self.init(descriptor: descriptor, options: options, dataset: dataset, datasetName: datasetName,
                      streaming: streaming)
    }

    /// Lays out each dataset option the command line overrides alone, on empty data: a value refused
    /// is bad data (65, by its JSON path) even when a flag wins; a conflict or another error is not.
    private static func checkOverridden(_ overridden: [(name: String, value: OptionValue)], options: OptionValues,
                                        descriptor: EngineDescriptor, datasetName: String) throws {
        guard !overridden.isEmpty else { return }
        let inDataset = Set(knownOptions(for: descriptor.name).filter(\.allowedInDataset).map(\.name))
        for (name, value) in overridden {
            var probe = options
            probe.values = probe.values.filter { inDataset.contains($0.key) }  // no --delete against empty data
            probe.values[name] = value
            let source = probe.source(of: name)! + ": "
            do {
                _ = try LayoutJob(descriptor: descriptor, options: probe, dataset: Dataset(sections: []),
                                  datasetName: datasetName, streaming: false)
            } catch let error as CLIError where error.status == ExitStatus.data && !error.isConflict
                                                && error.message.hasPrefix(source) {
                throw error
            } catch {
                continue  // not this value's fault alone
            }
        }
    }

    /// Lays out the merged `options` and `dataset` (`nil`: embedded), `datasetName` in messages.
    private init(descriptor: EngineDescriptor, options: OptionValues, dataset: Dataset?, datasetName: String?,
                 streaming: Bool) throws {
        var dataset = dataset
        self.descriptor = descriptor
        try Self.checkQueryOptions(options)
        self.options = options

        let format = try outputFormat(options)
        self.format = format
        let precision = try outputPrecision(options)
        let deviceSize = try Self.deviceSize(options, descriptor: descriptor)
        let bounds = Size(width: try options.number(GlobalOption.width, default: deviceSize?.width ?? 390),
                          height: try options.number(GlobalOption.height, default: deviceSize?.height ?? 844))
        func refused(_ name: String, _ value: Double, _ domain: LayoutError.Requirement) -> CLIError {
            CLIError(.invalidValue(options.source(of: name) ?? "--" + name, .domain(domain),
                                   got: value.isFinite ? describe(value) : options.shownValue(of: name) ?? "infinity"))
        }
        for (name, value) in [("width", bounds.width), ("height", bounds.height)] where !(value.isFinite && value >= 0) {
            throw refused(name, value, .finiteNonNegative)
        }
        let offset = try finitePoint(options, GlobalOption.offset, default: .zero)
        let count = try options.integer(GlobalOption.count, default: descriptor.defaultCount)
        guard count >= 0, count <= maximumElementCount else {
            throw CLIError(.invalidValue("--count", .integer(from: 0, to: maximumElementCount), got: "\(count)"))
        }
        let seed = try seedValue(options)
        dataset = try updatedDataset(dataset, options: options, descriptor: descriptor, count: count, seed: seed)
        let scale: Double? = try options.has(GlobalOption.scale) ? options.number(GlobalOption.scale, default: 1) : nil
        if let scale, !(scale.isFinite && scale > 0) { throw refused("scale", scale, .finitePositive) }
        let rect = try Self.queryRect(options, visible: Rect(x: offset.x, y: offset.y, width: bounds.width, height: bounds.height))
        let item = try options.indexPath(GlobalOption.item)
        let target = try options.has(GlobalOption.targetOffset) ? finitePoint(options, GlobalOption.targetOffset, default: .zero) : nil
        let velocity = try finitePoint(options, GlobalOption.velocity, default: .zero)
        var outputOptions = OutputOptions()  // the writers': `--precision`, `--labels`, `--canvas`, the query
        outputOptions.precision = precision
        outputOptions.labels = try svgLabels(options)
        outputOptions.queryRect = rect
        outputOptions.canvas = try options.choice(GlobalOption.canvas, default: SVGCanvas.all)
        if outputOptions.canvas == .rect && rect == nil {
            throw options.conflict([GlobalOption.canvas], .fixed(.canvasRectNeedsRect))
        }
        self.outputOptions = outputOptions
        let scrollEnd = try Self.scrollOptions(options, format: format, descriptor: descriptor)

        let rightToLeft = try options.choice("layout-direction", default: LayoutDirection.leftToRight) == .rightToLeft
        func input(at offset: Point) -> EngineInput {
            EngineInput(options: options, dataset: dataset, bounds: bounds, contentOffset: offset, count: count, seed: seed)
        }
        func makePipeline(at offset: Point, passes: PassOptions, target: (offset: Point, velocity: Point)?) throws -> LayoutPipeline {
            let input = input(at: offset)
            let engine = LayoutPipeline.Engine(
                layout: { try descriptor.layout(input) },
                stream: descriptor.stream.map { stream in { sink in try stream(input, &sink) } },
                check: descriptor.check.map { check in { sink in try check(input, &sink) } },
                quickCheck: descriptor.quickCheck.map { quickCheck in { scale in try quickCheck(input, scale) } },
                targetContentOffset: descriptor.targetContentOffset,
                capabilities: descriptor.capabilities)
            var request = LayoutPipeline.Request(
                format: format, scale: descriptor.roundsToPixels ? nil : scale, keepsElements: false,
                target: target, engine: descriptor.name, bounds: bounds, contentOffset: offset)
            request.passes = passes
            request.mirrorsForRightToLeft = rightToLeft
            do {
                return try LayoutPipeline(engine: engine, request: request)
            } catch let error as LayoutError {
                throw CLIError.from(error, options: options, datasetName: datasetName, dataset: dataset)
            }
        }
        movesWithOffset = try descriptor.movesWithContentOffset(input(at: offset))
        // A scroll of a layout that does not move with the offset streams its still picture.
        let passes = PassOptions(query: rect != nil || item != nil,
                                 scroll: scrollEnd == nil ? .none : movesWithOffset ? .moving : .still,
                                 callerReadsElements: !streaming)
        self.pipeline = try makePipeline(at: offset, passes: passes, target: target.map { ($0, velocity) })
        let keyframe = PassOptions(callerReadsElements: true)
        layoutAtOffset = { offset in try makePipeline(at: offset, passes: keyframe, target: nil).layout }
        scrollTolerance = max(ScrollSVGWriter.refinementTolerance, scale.map { 0.5 / $0 + 0.01 } ?? 0)
        scroll = try scrollEnd.map { scrollEnd in
            var scroll = ScrollAnimation(start: offset, end: scrollEnd)
            // A value out of range is that value's fault (checked even when a flag overrides
            // it); two keyframes with --snap is a conflict between them.
            func outOfRange(_ name: GlobalOption, _ value: String, _ reason: CLIProblem.Expected) -> CLIError {
                var error = options.conflict(in: name, value, .expected(reason))
                error.isConflict = false
                return error
            }
            let frames = CLIProblem.Expected.integer(from: 2, to: ScrollAnimation.maximumFrameCount)
            scroll.frameCount = try options.integer(GlobalOption.frames, default: scroll.frameCount) {
                outOfRange(GlobalOption.frames, $0, frames)
            }
            scroll.duration = try options.number(GlobalOption.duration, default: scroll.duration)
            scroll.timing = try options.choice(GlobalOption.timing, default: scroll.timing)
            if try options.flag(GlobalOption.snap) {
                // UIKit asks the layout at the offset the finger left (the proposed one).
                let proposed = try makePipeline(at: scrollEnd, passes: keyframe, target: (scrollEnd, velocity)).layout
                scroll.target = proposed.targetContentOffset ?? scrollEnd
            }
            guard (2...ScrollAnimation.maximumFrameCount).contains(scroll.frameCount) else {
                throw outOfRange(GlobalOption.frames, describe(Double(scroll.frameCount)), frames)
            }
            guard scroll.frameCount >= scroll.minimumFrameCount else {
                throw options.conflict(in: GlobalOption.frames, "\(scroll.frameCount)", .fixed(.snapNeedsKeyframes), involving: [GlobalOption.snap])
            }
            guard scroll.duration.isFinite && scroll.duration > 0 else {
                throw outOfRange(GlobalOption.duration, describe(scroll.duration), .seconds(atLeast: nil))
            }
            return scroll
        }
        selection = try Self.querySelection(pipeline.layout, rect: rect, item: item, options: options)
    }

    /// Refuses `--visible` with `--rect` or `--item`, and `--item` with `--rect` (conflicts).
    private static func checkQueryOptions(_ options: OptionValues) throws {
        for other in ["rect", "item"] where try options.flag(GlobalOption.visible) && options.has(other) {
            throw options.conflict([GlobalOption.visible, other], .visibleWith(other))
        }
        if options.has(GlobalOption.item) && options.has(GlobalOption.rect) {
            throw options.conflict([GlobalOption.item, "rect"], .cannotBeUsedTogether("--item", "--rect"))
        }
    }

    /// `--device`'s screen size, or `nil` without it.
    /// - Throws: an unknown device, with the nearest name (65 from a dataset, else 64).
    private static func deviceSize(_ options: OptionValues, descriptor: EngineDescriptor) throws -> Size? {
        guard let name = try options.text(GlobalOption.device, expected: "a device name") else { return nil }
        guard let size = deviceBounds(name) else {
            let problem = CLIProblem.unknown(.device, shortenedForMessage(name), nearest: nearestDeviceName(name))
            if let source = options.source(of: "device"), !source.hasPrefix("--") { throw CLIError.data(.at(source, problem)) }
            throw CLIError(.at("--device", problem), engine: descriptor.name)
        }
        return size
    }

    /// The query's rectangle: `--rect`, or with `--visible` the `visible` bounds; `nil` without either.
    /// - Throws: a rectangle that is not finite or has a negative size.
    private static func queryRect(_ options: OptionValues, visible: Rect) throws -> Rect? {
        let rect = try options.flag(GlobalOption.visible) ? visible
            : options.parsed(GlobalOption.rect, expected: "X,Y,W,H", ValueSyntax.rect)
        if let rect, !(rect.isFinite && rect.width >= 0 && rect.height >= 0) {
            let parts = [rect.minX, rect.minY, rect.width, rect.height]
            if parts.allSatisfy(\.isFinite) && rect.width >= 0 && rect.height >= 0 {
                throw CLIError.data(.at(options.source(of: "rect")!, .fixed(.rectFarEdge)))
            }
            throw CLIError(.invalidValue(options.source(of: "rect")!, .rect, got: options.shownValue(of: "rect")!))
        }
        return rect
    }

    /// The query's elements: those meeting `rect`, or the cell at `item`; `nil` without a query.
    /// - Throws: an item the layout does not hold (a conflict, with the section counts).
    private static func querySelection(_ layout: CollectionLayout, rect: Rect?, item: LayoutCore.IndexPath?,
                                       options: OptionValues) throws -> [Int]? {
        if let rect { return layout.elementIndices(in: rect) }
        guard let item else { return nil }
        guard let index = layout.elementIndex(ofItemAt: item) else {
            let missing = item.section < layout.numberOfSections ? nil : item.section
            throw options.conflict(in: "item", "\(item)", .noSuchItem(section: missing, counts: layout.itemCounts))
        }
        return [index]
    }

    /// `--scroll-to`'s offset (`nil` without it), after the conflicts: an SVG only, no query or
    /// check beside it, `--frames`, `--duration`, `--timing` and `--snap` only with it.
    private static func scrollOptions(_ options: OptionValues, format: OutputFormat,
                                      descriptor: EngineDescriptor) throws -> Point? {
        guard options.has(GlobalOption.scrollTo) else {
            for name in [GlobalOption.frames, GlobalOption.duration, GlobalOption.timing, GlobalOption.snap]
            where options.has(name) {
                throw options.conflict([name], .goesWithScrollTo(name.rawValue))
            }
            return nil
        }
        guard format == .svg else {
            throw options.conflict([GlobalOption.scrollTo, GlobalOption.format], .scrollToNeedsSVG(format.rawValue))
        }
        for name in [GlobalOption.rect, GlobalOption.visible, GlobalOption.item, GlobalOption.targetOffset,
                     GlobalOption.check] where options.has(name) {
            throw options.conflict([GlobalOption.scrollTo, name], .scrollToWith(name.rawValue))
        }
        return try finitePoint(options, GlobalOption.scrollTo, default: .zero)
    }

    /// Writes the layout to `-o` (atomically) or to standard output.
    func write(io: CommandIO) throws {
        try OutputFile.write(to: options.text(GlobalOption.output), stdout: io.stdout, probe: scrollReport.pictureSize) {
            try write(format, to: LayoutOutput(precision: outputOptions.precision, sink: $0))
        }
    }

    /// The summary and a producer of the elements in `format`'s terms when streamed and all written.
    func streamedElements(for format: OutputFormat) throws
        -> (layout: CollectionLayout, produce: (inout ElementBlocks) throws -> Void)? {
        guard selection == nil else { return nil }
        return try pipeline.streamedElements(for: format)
    }

    /// Writes the layout as `format` to `buffer` (running the engine again when streamed).
    func write(_ format: OutputFormat, to buffer: LayoutOutput) throws {
        if let scroll {
            do {
                // A layout that does not move: streamed to measure and to write, never kept.
                var streamedAccurate: Bool? = nil
                if !movesWithOffset {
                    _ = try pipeline.withStreamedShapes(options: outputOptions, precision: buffer.precision) { summary, shapes in
                        streamedAccurate = try ScrollSVGWriter.write(scroll, layout: { _ in summary }, movesWithOffset: false,
                                                                     tolerance: scrollTolerance, streamed: shapes,
                                                                     options: outputOptions, to: buffer)
                    }
                }
                let accurate = try streamedAccurate
                    ?? ScrollSVGWriter.write(scroll, layout: layoutAtOffset, movesWithOffset: movesWithOffset,
                                             tolerance: scrollTolerance, options: outputOptions, to: buffer)
                scrollReport.budgetReached = !accurate
                return
            } catch let error as ScrollSVGWriter.ElementsDiffer {
                throw CLIError(.scrollElementsDiffer(keyframe: error.keyframe))
            } catch let error as ScrollSVGWriter.TooLarge {
                throw CLIError(.scrollTooLarge(error))
            }
        }
        try pipeline.write(format, selection: selection, options: outputOptions, to: buffer)
    }
}
