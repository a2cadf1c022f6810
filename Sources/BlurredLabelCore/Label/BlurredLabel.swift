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

    /// True between `blur()` and `unblur()`.
    public private(set) var isBlurred = false

    /// How much work the label has done, so callers and tests can see that nothing is redone.
    public struct WorkCounts: Equatable, Sendable {
        public var textRenders = 0
        public var blurs = 0
        public var composites = 0
    }
    public private(set) var work = WorkCounts()

    private var rendered: RenderedText?
    private var renderedDecoy: RenderedText?
    private var blurredMask: CoverageMask?
    private var sharpImage: Image?
    private var blurredImage: Image?
    private var clippedSharp = false, clippedBlurred = false

    public init(text: String = "", style: LabelStyle = LabelStyle()) {
        self.text = text
        self.style = style
    }

    /// Blurs the label with a Gaussian of standard deviation `style.radius` px and keeps the
    /// result; calling it again with nothing changed does no work.
    public func blur() throws {
        guard Limits.isValidRadius(style.radius) else { throw LabelError.badRadius(style.radius) }
        isBlurred = true
        _ = try currentImage()
    }

    /// Sets `style.radius` to `radius`, then blurs: shorthand for `style.radius = radius;
    /// blur()`. The radius is part of the style, so the label keeps it (and `image` shows it)
    /// until the style changes again. A radius outside 0…`Limits.maximumRadius` throws and
    /// leaves the style as it was.
    public func blur(radius: Double) throws {
        guard Limits.isValidRadius(radius) else { throw LabelError.badRadius(radius) }
        if style.radius != radius { style.radius = radius }
        try blur()
    }

    /// Shows the sharp text again; the blurred overlay is kept for the next `blur()`.
    public func unblur() {
        isBlurred = false
    }

    /// What the label shows now: the blurred overlay or the sharp text, on its canvas.
    public var image: Image {
        get throws { try currentImage() }
    }

    /// True when the fixed canvas is too small for the (blurred) content, which is then clipped.
    public var isClipped: Bool {
        get throws {
            _ = try currentImage()
            return isBlurred ? clippedBlurred : clippedSharp
        }
    }

    /// Characters that no font could draw (shown as .notdef boxes).
    public var missingCharacters: [Unicode.Scalar] {
        get throws { try sharpText().missingCharacters }
    }

    /// The padding on each side of the ink: the blur's reach, `ceil(3σ)`, and the style's own padding.
    public var padding: Int { pipeline.padding(radius: style.radius) }

    /// The pipeline that makes this label's pictures; the label caches its stages.
    public var pipeline: LabelPipeline { LabelPipeline(style: style) }

    // MARK: - caches

    private func dropBlurred() {
        blurredMask = nil
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
        let made = try pipeline.renderDecoy(for: text)
        work.textRenders += 1
        renderedDecoy = made
        return made
    }

    private func currentImage() throws -> Image {
        // As `LabelPipeline.picture(of:)` checks them: a style set after `blur()` is checked here.
        try style.checkPadding()
        guard Limits.isValidRadius(style.radius) else { throw LabelError.badRadius(style.radius) }
        let pipeline = self.pipeline
        if isBlurred {
            if let blurredImage { return blurredImage }
            // Colour glyphs (emoji) in what is blurred: the premultiplied RGBA path.
            let decoy = try decoyText()
            if let source = decoy == nil ? try sharpText() : decoy, source.colorLayer != nil {
                let (image, clipped) = try pipeline.colorPicture(source, padding: padding, radius: style.radius)
                work.blurs += 1
                work.composites += 1
                blurredImage = image
                clippedBlurred = clipped
                return image
            }
            if blurredMask == nil {
                let mask = try pipeline.maskToBlur(text: sharpText, decoy: try decoyText(), padding: padding)
                blurredMask = try pipeline.blurred(mask, radius: style.radius)
                work.blurs += 1
            }
            let (image, clipped) = try composite(blurredMask!)
            blurredImage = image
            clippedBlurred = clipped
            return image
        }
        if let sharpImage { return sharpImage }
        if try sharpText().colorLayer != nil {
            let (image, clipped) = try pipeline.colorPicture(
                try sharpText(),
                atLeast: try decoyText(),
                padding: padding,
                radius: 0
            )
            work.composites += 1
            sharpImage = image
            clippedSharp = clipped
            return image
        }
        let (image, clipped) = try composite(
            try pipeline.sharpMask(try sharpText(), decoy: try decoyText(), padding: padding)
        )
        sharpImage = image
        clippedSharp = clipped
        return image
    }

    private func composite(_ mask: CoverageMask) throws -> (Image, Bool) {
        work.composites += 1
        return try pipeline.composite(mask)
    }
}
