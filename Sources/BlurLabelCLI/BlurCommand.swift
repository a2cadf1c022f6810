import BlurredLabelKit

/// `blurlabel blur IN.png --radius SIGMA -o OUT.png`: a Gaussian blur of a whole image.
enum BlurCommand {
    static let spec = CommandSpec(
        name: "blur",
        summary: "blur a whole PNG image with a true Gaussian",
        positionals: ["IN.png"],
        options: [
            OptionSpec(name: "--output", short: "-o", value: "OUT.png", help: "where to write the PNG ('-' for standard output); required"),
            OptionSpec(name: "--radius", short: "-r", value: "SIGMA", help: "Gaussian standard deviation in pixels (default 2.5)"),
            OptionSpec(name: "--max-pixels", value: "N", help: "refuse inputs larger than N pixels (default 100000000)"),
            OptionSpec(name: "--compression", value: "0-9", help: "zlib level of the output (default 6)"),
        ],
        details: "Edges repeat the border pixels. Any PNG colour type is read; the output uses the smallest\nPNG colour type that stores the result exactly."
    )

    static let command = CommandLineTool.Command(spec: spec) { arguments, _ in
        guard let output = arguments.value("--output") else {
            throw UsageError(message: "missing -o OUT.png (use '-o -' for standard output)")
        }
        let sigma = try OptionValues.number(arguments.value("--radius") ?? "2.5", option: "--radius",
                                            range: 0...GaussianBlur.maximumSigma)
        let maxPixels = try OptionValues.integer(arguments.value("--max-pixels") ?? String(PNGDecoder.defaultMaxPixels),
                                                 option: "--max-pixels", range: 1...Image.maximumPixels)
        let level = try OptionValues.integer(arguments.value("--compression") ?? "6", option: "--compression", range: 0...9)
        let image = try PNGDecoder.decode(contentsOf: arguments.positionals[0], maxPixels: maxPixels)
        let blurred = try GaussianBlur(sigma: sigma, edges: .clamp).apply(to: image)
        try writePNG(blurred, to: output, compressionLevel: level)
        return 0
    }
}
