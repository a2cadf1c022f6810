import BlurLabelSystem
import CCrypto

/// The few primitives `serve` needs, from OpenSSL's libcrypto: HMAC-SHA256, SHA-256,
/// AES-256-GCM, a constant-time comparison, random bytes.
enum Crypto {
    static func hmacSHA256(key: [UInt8], _ parts: [UInt8]...) -> [UInt8] {
        HMACSHA256Key(key).mac(parts)
    }

    /// SHA-256 with the low-level functions: OpenSSL 3's one-shot `SHA256` looks the algorithm up
    /// in its provider tables and allocates a context on every call.
    static func sha256(_ data: [UInt8]) -> [UInt8] {
        var context = SHA256_CTX()
        SHA256_Init(&context)
        data.withUnsafeBufferPointer { _ = SHA256_Update(&context, $0.baseAddress, $0.count) }
        return HMACSHA256Key.finish(&context)
    }

    /// Equal bytes, in time that depends only on the lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 }
        }
    }

    static func randomBytes(_ count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        return RAND_bytes(&out, Int32(count)) == 1 ? out : nil
    }

    static let nonceBytes = 12
    static let tagBytes = 16

    /// nonce ‖ ciphertext ‖ tag under a 32-byte key.
    static func seal(_ plaintext: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard key.count == 32, let nonce = randomBytes(nonceBytes), let context = EVP_CIPHER_CTX_new() else {
            return nil
        }
        defer { EVP_CIPHER_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        var tail: Int32 = 0
        var tag = [UInt8](repeating: 0, count: tagBytes)
        guard EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1,
            plaintext.withUnsafeBufferPointer({ p in
                EVP_EncryptUpdate(context, &out, &written, p.baseAddress, Int32(p.count))
            }) == 1,
            out.withUnsafeMutableBufferPointer({ o in
                EVP_EncryptFinal_ex(context, o.baseAddress! + Int(written), &tail)
            }) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagBytes), &tag) == 1
        else { return nil }
        return nonce + out[0..<Int(written + tail)] + tag
    }

    /// The plaintext of nonce ‖ ciphertext ‖ tag, or nil when the tag does not match.
    static func open(_ sealed: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard key.count == 32, sealed.count >= nonceBytes + tagBytes, let context = EVP_CIPHER_CTX_new() else {
            return nil
        }
        defer { EVP_CIPHER_CTX_free(context) }
        let nonce = Array(sealed[0..<nonceBytes])
        let ciphertext = Array(sealed[nonceBytes..<(sealed.count - tagBytes)])
        var tag = Array(sealed[(sealed.count - tagBytes)...])
        var out = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var written: Int32 = 0
        var tail: Int32 = 0
        guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1,
            ciphertext.withUnsafeBufferPointer({ c in
                EVP_DecryptUpdate(context, &out, &written, c.baseAddress, Int32(c.count))
            }) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagBytes), &tag) == 1,
            out.withUnsafeMutableBufferPointer({ o in
                EVP_DecryptFinal_ex(context, o.baseAddress! + Int(written), &tail)
            }) == 1
        else { return nil }
        return Array(out[0..<Int(written + tail)])
    }
}

/// HMAC-SHA256 under one key with RFC 2104's precomputation: the states after the inner and the
/// outer padded key block are hashed once, and each message copies them (plain values) and hashes
/// itself alone. Every signed request is checked with it, on a connection's thread: no
/// allocation but the result, and no algorithm lookup (OpenSSL 3's one-shot `HMAC` fetched the
/// algorithm and allocated its contexts every call, 8% of those threads' time).
struct HMACSHA256Key: Sendable {
    private let inner: SHA256_CTX
    private let outer: SHA256_CTX

    init(_ key: [UInt8]) {
        let blockBytes = 64
        var block = key.count > blockBytes ? Crypto.sha256(key) : key
        block += repeatElement(0, count: blockBytes - block.count)
        func absorbed(_ pad: UInt8) -> SHA256_CTX {
            var context = SHA256_CTX()
            SHA256_Init(&context)
            let padded = block.map { $0 ^ pad }
            padded.withUnsafeBufferPointer { _ = SHA256_Update(&context, $0.baseAddress, $0.count) }
            return context
        }
        inner = absorbed(0x36)
        outer = absorbed(0x5c)
    }

    /// The MAC of the parts' concatenation.
    func mac(_ parts: [[UInt8]]) -> [UInt8] {
        var context = inner
        for part in parts { part.withUnsafeBufferPointer { _ = SHA256_Update(&context, $0.baseAddress, $0.count) } }
        let innerDigest = Self.finish(&context)
        context = outer
        innerDigest.withUnsafeBufferPointer { _ = SHA256_Update(&context, $0.baseAddress, $0.count) }
        return Self.finish(&context)
    }

    /// The 32-byte digest of `context`.
    static func finish(_ context: inout SHA256_CTX) -> [UInt8] {
        [UInt8].uninitialized(count: 32) { digest, count in
            _ = SHA256_Final(digest.baseAddress, &context)
            count = 32
        }
    }
}
