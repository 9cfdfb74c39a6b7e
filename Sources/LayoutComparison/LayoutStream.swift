// Layouts read as streams (`cvlayout diff`, `--check`): both sides read element by element,
// in chunks, and matched as a merge, so that memory stays at a few chunks whatever the
// element count. cvlayout's own files list their elements in element order; a file in
// another order is sorted on disk (`SortedLayoutStream`). What the streaming readers do not
// read (a malformed file, a CSV of heart samples or with quoted fields) makes them give up
// with `LayoutStreamFallback`: the file is then checked on its own, and either refused with
// the reader's message or read whole into a `LayoutDocument` and streamed from memory.
import Foundation
import FastText
import LayoutDatasets
import LayoutWriters

// MARK: - Elements

/// Thrown by the streaming comparison when a file cannot be streamed: a duplicate, anything
/// malformed (`LayoutDiff.check` then says what), a file the streams do not read; or, with
/// `outOfOrder` set, when a side's elements are not in element order (`LayoutDiff.compareStreams`
/// then compares again with that side sorted, `SortedLayoutStream`); or, with `presence`
/// set, when a field only some elements give was met before it was known that the side
/// gives it (the comparison is made again, knowing the fields each side gives).
public struct LayoutStreamFallback: Error, CustomStringConvertible {
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

/// One element as the streaming readers give it: its key and its fields, as plain values
/// (copied without reference counting: the category and kind are codes, the key is built
/// only for the report). A field's bit in `mask` says whether the file gives it; `hidden` is
/// 0 or 1.
public struct StreamedElement {
    var section = 0, item = 0
    /// 0 `cell`, 1 `supplementaryView`, 2 `decorationView`.
    var category: UInt8 = 0
    /// 0 none, 1 `header`, 2 `footer`, 3… another kind (`KindNames`).
    var kind: Int32 = 0
    var disappearing = false
    /// The section, and the slot and item, as `ElementKey.<` orders them first.
    var order = SIMD2<UInt64>()
    var values = SIMD16<Double>()
    var mask: UInt16 = 0
    /// Where the element is in its file: its index in a JSON file, its line in a CSV. Says
    /// whether two files list the elements they share in the same order, and where a
    /// duplicate is.
    var ordinal = 0

    private init() {}

    /// An element of no interest, to be overwritten by a stream's `next(into:)`.
    static var placeholder: StreamedElement { StreamedElement() }

    /// The key, for the report.
    public var key: ElementKey {
        ElementKey(category: category == 0 ? cellCategory : category == 1 ? supplementaryCategory : decorationCategory,
                   kind: kind == 0 ? nil : kind == 1 ? headerKind : kind == 2 ? footerKind : KindNames.shared.name(kind),
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

    /// Sets the key from an `ElementKey`, whose category is one of the three (the reader
    /// refuses any other).
    mutating func setKey(_ key: ElementKey) {
        let category: UInt8 = key.category == cellCategory ? 0 : key.category == supplementaryCategory ? 1 : 2
        var kind: Int32 = 0
        if let name = key.kind {
            if name == headerKind {
                kind = 1
            } else if name == footerKind {
                kind = 2
            } else {
                kind = KindNames.shared.code(name)
            }
        }
        setKey(section: key.section, item: key.item, category: category, kind: kind, disappearing: key.disappearing)
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

    /// The value of `field`, if given.
    @inline(__always)
    func value(_ field: ElementField) -> FieldValue? {
        guard mask & 1 << UInt16(field.rawValue) != 0 else { return nil }
        let v = values[field.rawValue]
        return field == .hidden ? .bool(v != 0) : .number(v)
    }

    /// `record` as a stream gives it.
    init(_ record: ElementRecord) {
        self = .placeholder
        setKey(record.key)
        for field in ElementField.allCases {
            switch record[field] {
            case .number(let v)?: values[field.rawValue] = v
            case .bool(let b)?: values[field.rawValue] = b ? 1 : 0
            case .text?, nil: continue
            }
            mask |= 1 << UInt16(field.rawValue)
        }
    }
}

/// Kinds other than `header` and `footer` (ASCII), as codes from 3 on, shared by both sides.
final class KindNames: @unchecked Sendable {
    static let shared = KindNames()
    private let lock = NSLock()
    private var names: [String] = []
    private var codes: [String: Int32] = [:]

    func code(_ name: String) -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if let code = codes[name] { return code }
        let code = Int32(names.count) + 3
        names.append(name)
        codes[name] = code
        return code
    }

    func name(_ code: Int32) -> String {
        lock.lock()
        defer { lock.unlock() }
        return names[Int(code) - 3]
    }
}

/// A source of elements in file order, and, once exhausted, the rest of the document.
protocol LayoutElementStream: AnyObject {
    /// Reads the next element into `element`; `false` after the last.
    func next(into element: inout StreamedElement) throws -> Bool
    /// After `next` gave `nil`: the document without its elements (shape, parts, unknown
    /// names) and the fields some element gives.
    func finish() throws -> (document: LayoutDocument, present: UInt16)
    /// Stops any thread reading ahead (the comparison gave up); `next` may throw after it.
    func cancel()
    /// The error for two elements with `key`, at `ordinal` and `first` (`ordinal`s), as the
    /// reader words it: `elements[7]: duplicate element 0:3 (also at elements[2])`.
    func duplicate(_ key: ElementKey, at ordinal: Int, first: Int) -> LayoutReadError
}

extension LayoutElementStream {
    func cancel() {}
}

// MARK: - Bytes in chunks

/// A file's bytes in a window that slides as it is read.
final class ByteWindow {
    /// The bytes, and a zero after the last (`base[end]`), which stops a scan of digits.
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// Bytes valid in `base`.
    private(set) var end = 0
    private(set) var atEOF = false
    private let fd: Int32
    /// Where the next read starts in the file (reads are positioned: a descriptor shared
    /// with another window, a duplicate of a spooled standard input, is not moved).
    private var offset: off_t = 0
    /// The most a window grows to hold one element or part.
    static let maximumCapacity = 1 << 30

    /// Reads `path` (which must be a regular file) in chunks of `chunk` bytes.
    init(path: String, chunk: Int = 1 << 22) throws {
        // Only a regular file is streamed (a FIFO or a device is read whole, once): looked
        // at before it is opened, since opening a FIFO waits for its writer.
        var before = stat()
        guard stat(path, &before) == 0, (before.st_mode & S_IFMT) == S_IFREG else {
            throw LayoutStreamFallback("not a regular file")
        }
        fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw LayoutStreamFallback("cannot open") }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw LayoutStreamFallback("not a regular file")
        }
        capacity = chunk
        base = .allocate(capacity: capacity + 16)
        base[0] = 0
    }

    /// A window on `bytes`, all of them in it.
    init(bytes: [UInt8]) {
        fd = -1
        capacity = max(bytes.count, 1)
        base = .allocate(capacity: capacity + 16)
        bytes.withUnsafeBufferPointer { if let start = $0.baseAddress { base.update(from: start, count: bytes.count) } }
        end = bytes.count
        base[end] = 0
        atEOF = true
    }

    /// Reads the regular file open as `descriptor` from `offset`, in chunks of `chunk`
    /// bytes; the window closes the descriptor.
    init(descriptor: Int32, offset: Int = 0, chunk: Int = 1 << 22) {
        fd = descriptor
        self.offset = off_t(offset)
        capacity = chunk
        base = .allocate(capacity: capacity + 16)
        base[0] = 0
    }

    deinit {
        base.deallocate()
        if fd >= 0 { close(fd) }
    }

    /// Keeps the bytes from `from` on (moved to the front) and reads more after them.
    /// - Returns: how far the kept bytes moved back (subtract it from positions), or `nil`
    ///   at the end of the file (nothing moved).
    func refill(keepingFrom from: Int) throws -> Int? {
        if atEOF { return nil }
        let kept = end - from
        if from > 0 && kept > 0 { base.update(from: base + from, count: kept) }
        end = kept
        if end == capacity {
            // One element or part fills the window: grow it.
            guard capacity < Self.maximumCapacity else { throw LayoutStreamFallback("an element larger than 1 GiB") }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2 + 16)
            grown.update(from: base, count: end)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        while end < capacity {
            let n = pread(fd, base + end, capacity - end, offset)
            if n > 0 { offset += off_t(n) }
            if n < 0 {
                if errno == EINTR { continue }
                throw LayoutStreamFallback("read error")
            }
            if n == 0 {
                atEOF = true
                break
            }
            end += n
        }
        base[end] = 0
        return from
    }
}

@inline(__always) private func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }

/// Whether `n` bytes at `a` and `b` are equal: 8 bytes at a time, inline (a literal's
/// bytes against the file's, without a call to `memcmp`).
@inline(__always) private func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
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
@inline(__always) private func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

/// The category and kind strings, shared (no allocation per element).
let cellCategory = "cell", supplementaryCategory = "supplementaryView", decorationCategory = "decorationView"
let headerKind = "header", footerKind = "footer"

// MARK: - Opening

/// Opens a layout file as a stream, as `LayoutReader.read` would read it: by `format`, or
/// by its first byte when `nil`.
func openLayoutStream(_ window: ByteWindow, format: LayoutFileFormat?) throws -> LayoutElementStream {
    var pos = 0
    // The first bytes (a BOM, blank space).
    while true {
        while pos < window.end, isSpace(window.base[pos]) { pos += 1 }
        if pos < window.end { break }
        guard try window.refill(keepingFrom: 0) != nil else { throw LayoutStreamFallback("empty file") }
    }
    // A byte order mark is skipped, as the reader skips it.
    var start = 0
    if pos == 0 && window.end >= 3 && window.base[0] == 0xEF && window.base[1] == 0xBB && window.base[2] == 0xBF {
        start = 3
        pos = 3
        while pos < window.end, isSpace(window.base[pos]) { pos += 1 }
        guard pos < window.end else { throw LayoutStreamFallback("empty file") }
    }
    let first = window.base[pos]
    if first == 0xEF || (first == UInt8(ascii: "<") && format != .csv) { throw LayoutStreamFallback("BOM or SVG") }
    let resolved = format ?? (first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .csv)
    switch resolved {
    case .json: return try JSONLayoutStream(window, position: pos)
    case .csv: return try CSVLayoutStream(window, position: start)  // blank space before the header is the header's
    }
}

// MARK: - JSON

/// cvlayout JSON layouts and JSON lists of elements, element by element. Elements written
/// as cvlayout writes them are scanned by their bytes; any other element is parsed on its
/// own by the strict scanner and read as `LayoutReader` reads it. Members of the
/// layout object other than `elements` are kept (they are small) and read at the end as a
/// layout without elements.
final class JSONLayoutStream: LayoutElementStream {
    private let w: ByteWindow
    private var pos: Int
    private let isList: Bool
    /// `"key":value,` of each top-level member but `elements`, as written.
    private var members: [UInt8] = []
    private var sawElements = false
    private var state = State.elements
    private enum State { case elements, done }
    private var first = true
    private var index = 0
    private var objects = 1
    private var decoder: LayoutReader.JSONElementDecoder
    private var present: UInt16 = 0
    /// Elements read by the short way (each 3 objects, counted at the end); at most
    /// `fastLimit`, past which the objects are counted one by one.
    private var fastCount = 0
    private static let fastLimit = JSONSyntaxCheck.ObjectLimit.layout.count / 3

    init(_ window: ByteWindow, position: Int) throws {
        w = window
        pos = position
        isList = window.base[position] == UInt8(ascii: "[")
        decoder = LayoutReader.JSONElementDecoder(path: isList ? "" : "elements")
        pos += 1
        if !isList { try membersUntilElements(first: true) }
    }

    // Bytes.

    /// Makes at least `n` bytes available from `pos` unless the file ends first.
    @inline(__always)
    private func ensure(_ n: Int) throws -> Bool {
        if w.end - pos >= n { return true }
        while w.end - pos < n {
            guard let shift = try w.refill(keepingFrom: pos) else { return w.end - pos >= n }
            pos -= shift
        }
        return true
    }

    private func skipSpace() throws {
        while true {
            while pos < w.end, isSpace(w.base[pos]) { pos += 1 }
            if pos < w.end { return }
            guard try ensure(1) else { return }
        }
    }

    /// The byte at `pos` after blank space, or `nil` at the end.
    private func peek() throws -> UInt8? {
        try skipSpace()
        return pos < w.end ? w.base[pos] : nil
    }

    private func expect(_ byte: UInt8) throws {
        guard try peek() == byte else { throw LayoutStreamFallback("expected \(Character(Unicode.Scalar(byte)))") }
        pos += 1
    }

    /// A plain key (no escapes, at most 256 bytes), its quotes included.
    private func key() throws -> [UInt8] {
        guard try peek() == UInt8(ascii: "\"") else { throw LayoutStreamFallback("expected a key") }
        _ = try ensure(260)
        var i = pos + 1
        while i < w.end, i - pos <= 258 {
            let c = w.base[i]
            if c == UInt8(ascii: "\"") {
                let key = Array(UnsafeBufferPointer(start: w.base + pos, count: i + 1 - pos))
                pos = i + 1
                return key
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { break }
            i += 1
        }
        throw LayoutStreamFallback("a key with escapes or too long")
    }

    /// The bytes of one JSON value from `pos` (after blank space), found by its brackets and
    /// quotes; its syntax is left to the strict scanner.
    private func captureValue() throws -> (start: Int, end: Int, objects: Int) {
        try skipSpace()
        var start = pos
        var i = pos
        var depth = 0, objects = 0
        var inString = false
        while true {
            if i >= w.end {
                let offset = i - start
                guard let shift = try w.refill(keepingFrom: start) else { throw LayoutStreamFallback("unterminated value") }
                start -= shift
                pos = start
                i = start + offset
                continue
            }
            let c = w.base[i]
            if inString {
                if c == UInt8(ascii: "\\") {
                    i += 2
                    continue
                }
                if c == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return (start, i + 1, objects) }
                }
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if c == UInt8(ascii: "{") { objects += 1 }
                depth += 1
                if depth > JSONSyntaxCheck.maximumDepth - 4 { throw LayoutStreamFallback("deep nesting") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth < 0 { throw LayoutStreamFallback("unbalanced") }
                if depth == 0 { return (start, i + 1, objects) }
            case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                if depth == 0 { return (start, i, objects) }
            default: break
            }
            i += 1
        }
    }

    /// Members of the layout object up to `"elements":[` (or its end, which is refused).
    private func membersUntilElements(first: Bool) throws {
        var first = first
        while true {
            if first {
                if try peek() == UInt8(ascii: "}") { throw LayoutStreamFallback("no elements") }
            } else {
                guard let c = try peek() else { throw LayoutStreamFallback("unterminated object") }
                if c == UInt8(ascii: "}") {
                    pos += 1
                    guard sawElements else { throw LayoutStreamFallback("no elements") }
                    state = .done
                    return
                }
                try expect(UInt8(ascii: ","))
            }
            first = false
            let name = try key()
            try expect(UInt8(ascii: ":"))
            if name == Array("\"elements\"".utf8) {
                if sawElements { throw LayoutStreamFallback("elements twice") }
                sawElements = true
                try expect(UInt8(ascii: "["))
                return
            }
            let value = try captureValue()
            objects += value.objects
            members += name
            members.append(UInt8(ascii: ":"))
            members.append(contentsOf: UnsafeBufferPointer(start: w.base + value.start, count: value.end - value.start))
            members.append(UInt8(ascii: ","))
            pos = value.end
        }
    }

    func next(into element: inout StreamedElement) throws -> Bool {
        guard state == .elements else { return false }
        // The usual case in one go: `,\n` and an element as cvlayout writes them.
        if !first, fastCount < Self.fastLimit, w.end - pos >= 4096 {
            let b = w.base
            if b[pos] == UInt8(ascii: ","), b[pos + 1] == 0x0A {
                var i = pos + 2
                if Self.fastElement(b, w.end, &i, &element) {
                    pos = i
                    element.ordinal = index + fastCount
                    fastCount += 1
                    return true
                }
            }
        }
        guard let c = try peek() else { throw LayoutStreamFallback("unterminated elements") }
        if c == UInt8(ascii: "]") {
            pos += 1
            if isList {
                state = .done
            } else {
                try membersUntilElements(first: false)
            }
            guard try peek() == nil else { throw LayoutStreamFallback("text after the layout") }
            return false
        }
        if !first {
            try expect(UInt8(ascii: ","))
            try skipSpace()
        }
        first = false
        defer { index += 1 }
        if objects > JSONSyntaxCheck.ObjectLimit.layout.count { throw LayoutStreamFallback("too many objects") }
        _ = try ensure(4096)
        var i = pos
        if Self.fastElement(w.base, w.end, &i, &element) {
            pos = i
            objects += 3
            present = 0x7FFF
            element.ordinal = index + fastCount
            return true
        }
        // Not in cvlayout's own form: the element alone, through the strict scanner.
        let value = try captureValue()
        objects += value.objects
        let raw: JSONValue
        do {
            raw = try StrictJSON.values(Data(bytes: w.base + value.start, count: value.end - value.start), objectLimit: .layout)
        } catch {
            throw LayoutStreamFallback("element \(index): \(error)")
        }
        pos = value.end
        let record: ElementRecord
        do {
            record = try decoder.decode(raw, location: isList ? "[\(index + fastCount)]" : "elements[\(index + fastCount)]")
        } catch {
            throw LayoutStreamFallback("element \(index): \(error)")
        }
        element = StreamedElement(record)
        element.ordinal = index + fastCount
        present |= element.mask
        return true
    }

    func duplicate(_ key: ElementKey, at ordinal: Int, first: Int) -> LayoutReadError {
        let path = isList ? "" : "elements"
        return .invalidValue(location: "\(path)[\(ordinal)]",
                             message: "duplicate element \(key.messageText) (also at \(path)[\(first)])")
    }

    func finish() throws -> (document: LayoutDocument, present: UInt16) {
        guard state == .done else { throw LayoutStreamFallback("not at the end") }
        if objects + 3 * fastCount > JSONSyntaxCheck.ObjectLimit.layout.count { throw LayoutStreamFallback("too many objects") }
        var unknown = decoder.unknown
        if isList {
            return (LayoutDocument(shape: .elementList, elements: [], presentFields: [], unknownNames: unknown.names), present)
        }
        // The other members, as a layout without elements, read by `LayoutReader`.
        var text: [UInt8] = [UInt8(ascii: "{")]
        text += members
        text += Array("\"elements\":[]}".utf8)
        var document: LayoutDocument
        do {
            document = try LayoutReader.read(Data(text), format: .json)
        } catch {
            throw LayoutStreamFallback("parts: \(error)")
        }
        for name in document.unknownNames { unknown.insert(name) }
        document.unknownNames = unknown.names
        return (document, present)
    }

    // The fast path: an element exactly as cvlayout writes it.

    /// Reads the element at `pos` when it is written as `JSONLayoutWriter` writes it (and
    /// lies in the window); otherwise `nil`, with `pos` unmoved.
    @inline(__always)
    private static func fastElement(_ b: UnsafeMutablePointer<UInt8>, _ end: Int, _ position: inout Int,
                                    _ element: inout StreamedElement) -> Bool {
        var i = position
        @inline(__always) func literal(_ text: StaticString) -> Bool {
            let n = text.utf8CodeUnitCount
            guard end - i >= n, equalBytes(b + i, text.utf8Start, n) else { return false }
            i += n
            return true
        }
        @inline(__always) func index() -> Int? {
            var v = 0
            let start = i
            while i < end, isDigit(b[i]) {
                v = v &* 10 &+ Int(b[i] &- 0x30)
                i += 1
            }
            let n = i - start
            guard n > 0, n <= 15, n == 1 || b[start] != 0x30 else { return nil }
            return v
        }
        @inline(__always) func number() -> Double? { Self.number(b, end, &i) }
        guard literal("{\"indexPath\":["), let section = index(), literal(","), let item = index(),
              literal("],\"category\":\"") else { return false }
        let category: UInt8
        if literal("cell\"") {
            category = 0
        } else if literal("supplementaryView\"") {
            category = 1
        } else if literal("decorationView\"") {
            category = 2
        } else {
            return false
        }
        var kind: Int32 = 0
        if literal(",\"kind\":\"header\"") {
            kind = 1
        } else if literal(",\"kind\":\"footer\"") {
            kind = 2
        }
        guard (kind == 0) == (category == 0) else { return false }
        guard literal(",\"frame\":{\"x\":"), let x = number(), literal(",\"y\":"), let y = number(),
              literal(",\"width\":"), let width = number(), literal(",\"height\":"), let height = number(),
              literal("},\"center\":{\"x\":"), let cx = number(), literal(",\"y\":"), let cy = number(),
              literal("},\"transform\":[") else { return false }
        var ta = 1.0, tb = 0.0, tc = 0.0, td = 1.0, tx = 0.0, ty = 0.0
        if !literal("1,0,0,1,0,0]") {
            guard let a1 = number(), literal(","), let b1 = number(), literal(","), let c1 = number(), literal(","),
                  let d1 = number(), literal(","), let x1 = number(), literal(","), let y1 = number(), literal("]")
            else { return false }
            (ta, tb, tc, td, tx, ty) = (a1, b1, c1, d1, x1, y1)
        }
        guard literal(",\"alpha\":"), let alpha = number(), literal(",\"zIndex\":"), let z = number(),
              z == z.rounded(), z.magnitude < 9.0e15, literal(",\"hidden\":") else { return false }
        let hidden: Double
        if literal("false}") {
            hidden = 0
        } else if literal("true}") {
            hidden = 1
        } else {
            return false
        }
        element.setKey(section: section, item: item, category: category, kind: kind)
        element.values = SIMD16(x, y, width, height, cx, cy, ta, tb, tc, td, tx, ty, alpha, z == 0 ? 0 : z,
                                hidden, 0)
        element.mask = 0x7FFF
        position = i
        return true
    }

    /// A JSON number at `i` as the strict scanner reads it (`JSONNumber.fastValue`), or `nil`
    /// when it is not plain (an exponent, many digits) or not followed by more bytes.
    @inline(__always)
    static func number(_ b: UnsafeMutablePointer<UInt8>, _ end: Int, _ i: inout Int) -> Double? {
        var negative = false
        if i < end && b[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < end, isDigit(b[i]) else { return nil }
        var significand: UInt64 = 0
        var digits = 0
        if b[i] == 0x30 {
            i += 1
            if i < end, isDigit(b[i]) { return nil }
        } else {
            while i < end, isDigit(b[i]) {
                guard digits < 19 else { return nil }
                significand = significand &* 10 &+ UInt64(b[i] &- 0x30)
                digits += 1
                i += 1
            }
        }
        var fractionDigits = 0
        if i < end && b[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, isDigit(b[i]) else { return nil }
            while i < end, isDigit(b[i]) {
                guard digits < 19 else { return nil }
                significand = significand &* 10 &+ UInt64(b[i] &- 0x30)
                if significand != 0 { digits += 1 }
                fractionDigits += 1
                i += 1
            }
        }
        guard i < end, b[i] != UInt8(ascii: "e"), b[i] != UInt8(ascii: "E") else { return nil }
        return JSONNumber.fastValue(negative: negative, significand: significand, exact: significand <= 1 << 53,
                                    fractionDigits: fractionDigits, exponent: 0)
    }
}

// MARK: - CSV

/// CSV layouts row by row, as RFC 4180 has them: comma-separated fields, `"…"` quoting with
/// `""` for a quote, LF or CRLF (or a lone CR) ending a record, blank lines skipped. A row as
/// cvlayout writes it is read from its bytes in one pass (`standardRow`); any other through
/// `record` and the header's columns (`LayoutReader.CSVColumns`), which word what is wrong
/// with the line it is on (`LayoutReadError`). A CSV of heart samples has no elements: its
/// rows are the `heartSamples` part.
final class CSVLayoutStream: LayoutElementStream {
    private let w: ByteWindow
    // Unchecked: a stream is read by one thread, never reentrantly.
    @exclusivity(unchecked) private var pos: Int
    private let header: LayoutReader.CSVColumns.Analysis
    @exclusivity(unchecked) private var present: UInt16 = 0
    /// The lines read (the row just read is on line `lines`).
    @exclusivity(unchecked) private var lines = 0
    private var done = false
    /// The fields of the record just read, as ranges of the window (a quoted one with its
    /// quotes, `text`).
    private var fields: [Range<Int>] = []
    /// The header is cvlayout's own: rows are read by `standardRow` first.
    private let standard: Bool
    /// For each column: 0 none, 1 section, 2 item, 3 category, 4 kind, 5 change, 16 + field.
    private let roles: [Int]
    /// Whether it is a CSV of heart samples.
    var isHeartSamples: Bool {
        if case .heartSamples = header { return true }
        return false
    }
    /// The header's field count, and the heart samples read (a CSV of heart samples).
    private let fieldCount: Int
    private var samples: [NamedValue] = []

    /// - Throws: `LayoutReadError` for a header that is not a layout's.
    init(_ window: ByteWindow, position: Int) throws {
        w = window
        pos = position
        guard let line = try Self.record(w, &pos, &lines, into: &fields) else {
            throw LayoutReadError.notALayout(message: "empty file: expected a CSV header row")
        }
        let names = fields.map { [w] in Self.text(w.base, $0) }
        header = try LayoutReader.CSVColumns.analyse(names, line: line)
        fieldCount = names.count
        standard = names == CSVLayoutWriter.columns
        var roles = [Int](repeating: 0, count: fieldCount)
        if case .elements(let columns) = header {
            roles[columns.section] = 1
            roles[columns.item] = 2
            for (role, column) in [(3, columns.category), (4, columns.kind), (5, columns.change)] {
                if let column { roles[column] = role }
            }
            for (field, column) in columns.fields { roles[column] = 16 + field.rawValue }
        }
        self.roles = roles
    }

    /// A field's text: its bytes, or a quoted field's without the quotes, `""` read as `"`.
    private static func text(_ b: UnsafeMutablePointer<UInt8>, _ range: Range<Int>) -> String {
        let bytes = UnsafeBufferPointer(start: b + range.lowerBound, count: range.count)
        guard bytes.first == UInt8(ascii: "\"") else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self).replacingOccurrences(of: "\"\"", with: "\"")
    }

    /// Reads the next record (RFC 4180, after any blank lines) at `pos` into `fields`, moving
    /// the window as it needs. `lines` counts the lines read.
    /// - Returns: the line the record starts on; `nil` at the end.
    /// - Throws: `LayoutReadError.syntax` for a stray or unterminated quote.
    private static func record(_ w: ByteWindow, _ pos: inout Int, _ lines: inout Int,
                               into fields: inout [Range<Int>]) throws -> Int? {
        while true {
            var i = pos, line = lines + 1, start = 0
            switch try parseRecord(w.base, w.end, atEOF: w.atEOF, &i, &line, &start, into: &fields) {
            case true?:
                pos = i
                lines = line - 1
                return start
            case false?:
                return nil
            case nil:  // the record may run past the window
                guard let shift = try w.refill(keepingFrom: pos) else { return nil }
                pos -= shift
            }
        }
    }

    /// The record at `i` in the `end` bytes at `b` (`line`: the line of the byte at `i`;
    /// `start`: the record's first line); `false` at the end, `nil` when it may run past the
    /// bytes (more follow unless `atEOF`).
    private static func parseRecord(_ b: UnsafeMutablePointer<UInt8>, _ end: Int, atEOF: Bool, _ i: inout Int,
                                    _ line: inout Int, _ start: inout Int, into fields: inout [Range<Int>]) throws -> Bool? {
        @inline(__always) func isDelimiter(_ byte: UInt8) -> Bool { byte == 0x2C || byte == 0x0A || byte == 0x0D }
        /// Consumes one line ending (LF, CRLF or CR); `false` when a CR ends the bytes.
        func endLine() -> Bool {
            if b[i] == 0x0D {
                if i + 1 == end && !atEOF { return false }
                if i + 1 < end && b[i + 1] == 0x0A { i += 1 }
            }
            i += 1
            line += 1
            return true
        }
        while i < end, b[i] == 0x0A || b[i] == 0x0D {
            guard endLine() else { return nil }
        }
        guard i < end else { return atEOF ? false : nil }
        start = line
        fields.removeAll(keepingCapacity: true)
        while true {
            let fieldStart = i
            if i < end && b[i] == UInt8(ascii: "\"") {
                let quoteLine = line
                i += 1
                while true {
                    guard i < end else {
                        guard atEOF else { return nil }
                        throw LayoutReadError.syntax(line: quoteLine, column: nil,
                                                     message: "unterminated quoted field (a '\"' is never closed)")
                    }
                    if b[i] == UInt8(ascii: "\"") {
                        if i + 1 == end && !atEOF { return nil }
                        if i + 1 < end && b[i + 1] == UInt8(ascii: "\"") {
                            i += 2
                            continue
                        }
                        i += 1
                        break
                    }
                    if b[i] == 0x0A { line += 1 }
                    i += 1
                }
                if i == end && !atEOF { return nil }
                if i < end, !isDelimiter(b[i]) {
                    throw LayoutReadError.syntax(line: line, column: nil,
                                                 message: "unexpected text after a closing quote (a quote inside a field is written \"\")")
                }
            } else {
                while i < end, !isDelimiter(b[i]) {
                    if b[i] == UInt8(ascii: "\"") {
                        throw LayoutReadError.syntax(line: line, column: nil,
                                                     message: "a quote inside an unquoted field (quote the field and write \"\")")
                    }
                    i += 1
                }
                if i == end && !atEOF { return nil }
            }
            fields.append(fieldStart..<i)
            if i < end && b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if i < end {
                guard endLine() else { return nil }
            }
            return true
        }
    }

    func next(into element: inout StreamedElement) throws -> Bool {
        guard !done else { return false }
        // The usual case in one pass, without looking for the line's end first: a row as
        // cvlayout writes it and its line ending, well inside the window.
        if standard, w.end - pos >= 4096 {
            let p = w.base + pos
            let n = Self.standardRow(p, w.end - pos, &element)  // under 400 bytes
            if n > 0 && n + 1 < w.end - pos {
                if p[n] == 0x0A {
                    pos += n + 1
                    present |= 0x7FFF
                    lines += 1
                    element.ordinal = lines
                    return true
                }
                if p[n] == 0x0D && p[n + 1] == 0x0A {
                    pos += n + 2
                    present |= 0x7FFF
                    lines += 1
                    element.ordinal = lines
                    return true
                }
            }
        }
        while let line = try Self.record(w, &pos, &lines, into: &fields) {
            guard fields.count == fieldCount else {
                throw LayoutReadError.syntax(line: line, column: nil,
                                             message: "expected \(fieldCount) fields as in the header, got \(fields.count)")
            }
            switch header {
            case .elements(let columns):
                if !plainRow(into: &element) {
                    element = StreamedElement(try columns.record(fields.map { Self.text(w.base, $0) }, line: line))
                }
                element.ordinal = line
                present |= element.mask
                return true
            case .heartSamples(let columns, _):
                // `heartSamples[k].t`, `.x`, `.y`, `.angle` for the k-th row, as a JSON layout gives them.
                let k = samples.count / columns.count
                for (name, column) in columns {
                    let text = Self.text(w.base, fields[column]).trimmingCharacters(in: .whitespaces)
                    guard let v = ValueSyntax.number(text), v.isFinite else {
                        throw LayoutReadError.invalidValue(
                            location: "row \(line)", message: "\(name): expected a finite number, got \(LayoutReader.shownField(text))")
                    }
                    samples.append(NamedValue("heartSamples[\(k)].\(name)", .number(v)))
                }
            }
        }
        done = true
        return false
    }

    /// A row as `CSVLayoutWriter` writes it at the start of the `n` bytes at `p`, read in
    /// one pass: the bytes it takes up to its last field (`true` or `false`), which the
    /// caller checks end the line; 0 (and `element` untouched) for anything else.
    @inline(__always)
    private static func standardRow(_ p: UnsafeMutablePointer<UInt8>, _ n: Int, _ element: inout StreamedElement) -> Int {
        // The position is passed to the pieces, never captured (a captured variable would
        // be boxed and its accesses checked at run time).
        var i = 0
        guard let section = rowInteger(p, &i), let item = rowInteger(p, &i) else { return 0 }
        let category: UInt8
        if rowLiteral(p, n, &i, "cell,") {
            category = 0
        } else if rowLiteral(p, n, &i, "supplementaryView,") {
            category = 1
        } else if rowLiteral(p, n, &i, "decorationView,") {
            category = 2
        } else {
            return 0
        }
        var kind: Int32 = 0
        if rowLiteral(p, n, &i, "header,") {
            kind = 1
        } else if rowLiteral(p, n, &i, "footer,") {
            kind = 2
        } else if !rowLiteral(p, n, &i, ",") {
            return 0
        }
        guard (kind == 0) == (category == 0) else { return 0 }
        // Named, not stored by index into a vector (which goes through memory each time).
        guard let x = rowNumber(p, &i), let y = rowNumber(p, &i), let width = rowNumber(p, &i),
              let height = rowNumber(p, &i), let cx = rowNumber(p, &i), let cy = rowNumber(p, &i),
              let ta = rowNumber(p, &i), let tb = rowNumber(p, &i), let tc = rowNumber(p, &i), let td = rowNumber(p, &i),
              let tx = rowNumber(p, &i), let ty = rowNumber(p, &i), let alpha = rowNumber(p, &i),
              let z = rowInteger(p, &i, signed: true, maximumDigits: 15) else { return 0 }
        let zIndex = Double(z)
        let hidden: Double
        if rowLiteral(p, n, &i, "false") {
            hidden = 0
        } else if rowLiteral(p, n, &i, "true") {
            hidden = 1
        } else {
            return 0
        }
        element.setKey(section: section, item: item, category: category, kind: kind)
        element.values = SIMD16(x, y, width, height, cx, cy, ta, tb, tc, td, tx, ty, alpha, zIndex, hidden, 0)
        element.mask = 0x7FFF
        return i
    }

    // The pieces of a standard row at `p + i` (`standardRow`), each moving `i` past itself
    // and its comma. Runs of digits stop without a bound check: the byte after a row is a
    // line ending or the window's zero (`ByteWindow`), never a digit, a point or a comma.

    /// An integer of 1 to `maximumDigits` (at most 18) digits, with a `-` if `signed`, and its
    /// comma: an index path's part, a zIndex.
    @inline(__always)
    private static func rowInteger(_ p: UnsafeMutablePointer<UInt8>, _ i: inout Int, signed: Bool = false,
                                   maximumDigits: Int = 18) -> Int? {
        var j = i
        let negative = signed && p[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        var v: UInt64 = 0
        let start = j
        digits(p, &j, &v)
        guard j - start > 0, j - start <= maximumDigits, p[j] == UInt8(ascii: ",") else { return nil }
        i = j + 1
        return negative ? -Int(v) : Int(v)
    }

    /// `text`, if the `n` bytes at `p` hold it at `i`.
    @inline(__always)
    private static func rowLiteral(_ p: UnsafeMutablePointer<UInt8>, _ n: Int, _ i: inout Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard n - i >= count, equalBytes(p + i, text.utf8Start, count) else { return false }
        i += count
        return true
    }

    /// `-?digits(.digits)?` of at most 15 digits and its comma, as `Double(text)` reads it.
    @inline(__always)
    private static func rowNumber(_ p: UnsafeMutablePointer<UInt8>, _ i: inout Int) -> Double? {
        var j = i
        let negative = p[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        var significand: UInt64 = 0
        let start = j
        digits(p, &j, &significand)
        let integerDigits = j - start
        var fraction = 0
        if p[j] == UInt8(ascii: ".") {
            j += 1
            let fractionStart = j
            digits(p, &j, &significand)
            fraction = j - fractionStart
            if fraction == 0 { return nil }
        }
        // At most 15 digits in all: no overflow, and ≤ 2⁵³.
        guard integerDigits > 0, integerDigits + fraction <= 15, p[j] == UInt8(ascii: ",") else { return nil }
        i = j + 1
        var v = Double(Int64(bitPattern: significand))  // < 10¹⁵: a signed conversion, exact
        if fraction > 0 { v /= powersOfTen[fraction] }
        return negative ? -v : v
    }

    /// Reads the run of digits at `p + j` into `significand` (times ten per digit, plus the
    /// digit; wrapping past 19 digits) and moves `j` past it. (Eight at a time, SWAR, took
    /// more instructions: most numbers of a layout have one to four digits.)
    @inline(__always)
    private static func digits(_ p: UnsafeMutablePointer<UInt8>, _ j: inout Int, _ significand: inout UInt64) {
        while true {
            let d = p[j] &- 0x30
            if d >= 10 { return }
            significand = significand &* 10 &+ UInt64(d)
            j += 1
        }
    }

    /// The row in `fields` read from its bytes when every field is written plainly (digits,
    /// cvlayout's names, no quotes); `false` for anything else, which `CSVColumns.record`
    /// reads or refuses in words.
    private func plainRow(into element: inout StreamedElement) -> Bool {
        let b = w.base
        var section = -1, item = -1, category: UInt8 = 0, kind: Int32 = 0, disappearing = false
        var values = SIMD16<Double>(), mask: UInt16 = 0
        for (k, range) in fields.enumerated() where roles[k] != 0 {
            let p = b + range.lowerBound, n = range.count
            @inline(__always) func isText(_ text: StaticString) -> Bool {
                n == text.utf8CodeUnitCount && memcmp(p, text.utf8Start, n) == 0
            }
            switch roles[k] {
            case 1, 2:
                guard n > 0 && n <= 18 else { return false }
                var v = 0
                for j in 0..<n {
                    guard isDigit(p[j]) else { return false }
                    v = v &* 10 &+ Int(p[j] &- 0x30)
                }
                if roles[k] == 1 { section = v } else { item = v }
            case 3:
                if isText("cell") { category = 0 } else if isText("supplementaryView") { category = 1 } else if isText("decorationView") {
                    category = 2
                } else {
                    return false
                }
            case 4:
                if n == 0 { kind = 0 } else if isText("header") { kind = 1 } else if isText("footer") { kind = 2 } else { return false }
            case 5:
                disappearing = isText("disappear")
            default:
                let field = roles[k] - 16
                guard n > 0 else { continue }
                if field == ElementField.hidden.rawValue {
                    guard isText("true") || isText("false") else { return false }
                    values[field] = isText("true") ? 1 : 0
                } else if field == ElementField.zIndex.rawValue {
                    let negative = p[0] == UInt8(ascii: "-")
                    var j = negative ? 1 : 0, v = 0
                    guard n - j <= 15 else { return false }
                    while j < n, isDigit(p[j]) {
                        v = v &* 10 &+ Int(p[j] &- 0x30)
                        j += 1
                    }
                    guard j == n, n > (negative ? 1 : 0) else { return false }
                    values[field] = Double(negative ? -v : v)
                } else {
                    guard let v = Self.plainNumber(p, n) else { return false }
                    values[field] = v
                }
                mask |= 1 << UInt16(field)
            }
        }
        guard category != 0 || kind == 0 else { return false }  // a kind on a cell: refused in words
        element.setKey(section: section, item: item, category: category, kind: kind, disappearing: disappearing)
        element.values = values
        element.mask = mask
        return true
    }

    /// `-?digits(.digits)?` as `Double(text)` reads it (correctly rounded: Clinger's fast
    /// path), or `nil` for anything else.
    @inline(__always)
    static func plainNumber(_ p: UnsafeMutablePointer<UInt8>, _ n: Int) -> Double? {
        var j = 0
        let negative = p[0] == UInt8(ascii: "-")
        if negative { j = 1 }
        var significand: UInt64 = 0
        var digits = 0, fraction = 0, integerDigits = 0
        while j < n, isDigit(p[j]) {
            significand = significand &* 10 &+ UInt64(p[j] &- 0x30)
            if significand != 0 { digits += 1 }
            integerDigits += 1
            j += 1
        }
        if j < n && p[j] == UInt8(ascii: ".") {
            j += 1
            let fractionStart = j
            while j < n, isDigit(p[j]) {
                significand = significand &* 10 &+ UInt64(p[j] &- 0x30)
                if significand != 0 { digits += 1 }
                j += 1
            }
            fraction = j - fractionStart
            if fraction == 0 { return nil }
        }
        guard j == n, integerDigits > 0, digits <= 18, significand <= 1 << 53, fraction <= 22 else { return nil }
        var v = Double(significand)
        if fraction > 0 { v /= powersOfTen[fraction] }
        return negative ? -v : v
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    func finish() throws -> (document: LayoutDocument, present: UInt16) {
        guard done else { throw LayoutStreamFallback("not at the end") }
        switch header {
        case .elements(let columns):
            return (LayoutDocument(shape: .csv, elements: [], presentFields: [], unknownNames: columns.unknownNames), present)
        case .heartSamples(_, let unknown):
            return (LayoutDocument(shape: .heartSamples, elements: [], parts: [LayoutPart(name: "heartSamples", values: samples)],
                                   presentFields: [], unknownNames: Array(unknown.prefix(UnknownNames.limit))), 0)
        }
    }

    func duplicate(_ key: ElementKey, at ordinal: Int, first: Int) -> LayoutReadError {
        .invalidValue(location: "row \(ordinal)", message: "duplicate element \(key.messageText) (also on row \(first))")
    }
}
