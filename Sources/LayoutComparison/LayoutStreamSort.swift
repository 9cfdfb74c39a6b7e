// Layouts not in element order, streamed sorted by an external merge sort; standard input
// spooled to an unlinked temporary file, so that it is streamed as a file is.
import Foundation

// MARK: - Temporary files

/// A file descriptor closed when released: an unlinked temporary file, or one adopted.
final class OpenFile {
    let fd: Int32

    /// Adopts `fd` (closing −1 does nothing).
    init(adopting fd: Int32) { self.fd = fd }

    /// An unlinked temporary file, open to read and write, named for `purpose` (`report`, `sort`,
    /// `stdin`); `LayoutStreamFallback` when none can be created.
    init(temporary purpose: String) throws {
        var template = Array((NSTemporaryDirectory() + "/cvlayout-\(purpose)-XXXXXX").utf8CString)
        fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw LayoutStreamFallback("no temporary file for the \(purpose)") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }

    deinit { close(fd) }

    /// Writes all `count` bytes at `bytes`; `LayoutStreamFallback` on a write error (a full disk).
    func write(_ bytes: UnsafeRawPointer, count: Int) throws {
        var done = 0
        while done < count {
            let n = Foundation.write(fd, bytes + done, count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw LayoutStreamFallback("cannot write a temporary file")
            }
            done += n
        }
    }

    /// Reads `count` bytes at `offset` into `bytes`: how many, fewer only at the end of the file;
    /// `LayoutStreamFallback` on a read error.
    func read(into bytes: UnsafeMutableRawPointer, count: Int, at offset: Int) throws -> Int {
        var done = 0
        while done < count {
            let n = pread(fd, bytes + done, count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw LayoutStreamFallback("cannot read a temporary file")
            }
            if n == 0 { break }
            done += n
        }
        return done
    }
}

// MARK: - External sort

/// A record an `ExternalSorter` sorts: plain bytes, in a strict order whose first two keys
/// are `sortKey`.
protocol ExternallySortable: BitwiseCopyable {
    /// The first keys of the order, compared as integers before `sortsBefore` is asked.
    var sortKey: SIMD2<UInt64> { get }
    func sortsBefore(_ other: Self) -> Bool
}

extension StreamedElement: ExternallySortable {
    var sortKey: SIMD2<UInt64> { order }
    func sortsBefore(_ other: StreamedElement) -> Bool { precedes(other) }
}

/// Two positions, ordered by the first (the other is carried along).
struct PositionPair: ExternallySortable {
    var first: Int, second: Int
    var sortKey: SIMD2<UInt64> { SIMD2(UInt64(first), 0) }
    func sortsBefore(_ other: PositionPair) -> Bool { first < other.first }
}

/// Sorts any number of records in bounded memory: `append` them, then read them back in
/// order with `next`. Runs of `runBytes` are sorted in memory (a permutation of their keys)
/// and written to one unlinked temporary file, then merged through a heap, each run read
/// through a buffer of its own. Records that fit in one run never touch the disk.
/// - Complexity: O(n log n) time; memory `runBytes`, 32 bytes a record of a run, and 64 KiB
///   a run while merging; disk the records' bytes (192 MB for 10⁶ elements).
final class ExternalSorter<Record: ExternallySortable> {
    private let runLength: Int
    private var run: UnsafeMutablePointer<Record>?
    private var count = 0
    /// The run's keys and positions, sorted.
    private var permutation: [(key: SIMD2<UInt64>, index: Int)] = []
    private var file: OpenFile?
    /// The runs on disk, as ranges of records in the file.
    private var runs: [Range<Int>] = []
    private var written = 0
    private var input = true
    /// Reading back one run kept in memory: the next position in `permutation`.
    private var cursor = 0
    // Merging: each run's buffer in `heads`, its window `position..<filled`, where its next
    // records start in the file; `heap` holds the runs left, the least first.
    private var heads: UnsafeMutablePointer<Record>?
    private var position: [Int] = [], filled: [Int] = [], nextRecord: [Int] = []
    private var heap: [Int] = []
    private let headLength: Int
    private static var stride: Int { MemoryLayout<Record>.stride }

    init(runBytes: Int) {
        runLength = max(2, runBytes / Self.stride)
        headLength = max(16, (64 << 10) / Self.stride)
    }

    deinit {
        run?.deallocate()
        heads?.deallocate()
    }

    /// Adds a record (before the first `next`).
    /// - Throws: `LayoutStreamFallback` when the temporary file cannot be written.
    @inline(__always)
    func append(_ record: Record) throws {
        if run == nil { run = .allocate(capacity: runLength) }
        run![count] = record
        count += 1
        if count == runLength { try spill() }
    }

    private func sortRun() {
        guard let run else { return }
        permutation = (0..<count).map { (run[$0].sortKey, $0) }
        permutation.sort { x, y in
            if x.key[0] != y.key[0] { return x.key[0] < y.key[0] }
            if x.key[1] != y.key[1] { return x.key[1] < y.key[1] }
            return run[x.index].sortsBefore(run[y.index])
        }
    }

    /// Sorts the run and writes it to the temporary file, in pieces of 1 MiB.
    private func spill() throws {
        guard count > 0, let run else { return }
        sortRun()
        let file = try self.file ?? OpenFile(temporary: "sort")
        self.file = file
        let pieceLength = max(1, (1 << 20) / Self.stride)
        let piece = UnsafeMutablePointer<Record>.allocate(capacity: pieceLength)
        defer { piece.deallocate() }
        var k = 0
        while k < count {
            let n = min(pieceLength, count - k)
            for j in 0..<n { piece[j] = run[permutation[k + j].index] }
            try file.write(piece, count: n * Self.stride)
            k += n
        }
        runs.append(written..<written + count)
        written += count
        count = 0
    }

    /// Ends the input: sorts the run in memory, or writes it as the last run and starts the merge.
    private func endInput() throws {
        input = false
        guard !runs.isEmpty else {
            sortRun()
            return
        }
        try spill()
        run?.deallocate()
        run = nil
        permutation = []
        heads = .allocate(capacity: runs.count * headLength)
        position = Array(repeating: 0, count: runs.count)
        filled = position
        nextRecord = runs.map(\.lowerBound)
        for r in runs.indices where try refill(r) { heap.append(r) }
        heap.sort { head($0).sortsBefore(head($1)) }  // a sorted array is a heap
    }

    @inline(__always)
    private func head(_ r: Int) -> Record { heads![r * headLength + position[r]] }

    /// Reads run `r`'s next records into its buffer; `false` when it has none left.
    private func refill(_ r: Int) throws -> Bool {
        let n = min(headLength, runs[r].upperBound - nextRecord[r])
        guard n > 0 else { return false }
        let bytes = n * Self.stride
        guard try file!.read(into: heads! + r * headLength, count: bytes, at: nextRecord[r] * Self.stride) == bytes else {
            throw LayoutStreamFallback("a temporary file ended early")
        }
        nextRecord[r] += n
        position[r] = 0
        filled[r] = n
        return true
    }

    /// The next record in order, `false` after the last; `LayoutStreamFallback` on a read error.
    func next(into record: inout Record) throws -> Bool {
        if input { try endInput() }
        if runs.isEmpty {
            guard cursor < count, let run else { return false }
            record = run[permutation[cursor].index]
            cursor += 1
            return true
        }
        guard let top = heap.first else { return false }
        record = head(top)
        position[top] += 1
        if position[top] == filled[top], try !refill(top) {
            let last = heap.removeLast()
            guard !heap.isEmpty else { return true }
            heap[0] = last
        }
        // Sift the top down.
        var i = 0
        while true {
            let left = 2 * i + 1, right = left + 1
            var least = i
            if left < heap.count, head(heap[left]).sortsBefore(head(heap[least])) { least = left }
            if right < heap.count, head(heap[right]).sortsBefore(head(heap[least])) { least = right }
            if least == i { break }
            heap.swapAt(i, least)
            i = least
        }
        return true
    }
}

// MARK: - A stream in element order

/// The elements of `source` in element order: read to its end and sorted by an
/// `ExternalSorter` at the first `next`. Its parts and fields (`finish`) are `source`'s.
/// - Throws: from `next`, whatever `source` throws.
/// - Complexity: O(n log n); memory `runBytes` and a buffer a run, whatever n.
final class SortedLayoutStream: LayoutElementStream {
    let source: LayoutElementStream
    private var sorter: ExternalSorter<StreamedElement>?
    private var finished: (document: LayoutDocument, present: UInt16)?
    private var ended = false
    private let runBytes: Int
    /// The memory for one run by default (12 MiB, 65,536 elements): two sorted sides stay
    /// under 100 MB in all. Tests make it small, to merge many runs.
    nonisolated(unsafe) static var runBytes = 12 << 20

    init(_ source: LayoutElementStream, runBytes: Int = SortedLayoutStream.runBytes) {
        self.source = source
        self.runBytes = runBytes
    }

    private func sort() throws -> ExternalSorter<StreamedElement> {
        let sorter = ExternalSorter<StreamedElement>(runBytes: runBytes)
        var element = StreamedElement.placeholder
        while try source.next(into: &element) { try sorter.append(element) }
        finished = try source.finish()
        self.sorter = sorter
        return sorter
    }

    func next(into element: inout StreamedElement) throws -> Bool {
        let sorter = try self.sorter ?? sort()
        guard try sorter.next(into: &element) else {
            ended = true
            return false
        }
        return true
    }

    func finish() throws -> (document: LayoutDocument, present: UInt16) {
        guard ended, let finished else { throw LayoutStreamFallback("not at the end") }
        return finished
    }

    func cancel() { source.cancel() }
}

// MARK: - Inputs

/// A regular file's bytes, kept open: standard input (or a FIFO), copied to an unlinked
/// temporary file unless it is a regular file already, so that it is streamed as a file
/// is, and read again whole when the streams give up.
public final class SpooledInput {
    let file: OpenFile
    /// Where the bytes start in `file`.
    private var start = 0
    /// Its length in bytes.
    public private(set) var count = 0

    /// Keeps what `descriptor` gives until its end, at most `limit` bytes: a regular file
    /// (`< file`) as it is, from its current offset; a pipe copied in chunks of 1 MiB, its
    /// first `startLength` bytes (not a shorter input) shown to `inspect` once read, whose
    /// error stops the copy.
    /// - Throws: `SpooledInput.TooLarge` past `limit`; `SpooledInput.Device` for a device
    ///   (`< /dev/zero`, a terminal); the read error (an `NSError` in the POSIX domain);
    ///   `LayoutStreamFallback` when the temporary file cannot be written; what `inspect` throws.
    public init(copying descriptor: Int32, limit: Int, startLength: Int = 64 << 10,
                inspect: ((Data) throws -> Void)? = nil) throws {
        // A closed descriptor is an error (else the temporary file could take its number).
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
        let type = info.st_mode & S_IFMT
        if type == S_IFCHR || type == S_IFBLK { throw Device() }
        let offset = lseek(descriptor, 0, SEEK_CUR)
        if type == S_IFREG && offset >= 0 {
            guard Int(info.st_size) - Int(offset) <= limit else { throw TooLarge(limit: limit) }
            file = OpenFile(adopting: dup(descriptor))
            guard file.fd >= 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
            start = Int(offset)
            count = max(0, Int(info.st_size) - start)
            return
        }
        file = try OpenFile(temporary: "stdin")
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var head: Data? = inspect == nil ? nil : Data()
        while true {
            let n = read(descriptor, buffer, chunk)
            if n < 0 {
                if errno == EINTR { continue }
                throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno))
            }
            if n == 0 { break }
            if var seen = head {
                // The start, looked at once it is whole, before the rest is copied.
                seen.append(buffer.assumingMemoryBound(to: UInt8.self), count: min(n, startLength - seen.count))
                head = seen.count < startLength ? seen : nil
                if head == nil { try inspect?(seen) }
            }
            if count + n > limit { throw TooLarge(limit: limit) }
            try file.write(buffer, count: n)
            count += n
        }
    }

    /// Keeps `data` (standard input already read).
    /// - Throws: `LayoutStreamFallback` when the temporary file cannot be written.
    public init(_ data: Data) throws {
        file = try OpenFile(temporary: "stdin")
        try data.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { try file.write(base, count: bytes.count) }
        }
        count = data.count
    }

    /// More bytes than the limit.
    public struct TooLarge: Error {
        /// The most bytes the copy takes.
        public let limit: Int
    }

    /// A device, which may never end: not copied.
    public struct Device: Error {}

    /// All the bytes.
    /// - Throws: `LayoutStreamFallback` on a read error.
    public func data() throws -> Data {
        var data = Data(count: count)
        let n = try data.withUnsafeMutableBytes { try file.read(into: $0.baseAddress!, count: count, at: start) }
        guard n == count else { throw LayoutStreamFallback("the spooled input ended early") }
        return data
    }

    /// A window on the bytes from the start, independent of any other.
    func window() throws -> ByteWindow {
        let copy = dup(file.fd)
        guard copy >= 0 else { throw LayoutStreamFallback("cannot duplicate a descriptor") }
        return ByteWindow(descriptor: copy, offset: start)
    }
}

/// Where a streamed layout is read from: a file by its path, a spooled standard input (or
/// FIFO), or a layout read whole.
public enum LayoutInput {
    case path(String)
    case spooled(SpooledInput)
    case document(LayoutDocument)

    /// Whether its stream comes sorted (a document's elements are).
    var isSorted: Bool { if case .document = self { true } else { false } }

    /// Opens the layout as a stream read ahead by a thread of its own (`PrefetchedStream`), with
    /// `sorted` its elements sorted first (a document's are already).
    /// - Throws: `LayoutStreamFallback` for a path that is not a regular file or cannot be opened.
    func stream(format: LayoutFileFormat?, sorted: Bool) throws -> LayoutElementStream {
        let window: ByteWindow
        switch self {
        case .path(let path): window = try ByteWindow(path: path)
        case .spooled(let input): window = try input.window()
        case .document(let document): return DocumentStream(document)
        }
        let source = try openLayoutStream(window, format: format)
        return PrefetchedStream(sorted ? SortedLayoutStream(PrefetchedStream(source)) : source)
    }
}

/// A layout read whole as a stream, in element order (the reader refused any duplicate).
final class DocumentStream: LayoutElementStream {
    private let elements: [StreamedElement]
    private var index = 0
    /// The layout without its elements, and the fields given (bits of `ElementField.rawValue`).
    private let rest: (document: LayoutDocument, present: UInt16)

    init(_ document: LayoutDocument) {
        elements = document.elements.sorted { $0.precedes($1) }
        var rest = document
        rest.elements = []
        self.rest = (rest, document.presentFields.reduce(0) { $0 | 1 << UInt16($1.rawValue) })
    }

    func next(into element: inout StreamedElement) throws -> Bool {
        guard index < elements.count else { return false }
        element = elements[index]
        index += 1
        return true
    }

    func finish() throws -> (document: LayoutDocument, present: UInt16) { rest }
}
