import BlurredLabelCore
import Foundation
import Testing

/// `LockedValue` under contention: every thread waits for the lock while another holds it (the
/// sleep inside), which is the case where a bare `Mutex` waits in the kernel and ThreadSanitizer
/// would see no synchronization. Here nothing may be lost, and under `scripts/checks/test-tsan` nothing
/// may be reported.
@Suite("LockedValue")
struct LockedValueTests {
    @Test func contendedUpdatesAreNeitherLostNorReported() {
        let list = LockedValue<[Int]>([])
        let total = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<50 {
                list.withLock { list in
                    list.append(worker * 1000 + i)
                    usleep(100)
                }
                total.withLock { $0 += 1 }
            }
        }
        let values = list.withLock { $0 }
        #expect(values.count == 200 && Set(values).count == 200)
        #expect(total.withLock { $0 } == 200)
    }

    @Test func errorsThrownInsideLeaveTheLockFree() {
        struct Refused: Error {}
        let value = LockedValue(1)
        #expect(throws: Refused.self) { try value.withLock { _ in throw Refused() } }
        #expect(
            value.withLock {
                $0 += 1
                return $0
            } == 2
        )
    }
}
