// The JSON layout reader: JSON layouts and lists of elements, element by element.
import Foundation
import FastText
import LayoutDatasets
import LayoutWriters

/// cvlayout JSON layouts and JSON lists of elements, element by element: one as cvlayout
/// writes it scanned by its bytes (`fastElement`), any other parsed alone by the strict scanner
/// (`LayoutReader.JSONElementDecoder`). The layout's other members are kept and read at the end.
///
/// A file's stream gives up (`LayoutStreamFallback`) on anything malformed or refused (a syntax
/// error further on must come first); a window holding the whole input, already checked
/// (`LayoutReader.checkWholeJSON`), throws the `LayoutReadError` itself.
final class JSONLayoutStream: LayoutElementStream {
    private let w: ByteWindow
    /// The state read and set for every element, by one thread at a time: not checked for
    /// exclusive access at run time (checks were a tenth of a `diff`'s instructions).
    @exclusivity(unchecked) private var pos: Int
    @exclusivity(unchecked) private var done = false, first = true
    @exclusivity(unchecked) private var index = 0, objects = 1
    @exclusivity(unchecked) private var present: UInt16 = 0
    private let isList: Bool
    /// `"key":value,` of each top-level member but `elements`, as written.
    private var members: [UInt8] = []
    private var sawElements = false
    private(set) var decoder: LayoutReader.JSONElementDecoder
    /// The window holds the whole input, whose syntax is known to be good.
    private let whole: Bool

    init(_ window: ByteWindow, position: Int) throws {
        w = window
        pos = position
        isList = window.base[position] == UInt8(ascii: "[")
        whole = window.holdsAll
        decoder = LayoutReader.JSONElementDecoder(path: isList ? "" : "elements")
        pos += 1
        if !isList { try membersUntilElements(first: true) }
    }

    /// Makes at least `n` bytes available from `pos` unless the file ends first.
    @inline(__always)
    private func ensure(_ n: Int) throws -> Bool {
        while w.end - pos < n {
            guard let shift = try w.refill(keepingFrom: pos) else { return w.end - pos >= n }
            pos -= shift
        }
        return true
    }

    /// Skips blank space: the byte at `pos` after it, or `nil` at the end.
    @discardableResult
    private func peek() throws -> UInt8? {
        while true {
            while pos < w.end, isSpace(w.base[pos]) { pos += 1 }
            if pos < w.end { return w.base[pos] }
            guard try ensure(1) else { return nil }
        }
    }

    private func expect(_ byte: UInt8) throws {
        guard try peek() == byte else { throw LayoutStreamFallback("expected \(Character(Unicode.Scalar(byte)))") }
        pos += 1
    }

    /// A key as written, its quotes included, and whether it is `elements`.
    private func key() throws -> (bytes: [UInt8], isElements: Bool) {
        guard try peek() == UInt8(ascii: "\"") else { throw LayoutStreamFallback("expected a key") }
        let value = try captureValue()
        let key = Array(UnsafeBufferPointer(start: w.base + value.start, count: value.end - value.start))
        pos = value.end
        if key == Array("\"elements\"".utf8) { return (key, true) }
        return (key, key.contains(UInt8(ascii: "\\")) && (try? StrictJSON.values(Data(key))) == .string("elements"))
    }

    /// The bytes of one JSON value from `pos` (after blank space), found by its brackets and
    /// quotes, and the objects in it.
    private func captureValue() throws -> (start: Int, end: Int, objects: Int) {
        try peek()
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
                if !whole && depth > JSONSyntaxCheck.maximumDepth - 4 { throw LayoutStreamFallback("deep nesting") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return (start, i, objects) }  // the end of a list holding a scalar
                depth -= 1
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
                    done = true
                    return
                }
                try expect(UInt8(ascii: ","))
            }
            first = false
            let (name, isElements) = try key()
            try expect(UInt8(ascii: ":"))
            if isElements {
                if sawElements { throw LayoutStreamFallback("elements twice") }
                sawElements = true
                try expect(UInt8(ascii: "["))
                return
            }
            let value = try captureValue()
            objects += value.objects
            members += name + [UInt8(ascii: ":")] + UnsafeBufferPointer(start: w.base + value.start, count: value.end - value.start)
                + [UInt8(ascii: ",")]
            pos = value.end
        }
    }

    func next(into element: inout StreamedElement) throws -> Bool {
        guard !done else { return false }
        let b = w.base
        if !first, w.end - pos >= 4096, b[pos] == UInt8(ascii: ","), b[pos + 1] == 0x0A {
            pos += 2  // the usual case: `,\n` and an element, well inside the window
        } else {
            guard let c = try peek() else { throw LayoutStreamFallback("unterminated elements") }
            if c == UInt8(ascii: "]") {
                pos += 1
                if isList {
                    done = true
                } else {
                    try membersUntilElements(first: false)
                }
                guard try peek() == nil else { throw LayoutStreamFallback("text after the layout") }
                return false
            }
            if !first {
                try expect(UInt8(ascii: ","))
                try peek()
            }
            first = false
            _ = try ensure(4096)
        }
        // An element as cvlayout writes it, the stream's state read and written once.
        let counted = objects
        if !whole && counted > JSONSyntaxCheck.ObjectLimit.layout.count { throw LayoutStreamFallback("too many objects") }
        var i = pos
        if Self.fastElement(w.base, w.end, &i, &element) {  // `ensure` may have moved the window
            pos = i
            objects = counted + 3
            present = 0x7FFF  // cvlayout's own form gives every field
            element.ordinal = index
            index += 1
            return true
        }
        defer { index += 1 }
        // Not in cvlayout's own form: the element alone, through the strict scanner.
        let value = try captureValue()
        objects += value.objects
        do {
            let raw = try StrictJSON.values(Data(bytes: w.base + value.start, count: value.end - value.start), objectLimit: .layout)
            pos = value.end
            element = try decoder.decode(raw, location: "\(decoder.path)[\(index)]")
        } catch {
            throw w.refusal(error)
        }
        element.ordinal = index
        present |= element.mask
        return true
    }

    func finish() throws -> (document: LayoutDocument, present: UInt16) {
        guard done else { throw LayoutStreamFallback("not at the end") }
        if !whole && objects > JSONSyntaxCheck.ObjectLimit.layout.count { throw LayoutStreamFallback("too many objects") }
        var unknown = decoder.unknown
        if isList { return (LayoutDocument(shape: .elementList, unknownNames: unknown.names), present) }
        // The other members, as a layout object without elements.
        do {
            guard case .object(let object) = try StrictJSON.values(Data([UInt8(ascii: "{")] + members + Array("\"elements\":[]}".utf8)),
                                                                   objectLimit: .layout) else { throw LayoutStreamFallback("parts") }
            let parts = try LayoutReader.parts(of: object, unknown: &unknown)
            return (LayoutDocument(shape: .layout, parts: parts, unknownNames: unknown.names), present)
        } catch {
            throw w.refusal(error)
        }
    }

    /// Reads the element at `position` when it is written as `JSONLayoutWriter` writes it (and
    /// lies in the window); otherwise `false`, with `position` unmoved.
    @inline(__always)
    private static func fastElement(_ b: UnsafeMutablePointer<UInt8>, _ end: Int, _ position: inout Int,
                                    _ element: inout StreamedElement) -> Bool {
        var c = ReadCursor(b: b, end: end, i: position)
        guard c.literal("{\"indexPath\":["), let section = c.integer(json: true), let item = c.integer(then: "]", json: true),
              c.literal(",\"category\":\""),
              let category = c.choice("cell\"", "supplementaryView\"", "decorationView\"") else { return false }
        let kind = c.choice(",\"kind\":\"header\"", ",\"kind\":\"footer\"").map { Int32($0) + 1 } ?? 0
        guard (kind == 0) == (category == 0) else { return false }
        guard c.literal(",\"frame\":{\"x\":"), let x = c.json(), c.literal("\"y\":"), let y = c.json(),
              c.literal("\"width\":"), let width = c.json(), c.literal("\"height\":"), let height = c.json("}"),
              c.literal(",\"center\":{\"x\":"), let cx = c.json(), c.literal("\"y\":"), let cy = c.json("}"),
              c.literal(",\"transform\":[") else { return false }
        var ta = 1.0, tb = 0.0, tc = 0.0, td = 1.0, tx = 0.0, ty = 0.0
        if !c.literal("1,0,0,1,0,0]") {
            guard let a1 = c.json(), let b1 = c.json(), let c1 = c.json(), let d1 = c.json(), let x1 = c.json(),
                  let y1 = c.json("]") else { return false }
            (ta, tb, tc, td, tx, ty) = (a1, b1, c1, d1, x1, y1)
        }
        guard c.literal(",\"alpha\":"), let alpha = c.json(), c.literal("\"zIndex\":"), let z = c.json(),
              z == z.rounded(), z.magnitude < 9.0e15, c.literal("\"hidden\":"),
              let hidden = c.choice("false}", "true}") else { return false }
        element.setKey(section: section, item: item, category: category, kind: kind)
        element.values = SIMD16(x, y, width, height, cx, cy, ta, tb, tc, td, tx, ty, alpha, z == 0 ? 0 : z,
                                Double(hidden), 0)
        element.mask = 0x7FFF
        position = c.i
        return true
    }
}

fileprivate extension ReadCursor {
    /// A JSON number and the byte `then` (`number`).
    @inline(__always) mutating func json(_ then: Unicode.Scalar = ",") -> Double? { number(then: then, json: true) }
}
