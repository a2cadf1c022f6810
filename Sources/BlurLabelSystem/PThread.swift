/// A pthread mutex whose every call is checked: a failure is a bug in the caller (unlocking a
/// mutex it does not hold, destroying one in use), so it stops the process with the call's name
/// and error rather than going on with shared state unguarded. Debug builds make it an
/// error-checking mutex, which reports a relock or a foreign unlock instead of deadlocking.
///
/// A `Mutex` (Synchronization) cannot be waited on; this one can, with `PThreadCondition`.
/// ThreadSanitizer knows pthread mutexes and conditions.
package final class PThreadMutex: @unchecked Sendable {  // the pthread object is the lock itself
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() {
        var attributes = pthread_mutexattr_t()
        PThread.check("pthread_mutexattr_init", pthread_mutexattr_init(&attributes))
        #if DEBUG
        PThread.check(
            "pthread_mutexattr_settype",
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        )
        #endif
        PThread.check("pthread_mutex_init", pthread_mutex_init(mutex, &attributes))
        PThread.check("pthread_mutexattr_destroy", pthread_mutexattr_destroy(&attributes))
    }

    deinit {
        PThread.check("pthread_mutex_destroy", pthread_mutex_destroy(mutex))
        mutex.deallocate()
    }

    package func lock() { PThread.check("pthread_mutex_lock", pthread_mutex_lock(mutex)) }
    package func unlock() { PThread.check("pthread_mutex_unlock", pthread_mutex_unlock(mutex)) }

    /// `body`'s result, run holding the mutex.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A pthread condition variable, every call checked (see `PThreadMutex`).
package final class PThreadCondition: @unchecked Sendable {  // the pthread object does its own locking
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() { PThread.check("pthread_cond_init", pthread_cond_init(condition, nil)) }

    deinit {
        PThread.check("pthread_cond_destroy", pthread_cond_destroy(condition))
        condition.deallocate()
    }

    /// Sleeps until signalled (or woken spuriously); `mutex` must be held, and is again on return.
    package func wait(_ mutex: PThreadMutex) {
        PThread.check("pthread_cond_wait", pthread_cond_wait(condition, mutex.mutex))
    }

    /// As `wait`, but no later than `deadline` (`CLOCK_REALTIME`); false when that came first.
    package func wait(_ mutex: PThreadMutex, until deadline: timespec) -> Bool {
        var deadline = deadline
        let result = pthread_cond_timedwait(condition, mutex.mutex, &deadline)
        if result == ETIMEDOUT { return false }
        PThread.check("pthread_cond_timedwait", result)
        return true
    }

    package func signal() { PThread.check("pthread_cond_signal", pthread_cond_signal(condition)) }
    package func broadcast() { PThread.check("pthread_cond_broadcast", pthread_cond_broadcast(condition)) }
}

/// Threads, and the checks on the pthread calls.
package enum PThread {
    /// Stops the process when a pthread call failed (`result` is its error number).
    @inline(__always)
    package static func check(_ call: StaticString, _ result: Int32) {
        if result != 0 { fail(call, result) }
    }

    private static func fail(_ call: StaticString, _ result: Int32) -> Never {
        fatalError("\(call) failed: \(systemErrorText(result))")
    }

    /// Starts a detached thread that runs `body`, with every signal that can be blocked blocked
    /// (as libdispatch's workers do): a Ctrl-C or SIGTERM goes to a thread of the program's own,
    /// never to a worker asleep in a condition wait. False when the system refused the thread.
    package static func detached(_ body: @escaping @Sendable () -> Void) -> Bool {
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        check("pthread_sigmask", pthread_sigmask(SIG_SETMASK, &all, &previous))
        defer { check("pthread_sigmask", pthread_sigmask(SIG_SETMASK, &previous, nil)) }
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let made = pthread_create(
            &thread,
            nil,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            },
            context
        )
        guard made == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        check("pthread_detach", pthread_detach(thread))
        return true
    }

    /// A thread's body, boxed to travel through `pthread_create`'s context pointer.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// `seconds` from now on `CLOCK_REALTIME`, for `PThreadCondition.wait(_:until:)`.
    package static func deadline(after seconds: Double) -> timespec {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let whole = Int(seconds)
        deadline.tv_sec += whole
        deadline.tv_nsec += Int((seconds - Double(whole)) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return deadline
    }
}
