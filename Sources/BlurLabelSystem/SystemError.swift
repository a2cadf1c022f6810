/// The text of the current `errno`, for error messages.
package func systemErrorText(_ code: Int32 = errno) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(validatingCString: text) ?? "error \(code)"
}
