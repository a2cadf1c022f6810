import BlurLabelCLI
import BlurLabelServeSettings
import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelServe
@testable import HTTPServer

/// `serve` as an operator runs it: `/metrics` on its own address, what a dashboard reads there,
/// labels under a path prefix behind a proxy, `--unsigned` against DNS rebinding, and the
/// start and stop lines in the access log's JSON form. Each server is started from the options
/// as given on the command line (`ServeSettings.parse`, then `ServeInstance`, as `serve` does).
@Suite("serve for operators", .serialized)
struct ServeOperatorTests {
    /// A server started from `arguments` (the listen address is added), with the test keys.
    final class Started: Sendable {
        let instance: ServeInstance
        var port: UInt16 { instance.labels.port }
        var metricsPort: UInt16? { instance.metrics?.port }

        init(_ arguments: [String], environment: [String: String] = TestKeys.environment) throws {
            let all = ["--listen", "127.0.0.1:0", "--no-access-log", "--workers", "2"] + arguments
            guard case let .run(settings) = try ServeSettings.parse(all, environment: { environment[$0] }) else {
                throw RawHTTP.Failure.noReply
            }
            instance = try ServeInstance(settings: settings, keys: try Keys { environment[$0] })
        }

        func stop() {
            _ = instance.labels.shutdown(drainSeconds: 2)
            _ = instance.metrics?.shutdown(drainSeconds: 0)
            _ = instance.workers.drain(seconds: 2)
        }
    }

    /// One sample of the exposition text.
    struct Sample: Equatable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    /// Parses Prometheus' text format (0.0.4) strictly: every line a `# HELP`, a `# TYPE` or a
    /// sample; names and label names valid; label values quoted; each family's TYPE before its
    /// samples and given once; no series twice; histograms' buckets cumulative, ending in
    /// `+Inf` equal to `_count`. Records an issue for anything else.
    static func parse(_ text: String) -> (types: [String: String], samples: [Sample]) {
        let name = #/[a-zA-Z_:][a-zA-Z0-9_:]*/#
        var types: [String: String] = [:]
        var samples: [Sample] = []
        var series = Set<String>()
        #expect(text.hasSuffix("\n"))
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("# HELP ") {
                let parts = line.split(separator: " ", maxSplits: 3)
                #expect(parts.count == 4 && (try? name.wholeMatch(in: parts[2])) != nil, "\(line)")
                continue
            }
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                #expect(parts.count == 4, "\(line)")
                guard parts.count == 4 else { continue }
                #expect(["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]), "\(line)")
                #expect(types[String(parts[2])] == nil, "TYPE given twice: \(line)")
                types[String(parts[2])] = String(parts[3])
                continue
            }
            let match = line.wholeMatch(of: #/([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)/#)
            #expect(match != nil, "not a sample: '\(line)'")
            guard let match else { continue }
            var labels: [String: String] = [:]
            if let body = match.output.2?.dropFirst().dropLast(), !body.isEmpty {
                for pair in body.split(separator: ",") {
                    let parts = pair.wholeMatch(of: #/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/#)
                    #expect(parts != nil, "bad label in '\(line)'")
                    if let parts { labels[String(parts.output.1)] = String(parts.output.2) }
                }
            }
            let value = match.output.3 == "+Inf" ? Double.infinity : Double(match.output.3)
            #expect(value != nil, "bad value in '\(line)'")
            let sampleName = String(match.output.1)
            let family = types.keys.first { family in
                sampleName == family
                    || (types[family] == "histogram"
                        && ["_bucket", "_sum", "_count"].contains { sampleName == family + $0 })
            }
            #expect(family != nil, "no TYPE before '\(line)'")
            #expect(series.insert(String(line.split(separator: " ")[0])).inserted, "series twice: \(line)")
            samples.append(Sample(name: sampleName, labels: labels, value: value ?? .nan))
        }
        for (family, type) in types where type == "histogram" {
            let buckets = samples.filter { $0.name == family + "_bucket" }
            let bounds = buckets.map { $0.labels["le"].flatMap { $0 == "+Inf" ? .infinity : Double($0) } ?? .nan }
            #expect(bounds == bounds.sorted() && bounds.last == .infinity, "\(family): \(bounds)")
            #expect(buckets.map(\.value) == buckets.map(\.value).sorted(), "\(family) is not cumulative")
            #expect(buckets.last?.value == samples.first { $0.name == family + "_count" }?.value)
        }
        return (types, samples)
    }

    static func value(_ samples: [Sample], _ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    @Test func metricsOnTheirOwnAddressAndNotOnTheLabelPort() throws {
        let server = try Started(["--metrics-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let metricsPort = try #require(server.metricsPort)
        #expect(metricsPort != server.port)
        #expect(try RawHTTP.request("/metrics", port: server.port).status == 404)
        #expect(try RawHTTP.request("/healthz", port: server.port).status == 200)
        #expect(try RawHTTP.request(TestServer.path("9,99"), port: server.port).status == 200)
        // The metrics address answers /metrics only: no label, no health check.
        #expect(try RawHTTP.request(TestServer.path("9,99"), port: metricsPort).status == 404)
        #expect(try RawHTTP.request("/healthz", port: metricsPort).status == 404)
        let reply = try RawHTTP.request("/metrics", port: metricsPort)
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "text/plain; version=0.0.4")
        let notFound = "blurlabel_client_errors_total{reason=\"not_found\"}"
        let (_, samples) = Self.parse(try RawHTTP.metrics(port: metricsPort) { $0.contains(notFound) })
        #expect(Self.value(samples, "blurlabel_renders_total") == 1)
        // The 404 for /metrics on the label port is counted as a client error of its class.
        #expect(Self.value(samples, "blurlabel_client_errors_total", ["reason": "not_found"]) == 1)
    }

    @Test func theMetricsADashboardExpects() throws {
        let server = try Started([])
        defer { server.stop() }
        let good = TestServer.path("12.99 €", [("size", "40")])
        #expect(try RawHTTP.request(good, port: server.port).status == 200)
        #expect(try RawHTTP.request(good, port: server.port).status == 200)  // a hit: no render
        #expect(try RawHTTP.request(TestServer.path("x", key: TestKeys.oldKey), port: server.port).status == 403)
        // A text that is not UTF-8: refused before any render.
        let notUTF8 = Keys.signature(
            of: "/_w.png",
            key: Keys.hex(Substring(TestKeys.key))!,
            salt: Keys.hex(Substring(TestKeys.salt))!
        )
        #expect(try RawHTTP.request("/\(notUTF8)/_w.png", port: server.port).status == 400)
        #expect(try RawHTTP.request("/nothing", port: server.port).status == 404)
        // Settled once the refusals above are all counted (the last one is the 404).
        let text = try RawHTTP.metrics(port: server.port) { text in
            ["signature", "bad_request", "not_found"].allSatisfy { text.contains("{reason=\"\($0)\"}") }
        }
        let (types, samples) = Self.parse(text)
        for (name, type) in [
            ("process_resident_memory_bytes", "gauge"), ("process_cpu_seconds_total", "counter"),
            ("process_open_fds", "gauge"), ("process_start_time_seconds", "gauge"), ("process_max_fds", "gauge"),
            ("blurlabel_build_info", "gauge"), ("blurlabel_cache_evictions_total", "counter"),
            ("blurlabel_cache_capacity_bytes", "gauge"), ("blurlabel_render_duration_seconds", "histogram"),
            ("blurlabel_request_duration_seconds", "histogram"), ("blurlabel_client_errors_total", "counter"),
        ] {
            #expect(types[name] == type, "\(name): \(types[name] ?? "missing")")
        }
        // The process's own figures, as /proc and the clock say.
        let resident = try #require(Self.value(samples, "process_resident_memory_bytes"))
        #expect(resident > 1_000_000 && resident < 64e9)
        #expect(abs(resident - Double(ServeAvailabilityTests.residentBytes())) < 64e6)
        let started = try #require(Self.value(samples, "process_start_time_seconds"))
        let now = Date().timeIntervalSince1970
        #expect(started <= now + 1 && started > now - 86_400, "\(started) vs now \(now)")
        #expect(try #require(Self.value(samples, "process_cpu_seconds_total")) > 0)
        let fds = try #require(Self.value(samples, "process_open_fds"))
        #expect(fds >= 3 && fds < 10_000)
        #expect(Self.value(samples, "blurlabel_build_info", ["version": CommandLineTool.version]) == 1)
        let capacity = try #require(Self.value(samples, "blurlabel_cache_capacity_bytes"))
        #expect(capacity == Double(64 << 20), "\(capacity)")
        // One render (the hit rendered nothing), timed apart from the requests.
        #expect(Self.value(samples, "blurlabel_render_duration_seconds_count") == 1)
        #expect(try #require(Self.value(samples, "blurlabel_render_duration_seconds_sum")) > 0)
        #expect(try #require(Self.value(samples, "blurlabel_request_duration_seconds_count")) >= 5)
        for (reason, count) in [("signature", 1.0), ("bad_request", 1), ("not_found", 1)] {
            #expect(Self.value(samples, "blurlabel_client_errors_total", ["reason": reason]) == count, "\(reason)")
        }
    }

    @Test func cacheEvictionsAreCounted() throws {
        let server = try TestServer(cacheBytes: 6000)
        defer { server.stop() }
        for text in ["1.00", "2.00", "3.00", "4.00"] {
            #expect(try RawHTTP.request(TestServer.path(text, [("size", "48")]), port: server.port).status == 200)
        }
        let (_, samples) = Self.parse(try RawHTTP.request("/metrics", port: server.port).text)
        #expect(Self.value(samples, "blurlabel_cache_capacity_bytes") == 6000)
        let evictions = try #require(Self.value(samples, "blurlabel_cache_evictions_total"))
        let entries = try #require(Self.value(samples, "blurlabel_cache_entries"))
        #expect(evictions >= 1 && evictions + entries == 4, "evictions \(evictions), entries \(entries)")
    }

    @Test func unsignedAnswersOnlyToLoopbackHosts() throws {
        let server = try Started(["--unsigned"], environment: [:])
        defer { server.stop() }
        let path = "/unsafe/size:20/OSw5OQ.png"
        func status(_ host: String?) throws -> Int {
            var text = "GET \(path) HTTP/1.1\r\nConnection: close\r\n"
            if let host { text += "Host: \(host)\r\n" }
            return RawHTTP.parse(try RawHTTP.exchange(Array((text + "\r\n").utf8), port: server.port))?.status ?? 0
        }
        // A page on evil.example whose name was rebound to 127.0.0.1 sends its own name.
        for foreign in [
            "evil.example:\(server.port)", "evil.example", "127.0.0.1.evil.example", "localhost.evil.example",
            "10.0.0.1:\(server.port)", "[::2]:\(server.port)", "127.0.0.1:80:80", "127.0.0.1:x",
        ] {
            #expect(try status(foreign) == 421, "\(foreign)")
        }
        let bare = "GET \(path) HTTP/1.0\r\n\r\n"
        #expect(RawHTTP.parse(try RawHTTP.exchange(Array(bare.utf8), port: server.port))?.status == 421)
        for own in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "LOCALHOST", "127.1.2.3", "[::1]:8080"] {
            #expect(try status(own) == 200, "\(own)")
        }
        // A signed server does not look at Host (a CDN or proxy names the shop).
        let signed = try Started([])
        defer { signed.stop() }
        let text = "GET \(TestServer.path("9,99")) HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n"
        #expect(RawHTTP.parse(try RawHTTP.exchange(Array(text.utf8), port: signed.port))?.status == 200)
    }

    @Test func labelsUnderAPathPrefixSignedWithoutIt() throws {
        let server = try Started(["--path-prefix", "/labels"])
        defer { server.stop() }
        let root = try Started([])
        defer { root.stop() }
        // Values that percent-encode (`%2C`, `%28`): the signature covers the raw bytes after the prefix.
        let path = TestServer.path("12,99 €", [("features", "tnum,-liga")])
        let secure = TestServer.path("12,99", [("secure", "true"), ("format", "##,## (€)")])
        for label in [path, secure] {
            let expected = try RawHTTP.request(label, port: root.port)
            #expect(expected.status == 200)
            let prefixed = try RawHTTP.request("/labels" + label, port: server.port)
            #expect(prefixed.status == 200)
            #expect(prefixed.body == expected.body)
        }
        // Only under the prefix; the root routes stay at the root.
        #expect(try RawHTTP.request(path, port: server.port).status == 404)
        #expect(try RawHTTP.request("/labelsx" + path, port: server.port).status == 404)
        #expect(try RawHTTP.request("/healthz", port: server.port).text == "ok\n")
        #expect(try RawHTTP.request("/readyz", port: server.port).status == 200)
        #expect(try RawHTTP.request("/metrics", port: server.port).status == 200)
        #expect(try RawHTTP.request("/labels/healthz", port: server.port).status == 404)
        #expect(try RawHTTP.request("/labels/metrics", port: server.port).status == 404)
        // A signature that covers the prefix too is not the scheme: refused.
        let (_, rest) = try #require(LabelPath.split(path))
        let withPrefix = Keys.signature(
            of: "/labels" + rest,
            key: Keys.hex(Substring(TestKeys.key))!,
            salt: Keys.hex(Substring(TestKeys.salt))!
        )
        #expect(try RawHTTP.request("/labels/" + withPrefix + rest, port: server.port).status == 403)
    }

    @Test func pathPrefixesAreCheckedAndComeFromTheEnvironmentToo() throws {
        for bad in ["/", "labels", "/labels/", "/a//b", "/a/../b", "/a/./b", "/a b", "/%41", "/é", "//"] {
            #expect(throws: (any Error).self, "\(bad)") {
                try ServeSettings.parse(["--path-prefix", bad], environment: { _ in nil })
            }
        }
        for good in ["/labels", "/shop/labels", "/a-b_c~d.e"] {
            guard case let .run(settings) = try ServeSettings.parse(["--path-prefix", good], environment: { _ in nil })
            else { return }
            #expect(settings.pathPrefix == good)
        }
        let environment = ["BLURLABEL_PATH_PREFIX": "/labels", "BLURLABEL_METRICS_LISTEN": "127.0.0.1:9100"]
        guard case let .run(settings) = try ServeSettings.parse([], environment: { environment[$0] }) else { return }
        #expect(settings.pathPrefix == "/labels")
        #expect(settings.metricsAddress?.host == "127.0.0.1" && settings.metricsAddress?.port == 9100)
        do {
            _ = try ServeSettings.parse([], environment: { $0 == "BLURLABEL_PATH_PREFIX" ? "x" : nil })
            Issue.record("a bad BLURLABEL_PATH_PREFIX was taken")
        } catch {
            #expect("\(error)".contains("BLURLABEL_PATH_PREFIX"))
        }
        #expect(throws: (any Error).self) {
            try ServeSettings.parse(
                ["--listen", "127.0.0.1:9000", "--metrics-listen", "127.0.0.1:9000"],
                environment: { _ in nil }
            )
        }
        #expect(throws: (any Error).self) {
            try ServeSettings.parse(["--metrics-listen", "metrics:9100"], environment: { _ in nil })
        }
    }

    @Test func startAndStopLinesAreTheAccessLogsJSON() throws {
        let lines = [
            AccessLog.eventLine(
                "start",
                "listening on http://127.0.0.1:8080 (2 workers, 1 signing key(s))",
                [("listen", AccessLog.quoted("http://127.0.0.1:8080")), ("workers", "2")]
            ),
            AccessLog.eventLine("stopping", "stopping (signal 15): \"finishing\"\n", [("signal", "15")]),
            AccessLog.eventLine("stopped", "stopped", [("complete", "true")]),
            AccessLog.line(HTTPExchangeRecord(method: "GET", status: 200, bytes: 1, seconds: 0.1, completed: true)),
        ]
        for line in lines {
            #expect(line.hasSuffix("}\n") && line.dropLast().allSatisfy { $0 != "\n" }, "one line: \(line)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["time"] is String)
        }
        let start = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        )
        #expect(start["event"] as? String == "start" && start["workers"] as? Int == 2)
        #expect(start["listen"] as? String == "http://127.0.0.1:8080")
        let stopping = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(stopping["message"] as? String == "stopping (signal 15): \"finishing\"\n")
        #expect(stopping["signal"] as? Int == 15)
    }
}
