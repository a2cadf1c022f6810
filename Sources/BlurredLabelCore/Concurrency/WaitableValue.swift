#if canImport(Glibc)
import Glibc
#endif

/// A value shared between threads behind a lock, with a way to sleep until another thread changes
/// it: for schedulers whose threads wait for each other's work (`LevelFileScheduler`).
/// `LockedValue` has no condition to wait on (a `Mutex` has none).
///
/// `@unchecked Sendable` because `value` is guarded by the pthread mutex right here, not by the
/// type system: it is read and written only between `pthread_mutex_lock(lock)` and
/// `pthread_mutex_unlock(lock)`, in `next` and `update`. ThreadSanitizer knows pthread mutexes and
/// condition variables.
final class WaitableValue<Value>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        changed.deallocate()
    }

    /// Runs `body` with the value under the lock until it returns something, sleeping between
    /// tries until another thread changes the value; then wakes every thread waiting here (what
    /// `body` took or changed may be what they wait for).
    func next<Result>(_ body: (inout Value) -> Result?) -> Result {
        pthread_mutex_lock(lock)
        defer {
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(lock)
        }
        while true {
            if let result = body(&value) { return result }
            pthread_cond_wait(changed, lock)
        }
    }

    /// Runs `body` with the value under the lock, then wakes every thread waiting in `next`.
    func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(lock)
        defer {
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(lock)
        }
        return try body(&value)
    }
}
