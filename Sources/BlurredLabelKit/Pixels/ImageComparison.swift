import Foundation

/// Compares two images the way a person would: exact equality first, then a perceptual colour
/// distance per pixel, with anti-aliased edge pixels counted apart.
///
/// Metric (as pixelmatch): each premultiplied pixel is composited over `backdrop`, converted to
/// YIQ, and the squared distance `0.5053·ΔY² + 0.299·ΔI² + 0.1957·ΔQ²` is divided by its maximum
/// (35215) and square-rooted, giving 0 (same) to 1 (black vs white). A pixel differs when its
/// distance is over `threshold`.
public struct ImageComparison: Sendable {
    public var threshold: Double
    /// Pixels allowed to differ, as a count and as a share of all pixels (the larger wins).
    public var maxDiffPixels: Int
    public var maxDiffRatio: Double
    /// Count pixels that differ only because an edge moved by a sub-pixel apart, and allow them.
    public var detectAntialiasing: Bool
    public var backdrop: Color

    public init(threshold: Double = 0.1, maxDiffPixels: Int = 0, maxDiffRatio: Double = 0,
                detectAntialiasing: Bool = true, backdrop: Color = .white) {
        self.threshold = threshold; self.maxDiffPixels = maxDiffPixels; self.maxDiffRatio = maxDiffRatio
        self.detectAntialiasing = detectAntialiasing; self.backdrop = backdrop
    }

    /// What a comparison found.
    public struct Result: Sendable {
        public let width: Int
        public let height: Int
        /// Pixels over the threshold, not counting anti-aliasing ones.
        public let differentPixels: Int
        public let antialiasedPixels: Int
        /// The largest distance seen, 0...1.
        public let maxDistance: Double
        public let passes: Bool
        /// Per pixel: 0 same, 1 different, 2 anti-aliased difference.
        let classes: [UInt8]

        public var differentRatio: Double { Double(differentPixels) / Double(max(1, width * height)) }
        public var isIdentical: Bool { maxDistance == 0 }

        /// One line: how many pixels differ and by how much.
        public var summary: String {
            if isIdentical { return "images are identical" }
            return String(format: "%d of %d pixels differ (%.4f%%), largest distance %.4f; %d anti-aliased pixels allowed",
                          differentPixels, width * height, differentRatio * 100, maxDistance, antialiasedPixels)
        }
    }

    /// Sizes that do not match.
    public struct SizeMismatch: Error, CustomStringConvertible {
        public let expected: (width: Int, height: Int)
        public let actual: (width: Int, height: Int)
        public var description: String {
            "size mismatch: expected \(expected.width)x\(expected.height), actual \(actual.width)x\(actual.height)"
        }
    }

    public func compare(expected: Image, actual: Image) throws -> Result {
        guard expected.width == actual.width, expected.height == actual.height else {
            throw SizeMismatch(expected: (expected.width, expected.height), actual: (actual.width, actual.height))
        }
        let w = expected.width, h = expected.height
        if expected.pixels == actual.pixels {
            return Result(width: w, height: h, differentPixels: 0, antialiasedPixels: 0, maxDistance: 0, passes: true, classes: [])
        }
        let limit = 35215 * threshold * threshold
        let back = Pixel(backdrop: backdrop)
        let detect = detectAntialiasing
        var classes = [UInt8](repeating: 0, count: w * h)
        // Rows are split between threads; each row's tallies are its own, summed in row order.
        let tallies = RowTallies(rows: h)
        expected.pixels.withUnsafeBytes { rawA in
            actual.pixels.withUnsafeBytes { rawB in
                classes.withUnsafeMutableBufferPointer { out in
                    let a = UnsafeSendable(rawA.bindMemory(to: UInt32.self).baseAddress!)
                    let b = UnsafeSendable(rawB.bindMemory(to: UInt32.self).baseAddress!)
                    let marks = UnsafeSendable(out.baseAddress!)
                    parallelRanges(h, threads: defaultThreadCount) { rows in
                        let pa = UnsafePointer(a.pointer), pb = UnsafePointer(b.pointer)
                        for y in rows {
                            var different = 0, antialiased = 0, worst = 0.0
                            for x in 0..<w {
                                let i = y * w + x
                                guard pa[i] != pb[i] else { continue }
                                let delta = back.distanceSquared(pa[i], pb[i])
                                worst = max(worst, delta)
                                guard delta > limit else { continue }
                                if detect && (Self.isAntialiased(pa, x, y, w, h, other: pb, back: back)
                                              || Self.isAntialiased(pb, x, y, w, h, other: pa, back: back)) {
                                    marks.pointer[i] = 2
                                    antialiased += 1
                                } else {
                                    marks.pointer[i] = 1
                                    different += 1
                                }
                            }
                            tallies.set(y, different, antialiased, worst)
                        }
                    }
                }
            }
        }
        let (different, antialiased, worst) = tallies.total()
        let allowed = max(maxDiffPixels, Int((maxDiffRatio * Double(w * h)).rounded(.down)))
        return Result(width: w, height: h, differentPixels: different, antialiasedPixels: antialiased,
                      maxDistance: (worst / 35215).squareRoot(), passes: different <= allowed, classes: classes)
    }

    /// The diff picture: expected faded towards white, differing pixels red, anti-aliased yellow.
    public func diffImage(expected: Image, result: Result) throws -> Image {
        var out = try Image(width: result.width, height: result.height, fill: .white)
        let back = Pixel(backdrop: backdrop)
        let words = expected.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        for i in 0..<(result.width * result.height) {
            let (r, g, b): (UInt8, UInt8, UInt8)
            switch result.classes.isEmpty ? 0 : result.classes[i] {
            case 1: (r, g, b) = (255, 0, 0)
            case 2: (r, g, b) = (255, 255, 0)
            default:
                let grey = UInt8(max(0, min(255, 255 + (back.brightness(words[i]) - 255) * 0.1)))
                (r, g, b) = (grey, grey, grey)
            }
            out.pixels[i * 4] = r; out.pixels[i * 4 + 1] = g; out.pixels[i * 4 + 2] = b; out.pixels[i * 4 + 3] = 255
        }
        return out
    }

    /// expected | diff | actual, side by side with 4-px grey gaps.
    public func sideBySide(expected: Image, diff: Image, actual: Image) throws -> Image {
        let gap = 4
        let width = expected.width + diff.width + actual.width + 2 * gap
        let height = max(expected.height, diff.height, actual.height)
        var out = try Image(width: width, height: height, fill: Color(red: 128, green: 128, blue: 128))
        var left = 0
        for part in [expected, diff, actual] {
            let flat = part.flattened(over: backdrop)
            for y in 0..<part.height {
                let src = y * part.width * 4, dst = (y * width + left) * 4
                out.pixels.replaceSubrange(dst..<(dst + part.width * 4), with: flat.pixels[src..<(src + part.width * 4)])
            }
            left += part.width + gap
        }
        return out
    }

    // MARK: - metric

    /// The backdrop, and the YIQ arithmetic on packed premultiplied pixels composited over it.
    struct Pixel: Sendable {
        let r: Double, g: Double, b: Double

        init(backdrop: Color) { r = Double(backdrop.red); g = Double(backdrop.green); b = Double(backdrop.blue) }

        /// Y, I and Q of a packed premultiplied pixel over the backdrop.
        @inline(__always)
        func yiq(_ word: UInt32) -> (Double, Double, Double) {
            let inverse = 1 - Double(word >> 24) / 255
            let red = Double(word & 0xFF) + r * inverse
            let green = Double((word >> 8) & 0xFF) + g * inverse
            let blue = Double((word >> 16) & 0xFF) + b * inverse
            return (red * 0.29889531 + green * 0.58662247 + blue * 0.11448223,
                    red * 0.59597799 - green * 0.27417610 - blue * 0.32180189,
                    red * 0.21147017 - green * 0.52261711 + blue * 0.31114694)
        }

        @inline(__always)
        func brightness(_ word: UInt32) -> Double { yiq(word).0 }

        @inline(__always)
        func distanceSquared(_ p: UInt32, _ q: UInt32) -> Double {
            let (y1, i1, q1) = yiq(p), (y2, i2, q2) = yiq(q)
            let dy = y1 - y2, di = i1 - i2, dq = q1 - q2
            return 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq
        }
    }

    /// pixelmatch's test: the pixel lies on an edge between a darker and a brighter neighbour,
    /// one of which sits in a flat area (three or more identical neighbours) in both images.
    static func isAntialiased(_ img: UnsafePointer<UInt32>, _ x1: Int, _ y1: Int, _ w: Int, _ h: Int,
                              other: UnsafePointer<UInt32>, back: Pixel) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, w - 1), y2 = min(y1 + 1, h - 1)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minPosition = (0, 0), maxPosition = (0, 0)
        let centre = back.brightness(img[y1 * w + x1])
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                let delta = centre - back.brightness(img[y * w + x])
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta; minPosition = (x, y)
                } else if delta > maxDelta {
                    maxDelta = delta; maxPosition = (x, y)
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(img, minPosition, w, h) && hasManySiblings(other, minPosition, w, h))
            || (hasManySiblings(img, maxPosition, w, h) && hasManySiblings(other, maxPosition, w, h))
    }

    private static func hasManySiblings(_ img: UnsafePointer<UInt32>, _ p: (Int, Int), _ w: Int, _ h: Int) -> Bool {
        let (x1, y1) = p
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, w - 1), y2 = min(y1 + 1, h - 1)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        let centre = img[y1 * w + x1]
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                if img[y * w + x] == centre { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }
}

/// Per-row counts written by worker threads, summed in row order so the result never depends
/// on how rows were split.
private final class RowTallies: @unchecked Sendable {
    private var different: [Int], antialiased: [Int], worst: [Double]
    init(rows: Int) {
        // Three buffers of their own: `antialiased = different` would share one, and the first
        // write from a worker would copy it while other workers write (use after free, ASan).
        different = Array(repeating: 0, count: rows); antialiased = Array(repeating: 0, count: rows)
        worst = Array(repeating: 0, count: rows)
    }
    func set(_ row: Int, _ d: Int, _ a: Int, _ w: Double) { different[row] = d; antialiased[row] = a; worst[row] = w }
    func total() -> (Int, Int, Double) { (different.reduce(0, +), antialiased.reduce(0, +), worst.max() ?? 0) }
}
