import BlurredLabelCore
import Foundation
import Testing

@testable import GoldenImage

@Suite("Report page of failed golden images")
struct ReportTests {
    @Test("three failures made in parallel land in one index.html, each with its pictures, test and command")
    func threeParallelFailuresInOnePage() async throws {
        let artifacts = try folder()
        let outcomes = try await makeFailures(awkwardNames, artifacts: artifacts)
        #expect(outcomes.allSatisfy { !$0.passed })
        let report = ComparisonReport(folder: artifacts.path)
        let entries = try report.entries()
        #expect(Set(entries.map(\.name)) == Set(awkwardNames))
        for entry in entries {
            #expect(entry.outcome == .failed)
            #expect(entry.test == "ReportTests/threeParallelFailuresInOnePage()")
            #expect(entry.summary.contains("pixels differ"))
            for picture in [entry.expected, entry.actual, entry.diff] {
                let picture = try #require(picture)
                #expect(FileManager.default.fileExists(atPath: artifacts.appendingPathComponent(picture.file).path))
                #expect(picture.width == 20 && picture.height == 20)
            }
            // This golden's picture copied over its reference, or its one test re-run in record mode.
            #expect(entry.acceptCommands.first?.hasPrefix("cp ") == true)
            #expect(
                entry.acceptCommands.last
                    == #"BLURLABEL_RECORD=failed swift test --filter 'GoldenImageTests\.ReportTests/threeParallelFailuresInOnePage\(\)'"#
            )
            // Pictures sit in a folder named after the test, so another test's golden of the
            // same name never overwrites them.
            #expect(entry.expected?.file.hasPrefix("ReportTests.threeParallelFailuresInOnePage/") == true)
        }
        let html = try String(contentsOfFile: report.page, encoding: .utf8)
        #expect(html.components(separatedBy: "<section class=\"entry\"").count == 4)
        #expect(html.components(separatedBy: "<button type=\"button\" class=\"flip\"").count == 4)
        #expect(!html.contains("http://") && !html.contains("https://"))  // nothing from outside
        #expect(outcomes.allSatisfy { $0.message.contains(report.page) })
    }

    @Test("names and summaries are escaped: a golden named <script> shows as text")
    func escaping() async throws {
        let artifacts = try folder()
        _ = try await makeFailures(awkwardNames, artifacts: artifacts)
        let html = try String(contentsOfFile: ComparisonReport(folder: artifacts.path).page, encoding: .utf8)
        #expect(!html.contains("<script>alert(1)</script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("a &quot;quoted&quot; &amp; &#39;odd&#39; &lt;b&gt;name&lt;/b&gt;"))
        #expect(!html.contains("<b>name"))
        #expect(html.components(separatedBy: "<script>").count == 2)  // the page's own script only
        // File names in src attributes are percent-encoded, then escaped.
        #expect(html.contains("src=\"ReportTests.escaping/%3Cscript%3Ealert(1)%3C/script%3E-expected.png\""))
    }

    @Test("a golden that passes again leaves the page; a new reference is listed as recorded")
    func passingAgainLeavesThePage() throws {
        let golden = try folder()
        let artifacts = try folder()
        let record = GoldenOptions(folder: golden.path, record: .missing, artifacts: artifacts.path)
        let recorded = GoldenChecker(options: record, filePath: #filePath).check(try square(at: 3), named: "sq")
        #expect(recorded.referenceWritten)
        let report = ComparisonReport(folder: artifacts.path)
        #expect(try report.entries().map(\.outcome) == [.recorded])
        let failing = GoldenChecker(
            options: GoldenOptions(folder: golden.path, record: .never, artifacts: artifacts.path),
            filePath: #filePath
        )
        _ = failing.check(try square(at: 9), named: "sq")
        #expect(try report.entries().map(\.outcome) == [.failed])
        _ = failing.check(try square(at: 3), named: "sq")
        #expect(try report.entries().isEmpty)
        #expect(try String(contentsOfFile: report.page, encoding: .utf8).contains("no failed golden images"))
    }

    @Test("40 entries added from 8 threads at once: none lost, the page lists them all")
    func concurrentAdds() async throws {
        let artifacts = try folder()
        let report = ComparisonReport(folder: artifacts.path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for i in 0..<5 {
                        try report.add(ComparisonReportEntry(name: "w\(worker)-\(i)", outcome: .failed, summary: "s"))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try report.entries().count == 40)
        let html = try String(contentsOfFile: report.page, encoding: .utf8)
        #expect(html.components(separatedBy: "<section class=\"entry\"").count == 41)
    }

    @Test("a transparent picture fails against a white reference in assertGolden too")
    func transparentFailsAgainstWhite() throws {
        let golden = try folder()
        let artifacts = try folder()
        let white = try Image(width: 6, height: 6, fill: .white)
        _ = GoldenChecker(
            options: GoldenOptions(folder: golden.path, record: .missing, artifacts: artifacts.path),
            filePath: #filePath
        ).check(white, named: "w")
        for metric in ComparisonMetric.allCases {
            let options = GoldenOptions(folder: golden.path, record: .never, metric: metric, artifacts: artifacts.path)
            let outcome = GoldenChecker(options: options, filePath: #filePath).check(
                try Image(width: 6, height: 6),
                named: "w"
            )
            #expect(!outcome.passed && outcome.message.contains("36 of 36 pixels differ"))
        }
    }

    @Test("shell words are quoted so the accept command can be pasted")
    func shellQuoting() {
        #expect(shellQuoted("Golden/a-b.png") == "Golden/a-b.png")
        #expect(shellQuoted("it's <here>.png") == #"'it'\''s <here>.png'"#)
        #expect(shellQuoted("") == "''")
    }
}
