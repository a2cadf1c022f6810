import CZlib
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

/// `RunDeflate` (level 1 of picture frames): zlib's own inflate gives back the input exactly for
/// inputs that exercise each of its paths, and the stream never outgrows its bound.
@Suite("Run-length deflate of filtered rows")
struct RunDeflateTests {
    static func roundTrip(_ input: [UInt8]) throws -> Int {
        let bound = RunDeflate.zlibBound(count: input.count)
        var stream = [UInt8](repeating: 0, count: bound)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: RunDeflate.scratchBytes, alignment: 64)
        defer { scratch.deallocate() }
        let written = input.withUnsafeBufferPointer { source in
            stream.withUnsafeMutableBufferPointer { out in
                RunDeflate.zlibCompress(
                    source.baseAddress ?? UnsafePointer(out.baseAddress!),
                    count: input.count,
                    into: out.baseAddress!,
                    scratch: scratch
                )
            }
        }
        #expect(written <= bound)
        var inflated = [UInt8](repeating: 0, count: max(1, input.count))
        var length = uLong(inflated.count)
        let status = uncompress(&inflated, &length, stream, uLong(written))
        #expect(status == Z_OK)
        #expect(Array(inflated.prefix(Int(length))) == input)
        return written
    }

    /// Empty, one byte, runs of every length around the 3-byte minimum and the 258-byte maximum.
    @Test func shortInputsAndRunLengths() throws {
        _ = try Self.roundTrip([])
        _ = try Self.roundTrip([7])
        var input: [UInt8] = []
        for length in [1, 2, 3, 4, 10, 257, 258, 259, 260, 516, 1000] {
            input += [UInt8(length & 0xFF)] + [UInt8](repeating: 9, count: length)
        }
        _ = try Self.roundTrip(input)
    }

    /// A run crossing block boundaries (several blocks of nothing but runs), and noise, which
    /// no Huffman table shrinks: its blocks are stored, at most a few bytes over the input.
    @Test func blocksOfRunsAndStoredNoise() throws {
        let block = RunDeflate.scratchBytes / 2
        let zeros = try Self.roundTrip([UInt8](repeating: 0, count: 3 * block + 17))
        #expect(zeros < 10_000)
        var random = TestRandom(state: 31)
        let noise = (0..<(2 * block + 70_000)).map { _ in random.next() }
        let stored = try Self.roundTrip(noise)
        #expect(stored <= noise.count + 100)
    }

    /// Few distinct bytes, very skewed (a code length limit of 15 bits must hold): counts
    /// doubling from symbol to symbol, in a block of their own.
    @Test func skewedCounts() throws {
        var input: [UInt8] = []
        for symbol in 0..<20 {
            for _ in 0..<(1 << min(symbol, 17)) {
                input.append(UInt8(symbol * 2))
                input.append(UInt8(symbol * 2 + 1))
            }
        }
        _ = try Self.roundTrip(input)
    }

    /// Opaque pictures through the frames' writer, whose rows are filtered and compressed a block
    /// of rows at a time: rows wider than a block (split into pieces), a single row, a single
    /// column; each decodes to the same pixels.
    @Test(arguments: [(100_000, 3), (70_000, 1), (1, 70_000)])
    func rowsInBlocks(width: Int, height: Int) throws {
        let image = try PNGEncoderTests.image(width, height) { x, y in
            Color(red: UInt8((x / 300) & 0xFF), green: UInt8((y / 200) & 0xFF), blue: UInt8(((x + y) / 1000) & 0xFF))
        }
        #expect(PNGColorPlan.smallest(for: [image]) == .rgb)
        let file = try PNGEncoder(compressionLevel: 1).encodeOnCallingThread(image)
        #expect(try PNGDecoder.decode(file) == image)
    }
}
