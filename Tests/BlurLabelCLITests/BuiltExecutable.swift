import Foundation
import Testing

/// The `blurlabel` executable that `swift build --build-tests` (and so `swift test`) builds into
/// the same folder as the test bundle. Tests that run it fail when it is missing, never skip: a
/// skipped test would let a build pass that never ran it.
enum BuiltExecutable {
    /// Where it is built: beside the test bundle.
    static var expectedPath: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("blurlabel")
            .path
    }

    /// Its path; records an issue and throws when it is not there.
    static func path(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let path = expectedPath
        return try #require(
            FileManager.default.isExecutableFile(atPath: path) ? path : nil,
            "no blurlabel at \(path): build it with the tests (swift build --build-tests)",
            sourceLocation: sourceLocation
        )
    }
}
