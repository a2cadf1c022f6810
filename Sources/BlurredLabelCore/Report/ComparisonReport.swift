#if canImport(Glibc)
import Glibc
#endif

/// The report page of a folder of comparison artifacts: `index.html` beside the PNGs, showing
/// every entry added to the folder, with no server and no network.
///
/// Safe for tests running in parallel, in threads or in processes: each entry is its own small
/// JSON file under `.report/`, written atomically (temporary file and rename), and the page is
/// regenerated from all of them while holding an exclusive `flock` on `.report/lock`, then
/// renamed into place, so a reader never sees half a page and no entry is lost. An entry is keyed
/// by its name: a later one for the same name replaces it, and `remove` drops it (a golden that
/// passes again leaves the page).
public struct ComparisonReport: Sendable {
    /// The report folder's path.
    public let folder: String

    public init(folder: String) { self.folder = folder }

    /// The page: `<folder>/index.html`.
    public var page: String { Folders.join(folder, "index.html") }

    var entriesFolder: String { Folders.join(folder, ".report") }

    /// Adds (or replaces) the entry for `entry.name` and rewrites the page.
    public func add(_ entry: ComparisonReportEntry) throws {
        try makeFolders()
        try withLock {
            try FileIO.write(entry.json.serialized(), to: entryFile(entry.name), followingLinks: false)
            try writePage()
        }
    }

    /// Drops the entry for `name`, if there is one, and rewrites the page. Cheap when there is none.
    /// Its pictures go too (those named directly in the folder, as `diff --report` writes them).
    public func remove(name: String) throws {
        let file = entryFile(name)
        guard Folders.exists(file) else { return }
        try withLock {
            if let entry = Self.entry(at: file) {
                for picture in [entry.expected, entry.actual, entry.diff].compactMap({ $0 })
                where !picture.file.contains("/") && picture.file.hasSuffix(".png") && !picture.file.hasPrefix(".") {
                    Folders.removeFile(Folders.join(folder, picture.file))
                }
            }
            Folders.removeFile(file)
            try writePage()
        }
    }

    /// Writes the page from the entries there are (a page saying nothing failed when there are none).
    public func rebuild() throws {
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
    public func entries() throws -> [ComparisonReportEntry] {
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

    /// The entry's file: a hash of its name, so any name (`<script>`, `a/b`) makes a plain file name.
    func entryFile(_ name: String) -> String {
        Folders.join(entriesFolder, cFormat("%016llx.json", fnv1a(name)))
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
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw ReportError.cannotLock(path: path, errno: errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// The report folder could not be locked.
    public enum ReportError: Error, CustomStringConvertible {
        case cannotLock(path: String, errno: Int32)
        public var description: String {
            switch self {
            case let .cannotLock(path, code): "cannot lock the report at \(path): \(systemErrorText(code))"
            }
        }
    }
}
