// `--compat flickr`: the boxes flickr/justified-layout 4.1.0 computes.

extension JustifiedLayout {
    /// The fixed numbers of Flickr's rows in one section: its `Row`'s constructor arguments
    /// (the width between the paddings, the band `width/target · (1 ∓ tolerance)`, the clamps).
    struct FlickrGeometry {
        var width: Double, left: Double, spacing: Double
        var target: Double, minimumAspectRatio: Double, maximumAspectRatio: Double
        var minimumHeight: Double, maximumHeight: Double
    }

    /// A row as Flickr builds it: items `start..<start + count`, their Σa; once complete, its
    /// height (> 0) and boxes.
    struct FlickrRow {
        var top: Double
        var isBreakout: Bool
        var start: Int
        var count = 0
        var sum = 0.0
        var height = 0.0
        var lefts: [Double] = []
        var widths: [Double] = []
        /// Its width without spacing was 0 and its height clamped: Flickr's boxes are NaN.
        var failed = false
        var isComplete: Bool { height > 0 }
    }

    /// JavaScript's `Math.round`: the nearest integer, halves toward +∞ (`Math.round(-2.5)` is −2).
    @inline(__always)
    static func jsRound(_ x: Double) -> Double {
        let down = x.rounded(.down)
        return x - down >= 0.5 ? down + 1 : down
    }

    /// Offers item `index` (aspect ratio `a`) to `row`, Flickr's `Row.addItem` (the greedy rule
    /// of `JustifiedLayout`; a breakout row's first landscape item closes it alone at
    /// `width/a`). Returns whether the item was taken.
    @inline(__always)
    func flickrOffer(_ index: Int, _ a: Double, to row: inout FlickrRow, _ g: FlickrGeometry, _ ratios: [Double]) -> Bool {
        let n = row.count + 1
        let rowWidth = g.width - Double(n - 1) * g.spacing
        let newSum = row.sum + a
        if row.isBreakout && row.count == 0 && a >= 1 {
            row.count = 1
            row.sum = newSum
            flickrComplete(&row, height: rowWidth / a, style: .justify, g, ratios)
            return true
        }
        if newSum < g.minimumAspectRatio {
            row.count = n
            row.sum = newSum
            return true
        }
        if newSum > g.maximumAspectRatio && row.count > 0 {
            let previousWidth = g.width - Double(row.count - 1) * g.spacing
            if abs(newSum - rowWidth / g.target) > abs(row.sum - previousWidth / g.target) {
                flickrComplete(&row, height: previousWidth / row.sum, style: .justify, g, ratios)
                return false
            }
        }
        // In the band, past it when closer with the item, or a first item past it (a panorama).
        row.count = n
        row.sum = newSum
        flickrComplete(&row, height: rowWidth / newSum, style: .justify, g, ratios)
        return true
    }

    /// Gives `row` the height `newHeight` (clamped, the widths kept: cropped) and its boxes,
    /// Flickr's `Row.completeLayout`: `justify` takes the width error, rounded cumulatively to
    /// whole points, off its items; `center` shifts them by `(width − edge)/2 + spacing`.
    func flickrComplete(_ row: inout FlickrRow, height newHeight: Double, style: JustifiedWidowStyle,
                        _ g: FlickrGeometry, _ ratios: [Double]) {
        let n = row.count
        let rowWidth = g.width - Double(n - 1) * g.spacing
        let clampedHeight = max(g.minimumHeight, min(newHeight, g.maximumHeight))
        var ratio = 1.0
        row.height = newHeight
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
        var edge = g.left
        for k in row.start..<(row.start + n) {
            let w = ratios[k] * row.height * ratio
            row.lefts.append(edge)
            row.widths.append(w)
            edge += w + g.spacing
        }
        switch style {
        case .justify:
            edge -= g.spacing + g.left
            let error = (edge - g.width) / Double(n)
            if n == 1 {
                row.widths[0] -= Self.jsRound(error)
            } else {
                var previous = 0.0
                for k in 0..<n {
                    let cumulative = Self.jsRound(Double(k + 1) * error)
                    if k > 0 { row.lefts[k] -= previous }
                    row.widths[k] -= cumulative - previous
                    previous = cumulative
                }
            }
        case .center:
            let offset = (g.width - edge) / 2
            for k in 0..<n { row.lefts[k] += offset + g.spacing }
        case .left:
            break
        }
    }

    /// One section as Flickr lays it out from `top`: its boxes to `sink`; returns its bottom,
    /// `containerHeight` (`top + T + Σ(hᵣ + V) − V + B`, at least `top`).
    /// - Complexity: O(n) (Flickr's own is O(n²)).
    func flickrSection<Sink: LayoutAttributesSink>(_ ratios: [Double], section s: Int, insets: EdgeInsets,
                                                          ownInsets: Bool, containerWidth: Double, top: Double, into sink: inout Sink,
                                                          statistics stats: inout Statistics, heightSum: inout Double)
        throws -> Double {
        let width = containerWidth - insets.left - insets.right
        let g = FlickrGeometry(width: width, left: insets.left, spacing: spacing.width, target: targetRowHeight,
                               minimumAspectRatio: width / targetRowHeight * (1 - targetRowHeightTolerance),
                               maximumAspectRatio: width / targetRowHeight * (1 + targetRowHeightTolerance),
                               minimumHeight: 0.5 * targetRowHeight, maximumHeight: 2 * targetRowHeight)
        var containerHeight = top + insets.top
        var rowCount = 0
        var lastHeight = 0.0, lastIsBreakout = false
        /// A new row at `start`, taking over the buffers of `old`.
        func newRow(at start: Int, reusing old: inout FlickrRow?) -> FlickrRow {
            let breakout = breakoutCadence.map { (rowCount + 1) % $0 == 0 } ?? false
            var row = FlickrRow(top: containerHeight, isBreakout: breakout, start: start)
            if old != nil {
                swap(&row.lefts, &old!.lefts)
                swap(&row.widths, &old!.widths)
            }
            return row
        }
        func add(_ row: FlickrRow, widow: Bool) throws {
            if row.failed {
                let blamesInsets = row.count == 1
                throw LayoutError.invalidParameter(name: blamesInsets ? "insets" : "spacing",
                                                   section: blamesInsets && ownInsets ? s : nil, value: 0,
                                                   requirement: .flickrRowWidth)
            }
            for k in 0..<row.count {
                let frame = Rect(x: row.lefts[k], y: row.top, width: row.widths[k], height: row.height)
                guard frame.minX.isFinite, frame.width.isFinite else {
                    throw LayoutError.nonFiniteLayout(.flickrWidth(item: row.start + k, section: s))
                }
                stats.flickrReach = max(stats.flickrReach, frame.minX.magnitude + frame.width.magnitude)
                sink.append(.cell(IndexPath(item: row.start + k, section: s), frame: frame))
            }
            rowCount += 1
            lastHeight = row.height
            lastIsBreakout = row.isBreakout
            containerHeight += row.height + spacing.height
            stats.add(row: row.height, items: row.count, widow: widow, target: targetRowHeight, heightSum: &heightSum)
        }
        let maximumRows = maximumRowCount ?? .max
        var none: FlickrRow? = nil
        var row: FlickrRow? = ratios.isEmpty ? nil : newRow(at: 0, reusing: &none)
        var i = 0
        items: while i < ratios.count {
            var taken = flickrOffer(i, ratios[i], to: &row!, g, ratios)
            if row!.isComplete {
                try add(row!, widow: false)
                if rowCount >= maximumRows { row = nil; break items }
                row = newRow(at: taken ? i + 1 : i, reusing: &row)
                if !taken {
                    taken = flickrOffer(i, ratios[i], to: &row!, g, ratios)
                    if row!.isComplete {
                        try add(row!, widow: false)
                        if rowCount >= maximumRows { row = nil; break items }
                        row = newRow(at: i + 1, reusing: &row)
                    }
                }
            }
            i += 1
        }
        if var widow = row, widow.count > 0, showsWidows {
            let height = rowCount == 0 ? targetRowHeight : lastIsBreakout ? targetRowHeight : lastHeight
            flickrComplete(&widow, height: height, style: widowStyle, g, ratios)
            try add(widow, widow: true)
        }
        containerHeight = containerHeight - spacing.height
        containerHeight = containerHeight + insets.bottom
        return max(containerHeight, top)
    }
}
