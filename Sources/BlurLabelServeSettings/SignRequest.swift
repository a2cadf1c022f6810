import BlurLabelCLI
import BlurredLabelCore

/// What `blurlabel sign TEXT [label options]` asks for: the options as URL pairs in their
/// canonical order (`URLPairs.canonical`), checked as `render` checks them. The signing itself is in `blurlabel-serve` (crypto).
package struct SignRequest: Sendable {
    package var pairs: [(name: String, value: String)] = []
    package var text = ""
    /// Encrypt the text (enc:, BLURLABEL_ENC_KEY).
    package var encrypt = false
    /// An /unsafe/ path, for a server started with --unsigned.
    package var unsigned = false
    /// Print `{"path":…,"width":…,"height":…}`, the size from `options`.
    package var json = false
    /// The label's options, a preset expanded (what the size is measured with).
    package var options = GivenOptions()
    /// The URL's last segment after the text: a format's extension (`.png` by default), or
    /// nothing where the server picks the format from `Accept` (`--output-format auto`).
    package var suffix = ".png"

    /// The formats `--output-format` names: one by its extension, or `auto` (no extension).
    enum URLFormat: String, CaseIterable, Sendable { case png, webp, avif, auto }

    package enum Parsed {
        case help(String)
        case sign(SignRequest)
    }

    static let encrypt = Option(
        flag: "encrypt",
        help: "carry the text encrypted (enc:, padded to 32 bytes, AES-256-GCM under BLURLABEL_ENC_KEY)"
    )
    static let unsigned = Option(flag: "unsigned", help: "an /unsafe/ path for a server started with --unsigned")
    static let json = Option(
        flag: "json",
        help: "print {\"path\":...,\"width\":W,\"height\":H}: the picture's size, measured without drawing it"
    )
    static let format = Option<URLFormat?>(
        "output-format",
        .choice("FORMAT"),
        shown: "png",
        help: "the URL's extension (.png, .webp, .avif), or auto: none, the server answers AVIF, WebP or PNG by Accept"
    )
    static let preset = Option<String?>(
        Presets.option,
        .text("NAME"),
        shown: "none",
        help: "name a preset of the server (preset:NAME); checked against BLURLABEL_PRESETS when set"
    )

    static let spec = CommandSpec(
        name: "sign",
        summary: "print a signed URL path for a label, for 'blurlabel serve' (docs/serve.md)",
        positionals: ["TEXT"],
        options: LabelOptions.specs + [
            CommonOptions.compression.spec, OutputEncoding.quality.spec, format.spec, preset.spec, encrypt.spec,
            unsigned.spec, json.spec,
        ],
        details: """
            Prints /SIGNATURE/name:value/.../TEXT.png (.webp, .avif, or no extension: --output-format), the options sorted by name, signed with the first pair of BLURLABEL_KEY and
            BLURLABEL_SALT (imgproxy's scheme: base64url of HMAC-SHA256(key, salt + path)). TEXT '-'
            reads the text from standard input (one final line break dropped), so a secret is never
            in argv or the shell's history: printf %s "$PRICE" | blurlabel sign --encrypt -
            """
    )

    /// Reads the arguments; TEXT `-` is read from `standardInput` (by default this process's
    /// standard input), so a secret need not sit in argv or a shell's history.
    package static func parse(
        _ arguments: [String],
        standardInput: () throws -> [UInt8] = { try FileIO.read("-", limit: standardInputLimit) },
        environment: (String) -> String? = { _ in nil }
    ) throws -> Parsed {
        let parsed: ParsedArguments
        do { parsed = try spec.parse(arguments) } catch let error as UsageError {
            throw URLLabelOptions.Failure(error.message)
        }
        if parsed.wantsHelp { return .help(spec.help) }
        var request = SignRequest()
        request.text = parsed.positionals[0]
        if request.text == "-" { request.text = try text(fromStandardInput: try standardInput()) }
        request.encrypt = parsed.has(encrypt.name)
        request.unsigned = parsed.has(unsigned.name)
        request.json = parsed.has(json.name)
        let chosen =
            try parsed.given.last(where: { $0.name == format.name })?.value.map {
                try format.value(of: .text($0), named: format.name)
            } ?? nil
        request.suffix = chosen == .auto ? "" : "." + (chosen?.rawValue ?? "png")
        let own = [encrypt.name, unsigned.name, json.name, format.name]
        for given in parsed.given where !own.contains(given.name) {
            let name = String(given.name.dropFirst(2))
            if let at = request.pairs.firstIndex(where: { $0.name == name }) { request.pairs.remove(at: at) }
            request.pairs.append((name, given.value ?? "true"))
        }
        request.pairs = URLPairs.canonical(request.pairs)
        var presets = Presets()
        if let list = environment("BLURLABEL_PRESETS") { try presets.add(list: list, from: "BLURLABEL_PRESETS") }
        // Without the server's presets here, a preset's name is taken on trust and the rest checked.
        let checked = presets.names.isEmpty ? request.pairs.filter { $0.name != Presets.option } : request.pairs
        let expanded = URLPairs.canonical(try presets.expanded(checked))
        request.options = try URLLabelOptions.options(URLLabelOptions.seeded(expanded))
        try URLLabelOptions.check(request.options, text: request.text)
        _ = try URLLabelOptions.encoding(
            request.options,
            format: PictureFormat(name: chosen?.rawValue ?? "png") ?? .png,
            negotiated: chosen == .auto
        )
        if request.json && checked.count != request.pairs.count {
            throw URLLabelOptions.Failure("--json with --preset needs BLURLABEL_PRESETS, the preset's options")
        }
        return .sign(request)
    }

    /// The most TEXT `-` reads: 4 bytes for each of the scalars a label may have.
    static let standardInputLimit = 4 * Limits.maximumTextScalars

    /// The text of standard input's `bytes`: UTF-8, one final line break (`echo`'s) dropped.
    static func text(fromStandardInput bytes: [UInt8]) throws -> String {
        var bytes = bytes
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let text = try? decodeUTF8(bytes) else {
            throw URLLabelOptions.Failure("TEXT from standard input is not valid UTF-8")
        }
        guard !text.isEmpty else { throw URLLabelOptions.Failure("TEXT from standard input is empty") }
        return text
    }
}
