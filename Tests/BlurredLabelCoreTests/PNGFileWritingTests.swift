import BlurredLabelCore
import Foundation
import Testing

@Suite("PNGEncoder.write: a PNG file by the command line's output rules")
struct PNGFileWritingTests {
    @Test func writesAReadablePNGAndKeepsAReplacedFilesMode() throws {
        let folder = try Fixtures.temporaryFolder()
        let path = folder.appendingPathComponent("label.png").path
        let image = try BlurredLabel(text: "56.00 €").image
        try PNGEncoder().write(image, to: path)
        #expect(try PNGDecoder.decode(contentsOf: path) == image)
        // Replaced through a temporary file and a rename: the old file's mode stays.
        chmod(path, 0o640)
        try PNGEncoder().write(try Image(width: 2, height: 2, fill: .white), to: path)
        #expect(try PNGDecoder.decode(contentsOf: path).width == 2)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["label.png"])
    }

    @Test func aDeviceIsWrittenIntoNotReplaced() throws {
        try PNGEncoder().write(try Image(width: 2, height: 2, fill: .white), to: "/dev/null")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aMissingFolderIsAFileErrorNamingThePath() throws {
        #expect { try PNGEncoder().write(try Image(width: 1, height: 1), to: "/nonexistent-folder/x.png") } throws: {
            error in
            error is FileError && "\(error)".contains("/nonexistent-folder/x.png")
        }
    }
}
