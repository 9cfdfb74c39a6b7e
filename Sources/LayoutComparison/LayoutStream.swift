// Layouts read as streams, the one reader of each format: element by element in chunks
// (`cvlayout diff`, `--check`), or collected (`LayoutReader.read`). What a file's stream does
// not read makes it give up with `LayoutStreamFallback`: the file is then read whole.
import Foundation
import FastText
import LayoutCore
import LayoutDatasets
import LayoutWriters

// MARK: - Elements

/// Thrown when a file cannot be streamed (a duplicate, anything malformed: the file is read
/// whole, which says what); with `outOfOrder`, a side not in element order (compared again
/// sorted); with `presence`, a field only some elements give (compared again, knowing them).
public struct LayoutStreamFallback: Error, CustomStringConvertible {
    /// Why the streams gave up, for debugging (never shown to users).
    public var description: String
    /// The side whose elements are not in element order, if that is the reason.
    public var outOfOrder: DiffSide?
    /// The fields each side gives (bits of `ElementField.rawValue`), if that is the reason.
    public var presence: (expected: UInt16, actual: UInt16)?
    init(_ description: String, outOfOrder: DiffSide? = nil, presence: (expected: UInt16, actual: UInt16)? = nil) {
        self.description = description
        self.outOfOrder = outOfOrder
        self.presence = presence
    }
}

/// One element as the readers give it, as plain values (the category and kind as codes; the
/// key is built only for the report). A field's bit in `mask` says whether the file gives it.
public struct StreamedElement: Sendable {
    var section = 0, item = 0
    /// 0 `cell`, 1 `supplementaryView`, 2 `decorationView`.
    var category: UInt8 = 0
    /// 0 none, 1 `header`, 2 `footer`, 3… another kind (`kindNames`).
    var kind: Int32 = 0
    var disappearing = false
    /// The section, and the slot and item, as `ElementKey.<` orders them first.
    var order = SIMD2<UInt64>()
    var values = SIMD16<Double>()
    var mask: UInt16 = 0
    /// Where the element is in its file: its index in a JSON file, its line in a CSV.
    var ordinal = 0

    private init() {}

    static var placeholder: StreamedElement { StreamedElement() }

    /// The key, for the report.
    public var key: ElementKey {
        ElementKey(category: category == 0 ? cellCategory : category == 1 ? supplementaryCategory : decorationCategory,
                   kind: kind == 0 ? nil : kind == 1 ? headerKind : kind == 2 ? footerKind : kindNames.name(Int(kind)),
                   section: section, item: item, disappearing: disappearing)
    }

    @inline(__always)
    mutating func setKey(section: Int, item: Int, category: UInt8, kind: Int32, disappearing: Bool = false) {
        self.section = section
        self.item = item
        self.category = category
        self.kind = kind
        self.disappearing = disappearing
        let slot: UInt64 = category == 0 ? 1 : category == 1 && kind == 1 ? 0 : category == 1 && kind == 2 ? 3 : 2
        // Items past 2⁵⁶ (never in a layout) keep their order through the keys' comparison.
        order = SIMD2(UInt64(section), slot << 56 | UInt64(min(item, 1 << 56 - 1)))
    }

    /// `key < other.key`, the integers first.
    @inline(__always)
    func precedes(_ other: StreamedElement) -> Bool {
        if order[0] != other.order[0] { return order[0] < other.order[0] }
        if order[1] != other.order[1] { return order[1] < other.order[1] }
        return key < other.key
    }

    /// Copies `other`'s key (what `precedes` and `sameKey` read), not its values.
    @inline(__always)
    mutating func copyKey(of other: StreamedElement) {
        section = other.section
        item = other.item
        category = other.category
        kind = other.kind
        disappearing = other.disappearing
        order = other.order
    }

    /// `key == other.key`.
    @inline(__always)
    func sameKey(_ other: StreamedElement) -> Bool {
        order == other.order && item == other.item && category == other.category && kind == other.kind
            && disappearing == other.disappearing
    }

    @inline(__always)
    func value(_ field: ElementField) -> FieldValue? {
        guard mask & 1 << UInt16(field.rawValue) != 0 else { return nil }
        let v = values[field.rawValue]
        return field == .hidden ? .bool(v != 0) : .number(v)
    }

    /// Sets `field` to `value` (`hidden`: 0 or 1).
    @inline(__always)
    mutating func set(_ field: ElementField, _ value: Double) {
        values[field.rawValue] = value
        mask |= 1 << UInt16(field.rawValue)
    }

    /// The value of `field`, if the file gives one.
    public subscript(field: ElementField) -> FieldValue? { value(field) }
}

/// Kinds other than `header` and `footer` (ASCII), as codes from 3 on, shared by both sides.
let kindNames = NameCodes(first: 3)

/// A category's code (`StreamedElement.category`), or `nil` for a name no layout has.
func categoryCode(_ name: String) -> UInt8? {
    [cellCategory, supplementaryCategory, decorationCategory].firstIndex(of: name).map(UInt8.init)
}

/// A kind's code (`StreamedElement.kind`): 0 for none (empty).
func kindCode(_ name: String) -> Int32 {
    name.isEmpty ? 0 : name == headerKind ? 1 : name == footerKind ? 2 : Int32(kindNames.code(name)!)  // no limit: never nil
}

/// A source of elements in file order, and, once exhausted, the rest of the document.
protocol LayoutElementStream: AnyObject {
    /// Reads the next element into `element`; `false` after the last.
    func next(into element: inout StreamedElement) throws -> Bool
    /// After `next` gave `false`: the document without its elements, and the fields given.
    func finish() throws -> (document: LayoutDocument, present: UInt16)
    /// Stops any thread reading ahead (the comparison gave up); `next` may throw after it.
    func cancel()
}

extension LayoutElementStream {
    func cancel() {}

    /// The error for two elements with `key` at `ordinal` and `first`, as the file's reader
    /// (under any wrapper) words it: CSV rows, or JSON paths (`[3]` for a layout read whole).
    func duplicate(_ key: ElementKey, at ordinal: Int, first: Int) -> LayoutReadError {
        var reader: LayoutElementStream = self
        while let source = (reader as? PrefetchedStream)?.source ?? (reader as? SortedLayoutStream)?.source {
            reader = source
        }
        let text = "duplicate element \(key.messageText)"
        if reader is CSVLayoutStream {
            return .invalidValue(location: "row \(ordinal)", message: "\(text) (also on row \(first))")
        }
        let path = (reader as? JSONLayoutStream)?.decoder.path ?? ""
        return .invalidValue(location: "\(path)[\(ordinal)]", message: "\(text) (also at \(path)[\(first)])")
    }
}

// MARK: - Bytes in chunks

/// A file's bytes in a window that slides as it is read. `base` and `end`, read for every
/// element, are not checked for exclusive access at run time (a window is used by one thread
/// at a time, and they are only set by `refill`).
final class ByteWindow {
    /// The bytes, and a zero after the last (`base[end]`), which stops a scan of digits.
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// Bytes valid in `base`.
    @exclusivity(unchecked) private(set) var end = 0
    private(set) var atEOF = false
    /// The file read (`nil`: the input was read whole), by `pread`: a descriptor shared with
    /// another window is not moved.
    private let file: OpenFile?
    /// Where the next read starts.
    private var offset = 0

    /// Reads `path` (which must be a regular file) in chunks of `chunk` bytes.
    convenience init(path: String, chunk: Int = 1 << 21) throws {
        // Only a regular file, looked at before it is opened (opening a FIFO waits for its writer).
        var before = stat()
        guard stat(path, &before) == 0, (before.st_mode & S_IFMT) == S_IFREG else {
            throw LayoutStreamFallback("not a regular file")
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw LayoutStreamFallback("cannot open") }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw LayoutStreamFallback("not a regular file")
        }
        self.init(descriptor: fd, chunk: chunk)
    }

    /// A window holding all of `bytes` (an input read whole).
    init<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        file = nil
        capacity = max(bytes.count, 1)
        base = .allocate(capacity: capacity + 16)
        end = UnsafeMutableBufferPointer(start: base, count: bytes.count).initialize(from: bytes).1
        base[end] = 0
        atEOF = true
    }

    /// Whether it holds the whole input (read whole), not a file's chunks.
    var holdsAll: Bool { file == nil }

    /// `error` when the window holds the whole input; else a `LayoutStreamFallback`.
    func refusal(_ error: Error) -> Error {
        holdsAll || error is LayoutStreamFallback ? error : LayoutStreamFallback("\(error)")
    }

    /// Reads the regular file open as `descriptor` from `offset`, in chunks of `chunk`
    /// bytes; the window closes the descriptor.
    init(descriptor: Int32, offset: Int = 0, chunk: Int = 1 << 21) {
        file = OpenFile(adopting: descriptor)
        self.offset = offset
        capacity = chunk
        base = .allocate(capacity: capacity + 16)
        base[0] = 0
    }

    deinit { base.deallocate() }

    /// Keeps the bytes from `from` on (moved to the front) and reads more after them.
    /// - Returns: how far the kept bytes moved back, or `nil` at the end of the file.
    func refill(keepingFrom from: Int) throws -> Int? {
        if atEOF { return nil }
        let kept = end - from
        if from > 0 && kept > 0 { base.update(from: base + from, count: kept) }
        end = kept
        if end == capacity {
            // One element or part fills the window: grow it.
            guard capacity < 1 << 30 else { throw LayoutStreamFallback("an element larger than 1 GiB") }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2 + 16)
            grown.update(from: base, count: end)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        let n = try file!.read(into: base + end, count: capacity - end, at: offset)
        offset += n
        end += n
        atEOF = end < capacity
        base[end] = 0
        return from
    }
}

/// Whether `n` bytes at `a` and `b` are equal: 8 bytes at a time, inline (no call to `memcmp`).
@inline(__always) func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i + 8 <= n {
        if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) {
            return false
        }
        i += 8
    }
    if i + 4 <= n {
        if UnsafeRawPointer(a + i).loadUnaligned(as: UInt32.self) != UnsafeRawPointer(b + i).loadUnaligned(as: UInt32.self) {
            return false
        }
        i += 4
    }
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
@inline(__always) func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

/// Bytes `b[i..<end]` read forward by the streams' fast paths (a struct: a captured position
/// would be checked for exclusive access). Runs of digits stop without a bound check: a byte
/// that is no digit (a delimiter, or the window's zero) comes by `b[end]`.
struct ReadCursor {
    let b: UnsafeMutablePointer<UInt8>
    let end: Int
    var i: Int

    /// Steps over `text` when it comes next.
    @inline(__always) mutating func literal(_ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard end - i >= n, equalBytes(b + i, text.utf8Start, n) else { return false }
        i += n
        return true
    }

    /// Steps over the first of `a`, `b`, `c` that comes next: 0, 1 or 2; `nil` for none.
    @inline(__always) mutating func choice(_ a: StaticString, _ b: StaticString, _ c: StaticString? = nil) -> UInt8? {
        if literal(a) { return 0 }
        if literal(b) { return 1 }
        if let c, literal(c) { return 2 }
        return nil
    }

    /// An integer of 1 to 15 digits (with `json`, no leading zero), after a `-` if `signed`, and
    /// the byte `then`: an index path's part, a zIndex.
    @inline(__always)
    mutating func integer(then: Unicode.Scalar = ",", signed: Bool = false, json: Bool = false) -> Int? {
        var j = i
        let negative = signed && b[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        var v: UInt64 = 0
        let start = j
        digits(&j, &v)
        let n = j - start
        guard n > 0, n <= 15, !json || n == 1 || b[start] != 0x30, b[j] == UInt8(truncatingIfNeeded: then.value)
        else { return nil }
        i = j + 1
        return negative ? -Int(v) : Int(v)
    }

    /// `-?digits(.digits)?` and the byte `then`, as `Double(text)` reads it: at most 15 digits,
    /// or with `json` no leading zero and at most 19 digits ≤ 2⁵³ (Clinger: an exact integer
    /// over an exact power of ten, one rounding).
    @inline(__always)
    mutating func number(then: Unicode.Scalar = ",", json: Bool = false) -> Double? {
        var j = i
        let negative = b[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        var significand: UInt64 = 0
        let start = j
        digits(&j, &significand)
        let integerDigits = j - start
        var fraction = 0
        if b[j] == UInt8(ascii: ".") {
            j += 1
            let fractionStart = j
            digits(&j, &significand)
            fraction = j - fractionStart
            if fraction == 0 { return nil }
        }
        guard integerDigits > 0, integerDigits + fraction <= (json ? 19 : 15), b[j] == UInt8(truncatingIfNeeded: then.value)
        else { return nil }
        if json && ((integerDigits > 1 && b[start] == 0x30) || significand > 1 << 53) { return nil }
        i = j + 1
        var v = Double(Int64(bitPattern: significand))  // ≤ 2⁵³: a signed conversion, exact
        if fraction > 0 { v /= JSONNumber.powersOfTen[fraction] }
        return negative ? -v : v
    }

    /// Reads the run of digits at `b + j` into `significand` (wrapping past 19 digits) and moves
    /// `j` past it. (Eight at a time, SWAR, was slower: most numbers have one to four digits.)
    @inline(__always)
    func digits(_ j: inout Int, _ significand: inout UInt64) {
        while true {
            let d = b[j] &- 0x30
            if d >= 10 { return }
            significand = significand &* 10 &+ UInt64(d)
            j += 1
        }
    }
}

/// The category and kind strings, shared (no allocation per element).
let cellCategory = "cell", supplementaryCategory = "supplementaryView", decorationCategory = "decorationView"
let headerKind = "header", footerKind = "footer"

// MARK: - Opening

/// Opens a layout as a stream: as `format`, or when `nil` as its first non-blank byte (after
/// any byte order mark) suggests: `{` or `[` JSON (checked whole first when read whole), `<`
/// refused as SVG or XML, else CSV. Throws `LayoutReadError` (read whole) or
/// `LayoutStreamFallback` for an empty input or SVG, and what the stream's start throws.
func openLayoutStream(_ window: ByteWindow, format: LayoutFileFormat?) throws -> LayoutElementStream {
    var pos = 0
    while true {
        while pos < window.end, isSpace(window.base[pos]) { pos += 1 }
        if pos < window.end { break }
        guard try window.refill(keepingFrom: 0) != nil else { throw window.refusal(LayoutReader.emptyFile) }
    }
    var start = 0
    if pos == 0 && window.end >= 3 && window.base[0] == 0xEF && window.base[1] == 0xBB && window.base[2] == 0xBF {
        start = 3
        pos = 3
        while pos < window.end, isSpace(window.base[pos]) { pos += 1 }
        guard pos < window.end else { throw window.refusal(LayoutReader.emptyFile) }
    }
    let first = window.base[pos]
    if first == UInt8(ascii: "<") && format != .csv { throw window.refusal(LayoutReader.notSVG) }
    if first == 0xEF && !window.holdsAll { throw LayoutStreamFallback("a second byte order mark") }
    switch format ?? (first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .csv) {
    case .json:
        if window.holdsAll { try LayoutReader.checkWholeJSON(Data(bytesNoCopy: window.base, count: window.end, deallocator: .none)) }
        return try JSONLayoutStream(window, position: pos)
    case .csv: return try CSVLayoutStream(window, position: start)  // blank space before the header is the header's
    }
}
