#if canImport(Glibc)
import Glibc
#endif

/// Writes all of `text` to a descriptor (standard output or error), retrying short writes and
/// interrupts; a closed stream (EPIPE) or other failure drops the rest, as a message to a stream
/// nobody reads cannot be delivered anyway.
func writeText(_ text: String, toDescriptor fd: Int32) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }
}

extension String {
    /// The text padded with spaces to `length` characters (cut to it when longer), as
    /// Foundation's `padding(toLength:withPad:startingAt:)` does for ASCII text.
    func padded(to length: Int) -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: " ", count: length - count)
    }
}
