import BlurLabelSystem
import BlurredLabelCore
import FoundationEssentials

/// A golden setting that cannot be used: which setting, the value given, the values accepted.
/// The golden fails with this one line, having read and written nothing.
public struct GoldenSettingError: Error, Equatable, CustomStringConvertible {
    /// The setting as the user wrote it: `BLURLABEL_RECORD`, `threshold`, `GoldenOptions.folder`…
    public let setting: String
    /// The value given.
    public let value: String
    /// What is accepted instead (and why the value is not, when that is not plain).
    public let accepted: String

    public var description: String { "\(setting) = \(value) cannot be used; accepted: \(accepted)" }
}

/// Every setting of one comparison, checked, before anything is read or written.
struct GoldenSettings {
    let record: RecordMode
    /// The folder of references.
    let goldenFolder: String
    /// The folder of failure pictures and the report page, made and started for this run.
    let artifactsFolder: String

    static let recordVariable = "BLURLABEL_RECORD"
    static let artifactsVariable = "BLURLABEL_ARTIFACTS"

    /// Resolves and checks `options` for a test in `filePath`: the record mode, the comparison's
    /// settings, the reference folder (made when references may be written) and the artifacts
    /// folder (made, and emptied of an earlier run's failures).
    init(
        options: GoldenOptions,
        filePath: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        record = try options.record ?? Self.recordModeFromEnvironment(environment)
        do { try options.comparison.checkSettings() } catch let invalid as ImageComparison.InvalidSettings {
            throw Self.comparisonError(options.comparison, invalid)
        }
        let root = Self.packageRoot(above: filePath)
        goldenFolder = options.folder ?? Folders.join(root, "Golden")
        if record != .never, let problem = Self.cannotMake(goldenFolder) {
            throw GoldenSettingError(
                setting: options.folder == nil ? "the golden folder" : "GoldenOptions.folder",
                value: goldenFolder,
                accepted: "a folder that exists or can be made (\(problem))"
            )
        }
        let variable = environment[Self.artifactsVariable].flatMap { $0.isEmpty ? nil : $0 }
        let (setting, folder) =
            options.artifacts.map { ("GoldenOptions.artifacts", $0) }
            ?? variable.map { (Self.artifactsVariable, $0) }
            ?? ("the artifacts folder", Folders.join(root, ".build/golden-artifacts"))
        do { try GoldenRun.start(folder) } catch {
            throw GoldenSettingError(
                setting: setting,
                value: folder,
                accepted: "a folder that exists or can be made, and written (\(error))"
            )
        }
        artifactsFolder = folder
    }

    /// The mode `BLURLABEL_RECORD` names; `.missing` when it is unset or empty.
    static func recordModeFromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> RecordMode {
        guard let value = environment[recordVariable], !value.isEmpty else { return .missing }
        guard let mode = RecordMode(rawValue: value.lowercased()) else {
            throw GoldenSettingError(
                setting: recordVariable,
                value: value,
                accepted: RecordMode.allCases.map(\.rawValue).joined(separator: ", ")
            )
        }
        return mode
    }

    private static func comparisonError(
        _ comparison: ImageComparison,
        _ invalid: ImageComparison.InvalidSettings
    ) -> GoldenSettingError {
        if !(0...1).contains(comparison.threshold) {
            return GoldenSettingError(setting: "threshold", value: "\(comparison.threshold)", accepted: "0 to 1")
        }
        if !(0...1).contains(comparison.maxDiffRatio) {
            return GoldenSettingError(setting: "maxDiffRatio", value: "\(comparison.maxDiffRatio)", accepted: "0 to 1")
        }
        if comparison.maxDiffPixels < 0 {
            return GoldenSettingError(
                setting: "maxDiffPixels",
                value: "\(comparison.maxDiffPixels)",
                accepted: "0 or more"
            )
        }
        return GoldenSettingError(setting: "comparison", value: "\(invalid)", accepted: "settings within range")
    }

    /// Why the folder `path` could not be made and written, or nil when it is there or can be:
    /// its nearest existing ancestor must be a folder this process may write. Nothing is made
    /// (a reference folder appears only when a reference is written).
    static func cannotMake(_ path: String) -> String? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        while !parts.isEmpty {
            let prefix = parts.joined(separator: "/")
            let existing = prefix.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : prefix
            if Folders.exists(existing) {
                guard Folders.isFolder(existing) else { return "\(existing): a file of that name is in the way" }
                guard access(existing, W_OK | X_OK) == 0 else { return "\(existing): not writable" }
                return nil
            }
            parts.removeLast()
        }
        return access(".", W_OK | X_OK) == 0 ? nil : "the current folder is not writable"
    }

    /// The nearest folder above `filePath` holding a `Package.swift`; the file's own folder when
    /// there is none.
    static func packageRoot(above filePath: String) -> String {
        let start = filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        var parts = Array(start)
        while parts.count > 1 {
            let directory = parts.joined(separator: "/")
            if Folders.exists(Folders.join(directory, "Package.swift")) { return directory }
            parts.removeLast()
        }
        let own = start.joined(separator: "/")
        return own.isEmpty ? "." : own
    }
}

extension GoldenSettingError: LocalizedError {
    public var errorDescription: String? { description }
}
