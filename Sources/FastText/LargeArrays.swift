// Capacity for arrays of a million elements without a page fault per 4 KiB.
import Foundation  // madvise, through the C library Foundation exports

extension Array {
    /// `reserveCapacity(_:)`, and for ≥ 4 MiB transparent huge pages on Linux
    /// (`adviseHugePages`): a million item heights fault in 2 MiB at a time, not 4 KiB.
    /// - Complexity: O(1) beyond the allocation (the array must be empty).
    package mutating func reserveLargeCapacity(_ n: Int) {
        reserveCapacity(n)
        withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            UnsafeMutableBufferPointer(start: base, count: n).adviseHugePages()
        }
    }
}

extension UnsafeMutableBufferPointer {
    /// Asks Linux to back this fresh storage, when ≥ 4 MiB, with transparent huge pages
    /// (`madvise(MADV_HUGEPAGE)` on its 2 MiB-aligned part); elsewhere nothing.
    func adviseHugePages() {
        #if os(Linux)  // MADV_HUGEPAGE is Linux's; elsewhere the storage is left as it is
        let bytes = count * MemoryLayout<Element>.stride
        guard bytes >= 4 << 20, let base = baseAddress else { return }
        let huge = 2 << 20
        let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: base) + bytes) & ~(huge - 1)
        if end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) {
            _ = madvise(pointer, end - start, MADV_HUGEPAGE)
        }
        #endif
    }
}
