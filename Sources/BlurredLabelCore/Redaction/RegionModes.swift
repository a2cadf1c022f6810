import BlurLabelPixels

/// Blur of a region: the region and a margin of the blur's reach around it (clamped at the
/// image border) go through the Gaussian, and the region's part is written back, so its edge
/// blends with its surroundings as a live blur view does; a tint veils what is written back.
enum RegionBlur {
    static func blur(_ image: inout Image, rect: Redaction.Rect, radius: BlurRadius, tint: Color? = nil) throws {
        let margin = LabelPipeline.reach(of: radius)
        let area = Redaction.Rect(
            x: rect.x - margin,
            y: rect.y - margin,
            width: rect.width + 2 * margin,
            height: rect.height + 2 * margin
        )
        .clipped(toWidth: image.width, height: image.height)!
        let crop = try image.cropped(to: area)
        let blurred = GaussianBlur(radius: radius, edges: .clamp, tint: tint).apply(to: crop)
        let width = image.width
        image.withUnsafeMutablePixels { out in
            blurred.pixels.withUnsafeBufferPointer { src in
                for y in rect.y..<(rect.y + rect.height) {
                    let from = ((y - area.y) * area.width + (rect.x - area.x)) * 4
                    let to = (y * width + rect.x) * 4
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
        image.withUnsafeMutablePixels { p in
            for by in stride(from: rect.y, to: rect.y + rect.height, by: block) {
                for bx in stride(from: rect.x, to: rect.x + rect.width, by: block) {
                    let x1 = min(bx + block, rect.x + rect.width)
                    let y1 = min(by + block, rect.y + rect.height)
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
                    image[byte: i + c] = UInt8(fill[c] + (UInt32(image.pixels[i + c]) * inverse + 127) / 255)
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
    /// Linear in the secrets' bounding box: a row's secret run shares its left and right
    /// neighbours, and each column's nearest outside rows above and below come from one pass down
    /// and one pass up over the rows (row order, so memory is read in sequence).
    static func replacingSecrets(in image: Image, secrets: [Redaction.Rect]) -> Image {
        guard !secrets.isEmpty else { return image }
        let w = image.width
        let h = image.height
        // The bounding box of the secrets; every pixel outside it is outside every secret.
        let x0 = secrets.map(\.x).min()!
        let x1 = secrets.map { $0.x + $0.width }.max()!
        let y0 = secrets.map(\.y).min()!
        let y1 = secrets.map { $0.y + $0.height }.max()!
        let bw = x1 - x0
        let bh = y1 - y0
        var secret = [Bool](repeating: false, count: bw * bh)
        secret.withUnsafeMutableBufferPointer { mask in
            for r in secrets {
                for y in r.y..<(r.y + r.height) {
                    (mask.baseAddress! + (y - y0) * bw + (r.x - x0)).update(repeating: true, count: r.width)
                }
            }
        }
        // For every pixel of the box, the first row at or below it that is outside the secrets in
        // its column (h: none); filled from the bottom up.
        var below = [Int32](repeating: 0, count: bw * bh)
        secret.withUnsafeBufferPointer { secret in
            below.withUnsafeMutableBufferPointer { below in
                var next = [Int32](repeating: Int32(y1), count: bw)  // row y1 is outside every secret, or is h
                for y in stride(from: bh - 1, through: 0, by: -1) {
                    for x in 0..<bw {
                        if !secret[y * bw + x] { next[x] = Int32(y0 + y) }
                        below[y * bw + x] = next[x]
                    }
                }
            }
        }
        var out = image
        var above = [Int](repeating: y0 - 1, count: bw)  // row y0 - 1 is outside every secret, or is -1
        secret.withUnsafeBufferPointer { secret in
            below.withUnsafeBufferPointer { below in
                image.pixels.withUnsafeBufferPointer { source in
                    out.withUnsafeMutablePixels { target in
                        for by in 0..<bh {
                            let y = y0 + by
                            var bx = 0
                            while bx < bw {
                                guard secret[by * bw + bx] else {
                                    above[bx] = y
                                    bx += 1
                                    continue
                                }
                                var end = bx
                                while end < bw && secret[by * bw + end] { end += 1 }
                                let left = x0 + bx - 1
                                let right = x0 + end  // outside the run (-1 or w: none)
                                for sbx in bx..<end {
                                    let sx = x0 + sbx
                                    var t0 = 0.0
                                    var t1 = 0.0
                                    var t2 = 0.0
                                    var t3 = 0.0
                                    var weight = 0.0
                                    // The order of the sums (left, right, up, down) is part of the rule: same bytes.
                                    func take(_ px: Int, _ py: Int, _ distance: Int) {
                                        let k = 1.0 / Double(distance)
                                        let i = (py * w + px) * 4
                                        t0 += k * Double(source[i])
                                        t1 += k * Double(source[i + 1])
                                        t2 += k * Double(source[i + 2])
                                        t3 += k * Double(source[i + 3])
                                        weight += k
                                    }
                                    if left >= 0 { take(left, y, sx - left) }
                                    if right < w { take(right, y, right - sx) }
                                    let up = above[sbx]
                                    if up >= 0 { take(sx, up, y - up) }
                                    let down = Int(below[by * bw + sbx])
                                    if down < h { take(sx, down, down - y) }
                                    let i = (y * w + sx) * 4
                                    if weight == 0 {
                                        target[i] = 128
                                        target[i + 1] = 128
                                        target[i + 2] = 128
                                        target[i + 3] = 255
                                    } else {
                                        let a = level(t3 / weight)
                                        // Premultiplied colour must not exceed alpha.
                                        target[i] = min(level(t0 / weight), a)
                                        target[i + 1] = min(level(t1 / weight), a)
                                        target[i + 2] = min(level(t2 / weight), a)
                                        target[i + 3] = a
                                    }
                                }
                                bx = end
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// `UInt8(min(255, x.rounded()))` for 0 <= x, without a call into libm: the whole part by
    /// truncation, and `x - whole` is exact, so ties go up exactly as `rounded()` sends them.
    @inline(__always)
    private static func level(_ x: Double) -> UInt8 {
        let whole = Int(x)
        return UInt8(min(255, x - Double(whole) >= 0.5 ? whole + 1 : whole))
    }
}

extension Image {
    /// The pixels inside `rect` (which must lie within the image).
    func cropped(to rect: Redaction.Rect) throws -> Image {
        let rowBytes = rect.width * 4
        let pixels = [UInt8].uninitialized(count: rowBytes * rect.height) { out, count in
            self.pixels.withUnsafeBufferPointer { src in
                for y in 0..<rect.height {
                    (out.baseAddress! + y * rowBytes).initialize(
                        from: src.baseAddress! + ((rect.y + y) * width + rect.x) * 4,
                        count: rowBytes
                    )
                }
            }
            count = rowBytes * rect.height
        }
        return try Image(width: rect.width, height: rect.height, premultipliedRGBA: pixels)
    }
}
