import BlurredLabelKit

/// `blurlabel diff EXPECTED.png ACTUAL.png`: exit 0 within tolerance, 1 when not, 2 on bad input.
enum DiffCommand {
    static let spec = CommandSpec(
        name: "diff",
        summary: "compare two PNGs perceptually (exit 0 same, 1 different)",
        positionals: ["EXPECTED.png", "ACTUAL.png"],
        options: [
            OptionSpec(name: "--diff", value: "OUT.png", help: "write the diff picture: expected faded, red where pixels differ, yellow anti-aliasing"),
            OptionSpec(name: "--side-by-side", value: "OUT.png", help: "write expected | diff | actual in one picture"),
            OptionSpec(name: "--threshold", value: "T", help: "per-pixel colour distance 0..1 above which a pixel differs (default 0.1)"),
            OptionSpec(name: "--max-diff-pixels", value: "N", help: "differing pixels allowed (default 0)"),
            OptionSpec(name: "--max-diff-ratio", value: "R", help: "share of differing pixels allowed, 0..1 (default 0)"),
            OptionSpec(name: "--count-antialiasing", help: "count anti-aliased edge pixels as differences too"),
        ],
        details: """
        The distance is pixelmatch's YIQ metric on pixels composited over white: 0 for equal colours,
        1 for black against white. The summary line gives the differing pixels and the largest distance.
        """
    )

    static let command = CommandLineTool.Command(spec: spec) { arguments, output in
        var comparison = ImageComparison()
        if let t = arguments.value("--threshold") { comparison.threshold = try OptionValues.number(t, option: "--threshold", range: 0...1) }
        if let n = arguments.value("--max-diff-pixels") {
            comparison.maxDiffPixels = try OptionValues.integer(n, option: "--max-diff-pixels", range: 0...Int(Int32.max))
        }
        if let r = arguments.value("--max-diff-ratio") { comparison.maxDiffRatio = try OptionValues.number(r, option: "--max-diff-ratio", range: 0...1) }
        comparison.detectAntialiasing = !arguments.has("--count-antialiasing")
        let expected = try PNGDecoder.decode(contentsOf: arguments.positionals[0])
        let actual = try PNGDecoder.decode(contentsOf: arguments.positionals[1])
        let result: ImageComparison.Result
        do {
            result = try comparison.compare(expected: expected, actual: actual)
        } catch let mismatch as ImageComparison.SizeMismatch {
            output.standardOutput("\(mismatch)\n")
            return 1
        }
        if arguments.value("--diff") != nil || arguments.value("--side-by-side") != nil {
            let diff = try comparison.diffImage(expected: expected, result: result)
            if let path = arguments.value("--diff") { try writePNG(diff, to: path) }
            if let path = arguments.value("--side-by-side") {
                try writePNG(try comparison.sideBySide(expected: expected, diff: diff, actual: actual), to: path)
            }
        }
        output.standardOutput((result.passes ? "" : "different: ") + result.summary + "\n")
        return result.passes ? 0 : 1
    }
}
