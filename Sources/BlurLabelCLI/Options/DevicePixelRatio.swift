import BlurredLabelCore

/// `--dpr N` (`dpr:N` in a URL, a manifest's `dpr`): the label for a screen of N device pixels a
/// CSS pixel. Every length of the 1x style (size, padding, canvas, letter spacing, outline, wrap
/// width, σ) is multiplied by N and the text is set at that size, so it is sharper than any
/// upscale; the picture is exactly N times the 1x picture's width and height.
package enum DevicePixelRatio {
    static let option = Option(
        "dpr",
        .integer("N", 1...4),
        default: 1,
        help: "device pixel ratio: every length times N, the picture N times the 1x picture's width and height"
    )

    /// `style`, the 1x label's (fitted), at `ratio`: its lengths multiplied, and its canvas N times
    /// the 1x canvas, or without one N times the 1x picture's size (measured by laying the 1x
    /// text out and rasterizing it, without the blur), so that rounding at the larger size never
    /// makes the picture a pixel larger or smaller than N times.
    static func scaled(_ style: LabelStyle, by ratio: Int, text: String, budget: RenderBudget) throws -> LabelStyle {
        guard ratio > 1 else { return style }
        let factor = Double(ratio)
        let (width, height) =
            try style.canvas.map { ($0.width, $0.height) } ?? pictureSize(style, text: text, budget: budget)
        var scaled = style
        scaled.typography.size *= factor
        scaled.typography.letterSpacing *= factor
        scaled.typography.outlineWidth *= factor
        scaled.typography.maxWidth = style.typography.maxWidth.map { $0 * factor }
        scaled.padding *= ratio
        do {
            scaled.radius = try BlurRadius(sigma: style.radius.sigma * factor)
            scaled.canvas = try CanvasSize(width: width * ratio, height: height * ratio)
            try scaled.typography.validate()
            guard scaled.padding <= Limits.maximumPadding else { throw LabelError.badPadding(scaled.padding) }
            try scaled.checkSecureRadius(scaled.radius)
        } catch {
            throw UsageError(message: "\(option.name) \(ratio): \(error)")
        }
        return scaled
    }

    /// The size of `style`'s picture of `text` (the decoy's in secure mode): its ink padded by the
    /// blur's reach and the padding, as the pipeline's own steps make it.
    package static func pictureSize(
        _ style: LabelStyle,
        text: String,
        budget: RenderBudget
    ) throws -> (width: Int, height: Int) {
        let pipeline = LabelPipeline(style: style, budget: budget)
        let source = try pipeline.source(of: text)
        let ink = try pipeline.ink(of: source.rendered, padding: pipeline.padding(radius: style.radius)).size
        return (max(1, ink.width), max(1, ink.height))
    }
}
