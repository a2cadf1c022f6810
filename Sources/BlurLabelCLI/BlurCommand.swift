import BlurredLabelCore

/// `blurlabel blur IN.png --radius SIGMA -o OUT.png`: a Gaussian blur of a whole image.
enum BlurCommand {
    static let listing: CommandLineTool.Listing = .init(
        name: "blur",
        summary: "blur a whole PNG image with a true Gaussian"
    ) { command }

    static let spec = CommandSpec(
        name: listing.name,
        summary: listing.summary,
        positionals: ["IN.png"],
        options: [
            CommonOptions.output,
            OptionSpec(
                name: "--radius",
                short: "-r",
                value: "SIGMA",
                help: "Gaussian standard deviation in pixels, 0 to \(Int(Limits.maximumRadius)) (default 2.5)"
            ),
            CommonOptions.tint,
            CommonOptions.maxPixels,
            CommonOptions.compression,
        ],
        details: """
            Edges repeat the border pixels. Any PNG colour type is read; the output uses the smallest
            PNG colour type that stores the result exactly. --tint lays a translucent colour over the
            blurred pixels (over an opaque picture: blur * (1 - a) + colour * a).
            """
    )

    static let command = CommandLineTool.Command(spec: spec) { arguments, _ in
        let output = try CommonOptions.requiredOutput(arguments)
        let sigma = try OptionValues.number(
            arguments.value("--radius") ?? "2.5",
            option: "--radius",
            range: 0...Limits.maximumRadius
        )
        let tint = try CommonOptions.tint(arguments)
        let maxPixels = try CommonOptions.maxPixels(arguments)
        let level = try CommonOptions.compression(arguments)
        let image = try PNGDecoder.decode(contentsOf: arguments.positionals[0], maxPixels: maxPixels)
        let blurred = try GaussianBlur(sigma: sigma, edges: .clamp, tint: tint).apply(to: image)
        try writePNG(blurred, to: output, compressionLevel: level)
        return 0
    }
}
