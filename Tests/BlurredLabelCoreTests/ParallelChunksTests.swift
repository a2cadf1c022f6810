import Testing

@testable import BlurredLabelCore

/// `parallelChunks` (BlurLabelSystem/Parallel.swift): every item exactly once, in contiguous chunks sized as
/// documented, whatever the thread count.
@Suite("Parallel chunks")
struct ParallelChunksTests {
    @Test(
        "every item once, chunks contiguous, a multiple of the workers, at least the minimum",
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
            let workers = max(1, min(threads, count))
            if workers > 1 {
                #expect(
                    chunks.count % workers == 0 && chunks.count <= 8 * workers,
                    "\(chunks.count) chunks for \(workers) workers"
                )
                if chunks.count > workers {
                    #expect(
                        chunks.allSatisfy { $0.count >= minimumChunk },
                        "count \(count) threads \(threads): \(chunks)"
                    )
                }
            } else {
                #expect(chunks.count == (count > 0 ? 1 : 0))
            }
        }
    }
}
