import BlurLabelPixels
import BlurLabelText

/// The one place a label is made, in four named steps:
///
/// 1. `source(of:)`: what the picture shows, set and rasterized: the text, or in secure mode a
///    decoy of the declared format (the text is then never laid out);
/// 2. `ink(of:atLeast:padding:)`: that rendering on a canvas padded by the blur's reach;
/// 3. `blurred(_:radius:threads:)`: the ink blurred with a Gaussian;
/// 4. `composite(_:canvas:)`: the ink coloured and centered on the background.
///
/// A value holding only the style; every step is a function of its inputs, so calls share
/// nothing but immutable data (fonts' bytes, tables) and any thread may run any step.
/// ``picture(of:)`` runs the four (the steps themselves are shared only inside this package);
/// `BlurredLabel` caches each step's result, `BlurLevels` runs the last two at many radii, and
/// the command line's `render`, `animate` and `batch` call it.
public struct LabelPipeline: Sendable {
    package let style: LabelStyle
    /// The working memory one label may take: a text and style over it are refused
    /// (`LabelError.overBudget`) once shaped, before anything is drawn.
    package let budget: RenderBudget

    /// A pipeline for labels in `style`, each render within `renderBudgetMegabytes` MiB of
    /// working memory (64 unless given; `LabelError.overBudget` when a label would need more,
    /// `LabelError.badBudget` for a budget outside 1…1048576).
    public init(style: LabelStyle = LabelStyle(), renderBudgetMegabytes: Int = 64) {
        self.init(style: style, budget: RenderBudget(unchecked: renderBudgetMegabytes))
    }

    package init(style: LabelStyle, budget: RenderBudget) {
        self.style = style
        self.budget = budget
    }

    // MARK: - text

    /// The text style actually used: secure mode adds tabular figures, so digits share one width.
    package var textStyle: TextStyle {
        var text = style.typography
        if style.secure != nil && !text.features.contains("tnum") { text.features.append("tnum") }
        return text
    }

    /// `text` set and rasterized (its ink box). Refuses text over `Limits.maximumTextScalars`
    /// before laying anything out, and a label over the budget (its picture at the style's
    /// radius, `LabelCost`) once laid out, before any glyph is drawn.
    package func renderText(_ text: String) throws -> RenderedText {
        try Self.checkLength(text)
        return try TextRenderer.render(text, style: textStyle) { ink in try cost(of: ink).check(budget) }
    }

    /// What the label's picture at the style's radius will cost when its text rasterizes as `ink`.
    package func cost(of ink: InkEstimate) -> LabelCost {
        LabelCost(ink: ink, style: style, padding: padding(radius: style.radius))
    }

    /// The cost of `text`'s picture (in secure mode its decoy's), from shaping alone: nothing
    /// is drawn, and a secret is never laid out. Refuses what `source(of:)` refuses before
    /// laying out.
    package func cost(of text: String) throws -> LabelCost {
        try checkSource(text)
        let shown = decoy() ?? text
        try Self.checkLength(shown)
        let style = textStyle
        return cost(of: InkEstimate(try TextLayout(text: shown, style: style), style: style))
    }

    /// Secure mode's decoy: random digits in the declared format, never the text. nil outside
    /// secure mode. With the system generator each call gives new digits, so callers keep the
    /// decoy they made.
    package func decoy() -> String? {
        guard let secure = style.secure else { return nil }
        return secure.seed.decoy(for: secure.format)
    }

    /// The decoy set and rasterized, or nil outside secure mode.
    package func renderDecoy() throws -> RenderedText? {
        guard let decoy = decoy() else { return nil }
        return try renderText(decoy)
    }

    // MARK: - masks

    /// The blur's reach on each side of the ink for a blur of `radius`: `ceil(3σ)`.
    package static func reach(of radius: BlurRadius) -> Int {
        Int((3 * radius.sigma).rounded(.up))
    }

    /// The padding on each side of the ink for a blur of `radius` in this style: the blur's reach
    /// and the style's own `padding` beyond it (taken within 0…`LabelStyle.maximumPadding`; the
    /// picture refuses one outside, `LabelError.badPadding`).
    package func padding(radius: BlurRadius) -> Int {
        Self.reach(of: radius) + min(max(style.padding, 0), LabelStyle.maximumPadding)
    }

    /// Refuses a mask padding no style can ask for: below 0, or beyond the largest blur's reach
    /// plus `LabelStyle.maximumPadding`.
    static func checkMaskPadding(_ padding: Int) throws {
        guard padding >= 0,
            padding <= Self.reach(of: BlurRadius(checked: Limits.maximumRadius)) + LabelStyle.maximumPadding
        else {
            throw LabelError.badPadding(padding)
        }
    }

    // MARK: - the four steps

    /// Step 1: what the label's picture shows, set and rasterized: the decoy in secure mode (the
    /// text is then never rendered, and one longer than the format is refused), else the text
    /// (refused over `Limits.maximumTextScalars`).
    package func source(of text: String) throws -> LabelSource {
        try checkSource(text)
        if let decoy = try renderDecoy() { return .decoy(decoy) }
        return .text(try renderText(text))
    }

    /// Step 2: `text`'s ink with `padding` empty pixels on every side, centered on a canvas at
    /// least as large as `other` padded alike (the sharp text over secure mode's decoy, so both
    /// views share one canvas). A coverage mask, or premultiplied RGBA when the text has colour
    /// glyphs (emoji).
    package func ink(of text: RenderedText, atLeast other: RenderedText? = nil, padding: Int) throws -> LabelInk {
        try Self.checkMaskPadding(padding)
        let atLeast = other.map { ($0.mask.width + 2 * padding, $0.mask.height + 2 * padding) } ?? (0, 0)
        if text.colorLayer != nil {
            var ink = try ColorLabelComposer.ink(text, color: style.color)
            ink = try ColorLabelComposer.centered(ink, width: ink.width + 2 * padding, height: ink.height + 2 * padding)
            if other != nil {
                ink = try ColorLabelComposer.centered(
                    ink,
                    width: max(ink.width, atLeast.0),
                    height: max(ink.height, atLeast.1)
                )
            }
            return .color(ink)
        }
        let mask = try text.mask.padded(by: padding)
        guard other != nil else { return .coverage(mask) }
        return .coverage(try mask.centered(inWidth: max(atLeast.0, mask.width), height: max(atLeast.1, mask.height)))
    }

    /// Step 3: `ink` blurred with a Gaussian of `radius` (transparent edges), on up to `threads`
    /// threads (nil: every core, when the ink is large enough to share). The blur's large scratch
    /// is freed when it is done (a label's memory is its budget alone, docs/serve.md "Under
    /// load"), unless `keepingScratch` (blur levels reuse it for the next level).
    package func blurred(
        _ ink: LabelInk,
        radius: BlurRadius,
        threads: Int? = nil,
        keepingScratch: Bool = false
    ) -> LabelInk {
        var blur = GaussianBlur(radius: radius, edges: .transparent)
        blur.keepsLargeScratch = keepingScratch
        switch ink {
        case let .coverage(mask): return .coverage(blur.apply(to: mask, threads: threads))
        case let .color(image): return .color(blur.apply(to: image, threads: threads))
        }
    }

    /// Step 4: `ink` coloured and centered on the style's background and canvas (or on a canvas
    /// its own size), and whether a fixed canvas clipped some of it. `canvas` overrides the
    /// style's (blur levels share the largest radius's canvas); clipping is then not checked.
    package func composite(
        _ ink: LabelInk,
        canvas: (width: Int, height: Int)? = nil
    ) throws -> (
        image: Image, clipped: Bool
    ) {
        switch ink {
        case let .coverage(mask):
            guard let canvas else { return try Composite.centered(mask, style: style) }
            try Image.checkSize(width: canvas.width, height: canvas.height)  // before the centering arithmetic
            let image = try Composite.place(
                mask,
                color: style.color,
                background: style.background,
                width: canvas.width,
                height: canvas.height,
                left: (canvas.width - mask.width) / 2,
                top: (canvas.height - mask.height) / 2
            )
            return (image, false)
        case let .color(ink):
            let fixed = canvas ?? style.canvas.map { ($0.width, $0.height) }
            let width = fixed?.0 ?? max(1, ink.width)
            let height = fixed?.1 ?? max(1, ink.height)
            let placed = try ColorLabelComposer.place(ink, background: style.background, width: width, height: height)
            return (placed.image, canvas == nil && fixed != nil && placed.clipped)
        }
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

    /// The label's picture at the style's radius, the four steps in a row: blurred when the
    /// radius is above 0 or in secure mode (where even σ 0 shows the decoy, never the text), sharp
    /// otherwise.
    public func picture(of text: String) throws -> Picture {
        let (source, blurred) = try blurredInk(of: text)
        let (image, clipped) = try composite(blurred)
        return Picture(
            image: image,
            clipped: clipped,
            missingCharacters: source.text?.missingCharacters ?? [],
            fontWarnings: source.text?.fontWarnings ?? []
        )
    }

    /// Steps 1 to 3 at the style's radius: what the picture shows, and its ink blurred (what
    /// `picture(of:)` composites and `png(of:encoder:)` writes).
    func blurredInk(of text: String) throws -> (source: LabelSource, ink: LabelInk) {
        try style.checkPadding()
        try style.checkSecureRadius(style.radius)
        let source = try source(of: text)
        let ink = try ink(of: source.rendered, padding: padding(radius: style.radius))
        return (source, blurred(ink, radius: style.radius))
    }

    /// Characters of `text` that no font in the style's chain has.
    package func missingCharacters(in text: String) throws -> [Unicode.Scalar] {
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
