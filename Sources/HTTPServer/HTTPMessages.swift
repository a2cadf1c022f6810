/// One HTTP request as the handler sees it: complete (line, headers and body read), a value that
/// may travel to another thread.
package struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, `POST`...
    package let method: String
    /// The path as the client sent it, percent-escapes kept (signatures cover these bytes),
    /// without the query.
    package let path: String
    /// The query after `?`, raw; empty when there is none.
    package let query: String
    /// Header fields in the order received.
    package let headers: HTTPHeaders
    /// The body, at most the server's `maximumBodyBytes`.
    package let body: [UInt8]

    package init(
        method: String,
        path: String,
        query: String = "",
        headers: HTTPHeaders = [],
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The first header called `name` (case-insensitive).
    package func header(_ name: String) -> String? { headers[name] }
}

/// A response: status, header fields and body. `Content-Length` is added by the server; for
/// `HEAD` it is the body's length and no body is sent.
package struct HTTPResponse: Sendable {
    package var status: HTTPStatus
    package var headers: HTTPHeaders
    /// The body, sent without a copy (a cache shares one `ResponseBytes` among its hits).
    package var content: ResponseBytes

    package init(status: HTTPStatus, headers: HTTPHeaders = [], body: [UInt8] = []) {
        self.init(status: status, headers: headers, content: ResponseBytes(body))
    }

    package init(status: HTTPStatus, headers: HTTPHeaders = [], content: ResponseBytes) {
        self.status = status
        self.headers = headers
        self.content = content
    }

    /// The body's bytes (a copy).
    package var body: [UInt8] { content.array }

    /// A short plain-text response: one line, for errors and health checks.
    package static func text(_ status: HTTPStatus, _ line: String, headers: HTTPHeaders = []) -> Self {
        HTTPResponse(
            status: status,
            headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")] + headers,
            body: Array((line + "\n").utf8)
        )
    }
}

/// What the server records of each finished request (for an access log and metrics): never its
/// path or body.
package struct HTTPExchangeRecord: Sendable {
    package let method: String
    package let status: HTTPStatus
    /// Body bytes of the response (0 for `HEAD` and 304).
    package let bytes: Int
    /// From the request's headers being read to the response being handed to the connection.
    package let seconds: Double
    /// False when the connection failed or timed out before the response was sent.
    package let completed: Bool
}
