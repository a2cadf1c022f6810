import BlurLabelSystem

/// One failed (or newly recorded) image comparison, as the report page shows it.
package struct ComparisonReportEntry: Sendable, Equatable {
    /// What happened to the comparison.
    package enum Outcome: String, Sendable {
        /// The pictures differ beyond the tolerance.
        case failed
        /// The pictures have different sizes.
        case sizeMismatch
        /// There was no reference; the actual picture was written as the new one.
        case recorded
        /// There was no reference and none was written.
        case missing
    }

    /// A picture file beside the page, and its size (the page checks it decoded at that size).
    package struct Picture: Sendable, Equatable {
        /// The file name, relative to the report folder.
        package var file: String
        package var width: Int
        package var height: Int

        package init(file: String, width: Int, height: Int) {
            self.file = file
            self.width = width
            self.height = height
        }
    }

    /// The golden's name (or the compared file's), shown as text.
    package var name: String
    package var outcome: Outcome
    /// The test that made it (`Suite/test()`), nil outside tests.
    package var test: String?
    /// Where the assertion is (`File.swift:12`), nil outside tests.
    package var location: String?
    /// The comparison's one-line summary.
    package var summary: String
    package var expected: Picture?
    package var actual: Picture?
    package var diff: Picture?
    /// Shell commands that accept the actual picture as the new reference.
    package var acceptCommands: [String]
    /// When it was added, in whole seconds since 1970-01-01 UTC (entries are shown oldest first).
    package var date: Int

    package init(
        name: String,
        outcome: Outcome,
        test: String? = nil,
        location: String? = nil,
        summary: String,
        expected: Picture? = nil,
        actual: Picture? = nil,
        diff: Picture? = nil,
        acceptCommands: [String] = [],
        date: Int = Int(time(nil))
    ) {
        self.name = name
        self.outcome = outcome
        self.test = test
        self.location = location
        self.summary = summary
        self.expected = expected
        self.actual = actual
        self.diff = diff
        self.acceptCommands = acceptCommands
        self.date = date
    }
}

extension ComparisonReportEntry {
    /// What tells entries apart: the name, and the test when there is one (two tests' goldens of
    /// one name are two entries).
    static func key(name: String, test: String?) -> String {
        test.map { "\($0)\u{0}\(name)" } ?? name
    }

    var key: String { Self.key(name: name, test: test) }
}

/// Quotes a word for a POSIX shell (single quotes; a quote inside becomes `'\''`).
package func shellQuoted(_ word: String) -> String {
    if !word.isEmpty,
        word.unicodeScalars.allSatisfy({
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "-_./=:,+@%".unicodeScalars.contains($0)
        })
    {
        return word
    }
    return "'" + word.replacingScalar("'", with: "'\\''") + "'"
}
