import Foundation
import Testing

@testable import BlurredLabelCore

@Suite("Worker pool (concurrentPerform without libdispatch)")
struct WorkerPoolTests {
    /// How many times each index ran.
    private func tally(_ count: Int, _ run: (@escaping @Sendable (Int) -> Void) -> Void) -> [Int] {
        let seen = LockedValue([Int](repeating: 0, count: count))
        run { index in seen.withLock { $0[index] += 1 } }
        return seen.withLock { $0 }
    }

    @Test("every index runs exactly once", arguments: [0, 1, 2, 3, 7, 64, 300])
    func everyIndexOnce(count: Int) {
        let counts = tally(count) { body in concurrentPerform(count, body) }
        #expect(counts == [Int](repeating: 1, count: count))
    }

    @Test("the items really run at the same time: four wait for each other and all arrive")
    func itemsRunTogether() {
        let arrived = LockedValue(0)
        let allArrived = LockedValue(true)
        concurrentPerform(4) { _ in
            arrived.withLock { $0 += 1 }
            let deadline = Date().addingTimeInterval(20)
            while arrived.withLock({ $0 }) < 4 {
                if Date() > deadline {
                    allArrived.withLock { $0 = false }
                    return
                }
                sched_yield()
            }
        }
        #expect(allArrived.withLock { $0 } && arrived.withLock { $0 } == 4)
    }

    @Test("calls nest, and come from several threads at once, without waiting on each other")
    func nestedAndConcurrentCalls() {
        let counts = tally(6 * 40 * 5) { body in
            concurrentPerform(6) { outer in
                for round in 0..<40 {
                    concurrentPerform(5) { inner in body((outer * 40 + round) * 5 + inner) }
                }
            }
        }
        #expect(counts.allSatisfy { $0 == 1 })
    }

    @Test(
        "with callerRunsItems: false every item runs on a worker and the call still waits for all",
        arguments: [1, 2, 5]
    )
    func callerOnlyWaits(count: Int) {
        let caller = pthread_self()
        let onCaller = LockedValue(0)
        let done = LockedValue(0)
        concurrentPerform(count, callerRunsItems: false) { _ in
            if pthread_equal(pthread_self(), caller) != 0 { onCaller.withLock { $0 += 1 } }
            usleep(20_000)
            done.withLock { $0 += 1 }
        }
        #expect(onCaller.withLock { $0 } == 0 && done.withLock { $0 } == count)
    }

    @Test("workers block Ctrl-C and SIGTERM, so a stop signal reaches the program's own threads")
    func workersBlockStopSignals() {
        let caller = pthread_self()
        let unblockedWorkers = LockedValue(0)
        concurrentPerform(6) { _ in
            guard pthread_equal(pthread_self(), caller) == 0 else { return }
            var mask = sigset_t()
            pthread_sigmask(SIG_SETMASK, nil, &mask)
            if sigismember(&mask, SIGINT) != 1 || sigismember(&mask, SIGTERM) != 1 {
                unblockedWorkers.withLock { $0 += 1 }
            }
        }
        #expect(unblockedWorkers.withLock { $0 } == 0)
    }

    @Test func parallelHelpersGiveTheSameResultsAsOneThread() {
        let one = parallelMap(1000, threads: 1) { $0 * $0 }
        #expect(parallelMap(1000, threads: 7) { $0 * $0 } == one)
        let sums = LockedValue(0)
        parallelChunks(1000, threads: 5, minimumChunk: 3) { range in
            let s = range.reduce(0, +)
            sums.withLock { $0 += s }
        }
        #expect(sums.withLock { $0 } == 999 * 1000 / 2)
    }
}
