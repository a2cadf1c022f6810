/// A system call that failed: its name and `errno`.
package struct SystemCallError: Error, Equatable, CustomStringConvertible {
    /// The call, as its manual page names it (`read`, `flock`).
    package let call: String
    /// Its `errno`.
    package let code: Int32

    package init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// What went wrong, as `strerror` says it ("No space left on device").
    package var reason: String { systemErrorText(code) }
    package var description: String { "\(call): \(reason)" }
}

/// The package's one way to make a system call that a signal may interrupt: every caller retries
/// `EINTR` the same way and sees every other failure as one error type.
package enum SystemCall {
    /// `body`'s result, called again for as long as it fails with `EINTR`; any other failure
    /// (-1 and `errno`) is thrown.
    @inline(__always)
    package static func retrying<Result: FixedWidthInteger & SignedInteger>(
        _ call: String,
        _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code != EINTR { throw SystemCallError(call: call, code: code) }
        }
    }

    /// Reads from `fd` until `buffer` is full or the input ends; the bytes read.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        var count = 0
        while count < buffer.count {
            let n = try retrying("read") { Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count) }
            if n == 0 { break }
            count += n
        }
        return count
    }

    /// Writes all of `bytes` to `fd` through `writer` (`write` unless a test gives another),
    /// retrying short writes; the bytes written, fewer than asked only when a write wrote nothing.
    package static func write(
        _ fd: Int32,
        _ bytes: UnsafeRawBufferPointer,
        writer: (Int32, UnsafeRawPointer?, Int) -> Int = Glibc.write
    ) throws(SystemCallError) -> Int {
        var offset = 0
        while offset < bytes.count {
            let n = try retrying("write") { writer(fd, bytes.baseAddress! + offset, bytes.count - offset) }
            if n == 0 { break }
            offset += n
        }
        return offset
    }
}
