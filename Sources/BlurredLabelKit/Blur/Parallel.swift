import Dispatch
import Foundation

/// Runs `body` over `0..<count` split into contiguous ranges, one per worker. Each item is
/// computed the same way whatever the split, so results never depend on the thread count.
func parallelRanges(_ count: Int, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
    let workers = max(1, min(threads, count))
    if workers == 1 {
        if count > 0 { body(0..<count) }
        return
    }
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        let start = count * worker / workers, end = count * (worker + 1) / workers
        if start < end { body(start..<end) }
    }
}

/// The number of threads used when the caller does not say: every core (read once: asking
/// the system reads cgroup files every time).
public let defaultThreadCount: Int = ProcessInfo.processInfo.activeProcessorCount
