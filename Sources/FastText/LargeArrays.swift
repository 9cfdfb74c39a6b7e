// Capacity for arrays of a million elements without a page fault per 4 KiB.
#if os(Linux) && canImport(Glibc)
import Glibc
#elseif os(Linux) && canImport(Musl)
import Musl
#endif

extension Array {
    /// Reserves room for `n` elements, like `reserveCapacity(_:)`, and for a large array
    /// (≥ 4 MiB) asks Linux to back it with transparent huge pages (`madvise(MADV_HUGEPAGE)`
    /// on the fresh, untouched storage): a dataset's million item heights then fault in 2 MiB
    /// at a time instead of 4 KiB. Elsewhere, or when the kernel says no, it is
    /// `reserveCapacity(_:)`. (Layouts kept in memory reserve plainly: `LayoutCore` gives no
    /// page advice.)
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
    /// Asks Linux to back this fresh, untouched storage with transparent huge pages
    /// (`madvise(MADV_HUGEPAGE)` on its 2 MiB-aligned part) when it is 4 MiB or more, as
    /// `Array.reserveLargeCapacity(_:)` does; for raw storage such as the block pipeline's
    /// slots. Elsewhere, or when the kernel says no, nothing.
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
