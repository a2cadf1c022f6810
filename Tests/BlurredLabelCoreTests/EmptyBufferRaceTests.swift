import Dispatch
import Testing

@testable import BlurredLabelCore

/// Empty pictures made on several threads at once. `[UInt8](unsafeUninitializedCapacity: 0)`
/// writes its count into the Swift runtime's one shared empty-array object, so two threads doing
/// it together are a data race; CI's ThreadSanitizer run caught two tests overlapping that way by
/// chance. Here the overlap is made on purpose, many times, so `scripts/checks/test-tsan` reports it every
/// run if any path builds an empty array like that again.
@Suite("Empty buffers made concurrently")
struct EmptyBufferRaceTests {
    @Test func emptyImagesMasksAndPNGsOnManyThreads() {
        let rounds = 400
        let failures = DispatchQueue.concurrentPerform(threads: 4) { worker -> Int in
            var failures = 0
            for round in 0..<rounds {
                do {
                    let empty = try Image(width: 0, height: 5 + worker, fill: .white)
                    let flat = try Image(width: 7, height: 0)
                    let mask = try CoverageMask(width: 0, height: round % 3)
                    let crop = try Image(width: 4, height: 4, fill: .black)
                        .cropped(to: Redaction.Rect(x: 1, y: 1, width: 0, height: 2))
                    let bytes = [UInt8].uninitialized(count: 0) { _, count in count = 0 }
                    if !(empty.pixels.isEmpty && flat.pixels.isEmpty && mask.values.isEmpty && crop.pixels.isEmpty
                        && bytes.isEmpty)
                    {
                        failures += 1
                    }
                    // An empty picture is no PNG: refused, after the encoder has looked at it.
                    if (try? PNGEncoder().encode(empty)) != nil { failures += 1 }
                } catch {
                    failures += 1
                }
            }
            return failures
        }
        #expect(failures == 0)
    }
}

extension DispatchQueue {
    /// `body` run on `threads` threads at once; the sum of what they return.
    fileprivate static func concurrentPerform(threads: Int, _ body: @Sendable (Int) -> Int) -> Int {
        let results = LockedValue([Int](repeating: 0, count: threads))
        concurrentPerform(iterations: threads) { worker in
            let value = body(worker)
            results.withLock { $0[worker] = value }
        }
        return results.withLock { $0.reduce(0, +) }
    }
}
