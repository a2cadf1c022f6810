/// A text label that blurs and unblurs, as the iOS label this project grew from.
///
/// The text is shaped and rasterized once into a coverage mask padded by the blur's reach
/// (`ceil(3σ)` a side, so the bleed is never clipped); `blur(radius:)` blurs that mask once and
/// keeps the overlay; `unblur()` shows the sharp rendering again without redoing anything.
/// Changing the text or the style drops exactly what depended on it.
///
/// Not thread-safe: use one label from one thread (make one label per thread for batches).
public final class BlurredLabel {
    /// What the label says. Setting a different text invalidates every cached rendering.
    public var text: String {
        didSet { if text != oldValue { rendered = nil; dropBlurred(); dropImages() } }
    }

    /// How it looks. Only what a change affects is recomputed.
    public var style: LabelStyle {
        didSet {
            if style.text != oldValue.text { rendered = nil; dropBlurred() }
            if style.radius != oldValue.radius { dropBlurred() }
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
    private var blurredMask: CoverageMask?
    private var sharpImage: Image?
    private var blurredImage: Image?
    private var clippedSharp = false, clippedBlurred = false

    public init(text: String = "", style: LabelStyle = LabelStyle()) {
        self.text = text
        self.style = style
    }

    /// Blurs the label with a Gaussian of standard deviation `radius` px and keeps the result;
    /// calling it again with nothing changed does no work.
    public func blur(radius: Double = 2.5) throws {
        guard radius.isFinite, radius >= 0, radius <= GaussianBlur.maximumSigma else { throw LabelError.badRadius(radius) }
        if style.radius != radius { style.radius = radius }
        isBlurred = true
        _ = try currentImage()
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

    /// The padding on each side of the ink: the blur's reach, `ceil(3σ)`.
    public var padding: Int { Int((3 * style.radius).rounded(.up)) }

    // MARK: - caches

    private func dropBlurred() { blurredMask = nil; blurredImage = nil }
    private func dropImages() { sharpImage = nil; blurredImage = nil }

    private func sharpText() throws -> RenderedText {
        if let rendered { return rendered }
        let made = try TextRenderer.render(text, style: style.text)
        work.textRenders += 1
        rendered = made
        return made
    }

    /// The ink mask with `padding` empty pixels on every side.
    private func paddedMask() throws -> CoverageMask {
        try sharpText().mask.padded(by: padding)
    }

    private func currentImage() throws -> Image {
        if isBlurred {
            if let blurredImage { return blurredImage }
            if blurredMask == nil {
                blurredMask = try GaussianBlur(sigma: style.radius, edges: .transparent).apply(to: try paddedMask())
                work.blurs += 1
            }
            let (image, clipped) = try composite(blurredMask!)
            blurredImage = image
            clippedBlurred = clipped
            return image
        }
        if let sharpImage { return sharpImage }
        let (image, clipped) = try composite(try paddedMask())
        sharpImage = image
        clippedSharp = clipped
        return image
    }

    private func composite(_ mask: CoverageMask) throws -> (Image, Bool) {
        work.composites += 1
        return try Composite.centered(mask, style: style)
    }
}
