import BlurredLabelKit
import Foundation
import GoldenImage
import PriceTags
import Testing

/// The price shown, changed by the script to make the golden fail.
let price = ProcessInfo.processInfo.environment["DOWNSTREAM_PRICE"] ?? "56.00 €"

@Suite struct PriceTagTests {
    @Test func priceTag() throws {
        assertGolden(try PriceTags.priceTag(price), named: "price-tag")
    }

    @Test func secondTag() throws {
        assertGolden(try PriceTags.priceTag("9.99 €"), named: "second-tag")
    }

    @Test func errorsReadAsTheirMessage() throws {
        // A radius read at run time is checked where it is made, with one error.
        #expect { try BlurRadius(sigma: -1) } throws: { error in
            error.localizedDescription == "\(error)" && error.localizedDescription.hasPrefix("blur radius must be")
        }
    }

    @Test func writesAPNGFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tag-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGEncoder().write(try PriceTags.priceTag("1.00 €"), to: path)
        #expect(try PNGDecoder.decode(contentsOf: path) == PriceTags.priceTag("1.00 €"))
    }
}
