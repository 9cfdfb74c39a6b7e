import FastText
import LayoutCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The samples between keyframes of a scrolling SVG: when the moment between two samples
/// needs a sample of its own, the bounds of the work, and the estimated document.
extension ScrollSVGWriter {
    /// How far, points, a drawn box or the offset may be from the straight line between two
    /// samples before the moment between them becomes a sample of its own. Refining where the
    /// middle strays by less than this keeps every moment within twice it (0.5 pt): at a kink
    /// (the line layout's scale reaching its floor) the middle strays at least half as much as
    /// the worst moment.
    public static let refinementTolerance = 0.25
    /// The bounds of an animation's work and size, so that every scroll, however long and
    /// whatever the element count, finishes in seconds with a bounded document.
    public struct Limits: Sendable, Equatable {
        /// How many elements the samples between keyframes may lay out in all (samples × n).
        public var sampleWork: Int
        /// How many elements the keyframes of a layout that moves with the offset may lay
        /// out in all (keyframes × n); more is refused (`TooLarge`).
        public var keyframeWork: Int
        /// The most samples an animation has, keyframes included (so the most values any one
        /// element's animation holds), whatever the element count: with few elements or
        /// none, the samples no longer grow with the scroll's length.
        public var maximumSamples: Int
        /// The estimated document (`estimatedChangeBytes`, `estimatedScreenBytes`) past which
        /// no sample is added between keyframes.
        public var refinementBytes: Int
        /// The estimated document past which the animation is refused (`TooLarge`).
        public var maximumBytes: Int

        /// Sets every bound.
        public init(sampleWork: Int, keyframeWork: Int, maximumSamples: Int, refinementBytes: Int, maximumBytes: Int) {
            self.sampleWork = sampleWork
            self.keyframeWork = keyframeWork
            self.maximumSamples = maximumSamples
            self.refinementBytes = refinementBytes
            self.maximumBytes = maximumBytes
        }

        /// 2·10⁷ elements between keyframes, 2·10⁷ for the keyframes, 100,000 samples, 32 MiB
        /// estimated before the samples between keyframes stop, 256 MiB before refusal.
        public static let standard = Limits(sampleWork: 20_000_000, keyframeWork: 20_000_000, maximumSamples: 100_000,
                                            refinementBytes: 32 << 20, maximumBytes: 256 << 20)
    }

    /// What a write did (`write(statistics:)`).
    public final class Statistics {
        /// Samples taken, keyframes included.
        public var samples = 0
        /// The document's estimated size past the still picture, bytes: at least the
        /// animations and their key times (the estimate is generous).
        public var estimatedBytes = 0
        /// An empty record.
        public init() {}
    }

    /// A generous estimate of what a sample adds to the document for the screen: its x and
    /// y (and, with `viewBox`, the animated viewBox's four numbers), each with a key time.
    static func estimatedScreenBytes(_ screen: Rect, viewBox: Bool, precision: NumberPrecision) -> Int {
        let x = textLength(screen.minX, precision), y = textLength(screen.minY, precision)
        var total = 2 * keyTimeBytes + x + y + 2
        if viewBox {
            total += keyTimeBytes + x + y + textLength(screen.width, precision) + textLength(screen.height, precision) + 4
        }
        return total
    }

    /// A generous estimate of what one change of an element adds: the element's values at
    /// two samples (the change and the one before) in each of the up to 16 animations of an
    /// element that changes, each with a key time; points at `precision`, factors at full.
    static func estimatedChangeBytes(_ e: LayoutAttributes, precision: NumberPrecision) -> Int {
        let points = 3 * (textLength(e.center.x + e.transform.tx, precision) + textLength(e.center.y + e.transform.ty, precision))
            + 4 * (textLength(e.size.width, precision) + textLength(e.size.height, precision))
        let factors = 3 * (textLength(e.alpha, .full) + textLength(e.transform.a, .full) + textLength(e.transform.b, .full)
            + textLength(e.transform.c, .full) + textLength(e.transform.d, .full))
        return 2 * (16 * (keyTimeBytes + 2) + points + factors)
    }

    /// A key time at full precision and its separator, at most.
    static let keyTimeBytes = 24

    /// At least the length of `value` as written at `precision` (no exponent: 1e300 is 301
    /// digits, 1e-300 at full precision 300 zeros and its digits).
    static func textLength(_ value: Double, _ precision: NumberPrecision) -> Int {
        let m = value.magnitude
        guard m.isFinite else { return 24 }
        let integerDigits = m < 10 ? 1 : Int(log10(m)) + 2
        switch precision {
        case .decimals(let d): return integerDigits + d + 2
        case .full:
            let leadingZeros = m > 0 && m < 1 ? Int(-log10(m)) + 1 : 0
            return integerDigits + leadingZeros + 19
        }
    }

    /// Whether `middle` is, to `refinementTolerance`, what SMIL draws halfway between `a` and
    /// `b`: the offset, and each element's drawn box (its transformed frame's bounding box),
    /// SMIL interpolating centre, size, rotation, shear and scale linearly. Elements hidden at
    /// either end are not compared (they switch at a sample).
    /// - Complexity: O(n).
    static func isHalfway(_ middle: CollectionLayout, between a: CollectionLayout, and b: CollectionLayout,
                          tolerance: Double = refinementTolerance) -> Bool {
        let o = middle.contentOffset, oa = a.contentOffset, ob = b.contentOffset
        guard abs(o.x - (oa.x / 2 + ob.x / 2)) < tolerance && abs(o.y - (oa.y / 2 + ob.y / 2)) < tolerance else { return false }
        // A layout that did not move (the same elements, shared storage): nothing strays.
        if middle.elements == a.elements && a.elements == b.elements { return true }
        for i in middle.elements.indices {
            let m = middle.elements[i], ea = a.elements[i], eb = b.elements[i]
            if ea.isHidden || eb.isHidden || m.isHidden { continue }
            let drawn: Rect
            if ea == eb {
                if m == ea { continue }
                drawn = box(ea.frame, ea.transform)
            } else {
                let pa = TransformComponents(decomposing: ea.transform), pb = TransformComponents(decomposing: eb.transform)
                var halfway = pa.interpolated(to: pb, progress: 0.5)
                halfway.tx = 0
                halfway.ty = 0
                let centre = Point(x: (ea.center.x + pa.tx + eb.center.x + pb.tx) / 2,
                                   y: (ea.center.y + pa.ty + eb.center.y + pb.ty) / 2)
                let size = Size(width: (ea.size.width + eb.size.width) / 2, height: (ea.size.height + eb.size.height) / 2)
                drawn = box(Rect(x: centre.x - size.width / 2, y: centre.y - size.height / 2, width: size.width,
                                 height: size.height), halfway.transform)
            }
            let actual = box(m.frame, m.transform)
            if abs(drawn.minX - actual.minX) >= tolerance || abs(drawn.minY - actual.minY) >= tolerance
                || abs(drawn.maxX - actual.maxX) >= tolerance || abs(drawn.maxY - actual.maxY) >= tolerance {
                return false
            }
        }
        return true
    }

    /// The bounding box of `frame` under `t` applied about its centre.
    private static func box(_ frame: Rect, _ t: AffineTransform) -> Rect {
        let cx = frame.midX + t.tx, cy = frame.midY + t.ty
        let hw = (abs(t.a) * frame.width + abs(t.c) * frame.height) / 2
        let hh = (abs(t.b) * frame.width + abs(t.d) * frame.height) / 2
        return Rect(minX: cx - hw, minY: cy - hh, maxX: cx + hw, maxY: cy + hh)
    }
}
