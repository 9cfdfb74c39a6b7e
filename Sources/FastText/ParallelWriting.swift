import Foundation
import Synchronization
import LayoutCore

/// Formats positions `0..<count` on every core in blocks of `blockSize`, each worker into a buffer of
/// its own (`format` must only read shared state), handing `out` the bytes one loop would write.
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
    let buffers = (0..<workers).map { _ in OutputBuffer(precision: out.precision) }
    try withoutActuallyEscaping(format) { format in
        nonisolated(unsafe) let work = format  // the caller's promise: it reads only shared state
        nonisolated(unsafe) let workerBuffers = buffers  // one a worker
        for start in stride(from: 0, to: count, by: workers * blockSize) {
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let low = start + worker * blockSize
                let high = min(count, low + blockSize)
                guard low < high else { return }
                let buffer = workerBuffers[worker]
                for position in low..<high { work(position, buffer) }
            }
            for buffer in buffers { try out.append(contentsOf: buffer) }
        }
    }
}

/// The cores the writers' threads can run on: on Linux the affinity mask's CPUs capped by a cgroup v2
/// quota, in about 10 µs (`ProcessInfo.activeProcessorCount` takes 0.3 ms and ignores the mask).
enum AvailableCores {
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
    /// The quota in CPUs (`cpu.max`: "quota period" or "max period"), rounded up; read with `read`:
    /// Foundation's file reading costs 0.3 MiB more resident memory.
    private static var cgroupQuota: Int? {
        let fd = open("/sys/fs/cgroup/cpu.max", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, 63) }
        guard n > 0 else { return nil }
        let fields = String(decoding: bytes[..<n], as: UTF8.self).split(whereSeparator: \.isWhitespace)
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

/// Runs `body` on a new thread with a stack of `stackSize` bytes, and returns at once.
package func runConcurrently(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.stackSize = stackSize
    thread.start()
}

/// Formats blocks of elements on worker threads while the producer computes the next, and hands
/// the text to its output in order. A ring of slots of `blockSize` elements and a buffer: the
/// producer (an engine) fills one in place and submits it; workers format pending slots; before a
/// slot is refilled its block is written out, the producer formatting pending ones rather than
/// wait. Runs (`run`) reuse the threads and slots.
package final class BlockPipeline: @unchecked Sendable {
    private enum State { case free, pending, working, done }
    private final class Slot {
        let elements: UnsafeMutablePointer<LayoutAttributes>
        var count = 0
        var first = 0
        var state = State.free
        var holdsDefaultAppearance = true
        let buffer: OutputBuffer

        /// A slot of `blockSize` elements in `memory` (`bytes`, cache-line aligned, outliving it).
        init(precision: NumberPrecision, memory: UnsafeMutableRawPointer) {
            // Cache-line aligned: an element's appearance, which the engine need not store, has its own line.
            elements = memory.bindMemory(to: LayoutAttributes.self, capacity: blockSize)
            elements.initialize(repeating: .cell(IndexPath(item: 0, section: 0), frame: Rect(x: 0, y: 0, width: 0, height: 0)),
                                count: blockSize)
            let cache = memory + Self.elementBytes
            buffer = OutputBuffer(precision: precision,
                                  storage: (cache + Self.cacheBytes).bindMemory(to: UInt8.self, capacity: Self.textBytes),
                                  capacity: Self.textBytes,
                                  numberCache: cache.bindMemory(to: CachedNumber.self, capacity: CachedNumber.slots))
        }

        static let elementBytes = blockSize * MemoryLayout<LayoutAttributes>.stride
        static let cacheBytes = CachedNumber.slots * MemoryLayout<CachedNumber>.stride
        /// Room for a block's text: 256 bytes an element (an SVG's takes about 230), and one more.
        static let textBytes = blockSize * 256 + OutputBuffer.elementBound
        /// A slot's bytes: its elements, its buffer's number table and text, to a cache line.
        static let bytes = (elementBytes + cacheBytes + textBytes + 63) & ~63
    }
    /// The slots' memory, one allocation on huge pages where the kernel gives them.
    private let memory: UnsafeMutableRawPointer

    /// Elements per slot: 128 KB, which stay in the cache from engine to formatting.
    package static let blockSize = 1_024
    /// The run's formatting; set between runs, under the lock.
    private var formatBlock: (UnsafeBufferPointer<LayoutAttributes>, Int, Bool, OutputBuffer) -> Void = { _, _, _, _ in }
    private let condition = NSCondition()
    private let slots: [Slot]
    /// The run's output (the producer's only).
    private var out: OutputBuffer
    /// Blocks submitted / written so far; slot `k % slots.count` holds block k.
    private var submitted = 0
    private var written = 0
    private var elementsSubmitted = 0
    private var stopped = false
    /// The first error of the output's sink; once set, blocks are dropped.
    private var failure: Error?
    /// Counts the changes an idle thread waits for (made under the lock): see `idle()`.
    private let changes = Atomic<Int>(0)
    /// Polls of `changes` (about 1 ns each) before `idle()` sleeps: 0 on a single core.
    private let spinLimit: Int

    /// Starts one worker per core but the producer's (1 to 8), with two slots per thread plus two.
    package init(precision: NumberPrecision) {
        out = OutputBuffer(precision: precision)
        let cores = AvailableCores.count
        let workers = min(max(cores - 1, 1), 8)
        spinLimit = cores > 1 ? 100_000 : 0
        // One allocation on 2 MiB huge pages (≥ 4 MiB): a fresh 4 KiB page faults for about a microsecond.
        let slotBytes = Slot.bytes, slotCount = 2 * workers + 2
        let huge = 2 << 20
        let total = max(2 * huge, (slotBytes * slotCount + huge - 1) & ~(huge - 1))
        memory = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: huge)
        UnsafeMutableBufferPointer(start: memory.bindMemory(to: UInt8.self, capacity: total), count: total).adviseHugePages()
        slots = (0..<slotCount).map { [memory] k in Slot(precision: precision, memory: memory + k * slotBytes) }
        for _ in 0..<workers { runConcurrently(stackSize: 1 << 20) { [self] in work() } }
    }

    deinit {
        // The threads hold the pipeline until they end; the slots' buffers free only their own memory.
        memory.deallocate()
    }

    /// The slots' buffers: no two `formatBlock` calls get the same one at once.
    package var slotBuffers: [OutputBuffer] { slots.map(\.buffer) }

    /// Runs `produce` with a sink that fills the slots, each block formatted on any free thread by
    /// `formatBlock` (block, first element's position, all of the default appearance, the slot's
    /// buffer; reading only shared state) and its text handed to `output` in order.
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
        if let failure { throw failure }
        try writeOut(upTo: submitted)
        if let failure { throw failure }
    }

    /// Queues the filled slot `block`; returns the next slot to fill once written out. After `stop()`
    /// blocks are dropped.
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
            condition.unlock()
            stop()  // nothing more is written: the remaining blocks are dropped
            try? writeOut(upTo: submitted - slots.count + 1)
        }
        let next = slots[submitted % slots.count]
        return (next.elements, next.holdsDefaultAppearance)
    }

    /// Lets the workers go and drops what is not yet written. Idempotent.
    package func stop() {
        condition.lock()
        stopped = true
        changed()
        condition.unlock()
    }

    /// Writes blocks out until `target` are written (or dropped once stopped), formatting pending ones.
    private func writeOut(upTo target: Int) throws {
        while written < target {
            let slot = slots[written % slots.count]
            condition.lock()
            while slot.state != .done {
                if !formatNextPending() { idle() }
            }
            let dropped = stopped
            condition.unlock()
            if dropped {
                slot.buffer.removeAll()
            } else {
                try out.append(contentsOf: slot.buffer)
            }
            condition.lock()
            slot.state = .free
            written += 1
            condition.unlock()
        }
    }

    /// Formats the earliest pending block, if any, unlocked while it works (called locked).
    private func formatNextPending() -> Bool {
        guard let pending = nextPending() else { return false }
        pending.state = .working
        condition.unlock()
        if !stopped {
            formatBlock(UnsafeBufferPointer(start: pending.elements, count: pending.count), pending.first,
                        pending.holdsDefaultAppearance, pending.buffer)
        }
        condition.lock()
        pending.state = .done
        changed()
        return true
    }

    /// Wakes the threads in `idle()` (called locked).
    private func changed() {
        changes.add(1, ordering: .releasing)
        condition.broadcast()
    }

    /// Waits for a change (called locked): polls unlocked a while (a wake-up costs two context
    /// switches), then sleeps.
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

    /// The pending slot holding the earliest block (called locked).
    private func nextPending() -> Slot? {
        (written..<submitted).lazy.map { self.slots[$0 % self.slots.count] }.first { $0.state == .pending }
    }

    private func work() {
        condition.lock()
        while !stopped || nextPending() != nil {
            if !formatNextPending() { idle() }
        }
        condition.unlock()
    }
}
