import CFreeType

/// One colour glyph: premultiplied RGBA pixels placed like a `GlyphBitmap` (top-left relative to
/// the pen's whole pixel, `top` upwards), and the coverage of its layers drawn in the text's own
/// colour (COLR's foreground layers), which join the text's coverage mask.
struct ColorGlyphBitmap: Sendable {
    let width: Int
    let height: Int
    let left: Int
    let top: Int
    /// `width * height * 4` bytes, premultiplied RGBA.
    let rgba: [UInt8]
    let foreground: GlyphBitmap
}

/// Colour glyphs: bitmap strikes (CBDT/CBLC, as Noto Color Emoji) scaled to the label's size, and
/// COLR v0 layers filled from the font's first CPAL palette. Both are computed from the font's
/// data alone in IEEE double precision (Swift fuses no operations), rounded once, so the same
/// glyph gives the same bytes on any machine.
enum ColorGlyphs {
    /// The colour form of `glyph`, or nil when the font draws it as a plain outline (a COLR font's
    /// glyph without layers) or cannot draw it at all. Cached per thread like outlines.
    static func bitmap(font: Font, glyph: UInt32, size: Double, subX: Int, subY: Int) -> ColorGlyphBitmap? {
        guard font.hasColorBitmaps || font.hasColorLayers else { return nil }
        let key = GlyphRasterizer.Key(
            font: font.identity,
            glyph: glyph,
            size: Int((size * 64).rounded()),
            subX: subX,
            subY: subY,
            outline: 0
        )
        return GlyphWorkspace.current.colorBitmap(key: key, font: font) { face in
            font.hasColorBitmaps ? strike(face: face, key: key) : layers(face: face, key: key)
        }
    }

    // MARK: - bitmap strikes

    /// The glyph from the strike nearest above the size (or the largest), scaled to the size.
    /// FreeType cannot set an arbitrary size on a bitmap-only face: the strike is selected and the
    /// scaling done here.
    static func strike(face: FT_Face, key: GlyphRasterizer.Key) -> ColorGlyphBitmap? {
        guard let best = strikeIndex(face: face, size: key.size), let sizes = face.pointee.available_sizes,
            FT_Select_Size(face, FT_Int(best)) == 0,
            FT_Load_Glyph(face, key.glyph, FT_Int32(FT_LOAD_COLOR)) == 0,
            let slot = face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_BITMAP
        else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width)
        let height = Int(bitmap.rows)
        let pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, let buffer = bitmap.buffer, sizes[best].y_ppem > 0 else { return nil }
        // Source pixels as premultiplied RGBA (FreeType's BGRA is premultiplied; grey is coverage).
        var source = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let row = pitch >= 0 ? buffer + y * pitch : buffer + (height - 1 - y) * -pitch
            for x in 0..<width {
                let o = (y * width + x) * 4
                switch bitmap.pixel_mode {
                case UInt8(FT_PIXEL_MODE_BGRA.rawValue):
                    source[o] = row[x * 4 + 2]
                    source[o + 1] = row[x * 4 + 1]
                    source[o + 2] = row[x * 4]
                    source[o + 3] = row[x * 4 + 3]
                case UInt8(FT_PIXEL_MODE_GRAY.rawValue):
                    source[o + 3] = row[x]
                default:
                    return nil
                }
            }
        }
        let scale = Double(key.size) / Double(sizes[best].y_ppem)
        // Where the strike's box lands, in output pixels from the pen's whole pixel (y down).
        let originX = Double(slot.pointee.bitmap_left) * scale + Double(key.subX) / 64
        let originY = -Double(slot.pointee.bitmap_top) * scale + Double(key.subY) / 64
        return Resampler.scale(source, width: width, height: height, scale: scale, originX: originX, originY: originY)
    }

    /// The strike drawn at `size` (26.6): the smallest at least as large, else the largest; nil
    /// when the face has none.
    static func strikeIndex(face: FT_Face, size: Int) -> Int? {
        let count = Int(face.pointee.num_fixed_sizes)
        guard count > 0, let sizes = face.pointee.available_sizes else { return nil }
        var best = 0
        for i in 0..<count {
            let ppem = sizes[i].y_ppem
            let chosen = sizes[best].y_ppem
            if (chosen < size && ppem > chosen) || (ppem >= size && ppem < chosen) { best = i }
        }
        return best
    }

    // MARK: - COLR layers

    /// The glyph's COLR v0 layers, each an outline filled with its palette colour; layers in the
    /// text colour (palette index 0xFFFF) go to `foreground`, weighted so that drawing the colour
    /// layer over the foreground in the text colour gives the layers' own order (exact for an
    /// opaque text colour).
    static func layers(face: FT_Face, key: GlyphRasterizer.Key) -> ColorGlyphBitmap? {
        var iterator = FT_LayerIterator()
        var layerGlyph: FT_UInt = 0
        var colorIndex: FT_UInt = 0
        var layers: [(glyph: UInt32, color: UInt32)] = []
        while FT_Get_Color_Glyph_Layer(face, key.glyph, &layerGlyph, &colorIndex, &iterator) != 0 {
            layers.append((UInt32(layerGlyph), UInt32(colorIndex)))
            if layers.count > 4096 { break }
        }
        guard !layers.isEmpty else { return nil }
        var paletteData = FT_Palette_Data()
        var palette: UnsafeMutablePointer<FT_Color>? = nil
        if FT_Palette_Data_Get(face, &paletteData) == 0, paletteData.num_palettes > 0 {
            _ = FT_Palette_Select(face, 0, &palette)
        }
        let entries = Int(paletteData.num_palette_entries)
        var drawn: [(bitmap: GlyphBitmap, color: (UInt32, UInt32, UInt32, UInt32)?)] = []
        for layer in layers {
            let bitmap = GlyphRasterizer.render(
                face: face,
                key: GlyphRasterizer.Key(
                    font: key.font,
                    glyph: layer.glyph,
                    size: key.size,
                    subX: key.subX,
                    subY: key.subY,
                    outline: 0
                )
            )
            guard bitmap.width > 0 else { continue }
            if layer.color == 0xFFFF {
                drawn.append((bitmap, nil))
            } else if let palette, Int(layer.color) < entries {
                let c = palette[Int(layer.color)]
                drawn.append((bitmap, (UInt32(c.red), UInt32(c.green), UInt32(c.blue), UInt32(c.alpha))))
            }
        }
        guard !drawn.isEmpty else { return nil }
        let left = drawn.map(\.bitmap.left).min()!
        let top = drawn.map(\.bitmap.top).max()!
        let right = drawn.map { $0.bitmap.left + $0.bitmap.width }.max()!
        let bottom = drawn.map { $0.bitmap.top - $0.bitmap.height }.min()!
        let width = right - left
        let height = top - bottom
        // Layers in order, per pixel: colour layers go over `colour` (premultiplied, alpha a);
        // a layer in the text colour T (opaque) at coverage c makes the total T·c + (1 − c)·total.
        // Kept as total = colour + T·m, so the text colour is only needed at composition.
        var colour = [Double](repeating: 0, count: width * height * 4)
        var weight = [Double](repeating: 0, count: width * height)
        for (bitmap, color) in drawn {
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width {
                    let coverage = Double(bitmap.coverage[y * bitmap.width + x]) / 255
                    guard coverage > 0 else { continue }
                    let i = (top - bitmap.top + y) * width + (bitmap.left - left + x)
                    guard let (r, g, b, a) = color else {
                        for k in 0..<4 { colour[i * 4 + k] *= 1 - coverage }
                        weight[i] = coverage + (1 - coverage) * weight[i]
                        continue
                    }
                    let alpha = Double(a) / 255 * coverage
                    let premultiplied = [Double(r) * alpha, Double(g) * alpha, Double(b) * alpha, 255 * alpha]
                    for k in 0..<4 { colour[i * 4 + k] = premultiplied[k] + (1 - alpha) * colour[i * 4 + k] }
                    weight[i] *= 1 - alpha
                }
            }
        }
        // Stored so that text colour × foreground drawn under rgba ("over") gives colour + T·m:
        // foreground = m / (1 − a).
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        var foreground = [UInt8](repeating: 0, count: width * height)
        for i in 0..<(width * height) {
            let alpha = min(255, max(0, colour[i * 4 + 3].rounded()))
            for k in 0..<3 { rgba[i * 4 + k] = UInt8(min(alpha, max(0, colour[i * 4 + k].rounded()))) }
            rgba[i * 4 + 3] = UInt8(alpha)
            let open = 1 - colour[i * 4 + 3] / 255
            if weight[i] > 0, open > 0 { foreground[i] = UInt8(min(255, max(0, (weight[i] / open * 255).rounded()))) }
        }
        let foregroundBitmap =
            foreground.contains(where: { $0 != 0 })
            ? GlyphBitmap(width: width, height: height, left: left, top: top, coverage: foreground)
            : GlyphRasterizer.empty
        return ColorGlyphBitmap(
            width: width,
            height: height,
            left: left,
            top: top,
            rgba: rgba,
            foreground: foregroundBitmap
        )
    }
}

/// Scaling premultiplied RGBA by a factor with a sub-pixel origin: each output pixel averages the
/// source area it covers when shrinking (a box filter with exact overlaps, no aliasing), and
/// interpolates linearly between source pixel centres when enlarging. Outside the source is
/// transparent. Separable, in double precision, rounded once.
enum Resampler {
    /// Taps of one axis: for each output index from `first`, the source indices and weights.
    static func taps(count: Int, scale: Double, origin: Double) -> (first: Int, taps: [[(Int, Double)]]) {
        let first = Int((origin - 1).rounded(.down))
        let last = Int((origin + Double(count) * scale + 1).rounded(.up))
        var all: [[(Int, Double)]] = []
        for d in first..<last {
            var list: [(Int, Double)] = []
            if scale <= 1 {
                // The output pixel covers the source interval [a, b).
                let a = (Double(d) - origin) / scale
                let b = (Double(d + 1) - origin) / scale
                let low = max(0, Int(a.rounded(.down)))
                let high = min(count, Int(b.rounded(.up)))
                for s in low..<max(low, high) {
                    let overlap = min(b, Double(s + 1)) - max(a, Double(s))
                    if overlap > 0 { list.append((s, overlap * scale)) }
                }
            } else {
                let centre = (Double(d) + 0.5 - origin) / scale - 0.5
                let s0 = Int(centre.rounded(.down))
                let f = centre - Double(s0)
                if s0 >= 0 && s0 < count && f < 1 { list.append((s0, 1 - f)) }
                if s0 + 1 >= 0 && s0 + 1 < count && f > 0 { list.append((s0 + 1, f)) }
            }
            all.append(list)
        }
        return (first, all)
    }

    static func scale(
        _ source: [UInt8],
        width: Int,
        height: Int,
        scale: Double,
        originX: Double,
        originY: Double
    ) -> ColorGlyphBitmap? {
        let (firstX, tapsX) = taps(count: width, scale: scale, origin: originX)
        let (firstY, tapsY) = taps(count: height, scale: scale, origin: originY)
        let outWidth = tapsX.count
        let outHeight = tapsY.count
        guard outWidth > 0, outHeight > 0 else { return nil }
        // Horizontal pass: source rows × output columns.
        var horizontal = [Double](repeating: 0, count: height * outWidth * 4)
        for y in 0..<height {
            for (x, list) in tapsX.enumerated() {
                var sum = (0.0, 0.0, 0.0, 0.0)
                for (s, w) in list {
                    let o = (y * width + s) * 4
                    sum.0 += Double(source[o]) * w
                    sum.1 += Double(source[o + 1]) * w
                    sum.2 += Double(source[o + 2]) * w
                    sum.3 += Double(source[o + 3]) * w
                }
                let o = (y * outWidth + x) * 4
                horizontal[o] = sum.0
                horizontal[o + 1] = sum.1
                horizontal[o + 2] = sum.2
                horizontal[o + 3] = sum.3
            }
        }
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        for (y, list) in tapsY.enumerated() {
            for x in 0..<outWidth {
                var sum = (0.0, 0.0, 0.0, 0.0)
                for (s, w) in list {
                    let o = (s * outWidth + x) * 4
                    sum.0 += horizontal[o] * w
                    sum.1 += horizontal[o + 1] * w
                    sum.2 += horizontal[o + 2] * w
                    sum.3 += horizontal[o + 3] * w
                }
                let alpha = min(255, max(0, sum.3.rounded()))
                let o = (y * outWidth + x) * 4
                out[o] = UInt8(min(alpha, max(0, sum.0.rounded())))
                out[o + 1] = UInt8(min(alpha, max(0, sum.1.rounded())))
                out[o + 2] = UInt8(min(alpha, max(0, sum.2.rounded())))
                out[o + 3] = UInt8(alpha)
            }
        }
        // Trim the transparent border the filter's margin left.
        var minX = outWidth
        var minY = outHeight
        var maxX = -1
        var maxY = -1
        for y in 0..<outHeight {
            for x in 0..<outWidth where out[(y * outWidth + x) * 4 + 3] != 0 {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        let w = maxX - minX + 1
        let h = maxY - minY + 1
        var trimmed = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let src = ((minY + y) * outWidth + minX) * 4
            trimmed.replaceSubrange((y * w * 4)..<((y + 1) * w * 4), with: out[src..<(src + w * 4)])
        }
        return ColorGlyphBitmap(
            width: w,
            height: h,
            left: firstX + minX,
            top: -(firstY + minY),
            rgba: trimmed,
            foreground: GlyphRasterizer.empty
        )
    }
}
