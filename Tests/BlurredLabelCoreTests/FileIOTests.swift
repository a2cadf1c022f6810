import Foundation
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

@Suite("Atomic writes")
struct FileIOTests {
    @Test func writesAndReplaces() throws {
        let folder = try Fixtures.temporaryFolder()
        let path = folder.appendingPathComponent("out.bin").path
        try FileIO.write([1, 2, 3], to: path)
        try FileIO.write([4, 5], to: path)
        #expect(try FileIO.read(path) == [4, 5])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.bin"])
    }

    @Test func aFailedWriteLeavesTheOldFileAndNoTemporary() throws {
        let folder = try Fixtures.temporaryFolder()
        let path = folder.appendingPathComponent("keep.png").path
        try FileIO.write([9, 9, 9], to: path)
        var calls = 0
        #expect(throws: FileError.self) {
            try FileIO.writeAtomically(Array(repeating: 7, count: 100_000), to: path) { fd, pointer, count in
                calls += 1
                if calls == 1 { return write(fd, pointer, min(count, 1000)) }  // part of it...
                errno = ENOSPC  // ...then the disk is full
                return -1
            }
        }
        #expect(try FileIO.read(path) == [9, 9, 9])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["keep.png"])
    }

    @Test func aMissingFolderIsAClearError() {
        #expect { try FileIO.write([1], to: "/nonexistent-folder/x.png") } throws: { error in
            "\(error)".contains("/nonexistent-folder/x.png")
        }
    }
}
