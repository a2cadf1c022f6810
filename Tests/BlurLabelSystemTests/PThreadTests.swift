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
}
