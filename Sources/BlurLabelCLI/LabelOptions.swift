import BlurredLabelKit

/// The label options shared by `render`, `animate` and `batch` manifests: one table, one parser.
enum LabelOptions {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "--font", value: "PATH|FAMILY", help: "font file (PATH#INDEX for a collection face) or installed family; default DejaVu Sans (embedded)"),
        OptionSpec(name: "--size", value: "PX", help: "font size in pixels, above 0 and at most 2000 (default 32)"),
        OptionSpec(name: "--radius", short: "-r", value: "SIGMA", help: "blur standard deviation in pixels; 0 for sharp (default 2.5)"),
        OptionSpec(name: "--color", value: "C", help: "text colour: #RGB, #RRGGBB, #RRGGBBAA or a CSS name (default black)"),
        OptionSpec(name: "--background", value: "C", help: "background colour or 'transparent' (default white)"),
        OptionSpec(name: "--canvas", value: "WxH", help: "fixed canvas size; content is centered (default: the ink box padded by ceil(3*SIGMA))"),
        OptionSpec(name: "--features", value: "LIST", help: "OpenType features, comma-separated: tnum,-liga,+smcp,ss01"),
        OptionSpec(name: "--language", value: "TAG", help: "language for shaping, a BCP 47 tag such as ar, tr, sr"),
        OptionSpec(name: "--direction", value: "DIR", help: "paragraph direction: auto (default), ltr or rtl"),
        OptionSpec(name: "--align", value: "A", help: "line alignment: left, center (default), right, start or end"),
        OptionSpec(name: "--line-spacing", value: "X", help: "multiple of the font's line height (default 1)"),
        OptionSpec(name: "--letter-spacing", value: "PX", help: "extra pixels after each character (default 0)"),
        OptionSpec(name: "--max-width", value: "PX", help: "wrap lines longer than this at spaces"),
        OptionSpec(name: "--outline", value: "PX", help: "draw a stroked outline of this width around the glyphs"),
        OptionSpec(name: "--secure", help: "blur a decoy of the text's format instead of the text: the picture reveals nothing"),
        OptionSpec(name: "--format", value: "TEMPLATE", help: "with --secure: the secret's longest form, # for each digit (e.g. '##.## €')"),
        OptionSpec(name: "--seed", value: "N", help: "with --secure: seed for the decoy digits (default: the system's secure generator)"),
    ]

    /// Names of the options above that are flags (present or not).
    static let flags: Set<String> = ["secure"]

    /// Option names without dashes, as manifest keys use them.
    static var keys: [String] { specs.map { String($0.name.dropFirst(2)) } }

    /// A label style from a parsed command line.
    static func style(from arguments: ParsedArguments) throws -> LabelStyle {
        try style { name in flags.contains(name) ? (arguments.has("--" + name) ? "true" : nil) : arguments.value("--" + name) }
    }

    /// A label style from option values looked up by name without dashes (`size`, `color`...).
    static func style(_ value: (String) -> String?) throws -> LabelStyle {
        var text = TextStyle()
        if let font = value("font") {
            do { text.font = try FontLibrary.named(font) } catch { throw UsageError(message: "--font: \(error)") }
        }
        if let size = value("size") {
            text.size = try OptionValues.number(size, option: "--size", range: 0.01...TextStyle.maximumSize)
            guard text.size > 0 else { throw UsageError(message: "--size must be above 0") }
        }
        if let features = value("features") {
            text.features = features.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        text.language = value("language")
        if let direction = value("direction") {
            guard let d = TextDirection(rawValue: direction) else { throw UsageError(message: "--direction must be auto, ltr or rtl, got '\(direction)'") }
            text.direction = d
        }
        if let align = value("align") {
            guard let a = TextAlignment(rawValue: align) else { throw UsageError(message: "--align must be left, center, right, start or end, got '\(align)'") }
            text.alignment = a
        }
        if let spacing = value("line-spacing") { text.lineSpacing = try OptionValues.number(spacing, option: "--line-spacing", range: 0.01...100) }
        if let spacing = value("letter-spacing") { text.letterSpacing = try OptionValues.number(spacing, option: "--letter-spacing", range: -1000...1000) }
        if let width = value("max-width") { text.maxWidth = try OptionValues.number(width, option: "--max-width", range: 1...1_000_000) }
        if let outline = value("outline") { text.outlineWidth = try OptionValues.number(outline, option: "--outline", range: 0...500) }
        do { try text.validate() } catch { throw UsageError(message: "\(error)") }

        var style = LabelStyle(text: text)
        if let color = value("color") { style.color = try OptionValues.color(color, option: "--color") }
        if let background = value("background") { style.background = try OptionValues.color(background, option: "--background") }
        if let canvas = value("canvas") {
            let size = try OptionValues.size(canvas, option: "--canvas")
            style.canvas = try CanvasSize(width: size.width, height: size.height)
        }
        if let radius = value("radius") {
            style.radius = try OptionValues.number(radius, option: "--radius", range: 0...1000)
        }
        if value("secure") == "true" {
            var secure = SecureOptions()
            if let format = value("format") {
                do { secure.format = try SecretFormat(format) } catch { throw UsageError(message: "--format: \(error)") }
            }
            if let seed = value("seed") {
                guard let number = UInt64(seed) else { throw UsageError(message: "--seed needs a whole number from 0 to \(UInt64.max), got '\(seed)'") }
                secure.seed = .seed(number)
            }
            style.secure = secure
        } else if value("format") != nil || value("seed") != nil {
            throw UsageError(message: "--format and --seed only apply with --secure")
        }
        return style
    }
}

import Foundation

/// The secure-mode warning when the decoy's format is read off the text itself.
func secureFormatWarning(_ style: LabelStyle) -> String? {
    guard let secure = style.secure, secure.format == nil else { return nil }
    return "warning: --secure without --format makes a decoy as long as the text, which shows how many digits it has; give --format with the longest value (e.g. '##.## €')"
}

/// One line on stderr naming characters that no font could draw.
func missingCharactersWarning(_ missing: [Unicode.Scalar]) -> String? {
    guard !missing.isEmpty else { return nil }
    var seen = Set<UInt32>()
    let names = missing.filter { seen.insert($0.value).inserted }.map { scalar in
        "U+" + String(format: "%04X", scalar.value) + " '\(scalar)'"
    }
    return "warning: no font has \(names.joined(separator: ", ")); drawn as the font's missing-glyph box"
}
