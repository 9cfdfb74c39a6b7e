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
    /// Reserves the room at once, backed by huge pages when large (`reserveLargeCapacity`).
    public mutating func prepare(count: Int) {
        reserveLargeCapacity(count)
    }
}

/// A sink that keeps at most `blockSize` elements: when the block is full it goes to the
/// handler and the sink starts the next one, so memory stays at one block however many
/// elements the engine produces. Call `finish()` after the engine returns, for the last,
/// partial block.
///
/// The command line runs a streaming engine twice with it: once to check every number before
/// anything is written (SPEC section 3), once to write (`CVLayoutCLI.LayoutJob`).
public struct ElementBlocks: LayoutAttributesSink {
    /// Elements received so far (all blocks).
    public private(set) var count = 0
    /// The block: `blockSize` slots, the first `filled` initialised. A class, so that the
    /// storage is freed with the last copy of the sink; raw, so that an append is a store.
    private final class Storage {
        let base: UnsafeMutablePointer<LayoutAttributes>
        init(capacity: Int) { base = .allocate(capacity: capacity) }
        deinit { base.deallocate() }
    }
    private let storage: Storage
    private var filled = 0
    private let blockSize: Int
    private let handler: (UnsafeBufferPointer<LayoutAttributes>) -> Void

    /// Creates a sink that hands each block of `blockSize` elements (default 16,384, about
    /// 2 MB) to `handler`, in order. The buffer is valid only during the call.
    public init(blockSize: Int = 16_384, handler: @escaping (UnsafeBufferPointer<LayoutAttributes>) -> Void) {
        precondition(blockSize > 0, "blockSize must be > 0")
        self.blockSize = blockSize
        self.handler = handler
        storage = Storage(capacity: blockSize)
    }

    /// Receives the next element. - Complexity: O(1), plus the handler's time once per block.
    @inline(__always)
    public mutating func append(_ attributes: LayoutAttributes) {
        (storage.base + filled).initialize(to: attributes)  // a plain value: no deinitialisation needed
        filled += 1
        count += 1
        if filled == blockSize { handOn() }
    }

    /// Nothing to prepare: a block is all the sink ever holds.
    public func prepare(count: Int) {}

    /// Hands the last, partial block to the handler (nothing when it is empty).
    public mutating func finish() {
        if filled > 0 { handOn() }
    }

    private mutating func handOn() {
        handler(UnsafeBufferPointer(start: storage.base, count: filled))
        filled = 0
    }
}
