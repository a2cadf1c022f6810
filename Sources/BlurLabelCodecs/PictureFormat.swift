import BlurLabelPixels

/// A picture file's format: PNG (lossless, the smallest exact colour type), WebP or AVIF.
///
/// ```swift
/// let webp = try PictureFormat.webp().encode(image)          // lossy, the default quality
/// let avif = try PictureFormat.avif(.lossy(50)).encode(image)
/// ```
public enum PictureFormat: Hashable, Sendable {
    case png
    case webp(Quality = .standard)
    case avif(Quality = .standard)

    /// How a WebP or AVIF file is compressed.
    public enum Quality: Hashable, Sendable {
        /// Lossy at the format's default quality, chosen by measurement (docs/formats.md): AVIF
        /// 94, which keeps 99.9% of a blurred label's pixels within 2 levels of the PNG; WebP 100,
        /// the closest lossy WebP gets (99.2–99.8%).
        case standard
        /// Lossy at this quality, 0 (smallest) to 100 (clamped).
        case lossy(Int)
        /// Every pixel kept exactly (WebP's VP8L; AVIF in 4:4:4 with the identity matrix).
        case lossless
    }

    /// The file for `image` in this format (for PNG, `PNGEncoder()`'s).
    public func encode(_ image: Image) throws -> [UInt8] {
        try PNGEncoder().encode(image, as: self)
    }
}

extension PictureFormat {
    /// The format a file name's extension names (`.png`, `.webp`, `.avif`, any case), or nil.
    package init?(fileName: String) {
        guard let dot = fileName.utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let suffix = fileName.utf8[fileName.utf8.index(after: dot)...]
        guard suffix.count == 3 || suffix.count == 4, !suffix.contains(UInt8(ascii: "/")) else { return nil }
        // ASCII letters lowered by one bit; a string's `lowercased()` costs every one-label start more.
        self.init(name: String(decoding: suffix.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self))
    }

    /// The format named `name` (`png`, `webp`, `avif`), at its default quality, or nil.
    package init?(name: some StringProtocol) {
        switch name {
        case "png": self = .png
        case "webp": self = .webp()
        case "avif": self = .avif()
        default: return nil
        }
    }

    /// Its name, as in a file extension.
    package var name: String {
        switch self {
        case .png: return "png"
        case .webp: return "webp"
        case .avif: return "avif"
        }
    }

    /// Its media type, for HTTP.
    package var mediaType: String { "image/" + name }

    /// Its compression, nil for PNG (always lossless).
    package var quality: Quality? {
        switch self {
        case .png: return nil
        case let .webp(quality), let .avif(quality): return quality
        }
    }

    /// The same format with another quality (PNG stays PNG).
    package func with(quality: Quality) -> PictureFormat {
        switch self {
        case .png: return .png
        case .webp: return .webp(quality)
        case .avif: return .avif(quality)
        }
    }
}
