import BlurLabelCLI
import BlurLabelServeSettings
import Testing

@testable import BlurLabelServe

/// `enc:` texts are padded to 32 bytes before AES-GCM, so their length says nothing about a price.
@Suite("enc: padding", .serialized)
struct EncryptedTextTests {
    let key = Keys.hex(Substring(TestKeys.encKey))!
    let keys = try! Keys { TestKeys.environment[$0] }

    @Test func pricesOfEveryLengthGiveEqualLengths() throws {
        let prices = ["1.00 €", "12.00 €", "249.98 €", "1249.98 €", "0", "1 234 567.89 €"]
        let segments = try prices.map { try #require(EncryptedText.segment($0, key: key)) }
        #expect(Set(segments.map(\.count)).count == 1, "\(segments.map(\.count))")
        // 12-byte nonce, one 32-byte block, 16-byte tag, in unpadded base64url.
        #expect(segments[0].count == "enc:".count + (12 + 32 + 16) * 4 / 3)
        // A longer text takes the next multiple of 32: 31 bytes fit one block (with the 0x80), 32 do not.
        #expect(EncryptedText.padded([UInt8](repeating: 65, count: 31)).count == 32)
        #expect(EncryptedText.padded([UInt8](repeating: 65, count: 32)).count == 64)
        #expect(EncryptedText.padded([]).count == 32)
    }

    @Test func paddingComesOffExactly() {
        for count in [0, 1, 30, 31, 32, 33, 63, 64, 200] {
            let text = [UInt8]((0..<count).map { UInt8(0x21 + $0 % 90) })
            #expect(EncryptedText.unpadded(EncryptedText.padded(text)) == text)
        }
        // A text that ends in 0x80 0x00 itself keeps them: only the last 0x80 and its zeros go.
        let tricky: [UInt8] = [0x41, 0x80, 0x00]
        #expect(EncryptedText.unpadded(EncryptedText.padded(tricky)) == tricky)
        // Not a multiple of 32, no 0x80 marker, or all zeros: not padded.
        #expect(EncryptedText.unpadded(Array("12.99".utf8)) == nil)
        #expect(EncryptedText.unpadded([UInt8](repeating: 0, count: 32)) == nil)
        #expect(EncryptedText.unpadded([UInt8](repeating: 0x41, count: 32)) == nil)
        #expect(EncryptedText.unpadded([]) == nil)
    }

    /// A ciphertext of the unpadded text (what `sign --encrypt` made before padding) is refused
    /// with a 400 that says why, and so is a padded one whose plaintext is not padded right.
    @Test func unpaddedCiphertextsAreRefused() throws {
        let server = try TestServer()
        defer { server.stop() }
        for plain in [
            Array("12.99 €".utf8), [UInt8](repeating: 0x31, count: 32),
            Array("1".utf8) + [0x81] + [UInt8](repeating: 0, count: 30),
        ] {
            let sealed = try #require(Crypto.seal(plain, key: key))
            let rest = "/size:24/enc:" + Base64URL.encode(sealed) + ".png"
            let reply = try RawHTTP.request(CanonicalURLTests.signedRest(rest), port: server.port)
            #expect(reply.status == 400)
            #expect(reply.text.contains("not padded"), "\(reply.text)")
        }
        let good = try RawHTTP.request(TestServer.path("12.99 €", [("size", "24")], encrypted: true), port: server.port)
        #expect(good.status == 200)
    }

    @Test func signEncryptsPadded() throws {
        guard case let .sign(request) = try SignRequest.parse(["249.98 €", "--encrypt", "--size", "30"]) else {
            Issue.record("no request")
            return
        }
        let path = try ServeMain.path(request, keys: keys)
        let (_, rest) = try #require(LabelPath.split(path))
        let label = try LabelPath(rest: rest, keys: keys)
        #expect(label.text == "249.98 €")
        let segment = try #require(rest.split(separator: "/").last)
        #expect(segment.count == "enc:".count + 80 + ".png".count)
    }
}
