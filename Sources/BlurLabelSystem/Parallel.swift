/// Runs `body` over `0..<count` split into contiguous ranges, one per worker. Each item is
/// computed the same way whatever the split, so results never depend on the thread count.
package func parallelRanges(_ count: Int, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
    let workers = max(1, min(threads, count))
    if workers == 1 {
        if count > 0 { body(0..<count) }
        return
    }
    concurrentPerform(workers) { worker in
        let start = count * worker / workers
        let end = count * (worker + 1) / workers
        if start < end { body(start..<end) }
    }
}

/// Runs `body` over `0..<count` cut into contiguous chunks, handed out one at a time to up to
/// `threads` workers, each taking the next chunk when it finishes one: a worker slowed by another
/// process on its core takes fewer chunks instead of holding up the others. Up to eight chunks a
/// worker, each at least `minimumChunk` items (for work that pays a fixed cost per chunk), and a
/// multiple of the worker count, so on an idle machine every worker gets the same share. Each
/// item is computed the same way whatever chunk it falls in, so results never depend on the split.
package func parallelChunks(_ count: Int, threads: Int, minimumChunk: Int = 1, _ body: @Sendable (Range<Int>) -> Void) {
    let workers = max(1, min(threads, count))
    if workers == 1 {
        if count > 0 { body(0..<count) }
        return
    }
    let chunks = chunkCount(count, workers: workers, minimumChunk: minimumChunk)
    let next = LockedValue(0)
    concurrentPerform(workers) { _ in
        while true {
            let chunk = next.withLock { index -> Int in
                defer { index += 1 }
                return index
            }
            guard chunk < chunks else { return }
            let range = chunkRange(chunk, of: chunks, count: count)
            if !range.isEmpty { body(range) }
        }
    }
}

/// How many chunks `parallelChunks` cuts `count` items into for `workers` workers: up to eight a
/// worker, each at least `minimumChunk` items, and a multiple of the worker count.
package func chunkCount(_ count: Int, workers: Int, minimumChunk: Int = 1) -> Int {
    let fitting = count / max(1, minimumChunk)
    return max(workers, min(8 * workers, fitting) / workers * workers)
}

/// The items of chunk `chunk` of `chunks` over `0..<count`: contiguous, in order, sizes within one.
package func chunkRange(_ chunk: Int, of chunks: Int, count: Int) -> Range<Int> {
    count * chunk / chunks..<count * (chunk + 1) / chunks
}

/// The number of threads used when the caller does not say: every core this process may use
/// (read once: asking the system reads cgroup files every time).
package let defaultThreadCount: Int = ProcessorCount.available()

/// `body` of each contiguous range of `0..<count`, one range per worker, in range order: each
/// worker keeps the result of its own range and hands it over once, when its range is done, so
/// nothing is shared while the work runs. The split depends on the thread count; callers whose
/// result must not (sums, maxima, concatenations) combine the parts in order.
package func parallelRangeMap<T: Sendable>(_ count: Int, threads: Int, _ body: @Sendable (Range<Int>) -> T) -> [T] {
    let workers = max(1, min(threads, count))
    if workers == 1 { return [body(0..<count)] }
    let finished = LockedValue([T?](repeating: nil, count: workers))
    concurrentPerform(workers) { worker in
        let start = count * worker / workers
        let end = count * (worker + 1) / workers
        let mine = body(start..<end)
        finished.withLock { $0[worker] = mine }
    }
    return finished.withLock { $0.map { $0! } }
}

/// `transform` of every index in `0..<count`, in index order, computed over `threads` workers
/// (`parallelRangeMap` over contiguous ranges, joined in order), so the result never depends on
/// the thread count.
package func parallelMap<T: Sendable>(_ count: Int, threads: Int, _ transform: @Sendable (Int) -> T) -> [T] {
    if max(1, min(threads, count)) == 1 { return (0..<count).map(transform) }
    return parallelRangeMap(count, threads: threads) { $0.map(transform) }.flatMap { $0 }
}
