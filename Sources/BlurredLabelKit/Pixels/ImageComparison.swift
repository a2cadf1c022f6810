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
        let a = blendedYIQ(expected), b = blendedYIQ(actual)
        let limit = 35215 * threshold * threshold
        var classes = [UInt8](repeating: 0, count: w * h)
        var different = 0, antialiased = 0, worst = 0.0
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                let delta = distanceSquared(a, i, b, i)
                worst = max(worst, delta)
                guard delta > limit else { continue }
                if detectAntialiasing && (isAntialiased(a, x, y, w, h, other: b) || isAntialiased(b, x, y, w, h, other: a)) {
                    classes[i] = 2
                    antialiased += 1
                } else {
                    classes[i] = 1
                    different += 1
                }
            }
        }
        let allowed = max(maxDiffPixels, Int((maxDiffRatio * Double(w * h)).rounded(.down)))
        return Result(width: w, height: h, differentPixels: different, antialiasedPixels: antialiased,
                      maxDistance: (worst / 35215).squareRoot(), passes: different <= allowed, classes: classes)
    }

    /// The diff picture: expected faded towards white, differing pixels red, anti-aliased yellow.
    public func diffImage(expected: Image, result: Result) throws -> Image {
        var out = try Image(width: result.width, height: result.height, fill: .white)
        let yiq = blendedYIQ(expected)
        for i in 0..<(result.width * result.height) {
            let (r, g, b): (UInt8, UInt8, UInt8)
            switch result.classes.isEmpty ? 0 : result.classes[i] {
            case 1: (r, g, b) = (255, 0, 0)
            case 2: (r, g, b) = (255, 255, 0)
            default:
                let grey = UInt8(max(0, min(255, 255 + (yiq.y[i] - 255) * 0.1)))
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

    struct YIQ { var y: [Double]; var i: [Double]; var q: [Double] }

    private func blendedYIQ(_ image: Image) -> YIQ {
        let n = image.width * image.height
        var out = YIQ(y: [Double](repeating: 0, count: n), i: [Double](repeating: 0, count: n), q: [Double](repeating: 0, count: n))
        let back = (Double(backdrop.red), Double(backdrop.green), Double(backdrop.blue))
        image.pixels.withUnsafeBufferPointer { p in
            for k in 0..<n {
                let inverse = 1 - Double(p[k * 4 + 3]) / 255
                let r = Double(p[k * 4]) + back.0 * inverse
                let g = Double(p[k * 4 + 1]) + back.1 * inverse
                let b = Double(p[k * 4 + 2]) + back.2 * inverse
                out.y[k] = r * 0.29889531 + g * 0.58662247 + b * 0.11448223
                out.i[k] = r * 0.59597799 - g * 0.27417610 - b * 0.32180189
                out.q[k] = r * 0.21147017 - g * 0.52261711 + b * 0.31114694
            }
        }
        return out
    }

    @inline(__always)
    private func distanceSquared(_ a: YIQ, _ i: Int, _ b: YIQ, _ j: Int) -> Double {
        let dy = a.y[i] - b.y[j], di = a.i[i] - b.i[j], dq = a.q[i] - b.q[j]
        return 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq
    }

    /// pixelmatch's test: the pixel lies on an edge between a darker and a brighter neighbour,
    /// one of which sits in a flat area in both images.
    private func isAntialiased(_ img: YIQ, _ x1: Int, _ y1: Int, _ w: Int, _ h: Int, other: YIQ) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, w - 1), y2 = min(y1 + 1, h - 1)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minPosition = (0, 0), maxPosition = (0, 0)
        let centre = img.y[y1 * w + x1]
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                let delta = centre - img.y[y * w + x]
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

    private func hasManySiblings(_ img: YIQ, _ p: (Int, Int), _ w: Int, _ h: Int) -> Bool {
        let (x1, y1) = p
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, w - 1), y2 = min(y1 + 1, h - 1)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        let i = y1 * w + x1
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                let j = y * w + x
                if img.y[i] == img.y[j] && img.i[i] == img.i[j] && img.q[i] == img.q[j] { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }
}
