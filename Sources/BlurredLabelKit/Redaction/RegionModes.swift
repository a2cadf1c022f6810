/// Blur of a region: the region and a margin of the blur's reach around it (clamped at the
/// image border) go through the Gaussian, and the region's part is written back, so its edge
/// blends with its surroundings as a live blur view does.
enum RegionBlur {
    static func blur(_ image: inout Image, rect: Redaction.Rect, sigma: Double) throws {
        let margin = Int((3 * sigma).rounded(.up))
        let area = Redaction.Rect(x: rect.x - margin, y: rect.y - margin, width: rect.width + 2 * margin, height: rect.height + 2 * margin)
            .clipped(toWidth: image.width, height: image.height)!
        let crop = try image.cropped(to: area)
        let blurred = try GaussianBlur(sigma: sigma, edges: .clamp).apply(to: crop)
        let width = image.width
        image.pixels.withUnsafeMutableBufferPointer { out in
            blurred.pixels.withUnsafeBufferPointer { src in
                for y in rect.y..<(rect.y + rect.height) {
                    let from = ((y - area.y) * area.width + (rect.x - area.x)) * 4, to = (y * width + rect.x) * 4
                    (out.baseAddress! + to).update(from: src.baseAddress! + from, count: rect.width * 4)
                }
            }
        }
    }
}

/// Pixelation: blocks aligned to the region's top-left, each the rounded average of its pixels.
enum RegionPixelate {
    static func pixelate(_ image: inout Image, rect: Redaction.Rect, block: Int) {
        let w = image.width
        image.pixels.withUnsafeMutableBufferPointer { p in
            for by in stride(from: rect.y, to: rect.y + rect.height, by: block) {
                for bx in stride(from: rect.x, to: rect.x + rect.width, by: block) {
                    let x1 = min(bx + block, rect.x + rect.width), y1 = min(by + block, rect.y + rect.height)
                    var sum = [Int](repeating: 0, count: 4)
                    for y in by..<y1 { for x in bx..<x1 { for c in 0..<4 { sum[c] += Int(p[(y * w + x) * 4 + c]) } } }
                    let n = (x1 - bx) * (y1 - by)
                    let average = sum.map { UInt8(($0 + n / 2) / n) }
                    for y in by..<y1 { for x in bx..<x1 { for c in 0..<4 { p[(y * w + x) * 4 + c] = average[c] } } }
                }
            }
        }
    }
}

/// A solid colour laid over the region (source-over, premultiplied).
enum RegionFill {
    static func fill(_ image: inout Image, rect: Redaction.Rect, color: Color) {
        let f = color.premultiplied
        let fill = [UInt32(f.0), UInt32(f.1), UInt32(f.2), UInt32(f.3)]
        let inverse = 255 - fill[3]
        let w = image.width
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                let i = (y * w + x) * 4
                for c in 0..<4 {
                    image.pixels[i + c] = UInt8(fill[c] + (UInt32(image.pixels[i + c]) * inverse + 127) / 255)
                }
            }
        }
    }
}

/// Replacing the pixels under secure regions with a picture made from the pixels around them.
enum RegionSynthesis {
    /// Every pixel inside `secrets` replaced by a smooth interpolation of the nearest non-secret
    /// pixels left, right, above and below it (weighted by inverse distance; where none exists in
    /// any direction, opaque mid grey). Pixels outside the secrets are untouched, and nothing
    /// written depends on any secret pixel.
    ///
    /// Linear in the image's area: a row's secret run shares its left and right neighbours, and a
    /// column's secret run its upper and lower ones, each found once (the column's lower end is
    /// found when the run is first met and remembered for the pixels below).
    static func replacingSecrets(in image: Image, secrets: [Redaction.Rect]) -> Image {
        let w = image.width, h = image.height
        var secret = [Bool](repeating: false, count: w * h)
        for r in secrets { for y in r.y..<(r.y + r.height) { for x in r.x..<(r.x + r.width) { secret[y * w + x] = true } } }
        var out = image
        // Per column: the last non-secret row seen above (-1: none), and the first non-secret row
        // at or below the current one (h: none), valid while it is >= the current row.
        var above = [Int](repeating: -1, count: w)
        var below = [Int](repeating: -1, count: w)
        secret.withUnsafeBufferPointer { secret in
            image.pixels.withUnsafeBufferPointer { source in
                out.pixels.withUnsafeMutableBufferPointer { target in
                    for y in 0..<h {
                        var x = 0
                        while x < w {
                            guard secret[y * w + x] else { above[x] = y; x += 1; continue }
                            var end = x
                            while end < w && secret[y * w + end] { end += 1 }
                            for sx in x..<end {
                                if below[sx] < y {
                                    var down = y + 1
                                    while down < h && secret[down * w + sx] { down += 1 }
                                    below[sx] = down
                                }
                                var t0 = 0.0, t1 = 0.0, t2 = 0.0, t3 = 0.0, weight = 0.0
                                // The same order of sums as ever (left, right, up, down): same bytes.
                                func take(_ px: Int, _ py: Int, _ distance: Int) {
                                    let k = 1.0 / Double(distance), i = (py * w + px) * 4
                                    t0 += k * Double(source[i]); t1 += k * Double(source[i + 1])
                                    t2 += k * Double(source[i + 2]); t3 += k * Double(source[i + 3])
                                    weight += k
                                }
                                if x > 0 { take(x - 1, y, sx - x + 1) }
                                if end < w { take(end, y, end - sx) }
                                let up = above[sx]
                                if up >= 0 { take(sx, up, y - up) }
                                let down = below[sx]
                                if down < h { take(sx, down, down - y) }
                                let i = (y * w + sx) * 4
                                if weight == 0 {
                                    target[i] = 128; target[i + 1] = 128; target[i + 2] = 128; target[i + 3] = 255
                                } else {
                                    let a = UInt8(min(255, (t3 / weight).rounded()))
                                    // Premultiplied colour must not exceed alpha.
                                    target[i] = min(UInt8(min(255, (t0 / weight).rounded())), a)
                                    target[i + 1] = min(UInt8(min(255, (t1 / weight).rounded())), a)
                                    target[i + 2] = min(UInt8(min(255, (t2 / weight).rounded())), a)
                                    target[i + 3] = a
                                }
                            }
                            x = end
                        }
                    }
                }
            }
        }
        return out
    }
}

extension Image {
    /// The pixels inside `rect` (which must lie within the image).
    func cropped(to rect: Redaction.Rect) throws -> Image {
        let rowBytes = rect.width * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * rect.height) { out, count in
            self.pixels.withUnsafeBufferPointer { src in
                for y in 0..<rect.height {
                    (out.baseAddress! + y * rowBytes).initialize(from: src.baseAddress! + ((rect.y + y) * width + rect.x) * 4, count: rowBytes)
                }
            }
            count = rowBytes * rect.height
        }
        return try Image(width: rect.width, height: rect.height, premultipliedRGBA: pixels)
    }
}
