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
    /// `RunDeflate`'s zlib stream of `input`.
    static func compressed(_ input: [UInt8]) -> [UInt8] {
        var stream = [UInt8](repeating: 0, count: RunDeflate.zlibBound(count: input.count))
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
        #expect(written <= stream.count)
        return Array(stream.prefix(written))
    }

    /// The stream's length; zlib's inflate must give `input` back.
    static func roundTrip(_ input: [UInt8]) throws -> Int {
        let stream = compressed(input)
        let written = stream.count
        var inflated = [UInt8](repeating: 0, count: max(1, input.count))
        var length = uLong(inflated.count)
        let status = uncompress(&inflated, &length, stream, uLong(written))
        #expect(status == Z_OK)
        #expect(Array(inflated.prefix(Int(length))) == input)
        return written
    }

    /// A label's stream (`zlibStream`, token scratch of the input's size only) is the stream
    /// made with a whole block's scratch, for every length up to 70 (the tokenizer reads eight
    /// bytes a step, so the last steps of each length differ) and for label-like rows.
    @Test func aLabelsStreamNeedsScratchForItsOwnBytesOnly() throws {
        var random = TestRandom(state: 5)
        var inputs = (0...70).map { count in (0..<count).map { _ in random.next() % 3 == 0 ? random.next() : 0 } }
        inputs.append(RunDeflateBytesTests.labelLike(width: 154, height: 45, seed: 6))
        for input in inputs {
            // An empty input still needs an address: a one-byte array's, of which none is read.
            let stream = (input.isEmpty ? [0] : input).withUnsafeBufferPointer { bytes in
                RunDeflate.zlibStream(bytes.baseAddress!, count: input.count)
            }
            #expect(stream == Self.compressed(input), "\(input.count) bytes")
            _ = try Self.roundTrip(input)
        }
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

/// `RunDeflate`'s bytes, pinned: the encoder was restructured for speed (tables per block, no
/// arrays per call), and the frames `animate` writes at level 1 must keep their bytes. These
/// hashes were taken from the encoder before.
@Suite("Run-length deflate bytes")
struct RunDeflateBytesTests {
    /// Label-like filtered rows: runs of zeros (a margin), then residuals mostly within ±3 of
    /// zero with short runs, rows of `width` bytes after a filter byte.
    static func labelLike(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var random = TestRandom(state: seed)
        var rows: [UInt8] = []
        for y in 0..<height {
            rows.append(4)
            let margin = y < height / 5 || y > height * 4 / 5
            var x = 0
            while x < width {
                let pick = random.next()
                if margin || pick < 90 {
                    let run = min(width - x, 1 + Int(random.next() % 40))
                    rows += [UInt8](repeating: 0, count: run)
                    x += run
                } else {
                    let small = Int(pick % 7) - 3
                    rows.append(UInt8(truncatingIfNeeded: small == 0 ? Int(random.next()) : small))
                    x += 1
                }
            }
        }
        return rows
    }

    static let expected: [String: UInt64] = [
        "empty": 0x7b0d_1697_cc31_4eec, "one": 0x4ad7_180a_bac9_73fa, "two": 0x15cc_25c5_fa29_e26a,
        "three": 0x93_d6be_7873_3c7f, "label 114x45": 0x4618_5a1a_cdbb_421c,
        "label 154x45": 0x90f9_4596_d255_7326, "label 40x12": 0x9a5e_13f1_feed_64e5,
        "label 600x160": 0xb906_ca55_1342_358f, "two blocks": 0xdcf5_c77b_9338_831d,
        "noise": 0xff70_8899_811d_dcc0, "skewed": 0x9141_e9f7_38be_10c6,
    ]

    @Test("every stream's bytes are those of the encoder before its restructuring")
    func pinned() throws {
        var skewed: [UInt8] = []
        for symbol in 0..<20 {
            for _ in 0..<(1 << min(symbol, 15)) { skewed += [UInt8(symbol * 2), UInt8(symbol * 2 + 1)] }
        }
        var random = TestRandom(state: 77)
        let inputs: [(String, [UInt8])] = [
            ("empty", []), ("one", [9]), ("two", [0, 0]), ("three", [5, 5, 5]),
            ("label 114x45", Self.labelLike(width: 114, height: 45, seed: 1)),
            ("label 154x45", Self.labelLike(width: 154, height: 45, seed: 2)),
            ("label 40x12", Self.labelLike(width: 40, height: 12, seed: 3)),
            ("label 600x160", Self.labelLike(width: 600, height: 160, seed: 4)),
            ("two blocks", Self.labelLike(width: 1000, height: 300, seed: 5)),
            ("noise", (0..<5000).map { _ in random.next() }),
            ("skewed", skewed),
        ]
        var hashes: [String: UInt64] = [:]
        for (name, input) in inputs {
            let stream = RunDeflateTests.compressed(input)
            _ = try RunDeflateTests.roundTrip(input)
            hashes[name] = FixedFIRBytesTests.hash(stream)
        }
        #expect(hashes == Self.expected)
    }
}
