// Where engines put the elements they compute: an array, blocks handed on as they fill, or
// sinks that only check or count.

/// Receives an engine's elements one at a time, in element order.
public protocol LayoutAttributesSink {
    /// Elements received so far.
    var count: Int { get }
    /// Receives the next element.
    mutating func append(_ attributes: LayoutAttributes)
    /// Told once, before the first element, how many will come (an upper bound). Default: nothing.
    mutating func prepare(count: Int)
}

extension LayoutAttributesSink {
    /// Nothing to prepare.
    public func prepare(count: Int) {}
}

extension Array: LayoutAttributesSink where Element == LayoutAttributes {
    /// Reserves the room at once (`reserveCapacity`).
    public mutating func prepare(count: Int) {
        reserveCapacity(count)
    }
}

/// A sink that hands on each full block of `blockSize` elements, so memory stays at one block;
/// `finish()` hands on the last, partial one. (SPEC section 3: a `FiniteCheckSink` pass comes first.)
public struct ElementBlocks: LayoutAttributesSink {
    /// Elements received so far (all blocks).
    public var count: Int { handedOn + filled }
    private var handedOn = 0  // apart from `filled`, so an append updates one counter
    /// When set (finite, > 0), frames are snapped to it as they arrive (`CollectionLayout.snapped`).
    public var scale: Double? = nil
    /// A block the sink allocated itself, owned by its hand-off.
    private final class Storage {
        let base: UnsafeMutablePointer<LayoutAttributes>
        init(capacity: Int) { base = .allocate(capacity: capacity) }
        deinit { base.deallocate() }
    }
    private var base: UnsafeMutablePointer<LayoutAttributes>  // `blockSize` slots, `filled` initialised
    private var filled = 0
    private let blockSize: Int
    /// Whether every slot holds the default appearance (then such an element is stored without it).
    private var slotsHoldDefaultAppearance: Bool
    private var storedOnlyDefaultAppearance = true  // by every element stored whole in this block
    private let handOff: (UnsafeBufferPointer<LayoutAttributes>, Bool) -> (UnsafeMutablePointer<LayoutAttributes>, Bool)

    /// A sink handing each block (default 16,384 elements, ~2 MB) to `handler`, valid during the call.
    public init(blockSize: Int = 16_384, handler: @escaping (UnsafeBufferPointer<LayoutAttributes>) -> Void) {
        precondition(blockSize > 0, "blockSize must be > 0")
        let storage = Storage(capacity: blockSize)
        self.init(blockSize: blockSize, buffer: storage.base) { block, _ in
            handler(block)
            return (storage.base, false)
        }
    }

    /// A sink filling `buffer`, then each buffer `handOff` returns for a full one (room for `blockSize`,
    /// valid until handed off). A buffer given with `true` holds the default appearance in every slot,
    /// so such elements are stored without it; `handOff` is told whether the block still does.
    public init(blockSize: Int, buffer: UnsafeMutablePointer<LayoutAttributes>, holdsDefaultAppearance: Bool = false,
                handOff: @escaping (UnsafeBufferPointer<LayoutAttributes>, _ holdsDefaultAppearance: Bool)
                    -> (UnsafeMutablePointer<LayoutAttributes>, holdsDefaultAppearance: Bool)) {
        precondition(blockSize > 0, "blockSize must be > 0")
        self.blockSize = blockSize
        base = buffer
        slotsHoldDefaultAppearance = holdsDefaultAppearance
        self.handOff = handOff
    }

    /// Receives the next element. - Complexity: O(1), plus the hand-off once per block.
    @inline(__always)
    public mutating func append(_ attributes: LayoutAttributes) {
        let slot = base + filled
        if slotsHoldDefaultAppearance && attributes.hasDefaultAppearance {
            slot.pointee.indexPath = attributes.indexPath
            slot.pointee.category = attributes.category
            slot.pointee.kind = attributes.kind
            slot.pointee.frame = attributes.frame
        } else {
            slot.initialize(to: attributes)  // a plain value: no deinitialisation needed
            storedOnlyDefaultAppearance = storedOnlyDefaultAppearance && attributes.hasDefaultAppearance
        }
        if let scale { slot.pointee.frame = CollectionLayout.snapped(attributes.frame, scale: scale) }
        filled += 1
        if filled == blockSize { handOn() }
    }

    /// Hands the last, partial block on, if any.
    public mutating func finish() {
        if filled > 0 { handOn() }
    }

    private mutating func handOn() {
        // Slots past a partial block keep what they held.
        let holdsDefaults = storedOnlyDefaultAppearance && (slotsHoldDefaultAppearance || filled == blockSize)
        (base, slotsHoldDefaultAppearance) = handOff(UnsafeBufferPointer(start: base, count: filled), holdsDefaults)
        storedOnlyDefaultAppearance = true
        handedOn += filled
        filled = 0
    }
}

/// A streamed layout's first pass: counts the elements and remembers the first not finite once
/// snapped to `scale` (as `validateFinite()` would find it), keeping nothing else.
public struct FiniteCheckSink: LayoutAttributesSink {
    /// Elements received so far.
    public private(set) var count = 0
    /// The first element (snapped) holding a number that is not finite, if any.
    public private(set) var firstNonFinite: LayoutAttributes?
    /// Whether the visible elements' zIndex never decreased from one to the next.
    public private(set) var zIndicesAreNonDecreasing = true
    private var lastVisibleZIndex = Int.min
    /// The screen scale frames are snapped to before the check, or `nil`.
    public let scale: Double?

    /// Creates a sink that checks frames snapped to `scale` (finite, > 0), or as they are.
    public init(scale: Double? = nil) {
        precondition(scale.map { $0 > 0 && $0.isFinite } ?? true, "scale must be finite and > 0")
        self.scale = scale
    }

    /// Counts and checks the next element. - Complexity: O(1).
    @inline(__always)
    public mutating func append(_ attributes: LayoutAttributes) {
        count += 1
        var attributes = attributes
        if let scale { attributes.frame = CollectionLayout.snapped(attributes.frame, scale: scale) }
        if !attributes.isFinite && firstNonFinite == nil { firstNonFinite = attributes }
        if !attributes.isHidden {
            if attributes.zIndex < lastVisibleZIndex { zIndicesAreNonDecreasing = false }
            lastVisibleZIndex = attributes.zIndex
        }
    }

    /// `summary` with its `n` elements counted unseen (every zIndex 0, none hidden) when
    /// `vouched`; else what `layout` gives into this sink.
    mutating func result(_ summary: @autoclosure () throws -> CollectionLayout, count n: Int, vouched: Bool,
                         else layout: (inout FiniteCheckSink) throws -> CollectionLayout)
        rethrows -> CollectionLayout {
        guard vouched else { return try layout(&self) }
        count += n
        return try summary()
    }
}

/// A sink that only counts: an engine specialised for it computes only its summary.
public struct CountingSink: LayoutAttributesSink {
    /// Elements received so far.
    public private(set) var count = 0

    /// Creates an empty sink.
    public init() {}

    /// Counts the next element. - Complexity: O(1).
    @inline(__always)
    public mutating func append(_ attributes: LayoutAttributes) {
        count += 1
    }
}

/// Whether numbers of at most `magnitude` (centres and far edges twice that) stay finite when
/// snapped to `scale`: where the engines' summary proofs end.
func snappedValuesStayFinite(upTo magnitude: Double, scale: Double?) -> Bool {
    let bound = 4 * magnitude
    guard bound.isFinite, let scale else { return bound.isFinite }
    return (bound * scale).isFinite && (bound + 1 / scale).isFinite
}
