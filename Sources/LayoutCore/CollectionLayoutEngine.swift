// What every engine is: a configuration that lays out its content into a sink.

/// A layout engine: its settings, laying out its content as a `UICollectionViewLayout`'s `prepare()` does.
public protocol CollectionLayoutEngine: Sendable {
    /// What the engine lays out: `[WaterfallSection]`, `SectionItems`, `[Int]` ring counts….
    associatedtype Content

    /// The engine's name, as `CollectionLayout.engine` and the command line give it.
    static var name: String { get }

    /// Whether pictures draw its cells round, as the ring and circle demos do. Default `false`.
    static var drawsCellsRound: Bool { get }

    /// Lays out `content` in a view of `bounds` size scrolled to `contentOffset`, sending each
    /// element to `sink` in element order; the result's `elements` are empty.
    /// - Throws: `LayoutError` for settings or content the engine cannot lay out.
    func layout<Sink: LayoutAttributesSink>(_ content: Content, bounds: Size, contentOffset: Point,
                                            into sink: inout Sink) throws -> CollectionLayout
}

extension CollectionLayoutEngine {
    /// Cells are drawn as rectangles unless an engine says otherwise.
    public static var drawsCellsRound: Bool { false }

    /// Lays out `content` keeping the elements (about 100 bytes each). - Throws: as `layout`.
    public func layout(_ content: Content, bounds: Size, contentOffset: Point = .zero) throws -> CollectionLayout {
        try CollectionLayout.collecting { try layout(content, bounds: bounds, contentOffset: contentOffset, into: &$0) }
    }
}
