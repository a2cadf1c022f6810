import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelCLI

/// `redact` is secure unless asked otherwise, covers the antialiased edge of a box drawn tight to
/// the text, refuses settings that would change nothing, and refuses an animated PNG.
@Suite("redact: secure by default, tight boxes, no silent no-ops")
struct RedactDefaultsTests {
    /// `text` drawn sharp at `size` px on a fixed white canvas (the same for every text).
    func card(_ text: String, size: Double, in folder: String, name: String) -> String {
        let path = "\(folder)/\(name).png"
        let result = run([
            "render", text, "--radius", "0", "--size", String(size), "--no-system-fonts", "--features", "tnum",
            "--canvas", "260x40", "-o", path,
        ])
        #expect(result.status == 0, "\(result.err)")
        return path
    }

    /// The box of every pixel that is not white, in any of `paths`.
    func inkBox(_ paths: [String]) throws -> (x: Int, y: Int, width: Int, height: Int) {
        var (x0, y0, x1, y1) = (Int.max, Int.max, Int.min, Int.min)
        for path in paths {
            let image = try PNGDecoder.decode(contentsOf: path)
            for y in 0..<image.height {
                for x in 0..<image.width where image.pixels[(y * image.width + x) * 4] != 255 {
                    (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x + 1), max(y1, y + 1))
                }
            }
        }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    @Test("a box 1 px too tight over two card numbers gives identical files", arguments: [12.0, 20])
    func tightBoxes(size: Double) throws {
        let folder = try temporaryFolder()
        let cards = [
            card("4111 1111 1111 1111", size: size, in: folder, name: "a"),
            card("5500 0049 8765 4321", size: size, in: folder, name: "b"),
        ]
        let ink = try inkBox(cards)
        for (inset, name) in [((1, 0, 0, 0), "short"), ((1, 1, 1, 1), "inset")] {
            let box =
                "\(ink.x + inset.0),\(ink.y + inset.1),\(ink.width - inset.0 - inset.2),\(ink.height - inset.1 - inset.3)"
            for margin in ["2", "0"] {
                var outputs: [[UInt8]] = []
                for (index, path) in cards.enumerated() {
                    let out = "\(folder)/\(name)-\(margin)-\(index).png"
                    let result = run(["redact", path, "--rect", box, "--margin", margin, "-o", out])
                    #expect(result.status == 0, "\(result.err)")
                    outputs.append(try FileIO.read(out))
                }
                // The default margin covers the ink left outside; without it, the fringe shows.
                if margin == "2" {
                    #expect(outputs[0] == outputs[1], "\(size) px, box \(name) by 1 px")
                } else {
                    #expect(outputs[0] != outputs[1], "\(size) px, box \(name) by 1 px, no margin")
                }
            }
        }
    }

    @Test func withoutAModeRegionsAreSecure() throws {
        let folder = try temporaryFolder()
        let cards = [
            card("4111 1111 1111 1111", size: 16, in: folder, name: "a"),
            card("5500 0049 8765 4321", size: 16, in: folder, name: "b"),
        ]
        let ink = try inkBox(cards)
        let box = "\(ink.x),\(ink.y),\(ink.width),\(ink.height)"
        var outputs: [[UInt8]] = []
        for (index, path) in cards.enumerated() {
            let result = run(["redact", path, "--rect", box, "-o", "\(folder)/r\(index).png"])
            #expect(result.status == 0 && result.err.isEmpty, "\(result.err)")
            outputs.append(try FileIO.read("\(folder)/r\(index).png"))
        }
        #expect(outputs[0] == outputs[1])
        // Blur stays on request, with the warning, and shows the difference.
        let blurred = run(["redact", cards[0], "--rect", box, "--mode", "blur", "-o", folder + "/blur.png"])
        #expect(blurred.status == 0 && blurred.err.contains("cosmetic"), "\(blurred.err)")
        #expect(try FileIO.read(folder + "/blur.png") != outputs[0])
    }

    @Test(
        "settings that would change nothing are refused",
        arguments: [
            (["--mode", "fill", "--color", "transparent"], "not opaque"),
            (["--mode", "fill", "--color", "#00000040"], "not opaque"),
            (["--mode", "blur", "--radius", "0"], "sigma 0"),
            (["--mode", "pixelate", "--block", "1"], "--block must be from 2"),
        ]
    )
    func noOpsAreRefused(arguments: [String], message: String) throws {
        let folder = try temporaryFolder()
        let input = card("4111 1111 1111 1111", size: 16, in: folder, name: "in")
        let result = run(["redact", input, "--rect", "0,0,100,30", "-o", folder + "/out.png"] + arguments)
        #expect(result.status == 2 && result.err.contains(message), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
    }

    @Test func animatedPNGsAreRefused() throws {
        let folder = try temporaryFolder()
        let animation = folder + "/anim.png"
        #expect(run(["animate", "56.00 €", "--steps", "3", "-o", animation]).status == 0)
        #expect(PNGDecoder.isAnimated(try FileIO.read(animation)))
        for arguments in [
            ["redact", animation, "--rect", "0,0,10,10", "-o", folder + "/r.png"],
            ["blur", animation, "--radius", "4", "-o", folder + "/b.png"],
        ] {
            let result = run(arguments)
            #expect(result.status == 2 && result.err.contains("animated PNG"), "\(result.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/r.png"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/b.png"))
        // A still picture is not mistaken for one.
        let still = card("1", size: 16, in: folder, name: "still")
        #expect(!PNGDecoder.isAnimated(try FileIO.read(still)))
    }
}
