import BlurredLabelCore
import HTTPServer

/// One render per label: the first request for a label that is not cached starts its render, and
/// the requests for the same label that come while it is queued or running wait for it instead of
/// rendering it again. Keyed by the signed path after the signature, so the same label under a
/// rotated key is still one render.
final class RenderFlights: Sendable {
    enum Role { case first, waiting }

    private let flights = LockedValue<[String: [HTTPResponder]]>([:])

    /// Adds `responder` to the render of `key`: `.first` when there was none (the caller starts it).
    func join(_ key: String, _ responder: HTTPResponder) -> Role {
        flights.withLock { flights in
            if flights[key] != nil {
                flights[key]!.append(responder)
                return .waiting
            }
            flights[key] = [responder]
            return .first
        }
    }

    /// Whether any request for `key` still waits for its answer.
    func anyoneWaiting(_ key: String) -> Bool {
        flights.withLock { $0[key]?.contains { !$0.isAbandoned } ?? false }
    }

    /// Ends the render of `key`: every request that waited gets `response`.
    func finish(_ key: String, with response: HTTPResponse) {
        let waiting = flights.withLock { $0.removeValue(forKey: key) ?? [] }
        for responder in waiting { responder.respond(response) }
    }

    /// Renders queued or running (for tests and metrics).
    var count: Int { flights.withLock { $0.count } }
}
