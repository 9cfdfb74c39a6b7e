// `--compat flickr`: the boxes flickr/justified-layout 4.1.0 computes.

extension JustifiedLayout {
    /// A row as Flickr builds it: its items; once complete, its height and boxes.
    struct FlickrRow {
        var start = 0
        var count = 0
        var height = 0.0
        var lefts: [Double] = []
        var widths: [Double] = []
        /// Its width without spacing was 0 and its height clamped: Flickr's boxes are NaN.
        var failed = false
    }

    /// JavaScript's `Math.round`: the nearest integer, halves toward +∞ (`Math.round(-2.5)` is −2).
    @inline(__always)
    static func jsRound(_ x: Double) -> Double {
        let down = x.rounded(.down)
        return x - down >= 0.5 ? down + 1 : down
    }

    /// Whether Flickr's `Row.addItem` completes an open row with the items from `start` on (at
    /// the first close whose row width is not 0), and its item count then or after the last.
    func flickrOpenRow(count: Int, sum: Double, after start: Int, width: Double, _ ratios: [Double])
        -> (completes: Bool, count: Int) {
        let minimum = width / targetRowHeight * (1 - targetRowHeightTolerance)
        let maximum = width / targetRowHeight * (1 + targetRowHeightTolerance)
        var count = count, sum = sum
        for a in ratios[start...] {
            let rowWidth = width - Double(count) * spacing.width
            let newSum = sum + a
            if newSum >= minimum && newSum > maximum
                && abs(newSum - rowWidth / targetRowHeight) > abs(sum - (width - Double(count - 1) * spacing.width) / targetRowHeight) {
                if width - Double(count - 1) * spacing.width != 0 { return (true, count) }
                continue  // the item is dropped
            }
            count += 1
            sum = newSum
            if newSum >= minimum && rowWidth != 0 { return (true, count) }
        }
        return (false, count)
    }

    /// Gives `row` the height `newHeight` (clamped to [target/2, 2·target], the widths kept:
    /// cropped) and its boxes from `left` in `width`, Flickr's `Row.completeLayout`: `justify`
    /// takes the width error, rounded cumulatively to whole points, off its items; `center`
    /// shifts them by `(width − edge)/2 + spacing`.
    func flickrComplete(_ row: inout FlickrRow, height newHeight: Double, style: JustifiedWidowStyle,
                        width: Double, left: Double, _ ratios: [Double]) {
        let n = row.count
        let rowWidth = width - Double(n - 1) * spacing.width
        let clampedHeight = max(0.5 * targetRowHeight, min(newHeight, 2 * targetRowHeight))
        var ratio = 1.0
        row.height = newHeight
        row.failed = false
        if rowWidth == 0 && newHeight != clampedHeight {
            // (0/clamped)/(0/0): Flickr's widths are NaN.
            row.widths.removeAll(keepingCapacity: true)
            row.failed = true
            return
        }
        if newHeight != clampedHeight {
            row.height = clampedHeight
            ratio = (rowWidth / clampedHeight) / (rowWidth / newHeight)
        }
        row.lefts.removeAll(keepingCapacity: true)
        row.widths.removeAll(keepingCapacity: true)
        var edge = left
        for k in row.start..<(row.start + n) {
            let w = ratios[k] * row.height * ratio
            row.lefts.append(edge)
            row.widths.append(w)
            edge += w + spacing.width
        }
        switch style {
        case .justify:
            edge -= spacing.width + left
            let error = (edge - width) / Double(n)
            var previous = 0.0
            for k in 0..<n {
                let cumulative = Self.jsRound(Double(k + 1) * error)
                if k > 0 { row.lefts[k] -= previous }
                row.widths[k] -= cumulative - previous
                previous = cumulative
            }
        case .center:
            let offset = (width - edge) / 2
            for k in 0..<n { row.lefts[k] += offset + spacing.width }
        case .left:
            break
        }
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
        var row = FlickrRow()
        while let next = rows.next() {
            row.start = next.start
            row.count = next.end - next.start
            let height = !next.isWidow ? next.natural : rowCount == 0 || lastIsBreakout ? targetRowHeight : lastHeight
            flickrComplete(&row, height: height, style: next.isWidow ? widowStyle : .justify, width: width,
                           left: insets.left, ratios)
            if row.failed {
                // Flickr leaves such a row open (its height 0): it fails on completion, the widow
                // row's at the latest; without widows, when it never completes, it is dropped.
                let (completes, count) = flickrOpenRow(count: row.count, sum: next.sum, after: next.end, width: width, ratios)
                guard completes || showsWidows else { break }
                let blamesInsets = count == 1
                throw LayoutError.invalidParameter(name: blamesInsets ? "insets" : "spacing",
                                                   section: blamesInsets && ownInsets ? s : nil, value: 0,
                                                   requirement: .flickrRowWidth)
            }
            for k in 0..<row.count {
                let frame = Rect(x: row.lefts[k], y: containerHeight, width: row.widths[k], height: row.height)
                guard frame.minX.isFinite, frame.width.isFinite else {
                    throw LayoutError.nonFiniteLayout(.flickrWidth(item: row.start + k, section: s))
                }
                stats.flickrReach = max(stats.flickrReach, frame.minX.magnitude + frame.width.magnitude)
                sink.append(.cell(IndexPath(item: row.start + k, section: s), frame: frame))
            }
            lastIsBreakout = breakoutCadence.map { (rowCount + 1) % $0 == 0 } ?? false
            rowCount += 1
            lastHeight = row.height
            containerHeight += row.height + spacing.height
            stats.add(row: row.height, items: row.count, widow: next.isWidow, target: targetRowHeight, heightSum: &heightSum)
        }
        return max(containerHeight - spacing.height + insets.bottom, top)
    }
}
