import Foundation
import Testing

@testable import BlurredLabelCore

@Suite("Errors in words")
struct ErrorTextTests {
    /// The package's DejaVu Sans file (Fonts/DejaVuSans.ttf), as bytes.
    static var dejaVu: [UInt8] {
        get throws {
            try FileIO.read(
                URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                    "../../Fonts/DejaVuSans.ttf"
                ).path
            )
        }
    }

    @Test("a cut-short or damaged font file is described, not numbered", arguments: [12, 200, 5000])
    func truncatedFont(length: Int) throws {
        let bytes = Array(try Self.dejaVu.prefix(length))
        #expect { try Font(bytes: bytes, name: "cut.ttf") } throws: { error in
            let text = "\(error)"
            // Words first; FreeType's own number only in parentheses after them.
            return text.hasPrefix("cut.ttf is not a usable font: ") && !text.contains(": FreeType error")
                && (text.contains("cut short") || text.contains("too short or damaged"))
        }
    }

    @Test func notAFontAtAll() {
        #expect { try Font(bytes: Array("hello, not a font".utf8), name: "x.txt") } throws: { error in
            "\(error)".hasPrefix("x.txt is not a usable font: too short or damaged to be a font")
        }
    }

    @Test func folderErrorsNameTheComponentAndSayWhy() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("folders-\(UUID().uuidString)").path
        try Folders.create(base + "/a/b")
        #expect(Folders.isFolder(base + "/a/b"))
        try Folders.create(base + "/a/b")  // exists: nothing to do
        try FileIO.write(Array("x".utf8), to: base + "/file")
        #expect(
            throws: FileError.cannotWrite(
                path: base + "/file",
                reason: "a file of that name is in the way of the folder"
            )
        ) {
            try Folders.create(base + "/file/sub")
        }
        #expect(Folders.names(in: base) == ["a", "file"])
        #expect(Folders.names(in: base + "/missing") == nil)
        #expect(Folders.removeFile(base + "/file") && !Folders.exists(base + "/file"))
        #expect("\(FileError.cannotRead(path: "p", reason: "r"))" == "cannot read p: r")
    }
}
