import BlurLabelSystem
import CHTTPShim
import Synchronization

/// Deadlines that a client cannot reset. libmicrohttpd's own timeout counts idle time only, so a
/// client sending a byte every few seconds would hold its connection for hours. Here a whole
/// request (line, header fields and body) must arrive within `seconds` of the connection's opening
/// or its previous response, and a whole response must be taken by the client within `seconds` of
/// being queued; while the handler works on a request no deadline runs, but a client that closes
/// its connection meanwhile is noticed (its request is answered 499 and the handler's work can be
/// skipped: `HTTPResponder.isAbandoned`).
///
/// A thread looks five times a second and shuts down the socket of any connection past its
/// deadline; libmicrohttpd then closes it. The socket is shut down under the lock that its
/// connection's closing notification takes first, so it is never a socket number already reused.
final class RequestDeadlines: Sendable {
    enum Phase {
        /// Reading a request (or idle between requests): the deadline runs.
        case reading
        /// The request is whole and with its handler: no deadline, but a hang-up is watched for.
        case handling(Exchange)
        /// The response is queued: the deadline runs until it is sent.
        case sending
    }

    struct Watch {
        let socket: Int32
        var since: Double
        var phase = Phase.reading
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

    /// The request is whole and handed to its handler.
    func handling(_ exchange: Exchange) { watches.withLock { $0[exchange.connection]?.phase = .handling(exchange) } }

    /// The response is queued: the client has `seconds` to take it.
    func sending(_ connection: UInt) {
        let now = monotonicSeconds()
        watches.withLock {
            $0[connection]?.phase = .sending
            $0[connection]?.since = now
        }
    }

    /// The response is sent (or failed): the next request's deadline starts now.
    func requestDone(_ connection: UInt) {
        let now = monotonicSeconds()
        watches.withLock {
            $0[connection]?.phase = .reading
            $0[connection]?.since = now
        }
    }

    /// Shuts down the sockets past their deadline and answers the requests whose clients hung up;
    /// returns how many sockets were shut down.
    @discardableResult
    func sweep() -> Int {
        let now = monotonicSeconds()
        var gone: [Exchange] = []
        let count = watches.withLock { watches in
            var count = 0
            for (connection, watch) in watches {
                switch watch.phase {
                case let .handling(exchange):
                    if Self.hungUp(watch.socket) {
                        gone.append(exchange)
                        watches[connection]?.phase = .sending
                        watches[connection]?.since = now
                    }
                case .reading, .sending:
                    guard now - watch.since > seconds else { continue }
                    shutdown(watch.socket, Int32(SHUT_RDWR))
                    watches[connection]?.since = .infinity
                    count += 1
                }
            }
            return count
        }
        // Outside the lock: answering may resume the connection.
        for exchange in gone { exchange.respondLater(.text(.clientClosedRequest, "client closed the connection")) }
        return count
    }

    /// Whether the peer has closed its side of `socket` (or the socket failed).
    static func hungUp(_ socket: Int32) -> Bool {
        var watch = pollfd(fd: socket, events: bl_http_poll_peer_closed, revents: 0)
        guard poll(&watch, 1, 0) == 1 else { return false }
        return watch.revents & (bl_http_poll_peer_closed | Int16(POLLHUP | POLLERR)) != 0
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

    /// Stops the thread and waits for it: no sweep runs after this returns.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        if let running = thread.withLock({ $0.take() }) { pthread_join(running, nil) }
    }
}
