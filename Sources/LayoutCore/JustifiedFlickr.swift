// `--compat flickr`: the boxes flickr/justified-layout 4.1.0 computes.

extension JustifiedLayout.GreedyRows {
    /// Whether Flickr's `Row.addItem` completes an open row with the items from `start` on (at
    /// the first close whose row width is not 0), and its item count then or after the last.
    func flickrOpenRow(count: Int, sum: Double, after start: Int) -> (completes: Bool, count: Int) {
        var count = count, sum = sum
        for a in ratios[start...] {
            let rowWidth = width - Double(count) * spacing
            let newSum = sum + a
            if newSum >= minimum && newSum > maximum
                && abs(newSum - rowWidth / target) > abs(sum - (width - Double(count - 1) * spacing) / target) {
                if width - Double(count - 1) * spacing != 0 { return (true, count) }
                continue  // the item is dropped
            }
            count += 1
            sum = newSum
            if newSum >= minimum && rowWidth != 0 { return (true, count) }
        }
        return (false, count)
    }
}

extension JustifiedLayout {
    /// JavaScript's `Math.round`: the nearest integer, halves toward +∞ (`Math.round(-2.5)` is −2).
    @inline(__always)
    static func jsRound(_ x: Double) -> Double {
        let down = x.rounded(.down)
        return x - down >= 0.5 ? down + 1 : down
    }

    /// Flickr's `Row.completeLayout` of `items` at `newHeight`, from `left` in `width`, at `y`:
    /// the height clamped to [target/2, 2·target], the widths kept (cropped); `justify` takes
    /// the width error, rounded cumulatively to whole points, off the items; `center` shifts
    /// them by `(width − edge)/2 + spacing`. Returns the height, `nil` when Flickr's boxes are
    /// NaN (the width without spacing 0 and the height clamped).
    /// - Throws: `LayoutError.nonFiniteLayout` for a box not finite.
    func flickrComplete<Sink: LayoutAttributesSink>(_ items: Range<Int>, height newHeight: Double,
                                                    style: JustifiedWidowStyle, width: Double, left: Double, y: Double,
                                                    _ ratios: [Double], section s: Int, into sink: inout Sink,
                                                    statistics stats: inout Statistics) throws -> Double? {
        let n = items.count
        let rowWidth = width - Double(n - 1) * spacing.width
        let clampedHeight = max(0.5 * targetRowHeight, min(newHeight, 2 * targetRowHeight))
        var height = newHeight, ratio = 1.0
        if newHeight != clampedHeight {
            if rowWidth == 0 { return nil }  // (0/clamped)/(0/0)
            height = clampedHeight
            ratio = (rowWidth / clampedHeight) / (rowWidth / newHeight)
        }
        var edge = left
        for k in items { edge += ratios[k] * height * ratio + spacing.width }
        let error = (edge - (spacing.width + left) - width) / Double(n), offset = (width - edge) / 2
        var x = left, previous = 0.0
        for (j, k) in items.enumerated() {
            let w = ratios[k] * height * ratio
            var boxLeft = x, boxWidth = w
            x += w + spacing.width
            if style == .justify {
                let cumulative = Self.jsRound(Double(j + 1) * error)
                if j > 0 { boxLeft -= previous }
                boxWidth -= cumulative - previous
                previous = cumulative
            } else if style == .center {
                boxLeft += offset + spacing.width
            }
            let frame = Rect(x: boxLeft, y: y, width: boxWidth, height: height)
            guard frame.minX.isFinite, frame.width.isFinite else {
                throw LayoutError.nonFiniteLayout(.flickrWidth(item: k, section: s))
            }
            stats.flickrReach = max(stats.flickrReach, frame.minX.magnitude + frame.width.magnitude)
            sink.append(.cell(IndexPath(item: k, section: s), frame: frame))
        }
        return height
    }

    /// One section as Flickr lays it out from `top`; returns `containerHeight` (`top + T +
    /// Σ(hᵣ + V) − V + B`, at least `top`). Rows break as `GreedyRows`, at their unclamped
    /// heights; the widow row at the previous row's (the target after none or a breakout row).
    /// - Complexity: O(n) (Flickr's own is O(n²)).
    func flickrSection<Sink: LayoutAttributesSink>(_ ratios: [Double], section s: Int, insets: EdgeInsets,
                                                          ownInsets: Bool, containerWidth: Double, top: Double, into sink: inout Sink,
                                                          statistics stats: inout Statistics, heightSum: inout Double)
        throws -> Double {
        let width = containerWidth - insets.left - insets.right
        var containerHeight = top + insets.top
        var rowCount = 0
        var lastHeight = 0.0, lastIsBreakout = false
        var rows = GreedyRows(self, ratios, width: width)
        while let next = rows.next() {
            let height = !next.isWidow ? next.natural : rowCount == 0 || lastIsBreakout ? targetRowHeight : lastHeight
            guard let rowHeight = try flickrComplete(next.start..<next.end, height: height,
                                                     style: next.isWidow ? widowStyle : .justify, width: width,
                                                     left: insets.left, y: containerHeight, ratios, section: s,
                                                     into: &sink, statistics: &stats) else {
                // Flickr leaves such a row open (its height 0): it fails on completion, the widow
                // row's at the latest; without widows, when it never completes, it is dropped.
                let (completes, count) = rows.flickrOpenRow(count: next.end - next.start, sum: next.sum, after: next.end)
                guard completes || showsWidows else { break }
                let blamesInsets = count == 1
                throw LayoutError.invalidParameter(name: blamesInsets ? "insets" : "spacing",
                                                   section: blamesInsets && ownInsets ? s : nil, value: 0,
                                                   requirement: .flickrRowWidth)
            }
            lastIsBreakout = breakoutCadence.map { (rowCount + 1) % $0 == 0 } ?? false
            rowCount += 1
            lastHeight = rowHeight
            containerHeight += rowHeight + spacing.height
            stats.add(row: rowHeight, items: next.end - next.start, widow: next.isWidow, target: targetRowHeight,
                      heightSum: &heightSum)
        }
        return max(containerHeight - spacing.height + insets.bottom, top)
    }
}
