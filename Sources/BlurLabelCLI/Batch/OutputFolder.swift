import BlurredLabelCore

#if canImport(Glibc)
import Glibc
#endif

/// The `--out` folder of one batch run, opened once. Outputs are written relative to its
/// descriptor, walking each folder of the output's path with `openat(O_NOFOLLOW | O_DIRECTORY)`,
/// so no symbolic link inside the folder can lead a write out of it; the file itself is written
/// to a short hidden temporary name in its folder and renamed into place (`renameat` replaces a
/// link there, never follows it). While the run holds the folder's lock (`flock` on the folder
/// itself), a second batch on the same folder is refused.
final class OutputFolder: Sendable {
    let path: String
    private let fd: Int32

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

    /// Takes the folder's lock for this run, or says that another batch holds it.
    func lock() throws {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK {
                throw UsageError(
                    message:
                        "another batch is writing into \(path) (it holds the folder's lock); wait for it to finish or give another --out"
                )
            }
            throw UsageError(message: "cannot lock --out \(path): \(systemErrorText())")
        }
    }

    /// True when something (a file, a folder, a link) already has the output's name.
    func exists(_ output: String) -> Bool {
        let (folders, name) = Self.split(output)
        guard let directory = try? walk(folders, create: false) else { return false }
        defer { if directory != fd { close(directory) } }
        var info = stat()
        return fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Writes `bytes` as `output` (a normalised relative path), making the folders on the way.
    func write(_ bytes: [UInt8], to output: String) throws {
        let (folders, name) = Self.split(output)
        let directory = try walk(folders, create: true)
        defer { if directory != fd { close(directory) } }
        // A file replaced keeps its mode and owner, as everywhere else (`FileIO`); a new one gets
        // 0666 less the umask. A link or anything else there is replaced, never followed.
        var existing = stat()
        let replacing =
            fstatat(directory, name, &existing, AT_SYMLINK_NOFOLLOW) == 0 && existing.st_mode & S_IFMT == S_IFREG
        var temporary = ""
        var file: Int32 = -1
        for _ in 0..<16 {
            temporary = ".bl\(String(UInt32.random(in: 0...UInt32.max), radix: 36)).tmp"
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
        guard renameat(directory, temporary, directory, name) == 0 else {
            throw FileError.cannotWrite(path: output, reason: systemErrorText())
        }
        renamed = true
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
