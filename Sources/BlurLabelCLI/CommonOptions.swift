import BlurredLabelCore

/// Options several commands share: declared once, read once.
enum CommonOptions {
    static let output = OptionSpec(
        name: "--output",
        short: "-o",
        value: "OUT.png",
        help: "where to write the PNG ('-' for standard output)"
    )
    static let maxPixels = OptionSpec(
        name: "--max-pixels",
        value: "N",
        help: "refuse inputs larger than N pixels (default \(PNGDecoder.defaultMaxPixels))"
    )
    static let compression = OptionSpec(
        name: "--compression",
        value: "0-9",
        help: "zlib level of the output (default 6)"
    )

    /// The `-o` path, which the command cannot do without.
    static func requiredOutput(_ arguments: ParsedArguments) throws -> String {
        guard let path = arguments.value("--output") else {
            throw UsageError(message: "missing -o OUT.png (use '-o -' for standard output)")
        }
        return path
    }

    static func maxPixels(_ arguments: ParsedArguments) throws -> Int {
        try OptionValues.integer(
            arguments.value("--max-pixels") ?? String(PNGDecoder.defaultMaxPixels),
            option: "--max-pixels",
            range: 1...Image.maximumPixels
        )
    }

    static func compression(_ arguments: ParsedArguments) throws -> Int {
        try OptionValues.integer(arguments.value("--compression") ?? "6", option: "--compression", range: 0...9)
    }
}
