import BlurLabelSystem
import BlurredLabelCore

/// One test run, as far as artifacts folders are concerned: the first golden of a run that uses
/// a folder empties it of an earlier run's failures, so its report page lists exactly this run.
///
/// A run is the test processes of one parent: `swift test` runs XCTest and Swift Testing in two
/// processes (and `--parallel` in many), all its children, so their failures share one page. A
/// test binary started again by hand from the same shell is the same run (entries of one name
/// and test still replace each other).
enum GoldenRun {
    /// The parent process's ID and start time (its start time tells a reused ID apart).
    static let id: String = {
        let parent = getppid()
        return "\(parent) \(startTime(of: parent) ?? "?")\n"
    }()

    /// Folders already started by this process.
    private static let started = LockedValue<Set<String>>([])

    /// Makes `folder` and, the first time this process uses it, starts this run in it. Holds a
    /// lock while it does, so no golden of this process writes there before the folder is emptied.
    static func start(_ folder: String) throws {
        try started.withLock { started in
            guard !started.contains(folder) else { return }
            try ComparisonReport(folder: folder).startRun(id)
            started.insert(folder)
        }
    }

    /// Field 22 of `/proc/PID/stat`: when the process started, in clock ticks since boot.
    private static func startTime(of pid: pid_t) -> String? {
        guard let bytes = try? FileIO.read("/proc/\(pid)/stat", limit: 4096) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        // The command name (field 2) is in parentheses and may hold spaces: count after its end.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
    }
}
