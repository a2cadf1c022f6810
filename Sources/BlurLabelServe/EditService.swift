import BlurLabelServeSettings
import BlurLabelSystem
import BlurredLabelCore
import HTTPServer

/// `blurlabel edit`'s requests: the page, the picture, previews rendered by the engine, Save and
/// Done. Every request needs the one-time token as its first path segment and the server's own
/// address as its Host (a DNS-rebinding page's requests carry its own name); a request with an
/// Origin must come from the page itself. No CORS header is ever sent.
final class EditService: Sendable {
    let settings: EditSettings
    let token: String
    let image: Image
    /// The input re-encoded, shown while there is no rectangle.
    let original: [UInt8]
    let workers: BoundedWorkers
    let port: LockedValue<UInt16> = LockedValue(0)
    /// Set by Done: the main thread exits.
    let done = LockedValue(false)
    /// When the last request with the token arrived (monotonic seconds).
    let lastRequest = LockedValue(0.0)

    init(settings: EditSettings, token: String, image: Image, workers: BoundedWorkers) throws {
        self.settings = settings
        self.token = token
        self.image = image
        self.original = try PNGEncoder(compressionLevel: 1).encode(image)
        self.workers = workers
        lastRequest.withLock { $0 = Self.now() }
    }

    /// Monotonic seconds.
    static func now() -> Double { ProcessMetrics.monotonicSeconds() }

    /// The page's URL, token included.
    var url: String { "http://\(settings.host):\(port.withLock { $0 })/\(token)/" }

    static let securityHeaders: HTTPHeaders = [
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
    ]

    static func refuse(_ status: HTTPStatus, _ line: String) -> HTTPResponse {
        .text(status, line, headers: securityHeaders)
    }

    func handle(_ request: HTTPRequest, _ responder: HTTPResponder) -> HTTPResponse? {
        let port = port.withLock { $0 }
        let own = ["\(settings.host):\(port)", "localhost:\(port)"]
        guard let host = request.header("Host"), own.contains(host.lowercased()) else {
            return Self.refuse(.misdirectedRequest, "this server answers only to http://\(settings.host):\(port)")
        }
        if let origin = request.header("Origin"), !own.contains(where: { origin.lowercased() == "http://" + $0 }) {
            return Self.refuse(.forbidden, "cross-origin requests are refused")
        }
        let parts = request.path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        // "/TOKEN/rest": parts[0] is empty, parts[1] is "TOKEN/rest".
        guard parts.count == 2, parts[0].isEmpty else { return Self.refuse(.forbidden, "a token is needed") }
        let rest = parts[1].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard rest.count == 2, Self.equal(Array(rest[0].utf8), Array(token.utf8)) else {
            return Self.refuse(.forbidden, "a token is needed")
        }
        // Only the page's own requests keep the server from its idle exit.
        lastRequest.withLock { $0 = Self.now() }
        let route = String(rest[1])
        switch (request.method, route) {
        case ("GET", ""), ("HEAD", ""):
            return HTTPResponse(
                status: .ok,
                headers: [
                    ("Content-Type", "text/html; charset=utf-8"),
                    (
                        "Content-Security-Policy",
                        "default-src 'none'; img-src 'self' blob:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
                    ),
                ] + Self.securityHeaders,
                body: EditPage.html
            )
        case ("GET", "state"):
            return json(.ok, stateJSON())
        case ("GET", "original.png"):
            return HTTPResponse(
                status: .ok,
                headers: [("Content-Type", "image/png")] + Self.securityHeaders,
                body: original
            )
        case ("POST", "preview"), ("POST", "save"):
            let arguments = String(decoding: request.body, as: UTF8.self).split(separator: "\n").map(String.init)
            let saving = route == "save" ? settings : nil
            let image = image
            let accepted = workers.submit {
                responder.respond(Self.render(image, arguments: arguments, saving: saving))
            }
            return accepted ? nil : Self.refuse(.serviceUnavailable, "busy: try again")
        case ("POST", "rects"):
            guard let path = settings.rects else { return Self.refuse(.notFound, "no --rects FILE.json was given") }
            do {
                try settings.saveRects(request.body)
                return .text(.ok, "rectangles saved to \(SameFile.resolved(path))", headers: Self.securityHeaders)
            } catch {
                return Self.refuse(.internalServerError, "cannot write \(path): \(error)")
            }
        case ("POST", "done"):
            done.withLock { $0 = true }
            return .text(.ok, "blurlabel edit: stopped; you may close this page", headers: Self.securityHeaders)
        default:
            return Self.refuse(.notFound, "no such page")
        }
    }

    /// The redacted picture for `arguments` (`redact`'s options) saved to `saving`'s output, or
    /// for a preview its rectangles' parts (`EditPatches`) as PNG, where they go in `X-Regions`.
    static func render(_ image: Image, arguments: [String], saving: EditSettings?) -> HTTPResponse {
        do {
            if let settings = saving {
                try settings.save(try EditSettings.redact(image, arguments: arguments))
                return .text(.ok, "saved \(SameFile.resolved(settings.output))", headers: securityHeaders)
            }
            let (result, regions) = try EditSettings.redactWithRegions(image, arguments: arguments)
            let patches = try EditPatches(of: result, regions: regions)
            let png = try PNGEncoder(compressionLevel: 1).encode(patches.atlas)
            return HTTPResponse(
                status: .ok,
                headers: [("Content-Type", "image/png"), ("X-Regions", patches.header)] + securityHeaders,
                body: png
            )
        } catch {
            return refuse(.badRequest, "\(error)")
        }
    }

    func json(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [("Content-Type", "application/json")] + Self.securityHeaders,
            body: Array(text.utf8)
        )
    }

    /// What the page starts from: the picture's size, the paths, the defaults, the saved rectangles,
    /// and what it offers: `redact`'s modes and the σ and block ranges (`Limits`).
    func stateJSON() -> String {
        var rectsText: String? = nil
        if let path = settings.rects, access(path, F_OK) == 0 {
            rectsText = (try? FileIO.read(path, limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) }
        }
        let fields = [
            "\"width\":\(image.width)",
            "\"height\":\(image.height)",
            "\"input\":\(AccessLog.quoted(settings.input))",
            "\"output\":\(AccessLog.quoted(settings.output))",
            "\"outputPath\":\(AccessLog.quoted(SameFile.resolved(settings.output)))",
            "\"mode\":\(AccessLog.quoted(settings.mode))",
            "\"radius\":\(settings.radius)",
            "\"margin\":\(Redaction.defaultMargin)",
            "\"modes\":[\(EditSettings.modes.map(AccessLog.quoted).joined(separator: ","))]",
            "\"maxRadius\":\(Limits.maximumRadius)",
            "\"block\":\(EditSettings.defaultBlock)",
            "\"minBlock\":\(Limits.minimumPixelateBlock)",
            "\"maxBlock\":\(Limits.maximumPixelateBlock)",
            "\"rectsFile\":\(settings.rects.map(AccessLog.quoted) ?? "null")",
            "\"rectsText\":\(rectsText.map(AccessLog.quoted) ?? "null")",
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Compares without stopping at the first difference.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
