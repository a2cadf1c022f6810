import BlurLabelCLI
import BlurLabelServeSettings
import Foundation
import Testing

@testable import BlurLabelServe

/// Signatures (imgproxy's scheme), encrypted texts and the URL's encodings, without a server.
@Suite("Signing and encrypted texts")
struct SigningTests {
    let keys = try! Keys { TestKeys.environment[$0] }

    @Test func signsAsPythonsHMACDoes() throws {
        // Expected value from Python: base64.urlsafe_b64encode(hmac.new(key, salt + path,
        // hashlib.sha256).digest()).rstrip(b"="), with the test keys and an imgproxy-style path.
        let path = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
        let signature = Keys.signature(
            of: path,
            key: Keys.hex(Substring(TestKeys.key))!,
            salt: Keys.hex(Substring(TestKeys.salt))!
        )
        #expect(signature == "90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40")
    }

    @Test func goodTamperedAndWrongKeySignatures() {
        let path = TestServer.path("12.99 €", [("size", "32")])
        let (signature, rest) = LabelPath.split(path)!
        #expect(keys.verifies(signature, path: rest))
        #expect(!keys.verifies(signature, path: rest.replacingOccurrences(of: "size:32", with: "size:33")))
        let wrong = TestServer.path("12.99 €", [("size", "32")], key: TestKeys.oldKey, salt: TestKeys.oldSalt)
        let (wrongSignature, _) = LabelPath.split(wrong)!
        #expect(!keys.verifies(wrongSignature, path: rest))
        #expect(!keys.verifies("unsafe", path: rest))
        #expect(!keys.verifies("", path: rest))
    }

    @Test func rotatedKeysAllVerify() throws {
        let rotated = try Keys {
            [
                "BLURLABEL_KEY": "\(TestKeys.key),\(TestKeys.oldKey)",
                "BLURLABEL_SALT": "\(TestKeys.salt),\(TestKeys.oldSalt)",
            ][$0]
        }
        for (key, salt) in [(TestKeys.key, TestKeys.salt), (TestKeys.oldKey, TestKeys.oldSalt)] {
            let (signature, rest) = LabelPath.split(TestServer.path("9,99", key: key, salt: salt))!
            #expect(rotated.verifies(signature, path: rest))
        }
    }

    @Test func badKeysAreRefusedWithAReason() {
        #expect(throws: Keys.Failure.self) { try Keys { ["BLURLABEL_KEY": "abc", "BLURLABEL_SALT": "00"][$0] } }
        #expect(throws: Keys.Failure.self) { try Keys { ["BLURLABEL_KEY": "00,11", "BLURLABEL_SALT": "00"][$0] } }
        #expect(throws: Keys.Failure.self) { try Keys { ["BLURLABEL_ENC_KEY": "0011"][$0] } }
    }

    @Test func encryptedTextRoundTripsAndTamperingFails() throws {
        let key = Keys.hex(Substring(TestKeys.encKey))!
        let sealed = try #require(Crypto.seal(Array("12.99 €".utf8), key: key))
        #expect(sealed.count == 12 + "12.99 €".utf8.count + 16)
        #expect(Crypto.open(sealed, key: key) == Array("12.99 €".utf8))
        for index in [0, 12, sealed.count - 1] {
            var tampered = sealed
            tampered[index] ^= 1
            #expect(Crypto.open(tampered, key: key) == nil)
        }
        #expect(Crypto.open(sealed, key: Keys.hex(Substring(TestKeys.oldKey))!) == nil)
        #expect(Crypto.open(Array(sealed.prefix(20)), key: key) == nil)
    }

    @Test func base64URLIsStrict() {
        for text in ["", "a", "ab", "abc", "12.99 €", "ÿþ"] {
            let encoded = Base64URL.encode(Array(text.utf8))
            #expect(!encoded.contains("="))
            #expect(Base64URL.decode(Substring(encoded)) == Array(text.utf8))
        }
        #expect(Base64URL.decode("YQ==") == nil)
        #expect(Base64URL.decode("Y+") == nil)
        #expect(Base64URL.decode("YR") == nil)  // leftover bits not zero
        #expect(Base64URL.decode("Y") == nil)
    }

    @Test func percentEncodingRoundTripsAndRefusesControls() {
        let value = "##.## € / %:x"
        #expect(URLPairs.percentDecoded(Substring(URLPairs.percentEncoded(value))) == value)
        #expect(URLPairs.percentDecoded("%zz") == nil)
        #expect(URLPairs.percentDecoded("%0A") == nil)
        #expect(URLPairs.percentDecoded("%FF") == nil)
    }

    @Test func entityTagsMatchLikeIfNoneMatch() {
        let tag = LabelService.etag("/size:32/YQ.png")
        #expect(tag.hasPrefix("\"") && tag.count == 34)
        #expect(LabelService.matches(tag, tag))
        #expect(LabelService.matches("\"x\", W/\(tag)", tag))
        #expect(LabelService.matches("*", tag))
        #expect(!LabelService.matches("\"x\"", tag))
        #expect(LabelService.etag("/size:33/YQ.png") != tag)
        // The engine's version and the path, SHA-256, the first 16 bytes in lowercase hex.
        let digest = Crypto.sha256(Array("blurlabel \(CommandLineTool.version)\n/size:32/YQ.png".utf8))
        #expect(tag == "\"" + digest[0..<16].map { String(format: "%02x", $0) }.joined() + "\"")
    }
}
