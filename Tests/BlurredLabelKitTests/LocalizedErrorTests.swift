import BlurredLabelKit
import Foundation
import Testing

@testable import BlurredLabelCore
@testable import GoldenImage

/// Apps show `error.localizedDescription`: for every error of the library it is the message, not
/// "The operation could not be completed".
@Suite("localizedDescription is the message")
struct LocalizedErrorTests {
    /// One error of each public error type, made by the library where that is easy.
    static func errors() throws -> [any Error] {
        func caught(_ body: () throws -> Void) -> any Error {
            do {
                try body()
                return CocoaError(.featureUnsupported)  // not expected: the check below fails on it
            } catch { return error }
        }
        return [
            caught { _ = try CanvasSize(width: 0, height: 1) },
            caught { _ = try SecretFormat("no digits") },
            caught { _ = try GaussianBlur(sigma: -1) },
            RedactionError.badBlock(index: 0, block: 0),
            caught { try TextStyle(size: -1).validate() },
            caught { _ = try FontLibrary.file("/nonexistent/font.ttf") },
            caught { _ = try FileIO.read("/nonexistent/file") },
            caught { _ = try Color(parsing: "not-a-colour") },
            caught { _ = try PNGDecoder.decode(Array("not a png".utf8), source: "x") },
            caught { _ = try Image(width: -1, height: 1) },
            caught { _ = try PictureFormat.webp().encode(Image(width: 0, height: 1)) },
            ImageComparison.SizeMismatch(expected: (1, 1), actual: (2, 2)),
            caught {
                _ = try ImageComparison(threshold: 2).compare(
                    expected: Image(width: 1, height: 1),
                    actual: Image(width: 1, height: 1)
                )
            },
            DiffPictureTooLarge(what: "the diff", width: 1 << 20, height: 1 << 20),
            ComparisonReport.ReportError.cannotLock(path: "/x", errno: EACCES),
            GoldenSettingError(setting: "threshold", value: "2.0", accepted: "0 to 1"),
        ]
    }

    @Test func everyErrorTypesLocalizedDescriptionIsItsMessage() throws {
        for error in try Self.errors() {
            let message = String(describing: error)
            #expect(!(error is CocoaError), "an error was expected: \(message)")
            #expect(error.localizedDescription == message)
            #expect(!message.contains("could not be completed"))
        }
    }

    /// The list above holds every public error type of the library (a new one must be added), and
    /// some the package's own targets share.
    @Test func everyPublicErrorTypeIsListed() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources")
        var declared: Set<String> = []
        for folder in ["BlurredLabelCore", "BlurredLabelKit", "GoldenImage"] {
            let base = root.appendingPathComponent(folder)
            for case let file as String in FileManager.default.enumerator(atPath: base.path) ?? .init()
            where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: base.appendingPathComponent(file).path, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(whereSeparator: { " :,{".contains($0) })
                    guard words.count > 3, words[0] == "public", ["enum", "struct", "class"].contains(words[1]),
                        words.dropFirst(3).contains("Error")
                    else { continue }
                    declared.insert(String(words[2]))
                }
            }
        }
        let listed = Set(try Self.errors().map { String(describing: type(of: $0)) })
        #expect(declared.isSubset(of: listed), "not listed: \(declared.subtracting(listed).sorted())")
    }
}
