import Testing

@testable import BlurLabelPixels

/// `allOpaque`, which reads a picture in blocks and stops at the first block with a pixel that is
/// not opaque: the answer must not depend on where that pixel falls.
@Suite("Whether a picture is opaque")
struct OpacityTests {
    private let opaque: UInt32 = 0xFF12_3456

    @Test("all opaque, at sizes around the block's", arguments: [0, 1, 2047, 2048, 2049, 4096, 5000])
    func opaqueWords(count: Int) {
        let words = [UInt32](repeating: opaque, count: count)
        #expect(words.withUnsafeBufferPointer { allOpaque($0) })
    }

    @Test(
        "one pixel not opaque, wherever it is, makes the picture not opaque",
        arguments: [0, 1, 2046, 2047, 2048, 2049, 4095, 4096, 4999]
    )
    func oneTranslucentPixel(at position: Int) {
        var words = [UInt32](repeating: opaque, count: 5000)
        words[position] = 0xFE12_3456
        #expect(!words.withUnsafeBufferPointer { allOpaque($0) })
        words[position] = 0x0000_0000
        #expect(!words.withUnsafeBufferPointer { allOpaque($0) })
    }
}
