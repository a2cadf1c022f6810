import CCrypto

/// The few primitives `serve` needs, from OpenSSL's libcrypto: HMAC-SHA256, SHA-256,
/// AES-256-GCM, a constant-time comparison, random bytes.
enum Crypto {
    static func hmacSHA256(key: [UInt8], _ parts: [UInt8]...) -> [UInt8] {
        let data = parts.flatMap { $0 }
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        key.withUnsafeBufferPointer { k in
            data.withUnsafeBufferPointer { d in
                _ = HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), d.baseAddress, d.count, &out, &length)
            }
        }
        return out
    }

    static func sha256(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        data.withUnsafeBufferPointer { d in _ = SHA256(d.baseAddress, d.count, &out) }
        return out
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
