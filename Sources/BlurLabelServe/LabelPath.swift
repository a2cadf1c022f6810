import BlurLabelCLI
import BlurLabelServeSettings
import BlurredLabelCore

/// A label URL's path: `/SIGNATURE/name:value/…/TEXT.png` (or `.webp`, `.avif`; no extension or
/// `.auto` for the format `Accept` picks), TEXT unpadded base64url of the UTF-8 text or `enc:` and
/// the base64url of AES-256-GCM nonce ‖ ciphertext ‖ tag.
struct LabelPath {
    typealias Failure = URLLabelOptions.Failure

    /// The signature segment and the signed rest (from its `/`), or nil without both. Read as
    /// UTF-8 bytes: `/` and `.` are ASCII, and a search by `Character` cost a string comparison
    /// a character (about 40 a request).
    static func split(_ path: String) -> (signature: Substring, rest: String)? {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        let afterSlash = bytes.index(after: bytes.startIndex)
        guard let slash = bytes[afterSlash...].firstIndex(of: UInt8(ascii: "/")) else { return nil }
        return (path[afterSlash..<slash], String(path[slash...]))
    }

    /// The last segment's text and the format its extension names; format nil where `Accept`
    /// picks it (no extension, `.auto`); nil for another extension or no text.
    static func textAndFormat(_ last: Substring) -> (text: Substring, format: PictureFormat?)? {
        guard let dot = last.utf8.lastIndex(of: UInt8(ascii: ".")) else { return last.isEmpty ? nil : (last, nil) }
        let text = last[..<dot]
        let name = last[last.utf8.index(after: dot)...]
        guard !text.isEmpty else { return nil }
        if name == "auto" { return (text, nil) }
        guard let format = PictureFormat(name: name) else { return nil }
        return (text, format)
    }

    /// `rest` after its first byte, split at every `/` (empty segments kept), by UTF-8 bytes.
    static func segments(_ rest: String) -> [Substring] {
        let bytes = rest.utf8
        guard !bytes.isEmpty else { return [] }
        var segments: [Substring] = []
        var start = bytes.index(after: bytes.startIndex)
        while let slash = bytes[start...].firstIndex(of: UInt8(ascii: "/")) {
            segments.append(rest[start..<slash])
            start = bytes.index(after: slash)
        }
        segments.append(rest[start...])
        return segments
    }

    /// Whether a request's path asks for the format `Accept` picks (a label path's last segment
    /// without an extension or with `.auto`). Read before the signature is checked, for the cache
    /// key; the same reading as `init`'s.
    static func negotiates(_ path: String) -> Bool {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")),
            let (_, format) = textAndFormat(path[path.utf8.index(after: slash)...])
        else { return false }
        return format == nil
    }

    let options: GivenOptions
    let text: String
    /// The format the extension names; nil where `Accept` picks it.
    let format: PictureFormat?
    /// The label's path in one form, whatever order and escapes the URL used: its options after
    /// the preset is expanded, sorted and percent-encoded as `sign` writes them, and the text
    /// segment as given. The ETag and the one-render-per-label flights are keyed by it.
    let canonical: String

    /// Parses the signed rest, whose last segment is the text and `suffix` (the info route's
    /// `.json`), or without `suffix` the text and a format's extension (`textAndFormat`). Messages
    /// never quote the text.
    init(rest: String, keys: Keys, presets: Presets = Presets(), suffix: String? = nil) throws(Failure) {
        var segments = Self.segments(rest)
        let encoded: Substring
        if let suffix {
            guard let last = segments.last, last.hasSuffix(suffix), last.utf8.count > suffix.utf8.count else {
                throw Failure("the last segment must be TEXT\(suffix)")
            }
            encoded = last.dropLast(suffix.count)
            format = .png
        } else {
            guard let last = segments.last, let (text, named) = Self.textAndFormat(last) else {
                throw Failure(
                    "the last segment must be TEXT.png, TEXT.webp, TEXT.avif, or TEXT or TEXT.auto (Accept's)"
                )
            }
            encoded = text
            format = named
        }
        let last = segments.removeLast()
        let pairs = URLPairs.canonical(try presets.expanded(try URLPairs.parse(segments)))
        canonical = URLPairs.segments(pairs) + "/" + last
        options = try URLLabelOptions.options(URLLabelOptions.seeded(pairs))
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
