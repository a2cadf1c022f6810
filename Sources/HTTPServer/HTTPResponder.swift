/// Answers a request later, from any thread: the handler returned nil and keeps this. The
/// connection waits (suspended, holding no thread) until `respond` is called; call it exactly
/// once (later calls are ignored).
package final class HTTPResponder: Sendable {
    let exchange: Exchange

    init(exchange: Exchange) { self.exchange = exchange }

    package func respond(_ response: HTTPResponse) { exchange.respondLater(response) }

    /// Whether nobody waits for this answer any more: the client closed its connection (a 499 was
    /// recorded for it) or the server stopped (it was answered 503). Work done only for this
    /// request can be skipped.
    package var isAbandoned: Bool { exchange.isAnswered }
}
