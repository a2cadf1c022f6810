import GoldenImage
import Receipts
import Testing

@Suite struct ReceiptTests {
    /// The same golden name as PriceTags' tag, another package: neither sees the other's.
    @Test func priceTag() throws {
        assertGolden(try Receipts.receiptLine("Total 56.00 €"), named: "price-tag")
    }
}
