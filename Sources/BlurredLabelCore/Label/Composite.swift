import BlurLabelPixels

/// Colouring a coverage mask and placing it on a background.
package enum Composite {
    /// The premultiplied pixel for every coverage value: `color × coverage` over `background`,
    /// each channel rounded once from the exact value.
    static func table(color: Color, background: Color) -> [UInt32] {
        let f = color.premultiplied
        let b = background.premultiplied
        let fill = SIMD4<UInt32>(UInt32(f.0), UInt32(f.1), UInt32(f.2), UInt32(f.3))
        let back = SIMD4<UInt32>(UInt32(b.0), UInt32(b.1), UInt32(b.2), UInt32(b.3))
        return [UInt32].uninitialized(count: 256) { table, count in
            for c in 0..<256 {
                let coverage = UInt32(c)
                // (f·c·255 + b·(255² − fa·c)) / 255², rounded to nearest, each channel.
                let numerator = fill &* (coverage &* 255) &+ back &* (65025 &- fill[3] &* coverage)
                let channel = (numerator &+ 32512) / 65025
                table[c] =
                    min(255, channel[0]) | min(255, channel[1]) << 8 | min(255, channel[2]) << 16 | min(255, channel[3])
                    << 24
            }
            count = 256
        }
    }

    /// `table` as 8-bit grey levels when each of its pixels is opaque grey (a grey colour over an
    /// opaque grey background), else nil: the same rounding, worked out for one channel.
    package static func greyTable(color: Color, background: Color) -> [UInt8]? {
        let f = color.premultiplied
        let b = background.premultiplied
        guard b.3 == 255, b.0 == b.1, b.1 == b.2, f.0 == f.1, f.1 == f.2 else { return nil }
        // Black on white, the common price tag (every serve request of one asks): made once.
        if f == (0, 0, 0, 255) && b.0 == 255 { return blackOnWhite }
        return greyLevels(fill: UInt32(f.0), alpha: UInt32(f.3), back: UInt32(b.0))
    }

    /// `greyTable` of opaque black on white.
    private static let blackOnWhite = greyLevels(fill: 0, alpha: 255, back: 255)

    /// The grey of each coverage: `fill` at `alpha` over the opaque grey `back`.
    private static func greyLevels(fill: UInt32, alpha: UInt32, back: UInt32) -> [UInt8] {
        (0..<256).map { c in
            let coverage = UInt32(c)
            let numerator = fill &* (coverage &* 255) &+ back &* (65025 &- alpha &* coverage)
            return UInt8(min(255, (numerator &+ 32512) / 65025))
        }
    }

    /// `mask` coloured onto a `width`×`height` canvas of `background`, the mask's top-left at
    /// (`left`, `top`) (which may be negative: what falls outside is clipped).
    static func place(
        _ mask: CoverageMask,
        color: Color,
        background: Color,
        width: Int,
        height: Int,
        left: Int,
        top: Int
    ) throws -> Image {
        let lut = table(color: color, background: background)
        // The canvas starts as the background, which is the table's coverage-0 entry exactly.
        var image = try Image(width: width, height: height, fill: background)
        image.withUnsafeMutablePixels { bytes in
            let out = UnsafeMutableRawBufferPointer(bytes).bindMemory(to: UInt32.self)
            lut.withUnsafeBufferPointer { lut in
                mask.values.withUnsafeBufferPointer { m in
                    let x0 = max(0, left)
                    let x1 = min(width, left + mask.width)
                    let y0 = max(0, top)
                    let y1 = min(height, top + mask.height)
                    guard x0 < x1, y0 < y1, let table = lut.baseAddress else { return }
                    for y in y0..<y1 {
                        let src = (y - top) * mask.width - left
                        let dst = y * width
                        // A UInt8 index: always in the table.
                        for x in x0..<x1 { out[dst + x] = table[Int(m[src + x])] }
                    }
                }
            }
        }
        return image
    }

    /// `mask` coloured and centered on the style's canvas (or on a canvas its own size), and
    /// whether a fixed canvas clipped some of it.
    static func centered(_ mask: CoverageMask, style: LabelStyle) throws -> (image: Image, clipped: Bool) {
        let width = style.canvas?.width ?? max(1, mask.width)
        let height = style.canvas?.height ?? max(1, mask.height)
        let left = (width - mask.width) / 2
        let top = (height - mask.height) / 2
        let image = try place(
            mask,
            color: style.color,
            background: style.background,
            width: width,
            height: height,
            left: left,
            top: top
        )
        let clipped =
            style.canvas != nil
            && clips(
                contentWidth: mask.width,
                contentHeight: mask.height,
                width: width,
                height: height,
                left: left,
                top: top
            ) { mask.values[$0] != 0 }
        return (image, clipped)
    }

    /// True when some ink of a `contentWidth`×`contentHeight` picture placed with its top-left at
    /// (`left`, `top`) lies outside a `width`×`height` canvas; `isInk(i)` says whether the
    /// picture's pixel `i` (row-major) has any.
    static func clips(
        contentWidth: Int,
        contentHeight: Int,
        width: Int,
        height: Int,
        left: Int,
        top: Int,
        isInk: (Int) -> Bool
    ) -> Bool {
        for y in 0..<contentHeight {
            for x in 0..<contentWidth where isInk(y * contentWidth + x) {
                let cx = x + left
                let cy = y + top
                if cx < 0 || cy < 0 || cx >= width || cy >= height { return true }
            }
        }
        return false
    }
}
