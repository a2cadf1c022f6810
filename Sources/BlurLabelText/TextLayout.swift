/// A glyph placed on the page: its pen position in pixels (y down, first baseline at the
/// primary font's ascender).
struct PlacedGlyph {
    let font: Font
    let glyph: UInt32
    let x: Double
    let y: Double
}

/// Text set into lines: paragraphs split at newlines, itemized, shaped, wrapped, reordered
/// visually and aligned.
package struct TextLayout {
    let glyphs: [PlacedGlyph]
    /// Width of the widest line and height of all line boxes, in pixels.
    let width: Double
    let height: Double
    let lineCount: Int
    /// Characters no font had.
    let missing: [Unicode.Scalar]
    /// Installed fonts that fontconfig offered for a character but that could not be opened, one
    /// line each.
    let fontWarnings: [String]

    package init(text: String, style: TextStyle) throws {
        try style.validate()
        let features = try ShapingFeatures(style.features)
        let (fonts, scriptFonts) = FontLibrary.chain(primary: style.font)
        let primary = style.font
        let scale = style.size / Double(primary.unitsPerEm)
        let lineHeight = Double(primary.ascender + primary.descender + primary.lineGap) * scale * style.lineSpacing
        let ascent = Double(primary.ascender) * scale

        var lines: [(glyphs: [(Font, ShapedGlyph)], width: Double, rtl: Bool)] = []
        var missing: [Unicode.Scalar] = []
        var warnings: [String] = []
        let system: (Unicode.Scalar, Bool) -> Font?
        switch style.systemFallback {
        case .off: system = { _, _ in nil }
        case .fontconfig:
            system = { scalar, colour in
                let answer = SystemFonts.font(for: scalar, colour: colour)
                for line in answer.skipped where !warnings.contains(line) { warnings.append(line) }
                return answer.font
            }
        }
        let paragraphs = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for paragraph in paragraphs {
            let scalars = paragraph.unicodeScalars.map(\.value)
            let whole = Itemizer.itemize(
                scalars,
                direction: style.direction,
                fonts: fonts,
                scriptFonts: scriptFonts,
                system: system
            )
            missing += whole.missing
            let direction: TextDirection = whole.isRightToLeft ? .rtl : .ltr
            func addLine(_ line: Itemizer.Paragraph) {
                var glyphs: [(Font, ShapedGlyph)] = []
                var pen = 0.0
                for index in Itemizer.visualOrder(line.runs) {
                    let run = line.runs[index]
                    for var glyph in Shaper.shape(
                        line.scalars,
                        run: run,
                        size: style.size,
                        features: features,
                        language: style.language
                    ) {
                        glyph.xAdvance = glyph.spacedAdvance(style.letterSpacing)
                        glyphs.append((run.font, glyph))
                        pen += glyph.xAdvance
                    }
                }
                lines.append((glyphs, pen, whole.isRightToLeft))
            }
            // Without a maximum width the paragraph is one line, already itemized (the usual label:
            // no list of line ranges is made, whose first use costs the Swift runtime a scan of
            // every protocol conformance for Range's Comparable bound).
            guard style.maxWidth != nil else {
                addLine(whole)
                continue
            }
            for range in Self.wrap(whole, style: style, features: features) {
                // A line that is the whole paragraph is already itemized.
                addLine(
                    range == scalars.indices
                        ? whole
                        : Itemizer.itemize(
                            Array(scalars[range]),
                            direction: direction,
                            fonts: fonts,
                            scriptFonts: scriptFonts,
                            system: system
                        )
                )
            }
        }
        let blockWidth = lines.map(\.width).max() ?? 0
        var placed: [PlacedGlyph] = []
        for (index, line) in lines.enumerated() {
            let slack = blockWidth - line.width
            let offset: Double
            switch (style.alignment, line.rtl) {
            case (.left, _), (.start, false), (.end, true): offset = 0
            case (.right, _), (.end, false), (.start, true): offset = slack
            case (.center, _): offset = slack / 2
            }
            var pen = offset
            let baseline = ascent + Double(index) * lineHeight
            for (font, glyph) in line.glyphs {
                placed.append(
                    PlacedGlyph(font: font, glyph: glyph.glyph, x: pen + glyph.xOffset, y: baseline + glyph.yOffset)
                )
                pen += glyph.xAdvance
            }
        }
        glyphs = placed
        width = blockWidth
        height = Double(lines.count) * lineHeight
        lineCount = lines.count
        self.missing = missing
        fontWarnings = warnings
    }

    /// Line ranges of a paragraph: greedy breaking after spaces (and hyphens) when a line would
    /// pass the style's maximum width; a word longer than the width stays whole.
    private static func wrap(
        _ paragraph: Itemizer.Paragraph,
        style: TextStyle,
        features: ShapingFeatures
    ) -> [Range<Int>] {
        let count = paragraph.scalars.count
        guard let maxWidth = style.maxWidth, count > 0 else { return [0..<count] }
        var advance = [Double](repeating: 0, count: count)
        for run in paragraph.runs {
            for glyph in Shaper.shape(
                paragraph.scalars,
                run: run,
                size: style.size,
                features: features,
                language: style.language
            ) {
                advance[min(max(glyph.cluster, 0), count - 1)] += glyph.spacedAdvance(style.letterSpacing)
            }
        }
        func isSpace(_ i: Int) -> Bool {
            paragraph.scalars[i] == 0x20 || paragraph.scalars[i] == 0x3000 || paragraph.scalars[i] == 0x09
        }
        var lines: [Range<Int>] = []
        var start = 0
        var width = 0.0
        var lastBreak: Int? = nil
        var i = 0
        while i < count {
            width += advance[i]
            if isSpace(i) || paragraph.scalars[i] == 0x2D { lastBreak = i + 1 }
            // Trailing spaces do not count against the width.
            var visible = width
            var j = i
            while j >= start && isSpace(j) {
                visible -= advance[j]
                j -= 1
            }
            if visible > maxWidth, let cut = lastBreak, cut > start, cut <= i {
                lines.append(start..<cut)
                start = cut
                width = (start...i).reduce(0) { $0 + advance[$1] }
                lastBreak = nil
            }
            i += 1
        }
        lines.append(start..<count)
        // Drop the spaces a line ends with.
        return lines.map { range in
            var end = range.upperBound
            while end > range.lowerBound && isSpace(end - 1) { end -= 1 }
            return range.lowerBound..<end
        }
    }
}
