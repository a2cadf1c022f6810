/// The few string edits the package used from full Foundation, in the standard library only.
extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: the scalars of Foundation's
    /// `CharacterSet.whitespaces` (general category Zs, U+0009 and U+200B ZERO WIDTH SPACE).
    package func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        func isBlank(_ s: Unicode.Scalar) -> Bool {
            s == "\t" || s == "\u{200B}" || s.properties.generalCategory == .spaceSeparator
        }
        guard let first = scalars.firstIndex(where: { !isBlank($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isBlank($0) })!
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[first...last])
        return String(out)
    }

    /// Every occurrence of `target` (compared scalar by scalar, left to right, not overlapping)
    /// replaced by `replacement`, as Foundation's `replacingOccurrences(of:with:)` does.
    package func replacingText(_ target: String, with replacement: String) -> String {
        let needle = Array(target.unicodeScalars)
        let haystack = Array(unicodeScalars)
        guard !needle.isEmpty, needle.count <= haystack.count else { return String(self) }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < haystack.count {
            if i + needle.count <= haystack.count && haystack[i..<(i + needle.count)].elementsEqual(needle) {
                out.append(contentsOf: replacement.unicodeScalars)
                i += needle.count
            } else {
                out.append(haystack[i])
                i += 1
            }
        }
        return String(out)
    }

    /// Every `target` scalar replaced by `replacement` (scalar by scalar, as Foundation's
    /// `replacingOccurrences(of:with:)` does for a one-scalar target).
    package func replacingScalar(_ target: Unicode.Scalar, with replacement: String) -> String {
        replacingText(String(target), with: replacement)
    }
}
