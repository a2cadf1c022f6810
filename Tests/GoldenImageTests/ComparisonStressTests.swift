import BlurredLabelCore
import Foundation
import Synchronization
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
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for i in 0..<(width * height) where i % 3 == 0 {
            let v = next()
            a[byte: i * 4] = v
            a[byte: i * 4 + 1] = v
            a[byte: i * 4 + 2] = v
        }
        var b = a
        for i in 0..<(width * height) {
            switch next() % 8 {
            case 0:
                b[byte: i * 4] = next()
                b[byte: i * 4 + 1] = next()
            case 1: b[byte: i * 4 + 2] = b.pixels[i * 4 + 2] &+ 3
            default: break
            }
        }
        return (a, b)
    }

    struct Counts: Equatable, Sendable {
        let different: Int, antialiased: Int, changed: Int, maxDistance: Double, diff: [UInt8]
        /// With `picture`, also the diff picture (every pixel's class), which costs more.
        init(_ comparison: ImageComparison, _ a: Image, _ b: Image, picture: Bool = true) throws {
            let result = try comparison.compare(expected: a, actual: b)
            different = result.differentPixels
            antialiased = result.antialiasedPixels
            changed = result.changedPixels
            maxDistance = result.maxDistance
            diff = picture ? try comparison.diffImage(expected: a, result: result).pixels : []
        }
    }

    /// Runs `body` on `count` Foundation threads at once and waits for all. Plain threads, not
    /// tasks: `DispatchQueue.concurrentPerform` called from Swift concurrency's cooperative pool
    /// may run its iterations one after another, which would hide a race between workers.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            let thread = Thread {
                body()
                done.signal()
            }
            thread.start()
        }
        for _ in 0..<count { done.wait() }
    }

    @Test(
        "2,400 comparisons (3 threads × 200 for each worker count), all equal the single-threaded result",
        arguments: [2, 3, 4, 8]
    )
    func everySplitGivesTheSameCounts(threads: Int) throws {
        let (a, b) = try Self.pair(width: 8, height: 400)
        let single = ImageComparison(threshold: 0.05, threads: 1)
        let reference = try Counts(single, a, b)
        let counts = try Counts(single, a, b, picture: false)
        #expect(reference.different > 0 && reference.antialiased > 0)
        let comparison = ImageComparison(threshold: 0.05, threads: threads)
        let mismatches = LockedValue(0)
        Self.onThreads(3) {
            for run in 0..<200 {
                let picture = run % 20 == 0
                if (try? Counts(comparison, a, b, picture: picture)) != (picture ? reference : counts) {
                    mismatches.withLock { $0 += 1 }
                }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}
