import Foundation
import LayoutCore
import LayoutDatasets
import LayoutWriters

/// What an engine receives from the command line.
struct EngineInput {
    /// Every option of the run (global and the engine's), typed on access.
    let options: OptionValues
    /// The decoded dataset, or `nil` for the embedded default data.
    let dataset: Dataset?
    /// `--width`, `--height`.
    let bounds: Size
    /// `--offset`.
    let contentOffset: Point
    /// `--count`, or the engine's default count.
    let count: Int
    /// `--seed`.
    let seed: UInt64
    /// What the engine computes once for this input however many passes ask.
    let memo = PassMemo()
}

/// Values of one run computed on first use and shared: a streamed layout runs its engine
/// twice (a check, then the writing), at times on two threads at once, on the same input.
/// Each value is named by a `PassMemo.Key` of its type, declared once beside the engine that
/// uses it, so what is kept is typed: no casts from `Any` at the call sites, and a key gives
/// back only values of its own type.
final class PassMemo: @unchecked Sendable {
    /// A value a run's passes share: its type, and its identity (the key object itself).
    final class Key<Value>: Sendable {
        /// A name for messages and debugging.
        let name: String

        /// A key; declare it once (a global `let`), beside the engine that uses it.
        init(_ name: String) {
            self.name = name
        }
    }

    /// The value kept for one key.
    private final class Slot<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let lock = NSLock()
    /// Slots by their key's identity; the slot under a `Key<Value>` is a `Slot<Value>`.
    private var slots: [ObjectIdentifier: AnyObject] = [:]

    /// The value kept under `key`, made by `make` the first time (a throw keeps nothing, so
    /// the next pass throws the same error).
    func value<Value>(_ key: Key<Value>, _ make: () throws -> Value) rethrows -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let slot = slots[ObjectIdentifier(key)] {
            return (slot as! Slot<Value>).value  // only a `Key<Value>` stores there
        }
        let made = try make()
        slots[ObjectIdentifier(key)] = Slot(made)
        return made
    }
}

/// One engine of the registry: its name, help, options, dataset schema and layout function.
/// Adding an engine adds its core file, its command file, its tests, and one line to
/// `engineEntries`.
struct EngineDescriptor: Sendable {
    /// The command-line name.
    let name: String
    /// One line for `cvlayout engines` and help.
    let summary: String
    /// What a DATASET holds and what runs without one, for help.
    let datasetHelp: String
    /// The engine's own options (the global ones are added by the parser).
    let options: [OptionSpec]
    /// How its datasets are decoded.
    let schema: DatasetSchema
    /// The dataset keys it reads (`.items` schema), which the decoder's messages name.
    /// Default: every key (the waterfall's).
    var datasetKeys: DatasetKeys = .all
    /// Items of the embedded data when `--count` is absent.
    let defaultCount: Int
    /// The embedded data as a dataset, given `--count` and `--seed` (what `--delete`,
    /// `--insert` and `--move` update when there is no DATASET): by default one section of
    /// that many items of the engine's own size.
    var embeddedData: @Sendable (_ count: Int, _ seed: UInt64) -> Dataset = { count, _ in
        Dataset(sections: [DatasetSection(items: .uniform(count: count))])
    }
    /// Computes the layout.
    let layout: @Sendable (EngineInput) throws -> CollectionLayout
    /// Computes the same layout with its elements sent to `sink` instead of kept (the result's
    /// `elements` is empty), for the streaming writers; `nil` for an engine that must see all
    /// its elements before it is done (flow pins headers after laying out their sections).
    var stream: (@Sendable (EngineInput, inout ElementBlocks) throws -> CollectionLayout)? = nil
    /// The same layout with its elements only counted and checked (the first pass of a
    /// streamed layout); set with `stream`. An engine whose summary vouches for its elements
    /// (`capabilities.summaryCheck`) keeps this check beside its engine, in LayoutCore
    /// (`WaterfallSummary.swift`'s `WaterfallLayout.checkLayout`).
    var check: (@Sendable (EngineInput, inout FiniteCheckSink) throws -> CollectionLayout)? = nil
    /// For a streamed CSV, which shows no content size, or SVG, whose canvas run gives the
    /// summary: the element and section counts, and whether the elements surely come in
    /// drawing order, when the engine succeeds with every element finite once snapped to the
    /// scale given, decided without laying out (`WaterfallLayout.succeedsWithFiniteElements`);
    /// `nil` when unsure, and then `check`
    /// runs (`PassPlan.Check.vouchedWithoutLayingOut`). Only for an engine whose summary holds
    /// nothing else the command line reads before writing (no warnings).
    var quickCheck: (@Sendable (EngineInput, Double?) throws -> LayoutPipeline.QuickCheck?)? = nil
    /// What the entry points can do for the passes of a run (`PassPlan.make`): whether it
    /// streams (`stream` and `check` set), whether `check` vouches from a summary, whether
    /// `quickCheck` is set. A test holds it to the entry points. Default: streaming, the check
    /// pass visiting every element.
    var capabilities = PassCapabilities.streaming
    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)` given the
    /// layout, the proposed offset and the velocity; `nil`: UIKit's default, the proposed
    /// offset unchanged.
    var targetContentOffset: (@Sendable (CollectionLayout, Point, Point) -> Point)? = nil
    /// Whether the engine rounds to `--scale` itself (reading it from its options), so that the
    /// general edge snapping (SPEC section 2) is not applied to its layout: the compositional
    /// engine rounds as UIKit does. Default `false`.
    var roundsToPixels = false
    /// Whether the layout of `input` can change with the content offset (pinned or stretchy
    /// headers, the line's and the carousel's effects): `--scroll-to` lays out every sample
    /// only then, and otherwise moves the first layout's visible bounds. Default: always
    /// (the safe answer).
    var movesWithContentOffset: @Sendable (EngineInput) throws -> Bool = { _ in true }
}

/// Every engine, in `cvlayout engines` order.
let engineRegistry: [EngineDescriptor] = engineEntries.map { $0.descriptor() }

/// The registry as names and the descriptors they stand for, each made when first asked for:
/// a run lays out with one engine, and builds only that engine's option table (a table's key
/// paths and generic types cost a few hundred thousand instructions at start-up; all nine
/// came to 60% of a small ring run). A test checks each name against its descriptor's.
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

/// The global options followed by `engine`'s.
func knownOptions(for engine: String) -> [OptionSpec] {
    globalOptions + (CVLayoutCLI.engine(named: engine)?.options ?? [])
}
