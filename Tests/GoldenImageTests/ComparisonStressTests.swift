import BlurredLabelKit
import Foundation
import Testing

/// The comparison splits rows between worker threads; these runs pin that the counts never depend
/// on the split and that concurrent comparisons cannot corrupt one another (a shared, unlocked
/// tally once crashed `blurlabel diff` about once in a thousand runs).
@Suite("Image comparison under concurrency")
struct ComparisonStressTests {
    /// A noisy pair with hard differences, small ones under the threshold and anti-aliased edges.
    static func pair(width: Int = 96, height: Int = 61) throws -> (Image, Image) {
        var a = try Image(width: width, height: height, fill: .white)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 { state = state &* 6364136223846793005 &+ 1442695040888963407; return UInt8(truncatingIfNeeded: state >> 56) }
        for i in 0..<(width * height) where i % 3 == 0 {
            let v = next(); a.pixels[i * 4] = v; a.pixels[i * 4 + 1] = v; a.pixels[i * 4 + 2] = v
        }
        var b = a
        for i in 0..<(width * height) {
            switch next() % 8 {
            case 0: b.pixels[i * 4] = next(); b.pixels[i * 4 + 1] = next()
            case 1: b.pixels[i * 4 + 2] = b.pixels[i * 4 + 2] &+ 3
            default: break
            }
        }
        return (a, b)
    }

    struct Counts: Equatable, Sendable {
        let different: Int, antialiased: Int, maxDistance: Double, diff: [UInt8]
        init(_ comparison: ImageComparison, _ a: Image, _ b: Image) throws {
            let result = try comparison.compare(expected: a, actual: b)
            different = result.differentPixels; antialiased = result.antialiasedPixels; maxDistance = result.maxDistance
            diff = try comparison.diffImage(expected: a, result: result).pixels
        }
    }

    @Test("2,048 comparisons (8 tasks × 64 × 4 thread counts), run concurrently, all equal the single-threaded count",
          arguments: [2, 3, 4, 8])
    func everySplitGivesTheSameCounts(threads: Int) async throws {
        let (a, b) = try Self.pair()
        let reference = try Counts(ImageComparison(threshold: 0.05, threads: 1), a, b)
        #expect(reference.different > 0 && reference.antialiased > 0)
        let comparison = ImageComparison(threshold: 0.05, threads: threads)
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var bad = 0
                    for _ in 0..<64 where try Counts(comparison, a, b) != reference { bad += 1 }
                    return bad
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
