/// The one place a label is made: (text, style) → decoy (secure mode) → padded mask → blur →
/// composite → image. A value holding only the style; every stage is a function of its inputs,
/// so calls share nothing but immutable data (fonts' bytes, tables) and any thread may run any
/// stage. `BlurredLabel` caches its stages, `BlurLevels` runs it at many radii, and the command
/// line's `render`, `animate` and `batch` call it.
public struct LabelPipeline: Sendable {
    public let style: LabelStyle

    public init(style: LabelStyle = LabelStyle()) {
        self.style = style
    }

    // MARK: - text

    /// The text style actually used: secure mode adds tabular figures, so digits share one width.
    public var textStyle: TextStyle {
        var text = style.typography
        if style.secure != nil && !text.features.contains("tnum") { text.features.append("tnum") }
        return text
    }

    /// `text` set and rasterized (its ink box). Refuses text over `Limits.maximumTextScalars`
    /// before laying anything out.
    public func renderText(_ text: String) throws -> RenderedText {
        try Self.checkLength(text)
        return try TextRenderer.render(text, style: textStyle)
    }

    /// Secure mode's decoy for `text`: random digits in the declared format (or, without one, the
    /// text's own shape), never the text. nil outside secure mode. With the system generator each
    /// call gives new digits, so callers keep the decoy they made.
    public func decoy(for text: String) -> String? {
        guard let secure = style.secure else { return nil }
        return secure.seed.decoy(for: secure.format ?? SecretFormat(derivedFrom: text))
    }

    /// The decoy set and rasterized, or nil outside secure mode.
    public func renderDecoy(for text: String) throws -> RenderedText? {
        guard let decoy = decoy(for: text) else { return nil }
        return try renderText(decoy)
    }

    // MARK: - masks

    /// The padding on each side of the ink for a blur of `radius`: the blur's reach, `ceil(3σ)`.
    /// A radius outside 0…`Limits.maximumRadius` (NaN, negative, huge) is taken at the nearest
    /// bound here; the blur itself refuses it (`LabelError.badRadius`).
    public static func padding(radius: Double) -> Int {
        let sigma = radius.isNaN ? 0 : min(max(radius, 0), Limits.maximumRadius)
        return Int((3 * sigma).rounded(.up))
    }

    /// The padding on each side of the ink for a blur of `radius` in this style: the blur's reach
    /// and the style's own `padding` beyond it (taken within 0…`LabelStyle.maximumPadding`; the
    /// picture refuses one outside, `LabelError.badPadding`).
    public func padding(radius: Double) -> Int {
        Self.padding(radius: radius) + min(max(style.padding, 0), LabelStyle.maximumPadding)
    }

    /// Refuses a mask padding no style can ask for: below 0, or beyond the largest blur's reach
    /// plus `LabelStyle.maximumPadding`.
    static func checkMaskPadding(_ padding: Int) throws {
        guard padding >= 0, padding <= Self.padding(radius: Limits.maximumRadius) + LabelStyle.maximumPadding else {
            throw LabelError.badPadding(padding)
        }
    }

    /// The sharp text's mask with `padding` empty pixels on every side. In secure mode the canvas
    /// is at least the decoy's, with the sharp text centered in it.
    public func sharpMask(_ text: RenderedText, decoy: RenderedText?, padding: Int) throws -> CoverageMask {
        try Self.checkMaskPadding(padding)
        let mask = try text.mask.padded(by: padding)
        guard let decoy = try decoy?.mask.padded(by: padding) else { return mask }
        return try mask.centered(inWidth: max(decoy.width, mask.width), height: max(decoy.height, mask.height))
    }

    /// What gets blurred: the text, or in secure mode the decoy alone (so neither the pixels nor
    /// the canvas size depend on the text). `text` is only called outside secure mode.
    public func maskToBlur(text: () throws -> RenderedText, decoy: RenderedText?, padding: Int) throws -> CoverageMask {
        try Self.checkMaskPadding(padding)
        if let decoy { return try decoy.mask.padded(by: padding) }
        return try sharpMask(try text(), decoy: nil, padding: padding)
    }

    // MARK: - blur and composite

    /// `mask` blurred with a Gaussian of standard deviation `radius` px (transparent edges), on up
    /// to `threads` threads (nil: every core, when the mask is large enough to share).
    public func blurred(_ mask: CoverageMask, radius: Double, threads: Int? = nil) throws -> CoverageMask {
        guard Limits.isValidRadius(radius) else { throw LabelError.badRadius(radius) }
        return try GaussianBlur(sigma: radius, edges: .transparent).apply(to: mask, threads: threads)
    }

    /// `mask` coloured and centered on the style's canvas (or on a canvas its own size), and
    /// whether a fixed canvas clipped some of it.
    public func composite(_ mask: CoverageMask) throws -> (image: Image, clipped: Bool) {
        try Composite.centered(mask, style: style)
    }

    /// `mask` coloured and centered on a `width`×`height` canvas (what falls outside is clipped).
    public func composite(_ mask: CoverageMask, width: Int, height: Int) throws -> Image {
        try Image.checkSize(width: width, height: height)  // before the centering arithmetic
        return try Composite.place(
            mask,
            color: style.color,
            background: style.background,
            width: width,
            height: height,
            left: (width - mask.width) / 2,
            top: (height - mask.height) / 2
        )
    }

    // MARK: - the whole label

    /// One label's picture, as `render` and `batch` make it.
    public struct Picture: Sendable {
        public let image: Image
        /// True when the style's fixed canvas clipped the content.
        public let clipped: Bool
        /// Characters no font could draw. Empty in secure mode when the text was never rendered:
        /// use `missingCharacters(in:)` to ask.
        public let missingCharacters: [Unicode.Scalar]
        /// Installed fonts that were offered for a character but could not be opened (one line
        /// each); empty, like `missingCharacters`, when the text was never rendered.
        public let fontWarnings: [String]
    }

    /// The label's picture at the style's radius: blurred when the radius is above 0 or in secure
    /// mode (where even σ 0 shows the decoy, never the text), sharp otherwise.
    public func picture(of text: String) throws -> Picture {
        try style.checkPadding()
        guard Limits.isValidRadius(style.radius) else { throw LabelError.badRadius(style.radius) }
        // The text itself is checked in secure mode too, though only the decoy is laid out, so a
        // line is refused or taken alike in either mode.
        try Self.checkLength(text)
        let pad = padding(radius: style.radius)
        // What is blurred: the decoy in secure mode (the text is then never rendered), else the text
        // (σ 0 blurs nothing: the sharp text).
        let decoy = try renderDecoy(for: text)
        let real = decoy == nil ? try renderText(text) : nil
        let source = decoy ?? real!
        let (image, clipped) =
            source.colorLayer != nil
            ? try colorPicture(source, padding: pad, radius: style.radius)
            : try composite(
                try blurred(try maskToBlur(text: { source }, decoy: decoy, padding: pad), radius: style.radius)
            )
        return Picture(
            image: image,
            clipped: clipped,
            missingCharacters: real?.missingCharacters ?? [],
            fontWarnings: real?.fontWarnings ?? []
        )
    }

    /// Characters of `text` that no font in the style's chain has.
    public func missingCharacters(in text: String) throws -> [Unicode.Scalar] {
        try renderText(text).missingCharacters
    }

    /// Refuses text over `Limits.maximumTextScalars` scalars, or with more than
    /// `Limits.maximumCombiningMarks` combining marks in a row.
    static func checkLength(_ text: String) throws {
        var count = 0
        var marks = 0
        for scalar in text.unicodeScalars {
            count += 1
            if count > Limits.maximumTextScalars { throw LabelError.textTooLong(limit: Limits.maximumTextScalars) }
            // ASCII is never a mark: the common case costs no property lookup.
            guard scalar.value >= 0x300 else {
                marks = 0
                continue
            }
            let properties = scalar.properties
            if [.nonspacingMark, .spacingMark, .enclosingMark].contains(properties.generalCategory) {
                marks += 1
                if marks > Limits.maximumCombiningMarks {
                    throw LabelError.tooManyMarks(limit: Limits.maximumCombiningMarks)
                }
            } else if !properties.isDefaultIgnorableCodePoint {
                // A zero-width space or joiner between marks is invisible to shaping: the marks
                // on either side stack on one letter, so the run goes on through it.
                marks = 0
            }
        }
    }
}
