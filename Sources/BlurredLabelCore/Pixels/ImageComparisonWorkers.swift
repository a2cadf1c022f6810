/// Runs a body over contiguous row ranges on worker threads, each worker owning its own result;
/// the results come back in worker order after the join. Nothing mutable is shared while the
/// workers run: each hands its one result to a locked list (`LockedValue`) when it is done.
enum WorkerResults {
    static func map<Result: Sendable>(
        rows: Int,
        threads: Int,
        _ body: @Sendable (Range<Int>) -> Result
    ) -> [Result] {
        let workers = max(1, min(threads, rows))
        if workers == 1 { return [body(0..<rows)] }
        let finished = LockedValue<[(worker: Int, result: Result)]>([])
        concurrentPerform(workers) { worker in
            let start = rows * worker / workers
            let end = rows * (worker + 1) / workers
            let result = body(start..<end)
            finished.withLock { $0.append((worker, result)) }
        }
        return finished.withLock { list in list.sorted { $0.worker < $1.worker }.map(\.result) }
    }
}
