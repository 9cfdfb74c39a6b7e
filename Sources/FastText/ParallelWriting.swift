import Dispatch
import Foundation
import Synchronization
import LayoutCore

/// Formats a long run of elements on every core and hands the text to `out` in order, so the
/// result is byte for byte what a single loop would write.
///
/// Positions `0..<count` are cut into blocks of `blockSize`; each round, every worker formats
/// one block into a buffer of its own (`format(position, buffer)`, which must only read shared
/// state), then the round's buffers go to `out` in block order. Fewer than two cores or
/// fewer than two blocks: one plain loop on the calling thread.
/// - Throws: what `out`'s sink throws.
/// - Complexity: O(count) work, spread over the cores; memory for one block per worker.
package func appendInParallel(count: Int, to out: OutputBuffer, blockSize: Int = 8192,
                      _ format: (Int, OutputBuffer) -> Void) throws {
    let workers = min(AvailableCores.count, 8)
    if workers < 2 || count < 2 * blockSize {
        for position in 0..<count {
            format(position, out)
            try out.flushIfFull()
        }
        return
    }
    let buffers = out.workerBuffers(workers)
    try withoutActuallyEscaping(format) { format in
        let work = UncheckedSendable(format)
        let workerBuffers = UncheckedSendable(buffers)
        var roundStart = 0
        while roundStart < count {
            let start = roundStart
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let low = start + worker * blockSize
                let high = min(count, low + blockSize)
                guard low < high else { return }
                let buffer = workerBuffers.value[worker]
                let format = work.value
                for position in low..<high { format(position, buffer) }
            }
            for buffer in buffers { try out.append(contentsOf: buffer) }
            roundStart += workers * blockSize
        }
    }
}

/// The cores the writers' threads can run on. On Linux: the CPUs of the process's affinity
/// mask (`sched_getaffinity`, as `nproc` counts them), capped by a cgroup v2 CPU quota
/// (`/sys/fs/cgroup/cpu.max`, quota over period, rounded up), at least 1. Not
/// `ProcessInfo.activeProcessorCount`, whose first call costs 0.3–0.4 ms here (most of it
/// starting `ProcessInfo`), a twentieth of a 10⁵-element SVG, before the first block, and
/// which counts every online CPU whatever the mask (under `taskset -c 0` it said 2, and the
/// threads took turns on the one CPU, polling); this takes about 10 µs. Elsewhere,
/// `ProcessInfo`'s.
enum AvailableCores {
    /// The count, read once.
    static let count: Int = {
        #if os(Linux)
        var mask = [UInt64](repeating: 0, count: 16)  // 1,024 CPUs
        let cpus = mask.withUnsafeMutableBytes { sched_getaffinity(0, $0.count, $0.baseAddress!) } == 0
            ? mask.reduce(0) { $0 + $1.nonzeroBitCount } : 0
        guard cpus > 0 else { return max(1, ProcessInfo.processInfo.activeProcessorCount) }
        return max(1, min(cpus, cgroupQuota ?? cpus))
        #else
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
        #endif
    }()

    #if os(Linux)
    /// The cgroup v2 quota in CPUs (`cpu.max`: "quota period", or "max period" for none),
    /// rounded up; `nil` without one.
    private static var cgroupQuota: Int? {
        let fd = open("/sys/fs/cgroup/cpu.max", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, 63) }
        guard n > 0 else { return nil }
        let fields = String(decoding: bytes[..<n], as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2, let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0 else {
            return nil
        }
        return (quota + period - 1) / period
    }
    #endif
}

/// `sched_getaffinity(2)`, which Glibc's module leaves out (it is a GNU extension).
#if os(Linux)
@_silgen_name("sched_getaffinity")
private func sched_getaffinity(_ pid: Int32, _ size: Int, _ mask: UnsafeMutableRawPointer) -> Int32
#endif

/// Runs `body` on a new thread with a stack of `stackSize` bytes, and returns at once: for a
/// producer that works ahead of its consumer (the pipeline's workers, a prefetched stream).
package func runConcurrently(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.stackSize = stackSize
    thread.start()
}

/// Carries a value the compiler cannot prove safe into concurrent work whose safety the
/// caller guarantees (disjoint buffers, read-only shared state).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Formats blocks of elements on worker threads while the producer computes the next
/// blocks, and hands the text to its output in submission order.
///
/// A ring of slots, each with room for `blockSize` elements and a buffer of its own. The
/// producer (an engine appending to an `ElementBlocks`) fills a slot in place and submits
/// it; workers format pending slots; before a slot is filled again, the block it held is
/// written out, in order, and the submitting thread formats pending slots itself rather than
/// wait. One worker per core but the producer's: the producer formats whenever it is ahead,
/// so the cores share the formatting without a third thread taking turns on one of them; and
/// a thread with nothing to do polls a while before it sleeps (`idle()`).
///
/// A pipeline serves one run after another (`run`), with the same threads and slots: an SVG
/// measures its canvas in a first run and writes in a second.
package final class BlockPipeline: @unchecked Sendable {
    private enum State { case free, pending, working, done }
    private final class Slot {
        let elements: UnsafeMutablePointer<LayoutAttributes>
        var count = 0
        var first = 0
        var state = State.free
        /// Whether every one of the slot's elements has the default appearance (see
        /// `ElementBlocks`), as they all have at first.
        var holdsDefaultAppearance = true
        let buffer: OutputBuffer
        /// A slot in `memory`, which must hold `Slot.bytes(capacity:)` bytes aligned to a
        /// cache line and outlive the slot.
        init(capacity: Int, precision: NumberPrecision, memory: UnsafeMutableRawPointer) {
            // Aligned to a cache line, so that an element's appearance, which the engine need
            // not store, has lines of its own (an element is two lines).
            elements = memory.bindMemory(to: LayoutAttributes.self, capacity: capacity)
            elements.initialize(repeating: .cell(IndexPath(item: 0, section: 0), frame: Rect(x: 0, y: 0, width: 0, height: 0)),
                                count: capacity)
            let cache = memory + Self.elementBytes(capacity)
            let text = cache + Self.cacheBytes
            buffer = OutputBuffer(precision: precision,
                                  storage: text.bindMemory(to: UInt8.self, capacity: Self.textBytes(capacity)),
                                  capacity: Self.textBytes(capacity),
                                  numberCache: cache.bindMemory(to: CachedNumber.self, capacity: CachedNumber.slots))
        }

        static func elementBytes(_ capacity: Int) -> Int { capacity * MemoryLayout<LayoutAttributes>.stride }
        static let cacheBytes = CachedNumber.slots * MemoryLayout<CachedNumber>.stride
        /// Room for a block's text: 256 bytes an element (an SVG's takes about 230), and the
        /// room kept for one more.
        static func textBytes(_ capacity: Int) -> Int { capacity * 256 + OutputBuffer.elementBound }
        /// A slot's bytes: its elements, its buffer's number table and text, to a cache line.
        static func bytes(capacity: Int) -> Int {
            (elementBytes(capacity) + cacheBytes + textBytes(capacity) + 63) & ~63
        }
    }
    /// The slots' memory, one allocation on huge pages where the kernel gives them (see `init`).
    private let memory: UnsafeMutableRawPointer

    /// Elements per slot: 1,024 (128 KB of attributes, which stay in the cache from the
    /// engine to the formatting). Small slots also mean little memory touched for the first
    /// time: with 4,096 a 10⁵-element SVG spent a quarter of its time in page faults.
    package static let blockSize = 1_024
    /// The run's formatting; set between runs, under the lock.
    private var formatBlock: (UnsafeBufferPointer<LayoutAttributes>, Int, Bool, OutputBuffer) -> Void = { _, _, _, _ in }
    private let condition = NSCondition()
    private let slots: [Slot]
    /// Where the run's text goes (used by the producer only).
    private var out: OutputBuffer
    /// Blocks submitted / written so far; slot `k % slots.count` holds block k.
    private var submitted = 0
    private var written = 0
    /// Elements submitted so far: the output position of the next block's first element.
    private var elementsSubmitted = 0
    private var stopped = false
    /// The first error of the output's sink; once set, blocks are dropped.
    private var failure: Error?
    /// Counts the changes a thread with nothing to do waits for (a block submitted or
    /// formatted, the pipeline stopped), each made under the lock: see `idle()`.
    private let changes = Atomic<Int>(0)
    /// How long `idle()` polls `changes` before sleeping, in polls (about a nanosecond
    /// each): 0 on a single core, where polling only takes time from the thread it waits for.
    private let spinLimit: Int

    /// Starts one worker thread per core but the producer's (at least 1, at most 8), with two
    /// slots per thread plus two, whose buffers format numbers at `precision`.
    package init(precision: NumberPrecision) {
        out = OutputBuffer(precision: precision)
        let cores = AvailableCores.count
        // The producer is a thread of its own and formats too when it is ahead.
        let workers = min(max(cores - 1, 1), 8)
        spinLimit = cores > 1 ? 100_000 : 0
        let blockSize = Self.blockSize
        // One allocation for every slot, aligned to and advised onto 2 MiB huge pages: a
        // fresh 4 KiB page costs a fault of about a microsecond here, and a 10⁵-element SVG's
        // slots are 400 of them, on the way to its first block.
        let slotBytes = Slot.bytes(capacity: blockSize), slotCount = 2 * workers + 2
        let huge = 2 << 20
        // At least 4 MiB, which `adviseHugePages` asks for; only the pages touched are backed.
        let total = max(2 * huge, (slotBytes * slotCount + huge - 1) & ~(huge - 1))
        memory = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: huge)
        UnsafeMutableBufferPointer(start: memory.bindMemory(to: UInt8.self, capacity: total), count: total).adviseHugePages()
        slots = (0..<slotCount).map { [memory] k in
            Slot(capacity: blockSize, precision: precision, memory: memory + k * slotBytes)
        }
        for _ in 0..<workers { runConcurrently(stackSize: 1 << 20) { [self] in work() } }
    }

    deinit {
        // The threads hold the pipeline until they end; the slots' buffers free only memory of
        // their own.
        memory.deallocate()
    }

    /// The buffers blocks are formatted into, one per slot: a block's `formatBlock` call
    /// gets the buffer of the slot it is in, and no two calls get the same buffer at once.
    package var slotBuffers: [OutputBuffer] { slots.map(\.buffer) }

    /// Runs `produce` with a sink that fills the slots: each block is formatted with
    /// `formatBlock` on whichever thread is free, and its text handed to `output`, in order.
    /// `formatBlock` gets a block, the output position of its first element, whether every
    /// element of the block has the default appearance, and the buffer to write to; it is
    /// called on any thread, so it must only read shared state (or state of its own per
    /// buffer, see `slotBuffers`).
    /// - Precondition: the previous run finished, and the pipeline is not stopped.
    /// - Throws: what `produce` or `output`'s sink throws; after an error the pipeline must
    ///   be stopped, not run again.
    package func run(to output: OutputBuffer,
             formatBlock: @escaping (UnsafeBufferPointer<LayoutAttributes>, Int, Bool, OutputBuffer) -> Void,
             _ produce: StreamedElements) throws {
        condition.lock()
        precondition(!stopped && failure == nil && written == submitted, "a run starts once the last one finished")
        out = output
        self.formatBlock = formatBlock
        submitted = 0
        written = 0
        elementsSubmitted = 0
        condition.unlock()
        // Slot 0 comes first; what it holds is what the last run left there.
        var sink = ElementBlocks(blockSize: Self.blockSize, buffer: slots[0].elements,
                                 holdsDefaultAppearance: slots[0].holdsDefaultAppearance) { block, holdsDefaultAppearance in
            self.submit(block, holdsDefaultAppearance: holdsDefaultAppearance)
        }
        try produce(&sink)
        sink.finish()
        try finish()
    }

    /// Queues the filled slot `block` (at most `blockSize` elements, in slot 0 or the slot
    /// the last call returned) and returns the next slot to fill, after
    /// writing out, in order, the block that slot held, and whether every element in that
    /// slot has the default appearance (`holdsDefaultAppearance` says it of `block`'s; see
    /// `ElementBlocks`). After `stop()` blocks are dropped unformatted.
    private func submit(_ block: UnsafeBufferPointer<LayoutAttributes>, holdsDefaultAppearance: Bool)
        -> (UnsafeMutablePointer<LayoutAttributes>, holdsDefaultAppearance: Bool) {
        let slot = slots[submitted % slots.count]
        precondition(block.baseAddress == UnsafePointer(slot.elements), "blocks are submitted in their slots, in order")
        slot.holdsDefaultAppearance = holdsDefaultAppearance
        slot.count = block.count
        slot.first = elementsSubmitted
        elementsSubmitted += block.count
        condition.lock()
        slot.state = stopped ? .done : .pending
        submitted += 1
        changed()
        condition.unlock()
        do {
            try writeOut(upTo: submitted - slots.count + 1)
        } catch {
            condition.lock()
            failure = error
            stopped = true  // nothing more is written: the remaining blocks are dropped
            changed()
            condition.unlock()
            try? writeOut(upTo: submitted - slots.count + 1)
        }
        let next = slots[submitted % slots.count]
        return (next.elements, next.holdsDefaultAppearance)
    }

    /// Writes out every submitted block, in order.
    /// - Throws: the first error of the output's sink.
    private func finish() throws {
        if let failure { throw failure }
        try writeOut(upTo: submitted)
        if let failure { throw failure }
    }

    /// Lets the workers go (after the block each is formatting) and drops whatever is not
    /// yet written. Idempotent.
    package func stop() {
        condition.lock()
        stopped = true
        changed()
        condition.unlock()
    }

    /// Writes blocks out in order until `target` are written (or dropped once stopped),
    /// formatting pending ones while the next to write is not ready.
    private func writeOut(upTo target: Int) throws {
        while written < target {
            let slot = slots[written % slots.count]
            awaitDone(slot)
            condition.lock()
            let dropped = stopped
            condition.unlock()
            if dropped {
                slot.buffer.removeAll()
            } else {
                try out.append(contentsOf: slot.buffer)
            }
            release(slot)
        }
    }

    private func awaitDone(_ slot: Slot) {
        condition.lock()
        while slot.state != .done {
            if !formatNextPending() { idle() }
        }
        condition.unlock()
    }

    /// Formats the earliest pending block, if any, unlocking while it works (called with the
    /// lock held). Returns whether there was one.
    private func formatNextPending() -> Bool {
        guard let pending = nextPending() else { return false }
        pending.state = .working
        condition.unlock()
        formatSlot(pending)
        condition.lock()
        pending.state = .done
        changed()
        return true
    }

    /// Tells the threads waiting in `idle()` that something changed (called with the lock held).
    private func changed() {
        changes.add(1, ordering: .releasing)
        condition.broadcast()
    }

    /// Waits for a change, with the lock held: first polls without the lock for a while (a
    /// block takes tens of microseconds to fill or format, and waking a sleeping thread
    /// costs a context switch on each side, which came to two per block), then sleeps.
    private func idle() {
        if spinLimit > 0 {
            let seen = changes.load(ordering: .acquiring)
            condition.unlock()
            var polls = 0
            while polls < spinLimit && changes.load(ordering: .relaxed) == seen { polls &+= 1 }
            condition.lock()
            if changes.load(ordering: .acquiring) != seen { return }
        }
        condition.wait()
    }

    private func release(_ slot: Slot) {
        condition.lock()
        slot.state = .free
        written += 1
        condition.unlock()
    }

    /// The pending slot holding the earliest block (called with the lock held).
    private func nextPending() -> Slot? {
        var k = written
        while k < submitted {
            let slot = slots[k % slots.count]
            if slot.state == .pending { return slot }
            k += 1
        }
        return nil
    }

    /// Formats a slot's elements into its buffer (nothing once stopped).
    private func formatSlot(_ slot: Slot) {
        if stopped { return }
        formatBlock(UnsafeBufferPointer(start: slot.elements, count: slot.count), slot.first,
                    slot.holdsDefaultAppearance, slot.buffer)
    }

    private func work() {
        condition.lock()
        while !stopped || nextPending() != nil {
            if !formatNextPending() { idle() }
        }
        condition.unlock()
    }
}
