import BlurLabelSystem
import CHTTPShim
import CMicroHTTPD

/// One request on its connection, from its headers being read to its completion: libmicrohttpd
/// keeps a pointer to it (the connection's `con_cls`) and calls the access handler several times
/// (headers, body pieces, the end, and once more after a resumption).
final class Exchange: Sendable {
    struct State {
        var body: [UInt8] = []
        var bodyTooLarge = false
        /// The handler has been called.
        var handled = false
        /// A response the handler gave later, not yet queued.
        var response: HTTPResponse? = nil
        /// The connection is suspended, waiting for `response`.
        var suspended = false
        /// Answered (queued or given later): further answers are ignored.
        var answered = false
        /// The status answered (0 until then).
        var status: HTTPStatus = 0
        var bytes = 0
    }

    let method: String
    let path: String
    let query: String
    let headers: HTTPHeaders
    /// The `struct MHD_Connection *`, as a number (it is only handed back to libmicrohttpd).
    let connection: UInt
    let started: Double
    let state = LockedValue(State())

    init(method: String, path: String, query: String, headers: HTTPHeaders, connection: UInt) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.connection = connection
        self.started = monotonicSeconds()
    }

    var connectionPointer: OpaquePointer { OpaquePointer(bitPattern: connection)! }

    /// Called by `HTTPResponder` from any thread, by the server when it stops, and when the
    /// client is found gone: the first answer wins. Returns whether this one was taken.
    @discardableResult
    func respondLater(_ response: HTTPResponse) -> Bool {
        let (taken, resume) = state.withLock { state -> (Bool, Bool) in
            guard !state.answered else { return (false, false) }
            state.answered = true
            state.response = response
            let wasSuspended = state.suspended
            state.suspended = false
            return (true, wasSuspended)
        }
        if resume { MHD_resume_connection(connectionPointer) }
        return taken
    }

    /// Whether the request has its answer already (given, or given up on: the client went away or
    /// the server is stopping).
    var isAnswered: Bool { state.withLock { $0.answered } }
}

/// Seconds from an arbitrary start, never going back.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
