/// A fixed number of threads taking jobs from a bounded queue: `submit` refuses at once when the
/// queue is full (the caller answers 503) rather than letting waiting time grow without end.
/// `runHereIfIdle` runs a job on the caller's own thread instead when a worker would take it at
/// once anyway (one is idle, nothing waits): the hand-over and its wake-ups are saved, and the
/// job counts as one of the `threads` running, so no more than `threads` jobs ever run at once.
/// `@unchecked Sendable` because its state is guarded by `lock` right here (a condition variable
/// needs a pthread mutex, and ThreadSanitizer knows both): `jobs`, `head`, `count`, `running`,
/// `stopping` and `alive` are touched only while `lock` is held.
package final class BoundedWorkers: @unchecked Sendable {
    package typealias Job = @Sendable () -> Void

    package let threads: Int
    package let capacity: Int
    private let lock = PThreadMutex()
    private let available = PThreadCondition()
    private let finished = PThreadCondition()
    /// A ring of waiting jobs.
    private var jobs: [Job?]
    private var head = 0
    private var count = 0
    private var running = 0
    private var stopping = false
    private var alive = 0

    /// `threads` workers and room for `capacity` jobs waiting (at least 1; besides those running).
    /// The workers block every signal (`PThread.detached`): SIGTERM goes to the thread that waits for it.
    package init(threads: Int, capacity: Int) {
        self.threads = max(1, threads)
        self.capacity = max(1, capacity)
        jobs = Array(repeating: nil, count: max(1, capacity))
        for _ in 0..<self.threads where PThread.detached({ [self] in work() }) {
            lock.withLock { alive += 1 }
        }
    }

    /// Jobs waiting and jobs running.
    package var depth: (waiting: Int, running: Int) {
        lock.withLock { (count, running) }
    }

    /// Queues `job` unless every worker is busy and the queue is full (or the pool is stopping);
    /// false then, and the job is not run.
    package func submit(_ job: @escaping Job) -> Bool {
        lock.withLock {
            guard !stopping, alive > 0, count < capacity else { return false }
            jobs[(head + count) % jobs.count] = job
            count += 1
            available.signal()
            return true
        }
    }

    /// Runs `job` on the calling thread, now, when a worker is idle and no job waits: it counts as
    /// running meanwhile (a worker takes a queued job only while fewer than `threads` run). Returns
    /// false, running nothing, when every worker is busy, a job waits or the pool is stopping.
    package func runHereIfIdle(_ job: () -> Void) -> Bool {
        let claimed = lock.withLock {
            guard !stopping, alive > 0, count == 0, running < threads else { return false }
            running += 1
            return true
        }
        guard claimed else { return false }
        job()
        lock.withLock {
            running -= 1
            // A queued job may wait for this place (a worker finishing a job takes the next itself).
            if count > 0 { available.signal() }
            finished.broadcast()
        }
        return true
    }

    /// Lets the queued and running jobs finish (at most `seconds`), then stops the workers.
    /// Returns whether everything finished.
    @discardableResult
    package func drain(seconds: Double) -> Bool {
        let deadline = PThread.deadline(after: seconds)
        return lock.withLock {
            stopping = true
            available.broadcast()
            while count > 0 || running > 0 {
                if !finished.wait(lock, until: deadline) { break }
            }
            return count == 0 && running == 0
        }
    }

    /// A worker: runs jobs until the pool stops and the queue is empty. The thread's closure
    /// holds the pool, so it lives as long as a worker does.
    private func work() {
        lock.workerLoop(
            waitingOn: available,
            next: { () -> WorkerStep<Job> in
                guard count > 0 else {
                    guard stopping else { return .wait }
                    alive -= 1
                    return .stop
                }
                // A job runs only while fewer than `threads` run (`runHereIfIdle`'s count too).
                guard running < threads else { return .wait }
                let job = jobs[head]!
                jobs[head] = nil
                head = (head + 1) % jobs.count
                count -= 1
                running += 1
                return .run(job)
            },
            run: { job in job() },
            finished: { _ in
                running -= 1
                finished.broadcast()
            }
        )
    }
}
