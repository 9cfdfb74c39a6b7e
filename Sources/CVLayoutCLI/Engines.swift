import Foundation
import LayoutCore
import LayoutDatasets
import LayoutWriters

/// What an engine receives (`dataset` `nil`: the embedded data; `count`: `--count` or the engine's default).
struct EngineInput {
    let options: OptionValues
    let dataset: Dataset?
    let bounds: Size
    let contentOffset: Point
    let count: Int
    let seed: UInt64
    /// What the engine computes once for this input, however many passes ask.
    let memo = PassMemo()
}

/// Values of one run made on first use and shared by its passes (a streamed layout runs its
/// engine twice, at times on two threads), each under a typed `Key`. Thread-safe.
final class PassMemo: @unchecked Sendable {
    /// A value's type and identity (the object): a global `let` beside its engine, named for readers.
    final class Key<Value>: Sendable {
        init(_ name: String) {}
    }

    private let lock = NSLock()
    private var slots: [ObjectIdentifier: Any] = [:]

    /// The value kept under `key`, made by `make` the first time (a throw keeps nothing).
    func value<Value>(_ key: Key<Value>, _ make: () throws -> Value) rethrows -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let value = slots[ObjectIdentifier(key)] {
            return value as! Value  // only a `Key<Value>` stores a `Value` there
        }
        let made = try make()
        slots[ObjectIdentifier(key)] = made
        return made
    }
}

/// One engine of the registry: name, help, options, dataset schema and entry points.
struct EngineDescriptor: Sendable {
    let name: String
    /// One line for `cvlayout engines` and help.
    let summary: String
    /// What a DATASET holds and what runs without one, for help.
    let datasetHelp: String
    /// The engine's own options (not the global ones).
    let options: [OptionSpec]
    let schema: DatasetSchema
    /// The dataset keys it reads (`.items` schema), which the decoder's messages name.
    var datasetKeys: DatasetKeys = .all
    /// Items of the embedded data when `--count` is absent.
    let defaultCount: Int
    /// The embedded data given `--count` and `--seed` (for the updates); by default one section.
    var embeddedData: @Sendable (_ count: Int, _ seed: UInt64) -> Dataset = { count, _ in
        Dataset(sections: [DatasetSection(items: .uniform(count: count))])
    }
    let layout: @Sendable (EngineInput) throws -> CollectionLayout
    /// The layout, its elements sent to `sink`, not kept; `nil` for an engine that must see all first.
    var stream: (@Sendable (EngineInput, inout ElementBlocks) throws -> CollectionLayout)? = nil
    /// The same layout, its elements only counted and checked (a stream's first pass).
    var check: (@Sendable (EngineInput, inout FiniteCheckSink) throws -> CollectionLayout)? = nil
    /// The counts and drawing order when the engine surely succeeds with finite elements at the
    /// scale given, without laying out; `nil` when unsure (`check` runs). Only for a summary with no warnings.
    var quickCheck: (@Sendable (EngineInput, Double?) throws -> LayoutPipeline.QuickCheck?)? = nil
    /// What the entry points can do for a run's passes (`PassPlan.make`).
    var capabilities = PassCapabilities.streaming
    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)` given the layout, the
    /// proposed offset and the velocity; `nil`: the proposed offset (UIKit's).
    var targetContentOffset: (@Sendable (CollectionLayout, Point, Point) -> Point)? = nil
    /// Whether the engine rounds to `--scale` itself (compositional, as UIKit), not snapped after.
    var roundsToPixels = false
    /// Whether the layout of `input` can change with the content offset (`--scroll-to` then lays out each sample).
    var movesWithContentOffset: @Sendable (EngineInput) throws -> Bool = { _ in true }
}

/// Every engine, in `cvlayout engines` order.
let engineRegistry: [EngineDescriptor] = engineEntries.map { $0.descriptor() }

/// The registry, each descriptor made when asked for: building every option table costs 60% of a small ring run.
let engineEntries: [(name: String, descriptor: @Sendable () -> EngineDescriptor)] = [
    ("waterfall", { waterfallEngine }),
    ("ring", { ringEngine }),
    ("flow", { flowEngine }),
    ("line", { lineEngine }),
    ("carousel", { carouselEngine }),
    ("stack", { stackEngine }),
    ("circle", { circleEngine }),
    ("justified", { justifiedEngine }),
    ("compositional", { compositionalEngine }),
    ("grid", { gridEngine }),
]

/// The engine named `name`, if any (only its descriptor is made).
func engine(named name: String) -> EngineDescriptor? {
    engineEntries.first { $0.name == name }?.descriptor()
}

func knownOptions(for engine: String) -> [OptionSpec] {
    globalOptions + (CVLayoutCLI.engine(named: engine)?.options ?? [])
}
