// Animating from one layout to another as UIKit does for setCollectionViewLayout(_:animated:)
// and performBatchUpdates (seeds 000, 002, 003, 004).

import Foundation  // the C math library (sin, cos, atan2, tan)

/// An affine transform split into the parts Core Animation interpolates separately, `M = R(rotation) ·
/// [[scaleX, shear·scaleY], [0, scaleY]]` plus `(tx, ty)`; a flip shows as a negative `scaleY`.
public struct TransformComponents: Hashable, Sendable {
    /// Rotation, degrees, screen convention (positive turns clockwise), in (−180, 180].
    public var rotation: Double
    /// Length of the transformed x axis; signed extent of the y axis across it; shear of y along x.
    public var scaleX: Double, scaleY: Double, shear = 0.0

    /// Translation, points.
    public var tx = 0.0, ty = 0.0
}

extension TransformComponents {
    /// Decomposes `t` (QR of its linear part; a zero x axis gives rotation 0, a zero `scaleY`
    /// shear 0). A finite transform gives finite parts.
    public init(decomposing t: AffineTransform) {
        scaleX = Point.length(t.a, t.b)
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

    /// The recomposed transform (exact sines and cosines at multiples of 90°).
    public var transform: AffineTransform {
        let (s, c) = sinCos(degrees: rotation)
        return AffineTransform(a: scaleX * c, b: scaleX * s,
                               c: shear * scaleY * c - scaleY * s, d: shear * scaleY * s + scaleY * c,
                               tx: tx, ty: ty)
    }

    /// The rotation change to `other` the shorter way, degrees, in (−180, 180].
    public func rotationChange(to other: TransformComponents) -> Double {
        Self.wrapped((other.rotation - rotation).truncatingRemainder(dividingBy: 360))
    }

    /// `degrees` turned once by 360° toward (−180, 180] (into it from (−540, 540]).
    static func wrapped(_ degrees: Double) -> Double {
        degrees > 180 ? degrees - 360 : (degrees <= -180 ? degrees + 360 : degrees)
    }

    /// Every component interpolated linearly at `progress`, the rotation along the shorter way.
    public func interpolated(to other: TransformComponents, progress t: Double) -> TransformComponents {
        func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        return TransformComponents(rotation: Self.wrapped(rotation + rotationChange(to: other) * t),
                                   scaleX: lerp(scaleX, other.scaleX), scaleY: lerp(scaleY, other.scaleY),
                                   shear: lerp(shear, other.shear), tx: lerp(tx, other.tx), ty: lerp(ty, other.ty))
    }
}

/// How an element takes part in a transition.
public enum TransitionChange: String, Sendable, CaseIterable {
    /// In both layouts under the same index path.
    case stay
    /// In both layouts under different index paths (a batch update shifted or moved it).
    case move
    /// Only in the final layout: fades in where it lands.
    case appear
    /// Only in the initial layout: fades out where it was.
    case disappear
}

/// One element of a transition: its attributes at progress 0 and 1.
public struct TransitionElement: Hashable, Sendable {
    /// How the element takes part.
    public var change: TransitionChange
    /// Its index paths in the initial and final layouts (`nil` where it is absent).
    public var fromIndexPath: IndexPath?, toIndexPath: IndexPath?
    /// Attributes at progress 0 and 1; an appearing element starts, a disappearing one ends, at
    /// its other attributes with alpha 0 unless hidden (`initialLayoutAttributesForAppearingItem`).
    public var initial: LayoutAttributes, final: LayoutAttributes

    /// The attributes at `progress` (0…1, clamped; exact at the ends), as UIKit animates them:
    /// centre, size and alpha linearly, the transform by `TransformComponents`; a hidden end
    /// counts as alpha 0 (hidden only when hidden at both); the zIndex switches at 0.5.
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
        let transform = a.transform == b.transform ? a.transform
            : TransformComponents(decomposing: a.transform)
                .interpolated(to: TransformComponents(decomposing: b.transform), progress: t).transform
        return LayoutAttributes(indexPath: toIndexPath ?? fromIndexPath ?? b.indexPath, category: b.category,
                                kind: b.kind, frame: Rect(center: center, size: size), transform: transform,
                                alpha: alpha, zIndex: t < 0.5 ? a.zIndex : b.zIndex, isHidden: hidden)
    }
}

/// A transition between two layouts: every element of either, matched by category, kind and
/// index path (cells through a batch update's plan when given), in the final layout's order,
/// then the disappearing ones (seed 002: the stack's item 4 turns from 60° to 0° as it moves).
public struct LayoutTransition: Sendable {
    /// The layout at progress 0.
    public let from: CollectionLayout
    /// The layout at progress 1.
    public let to: CollectionLayout
    /// Every element, in the final layout's order, then the disappearing ones.
    public let elements: [TransitionElement]
    /// Positions in `elements` of the initial layout's elements, in its element order.
    public let initialOrder: [Int]

    /// Matches the elements of `from` and `to`; cells through `updatePlan` when given.
    /// - Throws: `LayoutError.updateDoesNotFit` when the plan's counts are not the layouts'. O(n) expected.
    public init(from: CollectionLayout, to: CollectionLayout, updatePlan: BatchUpdatePlan? = nil) throws {
        for (layout, plan, final) in [(from, updatePlan?.oldCounts, false), (to, updatePlan?.newCounts, true)] {
            let counts = layout.cellRanges.map(\.count)
            guard plan == nil || counts == plan else {
                throw LayoutError.updateDoesNotFit(final: final, items: counts.reduce(0, +))
            }
        }
        self.from = from
        self.to = to

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
        var fromElementAt = [Int](repeating: -1, count: from.elements.count)
        var elements: [TransitionElement] = []
        elements.reserveCapacity(max(from.elements.count, to.elements.count))
        for final in to.elements {
            var oldPath: IndexPath? = final.indexPath
            if let updatePlan, final.category == .cell {
                oldPath = updatePlan.oldIndexPath(forNew: final.indexPath)
            }
            if let oldPath, let i = fromPositions[Key(category: final.category, kind: final.kind, indexPath: oldPath)],
               fromElementAt[i] < 0 {
                fromElementAt[i] = elements.count
                elements.append(TransitionElement(change: oldPath == final.indexPath ? .stay : .move,
                                                  fromIndexPath: oldPath, toIndexPath: final.indexPath,
                                                  initial: from.elements[i], final: final))
            } else {
                var initial = final
                initial.alpha = final.isHidden ? final.alpha : 0
                elements.append(TransitionElement(change: .appear, fromIndexPath: nil, toIndexPath: final.indexPath,
                                                  initial: initial, final: final))
            }
        }
        for (i, initial) in from.elements.enumerated() where fromElementAt[i] < 0 {
            var final = initial
            final.alpha = initial.isHidden ? initial.alpha : 0
            fromElementAt[i] = elements.count
            elements.append(TransitionElement(change: .disappear, fromIndexPath: initial.indexPath, toIndexPath: nil,
                                              initial: initial, final: final))
        }
        self.elements = elements
        initialOrder = fromElementAt
    }

    /// The positions in `elements` present at `progress`: at 0 the initial layout's, in its
    /// order; at 1 the final layout's; in between all. - Complexity: O(n).
    public func elementPositions(at progress: Double) -> [Int] {
        if progress <= 0 { return initialOrder }
        if progress >= 1 { return elements.indices.filter { elements[$0].change != .disappear } }
        return Array(elements.indices)
    }

    /// Bounds size, content offset and content size at `progress`, linear (exact at the ends).
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
