// Geometry value types with UIKit's names and conventions: points, y grows downward.

import Foundation  // the C math library (sin, cos, atan2, tan)

/// A point in the content's coordinate space, in points (UIKit's `CGPoint`).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The coordinates, points.
    public var x: Double, y: Double

    /// Creates a point at (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// Whether both coordinates are finite.
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// Squared Euclidean distance to `other`, points².
    public func squaredDistance(to other: Point) -> Double {
        let dx = x - other.x, dy = y - other.y
        return dx * dx + dy * dy
    }

    /// The length `√(dx² + dy²)`, of the vector scaled by its largest component when the squares
    /// overflow or underflow (so finite is finite, and non-zero non-zero).
    public static func length(_ dx: Double, _ dy: Double) -> Double {
        let plain = (dx * dx + dy * dy).squareRoot()
        guard plain == .infinity || (plain < 0x1p-500 && (dx != 0 || dy != 0)), dx.isFinite, dy.isFinite else {
            return plain
        }
        let scale = Swift.max(abs(dx), abs(dy))
        let a = dx / scale, b = dy / scale
        return scale * (a * a + b * b).squareRoot()
    }

    /// The midpoint between `self` and `other`.
    public func midpoint(_ other: Point) -> Point {
        Point(x: (x + other.x) / 2, y: (y + other.y) / 2)
    }

    /// `(y, x)`: a horizontal layout is a vertical one transposed.
    public var transposed: Point { Point(x: y, y: x) }

    public var description: String { "(\(x), \(y))" }
}

/// A width and a height, points (UIKit's `CGSize`).
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The extents, points.
    public var width: Double, height: Double

    /// Creates a size of `width` × `height`.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The empty size.
    public static let zero = Size(width: 0, height: 0)

    /// `(height, width)`.
    public var transposed: Size { Size(width: height, height: width) }

    public var description: String { "\(width)×\(height)" }
}

/// An axis-aligned rectangle, points (UIKit's `CGRect`; the engines' are standardized).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// Top-left corner.
    public var origin: Point
    /// Extent.
    public var size: Size

    /// Creates the rectangle with top-left corner (`x`, `y`) and extent `width` × `height`.
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
    }

    /// Creates the rectangle of `size` centred on `center`.
    public init(center: Point, size: Size) {
        self.init(x: center.x - size.width / 2, y: center.y - size.height / 2,
                  width: size.width, height: size.height)
    }

    /// Creates the rectangle spanning the edges `minX…maxX`, `minY…maxY`.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// A rectangle given across a scroll axis (`u`, `lengthU`) and along it (`v`, `lengthV`).
    @inline(__always)
    init(u: Double, v: Double, lengthU: Double, lengthV: Double, vertical: Bool) {
        self = vertical ? Rect(x: u, y: v, width: lengthU, height: lengthV) : Rect(x: v, y: u, width: lengthV, height: lengthU)
    }

    /// Left, top, right and bottom edge.
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    /// Horizontal and vertical centre.
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    /// Width and height.
    public var width: Double { size.width }
    public var height: Double { size.height }
    /// The centre point.
    public var center: Point { Point(x: midX, y: midY) }
    /// The frame mirrored about the diagonal: x ↔ y, width ↔ height.
    public var transposed: Rect { Rect(x: origin.y, y: origin.x, width: size.height, height: size.width) }

    /// Whether every coordinate and extent is finite.
    @inline(__always) public var isFinite: Bool {
        origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite
            && maxX.isFinite && maxY.isFinite
    }

    /// The same rectangle with a non-negative width and height (`CGRect.standardized`).
    public var standardized: Rect {
        var r = self
        if r.size.width < 0 {
            r.origin.x += r.size.width
            r.size.width = -r.size.width
        }
        if r.size.height < 0 {
            r.origin.y += r.size.height
            r.size.height = -r.size.height
        }
        return r
    }

    /// Strict overlap (SPEC section 2): touching edges do not count. This rectangle is taken
    /// standardized, `other` (the query) as given, so a query of negative size meets nothing.
    public func intersects(_ other: Rect) -> Bool {
        let a = standardized
        return a.minX < other.maxX && other.minX < a.maxX && a.minY < other.maxY && other.minY < a.maxY
    }

    /// The smallest rectangle holding this one and `other` (`CGRect.union`, non-negative sizes).
    public func union(_ other: Rect) -> Rect {
        Rect(minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
             maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
    }

    public var description: String { "(\(minX), \(minY), \(width), \(height))" }
}

/// Insets of a rectangle's four edges, points (UIKit's `UIEdgeInsets`; the `T,L,B,R` order).
public struct EdgeInsets: Hashable, Sendable {
    /// The insets of the four edges.
    public var top: Double, left: Double, bottom: Double, right: Double

    /// Creates insets `top`, `left`, `bottom`, `right`, points.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on all four edges.
    public init(all value: Double) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    /// No insets.
    public static let zero = EdgeInsets(all: 0)

    /// Top ↔ left, bottom ↔ right: the insets of the transposed rectangle.
    public var transposed: EdgeInsets { EdgeInsets(top: left, left: top, bottom: right, right: bottom) }
}

/// A 2-D affine transform `[a b c d tx ty]` (UIKit's `CGAffineTransform`), applied to a
/// view about its centre. A point maps to `(a·x + c·y + tx, b·x + d·y + ty)`.
public struct AffineTransform: Hashable, Sendable {
    /// The linear part `[a b; c d]` (unitless) and the translation `tx`, `ty` (points).
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// Creates the matrix `[a b c d tx ty]`.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity `[1 0 0 1 0 0]`; no lazy global, so checks of it fold away.
    @inline(__always)
    public static var identity: AffineTransform { AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }

    /// A rotation by `degrees`, clockwise on screen: `a=cos θ, b=sin θ, c=−sin θ, d=cos θ`.
    public init(rotationDegrees degrees: Double) {
        let (s, c) = sinCos(degrees: degrees)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// A scale by `sx`, `sy` (`CGAffineTransformMakeScale`).
    public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Whether all six entries are finite.
    @inline(__always) public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }
}

/// Sine and cosine of an angle in degrees, exact at multiples of 90°.
public func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
    var reduced = degrees.truncatingRemainder(dividingBy: 360)
    if reduced < 0 { reduced += 360 }
    switch reduced {
    case 0: return (0, 1)
    case 90: return (1, 0)
    case 180: return (0, -1)
    case 270: return (-1, 0)
    default:
        let radians = reduced * .pi / 180
        return (sin(radians), cos(radians))
    }
}
