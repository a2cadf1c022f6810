import BlurLabelCLI
import BlurredLabelCore

/// A label's options as a URL gives them (`size:48`, `secure:true`, `color:%23c0392b` once
/// percent-decoded): typed as a manifest line types them and read by the same `LabelOptions`
/// code, so the limits and messages are the command line's.
package enum URLLabelOptions {
    /// Why a URL's options or text are refused: one short line, never quoting the text.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    /// Names a URL may use: a manifest line's options (the label options and `compression`) and
    /// WebP's and AVIF's `quality`.
    package static let names: Set<String> = Set(ManifestLine.optionKeys + [OutputEncoding.quality.key])

    /// The flags, whose value is `true` or `false`.
    package static let flags: Set<String> = Set(LabelOptions.flagKeys)

    /// The options of decoded `name`/`value` pairs: unknown names, repeated names and font files
    /// (over HTTP only installed families: a path would read the server's files) are refused; a
    /// `font` is looked up as a family only when the label is made (`LabelOptions.installedFamily`).
    package static func options(_ pairs: [(name: String, value: String)]) throws(Failure) -> GivenOptions {
        var values: [String: OptionValue] = [:]
        for (name, value) in pairs {
            guard names.contains(name) else { throw Failure("unknown option '\(name)'") }
            guard values[name] == nil else { throw Failure("option '\(name)' given more than once") }
            if name == LabelOptions.font.key, value.contains(where: { "/.#=\\".contains($0) }) {
                throw Failure(LabelOptions.notAnInstalledFamily)
            }
            if flags.contains(name), value == "true" || value == "false" {
                values[name] = .flag(value == "true")
            } else {
                values[name] = .text(value)
            }
        }
        return GivenOptions(values)
    }

    /// `pairs` (in their canonical order) with, in secure mode without a seed, a seed made from
    /// the options alone, so the picture is the same on every instance, for every order of the
    /// options and for every text of the format's shape (never the system's random).
    package static func seeded(_ pairs: [URLPairs.Pair]) -> [URLPairs.Pair] {
        guard pairs.contains(where: { $0.name == "secure" && $0.value == "true" }),
            !pairs.contains(where: { $0.name == "seed" })
        else { return pairs }
        let described = pairs.map { "\($0.name):\($0.value)" }.joined(separator: "/")
        return pairs + [("seed", String(fnv1a(described) & ((1 << 53) - 1)))]
    }

    /// How a label URL's picture is encoded in `format`. Named by the URL's extension
    /// (`negotiated` false), the command line's rules hold: `quality` for WebP and AVIF only,
    /// `compression` for PNG only. Picked by `Accept` (`negotiated`), each applies to the variants
    /// it is for and is ignored by the others (a client cannot make a URL fail), but a bad value
    /// is refused for every variant.
    package static func encoding(
        _ options: GivenOptions,
        format: PictureFormat,
        negotiated: Bool
    ) throws(Failure) -> OutputEncoding {
        do {
            guard negotiated else { return try OutputEncoding.resolve(options, path: "label." + format.name) }
            let quality = try OutputEncoding.quality(in: options)
            return OutputEncoding(
                format: quality.map { format.with(quality: $0) } ?? format,
                compressionLevel: try CommonOptions.compression.value(in: options)
            )
        } catch {
            throw Failure(FlagMessages.message(for: error))
        }
    }

    /// The PNG `render` would write for `text` with these options (the same pixels, the same
    /// encoder and level), within `budget`.
    package static func png(
        _ options: GivenOptions,
        text: String,
        budget: RenderBudget = .standard
    ) throws(Failure) -> [UInt8] {
        try file(options, text: text, encoding: encoding(options, format: .png, negotiated: false), budget: budget)
    }

    /// The file `render` would write for `text` with these options in `encoding` (the same pixels,
    /// the same encoders and settings), within `budget`. A label that a fixed canvas would clip is
    /// refused (`render` warns of it), never served cut off. Errors are one line without the text.
    package static func file(
        _ options: GivenOptions,
        text: String,
        encoding: OutputEncoding,
        budget: RenderBudget = .standard
    ) throws(Failure) -> [UInt8] {
        do {
            let style = try LabelOptions.style(options, text: text, budget: budget, fonts: .familiesOnly)
            let label = try LabelPipeline(style: style, budget: budget)
                .file(
                    of: text,
                    format: encoding.format,
                    encoder: PNGEncoder(compressionLevel: encoding.compressionLevel)
                )
            if label.clipped, let canvas = style.canvas { throw UsageError(message: LabelOptions.doesNotFit(canvas)) }
            return label.bytes
        } catch {
            throw Failure(SecureMessages.withoutValues(FlagMessages.message(for: error), [text]))
        }
    }

    /// The width and height of the picture `png` would make, without blurring or encoding it:
    /// a fixed canvas (at `dpr:N` always one), else the picture's size measured as `dpr` measures
    /// the 1x picture. For `sign --json` and `GET /SIGNATURE/info/…`.
    package static func size(
        _ options: GivenOptions,
        text: String,
        budget: RenderBudget = .standard
    ) throws(Failure) -> (width: Int, height: Int) {
        do {
            let style = try LabelOptions.style(options, text: text, budget: budget, fonts: .familiesOnly)
            if let canvas = style.canvas { return (canvas.width, canvas.height) }
            return try DevicePixelRatio.pictureSize(style, text: text, budget: budget)
        } catch {
            throw Failure(SecureMessages.withoutValues(FlagMessages.message(for: error), [text]))
        }
    }

    /// Checks the options as `png` would, without rendering (for `sign`): the values, and that
    /// the label fits a fixed canvas, from its shaped text's extents alone (which bound the ink
    /// from above: a label within a pixel or two of the canvas's edge may be refused here).
    package static func check(_ options: GivenOptions, text: String) throws(Failure) {
        do {
            let style = try LabelOptions.style(options, text: text, fonts: .familiesOnly)
            _ = try CommonOptions.compression.value(in: options)
            _ = try OutputEncoding.quality(in: options)
            // A fitted size fits by construction (measured on the drawn ink), and so does the canvas
            // `dpr` makes from the 1x picture's: only a canvas given, unfitted, is checked.
            if let canvas = style.canvas, LabelOptions.canvas.isGiven(in: options),
                try !LabelOptions.fit.value(in: options)
            {
                let cost = try LabelPipeline(style: style).cost(of: text)
                if cost.inkWidth > canvas.width || cost.inkHeight > canvas.height {
                    throw UsageError(message: LabelOptions.doesNotFit(canvas))
                }
            }
        } catch {
            throw Failure(SecureMessages.withoutValues(FlagMessages.message(for: error), [text]))
        }
    }
}
