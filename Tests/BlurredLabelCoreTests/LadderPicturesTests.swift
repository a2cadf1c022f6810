import BlurredLabelCore
import Foundation
import Testing

/// docs/library.md's legibility ladder (made by `blurlabel render`, scripts/fixtures/make-readme-pictures)
/// shows what the library makes now: the same pixels.
@Suite("docs/library.md's legibility ladder")
struct LadderPicturesTests {
    static var pictures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/pictures")
            .standardized
    }

    static func style(radius: Double, secure: Bool) throws -> LabelStyle {
        var style = LabelStyle(canvas: try CanvasSize(width: 180, height: 90), radius: try BlurRadius(sigma: radius))
        style.typography.systemFallback = .off
        if secure { style.secure = SecureOptions(format: try SecretFormat("##.## €"), seed: .seed(42)) }
        return style
    }

    @Test(
        "each picture is the price at 32 px at its σ",
        arguments: [
            ("sigma-0", 0.0, false), ("sigma-2.5", 2.5, false), ("sigma-4", 4, false), ("sigma-6", 6, false),
            ("sigma-8", 8, false), ("secure", BlurRadius.legibilityFloor(forSize: 32).sigma, true),
        ]
    )
    func pictureIsCurrent(name: String, radius: Double, secure: Bool) throws {
        let label = BlurredLabel(text: "56.00 €", style: try Self.style(radius: radius, secure: secure))
        if radius > 0 { try label.blur() }
        let file = Self.pictures.appendingPathComponent("ladder-\(name).png").path
        #expect(
            try PNGDecoder.decode(contentsOf: file) == label.image,
            "docs/pictures/ladder-\(name).png is out of date: run scripts/fixtures/make-readme-pictures"
        )
    }
}
