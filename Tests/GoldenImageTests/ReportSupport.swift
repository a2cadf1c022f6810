import BlurredLabelCore
import Foundation
import Testing

@testable import GoldenImage

/// Names that try to break the page: markup, quotes, an ampersand.
let awkwardNames = ["price-tag", "<script>alert(1)</script>", "a \"quoted\" & 'odd' <b>name</b>"]

/// Makes `names.count` golden failures at once (one task each) into `artifacts`, as a test run
/// with parallel tests does, and returns their outcomes.
func makeFailures(_ names: [String], artifacts: URL) async throws -> [GoldenOutcome] {
    let golden = try folder()
    let origin = GoldenReporter.origin(fileID: #fileID, line: #line)
    return try await withThrowingTaskGroup(of: GoldenOutcome.self) { group in
        for (index, name) in names.enumerated() {
            group.addTask {
                let record = GoldenOptions(folder: golden.path, record: .missing, artifacts: artifacts.path)
                _ = GoldenChecker(options: record, filePath: #filePath, origin: origin).check(
                    try square(at: 3),
                    named: name
                )
                let check = GoldenOptions(folder: golden.path, record: .never, artifacts: artifacts.path)
                return GoldenChecker(options: check, filePath: #filePath, origin: origin).check(
                    try square(at: 8 + Double(index) * 0.5),
                    named: name
                )
            }
        }
        return try await group.reduce(into: []) { $0.append($1) }
    }
}
