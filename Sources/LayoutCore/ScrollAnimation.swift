// The content offsets of a scroll shown as an animation (`--scroll-to`), snapping or not.

/// How the content offset moves between two keyframed offsets (`--timing`).
public enum ScrollTiming: String, Sendable, CaseIterable {
    /// e(u) = u: constant speed.
    case linear
    /// e(u) = 1 − (1 − u)³: decelerating, as a scroll view. Default.
    case easeOut = "ease-out"

    /// The fraction of the way covered at the fraction `u` (0…1) of the time.
    public func progress(_ u: Double) -> Double {
        self == .linear ? u : 1 - (1 - u) * (1 - u) * (1 - u)
    }
}

/// A scroll in `frameCount` keyframes equally spaced over `duration`, keyframe k at
/// `start + (end − start)·e(k/(N−1))`; with a `target` (`--snap`) keyframe K = `proposedKeyframe` is
/// `end`, and K…N−1 go on to the target, each leg timed over its own keyframes, its ends exact.
public struct ScrollAnimation: Sendable, Equatable {
    /// The content offset at the first keyframe (`--offset`), points.
    public var start: Point
    /// The content offset the scroll is taken to (`--scroll-to`), points.
    public var end: Point
    /// Where a snapping scroll settles after `end` (`--snap`), points; `nil`: no snapping.
    public var target: Point?
    /// Keyframes, `minimumFrameCount`…1,000. Default 60.
    public var frameCount: Int
    /// Seconds from the first keyframe to the last, finite and > 0. Default 2.
    public var duration: Double
    /// How the offset moves between keyframes. Default `.easeOut`.
    public var timing: ScrollTiming

    /// The most keyframes an animation may have.
    public static let maximumFrameCount = 1000

    /// A scroll from `start` to `end`; see the properties for the defaults.
    public init(start: Point, end: Point, target: Point? = nil, frameCount: Int = 60, duration: Double = 2,
                timing: ScrollTiming = .easeOut) {
        self.start = start
        self.end = end
        self.target = target
        self.frameCount = frameCount
        self.duration = duration
        self.timing = timing
    }

    /// The fewest keyframes allowed: 2, or 3 with a target.
    public var minimumFrameCount: Int { target == nil ? 2 : 3 }

    /// The keyframe at `end`: round(0.7·(N−1)), halves up, in integers, when snapping; else the last.
    public var proposedKeyframe: Int {
        target == nil ? frameCount - 1 : (7 * (frameCount - 1) + 5) / 10
    }

    /// `a + (b − a)·e`, or `a·(1 − e) + b·e` when `b − a` overflows (ends near ±1.8e308).
    static func interpolate(_ a: Point, _ b: Point, _ e: Double) -> Point {
        func one(_ a: Double, _ b: Double) -> Double {
            let d = b - a
            return d.isFinite ? a + d * e : a * (1 - e) + b * e
        }
        return Point(x: one(a.x, b.x), y: one(a.y, b.y))
    }

    /// Each keyframe's time as a fraction of the duration, k/(N−1). - Complexity: O(N).
    public var keyTimes: [Double] {
        let last = Double(frameCount - 1)
        return (0..<frameCount).map { Double($0) / last }
    }

    /// The content offset at the fraction `u` (0…1) of the duration (keyframe K's time splits
    /// the legs); `offsets` gives the keyframes exactly.
    public func offset(atTime u: Double) -> Point {
        func between(_ a: Point, _ b: Point, _ fraction: Double) -> Point {
            Self.interpolate(a, b, timing.progress(min(max(fraction, 0), 1)))
        }
        guard let target else { return between(start, end, u) }
        let split = Double(proposedKeyframe) / Double(frameCount - 1)
        return u <= split ? between(start, end, u / split) : between(end, target, (u - split) / (1 - split))
    }

    /// The content offset at each keyframe. - Precondition: `frameCount` ≥ `minimumFrameCount`.
    public var offsets: [Point] {
        precondition(frameCount >= minimumFrameCount, "a scroll needs \(minimumFrameCount) keyframes")
        func leg(from a: Point, to b: Point, frames: Range<Int>) -> [Point] {
            let span = Double(frames.count - 1)
            return frames.map { k in
                if k == frames.lowerBound { return a }
                if k == frames.upperBound - 1 { return b }
                return Self.interpolate(a, b, timing.progress(Double(k - frames.lowerBound) / span))
            }
        }
        guard let target else { return leg(from: start, to: end, frames: 0..<frameCount) }
        let k = proposedKeyframe
        return leg(from: start, to: end, frames: 0..<k + 1) + leg(from: end, to: target, frames: k..<frameCount).dropFirst()
    }
}
