/// A response's status code (RFC 9110, section 15), named for the ones this package answers;
/// a number literal is one too (`.text(429, …)`).
package struct HTTPStatus: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The three-digit code.
    package let code: Int

    package init(_ code: Int) { self.code = code }
    package init(integerLiteral code: Int) { self.code = code }

    package var description: String { String(code) }

    /// 4xx: the client's request is refused.
    package var isClientError: Bool { (400..<500).contains(code) }

    package static func < (a: Self, b: Self) -> Bool { a.code < b.code }

    package static let ok: Self = 200
    package static let notModified: Self = 304
    package static let badRequest: Self = 400
    package static let forbidden: Self = 403
    package static let notFound: Self = 404
    package static let methodNotAllowed: Self = 405
    package static let contentTooLarge: Self = 413
    package static let uriTooLong: Self = 414
    /// The request reached a server that does not answer to its `Host`.
    package static let misdirectedRequest: Self = 421
    package static let requestHeaderFieldsTooLarge: Self = 431
    /// nginx's code for a client that closed its connection before the answer: recorded, never sent.
    package static let clientClosedRequest: Self = 499
    package static let internalServerError: Self = 500
    package static let serviceUnavailable: Self = 503
}
