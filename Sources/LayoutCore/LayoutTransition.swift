// Animating from one layout to another as UIKit does for
// setCollectionViewLayout(_:animated:) (seeds 002, 003, 004) and for the item updates of
// performBatchUpdates (seeds 000, 002): every element's attributes interpolated between the
// two layouts.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An affine transform split into the parts UIKit (Core Animation) interpolates separately:
/// `M = R(rotation) · [[scaleX, shear·scaleY], [0, scaleY]]` (columns: where the x and y axes
/// go) plus the translation `(tx, ty)`. A rotation by θ is `(θ, 1, 1, 0)`, a scale `(0, sx,
/// sy, 0)`; a flip shows as a negative `scaleY`.
public struct TransformComponents: Hashable, Sendable {
    /// Rotation, degrees, screen convention (positive turns clockwise), in (−180, 180].
    public var rotation: Double
    /// Length of the transformed x axis.
    public var scaleX: Double
    /// Signed extent of the transformed y axis across the x axis (negative for a flip).
    public var scaleY: Double
    /// Shear factor of y along x (0 for rotations and scales).
    public var shear: Double
    /// Translation, points.
    public var tx: Double, ty: Double

    /// Decomposes `t` (QR decomposition of its linear part). A zero x axis gives rotation 0;
    /// a zero `scaleY` gives shear 0. Any finite transform decomposes into finite parts
    /// (`scaleX` is `Point.length(a, b)`). - Complexity: O(1).
    public init(decomposing t: AffineTransform) {
        scaleX = Point.length(t.a, t.b)  // no overflow past 1.3e154, no underflow below 1e-154
        let radians = scaleX > 0 ? atan2(t.b, t.a) : 0
        let degrees = radians * 180 / Double.pi
        rotation = degrees == -180 ? 180 : (degrees == 0 ? 0 : degrees)
        let (s, c) = scaleX > 0 ? (t.b / scaleX, t.a / scaleX) : (0, 1)
        // The y axis rotated back by −θ: (shear·scaleY, scaleY).
        let along = t.c * c + t.d * s
        scaleY = -t.c * s + t.d * c
        shear = scaleY != 0 ? along / scaleY : 0
        tx = t.tx
        ty = t.ty
    }

    /// Creates components directly.
    public init(rotation: Double, scaleX: Double, scaleY: Double, shear: Double = 0, tx: Double = 0, ty: Double = 0) {
        self.rotation = rotation
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.shear = shear
        self.tx = tx
        self.ty = ty
    }

    /// The recomposed transform (exact sines and cosines at multiples of 90°).
    public var transform: AffineTransform {
        let (s, c) = sinCos(degrees: rotation)
        return AffineTransform(a: scaleX * c, b: scaleX * s,
                               c: shear * scaleY * c - scaleY * s, d: shear * scaleY * s + scaleY * c,
                               tx: tx, ty: ty)
    }

    /// The rotation change from `self` to `other` along the shorter way, degrees, in
    /// (−180, 180] (exactly half a turn: +180, clockwise).
    public func rotationChange(to other: TransformComponents) -> Double {
        var change = (other.rotation - rotation).truncatingRemainder(dividingBy: 360)
        if change > 180 { change -= 360 }
        if change <= -180 { change += 360 }
        return change
    }

    /// Every component interpolated linearly at `progress`, the rotation along the shorter way.
    public func interpolated(to other: TransformComponents, progress t: Double) -> TransformComponents {
        func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        var angle = rotation + rotationChange(to: other) * t
        if angle > 180 { angle -= 360 }
        if angle <= -180 { angle += 360 }
        return TransformComponents(rotation: angle, scaleX: lerp(scaleX, other.scaleX),
                                   scaleY: lerp(scaleY, other.scaleY), shear: lerp(shear, other.shear),
                                   tx: lerp(tx, other.tx), ty: lerp(ty, other.ty))
    }
}

/// How an element takes part in a transition.
public enum TransitionChange: String, Sendable, CaseIterable {
    /// In both layouts under the same index path.
    case stay
    /// In both layouts under different index paths (a batch update shifted or moved it).
    case move
    /// Only in the final layout: fades in where it lands (inserted, or new in that layout).
    case appear
    /// Only in the initial layout: fades out where it was (deleted, or absent from that layout).
    case disappear
}

/// One element of a transition: its attributes at the start (progress 0) and at the end
/// (progress 1), UIKit's initial and final layout attributes.
public struct TransitionElement: Hashable, Sendable {
    /// How the element takes part.
    public var change: TransitionChange
    /// Its index path in the initial layout (`nil` when it appears).
    public var fromIndexPath: IndexPath?
    /// Its index path in the final layout (`nil` when it disappears).
    public var toIndexPath: IndexPath?
    /// Attributes at progress 0. An appearing element starts as its final attributes with
    /// alpha 0 (`initialLayoutAttributesForAppearingItem`), unless it is hidden there too.
    public var initial: LayoutAttributes
    /// Attributes at progress 1. A disappearing element ends as its initial attributes with
    /// alpha 0 (`finalLayoutAttributesForDisappearingItem`), unless it was hidden.
    public var final: LayoutAttributes

    /// Creates an element.
    public init(change: TransitionChange, fromIndexPath: IndexPath?, toIndexPath: IndexPath?,
                initial: LayoutAttributes, final: LayoutAttributes) {
        self.change = change
        self.fromIndexPath = fromIndexPath
        self.toIndexPath = toIndexPath
        self.initial = initial
        self.final = final
    }

    /// The attributes at `progress` (0…1, clamped), as UIKit animates them.
    ///
    /// Progress 0 gives `initial` and progress 1 gives `final`, exactly. In between: centre,
    /// size and alpha linearly; the transform decomposed (`TransformComponents`) and each part
    /// linearly, the rotation along the shorter way; a hidden element counts as alpha 0, so an
    /// element hidden at one end fades (it is hidden only when hidden at both ends, and then
    /// keeps its own alphas); the zIndex is the initial one before 0.5 and the final one from
    /// 0.5 on. The index path is the final one (the initial one for a disappearing element).
    /// - Complexity: O(1).
    public func attributes(at progress: Double) -> LayoutAttributes {
        precondition(!progress.isNaN, "progress must be a number")
        let t = min(max(progress, 0), 1)
        if t == 0 { return initial }
        if t == 1 { return final }
        let a = initial, b = final
        func lerp(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        let center = Point(x: lerp(a.center.x, b.center.x), y: lerp(a.center.y, b.center.y))
        let size = Size(width: lerp(a.size.width, b.size.width), height: lerp(a.size.height, b.size.height))
        let hidden = a.isHidden && b.isHidden
        let alpha = hidden ? lerp(a.alpha, b.alpha) : lerp(a.isHidden ? 0 : a.alpha, b.isHidden ? 0 : b.alpha)
        let transform: AffineTransform
        if a.transform == b.transform {
            transform = a.transform
        } else {
            transform = TransformComponents(decomposing: a.transform)
                .interpolated(to: TransformComponents(decomposing: b.transform), progress: t).transform
        }
        return LayoutAttributes(indexPath: toIndexPath ?? fromIndexPath ?? b.indexPath, category: b.category,
                                kind: b.kind, frame: Rect(center: center, size: size), transform: transform,
                                alpha: alpha, zIndex: t < 0.5 ? a.zIndex : b.zIndex, isHidden: hidden)
    }
}

/// A transition from one computed layout to another: every element of either, matched by
/// category, kind and index path — cells through a batch update's index-path mapping when one
/// is given, as `performBatchUpdates` animates — with its initial and final attributes.
///
/// Elements come in the final layout's element order, then the disappearing ones in the
/// initial layout's order. `elements(at:)` gives the attributes at any progress.
///
/// With the seed 002 stack (8 items, angles 0…60) going to the seed 002 circle, item 4 turns
/// from 60° to 0° (30° at progress 0.5) while moving from the centre to its place on the
/// circle; items 5…7, hidden in the stack, fade in as they move.
public struct LayoutTransition: Sendable {
    /// The layout at progress 0.
    public let from: CollectionLayout
    /// The layout at progress 1.
    public let to: CollectionLayout
    /// The batch update animated, if any (its plan maps the cells' index paths).
    public let updatePlan: BatchUpdatePlan?
    /// Every element, in the final layout's order, then the disappearing ones.
    public let elements: [TransitionElement]
    /// Positions in `elements` of the initial layout's elements, in its element order.
    public let initialOrder: [Int]

    /// Matches the elements of `from` and `to`.
    /// - Parameters:
    ///   - updatePlan: the batch update between the two (its old counts must be `from`'s and its
    ///     new counts `to`'s): cells match through it; supplementary and decoration views
    ///     match by kind and index path. `nil`: every element matches by index path.
    /// - Throws: `LayoutError.updateDoesNotFit` when `updatePlan` does not fit
    ///   the item counts of the two layouts.
    /// - Complexity: O(n) expected (hashing), n elements in both layouts.
    public init(from: CollectionLayout, to: CollectionLayout, updatePlan: BatchUpdatePlan? = nil) throws {
        if let updatePlan {
            let fromCounts = (0..<from.numberOfSections).map { from.numberOfItems(inSection: $0) }
            let toCounts = (0..<to.numberOfSections).map { to.numberOfItems(inSection: $0) }
            guard fromCounts == updatePlan.oldCounts else {
                throw LayoutError.updateDoesNotFit(final: false, items: fromCounts.reduce(0, +))
            }
            guard toCounts == updatePlan.newCounts else {
                throw LayoutError.updateDoesNotFit(final: true, items: toCounts.reduce(0, +))
            }
        }
        self.from = from
        self.to = to
        self.updatePlan = updatePlan

        struct Key: Hashable {
            var category: ElementCategory
            var kind: ElementKind?
            var indexPath: IndexPath
        }
        var fromPositions: [Key: Int] = [:]
        fromPositions.reserveCapacity(from.elements.count)
        for (i, e) in from.elements.enumerated() {
            fromPositions[Key(category: e.category, kind: e.kind, indexPath: e.indexPath)] = i
        }
        var matched = [Bool](repeating: false, count: from.elements.count)
        var fromElementAt = [Int](repeating: -1, count: from.elements.count)
        var elements: [TransitionElement] = []
        elements.reserveCapacity(max(from.elements.count, to.elements.count))
        for final in to.elements {
            var oldPath: IndexPath? = final.indexPath
            if let updatePlan, final.category == .cell {
                oldPath = updatePlan.oldIndexPath(forNew: final.indexPath)
            }
            if let oldPath, let i = fromPositions[Key(category: final.category, kind: final.kind, indexPath: oldPath)],
               !matched[i] {
                matched[i] = true
                fromElementAt[i] = elements.count
                elements.append(TransitionElement(change: oldPath == final.indexPath ? .stay : .move,
                                                  fromIndexPath: oldPath, toIndexPath: final.indexPath,
                                                  initial: from.elements[i], final: final))
            } else {
                var initial = final
                initial.alpha = final.isHidden ? final.alpha : 0  // hidden throughout: nothing fades
                elements.append(TransitionElement(change: .appear, fromIndexPath: nil, toIndexPath: final.indexPath,
                                                  initial: initial, final: final))
            }
        }
        for (i, initial) in from.elements.enumerated() where !matched[i] {
            var final = initial
            final.alpha = initial.isHidden ? initial.alpha : 0  // hidden throughout: nothing fades
            fromElementAt[i] = elements.count
            elements.append(TransitionElement(change: .disappear, fromIndexPath: initial.indexPath, toIndexPath: nil,
                                              initial: initial, final: final))
        }
        self.elements = elements
        initialOrder = fromElementAt
    }

    /// The positions in `elements` present at `progress`, in output order: at 0 the initial
    /// layout's elements in its order (appearing ones are not there yet), at 1 the final
    /// layout's in its order (disappearing ones are gone), in between all of them.
    /// - Complexity: O(n).
    public func elementPositions(at progress: Double) -> [Int] {
        if progress <= 0 { return initialOrder }
        if progress >= 1 { return elements.indices.filter { elements[$0].change != .disappear } }
        return Array(elements.indices)
    }

    /// The elements present at `progress`, with their attributes then (`elementPositions(at:)`,
    /// `TransitionElement.attributes(at:)`): at 0 exactly the initial layout's elements, at 1
    /// exactly the final layout's. - Complexity: O(n).
    public func elements(at progress: Double) -> [LayoutAttributes] {
        elementPositions(at: progress).map { elements[$0].attributes(at: progress) }
    }

    /// Bounds size, content offset and content size at `progress`, each linear between the
    /// two layouts' (exact at 0 and 1).
    public func geometry(at progress: Double) -> (bounds: Size, contentOffset: Point, contentSize: Size) {
        let t = min(max(progress, 0), 1)
        if t == 0 { return (from.bounds, from.contentOffset, from.contentSize) }
        if t == 1 { return (to.bounds, to.contentOffset, to.contentSize) }
        func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        return (Size(width: lerp(from.bounds.width, to.bounds.width), height: lerp(from.bounds.height, to.bounds.height)),
                Point(x: lerp(from.contentOffset.x, to.contentOffset.x), y: lerp(from.contentOffset.y, to.contentOffset.y)),
                Size(width: lerp(from.contentSize.width, to.contentSize.width),
                     height: lerp(from.contentSize.height, to.contentSize.height)))
    }
}
