import CCPUSet
import Testing

/// `bl_move_off_cpu`, which a `concurrentPerform` worker woken onto its caller's CPU uses to go
/// elsewhere (WorkerPool.swift).
@Suite("Moving a thread off a CPU")
struct MoveOffCPUTests {
    @Test("the thread leaves the CPU it ran on, and may still run on every CPU it could before")
    func leavesTheCPUKeepingItsAffinity() throws {
        let allowed = bl_allowed_cpu_count()
        try #require(allowed >= 1)
        // The kernel may move the thread between the two calls on its own (then nothing moves):
        // a few tries.
        var moved: Int32 = 0
        var left: Int32 = -1
        for _ in 0..<20 where moved == 0 {
            left = bl_current_cpu()
            moved = bl_move_off_cpu(left)
        }
        if allowed < 2 {
            #expect(moved == 0, "one CPU allowed: nowhere to go")
        } else {
            #expect(moved == 1)
            #expect(bl_current_cpu() != left)
        }
        #expect(bl_allowed_cpu_count() == allowed, "the affinity is given back whole")
    }

    @Test("nothing moves for a CPU the thread is not on, or an unknown one")
    func staysWhenNotThere() {
        let allowed = bl_allowed_cpu_count()
        #expect(bl_move_off_cpu(-1) == 0)
        #expect(bl_move_off_cpu(1 << 20) == 0)
        let here = bl_current_cpu()
        // A CPU number no thread runs on right now can only be one the thread is not on.
        #expect(bl_move_off_cpu(here + 4096) == 0)
        #expect(bl_allowed_cpu_count() == allowed)
    }
}
