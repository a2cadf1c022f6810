import BlurredLabelCore

/// The label options shared by `render`, `animate`, `sign`, batch manifests and label URLs: each
/// declared once, with its range from `Limits` and its default from `LabelStyle()`.
package enum LabelOptions {
    static let defaults = LabelStyle()

    package static let font = Option<String?>(
        "font",
        .text("PATH|FAMILY"),
        shown: "the embedded DejaVu Sans",
        help: "font file (PATH#INDEX for a collection face) or installed family"
    )
    static let size = Option(
        "size",
        .number("PX", Limits.minimumFontSize...Limits.maximumFontSize),
        default: defaults.typography.size,
        shown:
            "\(formatNumber(defaults.typography.size)); with --fit the largest tried, \(formatNumber(Limits.maximumFontSize))",
        help: "font size in pixels"
    )
    static let radius = Option(
        "radius",
        short: "-r",
        .radiusSetting,
        default: .sigma(defaults.radius),
        shown: "\(formatNumber(defaults.radius.sigma)), still legible; with --secure unreadable",
        help: "blur standard deviation in pixels, 0 for sharp, or unreadable"
    )
    static let color = Option("color", .color(), default: defaults.color, help: "text colour")
    static let background = Option(
        "background",
        .color(),
        default: defaults.background,
        help: "background colour"
    )
    package static let canvas = Option<CanvasSize?>(
        "canvas",
        .canvasSize(),
        shown: "the ink box padded by ceil(3*SIGMA)",
        help: "fixed canvas size; content is centered"
    )
    package static let fit = Option(
        flag: "fit",
        help:
            "with --canvas: the largest size (at most --size if given, else \(formatNumber(Limits.maximumFontSize))) whose blurred, padded label fits the canvas"
    )
    static let minimumSize = Option(
        "min-size",
        .number("PX", Limits.minimumFontSize...Limits.maximumFontSize),
        default: FitToCanvas.defaultMinimumSize,
        help: "with --fit: the smallest size tried; smaller still not fitting fails"
    )
    static let padding = Option(
        "padding",
        .integer("PX", 0...Limits.maximumPadding),
        default: defaults.padding,
        help: "empty pixels around the ink beyond the blur's reach"
    )
    static let features = Option<[String]?>(
        "features",
        .list("LIST"),
        help: "OpenType features, comma-separated: tnum,-liga,+smcp,ss01"
    )
    static let language = Option<String?>(
        "language",
        .text("TAG"),
        help: "language for shaping, a BCP 47 tag such as ar, tr, sr"
    )
    static let direction = Option(
        "direction",
        .choice("DIR"),
        default: defaults.typography.direction,
        help: "paragraph direction"
    )
    static let align = Option(
        "align",
        .choice("A"),
        default: defaults.typography.alignment,
        help: "line alignment"
    )
    static let lineSpacing = Option(
        "line-spacing",
        .number("X", Limits.minimumLineSpacing...Limits.maximumLineSpacing),
        default: defaults.typography.lineSpacing,
        help: "multiple of the font's line height"
    )
    static let letterSpacing = Option(
        "letter-spacing",
        .number("PX", -Limits.maximumLetterSpacing...Limits.maximumLetterSpacing),
        default: defaults.typography.letterSpacing,
        help: "extra pixels after each character"
    )
    static let maxWidth = Option<Double?>(
        "max-width",
        .number("PX", 1...Limits.maximumWrapWidth),
        shown: "no wrapping",
        help: "wrap lines longer than this at spaces"
    )
    static let outline = Option(
        "outline",
        .number("PX", 0...Limits.maximumOutlineWidth),
        default: defaults.typography.outlineWidth,
        help: "draw a stroked outline of this width around the glyphs"
    )
    static let noSystemFonts = Option(
        flag: "no-system-fonts",
        help:
            "use only the chosen and the embedded fonts, never the system's (fontconfig): the same bytes on every machine"
    )
    static let secure = Option(
        flag: "secure",
        help: "blur a decoy of the text's format instead of the text: the picture reveals nothing"
    )
    static let format = Option<String?>(
        "format",
        .text("TEMPLATE"),
        shown: "none: --secure requires it",
        help: "with --secure: the secret's longest form, # for each digit, e.g. '##.## €'"
    )
    static let seed = Option<UInt64?>(
        "seed",
        .unsigned("N"),
        shown: "the system's secure generator",
        help: "with --secure: seed for the decoy digits"
    )

    /// The table, in the order help lists it.
    package static let specs: [OptionSpec] = [
        font.spec, size.spec, radius.spec, color.spec, background.spec, canvas.spec, fit.spec, minimumSize.spec,
        padding.spec, features.spec, language.spec, direction.spec, align.spec, lineSpacing.spec,
        letterSpacing.spec, maxWidth.spec, outline.spec, noSystemFonts.spec, secure.spec, format.spec, seed.spec,
        DevicePixelRatio.option.spec,
    ]

    /// The options' names, as manifest keys and label URLs use them.
    static var keys: [String] { specs.map(\.key) }

    /// The names of the flags (a manifest's or a URL's `true` or `false`).
    package static var flagKeys: [String] { specs.filter { $0.placeholder == nil }.map(\.key) }

    /// A label style from a parsed command line, fitted to its canvas for `text` with `--fit`.
    static func style(from arguments: ParsedArguments, text: String) throws -> LabelStyle {
        try style(GivenOptions(arguments), text: text)
    }

    /// What a `font` value may name: a file or an installed family (the command line, manifests),
    /// or installed families only (label URLs: a path would read the server's files).
    package enum FontNames {
        case filesOrFamilies
        case familiesOnly
    }

    /// A label style from given options (a command line's, a manifest line's or a URL's). With
    /// `--fit` the size is the largest at which `text` fits the canvas within `budget`, blurred
    /// at `fitRadius` (default: the style's radius; an animation gives its largest). At `--dpr N`
    /// every length of that 1x style is N times (`DevicePixelRatio`).
    package static func style(
        _ options: GivenOptions,
        text: String,
        fitRadius: BlurRadius? = nil,
        budget: RenderBudget = .standard,
        fonts: FontNames = .filesOrFamilies
    ) throws -> LabelStyle {
        let style = try oneXStyle(options, text: text, fitRadius: fitRadius, budget: budget, fonts: fonts)
        let ratio = try DevicePixelRatio.option.value(in: options)
        return try DevicePixelRatio.scaled(style, by: ratio, text: text, budget: budget)
    }

    /// The style at 1x, fitted.
    static func oneXStyle(
        _ options: GivenOptions,
        text: String,
        fitRadius: BlurRadius?,
        budget: RenderBudget,
        fonts: FontNames
    ) throws -> LabelStyle {
        let style = try unfittedStyle(options, fonts: fonts)
        let minimum = try minimumSize.isGiven(in: options) ? minimumSize.value(in: options) : nil
        guard try fit.value(in: options) else {
            if minimum != nil { throw UsageError(message: "\(minimumSize.name) only applies with \(fit.name)") }
            return style
        }
        guard style.canvas != nil else { throw UsageError(message: "\(fit.name) needs \(canvas.name) WxH") }
        let maximum = size.isGiven(in: options) ? style.typography.size : Limits.maximumFontSize
        let lowest = minimum ?? min(FitToCanvas.defaultMinimumSize, maximum)
        guard lowest <= maximum else {
            throw UsageError(
                message:
                    "\(minimumSize.name) \(formatNumber(lowest)) is above \(size.name) \(formatNumber(maximum))"
            )
        }
        return try FitToCanvas.style(
            style,
            fitting: text,
            radius: fitRadius,
            unreadable: fitRadius == nil && radiusSetting(options) == .unreadable,
            minimumSize: lowest,
            maximumSize: maximum,
            renderBudgetMegabytes: budget.megabytes
        )
    }

    /// The refusal of every `font` value that is not an installed family, whatever it names: the
    /// same words for a file, a folder or nothing at all, so no answer tells what exists.
    package static let notAnInstalledFamily =
        "font: not an installed family (only installed family names are served, never files)"

    /// What `render` warns and `serve` and `sign` refuse: content larger than the fixed canvas.
    package static func doesNotFit(_ canvas: CanvasSize) -> String {
        "the content does not fit the \(canvas.width)x\(canvas.height) canvas"
    }

    /// `name` as an installed family (or `default`), never a file: names with `/`, `.`, `#` or a
    /// fontconfig property (`=`) are refused unlooked, and no path is ever tried.
    static func installedFamily(_ name: String) throws -> Font {
        if name.lowercased() == "default" { return FontLibrary.defaultFont }
        guard !name.contains(where: { "/.#=\\".contains($0) }), let family = try? FontLibrary.family(name) else {
            throw UsageError(message: notAnInstalledFamily)
        }
        return family
    }

    /// A label style from given options, without fitting.
    static func unfittedStyle(_ options: GivenOptions, fonts: FontNames = .filesOrFamilies) throws -> LabelStyle {
        var text = TextStyle()
        if let name = try font.value(in: options) {
            guard !name.isEmpty else {
                throw UsageError(message: "\(font.name) needs a font file or a family name, not an empty one")
            }
            switch fonts {
            case .filesOrFamilies:
                do { text.font = try FontLibrary.named(name) } catch {
                    throw UsageError(message: "\(font.name): \(error)")
                }
            case .familiesOnly:
                text.font = try installedFamily(name)
            }
        }
        text.size = try size.value(in: options)
        if let features = try features.value(in: options) {
            text.features = features.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        }
        text.language = try language.value(in: options)
        text.direction = try direction.value(in: options)
        text.alignment = try align.value(in: options)
        text.lineSpacing = try lineSpacing.value(in: options)
        text.letterSpacing = try letterSpacing.value(in: options)
        text.maxWidth = try maxWidth.value(in: options)
        text.outlineWidth = try outline.value(in: options)
        if try noSystemFonts.value(in: options) { text.systemFallback = .off }
        do { try text.validate() } catch { throw UsageError(message: "\(error)") }

        var style = LabelStyle(typography: text)
        style.color = try color.value(in: options)
        style.background = try background.value(in: options)
        style.canvas = try canvas.value(in: options)
        style.radius = try radiusSetting(options).radius(forSize: text.size)
        style.padding = try padding.value(in: options)
        if try secure.value(in: options) {
            guard let template = try format.value(in: options) else {
                throw UsageError(
                    message:
                        "\(secure.name) needs \(format.name), the secret's longest form with # for each digit (e.g. '##.## €'), so the picture does not show its length"
                )
            }
            var settings: SecureOptions
            do { settings = SecureOptions(format: try SecretFormat(template)) } catch {
                throw UsageError(message: "\(format.name): \(error)")
            }
            if let seed = try seed.value(in: options) { settings.seed = .seed(seed) }
            style.secure = settings
            do { try style.checkSecureRadius(style.radius) } catch {
                throw UsageError(message: "\(radius.name): \(error)")
            }
        } else if format.isGiven(in: options) || seed.isGiven(in: options) {
            throw UsageError(message: "\(format.name) and \(seed.name) only apply with \(secure.name)")
        }
        return style
    }

    /// The `--radius` asked for: as given, or in secure mode by default the legibility floor.
    static func radiusSetting(_ options: GivenOptions) throws -> RadiusSetting {
        if !radius.isGiven(in: options), try secure.value(in: options) { return .unreadable }
        return try radius.value(in: options)
    }
}

/// The warning naming characters that no font could draw (callers put "warning: " before it). In secure mode the characters
/// are only counted, never quoted: they are part of the secret.
func missingCharactersWarning(_ missing: [Unicode.Scalar], secure: Bool) -> String? {
    guard !missing.isEmpty else { return nil }
    if secure {
        return
            "\(missing.count) character(s) of the text have no glyph in any font (not named in secure mode); drawn as the font's missing-glyph box"
    }
    var seen = Set<UInt32>()
    let names = missing.filter { seen.insert($0.value).inserted }.map { scalar in
        "U+" + cFormat("%04X", scalar.value) + " '\(scalar)'"
    }
    return "no font has \(names.joined(separator: ", ")); drawn as the font's missing-glyph box"
}
