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

/// One result slot per item, filled by worker threads (each item by exactly one of them).
final class ParallelSlots<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) {
        lock.lock(); slots[index] = value; lock.unlock()
    }

    /// Every slot's value, in item order (all must have been set).
    var values: [Value] { slots.map { $0! } }
}
