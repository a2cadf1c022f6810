import BlurredLabelCore
import Testing

@testable import BlurLabelServe

/// `Accept` headers as browsers, proxies and attackers send them, and the one of three variants each gets.
@Suite("Accept negotiation")
struct AcceptedFormatTests {
    @Test("browsers' headers get AVIF, else WebP, else PNG")
    func browsers() {
        // Chromium and Firefox's image requests, Safari 14 (WebP only), an old client.
        let chromium = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        #expect(AcceptedFormat.choose(chromium) == .avif())
        #expect(AcceptedFormat.choose("image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5") == .webp())
        #expect(AcceptedFormat.choose("image/png,image/*;q=0.8") == .png)
        #expect(AcceptedFormat.choose(nil) == .png)
        #expect(AcceptedFormat.choose("IMAGE/AVIF ; q=0.9") == .avif())
    }

    @Test("wildcards name no format; q=0 refuses one")
    func wildcardsAndRefusals() {
        #expect(AcceptedFormat.choose("*/*") == .png)
        #expect(AcceptedFormat.choose("image/*") == .png)
        #expect(AcceptedFormat.choose("image/avif;q=0, image/webp") == .webp())
        #expect(AcceptedFormat.choose("image/avif;q=0.0,image/webp;q=0") == .png)
    }

    @Test("junk gets PNG, and every header gets one of the three variants")
    func junk() {
        let headers = [
            "", ";;;,,,", "image/avif;q=abc", "\u{0}image/webp", String(repeating: "image/avif,", count: 1000),
            "text/html", "image/avifx", "image/web", "q=1;image/avif",
        ]
        let variants: Set<PictureFormat> = [.png, .webp(), .avif()]
        for header in headers { #expect(variants.contains(AcceptedFormat.choose(header)), "\(header.prefix(30))") }
        #expect(AcceptedFormat.choose("\u{0}image/webp") == .png)
        #expect(AcceptedFormat.choose("image/avifx,image/web") == .png)
        // Over 4 KB of header is not read at all.
        #expect(AcceptedFormat.choose(String(repeating: "image/avif,", count: 1000)) == .png)
        // A quality parameter that does not parse does not refuse the type.
        #expect(AcceptedFormat.choose("image/avif;q=abc") == .avif())
    }
}
