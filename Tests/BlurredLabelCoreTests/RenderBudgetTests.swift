import Testing

@testable import BlurredLabelCore

/// The render budget, as an attacker would try it through the library: texts and styles whose
/// render would take gigabytes are refused once shaped, before anything is drawn; the estimate
/// bounds the real ink from above; a label just under the budget still renders.
struct RenderBudgetTests {
    static let emoji = String(repeating: "😀", count: 1500)

    static func style(size: Double = 32, radius: BlurRadius = 2.5) -> LabelStyle {
        var style = LabelStyle(radius: radius)
        style.typography.size = size
        return style
    }

    @Test func fifteenHundredEmojiAtSize2000AreRefusedBeforeAnyGlyphIsDrawn() throws {
        let label = BlurredLabel(text: Self.emoji, style: Self.style(size: 2000))
        let started = ContinuousClock.now
        #expect {
            try label.blur()
        } throws: { error in
            guard case let .overBudget(width, height, megabytes, limit)? = error as? LabelError else { return false }
            return width > 1_000_000 && height > 2000 && megabytes > 10_000 && limit == 64
        }
        // Shaping 1,500 characters and reading one strike's metrics: no strike was decoded or scaled.
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(label.work.textRenders == 0)
    }

    @Test func theHugeCanvasIsRefused() throws {
        var style = Self.style()
        style.canvas = try CanvasSize(width: 16384, height: 16384)
        #expect(throws: LabelError.self) { try LabelPipeline(style: style).picture(of: "x") }
        #expect(throws: LabelError.self) { try LabelPipeline(style: style).png(of: "x", encoder: PNGEncoder()) }
    }

    @Test func wideSpacingAtSize2000AndRadius1000IsRefused() throws {
        var style = Self.style(size: 2000, radius: 1000)
        style.typography.letterSpacing = 1000
        let label = BlurredLabel(text: "56.00 €", style: style)
        #expect(throws: LabelError.self) { try label.image }
        #expect(throws: LabelError.self) { try label.blur() }
    }

    @Test func theBudgetIsTheCallersToRaise() throws {
        var style = Self.style(size: 1000)
        style.canvas = nil
        let text = "56.00 €"
        let cost = try LabelPipeline(style: style).cost(of: text)
        let needed = (cost.workingBytes + (1 << 20) - 1) >> 20
        // Just under the budget: renders, with the estimated size.
        let picture = try LabelPipeline(style: style, budget: RenderBudget(megabytes: needed)).picture(of: text)
        #expect(picture.image.width <= cost.width && picture.image.height <= cost.height)
        // A megabyte less: refused, and the message says what it would take.
        #expect(
            throws: LabelError.overBudget(width: cost.width, height: cost.height, megabytes: needed, limit: needed - 1)
        ) {
            try LabelPipeline(style: style, budget: RenderBudget(megabytes: needed - 1)).picture(of: text)
        }
        let label = BlurredLabel(text: text, style: style)
        label.budget = try RenderBudget(megabytes: needed)
        try label.blur()
        label.budget = try RenderBudget(megabytes: needed - 1)
        label.text = "57.00 €"
        #expect(throws: LabelError.self) { try label.image }
        #expect(throws: LabelError.badBudget(0)) { try RenderBudget(megabytes: 0) }
        // The library's initialisers take the budget in MiB; their default is the standard one.
        #expect(LabelPipeline().budget == .standard && BlurredLabel().budget == .standard)
        #expect(throws: LabelError.badBudget(0)) {
            try LabelPipeline(style: style, renderBudgetMegabytes: 0).picture(of: text)
        }
        let generous = BlurredLabel(text: text, style: style, renderBudgetMegabytes: needed)
        try generous.blur()
    }

    /// Labels of every kind of glyph: the estimated ink box holds the drawn one.
    @Test(arguments: [
        ("56.00 €", 32.0, 0.0, 0.0),
        ("Wg|ÅÉ_ʃ", 97.3, 0.0, 0.0),
        ("56.00 €", 48.0, 3.5, 0.0),  // outline
        ("office fi ffl", 41.0, 0.0, -12.0),  // ligatures, negative spacing
        ("שלום עולם", 55.0, 0.0, 0.0),
        ("مرحبا بالعالم", 55.0, 0.0, 0.0),
        ("Hello 😀 🎉 world", 140.0, 0.0, 3.0),  // colour strikes, scaled up
        ("😀😀😀", 20.0, 0.0, 0.0),  // colour strikes, scaled down
        ("two\nlines á̈", 33.0, 1.0, 0.0),
    ])
    func theEstimateHoldsTheDrawnInk(text: String, size: Double, outline: Double, spacing: Double) throws {
        var style = Self.style(size: size)
        style.typography.outlineWidth = outline
        style.typography.letterSpacing = spacing
        let pipeline = LabelPipeline(style: style)
        let rendered = try pipeline.renderText(text)
        let estimate = InkEstimate(try TextLayout(text: text, style: pipeline.textStyle), style: pipeline.textStyle)
        #expect(rendered.mask.width <= estimate.width && rendered.mask.height <= estimate.height)
        // Not loose either: at most a few pixels a side beyond the drawn ink.
        #expect(estimate.width <= rendered.mask.width + 8 + Int(2 * outline))
        #expect(estimate.hasColor == (rendered.colorLayer != nil))
        let cost = try pipeline.cost(of: text)
        let picture = try pipeline.picture(of: text)
        #expect(picture.image.width <= cost.width && picture.image.height <= cost.height)
    }

    @Test func fittingStaysWithinTheBudgetAndGivesTheSameSize() throws {
        var style = Self.style()
        style.canvas = try CanvasSize(width: 180, height: 60)
        style.padding = 4
        let fitted = try FitToCanvas.style(style, fitting: "56.00 €", maximumSize: 2000)
        // A canvas over the budget is said at once, not searched.
        var huge = style
        huge.canvas = try CanvasSize(width: 16384, height: 16384)
        #expect(throws: LabelError.self) { try FitToCanvas.style(huge, fitting: "56.00 €") }
        // With a budget too small for the larger trial sizes, the search still finds the same size.
        let cost = try LabelPipeline(style: fitted).cost(of: "56.00 €")
        let tight = try RenderBudget(megabytes: (cost.workingBytes >> 20) + 1)
        let again = try FitToCanvas.style(
            style,
            fitting: "56.00 €",
            maximumSize: 2000,
            renderBudgetMegabytes: tight.megabytes
        )
        #expect(again.typography.size == fitted.typography.size)
    }
}
