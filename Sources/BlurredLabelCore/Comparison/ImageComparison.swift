import BlurLabelPixels
import BlurLabelSystem

/// Compares two images the way a person would: exact equality first, then a perceptual colour
/// distance per pixel (`metric`, pixelmatch's), with anti-aliased edge pixels counted apart.
///
/// A pixel differs when its distance is over `threshold` (0 same colour … 1 black against white).
/// Transparency counts: semi-transparent pixels are blended over pixelmatch 7's checkerboard
/// before measuring, so a transparent pixel differs from an opaque white one.
public struct ImageComparison: Sendable {
    package var threshold: Double
    /// Pixels allowed to differ, as a count and as a share of all pixels (the larger wins).
    package var maxDiffPixels: Int
    package var maxDiffRatio: Double
    /// Count pixels that differ only because an edge moved by a sub-pixel apart, and allow them.
    package var detectAntialiasing: Bool
    package var metric: ComparisonMetric
    /// Blend semi-transparent pixels over pixelmatch's checkerboard (true, the default) or over
    /// `backdrop` (false; pixelmatch's `checkerboard: false` is a white backdrop).
    package var checkerboard: Bool
    /// The colour transparent pixels are shown over in pictures, and blended over when
    /// `checkerboard` is false.
    package var backdrop: Color
    /// Worker threads for one comparison (the result is the same for any count).
    package var threads: Int

    /// The default metric: OKLab, pixelmatch's current one (docs/golden-images.md says why).
    public static let defaultMetric = ComparisonMetric.oklab

    /// A comparison with these settings, on every core.
    public init(
        threshold: Double = 0.1,
        maxDiffPixels: Int = 0,
        maxDiffRatio: Double = 0,
        detectAntialiasing: Bool = true,
        metric: ComparisonMetric = defaultMetric,
        checkerboard: Bool = true,
        backdrop: Color = .white
    ) {
        self.init(
            threshold: threshold,
            maxDiffPixels: maxDiffPixels,
            maxDiffRatio: maxDiffRatio,
            detectAntialiasing: detectAntialiasing,
            metric: metric,
            checkerboard: checkerboard,
            backdrop: backdrop,
            threads: defaultThreadCount
        )
    }

    /// The same on `threads` worker threads (at least 1).
    package init(
        threshold: Double = 0.1,
        maxDiffPixels: Int = 0,
        maxDiffRatio: Double = 0,
        detectAntialiasing: Bool = true,
        metric: ComparisonMetric = defaultMetric,
        checkerboard: Bool = true,
        backdrop: Color = .white,
        threads: Int = defaultThreadCount
    ) {
        self.threshold = threshold
        self.maxDiffPixels = maxDiffPixels
        self.maxDiffRatio = maxDiffRatio
        self.detectAntialiasing = detectAntialiasing
        self.metric = metric
        self.checkerboard = checkerboard
        self.backdrop = backdrop
        self.threads = max(1, threads)
    }

    /// What a comparison found.
    package struct Result: Sendable {
        package let width: Int
        package let height: Int
        /// Pixels over the threshold, not counting anti-aliasing ones.
        package let differentPixels: Int
        /// Pixels over the threshold excused as anti-aliasing.
        package let antialiasedPixels: Int
        /// Pixels whose bytes differ at all (over, under the threshold or anti-aliased).
        package let changedPixels: Int
        /// The largest distance seen, 0...1.
        package let maxDistance: Double
        /// Differing pixels allowed by `maxDiffPixels` / `maxDiffRatio`.
        package let allowedPixels: Int
        package let metric: ComparisonMetric
        package let threshold: Double
        package var passes: Bool { differentPixels <= allowedPixels }
        /// Per pixel: 0 same, 1 different, 2 anti-aliased difference, 3 outside both pictures
        /// (only in `compareDifferentSizes`'s canvas); empty when identical.
        let classes: [UInt8]
        /// Where the differing pixels are (nil when none differ beyond the threshold).
        package internal(set) var bounds: DifferenceBounds? = nil

        package var differentRatio: Double { Double(differentPixels) / Double(max(1, width * height)) }
        /// Every pixel's bytes are equal.
        package var isIdentical: Bool { changedPixels == 0 }

        /// Pixels that differ, but by no more than the threshold.
        package var pixelsBelowThreshold: Int { changedPixels - differentPixels - antialiasedPixels }

        /// One line: "identical" only when every pixel is; otherwise how many pixels differ and by how much.
        package var summary: String {
            if isIdentical { return "images are identical" }
            let aa = antialiasedPixels > 0 ? "; \(antialiasedPixels) anti-aliased pixels not counted" : ""
            let largest =
                cFormat("largest distance %.4f (", maxDistance) + metric.rawValue
                + cFormat(" metric, threshold %g)", threshold)
            if differentPixels == 0 {
                let below = pixelsBelowThreshold == 1 ? "1 pixel differs" : "\(pixelsBelowThreshold) pixels differ"
                return "equal within the threshold: \(below) below it, \(largest)\(aa)"
            }
            // Passing with pixels over the threshold: say it is the tolerance that lets them pass.
            let tolerated = passes ? "within the tolerance of \(allowedPixels) pixels: " : ""
            let place = bounds.map { " " + $0.description } ?? ""
            return tolerated
                + cFormat("%ld of %ld pixels differ (%.4f%%)", differentPixels, width * height, differentRatio * 100)
                + place + ", " + largest + aa
        }
    }

    /// Sizes that do not match.
    package struct SizeMismatch: Error, CustomStringConvertible {
        package let expected: (width: Int, height: Int)
        package let actual: (width: Int, height: Int)
        package var description: String { "size mismatch: " + sizes }
        /// "expected WxH, actual WxH".
        var sizes: String { "expected \(expected.width)x\(expected.height), actual \(actual.width)x\(actual.height)" }
    }

    /// Settings a comparison cannot use: a threshold or share outside 0…1 (NaN included: a NaN
    /// threshold let every pixel pass with one metric), a negative pixel count.
    package struct InvalidSettings: Error, CustomStringConvertible {
        package let description: String
    }

    /// Throws `InvalidSettings` naming the setting, its value and the values accepted, for a
    /// threshold or `maxDiffRatio` outside 0…1 or a negative `maxDiffPixels`.
    package func checkSettings() throws {
        guard (0...1).contains(threshold) else {
            throw InvalidSettings(description: "threshold must be from 0 to 1, got \(threshold)")
        }
        guard (0...1).contains(maxDiffRatio) else {
            throw InvalidSettings(description: "maxDiffRatio must be from 0 to 1, got \(maxDiffRatio)")
        }
        guard maxDiffPixels >= 0 else {
            throw InvalidSettings(description: "maxDiffPixels must be 0 or more, got \(maxDiffPixels)")
        }
    }

    /// Throws `InvalidSettings` for a threshold or `maxDiffRatio` outside 0…1 or a negative
    /// `maxDiffPixels`, `SizeMismatch` for pictures of different sizes.
    package func compare(expected: Image, actual: Image) throws -> Result {
        try checkSettings()
        guard expected.width == actual.width, expected.height == actual.height else {
            throw SizeMismatch(expected: (expected.width, expected.height), actual: (actual.width, actual.height))
        }
        let w = expected.width
        let h = expected.height
        let allowed = max(maxDiffPixels, Int((maxDiffRatio * Double(w * h)).rounded(.down)))
        if expected.pixels == actual.pixels {
            return Result(
                width: w,
                height: h,
                differentPixels: 0,
                antialiasedPixels: 0,
                changedPixels: 0,
                maxDistance: 0,
                allowedPixels: allowed,
                metric: metric,
                threshold: threshold,
                classes: []
            )
        }
        let measure = PixelMetric(metric: metric, threshold: threshold, checkerboard: checkerboard, backdrop: backdrop)
        let detect = detectAntialiasing
        var classes = [UInt8](repeating: 0, count: w * h)
        // Rows are split between workers; each worker tallies its own rows and hands the tally
        // back once, and the tallies are merged after the join (sums and a maximum, so the
        // result does not depend on how rows were split).
        let tallies = expected.pixels.withUnsafeBytes { rawA in
            actual.pixels.withUnsafeBytes { rawB in
                classes.withUnsafeMutableBufferPointer { out in
                    let a = UnsafeSendable(rawA.bindMemory(to: UInt32.self).baseAddress!)
                    let b = UnsafeSendable(rawB.bindMemory(to: UInt32.self).baseAddress!)
                    let marks = UnsafeSendable(out.baseAddress!)
                    return parallelRangeMap(h, threads: threads) { rows in
                        let pa = UnsafePointer(a.pointer)
                        let pb = UnsafePointer(b.pointer)
                        let image = PixelGrid(width: w, height: h)
                        var tally = Tally()
                        for y in rows {
                            for x in 0..<w {
                                let i = y * w + x
                                guard pa[i] != pb[i] else { continue }
                                tally.changed += 1
                                let (exceeds, distance) = measure.compare(pa[i], pb[i], index: i)
                                tally.worst = max(tally.worst, distance)
                                guard exceeds else { continue }
                                if detect
                                    && (image.isAntialiased(pa, x, y, other: pb, measure)
                                        || image.isAntialiased(pb, x, y, other: pa, measure))
                                {
                                    marks.pointer[i] = 2  // each pixel is written by the one worker owning its row
                                    tally.antialiased += 1
                                } else {
                                    marks.pointer[i] = 1
                                    tally.different += 1
                                    tally.bounds =
                                        tally.bounds?.including(x: x, y: y)
                                        ?? DifferenceBounds(minX: x, minY: y, maxX: x, maxY: y)
                                }
                            }
                        }
                        return tally
                    }
                }
            }
        }
        let total = tallies.reduce(Tally(), +)
        return Result(
            width: w,
            height: h,
            differentPixels: total.different,
            antialiasedPixels: total.antialiased,
            changedPixels: total.changed,
            maxDistance: min(1, total.worst),
            allowedPixels: allowed,
            metric: metric,
            threshold: threshold,
            classes: classes,
            bounds: total.bounds
        )
    }
}

/// What one worker found in its rows; merged after the join.
struct Tally: Sendable, Equatable {
    var different = 0, antialiased = 0, changed = 0, worst = 0.0
    /// The box around the pixels that differ (not anti-aliasing): nil while there are none.
    var bounds: DifferenceBounds?

    static func + (l: Tally, r: Tally) -> Tally {
        Tally(
            different: l.different + r.different,
            antialiased: l.antialiased + r.antialiased,
            changed: l.changed + r.changed,
            worst: max(l.worst, r.worst),
            bounds: DifferenceBounds.union(l.bounds, r.bounds)
        )
    }
}

/// The smallest box holding every differing pixel, in pixels, inclusive.
package struct DifferenceBounds: Sendable, Equatable {
    package var minX: Int, minY: Int, maxX: Int, maxY: Int

    package init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The box grown to hold (x, y).
    func including(x: Int, y: Int) -> DifferenceBounds {
        DifferenceBounds(minX: min(minX, x), minY: min(minY, y), maxX: max(maxX, x), maxY: max(maxY, y))
    }

    static func union(_ a: DifferenceBounds?, _ b: DifferenceBounds?) -> DifferenceBounds? {
        guard let a else { return b }
        guard let b else { return a }
        return a.including(x: b.minX, y: b.minY).including(x: b.maxX, y: b.maxY)
    }

    /// "at (x, y)" for one pixel, "within x a–b, y c–d" for more.
    var description: String {
        minX == maxX && minY == maxY ? "at (\(minX), \(minY))" : "within x \(minX)–\(maxX), y \(minY)–\(maxY)"
    }
}

/// pixelmatch's anti-aliasing test (after Vyšniauskas, 2009) on packed pixels.
struct PixelGrid {
    let width: Int, height: Int

    /// The pixel lies on a brightness ramp between a darker and a brighter neighbour, one of
    /// which sits in a flat area (three or more identical neighbours) in both images.
    func isAntialiased(
        _ img: UnsafePointer<UInt32>,
        _ x1: Int,
        _ y1: Int,
        other: UnsafePointer<UInt32>,
        _ measure: PixelMetric
    ) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minDelta = 0.0
        var maxDelta = 0.0
        var minPosition = (0, 0)
        var maxPosition = (0, 0)
        let centreIndex = y1 * width + x1
        let centre = img[centreIndex]
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                let delta = measure.brightnessDelta(centre, img[y * width + x], centre: centreIndex)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    minPosition = (x, y)
                } else if delta > maxDelta {
                    maxDelta = delta
                    maxPosition = (x, y)
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(img, minPosition) && hasManySiblings(other, minPosition))
            || (hasManySiblings(img, maxPosition) && hasManySiblings(other, maxPosition))
    }

    private func hasManySiblings(_ img: UnsafePointer<UInt32>, _ p: (Int, Int)) -> Bool {
        let (x1, y1) = p
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        let centre = img[y1 * width + x1]
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                if img[y * width + x] == centre { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }
}
