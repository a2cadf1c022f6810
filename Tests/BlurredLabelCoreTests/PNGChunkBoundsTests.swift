import Testing

@testable import BlurredLabelCore

/// Chunk lengths are checked against what the input can still hold before anything is allocated.
@Suite("PNG chunk lengths and image sizes are checked against the input")
struct PNGChunkBoundsTests {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func header(width: UInt32, height: UInt32, depth: UInt8 = 8, colour: UInt8 = 6) -> [UInt8] {
        signature
            + pngChunk(
                "IHDR",
                withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init) + [
                    depth, colour, 0, 0, 0,
                ]
            )
    }

    @Test("a chunk claiming more than the file holds is truncation", arguments: ["zTXt", "iCCP", "IDAT", "abCd"])
    func aChunkLongerThanTheRestOfTheFile(type: String) {
        let bytes = Self.header(width: 1, height: 1) + [0x7F, 0xFF, 0xFF, 0xF0] + Array(type.utf8) + [1, 2, 3]
        #expect(bytes.count == 44)
        #expect(throws: PNGError.truncated(source: "bomb.png")) { try PNGDecoder.decode(bytes, source: "bomb.png") }
    }

    @Test func aLengthOverPNGsLimitIsCorrupt() {
        let bytes = Self.header(width: 1, height: 1) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8) + [1, 2, 3]
        #expect { try PNGDecoder.decode(bytes, source: "x.png") } throws: { error in
            guard case let PNGError.corrupt("x.png", reason) = error else { return false }
            return reason.contains("2^31")
        }
    }

    @Test func anImageItsDataCannotHoldIsRefusedBeforeItsPixelsAreAllocated() {
        // 10000×10000 (within the default pixel limit) needs at least 400 MB of raw data; a
        // 20-byte IDAT inflates to at most about 20 KB.
        let bytes =
            Self.header(width: 10_000, height: 10_000) + pngChunk("IDAT", Array(repeating: 0, count: 20))
            + pngChunk("IEND", [])
        #expect(throws: PNGError.truncated(source: "huge.png")) { try PNGDecoder.decode(bytes, source: "huge.png") }
    }

    @Test func aHighlyCompressedButHonestImageStillDecodes() throws {
        // 2000×2000 white compresses about 1000:1, close to deflate's limit; it must pass the check.
        let image = try Image(width: 2000, height: 2000, fill: .white)
        let bytes = try PNGEncoder(compressionLevel: 9).encode(image)
        #expect(try PNGDecoder.decode(bytes, maxPixels: 4_000_000) == image)
        let grey = try Image(width: 3000, height: 1000, fill: .black)
        #expect(try PNGDecoder.decode(try PNGEncoder(compressionLevel: 9).encode(grey)) == grey)
    }
}
