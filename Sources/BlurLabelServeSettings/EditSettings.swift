import BlurLabelCLI
import BlurLabelSystem
import BlurredLabelCore

/// `blurlabel edit IN.png -o OUT.png …`'s settings, parsed by the command line's parser; the page
/// server itself runs in the separate `blurlabel-serve` executable (Package.swift says why).
package struct EditSettings: Sendable {
    package var input = ""
    package var output = ""
    package var host = "127.0.0.1"
    package var port: UInt16 = 0
    package var mode = RedactCommand.mode.defaultValue
    package var radius = RedactCommand.radius.defaultValue
    package var rects: String? = nil
    package var open = false
    /// The input's device and inode when the settings were read: Save refuses a file that is
    /// still (or has become, through a link) this one.
    package var inputIdentity: FileIdentity? = nil
    /// Seconds without a request after which the server exits: an hour, or for tests
    /// `BLURLABEL_EDIT_IDLE_SECONDS` (see `idleSeconds(environment:)`).
    package var idleSeconds = 3600.0

    /// The environment variable that shortens the idle hour, for tests only.
    package static let idleVariable = "BLURLABEL_EDIT_IDLE_SECONDS"

    /// The idle time `BLURLABEL_EDIT_IDLE_SECONDS` sets (nil when it is not set): a number of
    /// seconds from 0.1 to a day.
    package static func idleSeconds(environment value: String?) throws -> Double? {
        guard let value else { return nil }
        guard let seconds = Double(value), seconds >= 0.1, seconds <= 86_400 else {
            throw URLLabelOptions.Failure(
                "\(idleVariable) must be a number of seconds from 0.1 to 86400, not '\(value)'"
            )
        }
        return seconds
    }

    package init() {}

    /// The modes the page offers: `redact`'s.
    package static let modes = RedactCommand.modes
    /// The page's pixelate block before one is typed: `redact --block`'s default.
    package static let defaultBlock = RedactCommand.block.defaultValue

    package enum Parsed {
        case help(String)
        case run(EditSettings)
    }

    static let listen = Option<String?>(
        "listen",
        .text("127.0.0.1:PORT"),
        shown: "a free port",
        help: "loopback address and port of the page"
    )
    static let mode = RedactCommand.mode.with(
        help: "secure, fill, blur or pixelate for new rectangles (blur and pixelate are cosmetic)"
    )
    static let rects = Option<String?>(
        "rects",
        .text("FILE.json"),
        help: "load the rectangles from FILE.json when it exists; Save writes them there too"
    )
    static let open = Option(
        flag: "open",
        help: "also open the page with xdg-open, through a private file (no token in any argv)"
    )

    static let spec = CommandSpec(
        name: "edit",
        summary: "draw redaction rectangles on a PNG in the browser (docs/edit.md)",
        positionals: ["IN.png"],
        options: [
            CommonOptions.output.spec, listen.spec, mode.spec, RedactCommand.radius.spec, rects.spec, open.spec,
        ],
        details: """
            Prints the page's URL, with a one-time token in it, as the first line of standard output.
            The page draws rectangles over the picture, previews them rendered by the engine, and
            Save writes OUT.png (never IN.png). The server exits on the page's Done, on Ctrl-C or
            SIGTERM, and after an hour without requests.
            """
    )

    /// Reads the options and checks them: loopback only, OUT not IN.
    package static func parse(_ arguments: [String]) throws -> Parsed {
        let parsed: ParsedArguments
        do { parsed = try spec.parse(arguments) } catch let error as UsageError {
            throw URLLabelOptions.Failure(error.message)
        }
        if parsed.wantsHelp { return .help(spec.help) }
        var settings = EditSettings()
        let options = GivenOptions(parsed)
        do {
            settings.input = parsed.positionals[0]
            guard let output = try CommonOptions.output.value(in: options) else {
                throw UsageError(message: "missing -o OUT.png")
            }
            guard settings.input != "-", output != "-" else {
                throw UsageError(message: "edit needs files for IN.png and OUT.png, not standard input or output")
            }
            if SameFile.check(settings.input, output) {
                throw UsageError(message: "-o \(output) is the input file; edit never writes its input")
            }
            settings.output = output
            settings.inputIdentity = FileIdentity(of: settings.input)
            if let listen = try Self.listen.value(in: options) {
                guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...])
                else { throw UsageError(message: "--listen needs 127.0.0.1:PORT, got '\(listen)'") }
                let host = String(listen[..<colon])
                guard host.hasPrefix("127.") else {
                    throw UsageError(message: "--listen: edit listens on loopback only (127.x.x.x), not '\(host)'")
                }
                settings.host = host
                settings.port = port
            }
            if Self.mode.isGiven(in: options) {
                let mode = try Self.mode.value(in: options)
                guard RedactCommand.modes.contains(mode) else {
                    throw UsageError(
                        message:
                            "--mode: unknown mode '\(mode)' (modes: \(RedactCommand.modes.joined(separator: ", ")))"
                    )
                }
                settings.mode = mode
            }
            settings.radius = try RedactCommand.radius.value(in: options)
            settings.rects = try Self.rects.value(in: options)
            if let rects = settings.rects, SameFile.check(rects, settings.input) || SameFile.check(rects, output) {
                throw UsageError(message: "--rects \(rects) is the input or the output picture")
            }
            settings.open = try Self.open.value(in: options)
        } catch let error as UsageError {
            throw URLLabelOptions.Failure(error.message)
        }
        return .run(settings)
    }

    /// What `blurlabel redact IN.png ARGUMENTS -o OUT.png` makes of `image`: the page's previews
    /// and Save go through `redact`'s own parsing and `Redaction`.
    package static func redact(_ image: Image, arguments: [String]) throws -> Image {
        try RedactCommand.render(image, redactArguments: arguments)
    }

    /// `redact(_:arguments:)`'s picture and the rectangles it may differ from `image` in (every
    /// region, clipped to the picture; `Redaction` changes no pixel outside its regions), in order.
    package static func redactWithRegions(
        _ image: Image,
        arguments: [String]
    ) throws -> (image: Image, regions: [Redaction.Rect]) {
        let redaction = try RedactCommand.redaction(of: image, redactArguments: arguments)
        let result = try redaction.render()
        // What each region changes: secure and blur ones with their margin.
        let regions = redaction.regions.indices.compactMap { index -> Redaction.Rect? in
            let r = redaction.effectiveRect(index)
            let x0 = max(0, r.x)
            let y0 = max(0, r.y)
            let x1 = min(image.width, r.x + r.width)
            let y1 = min(image.height, r.y + r.height)
            return x0 < x1 && y0 < y1 ? Redaction.Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }
        return (result, regions)
    }

    /// Writes `image` to the output as every command writes one (`FileIO`: a temporary file
    /// renamed over it, its mode kept, a device or FIFO written into, never half-written), after
    /// checking, now and again once the PNG is made, that the output is not the input (a link
    /// or another name made since the start counts).
    package func save(_ image: Image) throws {
        try refuseInput(output, role: "-o")
        let png = try PNGEncoder().encode(image)
        try refuseInput(output, role: "-o")
        try FileIO.write(png, to: output)
    }

    /// Writes the rectangle file (`--rects`), neither the input nor the output picture.
    package func saveRects(_ bytes: [UInt8]) throws {
        guard let rects else { return }
        try refuseInput(rects, role: "--rects")
        if SameFile.check(rects, output) {
            throw URLLabelOptions.Failure("--rects \(rects) is now the output picture; not written")
        }
        try FileIO.write(bytes, to: rects)
    }

    /// Throws when `path` names the input: the file it was at the start (device and inode), or
    /// what the input's name leads to now, through links and `..`.
    func refuseInput(_ path: String, role: String) throws {
        let now = FileIdentity(of: path)
        if SameFile.check(input, path) || (now != nil && now == inputIdentity) {
            throw URLLabelOptions.Failure(
                "\(role) \(path) is now the input file (a link to it?); edit never writes its input"
            )
        }
    }
}

/// A file's device and inode (links followed), which name it whatever path leads to it.
package struct FileIdentity: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64

    /// The identity of what `path` names now; nil when it names nothing.
    package init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
