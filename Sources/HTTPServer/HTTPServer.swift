import BlurLabelSystem
import CHTTPShim
import CMicroHTTPD
import Synchronization

/// An HTTP/1.1 server (keep-alive, pipelining) on libmicrohttpd: a few threads poll every
/// connection with epoll, so a slow client holds no thread, and a complete request is handed to
/// `handler` as a value. The handler answers at once (cheap work: a cache hit, an error) or
/// returns nil and answers later through the `HTTPResponder` from a thread of its own (a render),
/// the connection waiting suspended meanwhile. Limits are the server's: request line (414),
/// header fields (431), body (413), idle connections (closed after `idleTimeoutSeconds`), number
/// of connections. Nothing a client sends reaches the handler unless it is a complete request.
package final class HTTPServer: Sendable {
    /// Where and how a server listens. What its user sets has no default here (`serve`'s defaults
    /// are its options', in `ServeSettings`; `edit`'s are its own); the protocol's limits have.
    package struct Configuration: Sendable {
        /// The address to listen on: IPv4 (`127.0.0.1`, `0.0.0.0`) or IPv6 without brackets (`::1`,
        /// `::`; IPv6 only, as nginx's `listen [::]:80`).
        package var host: String
        /// 0 lets the kernel choose (read `port` after starting).
        package var port: UInt16
        /// Threads polling connections.
        package var threads: Int
        package var connectionLimit: Int
        /// Seconds without a byte in either direction after which a connection is closed; also
        /// the most a whole request may take to arrive, from the connection's opening or its
        /// previous response (a byte now and then does not keep a slow client).
        package var idleTimeoutSeconds: Int
        /// Longest request target (path and query) accepted; longer is 414 (nginx's default 8 KB).
        package var maximumRequestLineBytes = 8192
        /// Memory for one connection's request line and header fields: beyond it 414 or 431.
        package var connectionMemoryBytes = 32 * 1024
        /// Largest request body; larger is 413.
        package var maximumBodyBytes = 1 << 20

        package init(host: String, port: UInt16, threads: Int, connectionLimit: Int, idleTimeoutSeconds: Int) {
            self.host = host
            self.port = port
            self.threads = threads
            self.connectionLimit = connectionLimit
            self.idleTimeoutSeconds = idleTimeoutSeconds
        }
    }

    /// Answers a complete request now, or returns nil and answers through the responder later.
    package typealias Handler = @Sendable (HTTPRequest, HTTPResponder) -> HTTPResponse?
    /// Told about every request when its connection is done with it.
    package typealias Observer = @Sendable (HTTPExchangeRecord) -> Void

    /// Why the server did not start.
    package struct StartError: Error, CustomStringConvertible {
        package let description: String
    }

    let core: ServerCore
    /// The `struct MHD_Daemon *`, as a number.
    private let daemon: UInt
    /// The port listened on.
    package let port: UInt16

    /// Starts listening and serving at once.
    package init(_ configuration: Configuration, handler: @escaping Handler, observer: Observer? = nil) throws {
        guard var address = Self.socketAddress(configuration.host, configuration.port) else {
            throw StartError(description: "'\(configuration.host)' is not an IPv4 or IPv6 address")
        }
        let core = ServerCore(configuration: configuration, handler: handler, observer: observer)
        let context = Unmanaged.passRetained(core).toOpaque()
        let started = withUnsafePointer(to: &address) { storage in
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                var settings = bl_http_settings(
                    address: address,
                    port: configuration.port,
                    threads: UInt32(max(1, configuration.threads)),
                    connection_limit: UInt32(max(1, configuration.connectionLimit)),
                    timeout_seconds: UInt32(max(1, configuration.idleTimeoutSeconds)),
                    connection_memory: max(4096, configuration.connectionMemoryBytes)
                )
                return bl_http_start(
                    &settings,
                    accessHandler,
                    context,
                    completedHandler,
                    context,
                    connectionHandler,
                    context
                )
            }
        }
        guard let started else {
            Unmanaged<ServerCore>.fromOpaque(context).release()
            throw StartError(
                description:
                    "cannot listen on \(Self.authority(configuration.host, configuration.port)) (in use, or not an address of this machine?)"
            )
        }
        self.core = core
        self.daemon = UInt(bitPattern: started)
        self.port = bl_http_port(started)
        core.deadlines.start()
    }

    /// `host` (numeric IPv4, or IPv6 without brackets) and `port` as a socket address; nil when
    /// `host` is neither.
    static func socketAddress(_ host: String, _ port: UInt16) -> sockaddr_storage? {
        var storage = sockaddr_storage()
        var ipv4 = sockaddr_in()
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET, host, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = port.bigEndian
            withUnsafeBytes(of: ipv4) { source in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) } }
        } else if inet_pton(AF_INET6, host, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = port.bigEndian
            withUnsafeBytes(of: ipv6) { source in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) } }
        } else {
            return nil
        }
        return storage
    }

    /// `host:port` as a URL writes it: an IPv6 address in brackets.
    package static func authority(_ host: String, _ port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Requests read and not yet finished.
    package var inFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Whether the drain has begun (`beginDrain` or `shutdown`): a readiness probe says no from then
    /// on, and every response says `Connection: close`.
    package var isDraining: Bool { core.draining.load(ordering: .relaxed) }

    /// Starts the drain without closing the listener yet: responses from now on say `Connection:
    /// close`, and `isDraining` is true (so a load balancer's readiness probe stops sending).
    package func beginDrain() { core.draining.store(true, ordering: .relaxed) }

    /// Stops accepting connections, lets the requests in flight finish (at most `drainSeconds`;
    /// their responses say `Connection: close`), answers those still waiting for their handler 503
    /// (with `Connection: close`: the handler's late answer is dropped), then closes every
    /// connection and stops. Never aborts, whatever is still running. Returns whether every request
    /// in flight finished within the drain. Call once.
    @discardableResult
    package func shutdown(drainSeconds: Double) -> Bool {
        let daemon = OpaquePointer(bitPattern: daemon)!
        beginDrain()
        let listening = MHD_quiesce_daemon(daemon)
        if listening >= 0 { close(listening) }
        let deadline = monotonicSeconds() + drainSeconds
        while core.inFlight.load(ordering: .relaxed) > 0 && monotonicSeconds() < deadline { usleep(5_000) }
        let finished = core.inFlight.load(ordering: .relaxed) == 0
        // libmicrohttpd stops with a fatal error while a connection is suspended: answer each one
        // (which resumes it), and give the polling threads a moment to send those answers.
        if core.answerWaiting() > 0 {
            let sent = monotonicSeconds() + 1
            while core.inFlight.load(ordering: .relaxed) > 0 && monotonicSeconds() < sent { usleep(5_000) }
        }
        core.deadlines.stop()
        MHD_stop_daemon(daemon)
        Unmanaged.passUnretained(core).release()
        return finished
    }
}

/// What the C callbacks reach through their context pointer.
final class ServerCore: Sendable {
    let configuration: HTTPServer.Configuration
    let handler: HTTPServer.Handler
    let observer: HTTPServer.Observer?
    let inFlight = Atomic<Int>(0)
    let draining = Atomic<Bool>(false)
    let deadlines: RequestDeadlines
    /// The requests whose connections are suspended, waiting for their handler's answer; once
    /// `closing`, no connection is suspended any more.
    let waiting = LockedValue<(closing: Bool, exchanges: [ObjectIdentifier: Exchange])>((false, [:]))

    init(configuration: HTTPServer.Configuration, handler: @escaping HTTPServer.Handler, observer: HTTPServer.Observer?)
    {
        self.deadlines = RequestDeadlines(seconds: Double(max(1, configuration.idleTimeoutSeconds)))
        self.configuration = configuration
        self.handler = handler
        self.observer = observer
    }

    /// Hands `response` to the connection. Its bytes are not copied: libmicrohttpd holds a
    /// reference to them until the connection is done with them. The client has the server's
    /// timeout to take the whole response.
    func queue(_ response: HTTPResponse, on exchange: Exchange) -> MHD_Result {
        let connection = exchange.connectionPointer
        let content = response.content
        let retained = Unmanaged.passRetained(content).toOpaque()
        let made = MHD_create_response_from_buffer_with_free_callback_cls(
            content.count,
            UnsafeMutableRawPointer(mutating: content.pointer),
            { retained in if let retained { Unmanaged<ResponseBytes>.fromOpaque(retained).release() } },
            retained
        )
        guard let made else {
            Unmanaged<ResponseBytes>.fromOpaque(retained).release()
            return .NO
        }
        for (name, value) in response.headers { MHD_add_response_header(made, name, value) }
        if draining.load(ordering: .relaxed) { MHD_add_response_header(made, "Connection", "close") }
        let sendsBody = exchange.method != "HEAD" && response.status != .notModified
        exchange.state.withLock {
            $0.status = response.status
            $0.bytes = sendsBody ? content.count : 0
        }
        deadlines.sending(exchange.connection)
        let result = MHD_queue_response(connection, UInt32(response.status.code), made)
        MHD_destroy_response(made)
        return result
    }

    /// Answers 503 (`Connection: close`) every request still waiting for its handler, and
    /// suspends no connection from now on. Returns how many were answered.
    func answerWaiting() -> Int {
        let exchanges = waiting.withLock { waiting in
            waiting.closing = true
            defer { waiting.exchanges = [:] }
            return Array(waiting.exchanges.values)
        }
        let stopping = HTTPResponse.text(
            .serviceUnavailable,
            "the server is stopping: try again",
            headers: [("Retry-After", "1")]
        )
        return exchanges.reduce(0) { $0 + ($1.respondLater(stopping) ? 1 : 0) }
    }

    /// The access handler's work for one call.
    func access(
        connection: OpaquePointer,
        url: String,
        method: String,
        upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>,
        context: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let stored = context.pointee else {
            // First call: the request line and header fields are read.
            let exchange = Exchange(
                method: method,
                path: url,
                query: Self.values(of: connection, kind: .GET_ARGUMENT_KIND).map { "\($0.name)=\($0.value)" }
                    .joined(separator: "&"),
                headers: HTTPHeaders(Self.values(of: connection, kind: .HEADER_KIND)),
                connection: UInt(bitPattern: connection)
            )
            context.pointee = Unmanaged.passRetained(exchange).toOpaque()
            inFlight.add(1, ordering: .relaxed)
            return .YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(stored).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            let limit = configuration.maximumBodyBytes
            exchange.state.withLock { state in
                if state.bodyTooLarge || state.body.count + count > limit {
                    state.bodyTooLarge = true
                    state.body = []
                } else if let upload {
                    upload.withMemoryRebound(to: UInt8.self, capacity: count) {
                        state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                    }
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        // The request is complete (or this is the call after a resumption).
        enum Next {
            case queue(HTTPResponse)
            case call([UInt8])
            case wait
        }
        let next = exchange.state.withLock { state -> Next in
            if let response = state.response {
                state.response = nil
                return .queue(response)
            }
            if state.handled { return .wait }
            state.handled = true
            if state.bodyTooLarge {
                state.answered = true
                return .queue(.text(.contentTooLarge, "request body too large"))
            }
            if exchange.path.utf8.count + exchange.query.utf8.count > configuration.maximumRequestLineBytes {
                state.answered = true
                return .queue(.text(.uriTooLong, "request line too long"))
            }
            return .call(state.body)
        }
        switch next {
        case let .queue(response): return queue(response, on: exchange)
        case .wait: return .YES
        case let .call(body):
            // The request is whole: its deadline stops while the handler works.
            deadlines.handling(exchange)
            let request = HTTPRequest(
                method: exchange.method,
                path: exchange.path,
                query: exchange.query,
                headers: exchange.headers,
                body: body
            )
            if let response = handler(request, HTTPResponder(exchange: exchange)) {
                exchange.state.withLock { $0.answered = true }
                return queue(response, on: exchange)
            }
            // Answered later: suspend unless the answer came already (or the server is stopping).
            // Suspending under the lock orders it before the responder's resumption.
            let ready = exchange.state.withLock { state -> HTTPResponse? in
                if let response = state.response {
                    state.response = nil
                    return response
                }
                let registered = waiting.withLock { waiting in
                    guard !waiting.closing else { return false }
                    waiting.exchanges[ObjectIdentifier(exchange)] = exchange
                    return true
                }
                guard registered else {
                    state.answered = true
                    return .text(
                        .serviceUnavailable,
                        "the server is stopping: try again",
                        headers: [("Retry-After", "1")]
                    )
                }
                state.suspended = true
                MHD_suspend_connection(connection)
                return nil
            }
            if let ready { return queue(ready, on: exchange) }
            return .YES
        }
    }

    /// The request is done with (sent, failed or timed out).
    func completed(context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, code: MHD_RequestTerminationCode) {
        guard let context, let stored = context.pointee else { return }
        context.pointee = nil
        let exchange = Unmanaged<Exchange>.fromOpaque(stored).takeRetainedValue()
        deadlines.requestDone(exchange.connection)
        waiting.withLock { _ = $0.exchanges.removeValue(forKey: ObjectIdentifier(exchange)) }
        let (status, bytes) = exchange.state.withLock { ($0.status, $0.bytes) }
        inFlight.subtract(1, ordering: .relaxed)
        observer?(
            HTTPExchangeRecord(
                method: exchange.method,
                status: status,
                bytes: bytes,
                seconds: monotonicSeconds() - exchange.started,
                completed: code == .REQUEST_TERMINATED_COMPLETED_OK
            )
        )
    }

    /// Name and value pairs of one kind (headers, query arguments) of the connection's request.
    static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(name: String, value: String)] {
        var found: [(name: String, value: String)] = []
        withUnsafeMutablePointer(to: &found) { pointer in
            _ = MHD_get_connection_values(
                connection,
                kind,
                { context, _, key, value in
                    guard let context, let key else { return .YES }
                    let list = context.assumingMemoryBound(to: [(name: String, value: String)].self)
                    list.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
                    return .YES
                },
                pointer
            )
        }
        return found
    }
}

/// libmicrohttpd's access handler: forwards to the server's core.
private func accessHandler(
    context: UnsafeMutableRawPointer?,
    connection: OpaquePointer?,
    url: UnsafePointer<CChar>?,
    method: UnsafePointer<CChar>?,
    version: UnsafePointer<CChar>?,
    upload: UnsafePointer<CChar>?,
    uploadSize: UnsafeMutablePointer<Int>?,
    connectionContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let context, let connection, let url, let method, let uploadSize, let connectionContext else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    return core.access(
        connection: connection,
        url: String(decoding: UnsafeRawBufferPointer(start: url, count: strlen(url)), as: UTF8.self),
        method: String(cString: method),
        upload: upload,
        uploadSize: uploadSize,
        context: connectionContext
    )
}

/// libmicrohttpd's completion callback.
private func completedHandler(
    context: UnsafeMutableRawPointer?,
    connection: OpaquePointer?,
    connectionContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    code: MHD_RequestTerminationCode
) {
    guard let context else { return }
    Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().completed(context: connectionContext, code: code)
}

/// libmicrohttpd's connection notifications: opened and closed, for the request deadlines.
private func connectionHandler(
    context: UnsafeMutableRawPointer?,
    connection: OpaquePointer?,
    socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    code: MHD_ConnectionNotificationCode
) {
    guard let context, let connection else { return }
    let deadlines = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().deadlines
    if code == .CONNECTION_NOTIFY_STARTED {
        deadlines.opened(UInt(bitPattern: connection), socket: bl_http_connection_socket(connection))
    } else {
        deadlines.closed(UInt(bitPattern: connection))
    }
}
