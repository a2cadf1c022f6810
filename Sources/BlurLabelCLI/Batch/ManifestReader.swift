import BlurredLabelKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a manifest line by line from a file or standard input, holding only one buffer, so a
/// manifest of millions of lines never sits in memory.
final class ManifestReader {
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0, end = 0
    private var finished = false
    private(set) var lineNumber = 0

    /// Opens `path`, or standard input for `-`.
    init(path: String) throws {
        if path == "-" {
            fd = STDIN_FILENO
            ownsDescriptor = false
        } else {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileError.cannotRead(path: path, reason: systemErrorDescription()) }
            ownsDescriptor = true
        }
    }

    /// Reads an already open descriptor (not closed by the reader).
    init(descriptor: Int32) {
        fd = descriptor
        ownsDescriptor = false
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// The next line's bytes (without its newline) and its 1-based number, or nil at the end.
    func next() -> (number: Int, bytes: [UInt8])? {
        while true {
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                var line = Array(buffer[start..<newline])
                if line.last == 0x0D { line.removeLast() }
                start = newline + 1
                lineNumber += 1
                return (lineNumber, line)
            }
            if finished {
                guard start < end else { return nil }
                let line = Array(buffer[start..<end])
                start = end
                lineNumber += 1
                return (lineNumber, line)
            }
            // Keep the partial line, grow only when a single line outgrows the buffer.
            if start > 0 {
                buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
                end -= start
                start = 0
            }
            if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + end, $0.count - end) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { finished = true } else { end += n }
        }
    }
}

func systemErrorDescription() -> String {
    guard let text = strerror(errno) else { return "error \(errno)" }
    return String(validatingCString: text) ?? "error \(errno)"
}
