import BlurredLabelCore
import Foundation
import HTTPServer
import Testing

@testable import BlurLabelServe

#if canImport(Glibc)
import Glibc
#endif

/// Issue 40's attacks on availability, each written as the attacker sends it: a body that
/// trickles in, a response nobody reads, a stop while a render runs, the same heavy URL many
/// times at once, clients that leave before their render starts, a crowd of slow readers.
@Suite("serve availability", .serialized)
struct ServeAvailabilityTests {
    /// A bare server on loopback, on a port the kernel chooses.
    static func loopback(idleTimeoutSeconds: Int) -> HTTPServer.Configuration {
        HTTPServer.Configuration(
            host: "127.0.0.1",
            port: 0,
            threads: 2,
            connectionLimit: 1024,
            idleTimeoutSeconds: idleTimeoutSeconds
        )
    }

    /// The renders counted by `/metrics`.
    static func renders(_ server: TestServer) throws -> Int {
        let text = try RawHTTP.request("/metrics", port: server.port).text
        let line = text.split(separator: "\n").first { $0.hasPrefix("blurlabel_renders_total ") }
        return line.flatMap { Int($0.split(separator: " ")[1]) } ?? -1
    }

    /// The process's resident memory, from /proc.
    static func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// Whether the server closed `fd` (end of stream or reset) within `seconds`.
    static func closed(_ fd: Int32, within seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < end {
            var probe = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&probe, 1, 100) > 0 else { continue }
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got <= 0 { return true }
        }
        return false
    }

    @Test func aBodyThatTricklesInIsCutOffAtTheDeadline() throws {
        let server = try TestServer(idleTimeout: 2)
        defer { server.stop() }
        let fd = try RawHTTP.connect(port: server.port, timeout: 10)
        defer { close(fd) }
        RawHTTP.sendAll(fd, Array("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n".utf8))
        let began = Date()
        var cut = false
        // A body byte every 0.4 s: never idle, never whole.
        while Date().timeIntervalSince(began) < 8 {
            if send(fd, "z", 1, Int32(MSG_NOSIGNAL)) <= 0 || Self.closed(fd, within: 0.4) {
                cut = true
                break
            }
        }
        #expect(cut)
        #expect(Date().timeIntervalSince(began) < 4, "the whole request had 2 s")
    }

    @Test func aResponseNobodyReadsIsDroppedAtTheDeadline() throws {
        let records = LockedValue<[HTTPExchangeRecord]>([])
        let configuration = Self.loopback(idleTimeoutSeconds: 1)
        let big = ResponseBytes([UInt8](repeating: 7, count: 64 << 20))
        let server = try HTTPServer(
            configuration,
            handler: { _, _ in HTTPResponse(status: 200, content: big) },
            observer: { record in records.withLock { $0.append(record) } }
        )
        defer { server.shutdown(drainSeconds: 1) }
        let fd = try RawHTTP.connect(port: server.port, timeout: 10)
        defer { close(fd) }
        RawHTTP.sendAll(fd, Array("GET /big HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        // Read nothing; the server gives up on the response after its second.
        let end = Date().addingTimeInterval(5)
        while records.withLock({ $0.isEmpty }) && Date() < end { usleep(50_000) }
        let record = records.withLock { $0.first }
        #expect(record?.completed == false)
        #expect((record?.seconds ?? 99) < 3)
    }

    @Test func stoppingWhileAHandlerStillWorksAnswers503AndNeverAborts() throws {
        let kept = LockedValue<[HTTPResponder]>([])
        let server = try HTTPServer(Self.loopback(idleTimeoutSeconds: 10)) { _, responder in
            kept.withLock { $0.append(responder) }  // answered only after the stop
            return nil
        }
        let sockets = try (0..<3).map { _ in
            let fd = try RawHTTP.connect(port: server.port, timeout: 10)
            RawHTTP.sendAll(fd, Array("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            return fd
        }
        defer { for fd in sockets { close(fd) } }
        while kept.withLock({ $0.count }) < 3 { usleep(10_000) }
        let finished = server.shutdown(drainSeconds: 0.3)
        #expect(!finished)
        for fd in sockets {
            let reply = RawHTTP.parse(RawHTTP.readAll(fd, oneResponse: true))
            #expect(reply?.status == 503)
            #expect(reply?.headers["connection"]?.lowercased() == "close")
        }
        // The handler's late answers go nowhere, and nothing breaks.
        for responder in kept.withLock({ $0 }) {
            #expect(responder.isAbandoned)
            responder.respond(.text(200, "too late"))
        }
    }

    @Test func concurrentRequestsForOneLabelRenderItOnce() throws {
        let server = try TestServer(cacheBytes: 0, workers: 2)
        defer { server.stop() }
        let path = TestServer.path("6 at once", [("size", "300"), ("radius", "40")])
        let sockets = try (0..<6).map { _ in
            let fd = try RawHTTP.connect(port: server.port, timeout: 30)
            RawHTTP.sendAll(fd, Array("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            return fd
        }
        var bodies: [[UInt8]] = []
        for fd in sockets {
            let reply = RawHTTP.parse(RawHTTP.readAll(fd, oneResponse: true))
            #expect(reply?.status == 200)
            bodies.append(reply?.body ?? [])
            close(fd)
        }
        #expect(Set(bodies).count == 1 && !bodies[0].isEmpty)
        #expect(try Self.renders(server) == 1)
    }

    @Test func aQueuedRenderWhoseClientLeftIsNotRendered() throws {
        // A budget the heavy label fits (it is over the default 64 MB).
        let server = try TestServer(cacheBytes: 0, budget: RenderBudget(megabytes: 1024), workers: 1)
        defer { server.stop() }
        // The one worker is busy with a heavy label for a client that waits.
        let busy = try RawHTTP.connect(port: server.port, timeout: 60)
        defer { close(busy) }
        let heavy = TestServer.path("busy worker", [("size", "600"), ("radius", "150")])
        RawHTTP.sendAll(busy, Array("GET \(heavy) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        usleep(100_000)
        // Five clients ask for other labels and hang up before the worker is free.
        for index in 0..<5 {
            let fd = try RawHTTP.connect(port: server.port, timeout: 5)
            let path = TestServer.path("left \(index)", [("size", "300"), ("radius", "40")])
            RawHTTP.sendAll(fd, Array("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            close(fd)
        }
        let reply = RawHTTP.parse(RawHTTP.readAll(busy, oneResponse: true))
        #expect(reply?.status == 200)
        // Give the abandoned jobs time to be taken (and skipped) by the worker.
        let end = Date().addingTimeInterval(10)
        while server.service.flights.count > 0 && Date() < end { usleep(20_000) }
        #expect(server.service.flights.count == 0)
        #expect(try Self.renders(server) == 1, "only the label somebody waited for")
    }

    /// A connected socket that takes almost nothing: a 4 KB receive buffer, never read.
    static func slowReader(port: UInt16, request: String) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        RawHTTP.sendAll(fd, Array(request.utf8))
        return fd
    }

    @Test func aHundredSlowReadersOfOneResponseShareItsBytes() throws {
        // 16 MB, more than a socket's buffers take: each reader's response stays with the server.
        let shared = ResponseBytes([UInt8](repeating: 9, count: 16 << 20))
        let server = try HTTPServer(Self.loopback(idleTimeoutSeconds: 30)) { _, _ in
            HTTPResponse(status: 200, content: shared)
        }
        defer { server.shutdown(drainSeconds: 0) }
        let before = Self.residentBytes()
        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        for _ in 0..<100 {
            sockets.append(Self.slowReader(port: server.port, request: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n"))
        }
        // Every response queued, none read.
        let end = Date().addingTimeInterval(10)
        while server.inFlight < 100 && Date() < end { usleep(50_000) }
        #expect(server.inFlight == 100)
        let grown = Self.residentBytes() - before
        #expect(grown < 10 << 20, "100 readers of one 16 MB response grew memory by \(grown) bytes")
    }

    @Test func aCacheHitSendsTheCachedBytesThemselves() throws {
        let cache = PNGCache(limitBytes: 1 << 20)
        let png = ResponseBytes([UInt8](repeating: 1, count: 1000))
        cache.insert("/a", PNGCache.Entry(png: png, etag: "\"a\""))
        #expect(cache.entry("/a")?.png === png)
        #expect(cache.entry("/a")?.png === cache.entry("/a")?.png)
    }
}
