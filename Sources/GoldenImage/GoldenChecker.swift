import BlurredLabelCore
import FoundationEssentials

/// The test that made a golden comparison, for messages, the report and the command that
/// re-records it.
struct GoldenOrigin: Sendable {
    /// `Suite/test()` (Swift Testing) or `testName()` (XCTest) as a person reads it; nil when unknown.
    var test: String?
    /// A `swift test --filter` pattern that selects that test (or its module when the test is unknown).
    var filter: String?
    /// `File.swift:12`.
    var location: String?
    /// The test as one folder name, which keeps its pictures apart from another test's golden
    /// of the same name; nil outside a test.
    var qualifier: String?

    /// "golden price-tag (Suite/test())": how every message about the golden starts.
    func subject(_ name: String) -> String {
        "golden \(name)" + (test.map { " (\($0))" } ?? "")
    }
}

/// The decision behind `assertGolden`, free of any test framework: check the settings, compare,
/// record, write artifacts, and add failures to the artifacts folder's report page.
struct GoldenChecker {
    let options: GoldenOptions
    let filePath: String
    var origin = GoldenOrigin()
    /// Where `BLURLABEL_RECORD` and `BLURLABEL_ARTIFACTS` are read (tests give their own).
    var environment: [String: String]

    init(
        options: GoldenOptions,
        filePath: String,
        origin: GoldenOrigin = GoldenOrigin(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.options = options
        self.filePath = filePath
        self.origin = origin
        self.environment = environment
    }

    /// The reference folder: the one given, or `Golden/` beside the nearest `Package.swift`.
    var folder: String {
        options.folder ?? Folders.join(GoldenSettings.packageRoot(above: filePath), "Golden")
    }

    func check(_ actual: Image, named name: String) -> GoldenOutcome {
        let subject = origin.subject(name)
        // A name is a path under the golden folder (and the artifacts folder): "sub/name" is
        // fine, "../x" or "/x" would write outside them.
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !name.utf8.contains(0),
            !parts.contains(where: { $0.isEmpty || $0 == ".." || $0 == "." })
        else {
            return fail(
                "\(subject): a name must be a relative path of plain names under the golden folder (no '..', '.', empty or absolute parts)"
            )
        }
        let settings: GoldenSettings
        do { settings = try GoldenSettings(options: options, filePath: filePath, environment: environment) } catch {
            return fail("\(subject): \(error); nothing was read or written")
        }
        let run = Comparison(
            settings: settings,
            comparison: options.comparison,
            origin: origin,
            name: name,
            subject: subject
        )
        do { return try run.check(actual) } catch { return fail("\(subject): \(error)") }
    }

    private func fail(_ message: String) -> GoldenOutcome {
        GoldenOutcome(passed: false, message: message, referenceWritten: false, artifactPaths: [])
    }
}

/// One golden's comparison, its settings checked.
private struct Comparison {
    let settings: GoldenSettings
    let comparison: ImageComparison
    let origin: GoldenOrigin
    let name: String
    let subject: String

    var reference: String { Folders.join(settings.goldenFolder, name + ".png") }
    var report: ComparisonReport { ComparisonReport(folder: settings.artifactsFolder) }
    var artifacts: ComparisonArtifacts {
        ComparisonArtifacts(
            folder: settings.artifactsFolder,
            name: name,
            stem: origin.qualifier.map { "\($0)/\(name)" }
        )
    }

    func check(_ actual: Image) throws -> GoldenOutcome {
        guard Folders.exists(reference) else { return try noReference(actual) }
        let expected = try PNGDecoder.decode(contentsOf: reference)
        // The flow `blurlabel diff` shares (ComparisonFinding): pictures of different sizes fail,
        // still shown (the part both cover compared, the rest marked).
        let finding = try comparison.finding(expected: expected, actual: actual, drawing: true)
        if finding.passes {
            try report.remove(name: name, test: origin.test)
            let rewrite = settings.record == .all && !finding.isIdentical
            if rewrite { try write(actual, to: reference) }
            return GoldenOutcome(
                passed: !rewrite,
                message: rewrite
                    ? "\(subject): reference rewritten (record mode all): \(reference)"
                    : "\(subject): \(finding.summary)",
                referenceWritten: rewrite,
                artifactPaths: []
            )
        }
        // Drawn for either kind of failure: the finding was made `drawing`.
        guard let diff = try finding.diff(by: comparison) else { return fail("\(subject): \(finding.summary)") }
        guard let result = finding.result else {
            return try failShowing(
                finding,
                diff: diff,
                line: finding.summary,
                message: "\(subject): \(finding.summary)"
            )
        }
        let line = "\(result.summary); \(result.allowedPixels) allowed to differ"
        return try failShowing(finding, diff: diff, line: line, message: "\(subject) differs: \(line)")
    }

    /// No reference yet: written (and the test fails so it is looked at), or, in record mode
    /// never, a failure.
    private func noReference(_ actual: Image) throws -> GoldenOutcome {
        let shown = try artifacts.write(actual, as: "actual")
        let commands = acceptCommands(mode: "missing")
        if settings.record == .never {
            try addToReport(.missing, "no reference at \(reference)", actual: shown, commands: commands)
            return fail(
                "\(subject): no reference at \(reference) (record mode never: nothing written)"
                    + details([artifacts.path("actual")], commands: commands),
                paths: [artifacts.path("actual")]
            )
        }
        try write(actual, to: reference)
        try addToReport(.recorded, "recorded a new reference at \(reference)", actual: shown, commands: commands)
        return GoldenOutcome(
            passed: false,
            message: "\(subject): recorded a new reference at \(reference); check it and run again"
                + "\n  report: \(report.page)",
            referenceWritten: true,
            artifactPaths: []
        )
    }

    /// A failed comparison (different pixels or sizes), shown: the four pictures written (all made
    /// first), the reference rewritten if the record mode asks, the report entry added, and the
    /// failure's `message` with the pictures' paths, the report's and the accept commands.
    private func failShowing(
        _ finding: ComparisonFinding,
        diff: Image,
        line: String,
        message: String
    ) throws -> GoldenOutcome {
        let sideBySide = try comparison.sideBySide(expected: finding.expected, diff: diff, actual: finding.actual)
        let commands = acceptCommands(mode: "failed")
        let paths = try artifacts.report(
            finding,
            diff: diff,
            sideBySide: sideBySide,
            summary: line,
            test: origin.test,
            location: origin.location,
            acceptCommands: commands
        )
        let rewritten = settings.record == .all || settings.record == .failed
        if rewritten { try write(finding.actual, to: reference) }
        return fail(
            message + (rewritten ? " (reference rewritten)" : "")
                + details(paths, commands: rewritten ? [] : commands),
            written: rewritten,
            paths: paths
        )
    }

    private func addToReport(
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

    /// Copying this golden's actual picture over its reference, then re-running its test in a
    /// record mode (when the test is known: never a whole module's goldens).
    private func acceptCommands(mode: String) -> [String] {
        var commands = ["cp \(shellQuoted(artifacts.path("actual"))) \(shellQuoted(reference))"]
        if origin.test != nil, let filter = origin.filter {
            commands.append("BLURLABEL_RECORD=\(mode) swift test --filter \(shellQuoted(filter))")
        }
        return commands
    }

    /// The lines after a failure's finding: its pictures, the report page, the accept commands.
    private func details(_ paths: [String], commands: [String]) -> String {
        var lines = paths.map { "  " + $0 }
        lines.append("  report: \(report.page)")
        if let copy = commands.first { lines.append("  accept this picture: \(copy)") }
        if commands.count > 1 { lines.append("  or re-record the test: \(commands[1])") }
        return "\n" + lines.joined(separator: "\n")
    }

    private func fail(_ message: String, written: Bool = false, paths: [String] = []) -> GoldenOutcome {
        GoldenOutcome(passed: false, message: message, referenceWritten: written, artifactPaths: paths)
    }

    private func write(_ image: Image, to path: String) throws {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try Folders.create(String(path[..<slash])) }
        try FileIO.write(try PNGEncoder(compressionLevel: 9).encode(image), to: path)
    }
}
