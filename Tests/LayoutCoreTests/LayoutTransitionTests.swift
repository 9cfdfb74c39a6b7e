import Testing
@testable import LayoutCore

#if canImport(Glibc)
import Glibc
#endif

/// Interpolating two layouts as UIKit animates a layout change or a batch update.
struct LayoutTransitionTests {
    /// Seed 002 on 375 × 400: the stack (8 items, 150×150, angles 0…60) and the circle
    /// (radius 100, 60×60, counterclockwise from 3 o'clock) around (187.5, 200).
    let bounds = Size(width: 375, height: 400)
    func ip(_ i: Int) -> IndexPath { IndexPath(item: i, section: 0) }

    func stack(_ n: Int = 8) throws -> CollectionLayout { try StackLayout().layout(.uniform(count: n), bounds: bounds) }
    func circle(_ n: Int = 8) throws -> CollectionLayout { try CircleLayout().layout(.uniform(count: n), bounds: bounds) }

    func expectTransform(_ t: AffineTransform, _ a: Double, _ b: Double, _ c: Double, _ d: Double,
                         sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(close(t.a, a, 1e-9) && close(t.b, b, 1e-9) && close(t.c, c, 1e-9) && close(t.d, d, 1e-9)
                && t.tx == 0 && t.ty == 0, "\(t) != [\(a), \(b), \(c), \(d)]", sourceLocation: sourceLocation)
    }

    @Test func endsEqualTheTwoLayoutsExactly() throws {
        let from = try stack(), to = try circle()
        let transition = try LayoutTransition(from: from, to: to)
        #expect(transition.elements(at: 0) == from.elements)
        #expect(transition.elements(at: 1) == to.elements)
        #expect(transition.geometry(at: 0).contentSize == from.contentSize)
        #expect(transition.elements.allSatisfy { $0.change == .stay })
        // Different counts: the extra items appear / disappear, and the ends stay exact.
        let circle5 = try circle(5), stack8 = try stack(8)
        let grow = try LayoutTransition(from: circle5, to: stack8)
        #expect(grow.elements(at: 0) == circle5.elements)
        #expect(grow.elements(at: 1) == stack8.elements)
        #expect(grow.elements.filter { $0.change == .appear }.map(\.toIndexPath) == [ip(5), ip(6), ip(7)])
        let shrink = try LayoutTransition(from: stack8, to: circle5)
        #expect(shrink.elements(at: 0) == stack8.elements)
        #expect(shrink.elements(at: 1) == circle5.elements)
    }

    @Test func stackToCircleAtHalfway() throws {
        let transition = try LayoutTransition(from: try stack(), to: try circle())
        let half = transition.elements(at: 0.5)
        // Item 4: centre (187.5, 200) → 180° on the circle (87.5, 200): (137.5, 200); size
        // 150 → 60: 105; rotation 60° → 0°: 30°; zIndex 8 − 4 = 4 before 0.5, 0 from 0.5.
        let four = half[4]
        expectPoint(four.center, 137.5, 200)
        #expect(close(four.size.width, 105) && close(four.size.height, 105))
        expectTransform(four.transform, cos(.pi / 6), 0.5, -0.5, cos(.pi / 6))
        #expect(four.zIndex == 0 && four.alpha == 1 && !four.isHidden)
        #expect(transition.elements[4].attributes(at: 0.49).zIndex == 4)
        // Item 6, hidden in the stack, fades in: alpha 0.5, not hidden, identity transform.
        let six = half[6]
        #expect(close(six.alpha, 0.5, 1e-12) && !six.isHidden && six.transform == .identity)
        // Item 2 (30° → 0°, centre → 90° counterclockwise = (187.5, 100)).
        expectPoint(half[2].center, 187.5, 150)
        expectTransform(half[2].transform, cos(.pi / 12), sin(.pi / 12), -sin(.pi / 12), cos(.pi / 12))
        // Backwards: hidden at the end, fading out.
        let back = try LayoutTransition(from: try circle(), to: try stack()).elements(at: 0.25)
        #expect(close(back[6].alpha, 0.75, 1e-12) && !back[6].isHidden)
    }

    @Test func rotationTakesTheShorterWay() throws {
        func element(_ a: Double, _ b: Double) -> TransitionElement {
            var x = LayoutAttributes.cell(ip(0), frame: Rect(x: 0, y: 0, width: 10, height: 10))
            var y = x
            x.transform = AffineTransform(rotationDegrees: a)
            y.transform = AffineTransform(rotationDegrees: b)
            return TransitionElement(change: .stay, fromIndexPath: ip(0), toIndexPath: ip(0), initial: x, final: y)
        }
        // 350° → 10°: through 0°, not through 180°.
        expectTransform(element(350, 10).attributes(at: 0.5).transform, 1, 0, 0, 1)
        // 170° → −170°: through 180°.
        expectTransform(element(170, -170).attributes(at: 0.5).transform, -1, 0, 0, -1)
        // −100° → 100° (200° apart): the other way, through 180°.
        expectTransform(element(-100, 100).attributes(at: 0.5).transform, -1, 0, 0, -1)
        // Exactly half a turn goes clockwise: 0° → 180° passes 90°.
        expectTransform(element(0, 180).attributes(at: 0.5).transform, 0, 1, -1, 0)
    }

    @Test func scaleAndRotationInterpolateSeparately() {
        // identity → scale 2 rotated 90°: at 0.5, scale 1.5 rotated 45°.
        let end = TransformComponents(rotation: 90, scaleX: 2, scaleY: 2).transform
        #expect(end == AffineTransform(a: 0, b: 2, c: -2, d: 0, tx: 0, ty: 0))
        let half = TransformComponents(decomposing: .identity)
            .interpolated(to: TransformComponents(decomposing: end), progress: 0.5).transform
        let r = 1.5 * (0.5).squareRoot()
        expectTransform(half, r, r, -r, r)
        // Decomposition round-trips scale, rotation, shear and translation.
        let t = AffineTransform(a: 1.2, b: 0.7, c: -0.3, d: 2.1, tx: 5, ty: -4)
        let back = TransformComponents(decomposing: t).transform
        for (x, y) in zip(back.components, t.components) { #expect(close(x, y, 1e-12)) }
        #expect(TransformComponents(decomposing: AffineTransform(scaleX: 0, y: 0)).transform.isFinite)
    }

    /// Scales past 1.3e154 (whose squares overflow) and below 1e-154 (whose squares
    /// underflow) decompose to themselves: a uniform 1e200 became [0, 0, 0, 0.5] halfway to
    /// the identity. Found by a tester.
    @Test func hugeAndTinyScalesDecompose() {
        for scale in [1e200, 1e-200, 1e308] {
            let parts = TransformComponents(decomposing: AffineTransform(scaleX: scale, y: scale))
            #expect(parts.scaleX == scale && parts.scaleY == scale && parts.rotation == 0 && parts.shear == 0, "\(scale)")
        }
        let half = TransformComponents(decomposing: AffineTransform(scaleX: 1e200, y: 1e200))
            .interpolated(to: TransformComponents(decomposing: .identity), progress: 0.5).transform
        expectTransform(half, 5e199, 0, 0, 5e199)
        for (dx, dy, length) in [(3e-200, 4e-200, 5e-200), (3e200, 4e200, 5e200), (3.0, 4.0, 5.0)] {
            #expect(abs(Point.length(dx, dy) / length - 1) < 1e-15, "\(dx), \(dy)")
        }
        #expect(Point.length(0, 0) == 0)
    }

    @Test func deletingFromTheCircle() throws {
        // Seed 002: tapping item 3 of the circle deletes it.
        let plan = try BatchUpdates(deletes: [ip(3)]).plan(sectionCounts: [8])
        let from = try circle(8), to = try circle(7)
        let transition = try LayoutTransition(from: from, to: to, updatePlan: plan)
        #expect(transition.elements.map(\.change) == [.stay, .stay, .stay, .move, .move, .move, .move, .disappear])
        let half = transition.elements(at: 0.5)
        #expect(half.count == 8)
        // The deleted item fades where it was.
        #expect(half[7].indexPath == ip(3) && half[7].frame == from.elements[3].frame && half[7].alpha == 0.5)
        // Old 0:4 (new 0:3) moves from its old place to its new one.
        let c = from.elements[4].center.midpoint(to.elements[3].center)
        expectPoint(half[3].center, c.x, c.y)
        #expect(half[3].indexPath == ip(3) && transition.elements[3].fromIndexPath == ip(4))
        #expect(transition.elements(at: 0) == from.elements)
        #expect(transition.elements(at: 1) == to.elements)
        // Mismatched counts are refused.
        let circle8 = try circle(8)
        #expect(throws: LayoutError.self) { try LayoutTransition(from: from, to: circle8, updatePlan: plan) }
    }

    @Test func insertingFadesInWhereItLands() throws {
        let plan = try BatchUpdates(inserts: [ip(0)]).plan(sectionCounts: [3])
        let from = try circle(3), to = try circle(4)
        let transition = try LayoutTransition(from: from, to: to, updatePlan: plan)
        #expect(transition.elements[0].change == .appear)
        let quarter = transition.elements[0].attributes(at: 0.25)
        #expect(quarter.frame == to.elements[0].frame && quarter.alpha == 0.25)
        #expect(transition.elements(at: 0).count == 3 && transition.elements(at: 1) == to.elements)
    }

    @Test func progressIsClamped() throws {
        let from = try stack(), to = try circle()
        let transition = try LayoutTransition(from: from, to: to)
        #expect(transition.elements(at: -1) == from.elements)
        #expect(transition.elements(at: 2) == to.elements)
        #expect(transition.elements(at: 0.3).allSatisfy { $0.isFinite })
    }
}

extension LayoutTransition {
    /// The elements present at `progress` with their attributes then.
    func elements(at progress: Double) -> [LayoutAttributes] {
        elementPositions(at: progress).map { elements[$0].attributes(at: progress) }
    }
}
