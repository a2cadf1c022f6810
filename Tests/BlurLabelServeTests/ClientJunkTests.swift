import Foundation
import Testing

@testable import BlurLabelServe

/// What the server does with requests no client library would send, pinned down: libmicrohttpd
/// (Debian's 0.9.75) parses the request line and header fields before any code of ours runs, so
/// these are its answers. The rule the tests hold: no 5xx but 505 for an HTTP major version other
/// than 1 (RFC 9110 §15.6.6 prescribes it), never a crash, and the server goes on serving.
@Suite("junk from clients", .serialized)
struct ClientJunkTests {
    /// What comes back for `bytes` sent on a fresh connection that is then half-closed (so the
    /// server sees the end of what the client sends), and how long the answer took.
    static func answer(_ bytes: [UInt8], port: UInt16) throws -> (reply: RawHTTP.Reply?, raw: [UInt8], seconds: Double)
    {
        let fd = try RawHTTP.connect(port: port, timeout: 10)
        defer { close(fd) }
        let started = Date()
        RawHTTP.sendAll(fd, bytes)
        shutdown(fd, Int32(SHUT_WR))
        let raw = RawHTTP.readAll(fd)
        return (RawHTTP.parse(raw), raw, Date().timeIntervalSince(started))
    }

    static func stillServes(_ server: TestServer) throws {
        #expect(try RawHTTP.request("/healthz", port: server.port).status == 200)
        let metrics = try RawHTTP.request("/metrics", port: server.port).text
        #expect(!metrics.contains("status=\"5"), "a 5xx was recorded: \(metrics)")
    }

    @Test func malformedButParsableIs400() throws {
        let server = try TestServer()
        defer { server.stop() }
        let cases: [[UInt8]] = [
            Array("HELLO WORLD\r\n\r\n".utf8),
            Array("GET /healthz XTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            Array("GET /healthz HTTP/1.10\r\nHost: x\r\n\r\n".utf8),
            Array("GET /healthz HTTP/1.1\r\nHost: x\r\na header without a colon\r\n\r\n".utf8),
            Array("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 12ab\r\n\r\n".utf8),
            [0xFF, 0x20, 0xFE, 0x20, 0x01, 0x02, 13, 10, 13, 10],
        ]
        for bytes in cases {
            let (reply, _, _) = try Self.answer(bytes, port: server.port)
            #expect(reply?.status == 400, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        try Self.stillServes(server)
    }

    /// RFC 9110 §15.6.6: 505 is the answer to a major version the server does not support.
    /// libmicrohttpd gives it before the request reaches a handler; it is the one 5xx a client
    /// can cause, and it costs nothing.
    @Test func anotherMajorVersionIs505() throws {
        let server = try TestServer()
        defer { server.stop() }
        for version in ["HTTP/2.0", "HTTP/9.9", "HTTP/0.9"] {
            let (reply, _, _) = try Self.answer(
                Array("GET /healthz \(version)\r\nHost: x\r\n\r\n".utf8),
                port: server.port
            )
            #expect(reply?.status == 505, "\(version)")
            #expect(reply?.headers["connection"]?.lowercased() == "close", "\(version)")
        }
        // Minor versions of 1 are HTTP/1.1 (RFC 9110 §2.5).
        #expect(
            try Self.answer(Array("GET /healthz HTTP/1.7\r\nHost: x\r\n\r\n".utf8), port: server.port).reply?.status
                == 200
        )
        #expect(try RawHTTP.request("/healthz", port: server.port).status == 200)
    }

    /// A request line without a space (no method and target to tell apart), or with an empty
    /// method: libmicrohttpd 0.9.75 closes the connection without an answer (its parser returns
    /// "serious error" before it can queue one; 0.9.77 rewrote that parser). At once, not at a
    /// timeout, and nothing else is disturbed.
    @Test func requestLinesWithoutMethodAndTargetAreClosedUnanswered() throws {
        let server = try TestServer()
        defer { server.stop() }
        let cases: [[UInt8]] = [
            Array("HELLO\r\n\r\n".utf8),
            Array(" /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            [0xFF, 0xFE, 0x01, 0x80, 0x7F, 13, 10, 13, 10],
            [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03, 13, 10, 13, 10],
        ]
        for bytes in cases {
            let fd = try RawHTTP.connect(port: server.port, timeout: 10)
            let started = Date()
            RawHTTP.sendAll(fd, bytes)
            // No half-close here: the server itself closes, and without a byte.
            let raw = RawHTTP.readAll(fd)
            close(fd)
            #expect(raw.isEmpty, "\(bytes): \(String(decoding: raw, as: UTF8.self))")
            #expect(Date().timeIntervalSince(started) < 3, "\(bytes): closed only at the timeout")
        }
        try Self.stillServes(server)
    }

    /// Seeded random junk: whole requests of random bytes, and well-formed request lines with
    /// random bytes for a target. Every answer is a 4xx (or none: the connection closed), never a
    /// 5xx, and the server goes on.
    @Test func randomBytesNeverGet5xx() throws {
        let server = try TestServer(idleTimeout: 1)
        defer { server.stop() }
        var random = SeededBytes(seed: 29)
        var answered = 0
        for index in 0..<300 {
            var bytes: [UInt8]
            if index % 2 == 0 {
                bytes = (0..<random.next(below: 3000) + 1).map { _ in random.byte() }
                // Line ends and spaces often enough to make lines and words.
                for _ in 0..<random.next(below: 8) { bytes.insert(13, at: random.next(below: bytes.count)) }
                for _ in 0..<random.next(below: 8) { bytes.insert(10, at: random.next(below: bytes.count)) }
                for _ in 0..<random.next(below: 4) { bytes.insert(32, at: random.next(below: bytes.count)) }
            } else {
                let target = (0..<random.next(below: 200) + 1).map { _ in random.byte() }
                    .filter { $0 != 13 && $0 != 10 && $0 != 32 }
                bytes = Array("GET /".utf8) + target + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            }
            let (reply, raw, _) = try Self.answer(bytes, port: server.port)
            if let reply {
                answered += 1
                #expect((400..<500).contains(reply.status), "case \(index): \(reply.status)")
            } else {
                #expect(raw.isEmpty, "case \(index): an answer that is no HTTP response")
            }
        }
        #expect(answered > 150)
        try Self.stillServes(server)
    }
}

/// A small deterministic generator (SplitMix64) for reproducible junk.
struct SeededBytes {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below limit: Int) -> Int { limit <= 0 ? 0 : Int(next() % UInt64(limit)) }

    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
