import Testing

@testable import BlurredLabelCore

@Suite("BlurredLabel cache and geometry")
struct BlurredLabelTests {
    @Test func blurTwiceDoesTheWorkOnce() throws {
        let label = BlurredLabel(text: "56.00 €")
        try label.blur()
        let first = try label.image
        try label.blur()
        #expect(try label.image == first)
        #expect(label.work == .init(textRenders: 1, blurs: 1, composites: 1))
        #expect(label.isBlurred && label.style.radius == 2.5)
    }

    @Test func unblurShowsTheSharpTextWithoutRerendering() throws {
        let label = BlurredLabel(text: "56.00 €")
        try label.blur()
        let blurred = try label.image
        label.unblur()
        let sharp = try label.image
        #expect(!label.isBlurred && sharp != blurred)
        #expect(sharp.width == blurred.width && sharp.height == blurred.height)  // toggling never jumps
        try label.blur()
        #expect(try label.image == blurred)
        label.unblur()
        #expect(try label.image == sharp)
        #expect(label.work == .init(textRenders: 1, blurs: 1, composites: 2))
    }

    @Test func changingTheTextRedoesEverything() throws {
        let label = BlurredLabel(text: "56.00 €")
        try label.blur()
        let before = try label.image
        label.text = "57.00 €"
        let after = try label.image
        #expect(after != before && label.isBlurred)
        #expect(label.work.textRenders == 2 && label.work.blurs == 2)
        label.text = "57.00 €"  // same text: nothing to do
        _ = try label.image
        #expect(label.work.textRenders == 2 && label.work.blurs == 2)
        #expect(
            after
                == (try {
                    let l = BlurredLabel(text: "57.00 €")
                    try l.blur()
                    return try l.image
                }())
        )
    }

    @Test func colourChangesOnlyRecomposite() throws {
        let label = BlurredLabel(text: "56.00 €")
        try label.blur()
        label.style.color = Color(red: 200, green: 0, blue: 0)
        _ = try label.image
        #expect(label.work == .init(textRenders: 1, blurs: 1, composites: 2))
    }

    @Test func aNewRadiusReblursButDoesNotReshape() throws {
        let label = BlurredLabel(text: "56.00 €")
        try label.blur(radius: 2.5)
        let small = try label.image
        try label.blur(radius: 6)
        let large = try label.image
        #expect(label.work.textRenders == 1 && label.work.blurs == 2)
        #expect(large.width == small.width + 2 * (18 - 8) && large.height == small.height + 2 * (18 - 8))
    }

    @Test func fontSizeChangesReshape() throws {
        let label = BlurredLabel(text: "56.00 €")
        _ = try label.image
        label.style.typography.size = 40
        _ = try label.image
        #expect(label.work.textRenders == 2)
    }

    @Test("the padded canvas never clips the bleed", arguments: [2.5, 8, 20])
    func bleedIsNotClipped(radius: Double) throws {
        let label = BlurredLabel(text: "56.00 €")
        try label.blur(radius: BlurRadius(sigma: radius))
        let image = try label.image
        let pad = Int((3 * radius).rounded(.up))
        let sharp = try TextRenderer.render("56.00 €", style: TextStyle())
        #expect(image.width == sharp.mask.width + 2 * pad && image.height == sharp.mask.height + 2 * pad)
        for x in 0..<image.width {
            #expect(image[x, 0] == (255, 255, 255, 255) && image[x, image.height - 1] == (255, 255, 255, 255))
        }
        for y in 0..<image.height {
            #expect(image[0, y] == (255, 255, 255, 255) && image[image.width - 1, y] == (255, 255, 255, 255))
        }
    }

    @Test func contentIsCenteredOnAFixedCanvas() throws {
        var style = LabelStyle()
        style.canvas = try CanvasSize(width: 301, height: 121)
        let label = BlurredLabel(text: "56", style: style)
        let image = try label.image
        var minX = Int.max
        var maxX = 0
        var minY = Int.max
        var maxY = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y].r < 255 {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        #expect(abs(minX - (image.width - 1 - maxX)) <= 1 && abs(minY - (image.height - 1 - maxY)) <= 1)
        #expect(try !label.isClipped)
    }

    @Test func aSmallCanvasClipsAndSaysSo() throws {
        var style = LabelStyle()
        style.canvas = try CanvasSize(width: 30, height: 10)
        let label = BlurredLabel(text: "56.00 €", style: style)
        try label.blur()
        #expect(try label.image.width == 30)
        #expect(try label.isClipped)
    }

    @Test func emptyTextIsBackgroundOnly() throws {
        let label = BlurredLabel(text: "")
        try label.blur()
        let image = try label.image
        #expect(image.pixels.allSatisfy { $0 == 255 })
        #expect(image.width >= 1 && image.height >= 1)
    }

    @Test func compositeRoundsCorrectly() {
        // Half-covered red over white: (255·128 + 255·(255−128))/255 = 255 red, 127 or 128 green/blue.
        let table = Composite.table(color: Color(red: 255, green: 0, blue: 0), background: .white)
        #expect(table[0] == 0xFFFF_FFFF && table[255] == 0xFF00_00FF)
        let half = table[128]
        #expect(half & 0xFF == 255 && (half >> 8) & 0xFF == 127 && half >> 24 == 255)
        let transparent = Composite.table(color: .black, background: .transparent)
        #expect(transparent[0] == 0 && transparent[255] == 0xFF00_0000 && transparent[100] == 100 << 24)
    }

    @Test("bad radii are refused", arguments: [Double.nan, -1, .infinity])
    func badRadius(radius: Double) {
        #expect(throws: BlurError.self) { try BlurredLabel(text: "x").blur(radius: BlurRadius(sigma: radius)) }
    }
}

@Suite("Secure labels")
struct SecureLabelTests {
    func securePicture(_ text: String, seed: UInt64 = 42, format: String = "##.## €") throws -> [UInt8] {
        var style = LabelStyle(radius: .legibilityFloor(forSize: 32))
        style.secure = SecureOptions(format: try SecretFormat(format), seed: .seed(seed))
        let label = BlurredLabel(text: text, style: style)
        try label.blur()
        return try PNGEncoder().encode(try label.image)
    }

    @Test(
        "non-interference: one seed, any secret of the format, the same bytes",
        arguments: ["56.00 €", "0.00 €", "99.99 €", "7.15 €", "10.01 €"]
    )
    func nonInterference(secret: String) throws {
        #expect(try securePicture(secret) == securePicture("12.34 €"))
    }

    @Test func differentSeedsGiveDifferentDecoys() throws {
        #expect(try securePicture("56.00 €", seed: 1) != securePicture("56.00 €", seed: 2))
    }

    @Test func unblurStillShowsTheRealText() throws {
        var style = LabelStyle(radius: .legibilityFloor(forSize: 32))
        style.secure = SecureOptions(format: try SecretFormat("##.## €"), seed: .seed(1))
        let label = BlurredLabel(text: "56.00 €", style: style)
        try label.blur()
        let blurred = try label.image
        label.unblur()
        let sharp = try label.image
        #expect(sharp.width == blurred.width && sharp.height == blurred.height)
        let plain = BlurredLabel(text: "56.00 €", style: LabelStyle(typography: TextStyle(features: ["tnum"])))
        #expect(try plain.image.width <= sharp.width)  // the real text, centered on the decoy's canvas
    }

    @Test func formats() throws {
        #expect(throws: SecureLabelError.self) { try SecretFormat("no digits") }
        var generator = SplitMix64(state: 9)
        let decoy = try SecretFormat("##.## €").decoy(using: &generator)
        #expect(decoy.count == 7 && decoy.hasSuffix(" €") && decoy.filter(\.isNumber).count == 4)
    }
}
