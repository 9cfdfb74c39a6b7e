import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import LayoutCore
@testable import FastText
@testable import LayoutWriters

/// The writers on hand-built layouts: exact lines, escaping, formula neutralisation.
struct WriterTests {
    /// One header, one rotated hidden cell, one plain cell.
    func sample() -> CollectionLayout {
        var rotated = LayoutAttributes.cell(IndexPath(item: 0, section: 0), frame: Rect(x: 10, y: 20, width: 30, height: 40))
        rotated.transform = AffineTransform(rotationDegrees: 90)
        rotated.alpha = 0.25
        rotated.zIndex = -2
        rotated.isHidden = true
        let header = LayoutAttributes.supplementaryView(ofKind: .header, at: IndexPath(item: 0, section: 0),
                                                        frame: Rect(x: 0, y: 0, width: 100, height: 10))
        let plain = LayoutAttributes.cell(IndexPath(item: 1, section: 0), frame: Rect(x: 0.0005, y: -0.0004, width: 2.675, height: 1))
        return CollectionLayout(engine: "test", bounds: Size(width: 100, height: 200), contentSize: Size(width: 100, height: 60),
                                elements: [header, rotated, plain], cellRanges: [(start: 1, count: 2)])
    }

    func text(_ format: OutputFormat, precision: NumberPrecision = .standard) throws -> String {
        let buffer = OutputBuffer(precision: precision)
        try format.write(sample(), selection: nil, options: OutputOptions(), to: buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test func jsonLinesAreExactAndEscaped() throws {
        let lines = try text(.json).split(separator: "\n").map(String.init)
        #expect(lines[0] == #"{"engine":"test","bounds":{"width":100,"height":200},"contentOffset":{"x":0,"y":0},"#)
        #expect(lines[1] == #""contentSize":{"width":100,"height":60},"#)
        #expect(lines[3] == #"{"indexPath":[0,0],"category":"supplementaryView","kind":"header","frame":{"x":0,"y":0,"width":100,"height":10},"center":{"x":50,"y":5},"transform":[1,0,0,1,0,0],"alpha":1,"zIndex":0,"hidden":false},"#)
        #expect(lines[4] == #"{"indexPath":[0,0],"category":"cell","frame":{"x":10,"y":20,"width":30,"height":40},"center":{"x":25,"y":40},"transform":[0,1,-1,0,0,0],"alpha":0.25,"zIndex":-2,"hidden":true},"#)
        // 0.0005 is just above the half: 0.001; -0.0004 rounds to 0, never -0; 2.675 → 2.675.
        #expect(lines[5].hasPrefix(#"{"indexPath":[0,1],"category":"cell","frame":{"x":0.001,"y":0,"width":2.675,"height":1}"#))
        #expect(lines.last == "]}")
        #expect(try JSONSerialization.jsonObject(with: Data(try text(.json).utf8)) is [String: Any])
    }

    @Test func csvQuotesAndNeutralisesFormulas() throws {
        let lines = try text(.csv, precision: .decimals(2)).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1] == #"0,0,supplementaryView,header,0,0,100,10,50,5,1,0,0,1,0,0,1,0,false"#)
        #expect(lines[2] == "0,0,cell,,10,20,30,40,25,40,0,1,-1,0,0,0,0.25,-2,true")
        // 2.675 is 2.67499…: 2.67 at two decimals.
        #expect(lines[3] == "0,1,cell,,0,0,2.67,1,1.34,0.5,1,0,0,1,0,0,1,0,false")
    }

    @Test func svgIsWellFormedAndLeavesHiddenElementsOut() throws {
        let svg = try text(.svg)
        let document = try XMLDocument(xmlString: svg)
        #expect(document.rootElement()?.name == "svg")
        #expect(svg.contains(#"width="100" height="60" viewBox="0 0 100 60""#))
        #expect(svg.contains("header 0"))
        // The hidden rotated cell is not drawn: two shapes, no transform.
        #expect(svg.components(separatedBy: "<g><rect").count - 1 == 2)
        #expect(!svg.contains("matrix("))
    }

    /// The escapers the writers use for text (the engine's name, SVG labels).
    @Test func textIsEscaped() {
        func written(_ body: (OutputBuffer) -> Void) -> String {
            let buffer = OutputBuffer()
            body(buffer)
            return String(decoding: buffer.bytes, as: UTF8.self)
        }
        let hostile = "=cmd\"<&>\n\u{1}"
        #expect(written { appendJSONString(hostile, to: $0) } == #""=cmd\"<&>\n\u0001""#)
        #expect(written { appendJSONString("\u{0B}\u{1A}\u{1F}\t\r", to: $0) } == #""\u000b\u001a\u001f\t\r""#)
        #expect(written { appendXMLText("=cmd\"<&>", to: $0) } == "=cmd&quot;&lt;&amp;&gt;")
    }
}
