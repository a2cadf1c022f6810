import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The text of the current `errno`, for error messages.
func systemErrorText(_ code: Int32 = errno) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(validatingCString: text) ?? "error \(code)"
}

/// One plain line for any error: the project's own errors say what and where already; a
/// Foundation file error (`CocoaError`, `POSIXError`) becomes its path and what went wrong in words.
public func describeError(_ error: any Error) -> String {
    let path: String?
    var posix: Int32?
    var cocoaCode: CocoaError.Code?
    if let error = error as? POSIXError {
        path = nil
        posix = error.code.rawValue
    } else if let error = error as? CocoaError {
        path = error.filePath ?? error.url?.path
        cocoaCode = error.code
        if let underlying = error.underlying as? POSIXError { posix = underlying.code.rawValue }
    } else {
        return "\(error)"
    }
    let reason: String
    if let posix {
        reason = systemErrorText(posix)
    } else if let cocoaCode {
        switch cocoaCode {
        case .fileNoSuchFile, .fileReadNoSuchFile: reason = "no such file or folder"
        case .fileWriteFileExists: reason = "a file of that name is in the way"
        case .fileReadNoPermission, .fileWriteNoPermission: reason = "permission denied"
        case .fileWriteOutOfSpace: reason = "no space left on the device"
        case .fileWriteVolumeReadOnly: reason = "read-only file system"
        case .fileReadTooLarge: reason = "the file is too large"
        case .fileReadCorruptFile: reason = "the file is damaged"
        case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding: reason = "the text is not in a usable encoding"
        default: reason = "file operation failed (code \(cocoaCode.rawValue))"
        }
    } else {
        reason = "\(error)"
    }
    return path.map { "\($0): \(reason)" } ?? reason
}
