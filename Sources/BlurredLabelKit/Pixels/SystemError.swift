import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The text of the current `errno`, for error messages.
func systemErrorText(_ code: Int32 = errno) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(validatingCString: text) ?? "error \(code)"
}

/// One plain line for any error: the project's own errors say what and where already; a
/// Foundation file error (`NSCocoaErrorDomain … UserInfo={…}`) becomes its path and what went
/// wrong in words.
public func describeError(_ error: any Error) -> String {
    let fromFoundation = error is CocoaError || error is POSIXError || type(of: error) is NSError.Type
    if !fromFoundation { return "\(error)" }
    let ns = error as NSError
    let path = (ns.userInfo[NSFilePathErrorKey] as? String)
        ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
    var posix: Int32? = ns.domain == NSPOSIXErrorDomain ? Int32(ns.code) : nil
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        posix = Int32(underlying.code)
    }
    let reason: String
    if let posix {
        reason = systemErrorText(posix)
    } else if ns.domain == NSCocoaErrorDomain {
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: reason = "no such file or folder"
        case .fileWriteFileExists: reason = "a file of that name is in the way"
        case .fileReadNoPermission, .fileWriteNoPermission: reason = "permission denied"
        case .fileWriteOutOfSpace: reason = "no space left on the device"
        case .fileWriteVolumeReadOnly: reason = "read-only file system"
        case .fileReadTooLarge: reason = "the file is too large"
        case .fileReadCorruptFile: reason = "the file is damaged"
        case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding: reason = "the text is not in a usable encoding"
        default: reason = "file operation failed (code \(ns.code))"
        }
    } else {
        reason = ns.localizedDescription
    }
    return path.map { "\($0): \(reason)" } ?? reason
}
