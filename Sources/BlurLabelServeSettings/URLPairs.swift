import BlurLabelCLI
import BlurredLabelCore

/// A label URL's option segments, `/name:value/…`: percent-encoded with RFC 3986's unreserved
/// characters only, and in one canonical order (by name, byte by byte), so that `sign`, every
/// recipe and a preset write one label as one URL.
package enum URLPairs {
    package typealias Pair = (name: String, value: String)

    /// `pairs` sorted by name (UTF-8 byte order: Python's `sorted`, PHP's `ksort`, Java's
    /// `TreeMap` and JavaScript's `sort()` agree on the ASCII names), the given order kept
    /// for equal names.
    package static func canonical(_ pairs: [Pair]) -> [Pair] {
        pairs.enumerated().sorted { a, b in
            a.element.name == b.element.name
                ? a.offset < b.offset : a.element.name.utf8.lexicographicallyPrecedes(b.element.name.utf8)
        }.map(\.element)
    }

    /// `/name:value` for each pair, in the order given, each side percent-encoded.
    package static func segments(_ pairs: [Pair]) -> String {
        pairs.map { "/" + percentEncoded($0.name) + ":" + percentEncoded($0.value) }.joined()
    }

    /// The pairs of `name:value` segments, percent-decoded.
    package static func parse(_ segments: some Sequence<Substring>) throws(URLLabelOptions.Failure) -> [Pair] {
        var pairs: [Pair] = []
        for segment in segments {
            guard let colon = segment.firstIndex(of: ":") else {
                throw URLLabelOptions.Failure("an option segment must be name:value")
            }
            guard let name = percentDecoded(segment[..<colon]),
                let value = percentDecoded(segment[segment.index(after: colon)...])
            else {
                throw URLLabelOptions.Failure("an option is not valid percent-encoded UTF-8")
            }
            pairs.append((name, value))
        }
        return pairs
    }

    /// `%XX` escapes decoded; nil for a bad escape, invalid UTF-8 or a control character.
    package static func percentDecoded(_ text: Substring) -> String? {
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

    /// `text` percent-encoded for a path segment: everything but RFC 3986's unreserved
    /// characters, as `%XX` with capital hex digits.
    package static func percentEncoded(_ text: String) -> String {
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
