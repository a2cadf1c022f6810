import BlurLabelCLI
import BlurLabelServeSettings
import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelServe

/// The label server in this process, over real sockets: answers, caching headers, every kind of
/// bad request, slow clients and overload.
@Suite("blurlabel serve", .serialized)
struct LabelServerTests {
    @Test func servesTheSameBytesAsRender() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(String, [(String, String)], [String])] = [
            ("12.99 €", [("size", "32"), ("radius", "3")], ["--size", "32", "--radius", "3"]),
            ("12.99 €", [("size", "24"), ("radius", "unreadable")], ["--size", "24", "--radius", "unreadable"]),
            (
                "Sale", [("color", "#c0392b"), ("background", "transparent")],
                ["--color", "#c0392b", "--background", "transparent"]
            ),
            (
                "4,20", [("secure", "true"), ("format", "##,##"), ("seed", "7")],
                ["--secure", "--format", "##,##", "--seed", "7"]
            ),
        ]
        for (index, (text, pairs, arguments)) in cases.enumerated() {
            let output = folder.appendingPathComponent("\(index).png").path
            #expect(CommandLineTool.run(["render", text, "-o", output] + arguments) == 0)
            let reply = try RawHTTP.request(TestServer.path(text, pairs), port: server.port)
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "image/png")
            #expect(reply.body == Array(try Data(contentsOf: URL(fileURLWithPath: output))), "case \(index)")
        }
    }

    @Test func encryptedTextsServeTheSamePicture() throws {
        let server = try TestServer()
        defer { server.stop() }
        let plain = try RawHTTP.request(TestServer.path("12.99 €", [("size", "24")]), port: server.port)
        let sealed = try RawHTTP.request(
            TestServer.path("12.99 €", [("size", "24")], encrypted: true),
            port: server.port
        )
        #expect(plain.status == 200 && sealed.status == 200)
        #expect(plain.body == sealed.body)
        // A flipped ciphertext character, re-signed: refused, never a picture.
        let path = TestServer.path("12.99 €", [("size", "24")], encrypted: true)
        let (_, rest) = LabelPath.split(path)!
        var characters = Array(rest)
        let at = characters.count - 10
        characters[at] = characters[at] == "A" ? "B" : "A"
        let tamperedRest = String(characters)
        let signed =
            "/"
            + Keys.signature(
                of: tamperedRest,
                key: Keys.hex(Substring(TestKeys.key))!,
                salt: Keys.hex(Substring(TestKeys.salt))!
            ) + tamperedRest
        let tampered = try RawHTTP.request(signed, port: server.port)
        #expect(tampered.status == 400 || tampered.status == 403)
        #expect(tampered.headers["content-type"] != "image/png")
    }

    @Test func signaturesDecide() throws {
        let server = try TestServer(environment: [
            "BLURLABEL_KEY": "\(TestKeys.key),\(TestKeys.oldKey)",
            "BLURLABEL_SALT": "\(TestKeys.salt),\(TestKeys.oldSalt)",
        ])
        defer { server.stop() }
        let good = TestServer.path("9,99")
        #expect(try RawHTTP.request(good, port: server.port).status == 200)
        let rotated = TestServer.path("9,99", key: TestKeys.oldKey, salt: TestKeys.oldSalt)
        #expect(try RawHTTP.request(rotated, port: server.port).status == 200)
        let tampered = good.replacingOccurrences(of: "/OSw5OQ.png", with: "/OSw5OA.png")
        #expect(tampered != good)
        #expect(try RawHTTP.request(tampered, port: server.port).status == 403)
        let wrong = TestServer.path("9,99", key: TestKeys.encKey, salt: "00")
        #expect(try RawHTTP.request(wrong, port: server.port).status == 403)
        #expect(try RawHTTP.request("/unsafe/OSw5OQ.png", port: server.port).status == 403)
        #expect(try RawHTTP.request("/x/OSw5OQ.png", port: server.port).status == 403)
    }

    @Test func unsignedServesUnsafePathsOnly() throws {
        let server = try TestServer(environment: [:], unsigned: true)
        defer { server.stop() }
        #expect(try RawHTTP.request("/unsafe/size:20/OSw5OQ.png", port: server.port).status == 200)
        #expect(try RawHTTP.request(TestServer.path("9,99"), port: server.port).status == 403)
    }

    @Test func entityTagsNotModifiedAndHead() throws {
        let server = try TestServer()
        defer { server.stop() }
        let path = TestServer.path("12.99 €")
        let first = try RawHTTP.request(path, port: server.port)
        #expect(first.status == 200)
        let etag = try #require(first.headers["etag"])
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        #expect(first.headers["cache-control"] == "public, max-age=31536000, immutable")
        #expect(first.headers["content-length"] == String(first.body.count))
        let again = try RawHTTP.request(path, port: server.port, headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.headers["etag"] == etag)
        let other = try RawHTTP.request(path, port: server.port, headers: ["If-None-Match": "\"other\""])
        #expect(other.status == 200 && other.body == first.body)
        let head = try RawHTTP.request(path, port: server.port, method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["content-length"] == String(first.body.count))
        #expect(head.headers["etag"] == etag)
    }

    @Test func badOptionsAndTextsAre400WithTheCommandLinesMessageAndNoText() throws {
        let server = try TestServer()
        defer { server.stop() }
        let secret = "SECRET-4711"
        let cases: [([(String, String)], String)] = [
            ([("size", "5000")], "--size must be from"),
            ([("radius", "abc")], "--radius needs a finite decimal number"),
            ([("colour", "red")], "unknown option 'colour'"),
            ([("size", "20"), ("size", "21")], "given more than once"),
            ([("secure", "yes")], "must be true or false"),
            ([("format", "##")], "--format and --seed only apply with --secure"),
            ([("font", "/etc/passwd")], "only installed family names"),
            ([("color", "notacolour")], "--color"),
            ([("secure", "true")], "--secure needs --format"),
            ([("secure", "true"), ("format", "##"), ("radius", "2.5")], "at least 4.9, the legibility floor"),
            ([("secure", "true"), ("format", "##.##")], "longer than its secure format"),
        ]
        for (pairs, message) in cases {
            let reply = try RawHTTP.request(TestServer.path(secret, pairs), port: server.port)
            #expect(reply.status == 400, "\(pairs)")
            #expect(reply.text.contains(message), "\(pairs): \(reply.text)")
            #expect(!reply.text.contains(secret))
        }
        // Texts: not base64url, not UTF-8, an enc: text without its key's ciphertext.
        for rest in ["/size:20/not*base64.png", "/size:20/_w.png", "/enc:AAAA.png", "/size:20/YQ.jpg", "/size/YQ.png"] {
            let signed =
                "/"
                + Keys.signature(
                    of: rest,
                    key: Keys.hex(Substring(TestKeys.key))!,
                    salt: Keys.hex(Substring(TestKeys.salt))!
                ) + rest
            let reply = try RawHTTP.request(signed, port: server.port)
            #expect(reply.status == 400, "\(rest): \(reply.status) \(reply.text)")
        }
    }

    @Test func malformedRequestsAre4xxAndTheServerGoesOn() throws {
        let server = try TestServer()
        defer { server.stop() }
        func status(_ bytes: [UInt8]) throws -> Int? {
            RawHTTP.parse(try RawHTTP.exchange(bytes, port: server.port))?.status
        }
        #expect(
            try status(Array("GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) == 414
        )
        #expect(
            try status(Array("GET /\(String(repeating: "a", count: 40000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) == 414
        )
        let manyHeaders = (0..<40).map { "X-\($0): \(String(repeating: "v", count: 1000))\r\n" }.joined()
        #expect(try status(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\(manyHeaders)\r\n".utf8)) == 431)
        // Junk, 505 and closed connections: ClientJunkTests.
        #expect(try status(Array("POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc".utf8)) == 405)
        #expect(try status(Array("GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)) == 404)
        for _ in 0..<3 { #expect(try RawHTTP.request("/healthz", port: server.port).status == 200) }
    }

    @Test func slowClientsHoldNoWorkerAndTimeOut() throws {
        let server = try TestServer(workers: 1, idleTimeout: 1)
        defer { server.stop() }
        // Ten clients that stop half way through their request line.
        var slow: [Int32] = []
        for _ in 0..<10 {
            let fd = try RawHTTP.connect(port: server.port, timeout: 5)
            RawHTTP.sendAll(fd, Array("GET /hea".utf8))
            slow.append(fd)
        }
        defer { for fd in slow { close(fd) } }
        // The one worker still renders for everyone else, at once.
        let started = Date()
        #expect(try RawHTTP.request(TestServer.path("1,00"), port: server.port).status == 200)
        #expect(Date().timeIntervalSince(started) < 1)
        // A client that stopped is closed after its second.
        for fd in slow {
            let before = Date()
            let rest = RawHTTP.readAll(fd)  // the server closes: no response to an unfinished request
            #expect(rest.isEmpty || RawHTTP.parse(rest).map { $0.status < 500 } == true)
            #expect(Date().timeIntervalSince(before) < 4)
        }
        // A byte every 0.3 s is never idle for a second, but its request is not whole within the
        // deadline (the same second): closed all the same.
        let dribble = try RawHTTP.connect(port: server.port, timeout: 5)
        defer { close(dribble) }
        let began = Date()
        var closed = false
        for byte in Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: \(String(repeating: "z", count: 60))".utf8) {
            if send(dribble, [byte], 1, Int32(MSG_NOSIGNAL)) <= 0 {
                closed = true
                break
            }
            var probe = pollfd(fd: dribble, events: Int16(POLLIN), revents: 0)
            if poll(&probe, 1, 300) > 0 {
                closed = true
                break
            }
        }
        #expect(closed)
        #expect(Date().timeIntervalSince(began) < 4)
    }

    @Test func overloadIs503WithRetryAfterAtOnce() throws {
        let server = try TestServer(cacheBytes: 0, workers: 1, queue: 1)
        defer { server.stop() }
        // Every request sent before any answer is read: 24 at once, whatever the machine's cores.
        let sockets = try (0..<24).map { index in
            let fd = try RawHTTP.connect(port: server.port, timeout: 30)
            let path = TestServer.path("\(index) slow label", [("size", "200"), ("radius", "30")])
            RawHTTP.sendAll(fd, Array("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            return fd
        }
        let statuses = LockedStatuses()
        for fd in sockets {
            if let reply = RawHTTP.parse(RawHTTP.readAll(fd, oneResponse: true)) {
                statuses.add(reply.status, retryAfter: reply.headers["retry-after"])
            }
            close(fd)
        }
        let all = statuses.all
        #expect(all.count == 24)
        #expect(all.allSatisfy { $0.status == 200 || ($0.status == 503 && $0.retryAfter == "1") }, "\(all)")
        #expect(all.contains { $0.status == 503 })
        #expect(all.contains { $0.status == 200 })
    }

    @Test func healthAndMetrics() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(try RawHTTP.request("/healthz", port: server.port).text == "ok\n")
        let path = TestServer.path("3,50")
        _ = try RawHTTP.request(path, port: server.port)
        _ = try RawHTTP.request(path, port: server.port)
        _ = try RawHTTP.request("/x/y.png", port: server.port)
        let expected = [
            "blurlabel_requests_total{status=\"200\"}", "blurlabel_requests_total{status=\"403\"} 1",
            "blurlabel_cache_hits_total 1", "blurlabel_cache_misses_total 1", "blurlabel_renders_total 1",
            "blurlabel_request_duration_seconds_bucket{le=\"+Inf\"}", "blurlabel_queue_depth 0",
            "blurlabel_requests_in_flight 1", "blurlabel_cache_entries 1",
        ]
        let metrics = try RawHTTP.metrics(port: server.port) { text in expected.allSatisfy(text.contains) }
        for line in expected {
            #expect(metrics.contains(line), "\(line)")
        }
    }

    /// A few thousand requests from several threads, mixed: hits, misses, 304s, refusals. Under
    /// ThreadSanitizer (scripts/checks/test-tsan) this is the server's race check.
    @Test func aLoadOfMixedRequests() throws {
        let server = try TestServer(cacheBytes: 256 << 10, workers: 2, queue: 64, ioThreads: 2)
        defer { server.stop() }
        let paths = (0..<40).map { TestServer.path("\($0),99", [("size", "16")]) }
        let statuses = LockedStatuses()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<250 {
                let reply: RawHTTP.Reply?
                switch i % 5 {
                case 0: reply = try? RawHTTP.request("/bad/YQ.png", port: server.port)
                case 1: reply = try? RawHTTP.request("/metrics", port: server.port)
                default: reply = try? RawHTTP.request(paths[(thread * 7 + i) % paths.count], port: server.port)
                }
                statuses.add(reply?.status ?? 0, retryAfter: nil)
            }
        }
        let all = statuses.all.map(\.status)
        #expect(all.count == 2000)
        #expect(all.allSatisfy { [200, 403, 503].contains($0) }, "\(Set(all))")
        #expect(all.filter { $0 == 200 }.count > 1000)
        #expect(server.server.inFlight <= 1)
    }
}

/// Statuses gathered from several threads.
final class LockedStatuses: Sendable {
    private let state = LockedValue<[(status: Int, retryAfter: String?)]>([])
    func add(_ status: Int, retryAfter: String?) { state.withLock { $0.append((status, retryAfter)) } }
    var all: [(status: Int, retryAfter: String?)] { state.withLock { $0 } }
}
