import CHarfBuzz

/// OpenType features parsed from text such as `tnum`, `-liga`, `+smcp`, `ss01`, `aalt=2`.
struct ShapingFeatures {
    let features: [hb_feature_t]

    init(_ list: [String]) throws {
        features = try list.map { text in
            let trimmed = text.trimmingWhitespace()
            var feature = hb_feature_t()
            let ok = trimmed.withCString { hb_feature_from_string($0, Int32(trimmed.utf8.count), &feature) }
            guard ok != 0, !trimmed.isEmpty else { throw TextError.badFeature(text) }
            return feature
        }
    }
}

/// One glyph as HarfBuzz placed it, in pixels (y grows down), in visual order within its run.
struct ShapedGlyph {
    let glyph: UInt32
    /// Index of the first code point of the glyph's cluster, within the paragraph.
    let cluster: Int
    var xAdvance: Double
    let yAdvance: Double
    let xOffset: Double
    let yOffset: Double

    /// The advance with letter spacing added after every glyph that advances (marks do not).
    func spacedAdvance(_ letterSpacing: Double) -> Double {
        xAdvance != 0 ? xAdvance + letterSpacing : 0
    }
}

/// A run of text with one bidi level, one script and one font.
struct TextRun {
    let range: Range<Int>
    let level: UInt8
    let script: hb_script_t
    let font: Font
    var isRightToLeft: Bool { level & 1 == 1 }
}

/// HarfBuzz shaping of one run, with the whole paragraph as context (so Arabic joins across runs).
enum Shaper {
    /// Shapes `run` of `paragraph` at `size` px. Positions come from HarfBuzz's own font functions
    /// at the font's design units, scaled, so they match `hb-shape` exactly.
    static func shape(
        _ paragraph: [UInt32],
        run: TextRun,
        size: Double,
        features: ShapingFeatures,
        language: String?
    ) -> [ShapedGlyph] {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        paragraph.withUnsafeBufferPointer { text in
            hb_buffer_add_utf32(
                buffer,
                text.baseAddress,
                Int32(text.count),
                UInt32(run.range.lowerBound),
                Int32(run.range.count)
            )
        }
        hb_buffer_set_direction(buffer, run.isRightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, run.script)
        if let language, !language.isEmpty {
            hb_buffer_set_language(buffer, hb_language_from_string(language, Int32(language.utf8.count)))
        }
        hb_buffer_guess_segment_properties(buffer)  // fills only what is still unset (the language)
        features.features.withUnsafeBufferPointer { list in
            hb_shape(run.font.hbFont, buffer, list.baseAddress, UInt32(list.count))
        }
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        let scale = size / Double(run.font.unitsPerEm)
        return (0..<Int(count)).map { i in
            ShapedGlyph(
                glyph: infos[i].codepoint,
                cluster: Int(infos[i].cluster),
                xAdvance: Double(positions[i].x_advance) * scale,
                yAdvance: -Double(positions[i].y_advance) * scale,
                xOffset: Double(positions[i].x_offset) * scale,
                yOffset: -Double(positions[i].y_offset) * scale
            )
        }
    }

    /// Raw HarfBuzz output for `text` in design units, with optional context around it, for
    /// comparison with `hb-shape` (clusters relative to `text`).
    static func shapeInDesignUnits(
        _ text: String,
        before: String = "",
        after: String = "",
        font: Font,
        direction: TextDirection,
        script: String,
        language: String?,
        features: [String]
    ) throws -> [(glyph: UInt32, cluster: Int, dx: Int, dy: Int, ax: Int, ay: Int)] {
        let start = before.unicodeScalars.count
        let scalars = (before + text + after).unicodeScalars.map(\.value)
        let run = TextRun(
            range: start..<(start + text.unicodeScalars.count),
            level: direction == .rtl ? 1 : 0,
            script: hb_script_from_string(script, Int32(script.utf8.count)),
            font: font
        )
        let upem = Double(font.unitsPerEm)
        return shape(scalars, run: run, size: upem, features: try ShapingFeatures(features), language: language).map {
            (
                $0.glyph, $0.cluster - start, Int($0.xOffset.rounded()), Int((-$0.yOffset).rounded()),
                Int($0.xAdvance.rounded()), Int((-$0.yAdvance).rounded())
            )
        }
    }
}
