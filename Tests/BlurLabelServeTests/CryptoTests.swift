import Testing

@testable import BlurLabelServe

/// The HMAC-SHA256 and SHA-256 serve checks signatures and makes ETags with, against published
/// and Python-made values: keys shorter than, exactly and longer than the 64-byte block (a longer
/// key is hashed first), a message in parts, the empty message.
@Suite("HMAC-SHA256 and SHA-256")
struct CryptoTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(UInt8($0 >> 4), radix: 16) + String(UInt8($0 & 15), radix: 16) }.joined()
    }

    @Test func rfc4231Vectors() {
        // RFC 4231 test cases 1, 2 and 6.
        #expect(
            Self.hex(Crypto.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        )
        #expect(
            Self.hex(
                Crypto.hmacSHA256(key: Array("Jefe".utf8), Array("what do ya want ".utf8), Array("for nothing?".utf8))
            )
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        )
        #expect(
            Self.hex(
                Crypto.hmacSHA256(
                    key: [UInt8](repeating: 0xaa, count: 131),
                    Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
                )
            ) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        )
    }

    @Test func aKeyOfExactlyOneBlockAndAReusedKey() {
        let key = HMACSHA256Key([UInt8](repeating: UInt8(ascii: "k"), count: 64))
        let expected = "baa93ea4ccc7062ed6870c5e7937dbd35ad7791df4e29df9addeb429ff491acf"
        // The precomputed states are copied, never consumed: the same key gives the same MAC again.
        #expect(Self.hex(key.mac([Array("exactly one block of key".utf8)])) == expected)
        #expect(Self.hex(key.mac([Array("exactly one ".utf8), Array("block of key".utf8)])) == expected)
        #expect(Self.hex(key.mac([Array("exactly one block of kez".utf8)])) != expected)
    }

    @Test func sha256() {
        #expect(Self.hex(Crypto.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            Self.hex(Crypto.sha256([UInt8](repeating: UInt8(ascii: "a"), count: 1000)))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
        )
    }
}
