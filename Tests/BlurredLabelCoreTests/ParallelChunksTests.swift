import Testing

@testable import BlurredLabelCore

/// `parallelChunks` and `Chunks` (BlurLabelSystem/Parallel.swift): every item exactly once, in
/// contiguous chunks sized as documented (guided: a share of what is left, never under the
/// minimum but for the last), whatever the thread count.
@Suite("Parallel chunks")
struct ParallelChunksTests {
    @Test(
        "every item once, chunks contiguous, shrinking, at least the minimum but for the last",
        arguments: [0, 1, 7, 100, 2048],
        [1, 48, 5000]
    )
    func coversEveryItemOnce(count: Int, minimumChunk: Int) {
        for threads in [1, 2, 3, 8] {
            let seen = LockedValue<[Range<Int>]>([])
            parallelChunks(count, threads: threads, minimumChunk: minimumChunk) { range in
                seen.withLock { $0.append(range) }
            }
            let chunks = seen.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound }
            #expect(chunks.flatMap { Array($0) } == Array(0..<count), "count \(count) threads \(threads)")
            #expect(!chunks.contains { $0.isEmpty })
            let workers = max(1, min(threads, count))
            if workers > 1 {
                let planned = Chunks(count, workers: workers, minimumChunk: minimumChunk)
                #expect(chunks == (0..<planned.count).map(planned.range), "chunks run are the ones planned")
                let sizes = chunks.map(\.count)
                #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 >= $1 }, "\(sizes)")
                #expect(sizes.dropLast().allSatisfy { $0 >= minimumChunk }, "\(sizes)")
                #expect(
                    sizes.first! <= max(minimumChunk, (count + 2 * workers - 1) / (2 * workers)),
                    "the first chunk is a 2 × workers-th of the whole (or the minimum): \(sizes)"
                )
            } else {
                #expect(chunks.count == (count > 0 ? 1 : 0))
            }
        }
    }

    @Test("a 2048-row blur on two threads: large chunks first, then the minimum, then what is left")
    func guidedSizes() {
        let sizes = (0..<Chunks(2048, workers: 2, minimumChunk: 48).count).map {
            Chunks(2048, workers: 2, minimumChunk: 48).range($0).count
        }
        #expect(sizes == [512, 384, 288, 216, 162, 122, 91, 69, 51, 48, 48, 48, 9])
    }
}
