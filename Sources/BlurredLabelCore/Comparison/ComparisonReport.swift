import BlurLabelSystem

/// The report page of a folder of comparison artifacts: `index.html` beside the PNGs, showing
/// every entry added to the folder, with no server and no network.
///
/// Safe for tests running in parallel, in threads or in processes: each entry is its own small
/// JSON file under `.report/`, written atomically (temporary file and rename), and the page is
/// regenerated from all of them while holding an exclusive `flock` on `.report/lock`, then
/// renamed into place, so a reader never sees half a page and no entry is lost. An entry is keyed
/// by its name: a later one for the same name replaces it, and `remove` drops it (a golden that
/// passes again leaves the page).
package struct ComparisonReport: Sendable {
    /// The report folder's path.
    package let folder: String

    package init(folder: String) { self.folder = folder }

    /// The page: `<folder>/index.html`.
    package var page: String { Folders.join(folder, "index.html") }

    var entriesFolder: String { Folders.join(folder, ".report") }

    /// Adds (or replaces) the entry for `entry.name` (and `entry.test`) and rewrites the page.
    package func add(_ entry: ComparisonReportEntry) throws {
        try makeFolders()
        try withLock {
            try FileIO.write(entry.json.serialized(), to: entryFile(entry.key), followingLinks: false)
            try writePage()
        }
    }

    /// Drops the entry for `name` made by `test` (nil: outside a test), if there is one, and
    /// rewrites the page. Cheap when there is none. Its pictures go too.
    package func remove(name: String, test: String? = nil) throws {
        let file = entryFile(ComparisonReportEntry.key(name: name, test: test))
        guard Folders.exists(file) else { return }
        try withLock {
            if let entry = Self.entry(at: file) { removePictures(of: entry) }
            Folders.removeFile(file)
            try writePage()
        }
    }

    /// Starts a run: when `run` differs from the run that last wrote here, every entry of that
    /// earlier run goes, with its pictures, so the page lists exactly this run's failures.
    /// Nothing else in the folder is touched. Returns whether earlier entries were dropped.
    @discardableResult
    package func startRun(_ run: String) throws -> Bool {
        try makeFolders()
        let marker = Folders.join(entriesFolder, "run")
        return try withLock {
            let previous = (try? FileIO.read(marker, limit: 4096)).map { String(decoding: $0, as: UTF8.self) }
            guard previous != run else { return false }
            for name in Folders.names(in: entriesFolder) ?? [] where name.hasSuffix(".json") {
                let file = Folders.join(entriesFolder, name)
                if let entry = Self.entry(at: file) { removePictures(of: entry) }
                Folders.removeFile(file)
            }
            try FileIO.write(Array(run.utf8), to: marker, followingLinks: false)
            try writePage()
            return true
        }
    }

    /// Removes an entry's pictures: files under the folder only (a relative path of plain names),
    /// the side-by-side picture beside its diff included; folders left empty go too.
    private func removePictures(of entry: ComparisonReportEntry) {
        var files = [entry.expected, entry.actual, entry.diff].compactMap { $0?.file }
        if let diff = entry.diff?.file, diff.hasSuffix("-diff.png") {
            files.append(String(diff.dropLast("-diff.png".count)) + "-side-by-side.png")
        }
        for file in files {
            let parts = file.split(separator: "/", omittingEmptySubsequences: false)
            guard file.hasSuffix(".png"), !file.hasPrefix("/"),
                !parts.contains(where: { $0.isEmpty || $0.hasPrefix(".") })
            else { continue }
            Folders.removeFile(Folders.join(folder, file))
            // Subfolders it leaves empty (rmdir removes only an empty one).
            for depth in stride(from: parts.count - 1, to: 0, by: -1) {
                if rmdir(Folders.join(folder, parts.prefix(depth).joined(separator: "/"))) != 0 { break }
            }
        }
    }

    /// Writes the page from the entries there are (a page saying nothing failed when there are none).
    package func rebuild() throws {
        try makeFolders()
        try withLock { try writePage() }
    }

    /// The report folder (a link the caller named is followed) and `.report` inside it (a link
    /// there is refused: nothing in the folder leads a write out of it).
    private func makeFolders() throws {
        try Folders.create(folder)
        try Folders.createInside(entriesFolder)
    }

    /// Every entry in the folder, oldest first (ties by name). A file that is not an entry is skipped.
    package func entries() throws -> [ComparisonReportEntry] {
        let files = (Folders.names(in: entriesFolder) ?? []).filter { $0.hasSuffix(".json") }
        return files.compactMap { Self.entry(at: Folders.join(entriesFolder, $0)) }
            .sorted { ($0.date, $0.name) < ($1.date, $1.name) }
    }

    /// The entry in one JSON file, nil if it is not one.
    private static func entry(at path: String) -> ComparisonReportEntry? {
        guard let bytes = try? FileIO.read(path, limit: 1 << 24), let json = try? JSONValue(parsing: bytes) else {
            return nil
        }
        return ComparisonReportEntry(json: json)
    }

    /// The entry's file: a hash of its key, so any name (`<script>`, `a/b`) makes a plain file name.
    func entryFile(_ key: String) -> String {
        Folders.join(entriesFolder, cFormat("%016llx.json", fnv1a(key)))
    }

    private func writePage() throws {
        try FileIO.write(Array(ComparisonReportPage(entries: try entries()).html.utf8), to: page, followingLinks: false)
    }

    /// Runs `body` holding the folder's exclusive lock (between threads and between processes).
    private func withLock<T>(_ body: () throws -> T) throws -> T {
        let path = Folders.join(entriesFolder, "lock")
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw ReportError.cannotLock(path: path, errno: errno) }
        defer { close(descriptor) }
        do {
            _ = try SystemCall.retrying("flock") { flock(descriptor, LOCK_EX) }
        } catch { throw ReportError.cannotLock(path: path, errno: error.code) }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// The report folder could not be locked.
    package enum ReportError: Error, CustomStringConvertible {
        case cannotLock(path: String, errno: Int32)
        package var description: String {
            switch self {
            case let .cannotLock(path, code): "cannot lock the report at \(path): \(systemErrorText(code))"
            }
        }
    }
}
