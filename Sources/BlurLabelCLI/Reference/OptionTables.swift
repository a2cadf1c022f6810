/// docs/command-line.md's option tables, made from the command tables as `--help` is
/// (`blurlabel --options-markdown`; `scripts/update-option-tables` writes them into the page, and a
/// test fails when the page's copy differs).
enum OptionTables {
    /// The lines around the made part of docs/command-line.md.
    static let begin = "<!-- option tables: made by scripts/update-option-tables from the declarations; do not edit -->"
    static let end = "<!-- end of option tables -->"

    /// The tables, `begin` and `end` included.
    static func markdown(commands: [CommandSpec]) -> String {
        var lines = [begin, ""]
        for command in commands {
            lines += [
                "### \(command.name)", "",
                "`\(command.usage)`: \(escape(command.summary))", "",
                "| option | value | default | what it does |",
                "|---|---|---|---|",
            ]
            for option in command.options {
                let names = (option.short.map { ["`\($0)`"] } ?? []) + ["`\(option.name)`"]
                var value = option.placeholder.map { "`\(escape($0))`" } ?? "flag"
                if let accepted = option.accepted { value += ": " + escape(accepted) }
                if option.repeatable { value += ", repeatable" }
                let cells = [
                    names.joined(separator: ", "), value, option.shownDefault.map(escape) ?? "",
                    escape(option.summary),
                ]
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            lines.append("")
        }
        let keys = ManifestLine.optionKeys.map { "`\($0)`" }.joined(separator: ", ")
        lines += [
            "A manifest line's keys (and a label URL's names for `blurlabel serve`) are `text`, `output` and "
                + "these options' names without dashes: \(keys). A manifest line's `output` ending in `.webp` or "
                + "`.avif` is written in that format, and the line may give `quality` (0 to 100, or \"lossless\").",
            "",
            end,
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` safe in a table cell: `|` escaped.
    static func escape(_ text: String) -> String {
        text.replacingText("|", with: "\\|")
    }
}
