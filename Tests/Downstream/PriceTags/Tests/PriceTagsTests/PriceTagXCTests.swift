import GoldenImage
import PriceTags
import XCTest

final class PriceTagXCTests: XCTestCase {
    func testXCTestTag() throws {
        assertGolden(try PriceTags.priceTag(price), named: "xctest-tag")
    }
}
