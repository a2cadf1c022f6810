import BlurredLabelCore
import FoundationEssentials
import Testing
import XCTest

/// What an assertion concluded (also reported as a test issue when it is a failure).
public struct GoldenOutcome: Sendable {
    public let passed: Bool
    /// The finding, naming the golden and its test; for a failure, the pictures' paths, the
    /// report page's and the command that accepts the new picture follow on their own lines.
    public let message: String
    public let referenceWritten: Bool
    public let artifactPaths: [String]
}

/// Compares `image` with the reference `<folder>/<name>.png`, writing or rewriting references as
/// the record mode says, and reports a failure at the caller's line through Swift Testing when a
/// Swift Testing test is running and through XCTest otherwise.
///
/// Call it from the test itself (not a helper) under XCTest: the test's name comes from
/// `function`, for the report and the command that accepts the picture.
@discardableResult
public func assertGolden(
    _ image: Image,
    named name: String,
    options: GoldenOptions = GoldenOptions(),
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: Int = #column,
    function: String = #function
) -> GoldenOutcome {
    let origin = GoldenReporter.origin(fileID: fileID, line: line, function: function)
    let outcome = GoldenChecker(options: options, filePath: "\(file)", origin: origin).check(image, named: name)
    if !outcome.passed {
        GoldenReporter.report(outcome.message, fileID: fileID, file: file, line: line, column: column)
    }
    return outcome
}

/// The same for encoded PNG bytes.
@discardableResult
public func assertGolden(
    pngData: [UInt8],
    named name: String,
    options: GoldenOptions = GoldenOptions(),
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: Int = #column,
    function: String = #function
) -> GoldenOutcome {
    do {
        let image = try PNGDecoder.decode(pngData, source: "\(name) (actual)")
        return assertGolden(
            image,
            named: name,
            options: options,
            fileID: fileID,
            file: file,
            line: line,
            column: column,
            function: function
        )
    } catch {
        let origin = GoldenReporter.origin(fileID: fileID, line: line, function: function)
        let outcome = GoldenOutcome(
            passed: false,
            message: "\(origin.subject(name)): actual PNG data is unreadable: \(error)",
            referenceWritten: false,
            artifactPaths: []
        )
        GoldenReporter.report(outcome.message, fileID: fileID, file: file, line: line, column: column)
        return outcome
    }
}

/// A golden's failure as Swift Testing records it: an error whose description is the finding,
/// so the issue's headline is the finding itself.
struct GoldenFailure: Error, CustomStringConvertible {
    let description: String
}

/// Reports through whichever test framework is running.
enum GoldenReporter {
    static var swiftTestingIsRunning: Bool { Test.current != nil }

    /// The running test, for messages, the report and the accept command: Swift Testing names it;
    /// under XCTest it is the calling function in the module (from `#fileID`).
    static func origin(fileID: String, line: UInt, function: String = "") -> GoldenOrigin {
        let module = fileID.split(separator: "/").first.map(String.init)
        let fileName = fileID.split(separator: "/").last.map(String.init) ?? fileID
        let location = "\(fileName):\(line)"
        guard let test = Test.current else {
            // XCTest: `Module.Class/testName` is what `swift test --filter` matches.
            let method = function.split(separator: "(").first.map(String.init) ?? ""
            guard let module, method.hasPrefix("test") else {
                return GoldenOrigin(test: nil, filter: module.map(escaped), location: location)
            }
            let fileStem = fileName.hasSuffix(".swift") ? String(fileName.dropLast(6)) : fileName
            return GoldenOrigin(
                test: "\(method)()",
                filter: "\(escaped(module))\\.[^/]*/\(escaped(method))$",
                location: location,
                qualifier: folderName("\(fileStem).\(method)")
            )
        }
        // The ID reads `Module.Suite/test()/File.swift:12:6`; the filter drops the source location
        // and escapes what a regular expression would read.
        var components = test.id.description.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if components.count > 1, components.last?.range(of: #"\.swift:\d+:\d+$"#, options: .regularExpression) != nil {
            components.removeLast()
        }
        let id = components.joined(separator: "/")
        let readable = id.split(separator: ".", maxSplits: 1).last.map(String.init) ?? test.name
        return GoldenOrigin(
            test: readable,
            filter: escaped(id),
            location: location,
            qualifier: folderName(readable)
        )
    }

    /// `text` with what a regular expression would read escaped.
    static func escaped(_ text: String) -> String {
        String(text.flatMap { #"\.()[]{}*+?^$|"#.contains($0) ? "\\\($0)" : "\($0)" })
    }

    /// A test's name as one plain folder name: `Suite/test()` → `Suite.test`.
    static func folderName(_ test: String) -> String {
        var name = test.replacingOccurrences(of: "()", with: "")
        name = String(
            name.map { character -> Character in
                if character == "/" { return "." }
                return character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
                    ? character : "_"
            }
        )
        while name.hasPrefix(".") { name.removeFirst() }
        return name.isEmpty ? "test" : name
    }

    static func report(_ message: String, fileID: String, file: StaticString, line: UInt, column: Int) {
        if swiftTestingIsRunning {
            Issue.record(
                GoldenFailure(description: message),
                sourceLocation: SourceLocation(fileID: fileID, filePath: "\(file)", line: Int(line), column: column)
            )
        } else {
            XCTFail(message, file: file, line: line)
        }
    }
}
