import BlurredLabelCore
import GoldenImage
import Testing

extension GoldenOptions {
    /// For the project's own references, which are exactly what this code makes (the same bytes on
    /// every machine, thread count and run): any pixel that changes fails (threshold 0, no
    /// anti-aliasing allowance). A tolerance once let eight stale references pass unnoticed.
    static let exact = GoldenOptions(comparison: ImageComparison(threshold: 0, detectAntialiasing: false))
}

/// The project's own golden images, in Golden/ (docs/golden-images.md: record with BLURLABEL_RECORD).
@Suite("Golden images")
struct GoldenTests {
    static func label(
        _ text: String,
        radius: Double? = 2.5,
        configure: (inout LabelStyle) throws -> Void = { _ in }
    ) throws -> Image {
        var style = LabelStyle()
        // The same bytes on every machine: only the embedded fonts, unless a test asks for more.
        style.typography.systemFallback = .off
        try configure(&style)
        let label = BlurredLabel(text: text, style: style)
        if let radius { try label.blur(radius: BlurRadius(sigma: radius)) }
        return try label.image
    }

    @Test func priceTag() throws {
        assertGolden(try Self.label("56.00 €"), named: "label-price-tag", options: .exact)
    }

    @Test func transparentBackground() throws {
        assertGolden(
            try Self.label("56.00 €") { $0.background = .transparent },
            named: "label-transparent",
            options: .exact
        )
    }

    @Test func colouredOnColoured() throws {
        assertGolden(
            try Self.label("SALE 19.99 €") {
                $0.color = try Color(parsing: "#c0392b")
                $0.background = try Color(parsing: "#fdebd0")
                $0.typography.size = 40
            },
            named: "label-coloured",
            options: .exact
        )
    }

    @Test func radiusTwentyIsNotClipped() throws {
        let image = try Self.label("56.00 €", radius: 20)
        assertGolden(image, named: "label-radius-20", options: .exact)
        let white = (UInt8(255), UInt8(255), UInt8(255), UInt8(255))
        for x in 0..<image.width { #expect(image[x, 0] == white && image[x, image.height - 1] == white) }
        for y in 0..<image.height { #expect(image[0, y] == white && image[image.width - 1, y] == white) }
    }

    @Test func rightToLeft() throws {
        assertGolden(try Self.label("‏56.00 ₪ מחיר"), named: "label-rtl-hebrew", options: .exact)
        assertGolden(try Self.label("السعر ٥٦٫٠٠ درهم", radius: 1.5), named: "label-rtl-arabic", options: .exact)
    }

    @Test func twoLines() throws {
        assertGolden(try Self.label("Members price\n56.00 €", radius: 2), named: "label-two-lines", options: .exact)
    }

    @Test func fixedCanvasSmallerThanContent() throws {
        assertGolden(
            try Self.label("56.00 €") { $0.canvas = try CanvasSize(width: 70, height: 24) },
            named: "label-canvas-clipped",
            options: .exact
        )
    }

    // Text layer: scripts and layouts, sharp.
    @Test(
        "scripts and layouts",
        arguments: [
            ("text-devanagari", "क्षत्रिय श्री मूल्य ५६", TextAlignment.center, 0.0, 0.0, nil as Double?),
            ("text-thai", "ราคา ๕๖ บาท น้ำ", .center, 0, 0, nil),
            ("text-mixed-direction", "Total: שלום עולם 56.00 and مرحبا", .center, 0, 0, nil),
            ("text-wrapped-right", "Prices shown blurred to visitors who are not logged in", .right, 0, 0, 220),
            ("text-wrapped-start-rtl", "המחיר מוצג רק למשתמשים רשומים באתר", .start, 0, 0, 200),
            ("text-letter-spacing", "56.00 €", .center, 4, 0, nil),
            ("text-outline", "56.00 €", .center, 0, 2, nil),
        ]
    )
    func textLayouts(
        name: String,
        text: String,
        alignment: TextAlignment,
        letterSpacing: Double,
        outline: Double,
        maxWidth: Double?
    ) throws {
        let image = try Self.label(text, radius: nil) {
            $0.typography.alignment = alignment
            $0.typography.letterSpacing = letterSpacing
            $0.typography.outlineWidth = outline
            $0.typography.maxWidth = maxWidth
            $0.typography.size = 28
        }
        assertGolden(image, named: name, options: .exact)
    }

    // System fonts (Debian's fonts-droid-fallback and fonts-noto-color-emoji, installed by
    // scripts/ensure-deps): the only goldens that depend on installed fonts.
    @Test func cjkFromTheSystemFonts() throws {
        try SystemTestFonts.require(SystemTestFonts.droid)
        assertGolden(
            try Self.label("价格 56.00 € 税込", radius: nil) {
                $0.typography.systemFallback = .fontconfig
                $0.typography.size = 28
            },
            named: "text-cjk-fallback",
            options: .exact
        )
    }

    @Test func colourEmoji() throws {
        try SystemTestFonts.require(SystemTestFonts.emoji)
        assertGolden(
            try Self.label("🔥 19.99 € 😀", radius: nil) { $0.typography.systemFallback = .fontconfig },
            named: "label-emoji-sharp",
            options: .exact
        )
        assertGolden(
            try Self.label("🔥 19.99 € 😀") { $0.typography.systemFallback = .fontconfig },
            named: "label-emoji-blurred",
            options: .exact
        )
    }

    @Test func fittedToACanvas() throws {
        var style = LabelStyle()
        style.typography.systemFallback = .off
        style.canvas = try CanvasSize(width: 180, height: 60)
        style.padding = 4
        let fitted = try FitToCanvas.style(style, fitting: "56.00 €")
        assertGolden(
            try LabelPipeline(style: fitted).picture(of: "56.00 €").image,
            named: "label-fitted",
            options: .exact
        )
    }

    @Test func tabularFigures() throws {
        assertGolden(
            try Self.label("1111.11 €\n8888.88 €", radius: nil) { $0.typography.features = ["tnum"] },
            named: "text-tnum",
            options: .exact
        )
    }
}
