/// Reading inputs and writing outputs, as `cp` would treat the destination:
///
/// - `-` is standard input or output.
/// - A regular file (or a path that does not exist yet) is written to a short hidden temporary
///   file in its folder (`.bl.XXXXXX`), then renamed into place, so a failure never leaves a
///   partial file nor damages an existing one. A symbolic link is followed: the file it points
///   to is replaced, the link stays. A file replaced keeps its permissions (and, where the
///   process may, its owner); a new file gets the usual ones (0666 less the umask).
/// - Anything else that exists (a character device such as `/dev/null`, a FIFO, a socket, a
///   terminal), and a link under `/dev/` or `/proc/` (`/dev/stdout`, `/dev/fd/3`), is opened
///   and written into; it is never replaced.
///
/// Temporary files are registered with `TemporaryFiles`, so an interrupt removes them.
package enum FileIO {
    /// The most `read` takes by default: 1.5 GiB, more than a PNG of the largest image the
    /// tool accepts (2^28 pixels) can need, so `/dev/zero` or an endless pipe is refused, not
    /// held in memory until the process dies.
    package static let defaultReadLimit = 3 << 29

    /// The whole of a file, or of standard input for `-`, up to `defaultReadLimit` bytes.
    package static func read(_ path: String) throws -> [UInt8] {
        try read(path, limit: defaultReadLimit)
    }

    /// The whole of a file, or of standard input for `-`; more than `limit` bytes is an error.
    package static func read(_ path: String, limit: Int) throws -> [UInt8] {
        if path == "-" { return try readAll(from: STDIN_FILENO, path: "<stdin>", limit: limit) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw FileError.cannotRead(
                path: path,
                reason: code == ENOENT ? "no such file" : code == EACCES ? "permission denied" : systemErrorText(code)
            )
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw FileError.cannotRead(path: path, reason: "is a folder, not a file")
        }
        return try readAll(
            from: fd,
            path: path,
            limit: limit,
            sizeHint: (info.st_mode & S_IFMT) == S_IFREG ? min(Int(info.st_size), limit) : 0
        )
    }

    /// Writes `bytes` to `path` (see the type's description), or to standard output for `-`.
    package static func write(_ bytes: [UInt8], to path: String) throws {
        try write(bytes, to: path, followingLinks: true)
    }

    /// The same; with `followingLinks: false` (for a caller that must stay inside a folder, as
    /// `batch` does), a symbolic link as the last component is refused rather than followed.
    package static func write(_ bytes: [UInt8], to path: String, followingLinks: Bool) throws {
        try write(to: path, followingLinks: followingLinks) { sink in try sink(bytes) }
    }

    /// Writes what `produce` hands its sink, piece by piece, to `path` as `write` does: a regular
    /// file through a temporary file renamed into place only once `produce` has returned (if it
    /// throws, the destination is left as it was), so a large output never has to be held whole.
    package static func write(
        to path: String,
        followingLinks: Bool = true,
        streaming produce: (_ sink: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        if path == "-" {
            try produce { try writeAll($0, to: STDOUT_FILENO, path: "<stdout>", writer: Glibc.write) }
            return
        }
        if !followingLinks && isSymbolicLink(path) {
            throw FileError.cannotWrite(path: path, reason: "is a symbolic link (not followed here)")
        }
        try writeAtomically(to: path, writer: Glibc.write, produce)
    }

    /// True when `path` itself is a symbolic link.
    package static func isSymbolicLink(_ path: String) -> Bool {
        var link = stat()
        return lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
    }

    /// How many names (hard links) the file at `path` has, following symbolic links; nil when it
    /// cannot be examined.
    package static func linkCount(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_nlink) : nil
    }

    /// The write, with the low-level writer injectable so tests can make it fail.
    static func writeAtomically(
        _ bytes: [UInt8],
        to path: String,
        writer: (Int32, UnsafeRawPointer?, Int) -> Int
    ) throws {
        try writeAtomically(to: path, writer: writer) { sink in try sink(bytes) }
    }

    /// The same for bytes made piece by piece.
    static func writeAtomically(
        to path: String,
        writer: (Int32, UnsafeRawPointer?, Int) -> Int,
        _ produce: (_ sink: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        switch try Destination(path) {
        case .stream:
            let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { throw FileError.cannotWrite(path: path, reason: systemErrorText()) }
            do {
                try withoutActuallyEscaping(writer) { writer in
                    try produce { try writeAll($0, to: fd, path: path, writer: writer) }
                }
            } catch {
                close(fd)
                throw error
            }
            guard close(fd) == 0 else { throw FileError.cannotWrite(path: path, reason: systemErrorText()) }
        case let .file(target, existing):
            try replace(target, existing: existing, naming: path, writer: writer, produce)
        }
    }

    /// Writes what `produce` makes to a new temporary file beside `target` and renames it over `target`.
    private static func replace(
        _ target: String,
        existing: stat?,
        naming path: String,
        writer: (Int32, UnsafeRawPointer?, Int) -> Int,
        _ produce: (_ sink: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        // Beside the destination (a rename cannot cross file systems), hidden, short (a 255-byte
        // name must still work), random. A file being replaced starts private (0600) and gets its
        // old permissions before the rename; a new one gets 0666 less the umask.
        let directory = target.lastIndex(of: "/").map { String(target[...$0]) } ?? ""
        var fd: Int32 = -1
        var temporary = ""
        var slot: Int?
        for _ in 0..<32 {
            temporary = directory + ".bl." + randomName(length: 6)
            slot = TemporaryFiles.register(temporary)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, existing == nil ? 0o666 : 0o600)
            if fd >= 0 { break }
            let code = errno
            TemporaryFiles.unregister(slot)
            if code != EEXIST {
                throw FileError.cannotWrite(path: path, reason: writeFailureText(code, folder: directory))
            }
        }
        guard fd >= 0 else {
            throw FileError.cannotWrite(path: path, reason: "no free temporary file name in its folder")
        }
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
            TemporaryFiles.unregister(slot)
        }
        do {
            try withoutActuallyEscaping(writer) { writer in
                try produce { try writeAll($0, to: fd, path: path, writer: writer) }
            }
            if let existing { keepOwnerAndMode(of: existing, on: fd) }
            guard close(fd) == 0 else { throw FileError.cannotWrite(path: path, reason: systemErrorText()) }
        } catch {
            close(fd)
            throw error
        }
        guard rename(temporary, target) == 0 else {
            throw FileError.cannotWrite(path: path, reason: systemErrorText())
        }
        renamed = true
    }

    /// Gives the new file the replaced file's owner (where allowed: root, or a group the user
    /// belongs to) and then its mode (after the owner: changing owners clears set-id bits).
    package static func keepOwnerAndMode(of existing: stat, on fd: Int32) {
        var now = stat()
        if fstat(fd, &now) == 0 && (now.st_uid != existing.st_uid || now.st_gid != existing.st_gid) {
            if fchown(fd, existing.st_uid, existing.st_gid) != 0 {
                _ = fchown(fd, uid_t.max, existing.st_gid)  // at least the group, if we may
            }
        }
        _ = fchmod(fd, existing.st_mode & 0o7777)
    }

    /// `length` (at most 12) letters and digits from one draw of the system's generator (one
    /// `getrandom` call, not one a character).
    private static func randomName(length: Int) -> String {
        precondition(length <= 12, "36^length must fit 64 bits")
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        var value = generator.next(upperBound: (0..<length).reduce(UInt64(1)) { power, _ in power * 36 })
        return String(
            (0..<length).map { _ in
                defer { value /= 36 }
                return letters[Int(value % 36)]
            }
        )
    }

    private static func writeFailureText(_ code: Int32, folder: String) -> String {
        let place = folder.isEmpty ? "the current folder" : "the folder \(folder)"
        switch code {
        case EACCES, EPERM: return "permission denied (a temporary file must be made in \(place))"
        case EROFS: return "\(place) is on a read-only file system"
        case ENOENT, ENOTDIR: return "\(place) does not exist"
        case ENAMETOOLONG: return "the name is too long for the file system"
        case ENOSPC: return "no space left on the device"
        default: return systemErrorText(code)
        }
    }

    private static func readAll(from fd: Int32, path: String, limit: Int, sizeHint: Int = 0) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sizeHint + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { raw in
                    Result { () throws(SystemCallError) in
                        try SystemCall.retrying("read") { Glibc.read(fd, raw.baseAddress, raw.count) }
                    }
                }.get()
            } catch { throw FileError.cannotRead(path: path, reason: error.reason) }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else {
                throw FileError.cannotRead(path: path, reason: "more than \(limit) bytes, too large for an input")
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    package static func writeAll(
        _ bytes: [UInt8],
        to fd: Int32,
        path: String,
        writer: (Int32, UnsafeRawPointer?, Int) -> Int = Glibc.write
    ) throws {
        let written: Int
        do {
            written = try bytes.withUnsafeBytes { raw in
                Result { () throws(SystemCallError) in try SystemCall.write(fd, raw, writer: writer) }
            }.get()
        } catch { throw FileError.cannotWrite(path: path, reason: error.reason) }
        guard written == bytes.count else { throw FileError.cannotWrite(path: path, reason: "short write") }
    }
}

/// What an output path names, and so how it is written.
enum Destination {
    /// Written into, never replaced: devices, FIFOs, sockets, /dev/stdout and its kin.
    case stream
    /// A regular file to replace (the path a symbolic link leads to), or to create.
    case file(target: String, existing: stat?)

    init(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                throw FileError.cannotWrite(path: path, reason: "is a folder, not a file")
            case S_IFREG:
                var link = stat()
                if lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK {
                    // /dev/stdout, /dev/fd/N, /proc/self/fd/N lead to whatever the descriptor
                    // is open on: write into it, as a shell's redirection expects.
                    if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") {
                        self = .stream
                        return
                    }
                    guard let resolved = realpath(path, nil) else {
                        throw FileError.cannotWrite(path: path, reason: systemErrorText())
                    }
                    defer { free(resolved) }
                    self = .file(target: String(cString: resolved), existing: info)
                } else {
                    self = .file(target: path, existing: info)
                }
            default:
                self = .stream
            }
            return
        }
        let code = errno
        var link = stat()
        if lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK {
            throw FileError.cannotWrite(path: path, reason: "is a symbolic link to a missing file")
        }
        guard code == ENOENT else { throw FileError.cannotWrite(path: path, reason: systemErrorText(code)) }
        self = .file(target: path, existing: nil)
    }
}

/// A file that could not be read or written.
public enum FileError: Error, Equatable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotRead(path, reason):
            return path.isEmpty ? "cannot read a file with an empty name" : "cannot read \(path): \(reason)"
        case let .cannotWrite(path, reason):
            return path.isEmpty ? "cannot write a file with an empty name" : "cannot write \(path): \(reason)"
        }
    }
}
