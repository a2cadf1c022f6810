import Testing

@testable import BlurredLabelCore

/// Ordinary bad values given to the public API: each is a thrown error, never a trap, a read
/// past a buffer or a stale picture (found by a probe of the library, one case each).
@Suite("Public API with bad values")
struct APIMisuseTests {
    @Test("a radius that is not a blur is refused, not converted", arguments: [Double.nan, .infinity, -1, 1e300])
    func badRadiusIsAnError(radius: Double) throws {
        // The radius is refused where it is made, so no style, blur, region or level set can hold
        // it. (NaN is not equal to itself, so the case is matched by its words.)
        #expect { try BlurRadius(sigma: radius) } throws: { "\($0)".hasPrefix("blur radius must be a finite number") }
        #expect { try GaussianBlur(sigma: radius) } throws: { $0 is BlurError }
    }

    @Test func paddingOutsideItsRangeIsAnError() throws {
        var style = LabelStyle()
        style.padding = Int.max
        #expect(throws: LabelError.badPadding(Int.max)) { try LabelPipeline(style: style).picture(of: "5") }
        #expect(LabelPipeline(style: style).padding(radius: 2) == 6 + LabelStyle.maximumPadding)
        style.canvas = try CanvasSize(width: 100, height: 40)
        #expect(throws: LabelError.badPadding(Int.max)) { try FitToCanvas.style(style, fitting: "5") }
        let pipeline = LabelPipeline()
        let text = try pipeline.renderText("5")
        #expect(throws: LabelError.badPadding(-3)) { try pipeline.ink(of: text, padding: -3) }
        #expect(throws: ImageError.self) { try text.mask.padded(by: -2) }
        #expect(throws: ImageError.self) { try text.mask.padded(by: Int.max / 2) }
        #expect(throws: ImageError.self) { try text.mask.centered(inWidth: 1, height: 1) }
    }

    /// The blurred mask is padded for the style's padding: a new padding must show.
    @Test func aPaddingChangeAfterBlurShows() throws {
        let label = BlurredLabel(text: "56")
        try label.blur()
        _ = try label.image
        label.style.padding = 50
        let fresh = BlurredLabel(text: "56", style: label.style)
        try fresh.blur()
        #expect(try label.image == (try fresh.image))
    }

    @Test func comparisonSettingsOutsideTheirRangeAreErrors() throws {
        let image = try Image(width: 4, height: 4, fill: .white)
        for comparison in [
            ImageComparison(maxDiffRatio: .nan), ImageComparison(maxDiffRatio: .infinity),
            ImageComparison(threshold: .nan), ImageComparison(threshold: -0.5), ImageComparison(maxDiffPixels: -1),
        ] {
            #expect(throws: ImageComparison.InvalidSettings.self) {
                try comparison.compare(expected: image, actual: image)
            }
        }
    }

    /// Pixels of the wrong length cannot exist: the initialisers refuse them, and `pixels` and
    /// `values` change only in place (no setter outside the type), so no reader checks them.
    @Test func pixelsOfTheWrongLengthAreRefusedWhenMade() throws {
        #expect(throws: ImageError.pixelCountMismatch(expected: 360_000, actual: 3)) {
            try Image(width: 300, height: 300, premultipliedRGBA: [1, 2, 3])
        }
        #expect(throws: ImageError.pixelCountMismatch(expected: 160_000, actual: 1)) {
            try CoverageMask(width: 400, height: 400, values: [255])
        }
        var image = try Image(width: 3, height: 1)
        image.withUnsafeMutablePixels { bytes in
            for i in bytes.indices { bytes[i] = UInt8(i) }
        }
        image[byte: 0] = 200
        #expect(image.pixels.count == 12 && image.pixels[0] == 200 && image.pixels[11] == 11)
        let good = try Image(width: 300, height: 300)
        let result = try ImageComparison().compare(expected: good, actual: good)
        #expect(throws: ImageComparison.SizeMismatch.self) {
            try ImageComparison().diffImage(expected: try Image(width: 1, height: 1), result: result)
        }
    }

    /// Third round: every public call that reads a buffer through a pointer checks its length
    /// first, and sizes are checked before arithmetic on them.
    @Test func buffersAndSizesAreCheckedBeforeUse() throws {
        let mask = try CoverageMask(width: 400, height: 400)
        #expect(throws: ImageError.self) { try mask.padded(by: -1) }
        #expect(throws: ImageError.self) { try mask.centered(inWidth: 300, height: 500) }
        #expect(throws: ImageError.self) {
            try LabelPipeline().composite(.coverage(try CoverageMask(width: 2, height: 2)), canvas: (Int.min, 1))
        }
        let emoji = try LabelPipeline().renderText("😀")
        #expect(throws: LabelError.badPadding(Int.max)) {
            try LabelPipeline().ink(of: emoji, padding: Int.max)
        }
        #expect(throws: FontError.badFaceIndex(name: "x", index: 1 << 40)) {
            try Font(bytes: FontLibrary.embeddedBytes(.dejaVuSans), index: 1 << 40, name: "x")
        }
    }

    @Test func encoderSettingsAndPlansAreChecked() throws {
        let red = try Image(width: 3, height: 2, fill: Color(red: 255, green: 0, blue: 0))
        var encoder = PNGEncoder()
        encoder.compressionLevel = Int.max  // set after init: taken as 9
        #expect(try PNGDecoder.decode(try encoder.encode(red), source: "x") == red)
        encoder.compressionLevel = -100
        #expect(try PNGDecoder.decode(try encoder.encode(red), source: "x") == red)
        for plan in [
            PNGColorPlan.grey(bitDepth: 8), .grey(bitDepth: 0), .palette(entries: [], bitDepth: 8),
            .palette(entries: [1], bitDepth: 8),
        ] {
            #expect(throws: PNGError.self, "\(plan)") { try PNGEncoder().encode(red, plan: plan) }
        }
        #expect(try PNGDecoder.decode(try PNGEncoder().encode(red, plan: .rgb), source: "x") == red)
        #expect(throws: PNGError.self) { try APNGWriter(plays: -1).encode([red], delay: 0.1) }
        #expect(throws: PNGError.self) { try APNGWriter(plays: Int(UInt32.max) + 1).encode([red], delay: 0.1) }
    }

    @Test func redactionCoordinatesCannotOverflow() throws {
        var redaction = Redaction(image: try Image(width: 8, height: 8, fill: .white))
        let a = redaction.add(.init(x: 0, y: 0, width: Int.min, height: 1), mode: .fill(.black))
        let b = redaction.add(.init(x: Int.min, y: 0, width: -1, height: 1), mode: .fill(.black))
        redaction.move(a, dx: Int.max, dy: Int.min)
        redaction.move(b, dx: Int.max, dy: 0)
        // Both now lie outside the picture: an error naming the region, not a trap.
        #expect(throws: (any Error).self) { try redaction.render() }
        var far = Redaction(image: try Image(width: 8, height: 8, fill: .white))
        far.add(.init(x: Int.max - 5, y: 0, width: 100, height: 5), mode: .fill(.black))
        #expect(throws: (any Error).self) { try far.render() }
    }

    @Test func levelsOutsideThePlanAreRefused() throws {
        let plan = try BlurLevelPlan(text: "5", style: LabelStyle(), maxRadius: 4, steps: 4)
        #expect(throws: LabelError.badLevel(5, steps: 4)) { try plan.level(5) }
        #expect(throws: LabelError.badLevel(-1, steps: 4)) { try plan.level(-1) }
    }
}
