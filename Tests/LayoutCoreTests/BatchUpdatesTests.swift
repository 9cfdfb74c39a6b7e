import Testing
@testable import LayoutCore

/// UIKit's batch-update index-path rules (`BatchUpdates`).
struct BatchUpdatesTests {
    func ip(_ s: Int, _ i: Int) -> IndexPath { IndexPath(item: i, section: s) }

    @Test func moveShiftsTheItemsBetween() throws {
        // A B C D E, move 0:1 -> 0:3: A C D B E.
        let plan = try BatchUpdates(moves: [.init(from: ip(0, 1), to: ip(0, 3))]).plan(sectionCounts: [5])
        #expect(plan.apply(to: [["A", "B", "C", "D", "E"]]) { _ in "?" } == [["A", "C", "D", "B", "E"]])
        #expect((0..<5).map { plan.newIndexPath(forOld: ip(0, $0))! } == [ip(0, 0), ip(0, 3), ip(0, 1), ip(0, 2), ip(0, 4)])
        #expect(plan.oldIndexPath(forNew: ip(0, 3)) == ip(0, 1))
        // Backwards: move 0:4 -> 0:0: E A B C D.
        let back = try BatchUpdates(moves: [.init(from: ip(0, 4), to: ip(0, 0))]).plan(sectionCounts: [5])
        #expect(back.apply(to: [["A", "B", "C", "D", "E"]]) { _ in "?" } == [["E", "A", "B", "C", "D"]])
    }

    @Test func deletesUseOldPathsAndInsertsNewOnes() throws {
        // Delete old 0:0 and 0:2, insert new 0:1: A B C D -> B X D.
        let plan = try BatchUpdates(deletes: [ip(0, 0), ip(0, 2)], inserts: [ip(0, 1)]).plan(sectionCounts: [4])
        #expect(plan.newCounts == [3])
        #expect(plan.apply(to: [["A", "B", "C", "D"]]) { _ in "X" } == [["B", "X", "D"]])
        #expect(plan.newIndexPath(forOld: ip(0, 0)) == nil && plan.newIndexPath(forOld: ip(0, 3)) == ip(0, 2))
        #expect(plan.sources == [[.old(ip(0, 1)), .inserted, .old(ip(0, 3))]])
    }

    @Test func moveAcrossSections() throws {
        let plan = try BatchUpdates(moves: [.init(from: ip(0, 0), to: ip(1, 1))]).plan(sectionCounts: [2, 2])
        #expect(plan.newCounts == [1, 3])
        #expect(plan.apply(to: [["a", "b"], ["c", "d"]]) { _ in "?" } == [["b"], ["c", "a", "d"]])
        #expect(plan.newIndexPath(forOld: ip(1, 1)) == ip(1, 2))
    }

    @Test func deleteThenInsertTheSameItemRestoresTheData() throws {
        let heights: [[Double]] = [[120, 80, 200, 50], [10]]
        let deleted = try BatchUpdates(deletes: [ip(0, 2)]).plan(sectionCounts: [4, 1]).apply(to: heights) { _ in -1 }
        #expect(deleted == [[120, 80, 50], [10]])
        let restored = try BatchUpdates(inserts: [ip(0, 2)]).plan(sectionCounts: [3, 1]).apply(to: deleted) { _ in 200 }
        #expect(restored == heights)
        // And the layout computed from the restored data is the original layout.
        let circle = CircleLayout()
        let bounds = Size(width: 375, height: 400)
        let original = try circle.layout(.heights(heights[0]), bounds: bounds)
        #expect(try circle.layout(.heights(restored[0]), bounds: bounds).elements == original.elements)
        // In one batch (delete old 0:2, insert new 0:2) the item is replaced in place.
        let replaced = try BatchUpdates(deletes: [ip(0, 2)], inserts: [ip(0, 2)]).plan(sectionCounts: [4, 1])
        #expect(replaced.apply(to: heights) { _ in 200 } == heights)
        #expect(replaced.newIndexPath(forOld: ip(0, 2)) == nil && replaced.newIndexPath(forOld: ip(0, 3)) == ip(0, 3))
    }

    @Test(arguments: [
        (BatchUpdates(deletes: [IndexPath(item: 4, section: 0)]),
         BatchUpdateError.outOfRange(IndexPath(item: 4, section: 0), operation: "delete", before: true, count: 4)),
        (BatchUpdates(inserts: [IndexPath(item: 5, section: 0)]),
         BatchUpdateError.outOfRange(IndexPath(item: 5, section: 0), operation: "insert", before: false, count: 5)),
        (BatchUpdates(inserts: [IndexPath(item: 0, section: 1)]),
         BatchUpdateError.outOfRange(IndexPath(item: 0, section: 1), operation: "insert", before: false, count: nil)),
        (BatchUpdates(deletes: [IndexPath(item: 1, section: 0)],
                      moves: [.init(from: IndexPath(item: 1, section: 0), to: IndexPath(item: 0, section: 0))]),
         BatchUpdateError.usedTwice(IndexPath(item: 1, section: 0), operation: "move", before: true)),
        (BatchUpdates(inserts: [IndexPath(item: 0, section: 0), IndexPath(item: 0, section: 0)]),
         BatchUpdateError.usedTwice(IndexPath(item: 0, section: 0), operation: "insert", before: false)),
    ])
    func invalidBatchesThrow(batch: BatchUpdates, expected: BatchUpdateError) {
        #expect(throws: expected) { try batch.plan(sectionCounts: [4]) }
    }

    @Test func emptyBatchIsTheIdentity() throws {
        let plan = try BatchUpdates().plan(sectionCounts: [3, 0, 2])
        #expect(BatchUpdates().isEmpty && plan.newCounts == [3, 0, 2])
        #expect(plan.newIndexPath(forOld: ip(2, 1)) == ip(2, 1))
        #expect(plan.newIndexPath(forOld: ip(1, 0)) == nil && plan.oldIndexPath(forNew: ip(5, 0)) == nil)
    }
}

extension BatchUpdatePlan {
    /// The new index path of the item at `old`, by a scan of `sources`; `nil` when deleted or
    /// out of range.
    func newIndexPath(forOld old: IndexPath) -> IndexPath? {
        for (s, section) in sources.enumerated() {
            for (i, source) in section.enumerated() where source == .old(old) { return IndexPath(item: i, section: s) }
        }
        return nil
    }
}

extension BatchUpdates {
    /// Whether the batch changes nothing.
    var isEmpty: Bool { deletes.isEmpty && inserts.isEmpty && moves.isEmpty }
}
