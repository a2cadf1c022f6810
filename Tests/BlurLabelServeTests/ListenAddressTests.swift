import BlurLabelCLI
import BlurLabelServeSettings
import Testing

@testable import BlurLabelServe

/// `--listen` (and BLURLABEL_LISTEN): IPv4 and bracketed IPv6 addresses, and `--unsigned` only on
/// loopback; then a server listening on IPv6 loopback.
@Suite("serve --listen")
struct ListenAddressTests {
    static func settings(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ServeSettings {
        guard case let .run(settings) = try ServeSettings.parse(arguments, environment: { environment[$0] }) else {
            throw URLLabelOptions.Failure("help instead of settings")
        }
        return settings
    }

    static func refusal(_ arguments: [String], _ environment: [String: String] = [:]) -> String? {
        do {
            _ = try settings(arguments, environment)
            return nil
        } catch { return "\(error)" }
    }

    @Test func acceptsIPv4AndBracketedIPv6() throws {
        for (text, host, port) in [
            ("127.0.0.1:8080", "127.0.0.1", 8080), ("0.0.0.0:0", "0.0.0.0", 0), ("[::1]:8080", "::1", 8080),
            ("[::]:9000", "::", 9000), ("[fe80::1:2]:1", "fe80::1:2", 1),
        ] as [(String, String, UInt16)] {
            let parsed = try Self.settings(["--listen", text])
            #expect(parsed.host == host && parsed.port == port, "\(text)")
        }
        let fromEnvironment = try Self.settings([], ["BLURLABEL_LISTEN": "[::1]:7000"])
        #expect(fromEnvironment.host == "::1" && fromEnvironment.port == 7000)
    }

    @Test func refusesWhatIsNoAddressAndPort() {
        for text in [
            "::1:8080", "[::1]", "[::1]8080", "localhost:8080", "[127.0.0.1]:80", "::1", "1.2.3.4:65536",
            "1.2.3:80", "[::g]:80", "127.0.0.1:", "127.0.0.1:-1", "[::1]:８０",
        ] {
            let message = Self.refusal(["--listen", text])
            #expect(message?.contains("--listen needs ADDR:PORT") == true, "\(text): \(message ?? "accepted")")
        }
        let message = Self.refusal([], ["BLURLABEL_LISTEN": "::1:80"])
        #expect(message?.contains("BLURLABEL_LISTEN needs ADDR:PORT") == true)
    }

    @Test func unsignedListensOnLoopbackOnly() throws {
        for text in ["127.0.0.1:0", "127.8.9.10:0", "[::1]:0", "[0:0:0:0:0:0:0:1]:0"] {
            #expect(Self.refusal(["--unsigned", "--listen", text]) == nil, "\(text)")
        }
        for text in ["0.0.0.0:0", "10.0.0.1:0", "[::]:0", "[::2]:0", "[::ffff:127.0.0.1]:0", "[fe80::1]:0"] {
            let message = Self.refusal(["--unsigned", "--listen", text])
            #expect(
                message?.contains("--unsigned listens on loopback only") == true,
                "\(text): \(message ?? "accepted")"
            )
        }
        #expect(Self.refusal([], ["BLURLABEL_UNSIGNED": "1", "BLURLABEL_LISTEN": "[::]:0"]) != nil)
    }

    @Test func servesOnIPv6Loopback() throws {
        let server = try TestServer(host: "::1")
        defer { server.stop() }
        #expect(try RawHTTP.request("/healthz", port: server.port, host: "::1").text == "ok\n")
        let label = try RawHTTP.request(TestServer.path("12.99 €"), port: server.port, host: "::1")
        #expect(label.status == 200 && label.headers["content-type"] == "image/png")
        // IPv6 only, as nginx's `listen [::]:80`: nothing on IPv4 at that port.
        #expect(throws: RawHTTP.Failure.self) { try RawHTTP.connect(port: server.port, host: "127.0.0.1") }
    }
}
