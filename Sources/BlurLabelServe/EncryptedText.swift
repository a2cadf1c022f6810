/// An `enc:` text: the UTF-8 text padded to a multiple of 32 bytes, then sealed with AES-256-GCM
/// (12-byte random nonce ‖ ciphertext ‖ 16-byte tag, no associated data: the signature covers
/// the whole path), so the ciphertext's length says nothing about how many digits a price has.
///
/// Padding (ISO/IEC 7816-4): one 0x80 byte, then 0x00 bytes up to the next multiple of 32; there
/// is always at least the 0x80, so the padding comes off unambiguously. A text whose plaintext is
/// not padded so (an `enc:` from before padding) is refused.
enum EncryptedText {
    static let block = 32

    /// `bytes`, 0x80, and zeros up to the next multiple of `block`.
    static func padded(_ bytes: [UInt8]) -> [UInt8] {
        let zeros = (block - (bytes.count + 1) % block) % block
        return bytes + [0x80] + [UInt8](repeating: 0, count: zeros)
    }

    /// The bytes before the padding, or nil when `bytes` is not padded so.
    static func unpadded(_ bytes: [UInt8]) -> [UInt8]? {
        guard !bytes.isEmpty, bytes.count % block == 0, let marker = bytes.lastIndex(where: { $0 != 0 }),
            bytes[marker] == 0x80
        else { return nil }
        return Array(bytes[..<marker])
    }

    /// The `enc:` segment of `text` under `key` (32 bytes), or nil when encryption fails.
    static func segment(_ text: String, key: [UInt8]) -> String? {
        Crypto.seal(padded(Array(text.utf8)), key: key).map { "enc:" + Base64URL.encode($0) }
    }
}
