// Item deletes, inserts and moves with the index-path rules of performBatchUpdates
// (seeds 000 and 002).

/// A batch of item updates, as one `performBatchUpdates` block gives them: deletes name index paths
/// before the update, inserts after it, moves go from old to new. UIKit's rules: an item is deleted
/// or moved at most once, a new index path claimed at most once; the items that stay keep their
/// order and fill the unclaimed places (move 0:1 → 0:3 of A B C D E gives A C D B E).
public struct BatchUpdates: Hashable, Sendable {
    /// An item moved from an old index path to a new one (`moveItem(at:to:)`).
    public struct Move: Hashable, Sendable {
        /// Index paths before and after the update.
        public var from: IndexPath, to: IndexPath

        /// Creates the move `from` → `to`.
        public init(from: IndexPath, to: IndexPath) {
            self.from = from
            self.to = to
        }
    }

    /// Deleted items, by their index paths before the update (`deleteItems(at:)`).
    public var deletes: [IndexPath]
    /// Inserted items, by their index paths after the update (`insertItems(at:)`).
    public var inserts: [IndexPath]
    /// Moved items.
    public var moves: [Move]

    /// Creates a batch. Default: empty.
    public init(deletes: [IndexPath] = [], inserts: [IndexPath] = [], moves: [Move] = []) {
        self.deletes = deletes
        self.inserts = inserts
        self.moves = moves
    }

    /// Checks the batch against the items per section before it and works out where each goes.
    /// - Throws: `BatchUpdateError` for an index path out of range or used twice. O(items + updates).
    public func plan(sectionCounts: [Int]) throws(BatchUpdateError) -> BatchUpdatePlan {
        var newCounts = sectionCounts
        var removed = sectionCounts.map { Array(repeating: false, count: $0) }
        for (path, operation) in deletes.map({ ($0, "delete") }) + moves.map({ ($0.from, "move") }) {
            let items = sectionCounts.indices.contains(path.section) ? sectionCounts[path.section] : nil
            guard let count = items, path.item >= 0, path.item < count else {
                throw .outOfRange(path, operation: operation, before: true, count: items)
            }
            guard !removed[path.section][path.item] else { throw .usedTwice(path, operation: operation, before: true) }
            removed[path.section][path.item] = true
            newCounts[path.section] -= 1
        }
        // New index paths: the inserts', then the moves'.
        let claims = inserts.map { ($0, ItemSource.inserted, "insert") }
            + moves.map { ($0.to, .old($0.from), "move") }
        for (path, _, operation) in claims {
            guard sectionCounts.indices.contains(path.section) else {
                throw .outOfRange(path, operation: operation, before: false, count: nil)
            }
            newCounts[path.section] += 1
        }
        var slots: [[ItemSource?]] = newCounts.map { Array(repeating: nil, count: $0) }
        for (path, source, operation) in claims {
            guard path.item >= 0, path.item < newCounts[path.section] else {
                throw .outOfRange(path, operation: operation, before: false, count: newCounts[path.section])
            }
            guard slots[path.section][path.item] == nil else { throw .usedTwice(path, operation: operation, before: false) }
            slots[path.section][path.item] = source
        }
        let sources = slots.enumerated().map { s, sectionSlots in
            var survivors = (0..<sectionCounts[s]).lazy.filter { !removed[s][$0] }.makeIterator()
            return sectionSlots.map { slot in slot ?? .old(IndexPath(item: survivors.next()!, section: s)) }
        }
        return BatchUpdatePlan(oldCounts: sectionCounts, sources: sources)
    }
}

/// Where an item after a batch update comes from.
public enum ItemSource: Hashable, Sendable {
    /// The item that was at this index path before the update.
    case old(IndexPath)
    /// A newly inserted item.
    case inserted
}

/// The outcome of `BatchUpdates.plan(sectionCounts:)`: each new item's source.
public struct BatchUpdatePlan: Hashable, Sendable {
    /// Items per section before the update.
    public let oldCounts: [Int]
    /// For each section and item after the update, its source.
    public let sources: [[ItemSource]]

    /// Items per section after the update.
    public var newCounts: [Int] { sources.map(\.count) }

    /// The old index path of the item now at `new`; `nil` when inserted or out of range.
    public func oldIndexPath(forNew new: IndexPath) -> IndexPath? {
        guard new.section >= 0, new.section < sources.count, new.item >= 0, new.item < sources[new.section].count,
              case .old(let old) = sources[new.section][new.item] else { return nil }
        return old
    }

    /// The per-section item data after the update, from `sections` (`oldCounts` items each)
    /// and `inserted` for each inserted index path. - Complexity: O(items).
    public func apply<Item>(to sections: [[Item]], inserted: (IndexPath) throws -> Item) rethrows -> [[Item]] {
        precondition(sections.map(\.count) == oldCounts, "the data must have the plan's old counts")
        return try sources.enumerated().map { s, section in
            try section.enumerated().map { i, source in
                switch source {
                case .old(let old): sections[old.section][old.item]
                case .inserted: try inserted(IndexPath(item: i, section: s))
                }
            }
        }
    }
}

/// Why a batch of updates cannot be applied (exit status 64 on the command line).
public enum BatchUpdateError: Error, Equatable, Sendable {
    /// `path` is outside the sections or the section's `count` items (`before` the update or after).
    case outOfRange(IndexPath, operation: String, before: Bool, count: Int?)
    /// `path` is deleted or moved twice (`before`), or inserted or moved to twice.
    case usedTwice(IndexPath, operation: String, before: Bool)
}
