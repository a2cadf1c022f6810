import BlurredLabelCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Writes all of `text` to a descriptor (standard output or error), retrying short writes and
/// interrupts; on a failure the rest is dropped, and a failure on standard output is remembered
/// (`standardOutputFailure`): what goes there (a summary, batch's JSON results) is output, and a
/// run that could not deliver it must not exit as if it had.
func writeText(_ text: String, toDescriptor fd: Int32) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                if fd == STDOUT_FILENO {
                    _ = standardOutputError.compareExchange(
                        expected: 0,
                        desired: n < 0 ? errno : EIO,
                        ordering: .relaxed
                    )
                }
                return
            }
            offset += n
        }
    }
}

/// The first error writing text to standard output (0: none).
private let standardOutputError = Atomic<Int32>(0)

/// Why text could not be written to standard output, if it could not.
var standardOutputFailure: String? {
    let code = standardOutputError.load(ordering: .relaxed)
    return code == 0 ? nil : systemErrorText(code)
}

extension String {
    /// The text padded with spaces to `length` characters (cut to it when longer), as
    /// Foundation's `padding(toLength:withPad:startingAt:)` does for ASCII text.
    func padded(to length: Int) -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: " ", count: length - count)
    }
}
