// What every engine is: a configuration that lays out its content into a sink. The
// array-collecting form and what the writers need to know are written here once.

/// A layout engine: a value holding its settings (`WaterfallLayout`, `RingLayout`, …) that
/// lays out its content — sections, one section's items, or ring counts — in a view of a
/// given bounds size scrolled to a content offset, as a `UICollectionViewLayout` subclass's
/// `prepare()` does.
public protocol CollectionLayoutEngine: Sendable {
    /// What the engine lays out: `[WaterfallSection]`, `SectionItems`, `[Int]` ring counts….
    associatedtype Content

    /// The engine's name, as `CollectionLayout.engine` and the command line give it.
    static var name: String { get }

    /// Whether its cells are drawn round (corner radius half the width) in pictures, as the
    /// original ring and circle demos draw their avatars. Default `false`.
    static var drawsCellsRound: Bool { get }

    /// Lays out `content` in a view of `bounds` size (points) scrolled to `contentOffset`,
    /// sending each element to `sink` in element order (section by section; a section's
    /// header, its cells by item, its footer); the result holds the content size and the
    /// sections, its `elements` empty. The sink is an array (which keeps the elements),
    /// `ElementBlocks` (which hands them on in blocks to the streaming writers) or
    /// `FiniteCheckSink` (which only checks them); `layout(_:bounds:contentOffset:)` collects
    /// them into the result instead.
    /// - Throws: `LayoutError` for settings or content the engine cannot lay out.
    func layout<Sink: LayoutAttributesSink>(_ content: Content, bounds: Size, contentOffset: Point,
                                            into sink: inout Sink) throws -> CollectionLayout
}

extension CollectionLayoutEngine {
    /// Cells are drawn as rectangles unless an engine says otherwise.
    public static var drawsCellsRound: Bool { false }

    /// Lays out `content` and keeps the elements: `layout(_:bounds:contentOffset:into:)`
    /// collecting into an array.
    ///
    /// ```
    /// let rings = try RingLayout().layout([1, 6, 12], bounds: Size(width: 390, height: 844))
    /// rings.elements.count  // 19
    /// ```
    /// - Throws: what `layout(_:bounds:contentOffset:into:)` throws.
    /// - Complexity: that of the engine; the elements are kept (about 100 bytes each).
    public func layout(_ content: Content, bounds: Size, contentOffset: Point = .zero) throws -> CollectionLayout {
        try CollectionLayout.collecting { try layout(content, bounds: bounds, contentOffset: contentOffset, into: &$0) }
    }
}
