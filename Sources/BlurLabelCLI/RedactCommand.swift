import BlurLabelSystem
import BlurredLabelCore

/// `blurlabel redact IN.png --rect X,Y,W,H[:MODE] ... -o OUT.png`: obscure rectangles of an image.
package enum RedactCommand {
    /// The modes, in the order the help and `blurlabel edit`'s page list them.
    package static let modes = ["secure", "fill", "blur", "pixelate"]

    static let listing: CommandLineTool.Listing = .init(
        name: "redact",
        summary: "securely obscure, fill, blur or pixelate rectangles of a PNG"
    ) { command }

    static let rect = Option(
        "rect",
        .repeated("X,Y,W,H[:MODE]"),
        default: [],
        help: "a region; negative W or H count from X,Y up or left (a drag); repeat for more"
    )
    package static let mode = Option(
        "mode",
        .text("MODE"),
        default: "secure",
        help: "secure, fill, blur or pixelate, for regions without their own (blur and pixelate are cosmetic)"
    )
    package static let radius = Option(
        "radius",
        short: "-r",
        .sigma,
        default: 8,
        help: "blur and secure sigma in pixels"
    )
    package static let block = Option(
        "block",
        .integer("N", Limits.minimumPixelateBlock...Limits.maximumPixelateBlock),
        default: 12,
        help: "pixelate block size in pixels"
    )
    static let color = Option("color", .color(), default: Color.black, help: "fill colour, opaque")
    static let margin = Option(
        "margin",
        .integer("PX", 0...Limits.maximumRedactionMargin),
        default: Redaction.defaultMargin,
        help: "pixels secure and blur regions grow by on every side, to cover the text's antialiased edge"
    )
    static let tint = CommonOptions.tint.with(
        help: "a veil of COLOR over blur and secure regions (#ffffff4d frosted, #0000004d dark)"
    )
    static let inPlace = Option(
        flag: "in-place",
        help: "replace IN.png (atomically; a symbolic link's target) instead of writing -o"
    )

    static let spec = CommandSpec(
        name: listing.name,
        summary: listing.summary,
        positionals: ["IN.png"],
        options: [
            CommonOptions.pictureOutput.spec, rect.spec, mode.spec, radius.spec, block.spec, color.spec, margin.spec,
            tint.spec, inPlace.spec, CommonOptions.maxPixels.spec,
        ] + CommonOptions.encodingSpecs,
        details: """
            Regions apply in order; overlapping ones compose in that order. Pixels outside every region (and
            its --margin) are left exactly as they were. secure, the default, looks like a blur but is made
            only from the pixels around the region, so nothing inside can be recovered; fill paints over.
            blur and pixelate are cosmetic: text under them can often be recovered. Secure and blur regions
            grow by --margin on every side, so a box drawn tight to the text covers its antialiased edge.
            Settings that would change nothing are refused: a blur of sigma 0, a block of 1, a fill that is
            not opaque. An animated PNG is refused: only its first frame would be redacted. The input is never overwritten without
            --in-place, which keeps the file's permissions, follows a symbolic link to the file it
            names, and refuses a file with several names (hard links).
            """
    )

    static let command = CommandLineTool.Command(spec: spec) { arguments, output in
        let options = GivenOptions(arguments)
        let input = arguments.positionals[0]
        let inPlace = try Self.inPlace.value(in: options)
        let outputPath = try CommonOptions.output.value(in: options)
        guard let destination = inPlace ? input : outputPath else {
            throw UsageError(message: "missing -o OUT.png (or --in-place)")
        }
        if inPlace && outputPath != nil {
            throw UsageError(message: "give -o or --in-place, not both")
        }
        if inPlace && input == "-" { throw UsageError(message: "--in-place needs a file, not standard input") }
        if inPlace { try requireReplaceableFile(input) }
        if inPlace, let names = FileIO.linkCount(input), names > 1 {
            // Replacing one name would leave the unredacted pixels under the others.
            throw UsageError(
                message:
                    "\(input) has \(names) names (hard links); replacing it in place would leave the original pixels under the others: write with -o, or remove the other names first"
            )
        }
        if !inPlace && destination != "-" && input != "-" && SameFile.check(input, destination) {
            throw UsageError(message: "-o \(destination) is the input file; use --in-place to replace it")
        }
        let (regions, tint) = try regions(options)
        let maxPixels = try CommonOptions.maxPixels.value(in: options)
        let encoding = try OutputEncoding.resolve(options, path: destination)
        let image = try decodeStill(input, maxPixels: maxPixels)
        var redaction = Redaction(image: image)
        redaction.regionMargin = try margin.value(in: options)
        for (rect, mode) in regions { redaction.add(rect, mode: mode, tint: tint) }
        let result = try redaction.render()
        if regions.contains(where: { $0.1.isCosmetic }) {
            output.standardError(
                "blurlabel redact: note: blur and pixelate are cosmetic and can be reversed for text; use --mode secure or fill to hide it\n"
            )
        }
        try writePicture(result, to: destination, encoding: encoding)
        return 0
    }

    /// The regions, their modes and the tint `--rect`, `--mode`, `--radius`, `--block`, `--color`
    /// and `--tint` ask for.
    static func regions(
        _ options: GivenOptions
    ) throws -> (regions: [(Redaction.Rect, Redaction.Mode)], tint: Color?) {
        let rects = try rect.value(in: options)
        guard !rects.isEmpty else { throw UsageError(message: "give at least one \(rect.name) X,Y,W,H") }
        let defaultMode = try mode.value(in: options)
        let radius = try Self.radius.value(in: options)
        let block = try Self.block.value(in: options)
        let color = try Self.color.value(in: options)
        let tint = try Self.tint.value(in: options)
        var regions: [(Redaction.Rect, Redaction.Mode)] = []
        for (index, text) in rects.enumerated() {
            let (rect, modeName) = try parseRect(text, index: index)
            let name = modeName ?? defaultMode
            let mode: Redaction.Mode
            switch name {
            case "blur": mode = .blur(radius: radius)
            case "pixelate": mode = .pixelate(block: block)
            case "fill": mode = .fill(color)
            case "secure": mode = .secure(radius: radius)
            default:
                throw UsageError(
                    message:
                        "region \(index + 1) (\(text)): unknown mode '\(name)' (modes: \(modes.joined(separator: ", ")))"
                )
            }
            regions.append((rect, mode))
        }
        return (regions, tint)
    }

    /// What `blurlabel redact IN.png ARGUMENTS -o OUT.png` renders for `image` (IN.png's pixels):
    /// `blurlabel edit`'s previews and saves go through the same parsing and the same `Redaction`,
    /// so the command line the page shows makes the same pixels.
    package static func render(_ image: Image, redactArguments: [String]) throws -> Image {
        try redaction(of: image, redactArguments: redactArguments).render()
    }

    /// The `Redaction` of `image` that `redactArguments` describe, not yet rendered.
    package static func redaction(of image: Image, redactArguments: [String]) throws -> Redaction {
        let options = GivenOptions(try spec.parse(["IN.png"] + redactArguments))
        let (regions, tint) = try regions(options)
        var redaction = Redaction(image: image)
        redaction.regionMargin = try margin.value(in: options)
        for (rect, mode) in regions { redaction.add(rect, mode: mode, tint: tint) }
        return redaction
    }

    /// `--in-place` replaces a regular file atomically; a FIFO, device or `/dev/stdin` would be
    /// written into instead (a FIFO with no reader waits for ever, a pipe feeds its own input).
    static func requireReplaceableFile(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }  // missing or unreadable: the decoder says which
        guard info.st_mode & S_IFMT == S_IFREG, !path.hasPrefix("/dev/"), !path.hasPrefix("/proc/") else {
            throw UsageError(message: "--in-place needs a regular file to replace; \(path) is not one (write with -o)")
        }
    }

    /// `X,Y,W,H` with an optional `:MODE`.
    static func parseRect(_ text: String, index: Int) throws -> (Redaction.Rect, String?) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let numbers = parts[0].split(separator: ",", omittingEmptySubsequences: false).map {
            Int($0.trimmingWhitespace())
        }
        guard numbers.count == 4, numbers.allSatisfy({ $0 != nil }) else {
            throw UsageError(message: "region \(index + 1): '\(text)' is not X,Y,W,H[:MODE] with whole numbers")
        }
        let n = numbers.map { $0! }
        guard n.allSatisfy({ $0.magnitude <= 1 << 24 }) else {
            throw UsageError(message: "region \(index + 1): '\(text)' is out of range")
        }
        return (Redaction.Rect(x: n[0], y: n[1], width: n[2], height: n[3]), parts.count == 2 ? String(parts[1]) : nil)
    }
}
