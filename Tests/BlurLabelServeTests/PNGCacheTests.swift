import HTTPServer
import Testing

@testable import BlurLabelServe

/// The finished-PNG cache: bounded by bytes, least recently used leaves first.
@Suite("PNG cache")
struct PNGCacheTests {
    static func entry(_ byte: UInt8, bytes: Int = 1000) -> PNGCache.Entry {
        PNGCache.Entry(png: ResponseBytes([UInt8](repeating: byte, count: bytes)), etag: "\"e\(byte)\"")
    }

    /// Room for exactly three entries of the same cost.
    static func cacheForThree() -> PNGCache {
        let cost = PNGCache.cost(key: "/a", png: entry(0).png, etag: entry(0).etag)
        return PNGCache(limitBytes: 3 * cost + cost / 2)
    }

    @Test func aHitKeepsAnEntryThatInsertionOrderWouldEvict() {
        let cache = Self.cacheForThree()
        cache.insert("/a", Self.entry(1))
        cache.insert("/b", Self.entry(2))
        cache.insert("/c", Self.entry(3))
        // /a is the oldest inserted; using it makes /b the least recently used.
        #expect(cache.entry("/a")?.png.array.first == 1)
        cache.insert("/d", Self.entry(4))
        #expect(cache.contains("/a"), "oldest-first would have evicted the entry just used")
        #expect(!cache.contains("/b"))
        #expect(cache.contains("/c") && cache.contains("/d"))
        #expect(cache.size.entries == 3)
        // Without further hits the order is insertion order again: /c, then /a.
        cache.insert("/e", Self.entry(5))
        #expect(!cache.contains("/c"))
        cache.insert("/f", Self.entry(6))
        #expect(!cache.contains("/a"))
        #expect(cache.entry("/d")?.etag == "\"e4\"" && cache.entry("/f")?.png.array.first == 6)
    }

    @Test func staysWithinItsLimitWhateverComes() {
        let cache = PNGCache(limitBytes: 50_000)
        for index in 0..<2000 {
            cache.insert("/label/\(index)", Self.entry(UInt8(index % 256), bytes: 100 + (index * 37) % 4000))
            if index % 3 == 0 { _ = cache.entry("/label/\(index / 2)") }
            #expect(cache.size.bytes <= 50_000)
        }
        #expect(cache.size.entries > 5)
        // Bytes counted are exactly the held entries' costs.
        let held = (0..<2000).filter { cache.contains("/label/\($0)") }
        let counted = held.reduce(0) { sum, index in
            sum
                + PNGCache.cost(
                    key: "/label/\(index)",
                    png: Self.entry(0, bytes: 100 + (index * 37) % 4000).png,
                    etag: "\"e\(UInt8(index % 256))\""
                )
        }
        #expect(held.count == cache.size.entries)
        #expect(counted == cache.size.bytes)
    }

    @Test func anEntryLargerThanTheLimitIsNotStoredAndEvictsNothing() {
        let cache = PNGCache(limitBytes: 5000)
        cache.insert("/small", Self.entry(1))
        cache.insert("/huge", Self.entry(2, bytes: 6000))
        #expect(!cache.contains("/huge"))
        #expect(cache.contains("/small"))
        // The same key twice is stored once.
        cache.insert("/small", Self.entry(3))
        #expect(cache.entry("/small")?.png.array.first == 1)
        #expect(cache.size.entries == 1)
    }
}
