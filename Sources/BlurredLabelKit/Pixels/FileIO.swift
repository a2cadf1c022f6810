import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading inputs and writing outputs: `-` is standard input or output, and every file written
/// goes to a temporary file in the destination folder first, then is renamed into place, so a
/// failure never leaves a partial file nor damages an existing one.
public enum FileIO {
    /// The whole of a file, or of standard input for `-`.
    public static func read(_ path: String) throws -> [UInt8] {
        if path == "-" {
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                throw FileError.cannotRead(path: path, reason: isDirectory.boolValue ? "is a directory" : "permission denied")
            }
            throw FileError.cannotRead(path: path, reason: "no such file")
        }
        return [UInt8](data)
    }

    /// Writes `bytes` to `path` atomically, or to standard output for `-`.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        if path == "-" {
            try writeAll(bytes, to: STDOUT_FILENO, path: "<stdout>", writer: Glibc.write)
            return
        }
        try writeAtomically(bytes, to: path, writer: Glibc.write)
    }

    /// The atomic write, with the low-level writer injectable so tests can make it fail.
    static func writeAtomically(_ bytes: [UInt8], to path: String,
                                writer: (Int32, UnsafeRawPointer?, Int) -> Int) throws {
        // The temporary file sits beside the destination (so the rename cannot cross file
        // systems), hidden, with a random part; created with the usual permissions (umask applies).
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var fd: Int32 = -1
        var temporary = ""
        for _ in 0..<16 {
            temporary = "\(directory).\(name).\(String(UInt32.random(in: 0...UInt32.max), radix: 36)).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else {
            throw FileError.cannotWrite(path: path, reason: systemErrorText())
        }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            try writeAll(bytes, to: fd, path: path, writer: writer)
            guard close(fd) == 0 else { throw FileError.cannotWrite(path: path, reason: systemErrorText()) }
        } catch {
            close(fd)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            throw FileError.cannotWrite(path: path, reason: systemErrorText())
        }
        renamed = true
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String,
                                 writer: (Int32, UnsafeRawPointer?, Int) -> Int) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = writer(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    throw FileError.cannotWrite(path: path, reason: n < 0 ? systemErrorText() : "short write")
                }
                offset += n
            }
        }
    }
}

/// A file that could not be read or written.
public enum FileError: Error, Equatable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotRead(path, reason): return "cannot read \(path): \(reason)"
        case let .cannotWrite(path, reason): return "cannot write \(path): \(reason)"
        }
    }
}
