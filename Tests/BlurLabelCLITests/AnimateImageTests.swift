import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelCLI

/// A premultiplied RGBA picture with opaque stripes, noise of any alpha and a transparent-to-opaque
/// ramp, written as a PNG at `path`.
func writeTranslucentPicture(_ path: String, width: Int, height: Int) throws -> Image {
    var state: UInt64 = 0x31
    func next() -> UInt8 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
    }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            let alpha: UInt8 = x < width / 3 ? 255 : x < 2 * width / 3 ? next() : UInt8(255 * y / max(1, height - 1))
            pixels[i + 3] = alpha
            for c in 0..<3 {
                let straight: UInt8 = (x / 3 + y / 2 + c) % 2 == 0 ? 240 : next()
                pixels[i + c] = UInt8((Int(straight) * Int(alpha) + 127) / 255)
            }
        }
    }
    // Through the encoder and back, so the picture is exactly what the file holds.
    try FileIO.write(
        try PNGEncoder().encode(try Image(width: width, height: height, premultipliedRGBA: pixels)),
        to: path
    )
    return try PNGDecoder.decode(contentsOf: path)
}

@Suite("animate --image and --tint")
struct AnimateImageTests {
    /// Frame i is what `blur IN.png --radius σᵢ` writes (σᵢ = R·i/N), frame 0 the picture.
    @Test(arguments: [(45, 31), (1, 40), (40, 1), (130, 90)])
    func framesAreTheDirectBlur(width: Int, height: Int) throws {
        let folder = try temporaryFolder()
        let picture = try writeTranslucentPicture(folder + "/in.png", width: width, height: height)
        let steps = 5
        let animated = run([
            "animate", "--image", folder + "/in.png", "--steps", "\(steps)", "--max-radius", "7.5", "--frames",
            folder + "/f",
        ])
        #expect(animated.status == 0, "\(animated.err)")
        #expect(try PNGDecoder.decode(contentsOf: folder + "/f/frame-000.png") == picture)
        for i in 1...steps {
            let sigma = 7.5 * Double(i) / Double(steps)
            #expect(run(["blur", folder + "/in.png", "--radius", "\(sigma)", "-o", folder + "/b\(i).png"]).status == 0)
            let frame = try PNGDecoder.decode(contentsOf: folder + "/f/frame-00\(i).png")
            let blurred = try PNGDecoder.decode(contentsOf: folder + "/b\(i).png")
            let largest = zip(frame.pixels, blurred.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(frame.width == width && frame.height == height && largest <= 1, "frame \(i): \(largest)")
        }
    }

    /// The APNG holds the same frames in the order asked for; a tint veils all but the picture.
    @Test func apngHoldsTheFramesInOrder() throws {
        let folder = try temporaryFolder()
        let picture = try writeTranslucentPicture(folder + "/in.png", width: 50, height: 20)
        let tint = "#0000004d"
        #expect(
            run([
                "animate", "--image", folder + "/in.png", "--steps", "2", "--max-radius", "4", "--bounce", "--tint",
                tint, "-o", folder + "/a.png",
            ]).status == 0
        )
        let file = try FileIO.read(folder + "/a.png")
        let fcTL = Array("fcTL".utf8)
        #expect((0..<(file.count - 4)).filter { file[$0..<($0 + 4)].elementsEqual(fcTL) }.count == 4)
        #expect(
            run([
                "animate", "--image", folder + "/in.png", "--steps", "2", "--max-radius", "4", "--tint", tint,
                "--frames", folder + "/f",
            ])
            .status == 0
        )
        #expect(try PNGDecoder.decode(contentsOf: folder + "/f/frame-000.png") == picture)
        let veiled = try GaussianBlur(sigma: 4, tint: try Color(parsing: tint)).apply(to: picture)
        #expect(try PNGDecoder.decode(contentsOf: folder + "/f/frame-002.png") == veiled)
    }

    /// `blur --tint` over an opaque picture is blur·(1 − a) + colour·a, within one level.
    @Test(arguments: ["#ffffff4d", "#0000004d"])
    func blurTintMatchesTheFormula(tint text: String) throws {
        let folder = try temporaryFolder()
        let picture = try writeTranslucentPicture(folder + "/in.png", width: 40, height: 30).flattened(over: .white)
        try FileIO.write(try PNGEncoder().encode(picture), to: folder + "/opaque.png")
        #expect(run(["blur", folder + "/opaque.png", "-r", "3", "-o", folder + "/plain.png"]).status == 0)
        #expect(
            run(["blur", folder + "/opaque.png", "-r", "3", "--tint", text, "-o", folder + "/tinted.png"]).status == 0
        )
        let plain = try PNGDecoder.decode(contentsOf: folder + "/plain.png")
        let tinted = try PNGDecoder.decode(contentsOf: folder + "/tinted.png")
        let tint = try Color(parsing: text)
        let a = Double(tint.alpha) / 255
        let colour = [tint.red, tint.green, tint.blue].map(Double.init)
        var largest = 0.0
        for p in 0..<(40 * 30) {
            for c in 0..<3 {
                let exact = Double(plain.pixels[p * 4 + c]) * (1 - a) + colour[c] * a
                largest = max(largest, abs(Double(tinted.pixels[p * 4 + c]) - exact))
            }
        }
        #expect(largest <= 1)
    }

    @Test func redactTintsBlurRegions() throws {
        let folder = try temporaryFolder()
        let picture = try writeTranslucentPicture(folder + "/in.png", width: 40, height: 30)
        #expect(
            run(["redact", folder + "/in.png", "--rect", "5,5,20,10:blur", "-o", folder + "/plain.png"]).status == 0
        )
        #expect(
            run([
                "redact", folder + "/in.png", "--rect", "5,5,20,10:blur", "--tint", "#ffffff4d", "-o",
                folder + "/t.png",
            ])
            .status == 0
        )
        let plain = try PNGDecoder.decode(contentsOf: folder + "/plain.png")
        let tinted = try PNGDecoder.decode(contentsOf: folder + "/t.png")
        let veil = Veil(Color(red: 255, green: 255, blue: 255, alpha: 0x4d))
        let expected = veil.applied(to: plain)
        for y in 0..<30 {
            for x in 0..<40 {
                let inside = x >= 5 && x < 25 && y >= 5 && y < 15
                #expect(tinted[x, y] == (inside ? expected[x, y] : picture[x, y]))
            }
        }
    }

    @Test(
        "bad input: one line, exit 2, nothing written",
        arguments: [
            (["animate", "--image", "missing.png", "-o", "x.png"], "missing.png"),
            (["animate", "--image", "broken.png", "--frames", "dir"], "not a PNG"),
            (["animate", "--image", "in.png", "--max-pixels", "100", "-o", "x.png"], "100"),
            (["animate", "56", "--image", "in.png", "-o", "x.png"], "give a TEXT or --image IN.png, not both"),
            (["animate", "--image", "in.png", "--size", "20", "-o", "x.png"], "--size is a label option"),
            (["animate", "-o", "x.png"], "give a TEXT to animate, or --image IN.png"),
            (["animate", "56", "--tint", "#fff", "-o", "x.png"], "--tint applies to --image"),
            (["animate", "--image", "in.png", "--tint", "#ggg", "--frames", "dir"], "--tint: bad hex colour"),
            (["blur", "in.png", "--tint", "mauvish", "-o", "x.png"], "--tint: unknown colour"),
            (["blur", "broken.png", "--tint", "#fff", "-o", "x.png"], "not a PNG"),
            (["redact", "in.png", "--rect", "1,1,4,4", "--tint", "#12345", "-o", "x.png"], "--tint: bad hex colour"),
        ]
    )
    func badInput(arguments: [String], message: String) throws {
        let folder = try temporaryFolder()
        _ = try writeTranslucentPicture(folder + "/in.png", width: 20, height: 10)
        try FileIO.write(Array("not a png at all".utf8), to: folder + "/broken.png")
        let names = ["missing.png", "broken.png", "in.png", "x.png", "dir"]
        let result = run(arguments.map { names.contains($0) ? folder + "/" + $0 : $0 })
        #expect(result.status == 2 && result.err.contains(message), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.png"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/dir"))
    }

    /// Frames stream: a picture's 101 frames, written as an APNG, never sit in memory together
    /// (all of them would be 26 MB more than the process's 17 MB; streamed it peaks at about 18,
    /// as 11 frames do).
    @Test func framesOfAPictureStream() throws {
        let folder = try temporaryFolder()
        _ = try writeTranslucentPicture(folder + "/in.png", width: 256, height: 256)
        func animate(steps: Int, to name: String) throws -> (status: Int32, peakMB: Double, cpuSeconds: Double) {
            try runChild([
                "animate", "--image", folder + "/in.png", "--steps", "\(steps)", "--max-radius", "1", "--compression",
                "0", "-o", folder + "/" + name,
            ])
        }
        let few = try animate(steps: 10, to: "few.png")
        let many = try animate(steps: 100, to: "many.png")
        #expect(few.status == 0 && many.status == 0)
        // Holding the 90 frames more would add 90 × 256 KB ≈ 23 MB; streamed, both runs peak alike.
        // Compared with each other, not with a fixed figure: ThreadSanitizer's shadow memory
        // raises both (a 101-frame run peaked at 47 MB under it, 18 MB without).
        #expect(many.peakMB - few.peakMB < 8, "peak \(many.peakMB) MB for 101 frames, \(few.peakMB) MB for 11")
        #expect(try FileIO.read(folder + "/many.png", limit: 1 << 30).count > 101 * 256 * 256 * 4)
    }
}
