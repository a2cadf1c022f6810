import BlurLabelCLI
import BlurLabelServeSettings
import BlurredLabelCore

/// A label URL's path: `/SIGNATURE/name:value/…/TEXT.png`, TEXT unpadded base64url of the
/// UTF-8 text or `enc:` and the base64url of AES-256-GCM nonce ‖ ciphertext ‖ tag.
struct LabelPath {
    typealias Failure = URLLabelOptions.Failure

    /// The signature segment and the signed rest (from its `/`), or nil without both.
    static func split(_ path: String) -> (signature: Substring, rest: String)? {
        guard path.hasPrefix("/") else { return nil }
        let afterSlash = path.dropFirst()
        guard let slash = afterSlash.firstIndex(of: "/") else { return nil }
        return (afterSlash[..<slash], String(afterSlash[slash...]))
    }

    let options: GivenOptions
    let text: String
    /// The label's path in one form, whatever order and escapes the URL used: its options after
    /// the preset is expanded, sorted and percent-encoded as `sign` writes them, and the text
    /// segment as given. The ETag and the one-render-per-label flights are keyed by it.
    let canonical: String

    /// Parses the signed rest, whose last segment is the text and `suffix`. Messages never quote
    /// the text.
    init(rest: String, keys: Keys, presets: Presets = Presets(), suffix: String = ".png") throws(Failure) {
        var segments = rest.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard let last = segments.popLast(), last.hasSuffix(suffix), last.count > suffix.count else {
            throw Failure("the last segment must be TEXT\(suffix)")
        }
        let pairs = URLPairs.canonical(try presets.expanded(try URLPairs.parse(segments)))
        canonical = URLPairs.segments(pairs) + "/" + last
        options = try URLLabelOptions.options(URLLabelOptions.seeded(pairs))
        let encoded = last.dropLast(suffix.count)
        var bytes: [UInt8]
        if encoded.hasPrefix("enc:") {
            guard let sealed = Base64URL.decode(encoded.dropFirst(4)) else {
                throw Failure("the enc: text is not unpadded base64url")
            }
            guard !keys.encryption.isEmpty else { throw Failure("enc: texts need BLURLABEL_ENC_KEY on the server") }
            guard let plain = keys.decrypt(sealed) else { throw Failure("the enc: text does not decrypt") }
            guard let unpadded = EncryptedText.unpadded(plain) else {
                throw Failure(
                    "the enc: text is not padded to a multiple of 32 bytes (docs/serve.md): encrypt it again"
                )
            }
            bytes = unpadded
        } else {
            guard let plain = Base64URL.decode(encoded) else { throw Failure("the text is not unpadded base64url") }
            bytes = plain
        }
        do { text = try decodeUTF8(bytes) } catch { throw Failure("the text is not valid UTF-8") }
        bytes = []
    }
}
