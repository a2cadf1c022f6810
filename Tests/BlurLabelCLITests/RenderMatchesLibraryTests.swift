import BlurredLabelCore
import Testing

@testable import BlurLabelCLI

/// `blurlabel render` and the library's `BlurredLabel` are one pipeline: the same label gives
/// the same pixels either way.
@Suite("render equals the library")
struct RenderMatchesLibraryTests {
    @Test(
        "the same pixels as BlurredLabel",
        arguments: [
            ("56.00 €", 2.5), ("SALE 19.99 €", 0.0), ("‏56.00 ₪ מחיר", 8.0),
        ]
    )
    func samePixels(text: String, radius: Double) throws {
        let folder = try temporaryFolder()
        let result = run(["render", text, "--radius", "\(radius)", "--no-system-fonts", "-o", folder + "/cli.png"])
        try #require(result.status == 0, "\(result.err)")
        var style = LabelStyle()
        style.typography.systemFallback = .off
        style.radius = try BlurRadius(sigma: radius)
        let label = BlurredLabel(text: text, style: style)
        if radius > 0 { try label.blur() }
        #expect(try PNGDecoder.decode(contentsOf: folder + "/cli.png") == label.image)
    }
}
