import BlurredLabelKit
import Testing

@testable import BlurredLabelCore

/// What `BlurLevels` itself decides (the Core's plans make the levels: BlurredLabelCoreTests):
/// secure levels, its limits, the actor's amounts.
@Suite("BlurLevels' rules")
struct BlurLevelsRulesTests {
    func secureStyle(seed: UInt64 = 7) throws -> LabelStyle {
        var style = LabelStyle(radius: .unreadable(forSize: 32))
        style.secure = SecureOptions(format: try SecretFormat("##.## €"), seed: .seed(seed))
        return style
    }

    /// A 30x20 opaque picture of coloured diagonal stripes.
    static func picture() throws -> Image {
        var picture = try Image(width: 30, height: 20)
        for y in 0..<20 {
            for x in 0..<30 {
                let i = (y * 30 + x) * 4
                let colour: [UInt8] = (x + y) / 3 % 2 == 0 ? [200, 40, 90, 255] : [20, 160, 240, 255]
                for c in 0..<4 { picture[byte: i + c] = colour[c] }
            }
        }
        return picture
    }

    @Test func oneRadiusAndStepsLimit() throws {
        #expect(throws: BlurError.invalidRadius(1001)) { try BlurLevels(text: "x", maxRadius: BlurRadius(sigma: 1001)) }
        #expect(throws: LabelError.badSteps(Limits.maximumSteps + 1)) {
            try BlurLevels(text: "x", steps: Limits.maximumSteps + 1)
        }
        #expect(try BlurLevels(text: "x", maxRadius: 1000).maxRadius == 1000)
    }

    /// Every level is kept: 1001 levels of 6119x6026 would be 147 GB.
    @Test func labelLevelsRefuseMorePixelsThanTheyMayKeep() throws {
        #expect(throws: LabelError.self) {
            try BlurLevels.build(text: "56.00 €", style: LabelStyle(), maxRadius: 1000, steps: 1000)
        }
    }

    @Test func secureLevelsAreMadeFromTheDecoyOnly() async throws {
        let style = try secureStyle()
        let a = try BlurLevels.build(text: "12.34 €", style: style, maxRadius: 6, steps: 3)
        let b = try BlurLevels.build(text: "5.00 €", style: style, maxRadius: 6, steps: 3)
        // Non-interference: every blurred level's pixels are the same for any secret of the format.
        #expect(a.count == 4 && Array(a.dropFirst()) == Array(b.dropFirst()))
        // Amount 0 is the real text, sharp.
        #expect(a[0] != b[0] && a[0].width == a[1].width && a[0].height == a[1].height)
        // And the blurred levels are exactly the decoy's own levels.
        var generator = SplitMix64(state: 7)
        let decoy = try SecretFormat("##.## €").decoy(using: &generator)
        let plain = try BlurLevels.build(
            text: decoy,
            style: LabelStyle(typography: TextStyle(features: ["tnum"])),
            maxRadius: 6,
            steps: 3
        )
        #expect(Array(plain.dropFirst()) == Array(a.dropFirst()))
        // The actor's levels too.
        let levels = try BlurLevels(text: "99.99 €", style: style, maxRadius: 6, steps: 3)
        #expect(try await levels.image(amount: 1) == a[3])
    }
    @Test func secureBlurLevelsRefuseALongSecretAndAShortMaximum() async throws {
        let style = try secureStyle()
        await #expect(throws: SecureLabelError.textLongerThanFormat) {
            try await BlurLevels(text: "100.00 €", style: style, maxRadius: 20, steps: 4).prepare()
        }
        await #expect(throws: SecureLabelError.self) {
            try await BlurLevels(text: "1.00 €", style: style, maxRadius: 3, steps: 4).prepare()
        }
    }
    @Test func amountsPickTheNearestStepAndZeroIsThePicture() async throws {
        let picture = try Self.picture()
        let levels = try BlurLevels(image: picture, maxRadius: 8, steps: 4)
        #expect(levels.text == "" && levels.radius(ofStep: 1) == 2)
        #expect(try await levels.image(amount: 0) == picture)
        #expect(try await levels.image(amount: 0.3) == (try GaussianBlur(sigma: 2).apply(to: picture)))
        #expect(try await levels.image(amount: 1) == (try GaussianBlur(sigma: 8).apply(to: picture)))
        await #expect(throws: LabelError.badAmount(1.5)) { try await levels.image(amount: 1.5) }
        try await levels.prepare()
        #expect(await levels.isReady)
    }
    @Test func levelsOverThePixelLimitAreRefusedBeforeAnyIsMade() throws {
        // 65 levels of 2048x2048 are 2^28 + 2^22 pixels.
        let picture = try Image(width: 2048, height: 2048)
        let refused = LabelError.tooManyLevelPixels(
            levels: 65,
            width: 2048,
            height: 2048,
            limit: Limits.maximumLevelPixels
        )
        #expect(throws: refused) { try BlurLevels(image: picture, steps: 64) }
        #expect(throws: refused) { try BlurLevels.build(image: picture, maxRadius: 20, steps: 64) }
        #expect(throws: LabelError.badSteps(0)) { try BlurLevels(image: picture, steps: 0) }
        #expect(throws: BlurError.invalidRadius(-1)) {
            try BlurLevels(image: picture, maxRadius: BlurRadius(sigma: -1))
        }
        #expect(throws: LabelError.badLevel(5, steps: 4)) {
            try ImageBlurLevelPlan(image: picture, maxRadius: 2, steps: 4).level(5)
        }
    }
}
