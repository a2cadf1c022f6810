import Dispatch
import Foundation
import Synchronization
import Testing

@testable import BlurredLabelCore

@Suite("Label pipeline")
struct LabelPipelineTests {
    func secureStyle(seed: UInt64 = 7) throws -> LabelStyle {
        var style = LabelStyle(radius: .legibilityFloor(forSize: 32))
        style.secure = SecureOptions(format: try SecretFormat("##.## €"), seed: .seed(seed))
        return style
    }

    @Test("one-shot pictures equal the cached label's", arguments: [0.0, 2.5, 8])
    func pictureEqualsBlurredLabel(radius: Double) throws {
        let style = LabelStyle(radius: try BlurRadius(sigma: radius))
        let label = BlurredLabel(text: "56.00 €", style: style)
        if radius > 0 { try label.blur() }
        #expect(try LabelPipeline(style: style).picture(of: "56.00 €").image == label.image)
        let secure = BlurredLabel(text: "56.00 €", style: try secureStyle())
        try secure.blur()
        #expect(try LabelPipeline(style: try secureStyle()).picture(of: "56.00 €").image == secure.image)
    }

    /// At σ 0 the decoy would be a crisp, believable wrong value: under the floor, refused.
    @Test func secureAtRadiusZeroIsRefused() throws {
        var style = try secureStyle()
        style.radius = 0
        #expect(throws: SecureLabelError.self) { try LabelPipeline(style: style).picture(of: "12.34 €") }
    }

    @Test func blurWithoutARadiusUsesTheStyleAndKeepsIt() throws {
        let label = BlurredLabel(text: "56", style: LabelStyle(radius: 8))
        try label.blur()
        #expect(label.style.radius == 8)
        let at8 = try label.image
        #expect(try at8 == BlurredLabel.blurred("56", radius: 8))
        // blur(radius:) is documented shorthand for setting style.radius, then blur().
        try label.blur(radius: 4)
        #expect(try label.style.radius == 4 && label.image == BlurredLabel.blurred("56", radius: 4))
        // A refused radius never reaches the label: it cannot be made.
        #expect(throws: BlurError.invalidRadius(1001)) { try label.blur(radius: BlurRadius(sigma: 1001)) }
        #expect(label.style.radius == 4)
    }

    @Test func oneRadiusLimitEverywhere() throws {
        #expect(Limits.maximumRadius == 1000)
        #expect(BlurError.invalidRadius(1001).description.contains("0 to 1000"))
        // The blur itself, redaction regions and text style take their bounds from the same table.
        // One type holds the rule, so one mistake has one error wherever a radius is made.
        #expect(BlurRadius.maximum == Limits.maximumRadius)
        #expect(throws: BlurError.invalidRadius(Limits.maximumRadius + 1)) {
            try GaussianBlur(sigma: Limits.maximumRadius + 1)
        }
        #expect(throws: BlurError.invalidRadius(Limits.maximumRadius + 1)) {
            try BlurRadius(sigma: Limits.maximumRadius + 1)
        }
        #expect(try BlurRadius(sigma: Limits.maximumRadius).sigma == Limits.maximumRadius)
        #expect(try BlurRadius(sigma: 0) == .zero)
        #expect(RedactionError.badBlock(index: 0, block: 0).description.contains("2 to \(Limits.maximumPixelateBlock)"))
        var text = TextStyle()
        text.letterSpacing = Limits.maximumLetterSpacing + 1
        #expect(throws: TextError.badValue("letter spacing", Limits.maximumLetterSpacing + 1)) { try text.validate() }
    }

    @Test func theCommandLineDocsQuoteTheLimitsTable() throws {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("README.md").path) {
            folder.deleteLastPathComponent()
        }
        let readme = try String(contentsOf: folder.appendingPathComponent("docs/command-line.md"), encoding: .utf8)
        for row in [
            "| blur sigma (`--radius`, `--max-radius`, `redact --radius`) | 0 to \(Int(Limits.maximumRadius)) px; a label's `--radius` also takes `unreadable`, σ = \(BlurRadius.unreadableSlope)·size + \(BlurRadius.unreadableIntercept)",
            "| font size (`--size`) | \(Limits.minimumFontSize) to \(Int(Limits.maximumFontSize)) px |",
            "| line spacing (`--line-spacing`) | \(Limits.minimumLineSpacing) to \(Int(Limits.maximumLineSpacing)) line heights |",
            "| letter spacing (`--letter-spacing`) | -\(Int(Limits.maximumLetterSpacing)) to \(Int(Limits.maximumLetterSpacing)) px |",
            "| outline (`--outline`) | 0 to \(Int(Limits.maximumOutlineWidth)) px |",
            "| wrap width (`--max-width`) | 1 to \(Int(Limits.maximumWrapWidth)) px |",
            "| pixelate block (`redact --block`) | \(Limits.minimumPixelateBlock) to \(Limits.maximumPixelateBlock) px (a block of 1 would change nothing) |",
            "| margin of secure and blur regions (`redact --margin`) | 0 to \(Limits.maximumRedactionMargin) px (default \(Redaction.defaultMargin)) |",
            "| canvas side (`--canvas`) | 1 to \(Limits.maximumCanvasSide) px |",
            "| padding (`--padding`) | 0 to \(Limits.maximumPadding) px |",
            "| pixels in one image | 2^\(Limits.maximumPixels.trailingZeroBitCount) (1 GiB of RGBA) |",
            "| blur steps (`--steps`) | 1 to \(Limits.maximumSteps) |",
            "| `BlurLevels` (every level kept) | 2^\(Limits.maximumLevelPixels.trailingZeroBitCount) pixels in all |",
            "| text | \(Limits.maximumTextScalars / 1000),000 characters (Unicode scalars), at most \(Limits.maximumCombiningMarks) combining marks in a row, checked before layout; in secure mode the format's length instead, and the text is never laid out |",
            "| manifest line | \(Limits.maximumManifestLineBytes >> 20) MiB |",
            "| font file (`--font`) | \(Limits.maximumFontFileBytes >> 20) MiB, checked before it is read |",
            "| animation | `--duration` 0 to \(Int(Limits.maximumDuration)) s, at most \(Limits.maximumFrameDelay) s a frame; 2^\(Limits.maximumAnimationPixels.trailingZeroBitCount) frame pixels in all |",
        ] {
            #expect(readme.contains(row), "docs/command-line.md lacks: \(row)")
        }
    }

    @Test func textIsCheckedForLengthBeforeLayout() throws {
        let long = String(repeating: "8", count: Limits.maximumTextScalars + 1)
        #expect(throws: LabelError.textTooLong(limit: Limits.maximumTextScalars)) {
            try LabelPipeline().picture(of: long)
        }
        // In secure mode only the format's length is read, and the text is refused for it.
        var secure = LabelStyle(radius: .legibilityFloor(forSize: 32))
        secure.secure = SecureOptions(format: try SecretFormat("##"))
        #expect(throws: SecureLabelError.textLongerThanFormat) {
            try LabelPipeline(style: secure).picture(of: long)
        }
    }

    /// A run of combining marks on one letter is shaped in time growing with its square: more
    /// than the limit in a row is refused before layout; as many as the limit, or marks spread over
    /// letters, are drawn.
    @Test func longRunsOfCombiningMarksAreRefused() throws {
        let limit = Limits.maximumCombiningMarks
        let run = String(repeating: "\u{301}", count: limit)
        #expect(throws: LabelError.tooManyMarks(limit: limit)) {
            try LabelPipeline().picture(of: "a" + run + "\u{301}")
        }
        #expect(throws: LabelError.tooManyMarks(limit: limit)) {
            try LabelPipeline().picture(of: "ก" + String(repeating: "\u{E31}", count: limit + 1))
        }
        _ = try LabelPipeline().picture(of: "a" + run + "b" + run)
        // Invisible characters between runs do not end one: the marks still stack on one letter.
        for separator in ["\u{200B}", "\u{200C}", "\u{200D}", "\u{E0020}"] {
            #expect(throws: LabelError.tooManyMarks(limit: limit)) {
                try LabelPipeline().picture(of: "a" + run + separator + run)
            }
        }
    }

    @Test func threadsRenderTheSameGlyphsWithTheirOwnFaces() throws {
        // Many threads, several fonts (Latin, Hebrew, Arabic, Thai fall back to their own faces).
        let texts = ["56.00 €", "שלום 12", "مرحبا 3", "สวัสดี 4", "Ab\nCd"]
        let expected = try texts.map { try LabelPipeline().picture(of: $0).image }
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<40 {
                let index = (worker + round) % texts.count
                let image = try? LabelPipeline().picture(of: texts[index]).image
                if image != expected[index] { mismatches.add(1, ordering: .relaxed) }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }

    @Test func parallelMapKeepsOrderForAnyThreadCount() {
        for threads in [1, 2, 3, 8] {
            #expect(parallelMap(37, threads: threads) { $0 * $0 } == (0..<37).map { $0 * $0 })
        }
    }

    @Test func colourPlanBuiltFrameByFrameIsTheWholeSetsPlan() throws {
        let frames = try BlurLevelPlan(
            text: "56.00 €",
            style: LabelStyle(color: Color(red: 200, green: 0, blue: 0)),
            maxRadius: 6,
            steps: 3
        ).levels(Array(0...3))
        for set in [frames, [frames[0]], Array(frames.reversed())] {
            var builder = PNGColorPlan.Builder()
            for frame in set { builder.add(frame) }
            #expect(builder.plan == PNGColorPlan.smallest(for: set))
        }
    }

    @Test func anAPNGStreamHoldsItsDeclaredFrames() throws {
        let frame = try Image(width: 4, height: 3, fill: .white)
        var bytes: [UInt8] = []
        var stream = try APNGStream(plan: .smallest(for: [frame]), frameCount: 2, delay: 0.5) { bytes += $0 }
        try stream.append(frame)
        #expect(throws: PNGError.self) { try stream.finish() }  // one frame short
        try stream.append(frame)
        #expect(throws: PNGError.self) { try stream.append(frame) }  // one too many
        try stream.finish()
        #expect(bytes == (try APNGWriter().encode([frame, frame], delay: 0.5)))
        #expect(throws: PNGError.self) { try APNGStream(plan: .rgba, frameCount: 1, delay: 66) { _ in } }
    }
}

extension BlurredLabel {
    /// A fresh label's blurred picture.
    static func blurred(_ text: String, radius: BlurRadius) throws -> Image {
        let label = BlurredLabel(text: text, style: LabelStyle(radius: radius))
        try label.blur()
        return try label.image
    }
}
