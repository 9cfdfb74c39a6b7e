import Dispatch
import Foundation

/// Formats a long run of elements on every core and hands the text to `out` in order, so the
/// result is byte for byte what a single loop would write.
///
/// Positions `0..<count` are cut into blocks of `blockSize`; each round, every worker formats
/// one block into a buffer of its own (`format(position, buffer)`, which must only read shared
/// state), then the round's buffers go to `out` in block order. Fewer than two cores or
/// fewer than two blocks: one plain loop on the calling thread.
/// - Throws: what `out`'s sink throws.
/// - Complexity: O(count) work, spread over the cores; memory for one block per worker.
func appendInParallel(count: Int, to out: OutputBuffer, blockSize: Int = 8192,
                      _ format: (Int, OutputBuffer) -> Void) throws {
    let workers = min(ProcessInfo.processInfo.activeProcessorCount, 8)
    if workers < 2 || count < 2 * blockSize {
        for position in 0..<count {
            format(position, out)
            try out.flushIfFull()
        }
        return
    }
    let buffers = (0..<workers).map { _ in OutputBuffer(precision: out.precision) }
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

/// Carries a value the compiler cannot prove safe into concurrent work whose safety the
/// caller guarantees (disjoint buffers, read-only shared state).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
