import BlurredLabelCore
import Testing

@testable import BlurLabelCLI

/// `--dpr N`: the picture is exactly N times the 1x picture's width and height, for labels of
/// every kind (scripts, emoji, outlines, wrapping, canvas, fit, secure), and the text is set at N
/// times the size, not upscaled.
@Suite("dpr")
struct DevicePixelRatioTests {
    static let texts = [
        "56.00 €", "SALE 19.99 €", "‏56.00 ₪ מחיר", "السعر ٥٦", "価格 ¥5,600", "🍎 2.99 €", "Ünïcödé ﬁ",
        "a", "Two words and more words", "Ω≈ç√∫", "12:30", "🎉🎉",
    ]

    /// Seeded, so a failure names a label that can be made again.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    static func options(_ values: [String: String], flags: [String] = []) -> GivenOptions {
        var given: [String: OptionValue] = values.mapValues { .text($0) }
        for flag in flags { given[flag] = .flag(true) }
        return GivenOptions(given)
    }

    @Test func everyPictureIsExactlyNTimesItsOneX() throws {
        var random = Generator(state: 42)
        var checked = 0
        for index in 0..<160 {
            var values: [String: String] = [:]
            var flags: [String] = []
            var text = Self.texts[Int.random(in: 0..<Self.texts.count, using: &random)]
            values["size"] = String(Int.random(in: 8...48, using: &random))
            values["radius"] = String(Double(Int.random(in: 0...16, using: &random)) / 2)
            if Bool.random(using: &random) { values["padding"] = String(Int.random(in: 0...6, using: &random)) }
            if Int.random(in: 0..<4, using: &random) == 0 { values["letter-spacing"] = "1.5" }
            if Int.random(in: 0..<5, using: &random) == 0 { values["outline"] = "1" }
            if Int.random(in: 0..<6, using: &random) == 0 { values["max-width"] = "60" }
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                values["canvas"] =
                    "\(Int.random(in: 60...220, using: &random))x\(Int.random(in: 30...90, using: &random))"
            case 1:
                values["canvas"] = "200x70"
                values["size"] = nil
                flags.append("fit")
            case 2:
                text = "49,99"
                flags.append("secure")
                values["format"] = "##,## €"
                values["seed"] = String(index)
                values["radius"] = nil
            default: break
            }
            let ratio = Int.random(in: 2...4, using: &random)
            let one = try LabelOptions.style(Self.options(values, flags: flags), text: text)
            var scaledValues = values
            scaledValues["dpr"] = String(ratio)
            let scaled = try LabelOptions.style(Self.options(scaledValues, flags: flags), text: text)
            #expect(scaled.typography.size == one.typography.size * Double(ratio), "\(values)")
            #expect(scaled.radius.sigma == one.radius.sigma * Double(ratio), "\(values)")
            let small = try LabelPipeline(style: one).picture(of: text)
            let large = try LabelPipeline(style: scaled).picture(of: text)
            #expect(
                large.image.width == ratio * small.image.width && large.image.height == ratio * small.image.height,
                "label \(index) '\(text)' \(values) \(flags) at \(ratio)x: \(large.image.width)x\(large.image.height), 1x \(small.image.width)x\(small.image.height)"
            )
            #expect(!large.clipped || small.clipped, "label \(index) '\(text)' \(values) clipped at \(ratio)x")
            checked += 1
        }
        #expect(checked == 160)
    }

    @Test func refusals() {
        let cases: [([String], String)] = [
            (["--dpr", "5"], "--dpr must be from 1 to 4"),
            (["--dpr", "0"], "--dpr must be from 1 to 4"),
            (["--dpr", "1.5"], "--dpr"),
            (["--dpr", "4", "--size", "1000"], "--dpr 4"),
            (["--dpr", "3", "--canvas", "6000x100"], "--dpr 3"),
        ]
        for (arguments, message) in cases {
            let result = run(["render", "9.99", "-o", "/dev/null"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.err.contains(message), "\(arguments): \(result.err)")
        }
    }
}
