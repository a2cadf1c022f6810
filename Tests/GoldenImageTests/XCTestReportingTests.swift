import BlurredLabelCore
import Foundation
import XCTest

@testable import GoldenImage

/// Under XCTest (no Swift Testing test running), failures arrive through XCTFail.
final class XCTestReportingTests: XCTestCase {
    private var recorded: [String] = []

    override func recordFailure(
        withDescription description: String,
        inFile filePath: String,
        atLine lineNumber: Int,
        expected: Bool
    ) {
        recorded.append(description)
    }

    func testFailureIsReportedThroughXCTFail() throws {
        XCTAssertFalse(GoldenReporter.swiftTestingIsRunning)
        let golden = FileManager.default.temporaryDirectory.appendingPathComponent("golden-xct-\(UUID().uuidString)")
        let outcome = assertGolden(
            try Image(width: 2, height: 2, fill: .white),
            named: "x",
            options: GoldenOptions(folder: golden.path, record: .never, artifacts: golden.path + "-artifacts")
        )
        XCTAssertFalse(outcome.passed)
        XCTAssertEqual(recorded.count, 1)
        // The test's name is in the message, and the command that accepts the picture selects
        // this one test, not the module.
        XCTAssertTrue(
            recorded.first?.hasPrefix("golden x (testFailureIsReportedThroughXCTFail()): no reference") ?? false
        )
        XCTAssertTrue(
            recorded.first?.contains(
                #"swift test --filter 'GoldenImageTests\.[^/]*/testFailureIsReportedThroughXCTFail$'"#
            ) ?? false,
            recorded.first ?? ""
        )
    }
}
