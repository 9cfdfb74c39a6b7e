import LayoutCore
import LayoutDatasets

// `--delete S:I[,…]`, `--insert S:I[=H|=WxH][,…]`, `--move S:I..S:I[,…]` (or `S:I->S:I`) on every engine: the
// dataset after a batch update, with UIKit's index-path rules (`BatchUpdates`).

/// A batch update as the command line gives it, with the measures of the inserted items.
struct ItemUpdates {
    var batch: BatchUpdates
    /// The height or size given to an inserted item (`0:3=120`, `0:3=60x80`), by its new index path.
    var measures: [IndexPath: InsertedMeasure]

    /// What an inserted item measures.
    enum InsertedMeasure: Equatable {
        case height(Double)
        case size(Size)
    }

    /// The updates in `options`, or `nil` when none of the three flags is given.
    /// - Throws: `CLIError` (usage, 64) for text that does not parse; (data, 65) for a measure
    ///   that parses but is negative or not finite.
    static func parse(_ options: OptionValues) throws -> ItemUpdates? {
        guard options.has(GlobalOption.delete) || options.has(GlobalOption.insert) || options.has(GlobalOption.move) else { return nil }
        var updates = ItemUpdates(batch: BatchUpdates(), measures: [:])
        func parts(_ name: String) throws -> [String] {
            guard let text = try options.text(name) else { return [] }
            return text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        func malformed(_ name: String, _ expected: String = "S:I, S:I=H or S:I=WxH[,…]") -> CLIError {
            options.malformed(name, options.values[name]!, expected: expected)
        }
        for part in try parts("delete") {
            guard let path = ValueSyntax.indexPath(part) else { throw malformed(GlobalOption.delete, "S:I[,S:I…]") }
            updates.batch.deletes.append(path)
        }
        for part in try parts("insert") {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let path = ValueSyntax.indexPath(pieces[0]) else { throw malformed(GlobalOption.insert) }
            updates.batch.inserts.append(path)
            guard pieces.count == 2 else { continue }
            let measure = pieces[1]
            if let x = measure.firstIndex(where: { $0 == "x" || $0 == "X" }) {
                guard let w = ValueSyntax.number(measure[..<x]), let h = ValueSyntax.number(measure[measure.index(after: x)...]) else {
                    throw malformed(GlobalOption.insert)
                }
                guard w.isFinite, w > 0, h.isFinite, h >= 0 else {
                    throw CLIError(.invalidValue("--insert \(part)", .insertSize, got: nil))
                }
                updates.measures[path] = .size(Size(width: w, height: h == 0 ? 0 : h))
            } else {
                guard let h = ValueSyntax.number(measure) else { throw malformed(GlobalOption.insert) }
                guard h.isFinite, h >= 0 else { throw CLIError(.invalidValue("--insert \(part)", .insertHeight, got: nil)) }
                updates.measures[path] = .height(h == 0 ? 0 : h)
            }
        }
        for part in try parts("move") {
            // `S:I..S:I` needs no quoting in sh; `S:I->S:I` (a redirect there unquoted) also works.
            let ends = part.contains("->") ? part.components(separatedBy: "->") : part.components(separatedBy: "..")
            guard ends.count == 2, let from = ValueSyntax.indexPath(ends[0]), let to = ValueSyntax.indexPath(ends[1]) else {
                throw malformed(GlobalOption.move, "S:I..S:I[,…]")
            }
            updates.batch.moves.append(BatchUpdates.Move(from: from, to: to))
        }
        return updates
    }

    /// The plan of the batch against `counts`, items per section before the update.
    /// - Throws: `CLIError` (usage, 64) for an index path out of range or used twice (the
    ///   three options come from the command line only).
    func plan(sectionCounts counts: [Int], options: OptionValues) throws -> BatchUpdatePlan {
        do {
            return try batch.plan(sectionCounts: counts)
        } catch {
            throw options.conflict([GlobalOption.delete, GlobalOption.insert, "move"], .batchUpdate(error, counts: counts))
        }
    }
}

/// What a section of the data gives its items: a count, heights, sizes or item objects.
enum ItemUpdateKind { case count, heights, sizes, objects }

/// The dataset an engine lays out after `--delete`, `--insert` and `--move` (unchanged
/// without them); without a DATASET, the engine's `embeddedData`. Each section keeps its kind:
/// counts take inserts without a measure, heights need `S:I=H`, sizes `S:I=WxH`; an item moves
/// only between sections of the same kind.
/// - Throws: `CLIError`: usage (64) for index paths out of range or used twice; data (65) for
///   a missing or mismatched measure.
/// - Complexity: O(items) when an update is given, O(1) otherwise.
func updatedDataset(_ dataset: Dataset?, options: OptionValues, descriptor: EngineDescriptor,
                    count: Int, seed: UInt64) throws -> Dataset? {
    guard let updates = try ItemUpdates.parse(options) else { return dataset }
    var data = dataset ?? descriptor.embeddedData(count, seed)

    enum Measure { case unit, height(Double), size(Size) }
    /// An item and the columns it spans (a waterfall's `"span"`; it moves with the item).
    struct Item { var measure: Measure; var span = 1 }
    let kinds: [ItemUpdateKind] = data.sections.map {
        switch $0.items {
        case .uniform: .count
        case .heights, .randomHeights: .heights
        case .sizes: .sizes
        case .mixed: .objects
        }
    }
    let items: [[Item]] = data.sections.map { section in
        var items: [Item]
        switch section.items {
        case .uniform(let n): items = Array(repeating: Item(measure: .unit), count: n)
        case .heights(let h): items = h.map { Item(measure: .height($0)) }
        case .randomHeights(let h): items = h.map { Item(measure: .height($0)) }
        case .sizes(let s): items = s.map { Item(measure: .size($0)) }
        case .mixed(let m):
            items = m.map {
                switch $0 {
                case .height(let h): Item(measure: .height(h))
                case .size(let s): Item(measure: .size(s))
                }
            }
        }
        if let spans = section.spans {
            for i in items.indices where i < spans.count { items[i].span = spans[i] }
        }
        return items
    }
    let plan = try updates.plan(sectionCounts: items.map(\.count), options: options)
    let updated = try plan.apply(to: items) { path -> Item in
        switch (kinds[path.section], updates.measures[path]) {
        case (.count, nil): return Item(measure: .unit)
        case (.heights, .height(let h)?), (.objects, .height(let h)?): return Item(measure: .height(h))
        case (.sizes, .size(let s)?), (.objects, .size(let s)?): return Item(measure: .size(s))
        case (.sizes, .height(let h)?) where h > 0: return Item(measure: .size(Size(width: h, height: h)))
        case (let kind, let given): throw CLIError(.insertMeasure(path, section: kind, given: given))
        }
    }
    for (s, section) in updated.enumerated() {
        var heights: [Double] = [], sizes: [Size] = [], measures: [ItemMeasure] = []
        for item in section {
            switch (kinds[s], item.measure) {
            case (.count, .unit): break
            case (.heights, .height(let h)): heights.append(h)
            case (.sizes, .size(let size)): sizes.append(size)
            case (.objects, .height(let h)): measures.append(.height(h))
            case (.objects, .size(let size)): measures.append(.size(size))
            default:
                throw CLIError(.moveAcrossKinds(section: s, kinds[s]))
            }
        }
        switch kinds[s] {
        case .count: data.sections[s].items = .uniform(count: section.count)
        case .heights: data.sections[s].items = .heights(heights)
        case .sizes: data.sections[s].items = .sizes(sizes)
        case .objects: data.sections[s].items = .mixed(measures)
        }
        data.sections[s].spans = section.contains { $0.span != 1 } ? section.map(\.span) : nil
    }
    return data
}
