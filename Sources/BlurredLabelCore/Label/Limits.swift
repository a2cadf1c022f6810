import BlurLabelCodecs
import BlurLabelPixels
import BlurLabelText

/// The one table of limits: what the library checks, what the command line's messages quote and
/// what docs/command-line.md lists. Each bound is stated once here (or named here when another type owns it).
package enum Limits {
    /// The blur's sigma for labels, blur levels, animations, image blurs and redactions, in pixels
    /// (`BlurRadius` checks it).
    package static let maximumRadius = BlurRadius.maximum
    /// The em size in pixels, from `minimumFontSize` (as `--size`, `--min-size` and a manifest's).
    package static let maximumFontSize = TextStyle.maximumSize
    package static let minimumFontSize = 0.01
    /// Line spacing, a multiple of the font's line height, from `minimumLineSpacing`.
    package static let maximumLineSpacing = TextStyle.maximumLineSpacing
    package static let minimumLineSpacing = 0.01
    /// Letter spacing in pixels, either way.
    package static let maximumLetterSpacing = TextStyle.maximumLetterSpacing
    /// An outline's width in pixels.
    package static let maximumOutlineWidth = TextStyle.maximumOutlineWidth
    /// The width lines wrap at, in pixels.
    package static let maximumWrapWidth = TextStyle.maximumWrapWidth
    /// Empty pixels around a label's ink beyond the blur's reach (`--padding`).
    package static let maximumPadding = LabelStyle.maximumPadding
    /// A pixelated region's block side in pixels, from `minimumPixelateBlock` (a block of 1
    /// would change nothing).
    package static let maximumPixelateBlock = 10_000
    package static let minimumPixelateBlock = 2
    /// The margin secure and blur regions grow by (`Redaction.maximumMargin`).
    package static let maximumRedactionMargin = Redaction.maximumMargin
    /// A fixed canvas's sides (a 16384² canvas is already 1 GiB of pixels).
    package static let maximumCanvasSide = CanvasSize.maximumSide
    /// Pixels in any one image (2^28: 1 GiB of RGBA).
    package static let maximumPixels = Image.maximumPixels
    /// One label's working memory in MiB (`RenderBudget`), by default and at most: checked from
    /// the shaped text before anything is drawn (`--max-render-mb`, `BLURLABEL_MAX_RENDER_MB`).
    package static let defaultRenderMegabytes = 64  // the library initialisers' literal default too
    package static let maximumRenderMegabytes = 1 << 20
    /// Glyph bitmaps a rendering thread keeps between labels (outline and colour caches).
    package static let glyphCacheBytesPerThread = GlyphWorkspace.cacheByteLimit + GlyphWorkspace.colorCacheByteLimit
    /// Blur steps of blur levels and animations.
    package static let maximumSteps = 1000
    /// Unicode scalars in a label's text, checked before anything is laid out.
    package static let maximumTextScalars = 100_000
    /// Combining marks in a row (on one base character), checked with the length: no script
    /// stacks more than a handful, and shaping a run of them takes time that grows with its
    /// square (30,000 acute accents on one letter took 3.5 s; Unicode's stream-safe format allows 30).
    package static let maximumCombiningMarks = 128
    /// A font file's bytes (read whole into memory; the largest CJK collections are about 130 MB).
    package static let maximumFontFileBytes = Font.maximumFileBytes
    /// Bytes in one manifest line (a longer line is reported and skipped unread).
    package static let maximumManifestLineBytes = 1 << 20
    /// An animation's whole pass, in seconds.
    package static let maximumDuration = 3600.0
    /// One APNG frame's delay: its numerator is 16-bit milliseconds.
    package static let maximumFrameDelay = APNGWriter.maximumFrameDelay
    /// Pixels of all the levels `BlurLevels` keeps together (2^28: 1 GiB of RGBA).
    package static let maximumLevelPixels = 1 << 28
    /// Frame pixels an animation may encode in all (frames × canvas pixels): it streams one frame at
    /// a time, but this bounds the work and the file.
    package static let maximumAnimationPixels = 1 << 32
}
