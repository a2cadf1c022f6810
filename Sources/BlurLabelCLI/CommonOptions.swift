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
    static let tint = OptionSpec(
        name: "--tint",
        value: "COLOR",
        help: "a veil of COLOR over the blur (#ffffff4d frosted, #0000004d dark); see docs/pictures-levels.md"
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

    /// The `--tint` colour, nil when not given.
    static func tint(_ arguments: ParsedArguments) throws -> Color? {
        try arguments.value("--tint").map { try OptionValues.color($0, option: "--tint") }
    }

    static func compression(_ arguments: ParsedArguments, default level: Int = 6) throws -> Int {
        try OptionValues.integer(
            arguments.value("--compression") ?? String(level),
            option: "--compression",
            range: 0...9
        )
    }
}
