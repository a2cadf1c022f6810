import BlurLabelCodecs
import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelCLI

/// `-o x.webp`, `-o x.avif`, `--output-format`, `--quality`, as a user types them, and what is refused.
@Suite("Output formats on the command line")
struct OutputFormatCommandTests {
    /// The file's first 12 bytes say its format: RIFF....WEBP, ....ftypavif, or PNG's signature.
    static func kind(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if bytes.count > 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            return "webp"
        }
        if bytes.count > 12, bytes[4..<12].elementsEqual("ftypavif".utf8) { return "avif" }
        return "unknown"
    }

    @Test("render writes the format -o's extension names, 99% of the values within 2 levels")
    func renderByExtension() throws {
        let folder = try temporaryFolder()
        #expect(run(["render", "56.00 €", "-o", folder + "/tag.png"]).status == 0)
        let png = try PNGDecoder.decode(try FileIO.read(folder + "/tag.png"))
        for name in ["webp", "avif", "WEBP"] {
            let result = run(["render", "56.00 €", "-o", folder + "/tag.\(name)"])
            #expect(result.status == 0, "\(result.err)")
            let bytes = try FileIO.read(folder + "/tag.\(name)")
            #expect(Self.kind(bytes) == name.lowercased())
            let decoded =
                name.lowercased() == "webp"
                ? try WebPAVIFDecoder.decodeWebP(bytes) : try WebPAVIFDecoder.decodeAVIF(bytes)
            #expect(decoded.width == png.width && decoded.height == png.height)
            let far = zip(decoded.pixels, png.pixels).filter { abs(Int($0) - Int($1)) > 2 }.count
            #expect(Double(far) <= 0.01 * Double(png.pixels.count), "\(name): \(far) values more than 2 apart")
        }
    }

    @Test("--output-format picks the format for standard output and names without an extension")
    func outputFormatForStandardOutput() throws {
        let folder = try temporaryFolder()
        let asked = GivenOptions(["output-format": .text("webp")])
        #expect(try OutputEncoding.resolve(asked, path: "-").format == .webp())
        #expect(try OutputEncoding.resolve(GivenOptions(), path: "-").format == .png)
        #expect(run(["render", "9.99", "-o", folder + "/label", "--output-format", "avif"]).status == 0)
        #expect(Self.kind(try FileIO.read(folder + "/label")) == "avif")
        #expect(run(["render", "9.99", "-o", folder + "/plain"]).status == 0)
        #expect(Self.kind(try FileIO.read(folder + "/plain")) == "png")
    }

    @Test("--quality changes the file; lossless gives every pixel back")
    func qualityOption() throws {
        let folder = try temporaryFolder()
        let base = ["render", "SALE 19.99 €", "--color", "#c0392b", "--background", "#fdebd0"]
        #expect(run(base + ["-o", folder + "/ref.png"]).status == 0)
        #expect(run(base + ["-o", folder + "/low.webp", "--quality", "10"]).status == 0)
        #expect(run(base + ["-o", folder + "/high.webp", "--quality", "95"]).status == 0)
        #expect(run(base + ["-o", folder + "/exact.webp", "--quality", "lossless"]).status == 0)
        #expect(run(base + ["-o", folder + "/exact.avif", "--quality", "lossless"]).status == 0)
        #expect(try FileIO.read(folder + "/low.webp").count < FileIO.read(folder + "/high.webp").count)
        let png = try PNGDecoder.decode(try FileIO.read(folder + "/ref.png"))
        #expect(try WebPAVIFDecoder.decodeWebP(try FileIO.read(folder + "/exact.webp")) == png)
        #expect(try WebPAVIFDecoder.decodeAVIF(try FileIO.read(folder + "/exact.avif")) == png)
    }

    @Test("contradictions and options for the other format are refused with one line, nothing written")
    func refusals() throws {
        let folder = try temporaryFolder()
        let cases: [([String], String)] = [
            (["-o", folder + "/a.png", "--quality", "80"], "--quality is for WebP and AVIF; a PNG is always lossless"),
            (
                ["-o", folder + "/a.webp", "--compression", "9"],
                "--compression is for PNG; a webp file takes --quality"
            ),
            (["-o", folder + "/a.webp", "--output-format", "avif"], "names a webp file but --output-format is avif"),
            (
                ["-o", folder + "/a.avif", "--quality", "101"],
                "--quality must be from 0 to 100, got 101 (or 'lossless')"
            ),
            (["-o", folder + "/a.avif", "--quality", "best"], "(or 'lossless')"),
            (
                ["-o", folder + "/a", "--output-format", "jpeg"],
                "--output-format must be png, webp or avif, got 'jpeg'"
            ),
        ]
        for (arguments, message) in cases {
            let result = run(["render", "1.00"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.err.contains(message) && result.err.split(separator: "\n").count == 1, "\(result.err)")
        }
        #expect(files(in: folder).isEmpty)
    }

    @Test("blur and redact write WebP and AVIF too")
    func blurAndRedact() throws {
        let folder = try temporaryFolder()
        #expect(run(["render", "56.00 €", "--radius", "0", "-o", folder + "/in.png"]).status == 0)
        #expect(run(["blur", folder + "/in.png", "--radius", "3", "-o", folder + "/b.webp"]).status == 0)
        #expect(
            run(["redact", folder + "/in.png", "--rect", "2,2,20,20", "-o", folder + "/r.avif", "--quality", "70"])
                .status == 0
        )
        #expect(Self.kind(try FileIO.read(folder + "/b.webp")) == "webp")
        #expect(Self.kind(try FileIO.read(folder + "/r.avif")) == "avif")
    }

    @Test("a manifest line's output picks its format; quality is a line option; PNG refuses it")
    func batchLines() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(
            [
                #"{"text":"1.99 €","output":"a.webp"}"#,
                #"{"text":"2.99 €","output":"b.avif","quality":40}"#,
                #"{"text":"3.99 €","output":"c.png"}"#,
                #"{"text":"4.99 €","output":"d.png","quality":50}"#,
                #"{"text":"5.99 €","output":"e.webp","quality":"lossless"}"#,
            ],
            in: folder
        )
        let result = run(["batch", manifest, "--out", folder + "/out"])
        #expect(result.status != 0)
        #expect(result.err.contains("--quality is for WebP and AVIF"))
        #expect(files(in: folder + "/out") == ["a.webp", "b.avif", "c.png", "e.webp"])
        #expect(Self.kind(try FileIO.read(folder + "/out/a.webp")) == "webp")
        #expect(Self.kind(try FileIO.read(folder + "/out/b.avif")) == "avif")
        #expect(Self.kind(try FileIO.read(folder + "/out/c.png")) == "png")
    }
}

extension OutputFormatCommandTests {
    @Test("animate refuses a .webp or .avif name instead of writing an APNG under it")
    func animateStaysPNG() throws {
        let folder = try temporaryFolder()
        for name in ["a.webp", "a.avif"] {
            let result = run(["animate", "1.00", "--steps", "2", "-o", folder + "/" + name])
            #expect(result.status == 2 && result.err.contains("animate writes an animated PNG"), "\(result.err)")
        }
        #expect(files(in: folder).isEmpty)
    }
}
