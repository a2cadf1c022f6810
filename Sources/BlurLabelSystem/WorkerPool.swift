import CCPUSet

/// Calls `body(0)`, …, `body(count - 1)` at the same time, on the calling thread and on worker
/// threads the package keeps for the life of the process, and returns when every call has
/// returned: what `DispatchQueue.concurrentPerform` does, without libdispatch. Linking
/// libdispatch (and Swift Concurrency, which needs it on Linux) into the command-line tool cost
/// every process start about 35 page faults and 0.1 M instructions (Benchmarks/README.md, "One label per
/// process"); the blur, PNG, comparison and batch code need only this.
///
/// Calls may nest (a worker's `body` may call this again) and may come from several threads at
/// once: each caller runs the items of its own call that no worker has taken, then waits only for
/// items already running, so a call never waits for a worker that is busy elsewhere.
///
/// With `callerRunsItems: false` the caller only waits (in a condition wait) while workers run
/// every item: for long runs whose stop signals must always find a thread ready to take them
/// (`batch`). Workers block those signals; a caller that could instead sit in an uninstrumented
/// lock wait would, in a ThreadSanitizer build, hold a Ctrl-C back for as long as it waits.
///
/// `promptly` (with the caller running items): the items are long, a millisecond or more, and
/// every worker should start on one at once. The kernel places a woken thread on the CPU of the
/// thread that woke it when the CPU it last ran on looks busy or asleep (a virtual machine's
/// halted vCPU), and the two then share one CPU for milliseconds while another idles; so the
/// caller yields once after waking sleeping workers, and a worker that finds itself on the
/// caller's CPU moves to another before it runs an item. That costs the caller some tens of
/// microseconds: short items are better off without it.
package func concurrentPerform(
    _ count: Int,
    callerRunsItems: Bool = true,
    promptly: Bool = false,
    _ body: @Sendable (Int) -> Void
) {
    if count <= 0 { return }
    if count == 1 && callerRunsItems {
        body(0)
        return
    }
    WorkerPool.shared.perform(count, callerRunsItems: callerRunsItems, promptly: promptly && callerRunsItems, body)
}

/// One `concurrentPerform` call: its items are taken in order, each by exactly one thread.
/// Every field is read and written only while holding the pool's lock.
private final class PoolJob {
    let count: Int
    /// The caller's `body`, on the caller's stack for as long as the call lasts.
    let body: UnsafeRawPointer
    /// For a `promptly` job, the CPU the caller ran on when it posted the job (otherwise, or
    /// unknown, -1): a worker that finds itself there moves off it before it runs an item.
    let callerCPU: Int32
    var next = 0
    var running = 0

    init(count: Int, body: UnsafeRawPointer, promptly: Bool) {
        self.count = count
        self.body = body
        callerCPU = promptly ? bl_current_cpu() : -1
    }

    func call(_ index: Int) {
        body.assumingMemoryBound(to: (@Sendable (Int) -> Void).self).pointee(index)
    }
}

/// The worker threads and the jobs waiting for them. `@unchecked Sendable` because its state is
/// guarded by `lock` right here (a condition variable needs a pthread mutex; TSan knows both),
/// not by the type system: `pending` and `threads`, and every `PoolJob`'s fields, are touched only
/// while `lock` is held.
private final class WorkerPool: @unchecked Sendable {
    static let shared = WorkerPool()

    /// Most worker threads kept (a call asking for more items still runs them all, in turns).
    static let maximumThreads = 255

    private let lock = PThreadMutex()
    private let workAvailable = PThreadCondition()
    private let itemFinished = PThreadCondition()
    private var pending: [PoolJob] = []
    private var threads = 0
    /// Workers asleep in `workAvailable`'s wait.
    private var sleeping = 0

    private init() {}

    func perform(_ count: Int, callerRunsItems: Bool, promptly: Bool, _ body: @Sendable (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            withUnsafePointer(to: body) { pointer in
                let job = PoolJob(count: count, body: UnsafeRawPointer(pointer), promptly: promptly)
                lock.lock()
                startThreads(upTo: min(callerRunsItems ? count - 1 : count, Self.maximumThreads))
                pending.append(job)
                let wakes = sleeping > 0
                workAvailable.broadcast()
                if wakes && promptly {
                    // A worker woken onto this CPU waits behind the caller until its time slice
                    // ends (milliseconds); yielding lets it run now, see that, and move.
                    lock.unlock()
                    sched_yield()
                    lock.lock()
                }
                // With no worker at all (the system refused threads) the caller runs the items anyway.
                while (callerRunsItems || threads == 0) && job.next < job.count {
                    let index = take(from: job)
                    lock.unlock()
                    job.call(index)
                    lock.lock()
                    job.running -= 1
                }
                while job.next < job.count || job.running > 0 { itemFinished.wait(lock) }
                lock.unlock()
            }
        }
    }

    /// The job's next item, marked running; a job with nothing left to take leaves `pending`.
    /// Called with the lock held.
    private func take(from job: PoolJob) -> Int {
        let index = job.next
        job.next += 1
        job.running += 1
        if job.next == job.count, let position = pending.firstIndex(where: { $0 === job }) {
            pending.remove(at: position)
        }
        return index
    }

    /// Starts threads until there are `wanted`. Called with the lock held. The workers block
    /// every signal (`PThread.detached`): a Ctrl-C or SIGTERM goes to a thread of the program's
    /// own, never to a worker asleep in its condition wait (where a ThreadSanitizer build would
    /// hold the handler back until the worker next wakes).
    private func startThreads(upTo wanted: Int) {
        while threads < wanted {
            // `shared` lives as long as the process. No more threads: the callers run the items.
            guard PThread.detached({ [self] in work() }) else { return }
            threads += 1
        }
    }

    /// A worker thread: takes the oldest waiting job's next item, runs it, and so on; sleeps when
    /// there is none.
    private func work() {
        var asleep = false
        lock.workerLoop(
            waitingOn: workAvailable,
            next: { () -> WorkerStep<(PoolJob, Int)> in
                if asleep {
                    sleeping -= 1
                    asleep = false
                }
                guard let job = pending.first else {
                    sleeping += 1
                    asleep = true
                    return .wait
                }
                return .run((job, take(from: job)))
            },
            run: { job, index in
                if job.callerCPU >= 0 { _ = bl_move_off_cpu(job.callerCPU) }
                job.call(index)
            },
            finished: { job, _ in
                job.running -= 1
                if job.running == 0 && job.next == job.count { itemFinished.broadcast() }
            }
        )
    }
}
