import BlurLabelServeSettings
import Foundation
import Testing

@testable import BlurLabelServe

/// WebP and AVIF over HTTP: the URL's extension names the format; without one (or with `.auto`)
/// `Accept` picks it, each variant with its own type, ETag and cache entry, `Vary: Accept`, and
/// nothing else of the header kept. `quality:N` is WebP's and AVIF's.
@Suite("Formats over HTTP", .serialized)
struct FormatNegotiationTests {
    static let chromium = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
    static let webpOnly = "image/webp,*/*"
    static let png = "image/png,image/*;q=0.8"
    static let label: [(String, String)] = [("size", "24"), ("radius", "2")]

    /// The format a file's first bytes say it is.
    static func kind(_ body: [UInt8]) -> String {
        if body.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if body.count > 12, body.starts(with: Array("RIFF".utf8)), Array(body[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        if body.count > 12, Array(body[4..<12]) == Array("ftypavif".utf8) { return "image/avif" }
        return "unknown"
    }

    func get(
        _ server: TestServer,
        _ path: String,
        accept: String?,
        _ headers: [String: String] = [:]
    ) throws
        -> RawHTTP.Reply
    {
        var headers = headers
        if let accept { headers["Accept"] = accept }
        return try RawHTTP.request(path, port: server.port, headers: headers)
    }

    @Test("Accept picks AVIF, else WebP, else PNG, with Vary and a distinct ETag each, cached too")
    func acceptPicksTheVariant() throws {
        let server = try TestServer()
        defer { server.stop() }
        for suffix in ["", ".auto"] {
            let path = TestServer.path("12,99 €", Self.label, suffix: suffix)
            var tags: [String: String] = [:]
            // The second round is answered from the cache: the same type, tag and Vary.
            for round in 0..<2 {
                for (accept, type) in [
                    (Self.chromium, "image/avif"), (Self.webpOnly, "image/webp"), (Self.png, "image/png"),
                    (nil, "image/png"), ("*/*", "image/png"), ("image/avif;q=0, image/webp", "image/webp"),
                ] {
                    let reply = try get(server, path, accept: accept)
                    #expect(reply.status == 200, "\(suffix) \(accept ?? "no Accept"): \(reply.text)")
                    #expect(reply.headers["content-type"] == type, "\(suffix) \(accept ?? "no Accept") round \(round)")
                    #expect(Self.kind(reply.body) == type)
                    #expect(reply.headers["vary"] == "Accept")
                    let tag = try #require(reply.headers["etag"])
                    #expect(tags[type, default: tag] == tag, "one tag a variant")
                    tags[type] = tag
                }
            }
            #expect(Set(tags.values).count == 3, "\(tags)")
        }
    }

    @Test("junk and hostile Accept headers get PNG, and at most three cache entries a label")
    func junkAcceptGetsPNGAndTheCacheStaysBounded() throws {
        let server = try TestServer()
        defer { server.stop() }
        let path = TestServer.path("4,20", Self.label, suffix: "")
        let junk = [
            "garbage", ";;;,,,", "image/avif x", "text/html", String(repeating: "image/avif,", count: 500),
            "IMAGE/WEBPX", "image/av", "image/webp;q=0",
        ]
        for (index, accept) in junk.enumerated() {
            let reply = try get(server, path, accept: accept)
            #expect(reply.status == 200 && reply.headers["content-type"] == "image/png", "junk \(index)")
            #expect(Self.kind(reply.body) == "image/png" && reply.headers["vary"] == "Accept")
        }
        #expect(server.service.cache?.size.entries == 1, "every junk header is the PNG variant")
        for index in 0..<40 {
            let accept =
                index % 3 == 0 ? "image/avif;x=\(index)" : index % 3 == 1 ? "image/webp, a/\(index)" : "b/\(index)"
            _ = try get(server, path, accept: accept)
        }
        #expect(server.service.cache?.size.entries == 3)
    }

    @Test("If-None-Match of one variant does not revalidate another; its own is a 304 with Vary")
    func revalidationIsPerVariant() throws {
        let server = try TestServer()
        defer { server.stop() }
        let path = TestServer.path("7,50", Self.label, suffix: "")
        let avif = try get(server, path, accept: Self.chromium)
        let avifTag = try #require(avif.headers["etag"])
        let png = try get(server, path, accept: Self.png, ["If-None-Match": avifTag])
        #expect(png.status == 200 && png.headers["content-type"] == "image/png")
        let pngTag = try #require(png.headers["etag"])
        let webp = try get(server, path, accept: Self.webpOnly, ["If-None-Match": "\(avifTag), \(pngTag)"])
        #expect(webp.status == 200 && webp.headers["content-type"] == "image/webp")
        // Its own tag: 304, from the cache and without it (another server, nothing cached).
        for cacheBytes in [1 << 20, 0] {
            let other = try TestServer(cacheBytes: cacheBytes)
            defer { other.stop() }
            let again = try get(other, path, accept: Self.chromium, ["If-None-Match": avifTag])
            #expect(again.status == 304 && again.headers["vary"] == "Accept" && again.headers["etag"] == avifTag)
            let cached = try get(server, path, accept: Self.chromium, ["If-None-Match": avifTag])
            #expect(cached.status == 304 && cached.headers["vary"] == "Accept")
        }
    }

    @Test("an extension names the format whatever Accept says, without Vary")
    func extensionNamesTheFormat() throws {
        let server = try TestServer()
        defer { server.stop() }
        var tags: Set<String> = []
        for (suffix, type) in [(".png", "image/png"), (".webp", "image/webp"), (".avif", "image/avif")] {
            let path = TestServer.path("12,99 €", Self.label, suffix: suffix)
            var bodies: Set<[UInt8]> = []
            for accept in [Self.chromium, Self.png, "junk"] {
                let reply = try get(server, path, accept: accept)
                #expect(reply.status == 200 && reply.headers["content-type"] == type, "\(suffix): \(reply.text)")
                #expect(Self.kind(reply.body) == type && reply.headers["vary"] == nil)
                bodies.insert(reply.body)
                tags.insert(reply.headers["etag"] ?? "")
            }
            #expect(bodies.count == 1)
        }
        #expect(tags.count == 3)
        // The explicit PNG is render's PNG: the same bytes as before formats existed.
        let explicit = try get(server, TestServer.path("12,99 €", Self.label), accept: Self.chromium)
        let options = try URLLabelOptions.options(URLPairs.canonical(Self.label.map { (name: $0.0, value: $0.1) }))
        #expect(explicit.body == (try URLLabelOptions.png(options, text: "12,99 €")))
        for suffix in [".gif", ".PNG", ".", ".png.webp"] {
            let reply = try get(server, TestServer.path("12,99 €", Self.label, suffix: suffix), accept: nil)
            #expect(reply.status == 400, "\(suffix)")
        }
    }

    @Test("quality:N changes a WebP's and an AVIF's bytes; a bad quality or a PNG's is a 400")
    func qualityOption() throws {
        let server = try TestServer()
        defer { server.stop() }
        for suffix in [".webp", ".avif"] {
            let low = try get(
                server,
                TestServer.path("12,99 €", Self.label + [("quality", "20")], suffix: suffix),
                accept: nil
            )
            let high = try get(
                server,
                TestServer.path("12,99 €", Self.label + [("quality", "95")], suffix: suffix),
                accept: nil
            )
            let standard = try get(server, TestServer.path("12,99 €", Self.label, suffix: suffix), accept: nil)
            let lossless = try get(
                server,
                TestServer.path("12,99 €", Self.label + [("quality", "lossless")], suffix: suffix),
                accept: nil
            )
            for reply in [low, high, standard, lossless] { #expect(reply.status == 200, "\(suffix): \(reply.text)") }
            #expect(Set([low.body, high.body, lossless.body]).count == 3)
            #expect(low.body.count < high.body.count)
            #expect(low.headers["etag"] != high.headers["etag"])
        }
        // Negotiated: the quality is the WebP's; the PNG variant ignores it.
        let negotiated = try get(
            server,
            TestServer.path("12,99 €", Self.label + [("quality", "20")], suffix: ""),
            accept: Self.webpOnly
        )
        let named = try get(
            server,
            TestServer.path("12,99 €", Self.label + [("quality", "20")], suffix: ".webp"),
            accept: nil
        )
        #expect(negotiated.status == 200 && negotiated.body == named.body)
        let pngVariant = try get(
            server,
            TestServer.path("12,99 €", Self.label + [("quality", "20")], suffix: ""),
            accept: nil
        )
        let plain = try get(server, TestServer.path("12,99 €", Self.label), accept: nil)
        #expect(pngVariant.status == 200 && pngVariant.body == plain.body)
        // Refused: out of range or not a number in any format, and quality for a named PNG.
        for (value, suffix) in [("101", ".webp"), ("-1", ".avif"), ("high", ""), ("101", ""), ("80", ".png")] {
            for accept in [Self.chromium, Self.png] {
                let reply = try get(
                    server,
                    TestServer.path("1", Self.label + [("quality", value)], suffix: suffix),
                    accept: accept
                )
                #expect(reply.status == 400, "quality:\(value)\(suffix) \(accept): \(reply.status)")
                #expect(reply.text.contains("quality"), "\(reply.text)")
            }
        }
        let compressed = try get(
            server,
            TestServer.path("1", Self.label + [("compression", "9")], suffix: ".webp"),
            accept: nil
        )
        #expect(compressed.status == 400 && compressed.text.contains("compression"))
    }

    @Test("sign writes the extension --output-format names and quality in its canonical place")
    func signWritesTheFormat() throws {
        let keys = try Keys { TestKeys.environment[$0] }
        func signed(_ arguments: [String]) throws -> String {
            guard case let .sign(request) = try SignRequest.parse(arguments) else {
                throw URLLabelOptions.Failure("help")
            }
            return try ServeMain.path(request, keys: keys)
        }
        #expect(try signed(["5", "--size", "20"]).hasSuffix("/size:20/NQ.png"))
        #expect(try signed(["5", "--size", "20", "--output-format", "webp"]).hasSuffix("/size:20/NQ.webp"))
        #expect(try signed(["5", "--output-format", "avif", "--size", "20"]).hasSuffix("/size:20/NQ.avif"))
        #expect(try signed(["5", "--size", "20", "--output-format", "auto"]).hasSuffix("/size:20/NQ"))
        let orders = [
            ["--size", "20", "--quality", "60", "--radius", "3", "--output-format", "webp"],
            ["--output-format", "webp", "--quality", "60", "--radius", "3", "--size", "20"],
        ]
        for order in orders {
            #expect(try signed(["5"] + order).hasSuffix("/quality:60/radius:3/size:20/NQ.webp"))
        }
        for refused in [
            ["--quality", "60"], ["--quality", "60", "--output-format", "png"],
            ["--quality", "101", "--output-format", "webp"],
            ["--compression", "9", "--output-format", "avif"], ["--output-format", "gif"],
        ] {
            #expect(throws: (any Error).self, "\(refused)") { try signed(["5"] + refused) }
        }
        // What sign writes, the server serves in that format.
        let server = try TestServer()
        defer { server.stop() }
        for (format, type) in [("webp", "image/webp"), ("avif", "image/avif"), ("auto", "image/webp")] {
            let path = try signed(["5", "--size", "20", "--quality", "70", "--output-format", format])
            let reply = try get(server, path, accept: Self.webpOnly)
            #expect(reply.status == 200 && reply.headers["content-type"] == type, "\(format): \(reply.text)")
        }
    }

    @Test("/metrics counts each format's renders, their seconds and their bytes")
    func metricsByFormat() throws {
        let server = try TestServer()
        defer { server.stop() }
        let path = TestServer.path("12,99 €", Self.label, suffix: "")
        var sizes: [String: Int] = [:]
        for (accept, format) in [
            (Self.chromium, "avif"), (Self.webpOnly, "webp"), (Self.png, "png"), (Self.png, "png"),
        ] {
            let reply = try get(server, path, accept: accept)
            #expect(reply.status == 200)
            sizes[format] = reply.body.count  // the second PNG is a cache hit: no render
        }
        let text = try RawHTTP.metrics(port: server.port) {
            $0.contains("blurlabel_format_renders_total{format=\"png\"}")
        }
        let (types, samples) = ServeOperatorTests.parse(text)
        #expect(types["blurlabel_format_renders_total"] == "counter")
        #expect(types["blurlabel_format_render_seconds_total"] == "counter")
        #expect(types["blurlabel_format_bytes_total"] == "counter")
        for format in ["png", "webp", "avif"] {
            let labels = ["format": format]
            #expect(ServeOperatorTests.value(samples, "blurlabel_format_renders_total", labels) == 1, "\(format)")
            #expect(
                ServeOperatorTests.value(samples, "blurlabel_format_bytes_total", labels)
                    == Double(sizes[format] ?? -1),
                "\(format)"
            )
            let seconds = try #require(
                ServeOperatorTests.value(samples, "blurlabel_format_render_seconds_total", labels)
            )
            #expect(seconds > 0 && seconds < 60, "\(format): \(seconds)")
        }
    }
}
