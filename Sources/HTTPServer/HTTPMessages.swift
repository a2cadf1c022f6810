/// One HTTP request as the handler sees it: complete (line, headers and body read), a value that
/// may travel to another thread.
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, `POST`...
    public let method: String
    /// The path as the client sent it, percent-escapes kept (signatures cover these bytes),
    /// without the query.
    public let path: String
    /// The query after `?`, raw; empty when there is none.
    public let query: String
    /// Header fields in the order received.
    public let headers: [(name: String, value: String)]
    /// The body, at most the server's `maximumBodyBytes`.
    public let body: [UInt8]

    public init(
        method: String,
        path: String,
        query: String = "",
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}

/// A response: status, header fields and body. `Content-Length` is added by the server; for
/// `HEAD` it is the body's length and no body is sent.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    /// The body, sent without a copy (a cache shares one `ResponseBytes` among its hits).
    public var content: ResponseBytes

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.init(status: status, headers: headers, content: ResponseBytes(body))
    }

    public init(status: Int, headers: [(name: String, value: String)] = [], content: ResponseBytes) {
        self.status = status
        self.headers = headers
        self.content = content
    }

    /// The body's bytes (a copy).
    public var body: [UInt8] { content.array }

    /// A short plain-text response: one line, for errors and health checks.
    public static func text(_ status: Int, _ line: String, headers: [(name: String, value: String)] = []) -> Self {
        HTTPResponse(
            status: status,
            headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")] + headers,
            body: Array((line + "\n").utf8)
        )
    }
}

/// What the server records of each finished request (for an access log and metrics): never its
/// path or body.
public struct HTTPExchangeRecord: Sendable {
    public let method: String
    public let status: Int
    /// Body bytes of the response (0 for `HEAD` and 304).
    public let bytes: Int
    /// From the request's headers being read to the response being handed to the connection.
    public let seconds: Double
    /// False when the connection failed or timed out before the response was sent.
    public let completed: Bool
}
