import BlurLabelCLI
import BlurLabelServeSettings
import Foundation
import Testing

@testable import BlurLabelServe

/// One URL per label: `sign` writes the options sorted and escaped one way, and the server gives
/// the same pixels and the same ETag for a label whatever order or escapes its URL uses.
@Suite("One URL per label", .serialized)
struct CanonicalURLTests {
    let keys = try! Keys { TestKeys.environment[$0] }

    func signed(_ arguments: [String]) throws -> String {
        guard case let .sign(request) = try SignRequest.parse(arguments) else { throw URLLabelOptions.Failure("help") }
        return try ServeMain.path(request, keys: keys)
    }

    @Test func signWritesOneOrderAndOneEncoding() throws {
        let orders: [[String]] = [
            ["--size", "32", "--radius", "5", "--color", "#c0392b", "--format", "##,## (€)", "--secure"],
            ["--secure", "--format", "##,## (€)", "--color", "#c0392b", "--radius", "5", "--size", "32"],
            ["--color", "#c0392b", "--secure", "--size", "32", "--format", "##,## (€)", "--radius", "5"],
        ]
        let paths = try orders.map { try signed(["12,99"] + $0) }
        #expect(Set(paths).count == 1, "\(paths)")
        let path = paths[0]
        #expect(
            path.hasSuffix(
                "/color:%23c0392b/format:%23%23%2C%23%23%20%28%E2%82%AC%29/radius:5/secure:true/size:32/MTIsOTk.png"
            )
        )
        // Only RFC 3986's unreserved characters and the escapes' '%' stand unescaped in a value.
        let (_, rest) = LabelPath.split(path)!
        for segment in rest.split(separator: "/").dropLast() {
            let value = segment[segment.index(after: segment.firstIndex(of: ":")!)...]
            #expect(value.allSatisfy { $0.isLetter && $0.isASCII || $0.isNumber || "-._~%".contains($0) }, "\(segment)")
        }
    }

    @Test func canonicalOrderIsByName() {
        let pairs: [URLPairs.Pair] = [("size", "1"), ("letter-spacing", "2"), ("line-spacing", "3"), ("align", "4")]
        #expect(URLPairs.canonical(pairs).map(\.name) == ["align", "letter-spacing", "line-spacing", "size"])
    }

    /// Every order of the options and every escape of the same value: the same bytes and ETag,
    /// secure mode without a seed included (its seed is made from the canonical options).
    @Test func samePixelsAndETagInAnyOrder() throws {
        let server = try TestServer()
        defer { server.stop() }
        let labels: [(String, [(String, String)])] = [
            ("12.99 €", [("size", "28"), ("radius", "2"), ("color", "#c0392b"), ("background", "transparent")]),
            ("4,20", [("secure", "true"), ("format", "##,## €"), ("size", "24"), ("padding", "3")]),
            ("Sale", [("features", "tnum,-liga"), ("letter-spacing", "2"), ("radius", "0")]),
        ]
        var generator = SystemRandomNumberGenerator()
        for (text, pairs) in labels {
            var bodies: Set<[UInt8]> = []
            var tags: Set<String> = []
            for round in 0..<6 {
                let order = round == 0 ? pairs : pairs.shuffled(using: &generator)
                for encrypted in [false, true] where !(encrypted && round > 1) {
                    let reply = try RawHTTP.request(
                        TestServer.path(text, order, encrypted: encrypted),
                        port: server.port
                    )
                    #expect(reply.status == 200, "\(order): \(reply.text)")
                    bodies.insert(reply.body)
                    if !encrypted { tags.insert(reply.headers["etag"] ?? "") }
                }
            }
            #expect(bodies.count == 1, "\(text): \(bodies.count) pictures for one label")
            #expect(tags.count == 1, "\(text): \(tags)")
        }
        // The same value escaped otherwise (a hand-made URL): the same label and ETag.
        let escaped = try RawHTTP.request(
            TestServer.path("Sale", [("features", "tnum,-liga")]).replacingOccurrences(of: "%2C", with: "%2c"),
            port: server.port
        )
        #expect(escaped.status == 403, "the signature covers the bytes as sent")
        let signedLower = Self.signedRest("/features:tnum%2c-liga/U2FsZQ.png")
        let upper = try RawHTTP.request(TestServer.path("Sale", [("features", "tnum,-liga")]), port: server.port)
        let lower = try RawHTTP.request(signedLower, port: server.port)
        #expect(lower.status == 200 && lower.body == upper.body)
        #expect(lower.headers["etag"] == upper.headers["etag"])
        // A different label still has a different ETag.
        let other = try RawHTTP.request(TestServer.path("Sale", [("features", "tnum")]), port: server.port)
        #expect(other.headers["etag"] != upper.headers["etag"])
    }

    /// A revalidation with the ETag another order of the options got is answered 304.
    @Test func anotherOrderRevalidates() throws {
        let server = try TestServer()
        defer { server.stop() }
        let first = try RawHTTP.request(TestServer.path("9,99", [("size", "20"), ("radius", "1")]), port: server.port)
        let tag = try #require(first.headers["etag"])
        let again = try RawHTTP.request(
            TestServer.path("9,99", [("radius", "1"), ("size", "20")]),
            port: server.port,
            headers: ["If-None-Match": tag]
        )
        #expect(again.status == 304)
    }

    static func signedRest(_ rest: String) -> String {
        "/"
            + Keys.signature(
                of: rest,
                key: Keys.hex(Substring(TestKeys.key))!,
                salt: Keys.hex(Substring(TestKeys.salt))!
            )
            + rest
    }
}
