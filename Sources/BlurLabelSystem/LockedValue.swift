import CThreadSanitizer
import Synchronization

/// A value shared between threads behind a lock: the package's one way to share mutable state
/// (everything else is owned by one worker and merged after the join).
///
/// It is a `Mutex` (Synchronization) that also tells ThreadSanitizer about each critical section.
/// `Mutex` waits in the kernel (a futex) from libswiftSynchronization, which is not compiled with
/// TSan, so under contention TSan sees no release and no acquire and reports the guarded value as
/// raced. The calls (`CThreadSanitizer`) use TSan's mutex annotations in a `--sanitize=thread`
/// build and are empty functions otherwise; the lock object's address names the mutex. See
/// docs/DESIGN.md, "Concurrency and ThreadSanitizer".
package final class LockedValue<Value>: Sendable {
    private let mutex: Mutex<Value>

    package init(_ value: sending Value) {
        mutex = Mutex(value)
        bl_tsan_lock_created(identity)
    }

    deinit { bl_tsan_lock_destroyed(identity) }

    /// The lock's name for ThreadSanitizer: this object's address.
    private var identity: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Runs `body` with the value while holding the lock.
    package func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let identity = self.identity
        bl_tsan_before_lock(identity)
        defer { bl_tsan_after_unlock(identity) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            bl_tsan_after_lock(identity)
            defer { bl_tsan_before_unlock(identity) }
            return try body(&value)
        }
    }
}
