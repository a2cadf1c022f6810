import BlurredLabelCore

/// The formats a picture is written in, by name (`--output-format`).
enum OutputFormatName: String, CaseIterable, Sendable {
    case png, webp, avif

    var format: PictureFormat { PictureFormat(name: rawValue)! }
}

/// How an output is encoded: its format (from `--output-format`, else the output's extension, else
/// PNG), WebP's and AVIF's `--quality`, PNG's `--compression`. Every command that writes a picture
/// (render, blur, redact, batch's lines) reads it here, so the same flags mean the same thing.
struct OutputEncoding: Equatable, Sendable {
    var format: PictureFormat
    /// zlib level of a PNG (unused for the others).
    var compressionLevel: Int

    static let format = Option<OutputFormatName?>(
        "output-format",
        .choice("FORMAT"),
        shown: "by -o's extension (.png, .webp, .avif); png for '-' and other names",
        help: "the output's format where -o's name does not say it"
    )
    static let quality = Option<PictureFormat.Quality?>(
        "quality",
        .quality,
        shown: "WebP \(WebPEncoder.defaultQuality), AVIF \(AVIFEncoder.defaultQuality)",
        help: "WebP and AVIF: lossy quality, 0 smallest to 100 best, or 'lossless'"
    )

    /// The encoding `options` ask for an output written to `path` ('-' for standard output).
    /// Refused: a format that contradicts the name's extension, `--quality` for a PNG, and
    /// `--compression` for WebP or AVIF.
    static func resolve(_ options: GivenOptions, path: String) throws -> OutputEncoding {
        let named = path == "-" ? nil : PictureFormat(fileName: path)
        let asked = try format.value(in: options)?.format
        if let named, let asked, named.name != asked.name {
            throw UsageError(
                message:
                    "-o \(path) names a \(named.name) file but --output-format is \(asked.name): give one or the other"
            )
        }
        var chosen = asked ?? named ?? .png
        if let quality = try quality.value(in: options) {
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

    /// The file for `image`.
    func encode(_ image: Image) throws -> [UInt8] {
        format == .png ? try PNGEncoder(compressionLevel: compressionLevel).encode(image) : try format.encode(image)
    }
}

extension ValueKind where T == PictureFormat.Quality {
    /// A lossy quality from 0 to 100, or `lossless`.
    static var quality: Self {
        let number = ValueKind<Int>.integer("Q", 0...100)
        return ValueKind(
            placeholder: "Q",
            accepted: { "0 to 100, or lossless" },
            parse: { given, name in
                if case .text("lossless") = given { return .lossless }
                do { return .lossy(try number.parse(given, name)) } catch let error as UsageError {
                    throw UsageError(message: error.message + " (or 'lossless')")
                }
            },
            show: {
                switch $0 {
                case .standard: return nil
                case let .lossy(value): return String(value)
                case .lossless: return "lossless"
                }
            }
        )
    }
}
