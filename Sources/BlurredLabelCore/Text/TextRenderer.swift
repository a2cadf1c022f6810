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

/// Sets and rasterizes text.
package enum TextRenderer {
    /// The text's coverage mask in `style`. Throws for invalid sizes or features.
    package static func render(_ text: String, style: TextStyle) throws -> RenderedText {
        let layout = try TextLayout(text: text, style: style)
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
                ColorLabelComposer.drawOver(
                    &layer,
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
