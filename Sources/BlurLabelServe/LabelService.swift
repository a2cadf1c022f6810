import BlurLabelCLI
import BlurLabelServeSettings
import BlurredLabelCore
import HTTPServer

/// The routes of `blurlabel serve`: labels from signed URLs, `/healthz` (alive), `/readyz` (alive
/// and not draining), `/metrics`. Cheap answers (refusals, 304, cache hits) are given on the
/// connection's thread; renders go to the bounded workers, and a full queue is a 503 at once (a
/// small label, when a worker is idle, renders on the connection's thread: `InlineRenders`).
/// Requests for a label already being rendered wait for that render (one render per label), and
/// a render whose clients have all gone is skipped.
final class LabelService: Sendable {
    static let immutable = "public, max-age=31536000, immutable"

    let keys: Keys
    let unsigned: Bool
    /// The presets a URL may name (`preset:NAME`), and whether it may name nothing else.
    let presets: Presets
    let cache: PNGCache?
    /// One render's working memory at most (`--max-render-mb`).
    let budget: RenderBudget
    let workers: BoundedWorkers
    let metrics = ServeMetrics()
    /// Set once the server is up: read for `/metrics`' in-flight gauge.
    let inFlight: @Sendable () -> Int
    /// Whether the server is draining (set once it is up): `/readyz` answers 503 then.
    let draining: @Sendable () -> Bool
    /// The renders queued or running, by the signed path after the signature, each with the
    /// requests waiting for it.
    let flights = RenderFlights()
    /// Which renders a connection's thread does itself.
    let inline: InlineRenders
    /// The glyph workspaces renders borrow, whichever thread they run on.
    let workspaces = GlyphWorkspacePool()

    init(
        keys: Keys,
        unsigned: Bool,
        presets: Presets = Presets(),
        cacheBytes: Int,
        budget: RenderBudget = .standard,
        workers: BoundedWorkers,
        inline: InlineRenders = InlineRenders(),
        inFlight: @escaping @Sendable () -> Int,
        draining: @escaping @Sendable () -> Bool = { false }
    ) {
        self.inline = inline
        self.keys = keys
        self.budget = budget
        self.unsigned = unsigned
        self.presets = presets
        self.cache = cacheBytes > 0 ? PNGCache(limitBytes: cacheBytes) : nil
        self.workers = workers
        self.inFlight = inFlight
        self.draining = draining
    }

    /// A negotiated response's `Vary`: its bytes depend on `Accept`, and on nothing else of it.
    static let vary: HTTPHeaders = [("Vary", "Accept")]

    /// The memory cache's key for a request: its path as sent, and for a URL whose format
    /// `Accept` picks, the variant picked (one of three, whatever the header says).
    static func cacheKey(_ path: String, variant: PictureFormat?) -> String {
        guard let variant else { return path }
        return path + "\n" + variant.name
    }

    /// The strong entity tag of a signed path: the engine's version and the path (options and
    /// text, or ciphertext: never a hash of a secret text alone).
    static func etag(_ rest: String) -> String {
        let digest = Crypto.sha256(Array("blurlabel \(CommandLineTool.version)\n\(rest)".utf8))
        // Hex digits from a table: this runs on a connection thread for every label request, and
        // sixteen cFormat calls (a variadic cast each) were half of that thread's own work.
        let digits = Array("0123456789abcdef".utf8)
        var tag: [UInt8] = [UInt8(ascii: "\"")]
        tag.reserveCapacity(34)
        for byte in digest[0..<16] {
            tag.append(digits[Int(byte >> 4)])
            tag.append(digits[Int(byte & 15)])
        }
        tag.append(UInt8(ascii: "\""))
        return String(decoding: tag, as: UTF8.self)
    }

    func handle(_ request: HTTPRequest, _ responder: HTTPResponder) -> HTTPResponse? {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text(.methodNotAllowed, "only GET and HEAD", headers: [("Allow", "GET, HEAD")])
        }
        switch request.path {
        case "/healthz": return .text(.ok, "ok")
        case "/readyz": return draining() ? .text(.serviceUnavailable, "draining") : .text(.ok, "ready")
        case "/metrics":
            let text = metrics.text(cache: cache, queue: workers.depth, inFlight: inFlight())
            return HTTPResponse(
                status: .ok,
                headers: [("Content-Type", "text/plain; version=0.0.4"), ("Cache-Control", "no-store")],
                body: Array(text.utf8)
            )
        default: break
        }
        // A URL without a format's extension gets the one `Accept` picks: one of three variants,
        // each with its own cache entry, ETag and flight, nothing else of the header kept.
        let variant = LabelPath.negotiates(request.path) ? AcceptedFormat.choose(request.header("Accept")) : nil
        let key = Self.cacheKey(request.path, variant: variant)
        // A hit is looked up by the whole path, signature included: it was verified when it was
        // stored, so a hit needs no HMAC (a path with another signature is a miss, checked below).
        if let entry = cache?.entry(key) {
            metrics.cacheHit()
            let headers: HTTPHeaders =
                [("ETag", entry.etag), ("Cache-Control", Self.immutable)] + (entry.negotiated ? Self.vary : [])
            if let match = request.header("If-None-Match"), Self.matches(match, entry.etag) {
                return HTTPResponse(status: .notModified, headers: headers)
            }
            return HTTPResponse(
                status: .ok,
                headers: [("Content-Type", entry.contentType)] + headers,
                content: entry.png
            )
        }
        guard let (signature, rest) = LabelPath.split(request.path) else {
            return .text(.notFound, "not found: labels are /SIGNATURE/options/TEXT.png (.webp, .avif, or none)")
        }
        if unsigned {
            guard signature == "unsafe" else { return .text(.forbidden, "this server serves /unsafe/ paths only") }
        } else {
            guard signature != "unsafe", keys.verifies(signature, path: rest) else {
                return .text(.forbidden, "invalid signature")
            }
        }
        if LabelInfo.isInfo(rest) { return LabelInfo.answer(rest, service: self, responder: responder) }
        let label: LabelPath
        let encoding: OutputEncoding
        do {
            label = try LabelPath(rest: rest, keys: keys, presets: presets)
            encoding = try URLLabelOptions.encoding(
                label.options,
                format: label.format ?? variant ?? .png,
                negotiated: label.format == nil
            )
        } catch {
            return .text(.badRequest, error.description)
        }
        // The options in any order (or escaped otherwise) are one label: one ETag, one render at a
        // time (a variant each where `Accept` picks the format). The memory cache stays keyed by
        // the path as sent (its hits need no HMAC).
        let flight = Self.cacheKey(label.canonical, variant: variant)
        let etag = Self.etag(flight)
        let cached: HTTPHeaders =
            [("ETag", etag), ("Cache-Control", Self.immutable)] + (variant == nil ? [] : Self.vary)
        if let match = request.header("If-None-Match"), Self.matches(match, etag) {
            return HTTPResponse(status: .notModified, headers: cached)
        }
        metrics.cacheMiss()
        guard flights.join(flight, responder) == .first else { return nil }
        let render: @Sendable () -> Void = { [self] in
            renderFlight(
                label,
                encoding: encoding,
                flight: flight,
                cacheKey: key,
                negotiated: variant != nil,
                headers: cached,
                etag: etag
            )
        }
        // A small label renders here when a worker is idle (the answer is then ready when this
        // returns: the connection is not suspended); others go to the workers.
        if inline.isSmall(InlineRenders.shape(flight), textBytes: label.text.utf8.count),
            workers.runHereIfIdle(render)
        {
            inline.taken.add(1, ordering: .relaxed)
            return nil
        }
        // A full queue answers every request of this flight 503 at once, through their responders.
        if !workers.submit(render) {
            flights.finish(flight, with: .text(.serviceUnavailable, "busy: try again", headers: [("Retry-After", "1")]))
        }
        return nil
    }

    /// Renders the label of `flight` (on a worker, or on a connection's thread) and answers every
    /// request waiting for it; its time tells `inline` whether its shape is small.
    private func renderFlight(
        _ label: LabelPath,
        encoding: OutputEncoding,
        flight: String,
        cacheKey: String,
        negotiated: Bool,
        headers: HTTPHeaders,
        etag: String
    ) {
        // Clients that all went away (or a server that stopped) leave nobody to answer.
        guard flights.anyoneWaiting(flight) else {
            flights.finish(flight, with: .text(.serviceUnavailable, "nobody is waiting"))
            return
        }
        let response: HTTPResponse
        do {
            let (bytes, seconds) = try metrics.rendering(format: encoding.format.name) {
                try workspaces.lend {
                    try URLLabelOptions.file(label.options, text: label.text, encoding: encoding, budget: budget)
                }
            }
            let file = ResponseBytes(bytes)
            inline.record(InlineRenders.shape(flight), textBytes: label.text.utf8.count, seconds: seconds)
            let type = encoding.format.mediaType
            cache?.insert(cacheKey, PNGCache.Entry(png: file, etag: etag, contentType: type, negotiated: negotiated))
            response = HTTPResponse(status: .ok, headers: [("Content-Type", type)] + headers, content: file)
        } catch {
            response = .text(.badRequest, "\(error)")
        }
        flights.finish(flight, with: response)
    }

    /// Whether an If-None-Match list names `etag` (or is `*`); weak forms match too (RFC 9110's
    /// weak comparison, which If-None-Match uses).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { item in
            var tag = item.trimmingPrefix(" ")
            while tag.hasSuffix(" ") { tag = tag.dropLast() }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == "*" || tag == etag
        }
    }
}
