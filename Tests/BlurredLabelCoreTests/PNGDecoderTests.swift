import Foundation
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

@Suite("PNG decoding")
struct PNGDecoderTests {
    static let fixtures: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.pngFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }.sorted()
    }()

    @Test(
        "every colour type and bit depth, interlaced or not, into premultiplied RGBA8",
        arguments: fixtures
    )
    func decodesFixture(name: String) throws {
        let decoded = try PNGDecoder.decode(try Fixtures.bytes(name + ".png"), source: name)
        let expected = try Fixtures.bytes(name + ".rgba")
        #expect(decoded.width == 7 && decoded.height == 5)
        #expect(decoded.pixels == expected, "\(name): pixels differ")
    }

    @Test func fixturesCoverEveryKind() {
        let names = Set(Self.fixtures)
        for required in [
            "grey1", "grey2", "grey4", "grey8", "grey16", "greyalpha8", "greyalpha16", "palette8",
            "palette4-trns", "rgb8", "rgb16", "rgba8", "rgba16", "grey8-adam7", "rgba8-adam7",
        ] {
            #expect(names.contains(required), "missing fixture \(required)")
        }
    }

    @Test func reportsTheFileColourType() throws {
        let (_, header) = try PNGDecoder.decodeWithHeader(try Fixtures.bytes("grey4-adam7.png"))
        #expect(header == PNGDecoder.Header(colorType: 0, bitDepth: 4, interlaced: true))
        #expect(header.isGrey)
    }

    /// A file without an alpha channel skips premultiplying, but not one whose tRNS chunk makes a
    /// colour transparent: an RGB file keyed on its first pixel's colour decodes that colour to
    /// transparent black, the rest as the plain RGB file does (alpha 255).
    @Test func anRGBFileWithTRNSIsStillPremultiplied() throws {
        let plain = try Fixtures.bytes("rgb8.png")
        let decoded = try PNGDecoder.decode(plain)
        #expect(PNGDecoder.peek(plain)?.noAlphaChannel == true)
        let (r, g, b, _) = decoded[0, 0]
        let key = pngChunk("tRNS", [0, r, 0, g, 0, b])
        let ihdrEnd = 8 + 12 + 13  // signature, then IHDR's length, type, 13 bytes and CRC
        let keyed = try PNGDecoder.decode(Array(plain[..<ihdrEnd]) + key + Array(plain[ihdrEnd...]))
        var keyedPixels = 0
        for y in 0..<decoded.height {
            for x in 0..<decoded.width {
                let original = decoded[x, y]
                if (original.r, original.g, original.b) == (r, g, b) {
                    keyedPixels += 1
                    #expect(keyed[x, y] == (0, 0, 0, 0))
                } else {
                    #expect(keyed[x, y] == original)
                }
            }
        }
        #expect(keyedPixels >= 1 && keyedPixels < decoded.width * decoded.height)
    }

    // MARK: bad input

    @Test func notAPNG() {
        #expect(throws: PNGError.notPNG(source: "x.txt")) {
            try PNGDecoder.decode(Array("hello, world, this is text".utf8), source: "x.txt")
        }
    }

    @Test func emptyFile() {
        #expect(throws: PNGError.notPNG(source: "e")) { try PNGDecoder.decode([], source: "e") }
    }

    @Test("truncated anywhere after the signature", arguments: [9, 20, 33, 50, 70])
    func truncated(length: Int) throws {
        let full = try Fixtures.bytes("rgb8.png")
        #expect(throws: PNGError.self) { try PNGDecoder.decode(Array(full.prefix(length)), source: "t.png") }
        do { _ = try PNGDecoder.decode(Array(full.prefix(length)), source: "t.png") } catch let error as PNGError {
            #expect(error.description.hasPrefix("t.png:"), "\(error)")
        }
    }

    @Test func truncatedIsNamedAsSuch() throws {
        let full = try Fixtures.bytes("rgb8.png")
        #expect(throws: PNGError.truncated(source: "t.png")) {
            try PNGDecoder.decode(Array(full.dropLast(20)), source: "t.png")
        }
    }

    @Test("a stored CRC that does not match its chunk", arguments: ["IHDR", "IDAT", "IEND"])
    func badCRC(chunk: String) throws {
        var bytes = try Fixtures.bytes("rgb8.png")
        let start = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(chunk.utf8) })
        let length =
            Int(bytes[start - 4]) << 24 | Int(bytes[start - 3]) << 16 | Int(bytes[start - 2]) << 8
            | Int(bytes[start - 1])
        bytes[start + 4 + length] ^= 0x55  // first byte of the chunk's CRC
        #expect {
            try PNGDecoder.decode(bytes, source: "crc.png")
        } throws: { error in
            guard case let PNGError.corrupt(source, reason) = error else { return false }
            return source == "crc.png" && reason.contains("CRC")
        }
    }

    static func header(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr =
            withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init) + [
                8, 2, 0, 0, 0,
            ]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", ihdr)
    }

    @Test func zeroDimensions() {
        let bytes = Self.header(width: 0, height: 10) + pngChunk("IEND", [])
        #expect { try PNGDecoder.decode(bytes, source: "zero.png") } throws: { error in
            guard case PNGError.corrupt("zero.png", _) = error else { return false }
            return true
        }
    }

    @Test func absurdDimensionsAreRefusedBeforeDecoding() {
        let bytes = Self.header(width: 100_000, height: 100_000) + pngChunk("IEND", [])
        #expect(
            throws: PNGError.tooLarge(
                source: "big.png",
                width: 100_000,
                height: 100_000,
                limit: PNGDecoder.defaultMaxPixels
            )
        ) {
            try PNGDecoder.decode(bytes, source: "big.png")
        }
    }

    @Test func decompressionBombLimitIsSettable() throws {
        let image = try Image(width: 300, height: 300, fill: .white)
        let bytes = try PNGEncoder().encode(image)  // 90,000 pixels in a few hundred bytes
        #expect(bytes.count < 2000)
        #expect(throws: PNGError.tooLarge(source: "bomb.png", width: 300, height: 300, limit: 50_000)) {
            try PNGDecoder.decode(bytes, source: "bomb.png", maxPixels: 50_000)
        }
        #expect(try PNGDecoder.decode(bytes, maxPixels: 90_000) == image)
    }

    @Test func missingFileNamesThePath() {
        #expect(throws: FileError.cannotRead(path: "/nonexistent/x.png", reason: "no such file")) {
            try PNGDecoder.decode(contentsOf: "/nonexistent/x.png")
        }
    }
}
