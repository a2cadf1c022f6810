import BlurLabelCLI
import BlurLabelServeSettings
import BlurredLabelCore
import Foundation
import HTTPServer

@testable import BlurLabelServe

#if canImport(Glibc)
import Glibc
#endif

/// Keys the tests sign with (hex, as the environment gives them).
enum TestKeys {
    static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
    static let oldKey = "0011223344556677889900112233445566778899001122334455667788990011"
    static let oldSalt = "aabbcc"
    static let encKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    static var environment: [String: String] {
        ["BLURLABEL_KEY": key, "BLURLABEL_SALT": salt, "BLURLABEL_ENC_KEY": encKey]
    }
}

/// A label server in this process on a port the kernel chose.
final class TestServer: Sendable {
    let server: HTTPServer
    let workers: BoundedWorkers
    let service: LabelService
    var port: UInt16 { server.port }

    init(
        environment: [String: String] = TestKeys.environment,
        unsigned: Bool = false,
        presets: Presets = Presets(),
        cacheBytes: Int = 1 << 20,
        budget: RenderBudget = .standard,
        workers workerCount: Int = 2,
        queue: Int = 32,
        idleTimeout: Int = 10,
        ioThreads: Int = 2,
        host: String = "127.0.0.1",
        inlineLimitSeconds: Double = InlineRenders.standardLimitSeconds
    ) throws {
        let keys = try Keys { environment[$0] }
        workers = BoundedWorkers(threads: workerCount, capacity: queue)
        let holder = LockedValue<HTTPServer?>(nil)
        let service = LabelService(
            keys: keys,
            unsigned: unsigned,
            presets: presets,
            cacheBytes: cacheBytes,
            budget: budget,
            workers: workers,
            inline: InlineRenders(limitSeconds: inlineLimitSeconds),
            inFlight: { holder.withLock { $0?.inFlight ?? 0 } }
        )
        self.service = service
        // The label port as serve makes it, on a port the kernel chooses.
        var settings = ServeSettings()
        settings.host = host
        settings.port = 0
        settings.ioThreads = ioThreads
        settings.timeoutSeconds = idleTimeout
        let metrics = service.metrics
        server = try HTTPServer(
            HTTPServer.Configuration(labels: settings),
            handler: { service.handle($0, $1) },
            observer: { metrics.record($0) }
        )
        let started = server
        holder.withLock { $0 = started }
    }

    func stop() {
        server.shutdown(drainSeconds: 5)
        workers.drain(seconds: 5)
    }

    /// A signed path for `text` with `pairs` (signed with `key`/`salt`, default the server's),
    /// ending in `suffix` (a format's extension, or none).
    static func path(
        _ text: String,
        _ pairs: [(String, String)] = [],
        suffix: String = ".png",
        encrypted: Bool = false,
        key: String = TestKeys.key,
        salt: String = TestKeys.salt
    ) -> String {
        let segment: String
        if encrypted {
            segment = EncryptedText.segment(text, key: Keys.hex(Substring(TestKeys.encKey))!)!
        } else {
            segment = Base64URL.encode(Array(text.utf8))
        }
        let rest =
            URLPairs.segments(pairs.map { (name: $0.0, value: $0.1) }) + "/" + segment + suffix
        let signature = Keys.signature(of: rest, key: Keys.hex(Substring(key))!, salt: Keys.hex(Substring(salt))!)
        return "/" + signature + rest
    }
}

/// A minimal HTTP client over a raw socket: it sends exactly the bytes given, so the tests can
/// send what no HTTP library would.
enum RawHTTP {
    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    enum Failure: Error { case connect, noReply }

    /// A connected socket with receive and send timeouts, to `host` (IPv4, or IPv6 without
    /// brackets).
    static func connect(port: UInt16, timeout: Double = 10, host: String = "127.0.0.1") throws -> Int32 {
        let six = host.contains(":")
        let fd = socket(six ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.connect }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var connected: Int32 = -1
        if six {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            if inet_pton(AF_INET6, host, &address.sin6_addr) == 1 {
                connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                    }
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr(host)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure.connect
        }
        return fd
    }

    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// What the server sends until it closes (or the timeout); with `oneResponse`, only until
    /// one whole response (headers and `Content-Length` bytes) has come.
    static func readAll(_ fd: Int32, oneResponse: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got <= 0 { break }
            out += buffer[0..<got]
            if oneResponse, let reply = parse(out), let length = reply.headers["content-length"].flatMap(Int.init),
                reply.body.count >= length
            {
                break
            }
        }
        return out
    }

    /// Sends `bytes` on a new connection and returns all it gets back.
    static func exchange(
        _ bytes: [UInt8],
        port: UInt16,
        timeout: Double = 10,
        host: String = "127.0.0.1"
    ) throws
        -> [UInt8]
    {
        let fd = try connect(port: port, timeout: timeout, host: host)
        defer { close(fd) }
        sendAll(fd, bytes)
        return readAll(fd, oneResponse: true)
    }

    static func request(
        _ path: String,
        port: UInt16,
        method: String = "GET",
        headers: [String: String] = [:],
        host: String = "127.0.0.1"
    ) throws -> Reply {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        guard let reply = parse(try exchange(Array(text.utf8), port: port, host: host)) else { throw Failure.noReply }
        return reply
    }

    /// `/metrics` once `settled` holds for its text, or the last text after 10 s. A request is
    /// counted when the server has finished sending it, which can come a moment after the client
    /// has read the answer (long under ThreadSanitizer), so a test that counts asks again.
    static func metrics(port: UInt16, until settled: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var text = try request("/metrics", port: port).text
        while !settled(text) && Date() < deadline {
            usleep(50_000)
            text = try request("/metrics", port: port).text
        }
        return text
    }

    /// The first response in `raw`, or nil when there is none.
    static func parse(_ raw: [UInt8]) -> Reply? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else { return nil }
        let head = String(decoding: raw[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces
            )
        }
        var body = Array(raw[(end + 4)...])
        if let length = headers["content-length"].flatMap(Int.init), length <= body.count {
            body = Array(body[0..<length])
        }
        return Reply(status: status, headers: headers, body: body)
    }
}
