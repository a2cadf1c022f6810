/// Paragraph direction: from the first strong character (`auto`), or forced.
public enum TextDirection: String, Sendable, CaseIterable {
    case auto, ltr, rtl
}

/// Where lines sit within the text block. `start` and `end` follow the paragraph direction.
public enum TextAlignment: String, Sendable, CaseIterable {
    case left, center, right, start, end
}

/// How text is set: everything that changes glyphs or their positions.
public struct TextStyle: Equatable, Sendable {
    /// The primary font; the built-in fallback chain follows it.
    public var font: Font
    /// The em size in pixels.
    public var size: Double
    /// OpenType features: `tnum`, `-liga`, `kern`, `ss01`, `+smcp`, `aalt=2`...
    public var features: [String]
    /// BCP 47 language tag for shaping (`ar`, `tr`, `sr`...); nil for none.
    public var language: String?
    public var direction: TextDirection
    public var alignment: TextAlignment
    /// Multiplier of the font's line height.
    public var lineSpacing: Double
    /// Extra pixels after each character.
    public var letterSpacing: Double
    /// Wrap lines longer than this many pixels at break opportunities; nil never wraps.
    public var maxWidth: Double?
    /// Width in pixels of an outline drawn around the glyphs (0 for none).
    public var outlineWidth: Double
    /// Whether characters that neither the primary font nor the embedded fonts have are looked
    /// for in the system's installed fonts (fontconfig, the default) or drawn as `.notdef` (`.off`,
    /// for the same bytes on every machine).
    public var systemFallback: SystemFontFallback

    /// The largest em size accepted.
    package static let maximumSize = 2000.0
    /// The largest line spacing accepted (a multiple of the line height; it must be above 0).
    package static let maximumLineSpacing = 100.0
    /// The largest letter spacing accepted either way, in pixels.
    package static let maximumLetterSpacing = 1000.0
    /// The widest outline accepted, in pixels.
    package static let maximumOutlineWidth = 500.0
    /// The widest wrapping width accepted, in pixels.
    package static let maximumWrapWidth = 1_000_000.0

    public init(
        font: Font = FontLibrary.defaultFont,
        size: Double = 32,
        features: [String] = [],
        language: String? = nil,
        direction: TextDirection = .auto,
        alignment: TextAlignment = .center,
        lineSpacing: Double = 1,
        letterSpacing: Double = 0,
        maxWidth: Double? = nil,
        outlineWidth: Double = 0,
        systemFallback: SystemFontFallback = .fontconfig
    ) {
        self.font = font
        self.size = size
        self.features = features
        self.language = language
        self.direction = direction
        self.alignment = alignment
        self.lineSpacing = lineSpacing
        self.letterSpacing = letterSpacing
        self.maxWidth = maxWidth
        self.outlineWidth = outlineWidth
        self.systemFallback = systemFallback
    }

    /// Checks sizes and spacings; throws `TextError` naming what is wrong.
    package func validate() throws {
        guard size.isFinite, size > 0, size <= Self.maximumSize else { throw TextError.badSize(size) }
        guard lineSpacing.isFinite, lineSpacing > 0, lineSpacing <= Self.maximumLineSpacing else {
            throw TextError.badValue("line spacing", lineSpacing)
        }
        guard letterSpacing.isFinite, abs(letterSpacing) <= Self.maximumLetterSpacing else {
            throw TextError.badValue("letter spacing", letterSpacing)
        }
        guard outlineWidth.isFinite, outlineWidth >= 0, outlineWidth <= Self.maximumOutlineWidth else {
            throw TextError.badValue("outline width", outlineWidth)
        }
        if let maxWidth {
            guard maxWidth.isFinite, maxWidth > 0, maxWidth <= Self.maximumWrapWidth else {
                throw TextError.badValue("maximum width", maxWidth)
            }
        }
        _ = try ShapingFeatures(features)
    }
}

extension Font: Equatable {
    public static func == (a: Font, b: Font) -> Bool { a === b }
}

/// Text that cannot be set.
public enum TextError: Error, Equatable, CustomStringConvertible {
    case badSize(Double)
    case badValue(String, Double)
    case badFeature(String)
    case invalidUTF8(offset: Int)

    public var description: String {
        switch self {
        case let .badSize(size):
            return "font size must be a number above 0 and at most \(Int(TextStyle.maximumSize)) px, got \(size)"
        case let .badValue(name, value): return "invalid \(name): \(value)"
        case let .badFeature(text):
            return "invalid OpenType feature '\(text)' (examples: tnum, -liga, +smcp, ss01, aalt=2)"
        case let .invalidUTF8(offset): return "text is not valid UTF-8 (bad byte at offset \(offset))"
        }
    }
}

/// Decodes UTF-8 bytes, naming the offset of the first byte that is not valid UTF-8.
package func decodeUTF8(_ bytes: [UInt8]) throws -> String {
    var i = 0
    while i < bytes.count {
        let lead = bytes[i]
        let length: Int
        let minimum: UInt32
        switch lead {
        case 0x00...0x7F:
            i += 1
            continue
        case 0xC2...0xDF:
            length = 2
            minimum = 0x80
        case 0xE0...0xEF:
            length = 3
            minimum = 0x800
        case 0xF0...0xF4:
            length = 4
            minimum = 0x10000
        default: throw TextError.invalidUTF8(offset: i)
        }
        guard i + length <= bytes.count else { throw TextError.invalidUTF8(offset: i) }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for k in 1..<length {
            let byte = bytes[i + k]
            guard byte & 0xC0 == 0x80 else { throw TextError.invalidUTF8(offset: i + k) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else {
            throw TextError.invalidUTF8(offset: i)
        }
        i += length
    }
    return String(decoding: bytes, as: UTF8.self)
}
