// The waterfall's summary bounds: what vouches for every element of a streamed layout without
// visiting them (the check pass of `PassCapabilities.summaryCheck`, and the verdict without
// laying out of `.vouchesWithoutLayingOut`).

extension WaterfallLayout {
    /// The check pass of a streamed layout: the column arithmetic alone (elements counted,
    /// not made); the elements are sent to `sink` one by one only when the content size
    /// cannot vouch for them (`elementsAreFinite(in:scale:)`), or when headers are pinned
    /// (a pinned header's zIndex is above the cells that follow it, which the sink notes).
    /// Returns what `layout(_:bounds:contentOffset:into:)` returns.
    /// - Throws: as `layout(_:bounds:contentOffset:into:)`.
    /// - Complexity: O(n) additions; O(n) elements made only when unsure.
    public func checkLayout(_ sections: [WaterfallSection], bounds: Size, contentOffset: Point = .zero,
                            into sink: inout FiniteCheckSink) throws -> CollectionLayout {
        if sectionHeadersPinToVisibleBounds {
            return try layout(sections, bounds: bounds, contentOffset: contentOffset, into: &sink)
        }
        var counter = CountingSink()
        let summary = try layout(sections, bounds: bounds, contentOffset: contentOffset, into: &counter)
        guard elementsAreFinite(in: summary, scale: sink.scale) else {
            return try layout(sections, bounds: bounds, contentOffset: contentOffset, into: &sink)
        }
        sink.skip(count: counter.count, zIndicesNonDecreasing: true)  // every zIndex 0, none hidden
        return summary
    }


    /// Whether every element of `summary` (what `layout(_:bounds:contentOffset:into:)` returned, run with a
    /// `CountingSink`) holds only finite numbers, pixel-snapped to `scale` or not, judged
    /// from its content size alone. Every setting and item height is ≥ 0, so a column only
    /// grows: every y and maxY is at most the content height, every x and maxX at most the
    /// bounds width (up to rounding), and a finite content size bounds them all. When this
    /// is true the elements need no check one by one (`FiniteCheckSink.skip`); when false
    /// some may still be finite, and they must be checked.
    /// - Complexity: O(1).
    public func elementsAreFinite(in summary: CollectionLayout, scale: Double?) -> Bool {
        snappedValuesStayFinite(upTo: summary.contentSize.width + summary.contentSize.height, scale: scale)
    }

    /// The elements `layout(_:bounds:contentOffset:into:)` gives `sections`: their items,
    /// and a header and a footer for each section whose height for them is above 0.
    /// - Complexity: O(sections).
    public func elementCount(of sections: [WaterfallSection]) -> Int {
        var total = 0
        for section in sections {
            total += section.items.count
            total += (section.headerHeight ?? headerHeight) > 0 ? 1 : 0
            total += (section.footerHeight ?? footerHeight) > 0 ? 1 : 0
        }
        return total
    }

    /// Whether `layout(_:bounds:contentOffset:into:)` succeeds and every element it computes is finite,
    /// pixel-snapped to `scale` or not, decided without placing a single item: for a caller
    /// that needs that verdict but not the content size (a CSV shows none), since placing the
    /// items is a chain of dependent steps while this is a plain scan.
    ///
    /// The settings, each section's column width, header and footer width and every item are
    /// checked as `layout` checks them; and no column can be taller than the section's items
    /// all stacked in it with their spacing, so when the sum of everything stacked, plus the
    /// width, stays finite with room to spare (`elementsAreFinite(in:scale:)`'s margin),
    /// every number of every element does. When this is false the layout may still succeed:
    /// run it to find out, and for its error.
    /// - Complexity: O(items), four independent sums at a time.
    public func succeedsWithFiniteElements(sections: [WaterfallSection], bounds: Size, scale: Double?) -> Bool {
        guard scrollDirection == .vertical else {
            var vertical = transposedSettings()
            vertical.scrollDirection = .vertical
            return vertical.succeedsWithFiniteElements(sections: sections.map { $0.transposed() },
                                                       bounds: bounds.transposed, scale: scale)
        }
        guard (try? validate(bounds: bounds, sections: sections)) != nil else { return false }
        var total = 0
        var stacked = minimumContentHeight + bounds.width
        for section in sections {
            let n = section.columnCount ?? columnCount
            let insets = section.sectionInset ?? sectionInset
            let columnSpacing = section.columnSpacing ?? minimumColumnSpacing
            let available = bounds.width - insets.left - insets.right
            let columnWidth = (available - Double(n - 1) * columnSpacing) / Double(n)
            guard columnWidth > 0, columnWidth.isFinite else { return false }
            for (height, inset) in [(section.headerHeight ?? headerHeight, section.headerInset ?? headerInset),
                                    (section.footerHeight ?? footerHeight, section.footerInset ?? footerInset)] where height > 0 {
                guard bounds.width - inset.left - inset.right >= 0 else { return false }
                stacked += inset.top + height + inset.bottom
                total += 1
            }
            let count = section.items.count
            let (sum, overflow) = total.addingReportingOverflow(count)
            guard !overflow else { return false }
            total = sum
            stacked += insets.top + insets.bottom + Double(count) * (section.itemSpacing ?? minimumInteritemSpacing)
            // A spanning item is at most the available width wide: its size is scaled to no more.
            let spanning = section.hasSpans
            if spanning {
                guard n <= Self.maximumSpanningColumns else { return false }
                // One unsigned comparison a span: 1…n, or the full span.
                let fits = section.spans!.withUnsafeBufferPointer { spans in
                    spans.allSatisfy { span in UInt(bitPattern: span &- 1) < UInt(n) || span == WaterfallSection.fullSpan }
                }
                guard fits else { return false }
            }
            let widest = spanning ? max(columnWidth, available) : columnWidth
            switch section.items {
            case .heights(let heights):
                guard let sum = Self.checkedSum(heights, { $0 }) else { return false }
                stacked += sum
            case .sizes(let sizes):
                for size in sizes {
                    guard size.width > 0, size.width.isFinite, size.height >= 0, size.height.isFinite else { return false }
                }
                guard let sum = Self.checkedSum(sizes, { Self.height(of: $0, atColumnWidth: widest) }) else { return false }
                stacked += sum
            case .uniform(let count):
                stacked += Double(count) * itemHeight
            case .randomHeights(let heights):
                // None is taller than the largest there can be, nor negative when the least is not.
                guard heights.base >= 0, heights.upperBound.isFinite else { return false }
                stacked += Double(heights.count) * heights.upperBound
            case .mixed(let measures):
                for case .size(let size) in measures {
                    guard size.width > 0, size.width.isFinite, size.height >= 0, size.height.isFinite else { return false }
                }
                guard let sum = Self.checkedSum(measures, { measure -> Double in
                    switch measure {
                    case .height(let h): h
                    case .size(let size): Self.height(of: size, atColumnWidth: widest)
                    }
                }) else { return false }
                stacked += sum
            }
        }
        return total <= maximumElementCount && snappedValuesStayFinite(upTo: stacked, scale: scale)
    }

    /// The sum of `height(item)` over `items` when every height is finite and ≥ 0 (a NaN or
    /// an infinity makes the sum not finite, a negative one the minimum), else `nil`.
    private static func checkedSum<Item>(_ items: [Item], _ height: (Item) -> Double) -> Double? {
        items.withUnsafeBufferPointer { items in
            var sums = (0.0, 0.0, 0.0, 0.0)
            var minimum = 0.0
            var i = 0
            while i + 4 <= items.count {
                let a = height(items[i]), b = height(items[i + 1]), c = height(items[i + 2]), d = height(items[i + 3])
                sums.0 += a
                sums.1 += b
                sums.2 += c
                sums.3 += d
                minimum = Swift.min(minimum, Swift.min(Swift.min(a, b), Swift.min(c, d)))
                i += 4
            }
            while i < items.count {
                let a = height(items[i])
                sums.0 += a
                minimum = Swift.min(minimum, a)
                i += 1
            }
            let sum = (sums.0 + sums.1) + (sums.2 + sums.3)
            return sum.isFinite && minimum >= 0 ? sum : nil
        }
    }
}
