import Testing

@testable import BlurredLabelCore

/// `parallelChunks` and `Chunks` (BlurLabelSystem/Parallel.swift): every item exactly once, in
/// contiguous chunks sized as documented (guided: a share of what is left, never under the
/// minimum but for the last), whatever the thread count.
@Suite("Parallel chunks")
struct ParallelChunksTests {
    @Test(
        "every item once, chunks contiguous, shrinking or equal, at least the minimum but for the last",
        arguments: [0, 1, 7, 100, 2048],
        [1, 48, 672, 5000]
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
                if count >= Chunks.guidedFrom * workers * minimumChunk {
                    #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 >= $1 }, "shrinking: \(sizes)")
                    #expect(sizes.dropLast().allSatisfy { $0 >= minimumChunk }, "\(sizes)")
                    #expect(
                        sizes.first! <= max(minimumChunk, (count + 2 * workers - 1) / (2 * workers)),
                        "the first chunk is a 2 × workers-th of the whole (or the minimum): \(sizes)"
                    )
                } else {
                    #expect(sizes.max()! - sizes.min()! <= 1, "equal: \(sizes)")
                    #expect(sizes.count % workers == 0 && (sizes.count == workers || sizes.min()! >= minimumChunk))
                }
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

extension ParallelChunksTests {
    @Test("a σ 8 blur's rows (minimum 672) on two threads: two equal chunks, not a third left to one")
    func equalWhenTheMinimumIsLarge() {
        let chunks = Chunks(2048, workers: 2, minimumChunk: 672)
        #expect((0..<chunks.count).map(chunks.range) == [0..<1024, 1024..<2048])
        #expect(Chunks(0, workers: 2, minimumChunk: 672).count == 0)
        #expect(Chunks(1, workers: 2, minimumChunk: 672).count == 1)
    }
}
