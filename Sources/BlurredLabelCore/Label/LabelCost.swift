import BlurLabelPixels
import BlurLabelText

/// What a label's render will take, computed from its shaped text (`InkEstimate`) and style
/// before anything is rasterized: the output's size and the working memory of each stage —
/// rasterizing (glyph bitmaps, colour strikes and their resampling, the mask and colour layer),
/// padding, blurring (the copy and the blur's float plane), compositing and encoding. Each
/// stage's figure counts what is alive together then, so the largest is an upper bound of the
/// render's peak (`RenderBudgetCommandTests` measures it against real processes' peaks).
package struct LabelCost: Sendable, Equatable {
    /// The picture's size: the fixed canvas, or the padded ink box.
    package let width: Int
    package let height: Int
    /// The padded ink box (what is blurred).
    package let inkWidth: Int
    package let inkHeight: Int
    /// The largest stage's working bytes.
    package let workingBytes: Int

    /// The cost of a label whose text rasterizes as `ink` estimates, in `style`, padded by
    /// `padding` a side.
    package init(ink: InkEstimate, style: LabelStyle, padding: Int) {
        let mask = ink.width * ink.height
        let paddedWidth = ink.width + 2 * padding
        let paddedHeight = ink.height + 2 * padding
        let padded = paddedWidth * paddedHeight
        let canvasWidth = style.canvas?.width ?? max(1, paddedWidth)
        let canvasHeight = style.canvas?.height ?? max(1, paddedHeight)
        let canvas = canvasWidth * canvasHeight
        // Samples a pixel of the ink: coverage, or premultiplied RGBA with colour glyphs.
        let channels = ink.hasColor ? 4 : 1
        // The rendered text (mask, colour layer) and the glyphs a thread's caches keep: alive
        // from rasterizing to the end.
        let cached = min(ink.keptBytes, Limits.glyphCacheBytesPerThread)
        let rendered = Self.pages(mask) + (ink.hasColor ? Self.pages(4 * mask) : 0) + cached
        let rasterize =
            ink.glyphs * InkEstimate.bytesPerGlyph + ink.keptBytes + ink.transientBytes + Self.pages(mask)
            + (ink.hasColor ? 2 * Self.pages(4 * mask) : 0)
        let inked = Self.pages(channels * padded)
        // Colour: the RGBA ink before it is centered on the padded box.
        let pad = rendered + inked + (ink.hasColor ? Self.pages(4 * mask) : 0)
        // The ink, the blurred copy and the recursive blur's float plane (rows rounded to lanes).
        let plane = Self.pages(4 * ((channels * paddedWidth + 15) / 16 * 16) * paddedHeight)
        let blur = rendered + 2 * inked + plane
        // The blurred ink, the picture, and the encoder's rows (packed and filtered) and output:
        // measured at most 4.1 bytes a pixel (a 3000x2500 canvas), counted as 8.
        let picture = Self.pages(4 * canvas)
        // Large pictures are compressed on every core: each thread's deflate state and piece.
        let threadsShare = canvas >= 1 << 20 ? 8 << 20 : 1 << 20
        let encode = rendered + inked + picture + 2 * Self.pages(4 * canvas) + threadsShare
        width = canvasWidth
        height = canvasHeight
        inkWidth = paddedWidth
        inkHeight = paddedHeight
        // And an eighth more, and a megabyte, for the allocator's rounding and fragmentation.
        let largest = max(rasterize, pad, blur, encode)
        workingBytes = largest + largest / 8 + (1 << 20)
    }

    /// Refuses a render over `budget` (`LabelError.overBudget`), or one that would make an image
    /// over `Image`'s limits (`ImageError.invalidSize`), before anything is drawn.
    package func check(_ budget: RenderBudget) throws {
        try budget.check()
        guard workingBytes <= budget.bytes else {
            throw LabelError.overBudget(
                width: width,
                height: height,
                megabytes: (workingBytes + (1 << 20) - 1) >> 20,
                limit: budget.megabytes
            )
        }
        try Image.checkSize(width: inkWidth, height: inkHeight)
        try Image.checkSize(width: width, height: height)
    }

    /// `bytes` as allocated: a buffer of `HugePages.threshold` or more is rounded to 2 MB pages.
    static func pages(_ bytes: Int) -> Int {
        bytes >= HugePages.threshold ? (bytes + HugePages.size - 1) / HugePages.size * HugePages.size : bytes
    }
}
