import BlurredLabelCore

/// The label options shared by `render`, `animate` and `batch` manifests: one table, one parser.
enum LabelOptions {
    static let specs: [OptionSpec] = [
        OptionSpec(
            name: "--font",
            value: "PATH|FAMILY",
            help: "font file (PATH#INDEX for a collection face) or installed family; default DejaVu Sans (embedded)"
        ),
        OptionSpec(
            name: "--size",
            value: "PX",
            help:
                "font size in pixels, \(OptionValues.format(Limits.minimumFontSize)) to \(Int(Limits.maximumFontSize)) (default 32; with --fit the largest tried, default \(Int(Limits.maximumFontSize)))"
        ),
        OptionSpec(
            name: "--radius",
            short: "-r",
            value: "SIGMA",
            help: "blur standard deviation in pixels, 0 to \(Int(Limits.maximumRadius)); 0 for sharp (default 2.5)"
        ),
        OptionSpec(
            name: "--color",
            value: "C",
            help: "text colour: #RGB, #RRGGBB, #RRGGBBAA or a CSS name (default black)"
        ),
        OptionSpec(name: "--background", value: "C", help: "background colour or 'transparent' (default white)"),
        OptionSpec(
            name: "--canvas",
            value: "WxH",
            help: "fixed canvas size; content is centered (default: the ink box padded by ceil(3*SIGMA))"
        ),
        OptionSpec(
            name: "--fit",
            help:
                "with --canvas: the largest size (at most --size if given, else \(Int(Limits.maximumFontSize))) whose blurred, padded label fits the canvas"
        ),
        OptionSpec(
            name: "--min-size",
            value: "PX",
            help:
                "with --fit: the smallest size tried (default \(OptionValues.format(FitToCanvas.defaultMinimumSize))); smaller still not fitting fails"
        ),
        OptionSpec(
            name: "--padding",
            value: "PX",
            help: "empty pixels around the ink beyond the blur's reach, 0 to \(Limits.maximumPadding) (default 0)"
        ),
        OptionSpec(
            name: "--features",
            value: "LIST",
            help: "OpenType features, comma-separated: tnum,-liga,+smcp,ss01"
        ),
        OptionSpec(name: "--language", value: "TAG", help: "language for shaping, a BCP 47 tag such as ar, tr, sr"),
        OptionSpec(name: "--direction", value: "DIR", help: "paragraph direction: auto (default), ltr or rtl"),
        OptionSpec(name: "--align", value: "A", help: "line alignment: left, center (default), right, start or end"),
        OptionSpec(
            name: "--line-spacing",
            value: "X",
            help:
                "multiple of the font's line height, \(OptionValues.format(Limits.minimumLineSpacing)) to \(Int(Limits.maximumLineSpacing)) (default 1)"
        ),
        OptionSpec(
            name: "--letter-spacing",
            value: "PX",
            help:
                "extra pixels after each character, -\(Int(Limits.maximumLetterSpacing)) to \(Int(Limits.maximumLetterSpacing)) (default 0)"
        ),
        OptionSpec(
            name: "--max-width",
            value: "PX",
            help: "wrap lines longer than this at spaces, 1 to \(Int(Limits.maximumWrapWidth))"
        ),
        OptionSpec(
            name: "--outline",
            value: "PX",
            help: "draw a stroked outline of this width around the glyphs, 0 to \(Int(Limits.maximumOutlineWidth))"
        ),
        OptionSpec(
            name: "--no-system-fonts",
            help:
                "use only the chosen and the embedded fonts, never the system's (fontconfig): the same bytes on every machine"
        ),
        OptionSpec(
            name: "--secure",
            help: "blur a decoy of the text's format instead of the text: the picture reveals nothing"
        ),
        OptionSpec(
            name: "--format",
            value: "TEMPLATE",
            help: "with --secure: the secret's longest form, # for each digit (e.g. '##.## €')"
        ),
        OptionSpec(
            name: "--seed",
            value: "N",
            help: "with --secure: seed for the decoy digits (default: the system's secure generator)"
        ),
    ]

    /// Names of the options above that are flags (present or not).
    static let flags: Set<String> = ["secure", "no-system-fonts", "fit"]

    /// Option names without dashes, as manifest keys use them.
    static var keys: [String] { specs.map { String($0.name.dropFirst(2)) } }

    /// A label style from a parsed command line, fitted to its canvas for `text` with `--fit`.
    static func style(from arguments: ParsedArguments, text: String) throws -> LabelStyle {
        try style(Options(arguments), text: text)
    }

    /// A label style from typed options (a command line's or a manifest line's). With `--fit` the
    /// size is the largest at which `text` fits the canvas, blurred at `fitRadius` (default: the
    /// style's radius; an animation gives its largest).
    static func style(_ options: Options, text: String, fitRadius: Double? = nil) throws -> LabelStyle {
        let style = try unfittedStyle(options)
        let minimum = try options.number("min-size", range: Limits.minimumFontSize...Limits.maximumFontSize)
        guard try options.flag("fit") else {
            if minimum != nil { throw UsageError(message: "--min-size only applies with --fit") }
            return style
        }
        guard style.canvas != nil else { throw UsageError(message: "--fit needs --canvas WxH") }
        let maximum = options.has("size") ? style.typography.size : Limits.maximumFontSize
        let lowest = minimum ?? min(FitToCanvas.defaultMinimumSize, maximum)
        guard lowest <= maximum else {
            throw UsageError(
                message: "--min-size \(OptionValues.format(lowest)) is above --size \(OptionValues.format(maximum))"
            )
        }
        return try FitToCanvas.style(style, fitting: text, radius: fitRadius, minimumSize: lowest, maximumSize: maximum)
    }

    /// A label style from typed options, without fitting.
    static func unfittedStyle(_ options: Options) throws -> LabelStyle {
        var text = TextStyle()
        if let font = try options.string("font") {
            guard !font.isEmpty else {
                throw UsageError(message: "--font needs a font file or a family name, not an empty one")
            }
            do { text.font = try FontLibrary.named(font) } catch { throw UsageError(message: "--font: \(error)") }
        }
        if let size = try options.number("size", range: Limits.minimumFontSize...Limits.maximumFontSize) {
            text.size = size
        }
        if let features = try options.list("features") {
            text.features = features.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        }
        text.language = try options.string("language")
        if let direction = try options.string("direction") {
            guard let d = TextDirection(rawValue: direction) else {
                throw UsageError(message: "--direction must be auto, ltr or rtl, got '\(direction)'")
            }
            text.direction = d
        }
        if let align = try options.string("align") {
            guard let a = TextAlignment(rawValue: align) else {
                throw UsageError(message: "--align must be left, center, right, start or end, got '\(align)'")
            }
            text.alignment = a
        }
        if let spacing = try options.number(
            "line-spacing",
            range: Limits.minimumLineSpacing...Limits.maximumLineSpacing
        ) {
            text.lineSpacing = spacing
        }
        if let spacing = try options.number(
            "letter-spacing",
            range: -Limits.maximumLetterSpacing...Limits.maximumLetterSpacing
        ) {
            text.letterSpacing = spacing
        }
        if let width = try options.number("max-width", range: 1...Limits.maximumWrapWidth) { text.maxWidth = width }
        if let outline = try options.number("outline", range: 0...Limits.maximumOutlineWidth) {
            text.outlineWidth = outline
        }
        if try options.flag("no-system-fonts") { text.systemFallback = .off }
        do { try text.validate() } catch { throw UsageError(message: "\(error)") }

        var style = LabelStyle(typography: text)
        if let color = try options.string("color") { style.color = try OptionValues.color(color, option: "--color") }
        if let background = try options.string("background") {
            style.background = try OptionValues.color(background, option: "--background")
        }
        if let canvas = try options.string("canvas") {
            let size = try OptionValues.size(canvas, option: "--canvas")
            style.canvas = try CanvasSize(width: size.width, height: size.height)
        }
        if let radius = try options.number("radius", range: 0...Limits.maximumRadius) { style.radius = radius }
        if let padding = try options.integer("padding", range: 0...Limits.maximumPadding) { style.padding = padding }
        if try options.flag("secure") {
            var secure = SecureOptions()
            if let format = try options.string("format") {
                do { secure.format = try SecretFormat(format) } catch {
                    throw UsageError(message: "--format: \(error)")
                }
            }
            if let seed = try options.unsigned("seed") { secure.seed = .seed(seed) }
            style.secure = secure
        } else if options.has("format") || options.has("seed") {
            throw UsageError(message: "--format and --seed only apply with --secure")
        }
        return style
    }
}

/// The secure-mode warning when the decoy's format is read off the text itself.
func secureFormatWarning(_ style: LabelStyle) -> String? {
    guard let secure = style.secure, secure.format == nil else { return nil }
    return
        "warning: --secure without --format makes a decoy as long as the text, which shows how many digits it has; give --format with the longest value (e.g. '##.## €')"
}

/// One line on stderr naming characters that no font could draw. In secure mode the characters
/// are only counted, never quoted: they are part of the secret.
func missingCharactersWarning(_ missing: [Unicode.Scalar], secure: Bool) -> String? {
    guard !missing.isEmpty else { return nil }
    if secure {
        return
            "warning: \(missing.count) character(s) of the text have no glyph in any font (not named in secure mode); drawn as the font's missing-glyph box"
    }
    var seen = Set<UInt32>()
    let names = missing.filter { seen.insert($0.value).inserted }.map { scalar in
        "U+" + cFormat("%04X", scalar.value) + " '\(scalar)'"
    }
    return "warning: no font has \(names.joined(separator: ", ")); drawn as the font's missing-glyph box"
}
