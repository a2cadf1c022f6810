import BlurLabelPixels

/// One comparison the way `blurlabel diff` and GoldenImage both show it, in one flow:
/// compare (at any sizes) → diff picture → side by side → artifacts → report entry.
///
/// Pictures of different sizes never pass, but are still shown: the part both cover compared,
/// the rest marked (`compareDifferentSizes`).
package struct ComparisonFinding: Sendable {
    package let expected: Image
    package let actual: Image
    /// The comparison of pictures of one size; nil when the sizes differ.
    package let result: ImageComparison.Result?
    /// The comparison of pictures of different sizes; nil when they have one size.
    package let sizes: ImageComparison.SizeMismatchComparison?

    package var sizesDiffer: Bool { sizes != nil }
    package var passes: Bool { result?.passes ?? false }
    package var isIdentical: Bool { result?.isIdentical ?? false }

    /// One line: what differs (both sizes first, when they differ), or that nothing does.
    package var summary: String { result?.summary ?? sizes?.summary ?? "" }

    /// The report's outcome for a failure.
    package var outcome: ComparisonReportEntry.Outcome { sizesDiffer ? .sizeMismatch : .failed }

    /// The diff picture: `diffImage` for one size; for different sizes the one drawn when compared
    /// (nil unless the finding was made `drawing`).
    package func diff(by comparison: ImageComparison) throws -> Image? {
        if let result { return try comparison.diffImage(expected: expected, result: result) }
        return sizes?.diff
    }
}

extension ImageComparison {
    /// `expected` and `actual` compared at any sizes; with `drawing`, the diff picture of
    /// different sizes is drawn now (one size draws it on demand, `ComparisonFinding.diff(by:)`).
    package func finding(expected: Image, actual: Image, drawing: Bool) throws -> ComparisonFinding {
        do {
            let result = try compare(expected: expected, actual: actual)
            return ComparisonFinding(expected: expected, actual: actual, result: result, sizes: nil)
        } catch is SizeMismatch {
            let sizes = try compareDifferentSizes(expected: expected, actual: actual, drawing: drawing)
            return ComparisonFinding(expected: expected, actual: actual, result: nil, sizes: sizes)
        }
    }
}

extension ComparisonArtifacts {
    /// A failed `finding` shown: its expected, actual and `diff` pictures (and `sideBySide` when
    /// given) written as `<stem>-<kind>.png`, then its entry added to the folder's report page.
    /// Returns the pictures' paths.
    @discardableResult
    package func report(
        _ finding: ComparisonFinding,
        diff: Image,
        sideBySide: Image? = nil,
        summary: String,
        test: String? = nil,
        location: String? = nil,
        acceptCommands: [String]
    ) throws -> [String] {
        let expected = try write(finding.expected, as: "expected")
        let actual = try write(finding.actual, as: "actual")
        let diffPicture = try write(diff, as: "diff")
        var kinds = ["expected", "actual", "diff"]
        if let sideBySide {
            try write(sideBySide, as: "side-by-side")
            kinds.append("side-by-side")
        }
        try ComparisonReport(folder: folder).add(
            ComparisonReportEntry(
                name: name,
                outcome: finding.outcome,
                test: test,
                location: location,
                summary: summary,
                expected: expected,
                actual: actual,
                diff: diffPicture,
                acceptCommands: acceptCommands
            )
        )
        return kinds.map(path)
    }
}
