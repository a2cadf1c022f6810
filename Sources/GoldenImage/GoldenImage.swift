import BlurredLabelCore
import FoundationEssentials
import Testing
import XCTest

/// When references are written: from `BLURLABEL_RECORD`, or given per call.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Write a reference that is absent (and fail, so it is noticed). The default.
    case missing
    /// Write every reference (and fail where one was written).
    case all
    /// Rewrite only the references that fail (and still fail).
    case failed
    /// Never write: a missing reference is a failure. For CI.
    case never

    /// The mode chosen by the environment variable `BLURLABEL_RECORD`, or `.missing`.
    public static var fromEnvironment: RecordMode {
        ProcessInfo.processInfo.environment["BLURLABEL_RECORD"].flatMap { RecordMode(rawValue: $0.lowercased()) }
            ?? .missing
    }
}

/// How golden images are compared and where they live.
public struct GoldenOptions: Sendable {
    /// The folder of references; nil finds `Golden/` beside the nearest Package.swift above the
    /// calling test file.
    public var folder: URL?
    public var record: RecordMode
    public var comparison: ImageComparison
    /// Where expected, actual and diff pictures go on failure; nil uses `BLURLABEL_ARTIFACTS`
    /// or a temporary folder.
    public var artifacts: URL?

    public init(
        folder: URL? = nil,
        record: RecordMode = .fromEnvironment,
        comparison: ImageComparison = ImageComparison(),
        artifacts: URL? = nil
    ) {
        self.folder = folder
        self.record = record
        self.comparison = comparison
        self.artifacts = artifacts
    }

    /// The same, choosing the colour metric (`.oklab` by default, `.yiq` as pixelmatch 7.2).
    public init(
        folder: URL? = nil,
        record: RecordMode = .fromEnvironment,
        metric: ComparisonMetric,
        threshold: Double = 0.1,
        artifacts: URL? = nil
    ) {
        self.init(
            folder: folder,
            record: record,
            comparison: ImageComparison(threshold: threshold, metric: metric),
            artifacts: artifacts
        )
    }

    /// The colour metric of `comparison`.
    public var metric: ComparisonMetric {
        get { comparison.metric }
        set { comparison.metric = newValue }
    }
}

/// What an assertion concluded (also reported as a test issue when it is a failure).
public struct GoldenOutcome: Sendable {
    public let passed: Bool
    public let message: String
    public let referenceWritten: Bool
    public let artifactPaths: [String]
}

/// Compares `image` with the reference `<folder>/<name>.png`, writing or rewriting references as
/// the record mode says, and reports a failure at the caller's line through Swift Testing when a
/// Swift Testing test is running and through XCTest otherwise.
@discardableResult
public func assertGolden(
    _ image: Image,
    named name: String,
    options: GoldenOptions = GoldenOptions(),
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: Int = #column
) -> GoldenOutcome {
    let origin = GoldenReporter.origin(fileID: fileID, line: line)
    let outcome = GoldenChecker(options: options, filePath: "\(file)", origin: origin).check(image, named: name)
    if !outcome.passed {
        GoldenReporter.report(outcome.message, fileID: fileID, file: file, line: line, column: column)
    }
    return outcome
}

/// The same for encoded PNG bytes.
@discardableResult
public func assertGolden(
    pngData: [UInt8],
    named name: String,
    options: GoldenOptions = GoldenOptions(),
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: Int = #column
) -> GoldenOutcome {
    do {
        let image = try PNGDecoder.decode(pngData, source: "\(name) (actual)")
        return assertGolden(
            image,
            named: name,
            options: options,
            fileID: fileID,
            file: file,
            line: line,
            column: column
        )
    } catch {
        let outcome = GoldenOutcome(
            passed: false,
            message: "golden \(name): actual PNG data is unreadable: \(error)",
            referenceWritten: false,
            artifactPaths: []
        )
        GoldenReporter.report(outcome.message, fileID: fileID, file: file, line: line, column: column)
        return outcome
    }
}

/// Reports through whichever test framework is running.
enum GoldenReporter {
    static var swiftTestingIsRunning: Bool { Test.current != nil }

    /// The running test, for the report: Swift Testing names it; under XCTest only the module
    /// (from `#fileID`) and the line are known.
    static func origin(fileID: String, line: UInt) -> GoldenOrigin {
        let module = fileID.split(separator: "/").first.map(String.init)
        let location = "\(fileID.split(separator: "/").last.map(String.init) ?? fileID):\(line)"
        guard let test = Test.current else { return GoldenOrigin(test: nil, filter: module, location: location) }
        // The ID reads `Module.Suite/test()/File.swift:12:6`; the filter drops the source location
        // and escapes what a regular expression would read.
        var components = test.id.description.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if components.count > 1, components.last?.range(of: #"\.swift:\d+:\d+$"#, options: .regularExpression) != nil {
            components.removeLast()
        }
        let id = components.joined(separator: "/")
        let readable = id.split(separator: ".", maxSplits: 1).last.map(String.init) ?? test.name
        let filter = String(id.flatMap { #"\.()[]{}*+?^$|"#.contains($0) ? "\\\($0)" : "\($0)" })
        return GoldenOrigin(test: readable, filter: filter, location: location)
    }

    static func report(_ message: String, fileID: String, file: StaticString, line: UInt, column: Int) {
        if swiftTestingIsRunning {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(fileID: fileID, filePath: "\(file)", line: Int(line), column: column)
            )
        } else {
            XCTFail(message, file: file, line: line)
        }
    }
}
