import BlurLabelSystem
import BlurredLabelCore
import Synchronization

/// Writes all of `text` to a descriptor (standard output or error), retrying short writes and
/// interrupts; on a failure the rest is dropped, and a failure on standard output is remembered
/// (`standardOutputFailure`): what goes there (a summary, batch's JSON results) is output, and a
/// run that could not deliver it must not exit as if it had.
func writeText(_ text: String, toDescriptor fd: Int32) {
    var text = text
    let failure = text.withUTF8 { bytes -> Int32? in
        let written = Result { () throws(SystemCallError) in try SystemCall.write(fd, UnsafeRawBufferPointer(bytes)) }
        switch written {
        case .success(let count): return count == bytes.count ? nil : EIO
        case .failure(let error): return error.code
        }
    }
    if let failure, fd == STDOUT_FILENO {
        _ = standardOutputError.compareExchange(expected: 0, desired: failure, ordering: .relaxed)
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
