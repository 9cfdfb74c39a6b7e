// Where engines put the elements they compute: an array (the usual `CollectionLayout`) or a
// small block handed on as it fills, so a million elements can be written without being kept.

/// Receives an engine's elements one at a time, in element order. `Array<LayoutAttributes>`
/// is one (the engines' `layout(...)` methods collect into an array); `ElementBlocks` is the
/// other, for streaming.
public protocol LayoutAttributesSink {
    /// Elements received so far.
    var count: Int { get }
    /// Receives the next element.
    mutating func append(_ attributes: LayoutAttributes)
    /// Told once, before the first element, how many will come (an upper bound).
    mutating func prepare(count: Int)
}

extension Array: LayoutAttributesSink where Element == LayoutAttributes {
    /// Reserves the room at once (`reserveCapacity`).
    public mutating func prepare(count: Int) {
        reserveCapacity(count)
    }
}

/// A sink that keeps at most `blockSize` elements: when the block is full it is handed on
/// and the sink starts the next one, so memory stays at one block however many elements the
/// engine produces. Call `finish()` after the engine returns, for the last, partial block.
///
/// The command line runs a streaming engine twice: once with a `FiniteCheckSink`, to check
/// every number before anything is written (SPEC section 3), once with this sink, whose
/// blocks are handed on to whatever consumes them.
public struct ElementBlocks: LayoutAttributesSink {
    /// Elements received so far (all blocks).
    public var count: Int { handedOn + filled }
    /// Elements in the blocks handed on so far: kept apart from `filled`, so that an append
    /// updates one counter (a store the engine's loop makes for every element).
    private var handedOn = 0
    /// When set, each frame is pixel-snapped to this screen scale as it arrives, as
    /// `CollectionLayout.snapToPixels(scale:)` snaps a kept layout. Finite and > 0.
    public var scale: Double? = nil
    /// Owns the block when the sink allocated it itself.
    private final class Storage {
        let base: UnsafeMutablePointer<LayoutAttributes>
        init(capacity: Int) { base = .allocate(capacity: capacity) }
        deinit { base.deallocate() }
    }
    private let storage: Storage?
    /// The block being filled: `blockSize` slots, the first `filled` initialised. Raw, so that
    /// an append is a store.
    private var base: UnsafeMutablePointer<LayoutAttributes>
    private var filled = 0
    private let blockSize: Int
    /// Whether every slot of the block being filled holds an element with the default
    /// appearance (`LayoutAttributes.hasDefaultAppearance`), so that an element with that
    /// appearance need only have its index path, category, kind and frame stored.
    private var slotsHoldDefaultAppearance: Bool
    /// Whether every element stored whole in this block had the default appearance.
    private var storedOnlyDefaultAppearance = true
    private let handOff: (UnsafeBufferPointer<LayoutAttributes>, Bool) -> (UnsafeMutablePointer<LayoutAttributes>, Bool)

    /// Creates a sink that hands each block of `blockSize` elements (default 16,384, about
    /// 2 MB) to `handler`, in order, and then reuses it. The buffer is valid only during
    /// the call.
    public init(blockSize: Int = 16_384, handler: @escaping (UnsafeBufferPointer<LayoutAttributes>) -> Void) {
        precondition(blockSize > 0, "blockSize must be > 0")
        let storage = Storage(capacity: blockSize)
        self.storage = storage
        self.blockSize = blockSize
        base = storage.base
        slotsHoldDefaultAppearance = false
        handOff = { block, _ in
            handler(block)
            return (storage.base, false)
        }
    }

    /// Creates a sink that fills blocks it is given: first `buffer`, then, each time a block
    /// is full, the buffer `handOff` returns when given the full one. Every buffer must have
    /// room for `blockSize` elements and stay valid until it is handed off.
    ///
    /// A buffer that comes with `true` (`holdsDefaultAppearance` for the first) must hold,
    /// in every one of its `blockSize` slots, an element with the default appearance
    /// (`LayoutAttributes.hasDefaultAppearance`): an element with that appearance is then
    /// stored without it, which halves the memory the engine writes for most layouts (a
    /// buffer read on another core was last in that core's cache). `handOff` is told
    /// with each block whether its buffer still holds only such elements in every slot.
    public init(blockSize: Int, buffer: UnsafeMutablePointer<LayoutAttributes>, holdsDefaultAppearance: Bool = false,
                handOff: @escaping (UnsafeBufferPointer<LayoutAttributes>, _ holdsDefaultAppearance: Bool)
                    -> (UnsafeMutablePointer<LayoutAttributes>, holdsDefaultAppearance: Bool)) {
        precondition(blockSize > 0, "blockSize must be > 0")
        storage = nil
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

    /// Nothing to prepare: a block is all the sink ever holds.
    public func prepare(count: Int) {}

    /// Hands the last, partial block on (nothing when it is empty).
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

/// A sink that keeps nothing: it counts the elements and remembers the first whose numbers
/// are not all finite once its frame is pixel-snapped (when `scale` is given), as
/// `CollectionLayout.snapToPixels(scale:)` and `validateFinite()` would find it. The first
/// pass of a streamed layout: engines specialised for it skip building the elements they
/// do not keep, so it costs little more than the layout's arithmetic.
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

    /// Counts `count` more elements without seeing them: for an engine's `checkLayout` that
    /// has shown from its summary alone that they are all finite once snapped
    /// (`WaterfallSummary.swift`, `RingSummary.swift`, `CircleSummary.swift`,
    /// `JustifiedSummary.swift`), and that says whether their visible zIndices never decrease.
    public mutating func skip(count n: Int, zIndicesNonDecreasing: Bool) {
        count += n
        if !zIndicesNonDecreasing { zIndicesAreNonDecreasing = false }
    }

    /// Nothing to prepare.
    public func prepare(count: Int) {}
}

/// A sink that only counts. An engine specialised for it computes only what its summary
/// (content size, sections) needs: the waterfall's column arithmetic without the elements.
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

    /// Nothing to prepare.
    public func prepare(count: Int) {}
}

/// Whether every number an element can hold is finite, and stays finite when pixel-snapped
/// to `scale` (`CollectionLayout.snapped(_:scale:)`: `(v·scale).rounded()/scale`), given
/// that none exceeds `magnitude` in absolute value before snapping, nor its frame's centre
/// (a midpoint) or far edge (`x + width`) twice that. The engines' proofs from a summary
/// (`elementsAreFinite`, `succeedsWithFiniteElements`) end here.
func snappedValuesStayFinite(upTo magnitude: Double, scale: Double?) -> Bool {
    let bound = 4 * magnitude
    guard bound.isFinite, let scale else { return bound.isFinite }
    return (bound * scale).isFinite && (bound + 1 / scale).isFinite
}
