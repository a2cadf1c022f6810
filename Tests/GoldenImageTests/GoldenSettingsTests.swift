import BlurredLabelCore
import Foundation
import Testing

@testable import GoldenImage

/// Every file below `url`, as paths relative to it.
func filesBelow(_ url: URL) -> [String] {
    (FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []).filter {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path, isDirectory: &isFolder)
            && !isFolder.boolValue
    }
}

@Suite("Golden settings fail loudly, before anything is read or written")
struct GoldenSettingsTests {
    @Test("an unknown BLURLABEL_RECORD fails naming the variable, its value and the modes; nothing is written")
    func unknownRecordMode() throws {
        let golden = try folder()
        let artifacts = try folder()
        let checker = GoldenChecker(
            options: GoldenOptions(folder: golden.path, artifacts: artifacts.path),
            filePath: #filePath,
            environment: ["BLURLABEL_RECORD": "bogus"]
        )
        let outcome = checker.check(try square(), named: "sq")
        #expect(!outcome.passed && !outcome.referenceWritten)
        #expect(
            outcome.message
                == "golden sq: BLURLABEL_RECORD = bogus cannot be used; accepted: missing, all, failed, never; nothing was read or written"
        )
        #expect(filesBelow(golden).isEmpty && filesBelow(artifacts).isEmpty)
        // Unset or empty is the default, missing; the case of a mode does not matter.
        #expect(try GoldenSettings.recordModeFromEnvironment([:]) == .missing)
        #expect(try GoldenSettings.recordModeFromEnvironment(["BLURLABEL_RECORD": ""]) == .missing)
        #expect(try GoldenSettings.recordModeFromEnvironment(["BLURLABEL_RECORD": "Never"]) == .never)
    }

    @Test(
        "a threshold, share or count out of range fails on the first run too: no reference recorded",
        arguments: [
            (ImageComparison(threshold: 2), "threshold = 2.0 cannot be used; accepted: 0 to 1"),
            (ImageComparison(threshold: .nan), "threshold = nan cannot be used; accepted: 0 to 1"),
            (ImageComparison(maxDiffRatio: 1.5), "maxDiffRatio = 1.5 cannot be used; accepted: 0 to 1"),
            (ImageComparison(maxDiffPixels: -1), "maxDiffPixels = -1 cannot be used; accepted: 0 or more"),
        ]
    )
    func comparisonOutOfRange(comparison: ImageComparison, message: String) throws {
        let golden = try folder()
        let artifacts = try folder()
        let options = GoldenOptions(
            folder: golden.path,
            record: .missing,
            comparison: comparison,
            artifacts: artifacts.path
        )
        let outcome = GoldenChecker(options: options, filePath: #filePath).check(try square(), named: "sq")
        #expect(!outcome.passed && !outcome.referenceWritten)
        #expect(outcome.message == "golden sq: \(message); nothing was read or written")
        #expect(filesBelow(golden).isEmpty && filesBelow(artifacts).isEmpty)
    }

    @Test("an artifacts or golden folder that cannot be made fails with its setting; no reference recorded")
    func folderThatCannotBeMade() throws {
        let base = try folder()
        let blocker = base.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let golden = base.appendingPathComponent("golden")
        let blocked = GoldenChecker(
            options: GoldenOptions(folder: golden.path, record: .missing, artifacts: blocker.path + "/artifacts"),
            filePath: #filePath
        ).check(try square(), named: "sq")
        #expect(!blocked.passed && !blocked.referenceWritten)
        #expect(
            blocked.message.hasPrefix("golden sq: GoldenOptions.artifacts = \(blocker.path)/artifacts cannot be used")
        )
        #expect(blocked.message.contains("a file of that name is in the way"))
        #expect(!blocked.message.contains("\n"))
        let fromEnvironment = GoldenChecker(
            options: GoldenOptions(folder: golden.path, record: .missing),
            filePath: #filePath,
            environment: ["BLURLABEL_ARTIFACTS": blocker.path + "/a"]
        ).check(try square(), named: "sq")
        #expect(fromEnvironment.message.hasPrefix("golden sq: BLURLABEL_ARTIFACTS = \(blocker.path)/a cannot be used"))
        let goldenBlocked = GoldenChecker(
            options: GoldenOptions(folder: blocker.path + "/g", record: .missing, artifacts: base.path + "/art"),
            filePath: #filePath
        ).check(try square(), named: "sq")
        #expect(goldenBlocked.message.hasPrefix("golden sq: GoldenOptions.folder = \(blocker.path)/g cannot be used"))
        #expect(filesBelow(base) == ["file"])
        #expect(!FileManager.default.fileExists(atPath: golden.path))
    }

    @Test("artifacts default to .build/golden-artifacts of the package of the calling test")
    func artifactsBesideThePackage() throws {
        let package = try folder()
        try Data("// swift-tools-version:6.0\n".utf8).write(to: package.appendingPathComponent("Package.swift"))
        let tests = package.appendingPathComponent("Tests/ATests")
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        let settings = try GoldenSettings(
            options: GoldenOptions(record: .never),
            filePath: tests.appendingPathComponent("ATests.swift").path,
            environment: [:]
        )
        #expect(settings.artifactsFolder == package.path + "/.build/golden-artifacts")
        #expect(settings.goldenFolder == package.path + "/Golden")
        #expect(FileManager.default.fileExists(atPath: settings.artifactsFolder + "/index.html"))
        // BLURLABEL_ARTIFACTS comes before it, the option before both.
        let variable = try GoldenSettings(
            options: GoldenOptions(record: .never),
            filePath: tests.path + "/ATests.swift",
            environment: ["BLURLABEL_ARTIFACTS": package.path + "/ci-artifacts"]
        )
        #expect(variable.artifactsFolder == package.path + "/ci-artifacts")
    }

    @Test("a new run empties the folder of the previous run's entries and pictures, and of nothing else")
    func newRunEmptiesThePreviousRun() throws {
        let artifacts = try folder()
        let report = ComparisonReport(folder: artifacts.path)
        let picture = ComparisonArtifacts(folder: artifacts.path, name: "sq", stem: "Suite.test/sq")
        let drawn = try picture.write(try square(), as: "actual")
        try picture.write(try square(), as: "side-by-side")
        try report.startRun("earlier run")
        try report.add(
            ComparisonReportEntry(
                name: "sq",
                outcome: .failed,
                test: "Suite/test()",
                summary: "s",
                actual: drawn,
                diff: .init(file: "Suite.test/sq-diff.png", width: 1, height: 1)
            )
        )
        try Data("mine".utf8).write(to: artifacts.appendingPathComponent("notes.txt"))
        #expect(try report.startRun("earlier run") == false)
        #expect(try report.entries().count == 1)
        #expect(try report.startRun("this run") == true)
        #expect(try report.entries().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: picture.path("actual")))
        #expect(!FileManager.default.fileExists(atPath: picture.path("side-by-side")))
        #expect(!FileManager.default.fileExists(atPath: artifacts.appendingPathComponent("Suite.test").path))
        #expect(FileManager.default.fileExists(atPath: artifacts.appendingPathComponent("notes.txt").path))
    }

    @Test("two tests' goldens of one name are two entries with their own pictures")
    func sameNameInTwoTests() throws {
        let golden = try folder()
        let artifacts = try folder()
        let options = GoldenOptions(folder: golden.path, record: .missing, artifacts: artifacts.path)
        _ = GoldenChecker(options: options, filePath: #filePath).check(try square(at: 3), named: "sq")
        var never = options
        never.record = .never
        var outcomes: [GoldenOutcome] = []
        for (test, offset) in [("A/one()", 8.0), ("B/two()", 9.0)] {
            let origin = GoldenOrigin(
                test: test,
                filter: test,
                location: "X.swift:1",
                qualifier: GoldenReporter.folderName(test)
            )
            outcomes.append(
                GoldenChecker(options: never, filePath: #filePath, origin: origin).check(
                    try square(at: offset),
                    named: "sq"
                )
            )
        }
        #expect(outcomes[0].message.hasPrefix("golden sq (A/one()) differs: "))
        #expect(outcomes[1].message.hasPrefix("golden sq (B/two()) differs: "))
        #expect(outcomes[0].artifactPaths.first?.hasSuffix("/A.one/sq-expected.png") == true)
        #expect(outcomes[1].artifactPaths.first?.hasSuffix("/B.two/sq-expected.png") == true)
        let entries = try ComparisonReport(folder: artifacts.path).entries()
        #expect(Set(entries.compactMap(\.test)) == ["A/one()", "B/two()"])
        // The finding, its pictures, the report and how to accept it, each on one line; "allowed"
        // means only the tolerance.
        let lines = outcomes[0].message.split(separator: "\n")
        #expect(lines[0].hasSuffix("; 0 allowed to differ") && !lines[0].contains("anti-aliased pixels allowed"))
        #expect(lines.contains { $0.hasPrefix("  report: ") && $0.hasSuffix("/index.html") })
        #expect(lines.contains { $0.hasPrefix("  accept this picture: cp ") })
        #expect(
            lines.contains { $0 == "  or re-record the test: BLURLABEL_RECORD=failed swift test --filter 'A/one()'" }
        )
    }

    @Test("a newly recorded reference says where the report is")
    func recordedSaysWhereTheReportIs() throws {
        let golden = try folder()
        let artifacts = try folder()
        let outcome = GoldenChecker(
            options: GoldenOptions(folder: golden.path, record: .missing, artifacts: artifacts.path),
            filePath: #filePath
        ).check(try square(), named: "sq")
        #expect(outcome.referenceWritten)
        #expect(outcome.message.hasSuffix("\n  report: \(artifacts.path)/index.html"))
    }

    @Test("the settings' error is a LocalizedError whose description is its message")
    func localizedDescription() {
        let error: Error = GoldenSettingError(setting: "threshold", value: "2.0", accepted: "0 to 1")
        #expect(error.localizedDescription == "threshold = 2.0 cannot be used; accepted: 0 to 1")
    }
}
