import BlurLabelSystem
import BlurredLabelCore

/// Reads a manifest line by line from a file or standard input, holding only one buffer, so a
/// manifest of millions of lines never sits in memory. A line longer than
/// `Limits.maximumManifestLineBytes` is not kept: it comes back as `.tooLong` with its number and
/// the rest of it is skipped, so even `/dev/zero` costs one buffer.
final class ManifestReader {
    /// One line of the manifest.
    enum Line {
        case line(number: Int, bytes: [UInt8])
        case tooLong(number: Int)
        /// Reading failed (not the end of the file): the run stops and says why.
        case failed(reason: String)

        var number: Int? {
            switch self {
            case let .line(number, _), let .tooLong(number): return number
            case .failed: return nil
            }
        }
    }

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let limit: Int
    private var buffer: [UInt8]
    private var start = 0, end = 0
    private var finished = false
    /// A line over the limit was returned; its rest is still to be skipped.
    private var skippingRest = false
    private var failure: String? = nil
    private(set) var lineNumber = 0
    /// Checked while a long line is skipped, so an endless one can be interrupted.
    var shouldStop: () -> Bool = { false }

    /// Opens `path`, or standard input for `-`; a folder is refused here, not read as empty.
    init(path: String, limit: Int = Limits.maximumManifestLineBytes) throws {
        self.limit = limit
        buffer = [UInt8](repeating: 0, count: min(1 << 16, limit + 1))
        if path == "-" {
            fd = STDIN_FILENO
            ownsDescriptor = false
        } else {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileError.cannotRead(path: path, reason: systemErrorText()) }
            ownsDescriptor = true
            var info = stat()
            if fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
                close(fd)
                throw FileError.cannotRead(path: path, reason: "is a directory, not a manifest file")
            }
        }
    }

    /// Reads an already open descriptor (not closed by the reader).
    init(descriptor: Int32, limit: Int = Limits.maximumManifestLineBytes) {
        fd = descriptor
        ownsDescriptor = false
        self.limit = limit
        buffer = [UInt8](repeating: 0, count: min(1 << 16, limit + 1))
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// True when the descriptor is a regular file (which can be read twice: scanned, then rendered).
    var isRegularFile: Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The next line's bytes (without its newline) and its 1-based number, or nil at the end
    /// (lines over the limit and read errors are skipped; use `nextLine()` to see them).
    func next() -> (number: Int, bytes: [UInt8])? {
        while let line = nextLine() {
            if case let .line(number, bytes) = line { return (number, bytes) }
            if case .failed = line { return nil }
        }
        return nil
    }

    /// The next line, a line over the limit, a read error, or nil at the end. A line over the
    /// limit comes back as soon as the limit is passed (so it is reported at once, even when it
    /// never ends, as `/dev/zero`'s); the rest of it is skipped by the next call.
    func nextLine() -> Line? {
        if let failure {
            self.failure = nil
            finished = true
            start = end
            skippingRest = false
            return .failed(reason: failure)
        }
        if skippingRest && !skipRest() { return nil }
        while true {
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                defer { start = newline + 1 }
                lineNumber += 1
                if newline - start > limit { return .tooLong(number: lineNumber) }
                var line = Array(buffer[start..<newline])
                if line.last == 0x0D { line.removeLast() }
                return .line(number: lineNumber, bytes: line)
            }
            if finished {
                guard start < end else {
                    if let failure {
                        self.failure = nil
                        return .failed(reason: failure)
                    }
                    return nil
                }
                defer { start = end }
                lineNumber += 1
                if end - start > limit { return .tooLong(number: lineNumber) }
                return .line(number: lineNumber, bytes: Array(buffer[start..<end]))
            }
            // A line over the limit: said at once; what is buffered is dropped and the rest of
            // the line is skipped by the next call.
            if end - start > limit {
                lineNumber += 1
                start = 0
                end = 0
                skippingRest = true
                return .tooLong(number: lineNumber)
            }
            // Keep the partial line, grow only when a single line outgrows the buffer.
            if start > 0 {
                buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
                end -= start
                start = 0
            }
            if end == buffer.count {
                buffer += [UInt8](repeating: 0, count: min(buffer.count, limit + 1 - buffer.count + 1))
            }
            fill()
        }
    }

    /// Reads past the end of a line over the limit; false when the manifest ended, failed or
    /// the run stopped first (`finished` is then set).
    private func skipRest() -> Bool {
        while true {
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                start = newline + 1
                skippingRest = false
                return true
            }
            start = 0
            end = 0
            if finished || shouldStop() {
                finished = true
                skippingRest = false
                return failure != nil
            }
            fill()
        }
    }

    /// One read into the buffer after `end`; sets `finished` at the end or on an error.
    private func fill() {
        let n: Int
        do {
            n = try buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SystemCallError) in
                    try SystemCall.retrying("read") { read(fd, raw.baseAddress! + end, raw.count - end) }
                }
            }.get()
        } catch {
            failure = error.reason
            finished = true
            return
        }
        if n == 0 {
            finished = true
        } else {
            end += n
        }
    }

    /// Up to `count` lines at once: waits for the first, then takes only what is already in the
    /// buffer (a pipe is never waited on for more), so workers take lines in batches.
    func nextLines(upTo count: Int) -> [Line] {
        guard let first = nextLine() else { return [] }
        var lines = [first]
        while lines.count < count, !finished || start < end,
            buffer[start..<end].contains(0x0A) || (finished && start < end),
            let line = nextLine()
        {
            lines.append(line)
        }
        return lines
    }
}
