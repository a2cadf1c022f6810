import BlurredLabelCore

/// `blurlabel render TEXT -o OUT.png [label options]`: one label, blurred unless `--radius 0`.
enum RenderCommand {
    static let listing: CommandLineTool.Listing = .init(
        name: "render",
        summary: "render a text label and blur it (the price-tag job)"
    ) { command }

    static let spec = CommandSpec(
        name: listing.name,
        summary: listing.summary,
        positionals: ["TEXT"],
        options: [CommonOptions.pictureOutput.spec] + LabelOptions.specs + CommonOptions.encodingSpecs + [
            CommonOptions.maxRenderMegabytes.spec
        ],
        details: """
            TEXT may hold newlines for several lines. The blur is a true Gaussian whose standard deviation
            is --radius; the canvas is padded by ceil(3*radius) so the bleed is never clipped.
            A plain blur can be undone for text in a known font (render every candidate, compare): see
            docs/privacy.md. --secure blurs a decoy of the declared --format instead, so the
            picture carries no information about TEXT, which is never laid out (a TEXT longer than the
            format is refused, in a time and with a message that do not depend on its length); its blur is
            at least the legibility floor for the --size (--radius unreadable, its default), so the decoy
            never reads as a value. --radius unreadable picks that floor for a plain label too.
            Characters the chosen and embedded fonts lack are drawn from the system's fonts (fontconfig:
            CJK, colour emoji...); --no-system-fonts gives the same bytes on every machine instead.
            --canvas WxH --fit picks the largest --size that fits the blurred, --padding-padded label.
            """
    )

    static let command = CommandLineTool.Command(spec: spec) { arguments, output in
        let options = GivenOptions(arguments)
        let path = try CommonOptions.requiredOutput(options)
        let text = arguments.positionals[0]
        let budget = try CommonOptions.budget(options)
        let style = try LabelOptions.style(options, text: text, budget: budget)
        let encoding = try OutputEncoding.resolve(options, path: path)
        // Secure pictures never lay out the real text, so they have no warnings about its glyphs.
        let picture = try LabelPipeline(style: style, budget: budget).picture(of: text)
        for warning in picture.fontWarnings {
            output.standardError("blurlabel render: warning: \(warning)\n")
        }
        if let warning = missingCharactersWarning(picture.missingCharacters, secure: style.secure != nil) {
            output.standardError("blurlabel render: warning: \(warning)\n")
        }
        if picture.clipped, let canvas = style.canvas {
            output.standardError(
                "blurlabel render: warning: \(LabelOptions.doesNotFit(canvas)) and is clipped\n"
            )
        }
        try writePicture(picture.image, to: path, encoding: encoding)
        return 0
    }
}
