import BlurredLabelCore

/// Options several commands share: declared once, read once.
package enum CommonOptions {
    package static let output = Option<String?>(
        "output",
        short: "-o",
        .text("OUT.png"),
        help: "where to write the PNG ('-' for standard output)"
    )
    static let maxPixels = Option(
        "max-pixels",
        .integer("N", 1...Limits.maximumPixels),
        default: PNGDecoder.defaultMaxPixels,
        help: "refuse inputs larger than N pixels"
    )
    static let tint = Option<Color?>(
        "tint",
        .color("COLOR"),
        help: "a veil of COLOR over the blur (#ffffff4d frosted, #0000004d dark); see docs/pictures-levels.md"
    )
    package static let maxRenderMegabytes = Option(
        "max-render-mb",
        .integer("MB", 1...Limits.maximumRenderMegabytes),
        default: Limits.defaultRenderMegabytes,
        help: "refuse a label whose render would take more than MB of memory, before drawing it"
    )
    package static let compression = Option(
        "compression",
        .integer("0-9", 0...9),
        default: PNGEncoder().compressionLevel,
        help:
            "compression level of the output: 0 stored, 1 fastest, 9 smallest (a label: runs of the byte before at 1 to 6, libdeflate at 7 to 9)"
    )

    /// The render budget `--max-render-mb` gives (its range is the budget's).
    static func budget(_ options: GivenOptions) throws -> RenderBudget {
        try RenderBudget(megabytes: maxRenderMegabytes.value(in: options))
    }

    /// `-o` of the commands that write WebP and AVIF as well as PNG (render, blur, redact).
    static let pictureOutput = output.with(
        help: "where to write the picture: PNG, or WebP/AVIF for a .webp/.avif name ('-' for standard output)"
    )

    /// The options that choose how an output is encoded, after `-o`'s: format, WebP/AVIF
    /// quality, PNG compression.
    static let encodingSpecs = [OutputEncoding.format.spec, OutputEncoding.quality.spec, compression.spec]

    /// The `-o` path, which the command cannot do without.
    static func requiredOutput(_ options: GivenOptions) throws -> String {
        guard let path = try output.value(in: options) else {
            throw UsageError(message: "missing -o OUT.png (use '-o -' for standard output)")
        }
        return path
    }
}

/// Writes an image as PNG to a path (atomically) or to standard output for `-`.
func writePNG(_ image: Image, to path: String, followingLinks: Bool = true) throws {
    try FileIO.write(try PNGEncoder().encode(image), to: path, followingLinks: followingLinks)
}

/// Writes an image as `encoding` says to a path (atomically) or to standard output for `-`.
func writePicture(_ image: Image, to path: String, encoding: OutputEncoding) throws {
    try FileIO.write(try encoding.encode(image), to: path)
}

/// Reads and decodes a still PNG for a command that changes its pixels (`redact`, `blur`): an
/// animated PNG is refused, since only its first frame would be processed and the others lost.
package func decodeStill(_ path: String, maxPixels: Int) throws -> Image {
    let bytes = try FileIO.read(path)
    if PNGDecoder.isAnimated(bytes) {
        throw UsageError(
            message:
                "\(PNGDecoder.sourceName(path)) is an animated PNG; only its first frame would be processed: give a still picture (one frame)"
        )
    }
    return try PNGDecoder.decode(bytes, source: PNGDecoder.sourceName(path), maxPixels: maxPixels)
}
