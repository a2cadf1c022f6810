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
        options: [CommonOptions.output.spec] + LabelOptions.specs + [
            CommonOptions.compression.spec, CommonOptions.maxRenderMegabytes.spec,
        ],
        details: """
            TEXT may hold newlines for several lines. The blur is a true Gaussian whose standard deviation
            is --radius; the canvas is padded by ceil(3*radius) so the bleed is never clipped.
            A plain blur can be undone for text in a known font (render every candidate, compare): see
            docs/privacy.md. --secure blurs a decoy of the declared --format instead, so the
            picture carries no information about TEXT (at any --radius, 0 included: then the decoy is shown
            sharp), and warnings never quote TEXT.
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
        if let warning = secureFormatWarning(style) { output.standardError("blurlabel render: warning: \(warning)\n") }
        let level = try CommonOptions.compression.value(in: options)
        let pipeline = LabelPipeline(style: style, budget: budget)
        let picture = try pipeline.picture(of: text)
        // Secure pictures never render the real text; ask separately, for the warning only.
        let checked = style.secure == nil ? nil : try pipeline.renderText(text)
        for warning in checked?.fontWarnings ?? picture.fontWarnings {
            output.standardError("blurlabel render: warning: \(warning)\n")
        }
        let missing = checked?.missingCharacters ?? picture.missingCharacters
        if let warning = missingCharactersWarning(missing, secure: style.secure != nil) {
            output.standardError("blurlabel render: warning: \(warning)\n")
        }
        if picture.clipped, let canvas = style.canvas {
            output.standardError(
                "blurlabel render: warning: \(URLLabelOptions.doesNotFit(canvas)) and is clipped\n"
            )
        }
        try writePNG(picture.image, to: path, compressionLevel: level)
        return 0
    }
}
