#if canImport(Glibc)
import Glibc
#endif

/// A fixed number of threads taking jobs from a bounded queue: `submit` refuses at once when the
/// queue is full (the caller answers 503) rather than letting waiting time grow without end.
/// `@unchecked Sendable` because its state is guarded by the pthread mutex right here (a
/// condition variable needs one, and ThreadSanitizer knows both): `jobs`, `running` and
/// `stopping` are touched only between `pthread_mutex_lock(lock)` and its unlock.
package final class BoundedWorkers: @unchecked Sendable {
    package typealias Job = @Sendable () -> Void

    package let threads: Int
    package let capacity: Int
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let available = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let finished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// A ring of waiting jobs.
    private var jobs: [Job?]
    private var head = 0
    private var count = 0
    private var running = 0
    private var stopping = false
    private var alive = 0

    /// `threads` workers and room for `capacity` jobs waiting (at least 1; besides those running).
    package init(threads: Int, capacity: Int) {
        self.threads = max(1, threads)
        self.capacity = max(1, capacity)
        jobs = Array(repeating: nil, count: max(1, capacity))
        pthread_mutex_init(lock, nil)
        pthread_cond_init(available, nil)
        pthread_cond_init(finished, nil)
        // Workers block every signal: SIGTERM goes to the thread that waits for it.
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        for _ in 0..<self.threads {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            let made = pthread_create(
                &thread,
                nil,
                { context in
                    Unmanaged<BoundedWorkers>.fromOpaque(context!).takeRetainedValue().work()
                    return nil
                },
                context
            )
            if made == 0 {
                pthread_detach(thread)
                pthread_mutex_lock(lock)
                alive += 1
                pthread_mutex_unlock(lock)
            } else {
                Unmanaged<BoundedWorkers>.fromOpaque(context).release()
            }
        }
    }

    /// Jobs waiting and jobs running.
    package var depth: (waiting: Int, running: Int) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return (count, running)
    }

    /// Queues `job` unless every worker is busy and the queue is full (or the pool is stopping);
    /// false then, and the job is not run.
    package func submit(_ job: @escaping Job) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard !stopping, alive > 0, count < capacity else { return false }
        jobs[(head + count) % jobs.count] = job
        count += 1
        pthread_cond_signal(available)
        return true
    }

    /// Lets the queued and running jobs finish (at most `seconds`), then stops the workers.
    /// Returns whether everything finished.
    @discardableResult
    package func drain(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let whole = Int(seconds)
        deadline.tv_sec += whole
        deadline.tv_nsec += Int((seconds - Double(whole)) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        stopping = true
        pthread_cond_broadcast(available)
        while count > 0 || running > 0 {
            if pthread_cond_timedwait(finished, lock, &deadline) == ETIMEDOUT { break }
        }
        return count == 0 && running == 0
    }

    private func work() {
        pthread_mutex_lock(lock)
        while true {
            while count == 0 && !stopping { pthread_cond_wait(available, lock) }
            if count == 0 && stopping { break }
            let job = jobs[head]!
            jobs[head] = nil
            head = (head + 1) % jobs.count
            count -= 1
            running += 1
            pthread_mutex_unlock(lock)
            job()
            pthread_mutex_lock(lock)
            running -= 1
            pthread_cond_broadcast(finished)
        }
        alive -= 1
        pthread_mutex_unlock(lock)
    }
}
