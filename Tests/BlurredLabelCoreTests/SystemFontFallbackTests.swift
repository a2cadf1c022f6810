import Foundation
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

/// The Debian fonts scripts/ensure-deps installs for these tests.
enum SystemTestFonts {
    static let droid = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
    static let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    /// Fails with the set-up line when a test font is not installed.
    static func require(_ path: String) throws {
        try #require(
            FileManager.default.fileExists(atPath: path),
            "\(path) is missing: run scripts/ensure-deps (fonts-droid-fallback, fonts-noto-color-emoji)"
        )
    }
}

@Suite("System font fallback")
struct SystemFontFallbackTests {
    static func runs(_ text: String, fallback: SystemFontFallback = .fontconfig) throws -> [(String, String)] {
        let layout = try TextLayout(text: text, style: TextStyle(systemFallback: fallback))
        var runs: [(String, String)] = []
        for glyph in layout.glyphs where runs.last?.1 != glyph.font.name {
            runs.append(("", glyph.font.name))
        }
        return runs
    }

    @Test func orderIsChosenFontThenEmbeddedThenSystem() throws {
        try SystemTestFonts.require(SystemTestFonts.droid)
        let scalars = "A价 56 שלום".unicodeScalars.map(\.value)
        let (fonts, scriptFonts) = FontLibrary.chain(primary: FontLibrary.defaultFont)
        var asked: [Unicode.Scalar] = []
        let paragraph = Itemizer.itemize(scalars, direction: .auto, fonts: fonts, scriptFonts: scriptFonts) {
            scalar,
            colour in
            asked.append(scalar)
            return SystemFonts.font(for: scalar, colour: colour).font
        }
        // Only the character no embedded font has was looked for among the system's.
        #expect(asked == ["价"])
        let names = paragraph.runs.map(\.font.name)
        #expect(names.first == FontLibrary.Embedded.dejaVuSans.rawValue)
        #expect(names.contains(SystemTestFonts.droid))
        #expect(names.contains(FontLibrary.Embedded.notoSansHebrew.rawValue))
        #expect(paragraph.missing.isEmpty)
        // The CJK run holds the ideograph; the Latin letter stays in the chosen font.
        let cjk = try #require(paragraph.runs.first { $0.font.name == SystemTestFonts.droid })
        #expect(cjk.range.contains(1) && !cjk.range.contains(0))
    }

    @Test func offDrawsTheMissingGlyphBoxAndNamesTheCharacter() throws {
        let off = try TextRenderer.render("价 56", style: TextStyle(systemFallback: .off))
        #expect(off.missingCharacters == ["价"])
        #expect(off.colorLayer == nil)
        try SystemTestFonts.require(SystemTestFonts.droid)
        let on = try TextRenderer.render("价 56", style: TextStyle())
        #expect(on.missingCharacters.isEmpty)
        #expect(on.mask != off.mask)
    }

    @Test func aCharacterNoFontHasIsStillMissing() throws {
        // A private-use code point: no font anywhere draws it.
        let rendered = try TextRenderer.render("56 \u{F0000}", style: TextStyle())
        #expect(rendered.missingCharacters == ["\u{F0000}"])
    }

    @Test func aLabelThatNeedsNoFallbackIsTheSameWithOrWithout() throws {
        for text in ["56.00 €", "السعر ٥٦٫٠٠", "ราคา ๕๖"] {
            var on = LabelStyle()
            var off = LabelStyle()
            off.typography.systemFallback = .off
            on.typography.systemFallback = .fontconfig
            #expect(
                try LabelPipeline(style: on).picture(of: text).image
                    == LabelPipeline(style: off).picture(of: text).image
            )
        }
    }

    @Test func sameBytesOnEveryThread() throws {
        try SystemTestFonts.require(SystemTestFonts.droid)
        try SystemTestFonts.require(SystemTestFonts.emoji)
        let pipeline = LabelPipeline(style: LabelStyle())
        let first = try pipeline.picture(of: "价格 ¥1,280 🔥").image
        let images = parallelMap(8, threads: 4) { _ in Result { try pipeline.picture(of: "价格 ¥1,280 🔥").image } }
        for image in images { #expect(try image.get() == first) }
    }
}

@Suite("Font files")
struct FontFileTests {
    @Test func onlyWholeRegularFontFilesLoad() throws {
        let folder = try Fixtures.temporaryFolder()
        #expect(throws: FontError.notAFile(path: folder.path)) { try Font(path: folder.path) }
        #expect(throws: FontError.fileNotFound(path: folder.path + "/none.ttf")) {
            try Font(path: folder.path + "/none.ttf")
        }
        let empty = folder.appendingPathComponent("empty.ttf").path
        try #require(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(throws: FontError.notAFont(name: empty, reason: "the file is empty")) { try Font(path: empty) }
        // A FIFO is refused at once (opening one to read used to wait for a writer for ever).
        let fifo = folder.appendingPathComponent("fifo.ttf").path
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FontError.notAFile(path: fifo)) { try Font(path: fifo) }
        // A 3 GB file (sparse) is refused by its size before a byte is read: reading it first
        // took 3 GB of memory.
        let huge = folder.appendingPathComponent("huge.ttf").path
        try #require(FileManager.default.createFile(atPath: huge, contents: Data()))
        try #require(truncate(huge, 3 << 30) == 0)
        let before = residentKilobytes()
        #expect(throws: FontError.tooLarge(path: huge, limit: Limits.maximumFontFileBytes)) { try Font(path: huge) }
        // (Other tests run meanwhile in this process, so the bound is loose: far below 3 GB.)
        #expect(residentKilobytes() - before < 1 << 20, "resident memory grew by \(residentKilobytes() - before) KB")
        // A font read from its file is the same font as from its bytes.
        let path = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(
            "fonts/colr-test.ttf"
        ).path
        let fromFile = try Font(path: path)
        let fromBytes = try Font(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), name: "colr")
        #expect(
            fromFile.unitsPerEm == 1000 && fromFile.ascender == fromBytes.ascender
                && fromFile.glyph(for: "B") == fromBytes.glyph(for: "B")
        )
    }
}

/// The process's resident memory now (VmRSS), in KB.
private func residentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

@Suite("Colour glyphs")
struct ColorGlyphTests {
    @Test func emojiHasAColourLayerAndPlainTextHasNone() throws {
        try SystemTestFonts.require(SystemTestFonts.emoji)
        let emoji = try TextRenderer.render("🔥 19.99 €", style: TextStyle())
        let layer = try #require(emoji.colorLayer)
        #expect(layer.width == emoji.mask.width && layer.height == emoji.mask.height)
        // Some pixel is clearly coloured (the flame is orange), not grey.
        var coloured = false
        for i in stride(from: 0, to: layer.pixels.count, by: 4) where layer.pixels[i + 3] > 200 {
            if Int(layer.pixels[i]) - Int(layer.pixels[i + 2]) > 100 {
                coloured = true
                break
            }
        }
        #expect(coloured)
        #expect(try TextRenderer.render("19.99 €", style: TextStyle()).colorLayer == nil)
        // Without system fonts, the emoji is whatever the embedded fonts have (no colour).
        #expect(try TextRenderer.render("🔥 19.99 €", style: TextStyle(systemFallback: .off)).colorLayer == nil)
    }

    @Test func emojiSequencesStayOneGlyphRun() throws {
        try SystemTestFonts.require(SystemTestFonts.emoji)
        let layout = try TextLayout(text: "👨‍👩‍👧 1️⃣ 19", style: TextStyle())
        let emojiGlyphs = layout.glyphs.filter { $0.font.hasColorBitmaps }
        // The family is one ligature and the keycap another; the plain digits are not emoji.
        #expect(emojiGlyphs.count == 2)
        #expect(layout.glyphs.last?.font === FontLibrary.defaultFont)
    }

    /// scripts/fixtures/make-colr-fixture.py: ■ is a red square (palette) with a smaller square in the text
    /// colour on top; 'B' is a plain outline.
    @Test func colrLayersInPaletteAndTextColour() throws {
        let path = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(
            "fonts/colr-test.ttf"
        ).path
        let font = try Font(path: path)
        #expect(font.hasColorLayers && !font.hasColorBitmaps)
        var style = LabelStyle(
            typography: TextStyle(font: font, size: 40, systemFallback: .off),
            color: try Color(parsing: "#0000ff")
        )
        style.radius = 0
        let rendered = try LabelPipeline(style: style).renderText("■")
        #expect(rendered.colorLayer != nil)
        let image = try LabelPipeline(style: style).picture(of: "■").image
        #expect(image.width == 40 && image.height == 40)
        let corner = image[3, 3]
        let centre = image[20, 20]
        #expect(corner.r == 255 && corner.g == 0 && corner.b == 0 && corner.a == 255)
        // The text-colour layer lies above the red one.
        #expect(centre.r == 0 && centre.g == 0 && centre.b == 255 && centre.a == 255)
        #expect(try LabelPipeline(style: style).renderText("B").colorLayer == nil)
    }

    @Test func resamplerKeepsAreaAndColour() throws {
        // 4×4 opaque red halved: 2×2 opaque red; and a quarter-pixel shift spreads, never adds, alpha.
        let red = [UInt8]((0..<16).flatMap { _ in [UInt8(255), 0, 0, 255] })
        let half = try #require(Resampler.scale(red, width: 4, height: 4, scale: 0.5, originX: 0, originY: 0))
        #expect(
            half.width == 2 && half.height == 2
                && half.rgba == [UInt8]((0..<4).flatMap { _ in [UInt8(255), 0, 0, 255] })
        )
        let shifted = try #require(Resampler.scale(red, width: 4, height: 4, scale: 0.5, originX: 0.25, originY: 0))
        #expect(shifted.width == 3)
        let alpha = stride(from: 3, to: shifted.rgba.count, by: 4).map { Int(shifted.rgba[$0]) }.reduce(0, +)
        #expect(alpha == 4 * 255)
        let doubled = try #require(Resampler.scale(red, width: 4, height: 4, scale: 2, originX: 0, originY: 0))
        // Enlarged linearly between pixel centres, with transparency beyond the edge: half a
        // source pixel of fade on each side.
        #expect(doubled.width == 10 && doubled.left == -1 && doubled.rgba[(4 * 10 + 5) * 4 + 3] == 255)
        #expect(doubled.rgba[(4 * 10) * 4 + 3] == 64)
    }

    @Test func secureModeShowsNoColourOfTheText() throws {
        try SystemTestFonts.require(SystemTestFonts.emoji)
        var style = LabelStyle(radius: .legibilityFloor(forSize: 32))
        style.secure = SecureOptions(format: try SecretFormat("## ##.## €"), seed: .seed(7))
        let pipeline = LabelPipeline(style: style)
        let withEmoji = try pipeline.picture(of: "🔥 19.99 €").image
        let plain = try pipeline.picture(of: "42.00 €").image
        #expect(withEmoji == plain)
        // Black text on white: every pixel grey.
        let pixels = withEmoji.pixels
        var grey = true
        for i in stride(from: 0, to: pixels.count, by: 4)
        where pixels[i] != pixels[i + 1] || pixels[i + 1] != pixels[i + 2] {
            grey = false
        }
        #expect(grey)
        // The secure label's blurred image has no colour either.
        let label = BlurredLabel(text: "🔥 19.99 €", style: style)
        try label.blur()
        #expect(try label.image == withEmoji)
    }

    @Test func blurredLabelAndLevelsDrawColourGlyphs() throws {
        try SystemTestFonts.require(SystemTestFonts.emoji)
        let label = BlurredLabel(text: "🔥 9.99", style: LabelStyle())
        try label.blur()
        let blurred = try label.image
        #expect(blurred == (try LabelPipeline(style: LabelStyle()).picture(of: "🔥 9.99").image))
        label.unblur()
        let sharp = try label.image
        #expect(sharp.width == blurred.width && sharp.height == blurred.height && sharp != blurred)
        let levels = try BlurLevelPlan(text: "🔥 9.99", style: LabelStyle(), maxRadius: 2.5, steps: 1).levels([0, 1])
        #expect(levels.count == 2 && levels[1] == blurred)
    }
}

@Suite("Fit to canvas")
struct FitToCanvasTests {
    @Test func largestSizeThatFits() throws {
        var style = LabelStyle()
        style.canvas = try CanvasSize(width: 160, height: 48)
        style.padding = 3
        let fitted = try FitToCanvas.style(style, fitting: "56.00 €")
        let size = fitted.typography.size
        #expect(size > 10 && size < 48 && (size * 4).rounded() == size * 4)
        func content(_ size: Double) throws -> (Int, Int) {
            var s = style
            s.typography.size = size
            let mask = try LabelPipeline(style: s).renderText("56.00 €").mask
            let pad = LabelPipeline.reach(of: s.radius) + s.padding
            return (mask.width + 2 * pad, mask.height + 2 * pad)
        }
        let at = try content(size)
        let above = try content(size + FitToCanvas.step)
        #expect(at.0 <= 160 && at.1 <= 48)
        #expect(above.0 > 160 || above.1 > 48)
        // The fitted picture is not clipped and has the canvas's size; the same every time.
        let picture = try LabelPipeline(style: fitted).picture(of: "56.00 €")
        #expect(!picture.clipped && picture.image.width == 160 && picture.image.height == 48)
        #expect(try FitToCanvas.style(style, fitting: "56.00 €").typography.size == size)
    }

    @Test func tooSmallAndBadRequests() throws {
        var style = LabelStyle()
        #expect(throws: LabelError.fitWithoutCanvas) { try FitToCanvas.style(style, fitting: "x") }
        style.canvas = try CanvasSize(width: 20, height: 10)
        #expect(throws: LabelError.doesNotFit(width: 20, height: 10, minimumSize: 6)) {
            try FitToCanvas.style(style, fitting: "56.00 €")
        }
        #expect(throws: LabelError.badFitRange(minimum: 9, maximum: 8)) {
            try FitToCanvas.style(style, fitting: "5", minimumSize: 9, maximumSize: 8)
        }
    }

    @Test func secureFitHoldsForEveryDecoy() throws {
        var style = LabelStyle()
        style.canvas = try CanvasSize(width: 150, height: 50)
        style.secure = SecureOptions(format: try SecretFormat("##.## €"), seed: .seed(1))
        let fitted = try FitToCanvas.style(style, fitting: "1.00 €", unreadable: true)
        #expect(fitted.radius == .legibilityFloor(forSize: fitted.typography.size))
        for seed in 0..<20 as Range<UInt64> {
            var s = fitted
            s.secure?.seed = .seed(seed)
            #expect(try !LabelPipeline(style: s).picture(of: "1.00 €").clipped)
        }
    }
}
