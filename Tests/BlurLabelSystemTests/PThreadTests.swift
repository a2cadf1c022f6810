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

    /// Two workers and room for one more job: the fourth job is refused while three are taken;
    /// draining runs what was accepted.
    @Test func boundedWorkersRefuseWhenFullAndDrain() {
        let workers = BoundedWorkers(threads: 2, capacity: 1)
        let gate = WaitableValue(false)
        let ran = Atomic<Int>(0)
        let job: BoundedWorkers.Job = {
            _ = gate.next { $0 ? true : nil }
            ran.add(1, ordering: .relaxed)
        }
        #expect(workers.submit(job))
        #expect(workers.submit(job))
        // Wait until both workers hold a job, so the queue's one place is free for the third.
        while workers.depth.running < 2 { usleep(1000) }
        #expect(workers.submit(job))
        #expect(!workers.submit(job))
        gate.update { $0 = true }
        #expect(workers.drain(seconds: 10))
        #expect(ran.load(ordering: .relaxed) == 3)
        #expect(!workers.submit(job), "a drained pool takes no more")
    }
}
