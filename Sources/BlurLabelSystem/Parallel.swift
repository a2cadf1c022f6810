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

/// Runs `body` over `0..<count` cut into contiguous chunks (`Chunks`), handed out in order, one at
/// a time, to up to `threads` workers, each taking the next chunk when it finishes one: a worker
/// slowed by another process on its core, or started late, takes fewer chunks instead of holding
/// up the others. Each item is computed the same way whatever chunk it falls in, so results never
/// depend on the split. `promptly`: the work is long enough (a millisecond or more a worker) to
/// have every worker start at once (see `concurrentPerform`).
package func parallelChunks(
    _ count: Int,
    threads: Int,
    minimumChunk: Int = 1,
    promptly: Bool = false,
    _ body: @Sendable (Range<Int>) -> Void
) {
    let workers = max(1, min(threads, count))
    if workers == 1 {
        if count > 0 { body(0..<count) }
        return
    }
    let chunks = Chunks(count, workers: workers, minimumChunk: minimumChunk)
    let next = LockedValue(0)
    concurrentPerform(workers, promptly: promptly) { _ in
        while true {
            let chunk = next.withLock { index -> Int in
                defer { index += 1 }
                return index
            }
            guard chunk < chunks.count else { return }
            body(chunks.range(chunk))
        }
    }
}

/// How `parallelChunks` and `LevelFileScheduler` cut `count` items for `workers` workers: guided
/// self-scheduling, each chunk a share of what is left (a `2 × workers`th, rounded up) and at
/// least `minimumChunk` items (for work with a fixed cost a chunk; the last chunk takes what
/// remains). Large chunks come first, where that fixed cost would weigh, and small ones last, so
/// the workers finish close together: with equal chunks one waited half a chunk on average (a
/// 2048² σ 1 blur on two threads: 16 chunks of 0.3 ms; Benchmarks/README.md, issue 44). Where
/// `count` holds fewer than `guidedFrom` minimum chunks a worker, equal chunks, as many as fit,
/// a multiple of the workers (a σ 8 blur's minimum is 672 rows: shrinking chunks left one
/// worker a third of a 2048-row picture alone). One worker: one chunk.
package struct Chunks: Sendable {
    /// Where each chunk starts, then `count`: chunk `i` is `bounds[i]..<bounds[i + 1]`.
    package let bounds: [Int]

    package init(_ count: Int, workers: Int, minimumChunk: Int = 1) {
        guard count > 0, workers > 1 else {
            self.bounds = count > 0 ? [0, count] : [0]
            return
        }
        var bounds = [0]
        let minimumChunk = max(1, minimumChunk)
        if count < Self.guidedFrom * workers * minimumChunk {
            // Too few minimum chunks for shrinking ones to pay: equal chunks, a multiple of the
            // workers (each worker one, for the largest minimum chunks).
            let chunks = min(count, max(workers, count / minimumChunk / workers * workers))
            for chunk in 1...chunks { bounds.append(count * chunk / chunks) }
        } else {
            let share = 2 * workers
            while bounds.last! < count {
                let left = count - bounds.last!
                bounds.append(bounds.last! + min(left, max(minimumChunk, (left + share - 1) / share)))
            }
        }
        self.bounds = bounds
    }

    /// No chunks (nothing to do).
    package static let none = Chunks(0, workers: 1)

    /// Chunks shrink only when there is room for this many minimum chunks a worker.
    package static let guidedFrom = 4

    /// How many chunks there are.
    package var count: Int { bounds.count - 1 }

    /// The items of chunk `chunk`.
    package func range(_ chunk: Int) -> Range<Int> { bounds[chunk]..<bounds[chunk + 1] }
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
