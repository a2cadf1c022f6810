/// `blurlabel.1`, the manual page, made from the same command tables as `--help`, so an option
/// declared once appears in help, the man page and the completions alike (`blurlabel --man`;
/// `scripts/install` writes it where `man` looks).
enum ManPage {
    /// The whole page in roff (man macros).
    static func render(commands: [CommandSpec], version: String) -> String {
        var page = [
            ".TH BLURLABEL 1 \"\" \"blurlabel \(version)\" \"User Commands\"",
            ".SH NAME",
            "blurlabel \\- render text labels and blur them; blur, redact, animate and compare pictures",
            ".SH SYNOPSIS",
        ]
        for command in commands {
            page += [
                ".B blurlabel \(command.name)",
                ".RI \"\(escape(Array(command.usage.split(separator: " ").dropFirst(2)).joined(separator: " ")))\"",
                ".br",
            ]
        }
        page += [
            ".SH DESCRIPTION",
            escape(
                "blurlabel shapes text with HarfBuzz, rasterizes it with FreeType into a canvas padded by the blur's reach, "
                    + "applies a true Gaussian blur (--radius is the standard deviation in pixels) and writes a PNG. "
                    + "'-' as an input reads standard input; '-o -' writes to standard output. Every output is written "
                    + "to a temporary file and renamed, so a failure never leaves a partial file."
            ),
            ".PP",
            escape(
                "A plain blur hides text from a glance, not from an attacker who knows the font (at the default "
                    + "radius 2.5 a price stays legible; --radius unreadable is the blur at which OCR stops reading): "
                    + "only --secure (render, animate, batch) and redact's default mode, secure, make pictures that carry "
                    + "no information about the secret."
            ),
            ".SH COMMANDS",
        ]
        for command in commands {
            page += [".SS \(escape(command.name))", escape(command.summary)]
            if !command.details.isEmpty {
                page += [".PP"] + command.details.split(separator: "\n").map { escape(String($0)) }
            }
            for option in command.options + [CommandSpec.helpOption] {
                var head = "\\fB\(escape(option.name))\\fR"
                if let short = option.short { head = "\\fB\(escape(short))\\fR, " + head }
                if let value = option.placeholder { head += " \\fI\(escape(value))\\fR" }
                page += [".TP", head, escape(option.help)]
            }
        }
        page += [
            ".SH EXIT STATUS",
            "0 success; 1 a difference found by \\fBdiff\\fR; 2 bad input, with one line on standard error; "
                + "130 or 143 when interrupted.",
            ".SH ENVIRONMENT",
            ".TP",
            ".B BLURLABEL_ISA",
            "Forces one of the blur's CPU variants (baseline, v2, avx, avx2, avx512); every variant gives the same bytes.",
            ".SH SEE ALSO",
            "The project's docs/command-line.md, docs/privacy.md and docs/golden-images.md.",
        ]
        return page.joined(separator: "\n") + "\n"
    }

    /// `text` safe as a roff text line: backslashes escaped, dashes made literal minus signs, and a
    /// leading '.' or '\'' kept from being read as a request.
    static func escape(_ text: String) -> String {
        var out = text.replacingText("\\", with: "\\e").replacingText("-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
