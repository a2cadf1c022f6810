import Dispatch

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

/// The number of threads used when the caller does not say: every core this process may use
/// (read once: asking the system reads cgroup files every time).
public let defaultThreadCount: Int = ProcessorCount.available()

/// `transform` of every index in `0..<count`, in index order, computed over `threads` workers.
/// Each worker keeps the results of its own contiguous range and hands them over once, after its
/// range is done; the ranges are joined in order after every worker has finished, so nothing is
/// shared while the work runs and the result never depends on the thread count.
func parallelMap<T: Sendable>(_ count: Int, threads: Int, _ transform: @Sendable (Int) -> T) -> [T] {
    let workers = max(1, min(threads, count))
    if workers == 1 { return (0..<count).map(transform) }
    let finished = LockedValue([[T]](repeating: [], count: workers))
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        let start = count * worker / workers, end = count * (worker + 1) / workers
        let mine = (start..<end).map(transform)
        finished.withLock { $0[worker] = mine }
    }
    return finished.withLock { $0.flatMap { $0 } }
}

/// One result slot per item, filled by worker threads (each item by exactly one of them); the
/// slots sit behind a lock (`LockedValue`). Prefer `parallelMap`, which takes no lock per item.
final class ParallelSlots<Value: Sendable>: Sendable {
    private let slots: LockedValue<[Value?]>

    init(count: Int) { slots = LockedValue(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: Value) {
        slots.withLock { $0[index] = value }
    }

    /// Every slot's value, in item order (all must have been set).
    var values: [Value] { slots.withLock { $0.map { $0! } } }
}
