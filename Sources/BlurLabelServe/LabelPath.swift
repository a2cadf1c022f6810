import BlurLabelCLI
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

    /// Parses the signed rest. Messages never quote the text.
    init(rest: String, keys: Keys) throws(Failure) {
        var segments = rest.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard let last = segments.popLast(), last.hasSuffix(".png"), last.count > 4 else {
            throw Failure("the last segment must be TEXT.png")
        }
        var pairs: [(name: String, value: String)] = []
        for segment in segments {
            guard let colon = segment.firstIndex(of: ":") else {
                throw Failure("an option segment must be name:value")
            }
            guard let name = Self.percentDecoded(segment[..<colon]),
                let value = Self.percentDecoded(segment[segment.index(after: colon)...])
            else {
                throw Failure("an option is not valid percent-encoded UTF-8")
            }
            pairs.append((name, value))
        }
        // Secure mode without a seed: a seed from the options alone, so the picture is the same
        // on every instance and for every text of the format's shape (never the system's random).
        if pairs.contains(where: { $0.name == "secure" && $0.value == "true" }),
            !pairs.contains(where: { $0.name == "seed" })
        {
            let described = pairs.map { "\($0.name):\($0.value)" }.joined(separator: "/")
            pairs.append(("seed", String(fnv1a(described) & ((1 << 53) - 1))))
        }
        options = try URLLabelOptions.options(pairs)
        let encoded = last.dropLast(4)
        var bytes: [UInt8]
        if encoded.hasPrefix("enc:") {
            guard let sealed = Base64URL.decode(encoded.dropFirst(4)) else {
                throw Failure("the enc: text is not unpadded base64url")
            }
            guard !keys.encryption.isEmpty else { throw Failure("enc: texts need BLURLABEL_ENC_KEY on the server") }
            guard let plain = keys.decrypt(sealed) else { throw Failure("the enc: text does not decrypt") }
            bytes = plain
        } else {
            guard let plain = Base64URL.decode(encoded) else { throw Failure("the text is not unpadded base64url") }
            bytes = plain
        }
        do { text = try decodeUTF8(bytes) } catch { throw Failure("the text is not valid UTF-8") }
        bytes = []
    }

    /// `%XX` escapes decoded; nil for a bad escape, invalid UTF-8 or a control character.
    static func percentDecoded(_ text: Substring) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        func hexValue(_ c: UInt8?) -> UInt8? {
            guard let c else { return nil }
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        while let c = iterator.next() {
            if c == UInt8(ascii: "%") {
                guard let high = hexValue(iterator.next()), let low = hexValue(iterator.next()) else { return nil }
                out.append(high << 4 | low)
            } else {
                out.append(c)
            }
        }
        guard !out.contains(where: { $0 < 0x20 || $0 == 0x7F }), let decoded = try? decodeUTF8(out) else { return nil }
        return decoded
    }

    /// `text` percent-encoded for a path segment: everything but RFC 3986's unreserved characters.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + cFormat("%02X", UInt32(byte))
            }
        }
        return out
    }
}
