import BlurLabelPixels

/// Text rasterized into a coverage mask whose edges are the ink's edges.
package struct RenderedText: Sendable {
    /// Coverage of the union of every glyph's real bitmap (empty text: a 0×0 mask).
    package let mask: CoverageMask
    /// Where the mask's top-left sits in layout coordinates (first line box's top-left at 0,0).
    package let inkOriginX: Int
    package let inkOriginY: Int
    /// The line boxes' size, from the font's ascender and descender.
    package let layoutWidth: Double
    package let layoutHeight: Double
    package let lineCount: Int
    /// Characters that no font in the chain has; they are drawn as the primary font's .notdef.
    package let missingCharacters: [Unicode.Scalar]
    /// Installed fonts offered for some character that could not be opened (skipped), one line each.
    package let fontWarnings: [String]
    /// The colour glyphs (emoji), premultiplied RGBA of the mask's size and place, drawn over the
    /// mask coloured in the text colour; nil when the text has no colour glyph.
    package let colorLayer: Image?
}

/// What rasterizing a laid-out text will make and hold, known from its glyphs' extents before
/// anything is drawn (`TextRenderer.render`'s `check`): upper bounds, never less than the
/// drawing takes.
package struct InkEstimate: Sendable {
    /// The coverage mask's size at most.
    package let width: Int
    package let height: Int
    /// Glyphs placed.
    package let glyphs: Int
    /// Bytes of glyph bitmaps held together while the text is composed.
    package let keptBytes: Int
    /// The most one glyph's drawing needs for a moment beyond what it keeps.
    package let transientBytes: Int
    /// Whether a colour layer (RGBA, the mask's size) is made beside the mask.
    package let hasColor: Bool

    /// Memory for the layout itself, a glyph: its shaping, placement and piece lists.
    package static let bytesPerGlyph = 256

    package init(_ layout: TextLayout, style: TextStyle) {
        let outline = Int((style.outlineWidth * 64).rounded())
        var minX = Int.max
        var minY = Int.max
        var maxX = Int.min
        var maxY = Int.min
        var everyGlyph = 0
        var distinct = 0
        var uncached = 0
        // The bitmaps already counted: a short text's few keys are compared one by one (a set
        // hashed each key and grew three times: 1,500 instructions a glyph), a long one's hashed.
        var seenFew: [GlyphRasterizer.Key] = []
        var seenMany = Set<GlyphRasterizer.Key>()
        let few = layout.glyphs.count <= 32
        if few { seenFew.reserveCapacity(layout.glyphs.count) }
        func firstSight(_ key: GlyphRasterizer.Key) -> Bool {
            guard few else { return seenMany.insert(key).inserted }
            if seenFew.contains(key) { return false }
            seenFew.append(key)
            return true
        }
        var transient = 0
        var color = false
        for placed in layout.glyphs {
            let extent = GlyphExtent.of(font: placed.font, glyph: placed.glyph, size: style.size, outline: outline)
            guard !extent.isEmpty else { continue }
            // As `TextRenderer.render` places the bitmap: from the pen's whole pixel.
            let x = (placed.x * 64).rounded()
            let y = (placed.y * 64).rounded()
            let wholeX = Int((x / 64).rounded(.down))
            let wholeY = Int((y / 64).rounded(.down))
            minX = min(minX, wholeX + extent.left)
            minY = min(minY, wholeY + extent.top)
            maxX = max(maxX, wholeX + extent.right)
            maxY = max(maxY, wholeY + extent.bottom)
            everyGlyph += extent.keptBytes
            transient = max(transient, extent.transientBytes)
            color = color || extent.isColor
            let key = GlyphRasterizer.Key(
                font: placed.font.identity,
                glyph: placed.glyph,
                size: 0,
                subX: Int(x) - wholeX * 64,
                subY: Int(y) - wholeY * 64,
                outline: 0
            )
            // A bitmap larger than the thread's cache is drawn anew each time.
            let cacheLimit = extent.isColor ? GlyphWorkspace.colorCacheByteLimit : GlyphWorkspace.cacheByteLimit
            if extent.keptBytes > cacheLimit {
                uncached += extent.keptBytes
            } else if firstSight(key) {
                distinct += extent.keptBytes
            }
        }
        // A glyph drawn again shares its cached bitmap, unless the thread's cache was emptied
        // (full) between the two: each emptying can make every distinct bitmap once more.
        let emptyings = (few ? seenFew.count : seenMany.count) / 4096 + distinct / GlyphWorkspace.cacheByteLimit + 1
        width = minX < maxX ? maxX - minX : 0
        height = minX < maxX ? maxY - minY : 0
        glyphs = layout.glyphs.count
        keptBytes = min(everyGlyph, uncached + distinct * (1 + emptyings))
        transientBytes = transient
        hasColor = color
    }
}

/// Sets and rasterizes text.
package enum TextRenderer {
    /// The text's coverage mask in `style`. Throws for invalid sizes or features. `check` is
    /// given what the drawing will cost once the text is laid out, before any glyph is drawn, and
    /// may refuse it by throwing.
    package static func render(
        _ text: String,
        style: TextStyle,
        check: ((InkEstimate) throws -> Void)? = nil
    ) throws -> RenderedText {
        let layout = try TextLayout(text: text, style: style)
        if let check { try check(InkEstimate(layout, style: style)) }
        let outline = Int((style.outlineWidth * 64).rounded())
        var pieces: [(bitmap: GlyphBitmap, x: Int, y: Int)] = []
        var colorPieces: [(bitmap: ColorGlyphBitmap, x: Int, y: Int)] = []
        var minX = Int.max
        var minY = Int.max
        var maxX = Int.min
        var maxY = Int.min
        func include(left: Int, top: Int, width: Int, height: Int) {
            minX = min(minX, left)
            minY = min(minY, top)
            maxX = max(maxX, left + width)
            maxY = max(maxY, top + height)
        }
        for placed in layout.glyphs {
            let x = (placed.x * 64).rounded()
            let y = (placed.y * 64).rounded()
            let wholeX = Int((x / 64).rounded(.down))
            let wholeY = Int((y / 64).rounded(.down))
            let subX = Int(x) - wholeX * 64
            let subY = Int(y) - wholeY * 64
            if let color = ColorGlyphs.bitmap(
                font: placed.font,
                glyph: placed.glyph,
                size: style.size,
                subX: subX,
                subY: subY
            ) {
                let left = wholeX + color.left
                let top = wholeY - color.top
                colorPieces.append((color, left, top))
                include(left: left, top: top, width: color.width, height: color.height)
                let foreground = color.foreground
                if foreground.width > 0 {
                    pieces.append((foreground, wholeX + foreground.left, wholeY - foreground.top))
                }
                continue
            }
            let bitmap = GlyphRasterizer.bitmap(
                font: placed.font,
                glyph: placed.glyph,
                size: style.size,
                subX: subX,
                subY: subY,
                outline: outline
            )
            guard bitmap.width > 0 else { continue }
            let left = wholeX + bitmap.left
            let top = wholeY - bitmap.top
            pieces.append((bitmap, left, top))
            include(left: left, top: top, width: bitmap.width, height: bitmap.height)
        }
        guard minX < maxX else {
            return RenderedText(
                mask: try CoverageMask(width: 0, height: 0),
                inkOriginX: 0,
                inkOriginY: 0,
                layoutWidth: layout.width,
                layoutHeight: layout.height,
                lineCount: layout.lineCount,
                missingCharacters: layout.missing,
                fontWarnings: layout.fontWarnings,
                colorLayer: nil
            )
        }
        var mask = try CoverageMask(width: maxX - minX, height: maxY - minY)
        let maskWidth = mask.width
        mask.withUnsafeMutableValues { out in
            guard let canvas = out.baseAddress else { return }
            for piece in pieces {
                let b = piece.bitmap
                b.coverage.withUnsafeBufferPointer { src in
                    guard let glyph = src.baseAddress else { return }
                    for y in 0..<b.height {
                        let row = canvas + (piece.y - minY + y) * maskWidth + (piece.x - minX)
                        let from = glyph + y * b.width
                        // Overlapping glyphs keep the larger coverage. Branch-free, so it
                        // vectorises: the branching form mispredicted on every glyph edge.
                        for x in 0..<b.width { row[x] = max(row[x], from[x]) }
                    }
                }
            }
        }
        var colorLayer: Image? = nil
        if !colorPieces.isEmpty {
            var layer = try Image(width: mask.width, height: mask.height)
            for piece in colorPieces {
                layer.drawOver(
                    piece.bitmap.rgba,
                    width: piece.bitmap.width,
                    height: piece.bitmap.height,
                    left: piece.x - minX,
                    top: piece.y - minY
                )
            }
            colorLayer = layer
        }
        return RenderedText(
            mask: mask,
            inkOriginX: minX,
            inkOriginY: minY,
            layoutWidth: layout.width,
            layoutHeight: layout.height,
            lineCount: layout.lineCount,
            missingCharacters: layout.missing,
            fontWarnings: layout.fontWarnings,
            colorLayer: colorLayer
        )
    }
}
