import Testing

@testable import BlurredLabelCore

@Suite("Blur scratch pool")
struct ScratchPoolTests {
    @Test("a label-sized plane gets exactly its size, on ordinary pages")
    func smallPicturesGetSmallScratch() {
        let pool = ScratchPool(capacity: 2)
        // A 600×200 RGBA label's float plane.
        let buffer = pool.take(bytes: 600 * 4 * 200 * 4)
        #expect(buffer.bytes == 600 * 4 * 200 * 4)
        #expect(!buffer.onHugePages)
        #expect(Int(bitPattern: buffer.pointer) % 64 == 0)
        pool.recycle(buffer)
        let odd = ScratchPool(capacity: 1).take(bytes: 1_000_001)  // sizes are rounded to 64 bytes only
        #expect(odd.bytes == 1_000_064)
        odd.pointer.deallocate()
    }

    @Test("large planes go on 2 MB pages, and buffers are reused")
    func largePlanes() {
        let pool = ScratchPool(capacity: 1)
        let large = pool.take(bytes: HugePages.threshold + 1)
        #expect(large.onHugePages && large.bytes % (2 << 20) == 0)
        #expect(Int(bitPattern: large.pointer) % (2 << 20) == 0)
        pool.recycle(large)
        let again = pool.take(bytes: 1000)
        #expect(again.pointer == large.pointer)  // the kept buffer serves a smaller request
        pool.recycle(again)
    }
}
