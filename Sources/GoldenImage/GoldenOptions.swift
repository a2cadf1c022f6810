import BlurredLabelCore
import FoundationEssentials

/// When references are written: given per call, or read from `BLURLABEL_RECORD`.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Write a reference that is absent (and fail, so it is noticed). The default.
    case missing
    /// Write every reference (and fail where one was written).
    case all
    /// Rewrite only the references that fail (and still fail).
    case failed
    /// Never write: a missing reference is a failure. For CI.
    case never

    /// The mode `BLURLABEL_RECORD` names, `.missing` when it is unset, and `.never` (nothing
    /// written) when it names no mode.
    @available(
        *,
        deprecated,
        message:
            "leave GoldenOptions.record nil: BLURLABEL_RECORD is then read when a golden is compared, and an unknown value fails the test"
    )
    public static var fromEnvironment: RecordMode {
        (try? GoldenSettings.recordModeFromEnvironment()) ?? .never
    }
}

/// How golden images are compared and where they live. Every setting is checked before a golden
/// reads or writes anything: a wrong one fails the test with one line naming it.
public struct GoldenOptions: Sendable {
    /// The folder of references, a path; nil finds `Golden/` beside the nearest `Package.swift`
    /// above the calling test file.
    public var folder: String?
    /// When references are written; nil reads `BLURLABEL_RECORD` (`missing`, `all`, `failed` or
    /// `never`; `missing` when unset), and any other value fails the golden.
    public var record: RecordMode?
    /// How pictures are compared; a threshold or `maxDiffRatio` outside 0…1 or a negative
    /// `maxDiffPixels` fails the golden.
    public var comparison: ImageComparison
    /// Where the pictures of failures and their report page go, a path; nil uses
    /// `BLURLABEL_ARTIFACTS`, or else `.build/golden-artifacts` of the package of the calling test.
    /// The first golden of a test run empties it of the previous run's failures.
    public var artifacts: String?

    public init(
        folder: String? = nil,
        record: RecordMode? = nil,
        comparison: ImageComparison = ImageComparison(),
        artifacts: String? = nil
    ) {
        self.folder = folder
        self.record = record
        self.comparison = comparison
        self.artifacts = artifacts
    }

    /// The same, choosing the colour metric (`.oklab` by default, `.yiq` as pixelmatch 7.2).
    public init(
        folder: String? = nil,
        record: RecordMode? = nil,
        metric: ComparisonMetric,
        threshold: Double = 0.1,
        artifacts: String? = nil
    ) {
        self.init(
            folder: folder,
            record: record,
            comparison: ImageComparison(threshold: threshold, metric: metric),
            artifacts: artifacts
        )
    }

    /// The folders as file URLs.
    @available(*, deprecated, message: "give the folders as path strings: GoldenOptions(folder: \"Golden\")")
    public init(
        folder: URL?,
        record: RecordMode? = nil,
        comparison: ImageComparison = ImageComparison(),
        artifacts: URL? = nil
    ) {
        self.init(folder: folder?.path, record: record, comparison: comparison, artifacts: artifacts?.path)
    }

    /// The colour metric of `comparison`.
    public var metric: ComparisonMetric {
        get { comparison.metric }
        set { comparison.metric = newValue }
    }
}
