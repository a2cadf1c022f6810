/// What a worker thread does next, decided while it holds its pool's lock.
package enum WorkerStep<Work> {
    /// Run this, with the lock released.
    case run(Work)
    /// Nothing to take: sleep until the pool's condition is signalled.
    case wait
    /// The pool is stopping: leave the loop.
    case stop
}

extension PThreadMutex {
    /// The loop of a worker thread of a pool guarded by this mutex (`BoundedWorkers` and the worker
    /// pool behind `concurrentPerform`): with the lock held, `next` says what to do; work runs
    /// with it released, then `finished` records it with the lock held again; `.wait` sleeps on
    /// `available`. Returns when `next` says `.stop`, with the lock released.
    package func workerLoop<Work>(
        waitingOn available: PThreadCondition,
        next: () -> WorkerStep<Work>,
        run: (Work) -> Void,
        finished: (Work) -> Void
    ) {
        lock()
        loop: while true {
            switch next() {
            case .wait:
                available.wait(self)
            case .stop:
                break loop
            case .run(let work):
                unlock()
                run(work)
                lock()
                finished(work)
            }
        }
        unlock()
    }
}
