// The items of one section as a dataset gives them.

/// The items of one section, as the dataset gives them; each engine reads the measure it uses.
public enum SectionItems: Sendable, Equatable {
    /// Item heights in points, each finite and ≥ 0.
    case heights([Double])
    /// Item sizes in points, width > 0 and height ≥ 0 (the waterfall keeps their aspect ratio).
    case sizes([Size])
    /// `count` items of the layout's own item size or height.
    case uniform(count: Int)
    /// Heights and sizes mixed, item by item (a waterfall dataset's `"items"` objects).
    case mixed([ItemMeasure])
    /// Item heights drawn at random, computed when read (`RandomHeights`), read as `.heights`.
    case randomHeights(RandomHeights)

    /// Number of items. - Complexity: O(1).
    public var count: Int {
        switch self {
        case .heights(let h): h.count
        case .sizes(let s): s.count
        case .uniform(let n): n
        case .mixed(let m): m.count
        case .randomHeights(let h): h.count
        }
    }

    /// Item `index`'s size from `.sizes` or `.mixed`, else `fallback` (a height `fallback.width` wide
    /// when `heightsKeepWidth`). - Throws: `LayoutError.invalidItem` for a negative or non-finite size.
    @inline(__always)
    func size(at index: Int, default fallback: Size, section: Int = 0, heightsKeepWidth: Bool = false) throws -> Size {
        let size: Size
        switch self {
        case .sizes(let sizes): size = sizes[index]
        case .mixed(let measures):
            switch measures[index] {
            case .size(let s): size = s
            case .height(let h):
                guard heightsKeepWidth else { return fallback }
                size = Size(width: fallback.width, height: h)
            }
        case .heights(let heights) where heightsKeepWidth: size = Size(width: fallback.width, height: heights[index])
        case .randomHeights(let heights) where heightsKeepWidth: size = Size(width: fallback.width, height: heights[index])
        default: return fallback
        }
        guard size.width >= 0, size.width.isFinite, size.height >= 0, size.height.isFinite else {
            throw LayoutError.invalidItem(IndexPath(item: index, section: section), .size(size))
        }
        return size
    }
}

/// One item's measure when a section mixes heights and sizes.
public enum ItemMeasure: Sendable, Equatable {
    /// A height in points, finite and ≥ 0.
    case height(Double)
    /// A size scaled to the item's width keeping its aspect ratio; width > 0, height ≥ 0.
    case size(Size)
}

/// `count` item heights drawn at random (the embedded data, SPEC section 6), each computed in O(1)
/// when read, no array behind them: item i is `base + r % spread` points, r SplitMix64's i-th value.
public struct RandomHeights: RandomAccessCollection, Sendable, Hashable {
    /// Number of heights.
    public let count: Int
    /// The generator's seed.
    public let seed: UInt64
    /// The smallest height, points.
    public let base: Double
    /// Heights run from `base` to `base + spread − 1`.
    public let spread: UInt64
    /// `spread` as a divisor, whose remainders are taken without a division.
    @usableFromInline let divisor: FixedDivisor

    /// `count` heights from `seed`. - Precondition: `count` ≥ 0, `spread` ≥ 1 (engines refuse a bad `base`).
    public init(count: Int, seed: UInt64, base: Double = 50, spread: UInt64 = 100) {
        precondition(count >= 0 && spread >= 1, "count ≥ 0 and spread ≥ 1")
        self.count = count
        self.seed = seed
        self.base = base
        self.spread = spread
        divisor = FixedDivisor(spread)
    }

    /// The indices, `0..<count`.
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// Height `i` (0 ≤ i < count), points. - Complexity: O(1).
    @inlinable @inline(__always)
    public subscript(i: Int) -> Double {
        base + Double(divisor.remainder(SplitMix64.value(i, seed: seed)))
    }

    /// The largest height there can be: `base + spread − 1`.
    public var upperBound: Double { base + Double(spread - 1) }
}
