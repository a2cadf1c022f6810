import BlurLabelServeSettings
import HTTPServer

/// What the label port checks before `LabelService.handle`: with `--unsigned` a `Host` that names
/// loopback (a DNS-rebinding page's requests carry its own name); with `--path-prefix` labels under
/// the prefix only (passed on without it: the signature covers the path after it), the other
/// routes (`/healthz`, `/readyz`, `/metrics`) at the root; with `--metrics-listen` no `/metrics`.
struct ServeFront: Sendable {
    /// `/labels`, or "" for none.
    let prefix: String
    let unsigned: Bool
    /// `/metrics` is served on another address: 404 here.
    let metricsElsewhere: Bool

    func handle(_ request: HTTPRequest, _ responder: HTTPResponder, _ service: LabelService) -> HTTPResponse? {
        if unsigned {
            guard let host = request.header("Host"), Self.isLoopbackHost(host) else {
                return .text(
                    .misdirectedRequest,
                    "this unsigned server answers only to loopback names (localhost, 127.x.x.x, [::1])"
                )
            }
        }
        if metricsElsewhere && request.path == "/metrics" {
            return .text(.notFound, "not found: /metrics is served on the --metrics-listen address")
        }
        guard !prefix.isEmpty else { return service.handle(request, responder) }
        let path = request.path
        if path.hasPrefix(prefix + "/") {
            let rest = String(path.dropFirst(prefix.utf8.count))
            // A label has a signature segment and more: /PREFIX/healthz is not /healthz.
            guard LabelPath.split(rest) != nil else { return notFound }
            return service.handle(
                HTTPRequest(
                    method: request.method,
                    path: rest,
                    query: request.query,
                    headers: request.headers,
                    body: request.body
                ),
                responder
            )
        }
        // One segment (/healthz, /readyz, /metrics, or a 404 of the service's); labels only under the prefix.
        return path.dropFirst().contains("/") ? notFound : service.handle(request, responder)
    }

    var notFound: HTTPResponse { .text(.notFound, "not found: labels are \(prefix)/SIGNATURE/options/TEXT.png") }

    /// Whether a `Host` field names loopback: `localhost`, an address in 127.0.0.0/8 or `[::1]`,
    /// with or without a port.
    static func isLoopbackHost(_ field: String) -> Bool {
        var host = Substring(field.lowercased())
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let after = host[host.index(after: close)...]
            guard after.isEmpty || Self.isPort(after) else { return false }
            host = host[host.index(after: host.startIndex)..<close]
            return ServeSettings.isLoopback(String(host)) && host.contains(":")
        }
        if let colon = host.lastIndex(of: ":") {
            guard Self.isPort(host[colon...]) else { return false }
            host = host[..<colon]
        }
        return host == "localhost" || (!host.contains(":") && ServeSettings.isLoopback(String(host)))
    }

    /// `:` and 1 to 5 digits.
    private static func isPort(_ text: Substring) -> Bool {
        let digits = text.dropFirst()
        return text.first == ":" && (1...5).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
