// libFuzzer target: arbitrary bytes through the dataset decoder, with every schema.
// Built by Fuzz/build.sh; run by `make fuzz`. Any trap, sanitizer report or failed check
// below is a finding.

import Foundation
import LayoutCore
import LayoutDatasets

/// Decodes `data` as items, as ring counts, as a compositional description and as a grid's. Each decode
/// must either throw a `DatasetError` or return a dataset within the SPEC's limits: finite
/// values, at most `maximumElementCount` items, integral non-negative counts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoder(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = Data(bytes: bytes, count: size)
    for schema in [DatasetSchema.items, .ringCounts, .compositional, .grid] {
        do {
            let dataset = try DatasetDecoder.decode(data, schema: schema)
            check(dataset)
        } catch is DatasetError {
            // A refusal with a message: the expected outcome for most inputs.
        } catch {
            fatalError("DatasetDecoder threw a non-DatasetError: \(error)")
        }
    }
    return 0
}

private func check(_ dataset: Dataset) {
    precondition(dataset.itemCount <= maximumElementCount, "more items than the SPEC limit")
    for section in dataset.sections {
        switch section.items {
        case .heights(let heights):
            precondition(heights.allSatisfy { $0.isFinite && $0 >= 0 }, "bad height accepted")
        case .sizes(let sizes):
            precondition(sizes.allSatisfy { $0.width.isFinite && $0.width > 0 && $0.height.isFinite && $0.height >= 0 },
                         "bad size accepted")
        case .uniform(let count):
            precondition(count >= 0, "negative count accepted")
        case .randomHeights:
            preconditionFailure("random heights decoded: only the embedded data has them")
        case .mixed(let measures):
            for measure in measures {
                switch measure {
                case .height(let h): precondition(h.isFinite && h >= 0, "bad item height accepted")
                case .size(let s):
                    precondition(s.width.isFinite && s.width > 0 && s.height.isFinite && s.height >= 0, "bad item size accepted")
                }
            }
        }
        if let spans = section.spans {
            precondition(spans.count == section.items.count && spans.allSatisfy { $0 >= 0 }, "bad spans accepted")
        }
        for v in [section.header, section.footer].compactMap({ $0 }) {
            precondition(v.isFinite && v >= 0, "bad header or footer accepted")
        }
        if let columns = section.columns { precondition(columns >= 1, "zero columns accepted") }
        if let i = section.insets {
            precondition([i.top, i.left, i.bottom, i.right].allSatisfy { $0.isFinite && $0 >= 0 }, "bad insets accepted")
        }
    }
}
