/// A value shared between threads behind a lock, with a way to sleep until another thread changes
/// it: for schedulers whose threads wait for each other's work (`LevelFileScheduler`).
/// `LockedValue` has no condition to wait on (a `Mutex` has none).
///
/// `@unchecked Sendable` because `value` is guarded by `lock` right here, not by the type
/// system: it is read and written only while `lock` is held, in `next` and `update`.
package final class WaitableValue<Value>: @unchecked Sendable {
    private let lock = PThreadMutex()
    private let changed = PThreadCondition()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value under the lock until it returns something, sleeping between
    /// tries until another thread changes the value; then wakes every thread waiting here (what
    /// `body` took or changed may be what they wait for).
    package func next<Result>(_ body: (inout Value) -> Result?) -> Result {
        lock.lock()
        defer {
            changed.broadcast()
            lock.unlock()
        }
        while true {
            if let result = body(&value) { return result }
            changed.wait(lock)
        }
    }

    /// Runs `body` with the value under the lock, then wakes every thread waiting in `next`.
    package func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer {
            changed.broadcast()
            lock.unlock()
        }
        return try body(&value)
    }
}
