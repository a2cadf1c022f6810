import CFreeType

/// Where a glyph's bitmap can fall and what drawing it costs, known without drawing it: the
/// outline's control box (or a colour strike's metrics, read without decoding the bitmap),
/// widened to cover any sub-pixel pen offset. An upper bound of what `GlyphRasterizer` and
/// `ColorGlyphs` make.
struct GlyphExtent: Sendable {
    /// The box relative to the pen's whole pixel, y down (as `TextRenderer` places bitmaps).
    let left: Int
    let top: Int
    let right: Int
    let bottom: Int
    /// Bytes the drawn glyph keeps (its bitmap, cached and held until the text is composed).
    let keptBytes: Int
    /// Bytes drawing it needs for a moment beyond `keptBytes` (FreeType's bitmap, a strike's
    /// decoded pixels and its resampling planes, COLR's layer sums).
    let transientBytes: Int
    /// Whether it is a colour glyph (an RGBA layer goes beside the mask).
    let isColor: Bool

    static let empty = GlyphExtent(
        left: 0,
        top: 0,
        right: 0,
        bottom: 0,
        keptBytes: 0,
        transientBytes: 0,
        isColor: false
    )

    var isEmpty: Bool { right <= left || bottom <= top }
    var area: Int { isEmpty ? 0 : (right - left) * (bottom - top) }

    /// The extent of `glyph` of `font` at `size` px with an `outline` (1/64 px), from the calling
    /// thread's face (cached there like bitmaps).
    static func of(font: Font, glyph: UInt32, size: Double, outline: Int) -> GlyphExtent {
        let key = GlyphRasterizer.Key(
            font: font.identity,
            glyph: glyph,
            size: Int((size * 64).rounded()),
            subX: 0,
            subY: 0,
            outline: font.isColorFont ? 0 : outline
        )
        return GlyphWorkspace.current.extent(key: key, font: font) { face in
            if font.hasColorBitmaps, let strike = strike(face: face, key: key) { return strike }
            if font.hasColorLayers, let layers = layers(face: face, key: key) { return layers }
            return self.outline(face: face, key: key, glyph: key.glyph, stroke: key.outline)
        }
    }

    /// An outline glyph: FreeType's bitmap spans the pixels the control box touches after the
    /// sub-pixel shift (right and down by less than a pixel: one more pixel at most on those
    /// sides), and a stroked border adds its width around it.
    private static func outline(face: FT_Face, key: GlyphRasterizer.Key, glyph: UInt32, stroke: Int) -> GlyphExtent {
        guard let box = controlBox(face: face, size: key.size, glyph: glyph) else { return .empty }
        let grow = stroke > 0 ? (stroke + 63) / 64 + 1 : 0
        let left = floorDiv(box.xMin, 64) - grow
        let right = ceilDiv(box.xMax, 64) + 1 + grow
        let top = -ceilDiv(box.yMax, 64) - grow
        let bottom = -floorDiv(box.yMin, 64) + 1 + grow
        let area = (right - left) * (bottom - top)
        // FreeType's bitmap and its copy; with a border, the fill's and the stroke's (each
        // FreeType's and a copy) and their union.
        return GlyphExtent(
            left: left,
            top: top,
            right: right,
            bottom: bottom,
            keptBytes: area,
            transientBytes: (stroke > 0 ? 5 : 2) * area,
            isColor: false
        )
    }

    /// The outline's control box at `size` (26.6 units), nil when the glyph has no outline.
    private static func controlBox(face: FT_Face, size: Int, glyph: UInt32) -> FT_BBox? {
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6(size), 72, 72) == 0,
            FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
            let slot = face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE,
            slot.pointee.outline.n_points > 0
        else { return nil }
        var box = FT_BBox()
        FT_Outline_Get_CBox(&slot.pointee.outline, &box)
        return box
    }

    /// A bitmap strike's glyph, from its metrics alone: the box `Resampler.scale` makes before
    /// trimming, and the planes it and the decoding hold.
    private static func strike(face: FT_Face, key: GlyphRasterizer.Key) -> GlyphExtent? {
        guard let best = ColorGlyphs.strikeIndex(face: face, size: key.size),
            let sizes = face.pointee.available_sizes, sizes[best].y_ppem > 0,
            FT_Select_Size(face, FT_Int(best)) == 0,
            FT_Load_Glyph(face, key.glyph, FT_Int32(FT_LOAD_COLOR) | FT_Int32(FT_LOAD_BITMAP_METRICS_ONLY)) == 0,
            let slot = face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_BITMAP
        else { return nil }
        let width = Double(slot.pointee.bitmap.width)
        let height = Double(slot.pointee.bitmap.rows)
        guard width > 0, height > 0 else { return nil }
        let scale = Double(key.size) / Double(sizes[best].y_ppem)
        let originX = Double(slot.pointee.bitmap_left) * scale
        let originY = -Double(slot.pointee.bitmap_top) * scale
        // `Resampler.taps`: from floor(origin − 1) to ceil(origin + n·scale + 1), the origin
        // moved by up to a pixel more by the pen's sub-pixel offset.
        let left = Int((originX - 1).rounded(.down))
        let right = Int((originX + width * scale + 2).rounded(.up))
        let top = Int((originY - 1).rounded(.down))
        let bottom = Int((originY + height * scale + 2).rounded(.up))
        let outWidth = right - left
        let outHeight = bottom - top
        let sourcePixels = Int(width) * Int(height)
        let outPixels = outWidth * outHeight
        // Decoded strike (FreeType's and the RGBA copy), the horizontal pass in doubles, the
        // output, and the taps (an entry per source and output pixel, with list headers).
        let transient =
            8 * sourcePixels + 32 * Int(height) * outWidth + 4 * outPixels
            + 64 * (Int(width) + Int(height) + outWidth + outHeight)
        return GlyphExtent(
            left: left,
            top: top,
            right: right,
            bottom: bottom,
            keptBytes: 4 * outPixels,
            transientBytes: transient,
            isColor: true
        )
    }

    /// A COLR glyph: the union of its layers' outline boxes; the layers' sums in doubles and
    /// their bitmaps while it is made, RGBA and the foreground coverage kept.
    private static func layers(face: FT_Face, key: GlyphRasterizer.Key) -> GlyphExtent? {
        var iterator = FT_LayerIterator()
        var layerGlyph: FT_UInt = 0
        var colorIndex: FT_UInt = 0
        var union: GlyphExtent? = nil
        var layerBytes = 0
        var count = 0
        while FT_Get_Color_Glyph_Layer(face, key.glyph, &layerGlyph, &colorIndex, &iterator) != 0 {
            count += 1
            if count > 4097 { break }
            let layer = outline(face: face, key: key, glyph: UInt32(layerGlyph), stroke: 0)
            guard !layer.isEmpty else { continue }
            layerBytes += layer.area
            guard let so = union else {
                union = layer
                continue
            }
            union = GlyphExtent(
                left: min(so.left, layer.left),
                top: min(so.top, layer.top),
                right: max(so.right, layer.right),
                bottom: max(so.bottom, layer.bottom),
                keptBytes: 0,
                transientBytes: 0,
                isColor: true
            )
        }
        guard let union else { return nil }
        let area = union.area
        return GlyphExtent(
            left: union.left,
            top: union.top,
            right: union.right,
            bottom: union.bottom,
            keptBytes: 5 * area,
            transientBytes: 40 * area + 2 * layerBytes,
            isColor: true
        )
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
    private static func ceilDiv(_ a: Int, _ b: Int) -> Int { -floorDiv(-a, b) }
}
