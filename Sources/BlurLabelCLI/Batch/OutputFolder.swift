import BlurLabelSystem
import BlurredLabelCore
import CRenameNoReplace

/// The `--out` folder of one batch run, opened once. Outputs are written relative to its
/// descriptor, walking each folder of the output's path with `openat(O_NOFOLLOW | O_DIRECTORY)`,
/// so no symbolic link inside the folder can lead a write out of it; the file itself is written
/// to a short hidden temporary name in its folder and renamed into place (`renameat` replaces a
/// link there, never follows it). Any number of processes may write into one folder at once
/// (shards, Spark partitions): each output is guarded on its own, by how it is published
/// (`Publish`), never by a lock on the folder.
final class OutputFolder: Sendable {
    let path: String
    private let fd: Int32
    /// Where temporary files' names come from: seeded once from the system's generator, so a file
    /// costs no `getrandom` call (a name taken meanwhile is refused by O_EXCL and another drawn).
    private let temporaryNames = LockedValue(SplitMix64(state: UInt64.random(in: 0...UInt64.max)))

    /// Opens (and with `create`, first makes) the folder at `path`; nil when it does not exist
    /// and `create` is false.
    init?(path: String, create: Bool) throws {
        self.path = path
        if create {
            do { try Folders.create(path) } catch let error as FileError {
                guard case let .cannotWrite(where_, reason) = error else { throw error }
                throw UsageError(
                    message: "cannot create --out \(path): " + (where_ == path ? reason : "\(where_): \(reason)")
                )
            }
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT && !create { return nil }
            throw UsageError(message: "cannot open --out \(path): \(systemErrorText())")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// True when something (a file, a folder, a link) already has the output's name.
    func exists(_ output: String) -> Bool {
        let (folders, name) = Self.split(output)
        guard let directory = try? walk(folders, create: false) else { return false }
        defer { if directory != fd { close(directory) } }
        var info = stat()
        return fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// How a finished file takes its name.
    enum Publish {
        /// Whatever has the name is replaced (`--force`): a link or anything else there is
        /// replaced, never followed, and a file replaced keeps its mode and owner.
        case replacing
        /// Only where nothing has the name: when something appeared there meanwhile (another
        /// process wrote it), it is kept and the write says so (`Written.found`).
        case keeping
    }

    /// What a write did.
    enum Written: Equatable {
        case written
        /// Something had the output's name when the file was to take it (another process wrote
        /// it meanwhile); it was kept. `sameBytes`: it is a regular file holding exactly the bytes
        /// this write had.
        case found(sameBytes: Bool)
    }

    /// Writes `bytes` as `output` (a normalised relative path), making the folders on the way.
    @discardableResult
    func write(_ bytes: [UInt8], to output: String, publish: Publish = .replacing) throws -> Written {
        let (folders, name) = Self.split(output)
        let directory = try walk(folders, create: true)
        defer { if directory != fd { close(directory) } }
        // A file replaced keeps its mode and owner, as everywhere else (`FileIO`); a new one gets
        // 0666 less the umask.
        var existing = stat()
        let replacing =
            publish == .replacing && fstatat(directory, name, &existing, AT_SYMLINK_NOFOLLOW) == 0
            && existing.st_mode & S_IFMT == S_IFREG
        var temporary = ""
        var file: Int32 = -1
        for _ in 0..<16 {
            let draw = temporaryNames.withLock { UInt32(truncatingIfNeeded: $0.next()) }
            temporary = ".bl\(String(draw, radix: 36)).tmp"
            file = openat(
                directory,
                temporary,
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                replacing ? 0o600 : 0o666
            )
            if file >= 0 || errno != EEXIST { break }
        }
        guard file >= 0 else { throw FileError.cannotWrite(path: output, reason: systemErrorText()) }
        var renamed = false
        defer { if !renamed { unlinkat(directory, temporary, 0) } }
        do {
            try FileIO.writeAll(bytes, to: file, path: output)
            if replacing { FileIO.keepOwnerAndMode(of: existing, on: file) }
        } catch {
            close(file)
            throw error
        }
        guard close(file) == 0 else { throw FileError.cannotWrite(path: output, reason: systemErrorText()) }
        if publish == .keeping {
            guard try Self.publishKeeping(temporary, as: name, in: directory, output: output) else {
                return .found(sameBytes: Self.holds(bytes, name, in: directory))
            }
        } else {
            guard renameat(directory, temporary, directory, name) == 0 else {
                throw FileError.cannotWrite(path: output, reason: systemErrorText())
            }
        }
        renamed = true
        return .written
    }

    /// Gives the temporary file the name `name` unless something has it: true when it did, false
    /// when the name was taken (the temporary file is then still there). One atomic step
    /// (`renameat2(RENAME_NOREPLACE)`); on a file system that cannot do that (NFS, some FUSE
    /// ones), a hard link, which fails atomically as well where the name is taken, then the
    /// temporary name removed; on one without hard links either, a look then a rename (a
    /// process publishing the same name in between is replaced, never half-written).
    private static func publishKeeping(
        _ temporary: String,
        as name: String,
        in directory: Int32,
        output: String
    )
        throws -> Bool
    {
        if bl_rename_noreplace(directory, temporary, directory, name) == 0 { return true }
        if errno == EEXIST { return false }
        guard errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP else {
            throw FileError.cannotWrite(path: output, reason: systemErrorText())
        }
        if linkat(directory, temporary, directory, name, 0) == 0 {
            unlinkat(directory, temporary, 0)
            return true
        }
        if errno == EEXIST { return false }
        guard errno == EPERM || errno == EOPNOTSUPP || errno == EMLINK else {
            throw FileError.cannotWrite(path: output, reason: systemErrorText())
        }
        var info = stat()
        if fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 { return false }
        guard renameat(directory, temporary, directory, name) == 0 else {
            throw FileError.cannotWrite(path: output, reason: systemErrorText())
        }
        return true
    }

    /// True when `name` in `directory` is a regular file holding exactly `bytes`.
    private static func holds(_ bytes: [UInt8], _ name: String, in directory: Int32) -> Bool {
        let file = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == bytes.count else {
            return false
        }
        var found = [UInt8](repeating: 0, count: bytes.count + 1)
        let count = (try? found.withUnsafeMutableBytes { try SystemCall.read(file, into: $0) }) ?? -1
        return count == bytes.count && found[..<count].elementsEqual(bytes)
    }

    /// The folder components and the file name of a normalised output path.
    private static func split(_ output: String) -> (folders: [String], name: String) {
        var parts = output.split(separator: "/").map(String.init)
        let name = parts.removeLast()
        return (parts, name)
    }

    /// The descriptor of the folder `folders` below the output folder (the output folder's own
    /// for none), refusing symbolic links and anything not a folder on the way.
    private func walk(_ folders: [String], create: Bool) throws -> Int32 {
        var current = fd
        for (index, folder) in folders.enumerated() {
            var next = openat(current, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT && create {
                if mkdirat(current, folder, 0o755) != 0 && errno != EEXIST {
                    let reason = systemErrorText()
                    if current != fd { close(current) }
                    throw FileError.cannotWrite(path: folders[...index].joined(separator: "/"), reason: reason)
                }
                next = openat(current, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let failure = errno
            if current != fd { close(current) }
            guard next >= 0 else {
                let where_ = folders[...index].joined(separator: "/")
                if failure == ELOOP || failure == ENOTDIR {
                    throw UsageError(
                        message:
                            "'\(where_)' in --out is a symbolic link or not a folder; outputs must stay inside --out"
                    )
                }
                throw FileError.cannotWrite(path: where_, reason: systemErrorText(failure))
            }
            current = next
        }
        return current
    }
}
