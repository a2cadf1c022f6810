import BlurredLabelCore

/// How an output is encoded: its format (from `--output-format`, else the output's extension, else
/// PNG), WebP's and AVIF's `--quality`, PNG's `--compression`. Every command that writes a picture
/// (render, blur, redact, batch's lines) reads it here, so the same flags mean the same thing.
package struct OutputEncoding: Equatable, Sendable {
    package var format: PictureFormat
    /// zlib level of a PNG (unused for the others).
    package var compressionLevel: Int

    package init(format: PictureFormat, compressionLevel: Int) {
        self.format = format
        self.compressionLevel = compressionLevel
    }

    // Both options are read as checked text and typed here, not as `Option`s of their own types:
    // every one-label start reads them, and each new generic `Option`/`ValueKind` type is
    // metadata made at run time (scripts/checks/instruction-counts' render).
    static let format = Option<String?>(
        "output-format",
        .formatName,
        shown: "by -o's extension (.png, .webp, .avif); png for '-' and other names",
        help: "the output's format where -o's name does not say it"
    )
    package static let quality = Option<String?>(
        "quality",
        .quality,
        shown: "WebP \(WebPEncoder.defaultQuality), AVIF \(AVIFEncoder.defaultQuality)",
        help: "WebP and AVIF: lossy quality, 0 smallest to 100 best, or 'lossless'"
    )

    /// The encoding `options` ask for an output written to `path` ('-' for standard output).
    /// Refused: a format that contradicts the name's extension, `--quality` for a PNG, and
    /// `--compression` for WebP or AVIF.
    package static func resolve(_ options: GivenOptions, path: String) throws -> OutputEncoding {
        let named = path == "-" ? nil : PictureFormat(fileName: path)
        let asked = try format.value(in: options).flatMap { PictureFormat(name: $0) }
        if let named, let asked, named.name != asked.name {
            throw UsageError(
                message:
                    "-o \(path) names a \(named.name) file but --output-format is \(asked.name): give one or the other"
            )
        }
        var chosen = asked ?? named ?? .png
        if let quality = try quality(in: options) {
            guard chosen != .png else {
                throw UsageError(
                    message:
                        "--quality is for WebP and AVIF; a PNG is always lossless (write .webp or .avif, or use --compression for PNG)"
                )
            }
            chosen = chosen.with(quality: quality)
        }
        if chosen != .png && CommonOptions.compression.isGiven(in: options) {
            throw UsageError(
                message: "--compression is for PNG; a \(chosen.name) file takes --quality (0-100 or lossless)"
            )
        }
        return OutputEncoding(format: chosen, compressionLevel: try CommonOptions.compression.value(in: options))
    }

    /// WebP's and AVIF's quality as `options` give it (`--quality`, a manifest's or URL's
    /// `quality`), nil when not given.
    package static func quality(in options: GivenOptions) throws -> PictureFormat.Quality? {
        guard let text = try quality.value(in: options) else { return nil }
        return text == "lossless" ? .lossless : Int(text).map { .lossy($0) }
    }

    /// The file for `image`.
    package func encode(_ image: Image) throws -> [UInt8] {
        try PNGEncoder(compressionLevel: compressionLevel).encode(image, as: format)
    }
}

extension ValueKind where T == String {
    /// A format's name: `png`, `webp` or `avif`.
    static var formatName: Self {
        ValueKind(
            placeholder: "FORMAT",
            accepted: { "png, webp or avif" },
            parse: { given, name in
                let text = try ValueText.text(given, name)
                guard PictureFormat(name: text) != nil else {
                    throw UsageError(message: "\(name) must be png, webp or avif, got '\(text)'")
                }
                return text
            },
            show: { $0 }
        )
    }

    /// A lossy quality from 0 to 100 (as its digits), or `lossless`.
    static var quality: Self {
        let number = ValueKind<Int>.integer("Q", 0...100)
        return ValueKind(
            placeholder: "Q",
            accepted: { "0 to 100, or lossless" },
            parse: { given, name in
                if case .text("lossless") = given { return "lossless" }
                do { return String(try number.parse(given, name)) } catch let error as UsageError {
                    throw UsageError(message: error.message + " (or 'lossless')")
                }
            },
            show: { $0 }
        )
    }
}
