// The waterfall's bounds that vouch for streamed elements unseen (`PassCapabilities`).

extension WaterfallLayout {
    /// The check pass of a streamed layout: the column arithmetic alone, the elements sent to
    /// `sink` only when `elementsAreFinite(in:scale:)` cannot vouch for them or headers are
    /// pinned (their zIndex, which the sink notes). Returns what `layout` does. - Throws: as it.
    public func checkLayout(_ sections: [WaterfallSection], bounds: Size, contentOffset: Point = .zero,
                            into sink: inout FiniteCheckSink) throws -> CollectionLayout {
        if sectionHeadersPinToVisibleBounds {
            return try layout(sections, bounds: bounds, contentOffset: contentOffset, into: &sink)
        }
        var counter = CountingSink()
        let summary = try layout(sections, bounds: bounds, contentOffset: contentOffset, into: &counter)
        let vouched = elementsAreFinite(in: summary, scale: sink.scale)
        return try sink.result(summary, count: counter.count, vouched: vouched) {
            try layout(sections, bounds: bounds, contentOffset: contentOffset, into: &$0)
        }
    }

    /// Whether every element of `summary` (`layout`'s result with a `CountingSink`) is finite,
    /// snapped to `scale` or not: columns only grow, so the content size bounds every number.
    public func elementsAreFinite(in summary: CollectionLayout, scale: Double?) -> Bool {
        snappedValuesStayFinite(upTo: summary.contentSize.width + summary.contentSize.height, scale: scale)
    }

    /// The elements `layout` gives `sections`: items, and headers and footers of height > 0.
    public func elementCount(of sections: [WaterfallSection]) -> Int {
        sections.reduce(0) { total, section in
            total + section.items.count + ((section.headerHeight ?? headerHeight) > 0 ? 1 : 0)
                + ((section.footerHeight ?? footerHeight) > 0 ? 1 : 0)
        }
    }

    /// Whether `layout` succeeds with every element finite (snapped to `scale` or not), decided
    /// by a plain scan rather than placing items: everything is checked as `layout` checks it,
    /// and no column is taller than all the items stacked. False: run `layout` to find out.
    /// - Complexity: O(items), four independent sums at a time.
    public func succeedsWithFiniteElements(sections: [WaterfallSection], bounds: Size, scale: Double?) -> Bool {
        guard scrollDirection == .vertical else {
            return transposedSettings().succeedsWithFiniteElements(sections: sections.map { $0.transposed() },
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
            let (sum, overflow) = total.addingReportingOverflow(section.items.count)
            guard !overflow else { return false }
            total = sum
            stacked += insets.top + insets.bottom + Double(section.items.count) * (section.itemSpacing ?? minimumInteritemSpacing)
            let spanning = section.hasSpans
            if spanning {
                // One unsigned comparison a span: 1…n, or the full span.
                guard n <= Self.maximumSpanningColumns, section.spans!.withUnsafeBufferPointer({ spans in
                    spans.allSatisfy { span in UInt(bitPattern: span &- 1) < UInt(n) || span == WaterfallSection.fullSpan }
                }) else { return false }
            }
            let widest = spanning ? max(columnWidth, available) : columnWidth
            // A size's height at the widest an item gets; −1, which fails the sum, for a bad size.
            func scaled(_ size: Size) -> Double {
                size.width > 0 && size.width.isFinite && size.height >= 0 && size.height.isFinite
                    ? Self.height(of: size, atColumnWidth: widest) : -1
            }
            let itemsHeight: Double? = switch section.items {
            case .heights(let heights): Self.checkedSum(heights, { $0 })
            case .sizes(let sizes): Self.checkedSum(sizes, scaled)
            case .uniform(let count): Double(count) * itemHeight
            case .randomHeights(let heights):
                heights.base >= 0 && heights.upperBound.isFinite ? Double(heights.count) * heights.upperBound : nil
            case .mixed(let measures):
                Self.checkedSum(measures, { measure -> Double in
                    switch measure {
                    case .height(let h): h
                    case .size(let size): scaled(size)
                    }
                })
            }
            guard let itemsHeight else { return false }
            stacked += itemsHeight
        }
        return total <= maximumElementCount && snappedValuesStayFinite(upTo: stacked, scale: scale)
    }

    /// `nil` unless every height is finite and ≥ 0.
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
