import BlurredLabelCore

/// `blurlabel blur IN.png [--radius SIGMA] -o OUT.png`: a Gaussian blur of a whole image.
enum BlurCommand {
    static let listing: CommandLineTool.Listing = .init(
        name: "blur",
        summary: "blur a whole PNG image with a true Gaussian"
    ) { command }

    static let radius = Option(
        "radius",
        short: "-r",
        .sigma,
        default: LabelOptions.defaults.radius,
        help: "Gaussian standard deviation in pixels"
    )

    static let spec = CommandSpec(
        name: listing.name,
        summary: listing.summary,
        positionals: ["IN.png"],
        options: [
            CommonOptions.pictureOutput.spec, radius.spec, CommonOptions.tint.spec, CommonOptions.maxPixels.spec,
        ] + CommonOptions.encodingSpecs,
        details: """
            Edges repeat the border pixels. Any PNG colour type is read; a PNG output uses the smallest
            PNG colour type that stores the result exactly (-o x.webp or x.avif: lossy at --quality). --tint lays a translucent colour over the
            blurred pixels (over an opaque picture: blur * (1 - a) + colour * a).
            """
    )

    static let command = CommandLineTool.Command(spec: spec) { arguments, _ in
        let options = GivenOptions(arguments)
        let output = try CommonOptions.requiredOutput(options)
        let sigma = try radius.value(in: options)
        let tint = try CommonOptions.tint.value(in: options)
        let maxPixels = try CommonOptions.maxPixels.value(in: options)
        let encoding = try OutputEncoding.resolve(options, path: output)
        let image = try decodeStill(arguments.positionals[0], maxPixels: maxPixels)
        let blurred = GaussianBlur(radius: sigma, edges: .clamp, tint: tint).apply(to: image)
        try writePicture(blurred, to: output, encoding: encoding)
        return 0
    }
}
