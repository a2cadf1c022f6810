import Foundation
import Testing

@Suite("README pictures")
struct ReadmePicturesTests {
    /// The README's pictures that have a golden namesake are copies of it (scripts/fixtures/make-readme-pictures):
    /// when a golden is re-recorded, the picture people see must follow.
    @Test func readmePicturesAreTheGoldens() throws {
        var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path) {
            root.deleteLastPathComponent()
        }
        let pictures = root.appendingPathComponent("docs/pictures")
        let goldens = root.appendingPathComponent("Golden")
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: pictures.path) where name.hasSuffix(".png") {
            let golden = goldens.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: golden.path) else { continue }
            compared += 1
            #expect(
                try Data(contentsOf: pictures.appendingPathComponent(name)) == Data(contentsOf: golden),
                "docs/pictures/\(name) differs from Golden/\(name): run scripts/fixtures/make-readme-pictures"
            )
        }
        #expect(compared >= 10)
    }
}
