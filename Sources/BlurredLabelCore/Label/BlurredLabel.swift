import BlurLabelPixels
import BlurLabelText

/// A text label that blurs and unblurs, as the iOS label this project grew from.
///
/// The text is shaped and rasterized once into a coverage mask padded by the blur's reach
/// (`ceil(3σ)` a side, so the bleed is never clipped); `blur(radius:)` blurs that mask once and
/// keeps the overlay; `unblur()` shows the sharp rendering again without redoing anything.
/// Changing the text or the style drops exactly what depended on it.
///
/// In secure mode (`style.secure`) the blurred picture is made from a decoy of the declared
/// format, set with tabular figures, so it carries no information about the text; the text itself
/// is still what `unblur()` shows. Plain blur is cosmetic: see docs/privacy.md.
///
/// Not thread-safe: use one label from one thread (make one label per thread for batches).
public final class BlurredLabel {
    /// What the label says. Setting a different text invalidates every cached rendering.
    public var text: String {
        didSet {
            if text != oldValue {
                rendered = nil
                renderedDecoy = nil
                dropBlurred()
                dropImages()
            }
        }
    }

    /// How it looks. Only what a change affects is recomputed.
    public var style: LabelStyle {
        didSet {
            if style.typography != oldValue.typography || style.secure != oldValue.secure {
                rendered = nil
                renderedDecoy = nil
                dropBlurred()
            }
            // The blurred mask is padded for the radius and the style's padding: either changes it.
            if style.radius != oldValue.radius || style.padding != oldValue.padding { dropBlurred() }
            if style != oldValue { dropImages() }
        }
    }

    /// The working memory one rendering may take: a text and style over it throw
    /// `LabelError.overBudget` once shaped, before anything is drawn.
    package var budget: RenderBudget

    /// True between `blur()` and `unblur()`.
    public private(set) var isBlurred = false

    /// How much work the label has done, so callers and tests can see that nothing is redone.
    package struct WorkCounts: Equatable, Sendable {
        package var textRenders = 0
        package var blurs = 0
        package var composites = 0
    }
    package private(set) var work = WorkCounts()

    // The pipeline's steps, each kept until what it depends on changes.
    /// Step 1 for the sharp view: the text set and rasterized.
    private var rendered: RenderedText?
    /// Step 1 in secure mode: the decoy (what the blurred view shows).
    private var renderedDecoy: RenderedText?
    /// Step 3: the blurred ink.
    private var blurredInk: LabelInk?
    /// Step 4 of each view, and whether a fixed canvas clipped it.
    private var sharpImage: (image: Image, clipped: Bool)?
    private var blurredImage: (image: Image, clipped: Bool)?

    /// A label of `text` in `style`, each rendering within `renderBudgetMegabytes` MiB of working
    /// memory (64 unless given): a text and style over it throw `LabelError.overBudget` once
    /// shaped, before anything is drawn.
    public init(text: String = "", style: LabelStyle = LabelStyle(), renderBudgetMegabytes: Int = 64) {
        self.text = text
        self.style = style
        self.budget = RenderBudget(unchecked: renderBudgetMegabytes)
    }

    /// Blurs the label with a Gaussian of `style.radius` and keeps the result; calling it again
    /// with nothing changed does no work.
    public func blur() throws {
        isBlurred = true
        _ = try currentImage()
    }

    /// Sets `style.radius` to `radius`, then blurs: shorthand for `style.radius = radius;
    /// blur()`. The radius is part of the style, so the label keeps it (and `image` shows it)
    /// until the style changes again.
    public func blur(radius: BlurRadius) throws {
        if style.radius != radius { style.radius = radius }
        try blur()
    }

    /// Shows the sharp text again; the blurred overlay is kept for the next `blur()`.
    public func unblur() {
        isBlurred = false
    }

    /// What the label shows now: the blurred overlay or the sharp text, on its canvas.
    public var image: Image {
        get throws { try currentImage().image }
    }

    /// True when the fixed canvas is too small for the (blurred) content, which is then clipped.
    public var isClipped: Bool {
        get throws { try currentImage().clipped }
    }

    /// Characters that no font could draw (shown as .notdef boxes).
    public var missingCharacters: [Unicode.Scalar] {
        get throws { try sharpText().missingCharacters }
    }

    /// The padding on each side of the ink: the blur's reach, `ceil(3σ)`, and the style's own padding.
    package var padding: Int { pipeline.padding(radius: style.radius) }

    /// The pipeline that makes this label's pictures; the label caches its steps.
    package var pipeline: LabelPipeline { LabelPipeline(style: style, budget: budget) }

    // MARK: - caches

    private func dropBlurred() {
        blurredInk = nil
        blurredImage = nil
    }
    private func dropImages() {
        sharpImage = nil
        blurredImage = nil
    }

    private func sharpText() throws -> RenderedText {
        if let rendered { return rendered }
        let made = try pipeline.renderText(text)
        work.textRenders += 1
        rendered = made
        return made
    }

    /// Secure mode's decoy: random digits in the declared format, never the text.
    private func decoyText() throws -> RenderedText? {
        guard style.secure != nil else { return nil }
        if let renderedDecoy { return renderedDecoy }
        let made = try pipeline.renderDecoy()
        work.textRenders += 1
        renderedDecoy = made
        return made
    }

    private func currentImage() throws -> (image: Image, clipped: Bool) {
        // As `LabelPipeline.picture(of:)` checks it: a style set after `blur()` is checked here.
        try style.checkPadding()
        return isBlurred ? try blurredPicture() : try sharpPicture()
    }

    /// `LabelPipeline.picture(of:)`'s steps, each kept: source (the decoy in secure mode, else
    /// the text) → ink → blurred → composite.
    private func blurredPicture() throws -> (image: Image, clipped: Bool) {
        if let blurredImage { return blurredImage }
        let pipeline = self.pipeline
        if blurredInk == nil {
            try style.checkSecureRadius(style.radius)
            try pipeline.checkSource(text)
            let source = try decoyText() ?? sharpText()
            blurredInk = pipeline.blurred(try pipeline.ink(of: source, padding: padding), radius: style.radius)
            work.blurs += 1
        }
        guard let blurredInk else { preconditionFailure("blurred ink made above") }
        let made = try pipeline.composite(blurredInk)
        work.composites += 1
        blurredImage = made
        return made
    }

    /// The sharp text's ink, on a canvas at least the decoy's in secure mode (so both views share
    /// one canvas), composited.
    private func sharpPicture() throws -> (image: Image, clipped: Bool) {
        if let sharpImage { return sharpImage }
        let pipeline = self.pipeline
        let ink = try pipeline.ink(of: try sharpText(), atLeast: try decoyText(), padding: padding)
        let made = try pipeline.composite(ink)
        work.composites += 1
        sharpImage = made
        return made
    }
}
