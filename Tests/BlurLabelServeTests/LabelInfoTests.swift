import BlurLabelCLI
import BlurLabelServeSettings
import Foundation
import Testing

@testable import BlurLabelServe

/// A label's size before it is drawn: `sign --json` and `GET /SIGNATURE/info/…/TEXT.json` give
/// the width and height of the picture the label's URL then serves.
@Suite("Label size before drawing", .serialized)
struct LabelInfoTests {
    let keys = try! Keys { TestKeys.environment[$0] }

    static func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count > 24, bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    static let texts = ["56.00 €", "‏56.00 ₪ מחיר", "السعر ٥٦", "価格 ¥5,600", "🍎 2.99 €", "ﬁne 1", "Wrap these words"]
    static let variants: [[String]] = [
        [], ["--radius", "0"], ["--radius", "6", "--padding", "3"], ["--size", "40", "--letter-spacing", "2"],
        ["--outline", "1.5"], ["--max-width", "50"], ["--canvas", "320x90"], ["--canvas", "200x64", "--fit"],
        ["--dpr", "2"], ["--dpr", "3", "--radius", "1.5"], ["--dpr", "2", "--canvas", "90x30", "--fit"],
        ["--size", "13", "--features", "tnum,-liga"],
    ]

    /// Every text in every variant (and secure labels): sign --json's size is the served PNG's.
    @Test func signJSONSizeIsTheServedSize() throws {
        let server = try TestServer(cacheBytes: 0)
        defer { server.stop() }
        var labels: [[String]] = []
        for text in Self.texts { for variant in Self.variants { labels.append([text] + variant) } }
        for seed in ["", "7"] {
            labels.append(
                ["12,99", "--secure", "--format", "##,## €", "--size", "30"] + (seed.isEmpty ? [] : ["--seed", seed])
            )
            labels.append(
                ["1,00", "--secure", "--format", "#.###,## €", "--dpr", "2"] + (seed.isEmpty ? [] : ["--seed", seed])
            )
        }
        for arguments in labels {
            guard case let .sign(request) = try SignRequest.parse(arguments + ["--json"]) else { return }
            let size = try URLLabelOptions.size(request.options, text: request.text)
            let reply = try RawHTTP.request(try ServeMain.path(request, keys: keys), port: server.port)
            #expect(reply.status == 200, "\(arguments): \(reply.text)")
            let served = try #require(Self.pngSize(reply.body))
            #expect(served == size, "\(arguments): sign --json \(size), served \(served)")
        }
    }

    /// The info route answers sign --json's JSON, signed like a label, and its path serves the picture.
    @Test func infoRouteAnswersTheSizeAndAPathThatServesIt() throws {
        let server = try TestServer()
        defer { server.stop() }
        let rest = "/dpr:2/radius:3/size:24/" + Base64URL.encode(Array("12.99 €".utf8))
        let info = try RawHTTP.request(CanonicalURLTests.signedRest("/info" + rest + ".json"), port: server.port)
        #expect(info.status == 200, "\(info.text)")
        #expect(info.headers["content-type"] == "application/json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(info.body)) as? [String: Any])
        let path = try #require(object["path"] as? String)
        #expect(path == CanonicalURLTests.signedRest(rest + ".png"))
        let label = try RawHTTP.request(path, port: server.port)
        #expect(label.status == 200)
        let size = try #require(Self.pngSize(label.body))
        #expect(object["width"] as? Int == size.0 && object["height"] as? Int == size.1)
        guard
            case let .sign(request) = try SignRequest.parse(["12.99 €", "--size", "24", "--radius", "3", "--dpr", "2"])
        else { return }
        let signed = try URLLabelOptions.size(request.options, text: request.text)
        #expect(info.text == LabelInfo.json(path: path, width: signed.width, height: signed.height) + "\n")
    }

    /// An info path is signed like a label: the label's own signature, a tampered one or a bad
    /// label get the label's refusals.
    @Test func infoIsSignedAndCheckedLikeALabel() throws {
        let server = try TestServer()
        defer { server.stop() }
        let rest = "/size:24/" + Base64URL.encode(Array("9.99".utf8))
        let labelSigned = CanonicalURLTests.signedRest(rest + ".png")
        let (signature, _) = LabelPath.split(labelSigned)!
        let borrowed = try RawHTTP.request("/\(signature)/info\(rest).json", port: server.port)
        #expect(borrowed.status == 403)
        let bad = try RawHTTP.request(
            CanonicalURLTests.signedRest("/info/size:99999" + rest + ".json"),
            port: server.port
        )
        #expect(bad.status == 400)
        let wrongSuffix = try RawHTTP.request(CanonicalURLTests.signedRest("/info" + rest + ".png"), port: server.port)
        #expect(wrongSuffix.status == 400)
        let encrypted = try #require(EncryptedText.segment("9.99", key: Keys.hex(Substring(TestKeys.encKey))!))
        let sealed = try RawHTTP.request(
            CanonicalURLTests.signedRest("/info/size:24/" + encrypted + ".json"),
            port: server.port
        )
        #expect(sealed.status == 200 && sealed.text.contains("\"width\":"))
        #expect(!sealed.text.contains("9.99"))
    }
}
