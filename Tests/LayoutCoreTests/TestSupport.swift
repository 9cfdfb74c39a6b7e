import Testing
@testable import LayoutCore

extension AffineTransform {
    /// The six entries in `[a, b, c, d, tx, ty]` order.
    var components: [Double] { [a, b, c, d, tx, ty] }
}

/// Compares within 0.001 pt, the tolerance the project promises.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 0.001) -> Bool { abs(a - b) <= tolerance }

func expectFrame(_ attributes: LayoutAttributes?, _ x: Double, _ y: Double, _ w: Double, _ h: Double,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    guard let f = attributes?.frame else {
        Issue.record("missing element", sourceLocation: sourceLocation)
        return
    }
    #expect(close(f.minX, x) && close(f.minY, y) && close(f.width, w) && close(f.height, h),
            "frame \(f) != (\(x), \(y), \(w), \(h))", sourceLocation: sourceLocation)
}

/// Expects as many `elements` as `frames`, each with the frame (x, y, width, height) given
/// for it, within 0.001 pt.
func expectFrames(_ elements: [LayoutAttributes], _ frames: [(Double, Double, Double, Double)],
                  sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(elements.count == frames.count, "\(elements.count) elements", sourceLocation: sourceLocation)
    for (element, f) in zip(elements, frames) {
        expectFrame(element, f.0, f.1, f.2, f.3, sourceLocation: sourceLocation)
    }
}

func expectPoint(_ p: Point?, _ x: Double, _ y: Double, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let p else {
        Issue.record("missing point", sourceLocation: sourceLocation)
        return
    }
    #expect(close(p.x, x) && close(p.y, y), "point \(p) != (\(x), \(y))", sourceLocation: sourceLocation)
}

/// Random cases that are mostly ordinary: `values[0]` half the time, else any of `values`.
func pickMostlyFirst<T>(_ values: [T], _ random: inout SplitMix64) -> T {
    random.next() % 2 == 0 ? values[0] : values[Int(random.next() % UInt64(values.count))]
}

/// What a verdict that a layout's elements are all finite said over random cases.
struct VerdictTally {
    var vouched = 0, refused = 0

    /// Counts one verdict on a layout already checked element by element into `check`: when
    /// it vouches, `check` must have found no non-finite element; when it refuses, `mayRefuse`
    /// must hold. Returns whether it vouched.
    @discardableResult
    mutating func record(vouches: Bool, check: FiniteCheckSink, mayRefuse: Bool = true, _ comment: Comment? = nil,
                         sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if vouches {
            vouched += 1
            #expect(check.firstNonFinite == nil, comment, sourceLocation: sourceLocation)
        } else {
            refused += 1
            #expect(mayRefuse, comment, sourceLocation: sourceLocation)
        }
        return vouches
    }
}

/// Runs `round` for rounds 0..<`rounds` with one generator seeded `seed` and one tally, then
/// expects more than `vouched` verdicts that vouched and more than `refused` that refused.
func tallyVerdicts(rounds: Int, seed: UInt64, moreThan vouched: Int, _ refused: Int,
                   sourceLocation: SourceLocation = #_sourceLocation,
                   _ round: (Int, inout SplitMix64, inout VerdictTally) throws -> Void) rethrows {
    var random = SplitMix64(seed: seed), tally = VerdictTally()
    for r in 0..<rounds { try round(r, &random, &tally) }
    #expect(tally.vouched > vouched && tally.refused > refused, "vouched \(tally.vouched), refused \(tally.refused)",
            sourceLocation: sourceLocation)
}
