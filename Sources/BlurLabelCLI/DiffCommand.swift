import BlurLabelSystem
import BlurredLabelCore

/// `blurlabel diff EXPECTED.png ACTUAL.png`: exit 0 within tolerance, 1 when not, 2 on bad input.
enum DiffCommand {
    static let listing: CommandLineTool.Listing = .init(
        name: "diff",
        summary: "compare two PNGs perceptually (exit 0 same, 1 different)"
    ) { command }

    static let defaults = ImageComparison()

    static let metric = Option(
        "metric",
        .choice("yiq|oklab"),
        default: defaults.metric,
        help: "colour distance: oklab is pixelmatch's current, yiq pixelmatch 7.2's"
    )
    static let diff = Option<String?>(
        "diff",
        .text("OUT.png"),
        help: "write the diff picture: expected faded, red where pixels differ, yellow anti-aliasing"
    )
    static let sideBySide = Option<String?>(
        "side-by-side",
        .text("OUT.png"),
        help: "write expected | diff | actual in one picture"
    )
    static let report = Option<String?>(
        "report",
        .text("DIR"),
        help: "write the pictures and an index.html report page (flip and slide between expected and actual) into DIR"
    )
    static let threshold = Option(
        "threshold",
        .number("T", 0...1),
        default: defaults.threshold,
        help: "per-pixel colour distance above which a pixel differs"
    )
    static let maxDiffPixels = Option(
        "max-diff-pixels",
        .integer("N", 0...Int(Int32.max)),
        default: defaults.maxDiffPixels,
        help: "differing pixels allowed"
    )
    static let maxDiffRatio = Option(
        "max-diff-ratio",
        .number("R", 0...1),
        default: defaults.maxDiffRatio,
        help: "share of differing pixels allowed"
    )
    static let countAntialiasing = Option(
        flag: "count-antialiasing",
        help: "count anti-aliased edge pixels as differences too"
    )

    static let spec = CommandSpec(
        name: listing.name,
        summary: listing.summary,
        positionals: ["EXPECTED.png", "ACTUAL.png"],
        options: [
            metric.spec, diff.spec, sideBySide.spec, report.spec, threshold.spec, maxDiffPixels.spec,
            maxDiffRatio.spec, countAntialiasing.spec, CommonOptions.maxPixels.spec,
        ],
        details: """
            The distance is pixelmatch's: 0 for equal colours, 1 for black against white. Semi-transparent
            pixels are blended over pixelmatch's checkerboard, so a change of transparency is a difference.
            The summary says "identical" only when every pixel is; it goes to standard error when a
            picture is written to standard output ('-'). An output that is one of the inputs is refused.
            --report DIR adds this pair to DIR/index.html (named after ACTUAL), beside earlier pairs.
            Pictures of different sizes always differ; they are compared where they overlap (from the
            top-left corner), and the diff picture marks in red what only one of them covers.
            """
    )

    static let command = CommandLineTool.Command(spec: spec) { arguments, output in
        let options = GivenOptions(arguments)
        var comparison = ImageComparison()
        comparison.threshold = try threshold.value(in: options)
        comparison.maxDiffPixels = try maxDiffPixels.value(in: options)
        comparison.maxDiffRatio = try maxDiffRatio.value(in: options)
        comparison.metric = try metric.value(in: options)
        comparison.detectAntialiasing = try !countAntialiasing.value(in: options)
        let diffPath = try DiffCommand.diff.value(in: options)
        let sideBySidePath = try DiffCommand.sideBySide.value(in: options)
        let inputs = Array(arguments.positionals.prefix(2))
        guard inputs != ["-", "-"] else {
            throw UsageError(message: "standard input ('-') can be only one of EXPECTED and ACTUAL")
        }
        let artifacts = try report.value(in: options).map {
            ComparisonArtifacts(folder: $0, name: reportName(inputs[1]), stem: reportStem(inputs[1]))
        }
        let pictures = try checkedOutputs(
            inputs: inputs,
            pictures: [(DiffCommand.diff.name, diffPath), (DiffCommand.sideBySide.name, sideBySidePath)],
            report: artifacts
        )
        // With a picture on standard output ('-', /dev/stdout, the file it goes to), the summary
        // must not mix into it.
        let say = pictures.contains(where: SameFile.isStandardOutput) ? output.standardError : output.standardOutput

        let maxPixels = try CommonOptions.maxPixels.value(in: options)
        let expected = try PNGDecoder.decode(contentsOf: inputs[0], maxPixels: maxPixels)
        let actual = try PNGDecoder.decode(contentsOf: inputs[1], maxPixels: maxPixels)
        // The flow GoldenImage shares (ComparisonFinding): pictures of different sizes never pass
        // but are still drawn, so a requested picture is never left unwritten (or stale).
        let picturesWanted = !pictures.isEmpty
        let finding = try comparison.finding(expected: expected, actual: actual, drawing: picturesWanted)
        let passes = finding.passes
        if picturesWanted, let diff = try finding.diff(by: comparison) {
            // Every picture is made before any is written: one that cannot be made (too large)
            // leaves none behind.
            let sideBySide =
                sideBySidePath != nil
                ? try comparison.sideBySide(expected: expected, diff: diff, actual: actual) : nil
            if let diffPath { try writePNG(diff, to: diffPath) }
            if let sideBySidePath, let sideBySide { try writePNG(sideBySide, to: sideBySidePath) }
            if let artifacts {
                let page = ComparisonReport(folder: artifacts.folder)
                if passes {
                    try page.remove(name: artifacts.name)  // a pair that passes now leaves the page
                    if !Folders.exists(page.page) { try page.rebuild() }
                } else {
                    try artifacts.report(
                        finding,
                        diff: diff,
                        summary: finding.summary,
                        acceptCommands: acceptCommands(inputs)
                    )
                }
            }
        }
        say((passes ? "" : "different: ") + finding.summary + "\n")
        return passes ? 0 : 1
    }

    /// The report entry's name, which a later run for the same ACTUAL replaces: ACTUAL as given,
    /// with `.` components and repeated slashes dropped (`./out//a.png` is `out/a.png`), so
    /// `out/a.png` and `old/a.png` are two entries, as are `a.png` and `A.PNG`.
    static func reportName(_ path: String) -> String {
        guard path != "-" else { return "(standard input)" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// What the entry's pictures are called in the report folder: ACTUAL's file name without
    /// `.png` (cut to 100 bytes, so a long name still leaves room in the file system's 255), and
    /// a hash of the entry's whole name, so no two entries share pictures (`out/a.png` and
    /// `old/a.png`, or a file whose name looks like another entry's pictures) and no name leads
    /// out of the folder.
    static func reportStem(_ path: String) -> String {
        let name = reportName(path)
        var file = name.split(separator: "/").last.map(String.init) ?? "picture"
        if file.lowercased().hasSuffix(".png") { file.removeLast(4) }
        while file.utf8.count > 100 { file.removeLast() }
        return file + cFormat("-%08llx", fnv1a(name) >> 32)
    }

    /// The `cp` that accepts ACTUAL as the new EXPECTED (`--` first: a name may start with '-').
    static func acceptCommands(_ inputs: [String]) -> [String] {
        inputs.contains("-") ? [] : ["cp -- \(shellQuoted(inputs[1])) \(shellQuoted(inputs[0]))"]
    }

    /// The output paths, refused when one of them is an input (same resolved path or same file)
    /// or two of them are the same file, or more than one goes to standard output.
    static func checkedOutputs(
        inputs: [String],
        pictures: [(String, String?)],
        report artifacts: ComparisonArtifacts?
    ) throws -> [String] {
        var outputs = pictures.compactMap { option, path in path.map { (option, $0) } }
        if let artifacts {
            guard artifacts.folder != "-" else { throw DiffOptionError.reportToStandardOutput }
            outputs += ["expected", "actual", "diff"].map { ("--report", artifacts.path($0)) }
        }
        guard outputs.filter({ $0.1 == "-" }).count <= 1 else { throw DiffOptionError.twoOnStandardOutput }
        for (index, (option, path)) in outputs.enumerated() where path != "-" {
            for input in inputs where input != "-" && SameFile.check(path, input) {
                throw DiffOptionError.overwritesInput(option: option, path: path, input: input)
            }
            for (other, otherPath) in outputs[..<index] where otherPath != "-" && SameFile.check(path, otherPath) {
                throw DiffOptionError.sameOutput(option, other, path)
            }
        }
        return outputs.map(\.1)
    }
}

enum DiffOptionError: Error, CustomStringConvertible {
    case overwritesInput(option: String, path: String, input: String)
    case sameOutput(String, String, String)
    case twoOnStandardOutput
    case reportToStandardOutput

    var description: String {
        switch self {
        case let .overwritesInput(option, path, input):
            "\(option) \(path) would overwrite the input \(input); choose another path"
        case let .sameOutput(a, b, path): "\(a) and \(b) both write \(path); choose different paths"
        case .twoOnStandardOutput: "only one picture can go to standard output ('-')"
        case .reportToStandardOutput: "--report needs a folder, not '-'"
        }
    }
}
