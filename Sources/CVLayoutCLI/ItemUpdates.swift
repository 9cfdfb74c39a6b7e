import LayoutCore
import LayoutDatasets

// `--delete`, `--insert`, `--move` on every engine: the dataset after a batch update, with
// UIKit's index-path rules (`BatchUpdates`).

/// A batch update as the command line gives it, with the measures of the inserted items.
struct ItemUpdates {
    var batch: BatchUpdates
    /// The height or size given to an inserted item (`0:3=120`, `0:3=60x80`), by its new index path.
    var measures: [IndexPath: ItemMeasure]

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
        func malformed(_ name: GlobalOption, _ expected: String = "S:I, S:I=H or S:I=WxH[,…]") -> CLIError {
            options.malformed(name, options.values[name.rawValue]!, expected: expected)
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
    /// - Throws: `CLIError` (usage, 64; the options are the command line's) for an index path
    ///   out of range or used twice.
    func plan(sectionCounts counts: [Int], options: OptionValues) throws -> BatchUpdatePlan {
        do {
            return try batch.plan(sectionCounts: counts)
        } catch {
            throw options.conflict([GlobalOption.delete, GlobalOption.insert, "move"], .batchUpdate(error, counts: counts))
        }
    }
}

/// What a section of the data gives its items, in words.
enum ItemUpdateKind: String { case count = "a count", heights, sizes, objects = "item objects" }

/// The dataset (or `embeddedData`) after `--delete`, `--insert` and `--move`, each section of its
/// kind (`S:I` in counts, `S:I=H` in heights, `S:I=WxH` in sizes; moves within a kind). O(items).
/// - Throws: `CLIError`: usage (64) for index paths out of range or used twice; data (65) for
///   a missing or mismatched measure.
func updatedDataset(_ dataset: Dataset?, options: OptionValues, descriptor: EngineDescriptor,
                    count: Int, seed: UInt64) throws -> Dataset? {
    guard let updates = try ItemUpdates.parse(options) else { return dataset }
    var data = dataset ?? descriptor.embeddedData(count, seed)

    /// An item's measure (`nil` in a count) and the columns it spans (waterfall), moved with it.
    struct Item { var measure: ItemMeasure?; var span = 1 }
    var kinds: [ItemUpdateKind] = []
    let items: [[Item]] = data.sections.map { section in
        let (kind, measures): (ItemUpdateKind, [ItemMeasure?]) = switch section.items {
        case .uniform(let n): (.count, Array(repeating: nil, count: n))
        case .heights(let h): (.heights, h.map { .height($0) })
        case .randomHeights(let h): (.heights, h.map { .height($0) })
        case .sizes(let s): (.sizes, s.map { .size($0) })
        case .mixed(let m): (.objects, m)
        }
        kinds.append(kind)
        let spans = section.spans ?? []
        return measures.enumerated().map { i, measure in Item(measure: measure, span: i < spans.count ? spans[i] : 1) }
    }
    let plan = try updates.plan(sectionCounts: items.map(\.count), options: options)
    let updated = try plan.apply(to: items) { path -> Item in
        let given = updates.measures[path]
        switch (kinds[path.section], given) {
        case (.count, nil), (.heights, .height?), (.sizes, .size?), (.objects, _?): return Item(measure: given)
        case (.sizes, .height(let h)?) where h > 0: return Item(measure: .size(Size(width: h, height: h)))
        case (let kind, _): throw CLIError(.insertMeasure(path, section: kind, given: given))
        }
    }
    for (s, section) in updated.enumerated() {
        /// Every item's measure as `read` takes it; one it does not take moved in from another kind.
        func all<T>(_ read: (ItemMeasure?) -> T?) throws -> [T] {
            try section.map {
                guard let value = read($0.measure) else { throw CLIError(.moveAcrossKinds(section: s, kinds[s])) }
                return value
            }
        }
        switch kinds[s] {
        case .count: data.sections[s].items = .uniform(count: try all { $0 == nil ? true : nil }.count)
        case .heights: data.sections[s].items = .heights(try all { if case .height(let h)? = $0 { h } else { nil } })
        case .sizes: data.sections[s].items = .sizes(try all { if case .size(let size)? = $0 { size } else { nil } })
        case .objects: data.sections[s].items = .mixed(try all { $0 })
        }
        data.sections[s].spans = section.contains { $0.span != 1 } ? section.map(\.span) : nil
    }
    return data
}
