import BlurredLabelCore
import CHTTPShim
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A whole request must arrive within the deadline, counted from the connection's opening or its
/// previous response: libmicrohttpd's own timeout counts idle time only, so a client sending a
/// byte every few seconds would hold its connection for hours. A thread looks once a second and
/// shuts down the socket of any connection past its deadline that is not being answered;
/// libmicrohttpd then closes it. The socket is shut down under the lock that its connection's
/// closing notification takes first, so it is never a socket number already reused.
final class RequestDeadlines: Sendable {
    struct Watch {
        let socket: Int32
        var since: Double
        /// A request is read and being answered: no deadline runs.
        var busy = false
    }

    let seconds: Double
    let watches = LockedValue<[UInt: Watch]>([:])
    private let stopped = Atomic<Bool>(false)
    private let thread = LockedValue<pthread_t?>(nil)

    init(seconds: Double) { self.seconds = seconds }

    func opened(_ connection: UInt, socket: Int32) {
        guard socket >= 0 else { return }
        let now = monotonicSeconds()
        watches.withLock { $0[connection] = Watch(socket: socket, since: now) }
    }

    func closed(_ connection: UInt) { watches.withLock { _ = $0.removeValue(forKey: connection) } }

    func requestRead(_ connection: UInt) { watches.withLock { $0[connection]?.busy = true } }

    func requestDone(_ connection: UInt) {
        let now = monotonicSeconds()
        watches.withLock {
            $0[connection]?.busy = false
            $0[connection]?.since = now
        }
    }

    /// Shuts down the sockets past their deadline; returns how many.
    @discardableResult
    func sweep() -> Int {
        let now = monotonicSeconds()
        return watches.withLock { watches in
            var count = 0
            for (connection, watch) in watches where !watch.busy && now - watch.since > seconds {
                shutdown(watch.socket, Int32(SHUT_RDWR))
                watches[connection]?.since = .infinity
                count += 1
            }
            return count
        }
    }

    func start() {
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var made = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        guard
            pthread_create(
                &made,
                nil,
                { context in
                    let deadlines = Unmanaged<RequestDeadlines>.fromOpaque(context!).takeRetainedValue()
                    while !deadlines.stopped.load(ordering: .relaxed) {
                        usleep(200_000)
                        deadlines.sweep()
                    }
                    return nil
                },
                context
            ) == 0
        else {
            Unmanaged<RequestDeadlines>.fromOpaque(context).release()
            return
        }
        thread.withLock { $0 = made }
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        if let running = thread.withLock({ $0 }) { pthread_join(running, nil) }
    }
}
