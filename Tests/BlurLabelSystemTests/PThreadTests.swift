import BlurLabelSystem
import Synchronization
import Testing

/// The checked pthread wrappers and what is built on them: a mutex that guards, a condition that
/// wakes and times out, detached threads, `WaitableValue` and `BoundedWorkers`.
@Suite("pthread wrappers")
struct PThreadTests {
    /// Four threads adding under the mutex: no increment lost (ThreadSanitizer checks the rest).
    @Test func theMutexGuards() {
        final class Counter: @unchecked Sendable {  // `value` only under `lock`
            let lock = PThreadMutex()
            var value = 0
        }
        let counter = Counter()
        concurrentPerform(4) { _ in
            for _ in 0..<10_000 { counter.lock.withLock { counter.value += 1 } }
        }
        #expect(counter.lock.withLock { counter.value } == 40_000)
    }

    @Test func aTimedWaitEndsAtItsDeadline() {
        let mutex = PThreadMutex()
        let condition = PThreadCondition()
        let started = ContinuousClock.now
        let woken = mutex.withLock { condition.wait(mutex, until: PThread.deadline(after: 0.05)) }
        #expect(!woken)
        #expect(ContinuousClock.now - started >= .milliseconds(45))
    }

    /// A detached thread runs its body; `WaitableValue.next` sleeps until another thread's update.
    @Test func aDetachedThreadWakesAWaiter() {
        let value = WaitableValue(0)
        #expect(PThread.detached { value.update { $0 = 7 } })
        let seen = value.next { $0 == 7 ? $0 : nil }
        #expect(seen == 7)
    }

    /// Two workers and room for one more job: with both workers busy and one job waiting, the
    /// next is refused; draining runs what was accepted.
    @Test func boundedWorkersRefuseWhenFullAndDrain() throws {
        let workers = BoundedWorkers(threads: 2, capacity: 1)
        let gate = WaitableValue(false)
        let ran = Atomic<Int>(0)
        let job: BoundedWorkers.Job = {
            _ = gate.next { $0 ? true : nil }
            ran.add(1, ordering: .relaxed)
        }
        /// Waits (at most 10 s) until `count` jobs run.
        func waitUntilRunning(_ count: Int) throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while workers.depth.running < count {
                try #require(ContinuousClock.now < deadline, "\(count) jobs never ran: \(workers.depth)")
                usleep(1000)
            }
        }
        #expect(workers.submit(job))
        try waitUntilRunning(1)
        #expect(workers.submit(job))
        try waitUntilRunning(2)
        #expect(workers.submit(job))
        #expect(!workers.submit(job), "both workers busy and the queue full")
        gate.update { $0 = true }
        #expect(workers.drain(seconds: 10))
        #expect(ran.load(ordering: .relaxed) == 3)
        #expect(!workers.submit(job), "a drained pool takes no more")
    }

    /// A job run on the caller's thread counts as one of the workers': with one worker and a
    /// job running here, a submitted job waits in the queue until it ends (never two at once);
    /// while a worker is busy or a job waits, nothing runs here; a stopped pool runs nothing here.
    @Test func aJobRunHereTakesAWorkersPlace() throws {
        let workers = BoundedWorkers(threads: 1, capacity: 2)
        let gate = WaitableValue(false)
        let running = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        let ran = Atomic<Int>(0)
        let job: BoundedWorkers.Job = {
            let now = running.add(1, ordering: .relaxed).newValue
            _ = most.max(now, ordering: .relaxed)
            _ = gate.next { $0 ? true : nil }
            running.subtract(1, ordering: .relaxed)
            ran.add(1, ordering: .relaxed)
        }
        var here: pthread_t?
        let caller = pthread_self()
        let ranHere = workers.runHereIfIdle {
            here = pthread_self()
            #expect(workers.depth.running == 1)
            // The only worker's place is taken: a submitted job is queued, not run.
            #expect(workers.submit(job))
            usleep(50_000)
            #expect(workers.depth == (waiting: 1, running: 1))
            #expect(!workers.runHereIfIdle {}, "no place left for a second job here")
        }
        #expect(ranHere)
        #expect(here == caller, "run on the calling thread")
        // Its place is free again: the queued job starts on the worker.
        let deadline = ContinuousClock.now + .seconds(10)
        while workers.depth.running < 1 {
            try #require(ContinuousClock.now < deadline, "the queued job never ran: \(workers.depth)")
            usleep(1000)
        }
        #expect(!workers.runHereIfIdle {}, "the worker is busy")
        gate.update { $0 = true }
        #expect(workers.drain(seconds: 10))
        #expect(ran.load(ordering: .relaxed) == 1)
        #expect(most.load(ordering: .relaxed) == 1)
        #expect(!workers.runHereIfIdle {}, "a drained pool runs nothing")
    }
}
