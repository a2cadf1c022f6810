import BlurredLabelCore
import FoundationEssentials

/// The test that made a golden comparison, for the report and the command that re-records it.
struct GoldenOrigin: Sendable {
    /// `Suite/test()` as a person reads it; nil when unknown.
    var test: String?
    /// A `swift test --filter` pattern that selects that test (or its module).
    var filter: String?
    /// `File.swift:12`.
    var location: String?
}

/// The decision behind `assertGolden`, free of any test framework: compare, record, write
/// artifacts, and add failures to the artifacts folder's report page.
struct GoldenChecker {
    let options: GoldenOptions
    let filePath: String
    var origin = GoldenOrigin()

    init(options: GoldenOptions, filePath: String, origin: GoldenOrigin = GoldenOrigin()) {
        self.options = options
        self.filePath = filePath
        self.origin = origin
    }

    var folder: URL {
        if let folder = options.folder { return folder }
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory.appendingPathComponent("Golden")
            }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    var artifactsFolder: URL {
        if let folder = options.artifacts { return folder }
        if let path = ProcessInfo.processInfo.environment["BLURLABEL_ARTIFACTS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("blurlabel-artifacts")
    }

    var report: ComparisonReport { ComparisonReport(folder: artifactsFolder.path) }

    func check(_ actual: Image, named name: String) -> GoldenOutcome {
        // A name is a path under the golden folder (and the artifacts folder): "sub/name" is
        // fine, "../x" or "/x" would write outside them.
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !name.utf8.contains(0),
            !parts.contains(where: { $0.isEmpty || $0 == ".." || $0 == "." })
        else {
            return fail(
                "golden '\(name)': a name must be a relative path of plain names under the golden folder (no '..', '.', empty or absolute parts)"
            )
        }
        let reference = folder.appendingPathComponent(name + ".png")
        let artifacts = ComparisonArtifacts(folder: artifactsFolder.path, name: name)
        do {
            guard FileManager.default.fileExists(atPath: reference.path) else {
                let shown = try artifacts.write(actual, as: "actual")
                if options.record == .never {
                    let message =
                        "golden \(name): no reference at \(reference.path) (record mode 'never': nothing written; run with BLURLABEL_RECORD=missing to create it)"
                    try addToReport(
                        name,
                        .missing,
                        "no reference at \(reference.path)",
                        actual: shown,
                        commands: acceptCommands(name, reference, artifacts, mode: "missing")
                    )
                    return fail(message, paths: [artifacts.path("actual")])
                }
                try write(actual, to: reference)
                try addToReport(
                    name,
                    .recorded,
                    "recorded a new reference at \(reference.path)",
                    actual: shown,
                    commands: acceptCommands(name, reference, artifacts, mode: "missing")
                )
                return GoldenOutcome(
                    passed: false,
                    message: "golden \(name): recorded a new reference at \(reference.path); check it and run again",
                    referenceWritten: true,
                    artifactPaths: []
                )
            }
            let expected = try PNGDecoder.decode(contentsOf: reference.path)
            let result: ImageComparison.Result
            do {
                result = try options.comparison.compare(expected: expected, actual: actual)
            } catch is ImageComparison.SizeMismatch {
                // Still shown: the part both cover compared, the rest marked (see `compareDifferentSizes`).
                let sizes = try options.comparison.compareDifferentSizes(expected: expected, actual: actual)
                // Drawn: `drawing` is true.
                guard let diff = sizes.diff else { return fail("golden \(name): \(sizes.summary)") }
                return try failShowing(
                    name,
                    expected: expected,
                    actual: actual,
                    diff: diff,
                    outcome: .sizeMismatch,
                    line: sizes.summary,
                    message: "golden \(name): \(sizes.summary)",
                    reference: reference,
                    artifacts: artifacts
                )
            }
            if result.passes {
                try report.remove(name: name)
                let rewrite = options.record == .all && !result.isIdentical
                if rewrite { try write(actual, to: reference) }
                return GoldenOutcome(
                    passed: !rewrite,
                    message: rewrite
                        ? "golden \(name): reference rewritten (record mode 'all')"
                        : "golden \(name): \(result.summary)",
                    referenceWritten: rewrite,
                    artifactPaths: []
                )
            }
            let diff = try options.comparison.diffImage(expected: expected, result: result)
            let line = "\(result.summary), allowed \(result.allowedPixels)"
            return try failShowing(
                name,
                expected: expected,
                actual: actual,
                diff: diff,
                outcome: .failed,
                line: line,
                message: "golden \(name) differs: \(line)",
                reference: reference,
                artifacts: artifacts
            )
        } catch {
            return fail("golden \(name): \(error)")
        }
    }

    /// A failed comparison (different pixels or sizes), shown: the four pictures written (all made
    /// first), the reference rewritten if the record mode asks, the report entry added, and the
    /// failure's `message` with the pictures' paths and the report's.
    private func failShowing(
        _ name: String,
        expected: Image,
        actual: Image,
        diff: Image,
        outcome: ComparisonReportEntry.Outcome,
        line: String,
        message: String,
        reference: URL,
        artifacts: ComparisonArtifacts
    ) throws -> GoldenOutcome {
        let sideBySide = try options.comparison.sideBySide(expected: expected, diff: diff, actual: actual)
        let shown = (
            try artifacts.write(expected, as: "expected"), try artifacts.write(actual, as: "actual"),
            try artifacts.write(diff, as: "diff")
        )
        try artifacts.write(sideBySide, as: "side-by-side")
        let paths = ["expected", "actual", "diff", "side-by-side"].map(artifacts.path)
        let rewritten = try rewriteIfAsked(actual, to: reference, failed: true)
        try addToReport(
            name,
            outcome,
            line,
            expected: shown.0,
            actual: shown.1,
            diff: shown.2,
            commands: acceptCommands(name, reference, artifacts, mode: "failed")
        )
        return fail(
            message + (rewritten ? " (reference rewritten)" : "") + artifactLines(paths)
                + "\n  report: \(report.page)",
            written: rewritten,
            paths: paths
        )
    }

    private func addToReport(
        _ name: String,
        _ outcome: ComparisonReportEntry.Outcome,
        _ summary: String,
        expected: ComparisonReportEntry.Picture? = nil,
        actual: ComparisonReportEntry.Picture? = nil,
        diff: ComparisonReportEntry.Picture? = nil,
        commands: [String]
    ) throws {
        try report.add(
            ComparisonReportEntry(
                name: name,
                outcome: outcome,
                test: origin.test,
                location: origin.location,
                summary: summary,
                expected: expected,
                actual: actual,
                diff: diff,
                acceptCommands: commands
            )
        )
    }

    /// Re-running the test in a record mode, or copying the actual picture over the reference.
    private func acceptCommands(
        _ name: String,
        _ reference: URL,
        _ artifacts: ComparisonArtifacts,
        mode: String
    ) -> [String] {
        var commands: [String] = []
        if let filter = origin.filter {
            commands.append("BLURLABEL_RECORD=\(mode) swift test --filter \(shellQuoted(filter))")
        }
        commands.append("cp \(shellQuoted(artifacts.path("actual"))) \(shellQuoted(reference.path))")
        return commands
    }

    private func fail(_ message: String, written: Bool = false, paths: [String] = []) -> GoldenOutcome {
        GoldenOutcome(passed: false, message: message, referenceWritten: written, artifactPaths: paths)
    }

    private func rewriteIfAsked(_ actual: Image, to reference: URL, failed: Bool) throws -> Bool {
        guard options.record == .all || (options.record == .failed && failed) else { return false }
        try write(actual, to: reference)
        return true
    }

    private func write(_ image: Image, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileIO.write(try PNGEncoder(compressionLevel: 9).encode(image), to: url.path)
    }

    private func artifactLines(_ paths: [String]) -> String {
        paths.isEmpty ? "" : "\n" + paths.map { "  " + $0 }.joined(separator: "\n")
    }
}
