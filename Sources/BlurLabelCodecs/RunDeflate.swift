import BlurLabelPixels
import CDeflate

/// zlib streams of filtered picture rows by `RunDeflateEncoder`: matches only as runs of the byte
/// before, each block's own Huffman tables. `WholePNGWriter`'s level 1: on a
/// 3840×2160 screenshot's Paeth-filtered blur frames about 3× as fast as libdeflate's level 1,
/// with files no larger (Benchmarks/README.md, "Animate"); `SmallPNGWriter`'s 8-bit Paeth rows at
/// levels 1–6: a price tag in about 60% of libdeflate level 1's time ("A label's deflate").
/// The bytes depend only on the input.
package enum RunDeflate {
    /// Scratch bytes `zlibCompress` needs beside its output (the tokens of one block).
    static let scratchBytes = RunDeflateEncoder.blockBytes * MemoryLayout<UInt16>.stride

    /// The most bytes `zlibCompress` writes for `count` bytes.
    static func zlibBound(count: Int) -> Int {
        6 + RunDeflateEncoder.bound(count: count, blocks: count / RunDeflateEncoder.blockBytes + 1)
    }

    /// The zlib stream of the `count` bytes at `data`, written to `out` (at least `zlibBound`
    /// bytes), with `scratch` (`scratchBytes`, 2-byte aligned); its length.
    static func zlibCompress(
        _ data: UnsafePointer<UInt8>,
        count: Int,
        into out: UnsafeMutablePointer<UInt8>,
        scratch: UnsafeMutableRawPointer
    ) -> Int {
        let tokens = scratch.bindMemory(to: UInt16.self, capacity: RunDeflateEncoder.blockBytes)
        var encoder = RunDeflateEncoder(out: out + 2)
        append(data, count: count, to: &encoder, last: true, tokens: tokens)
        let written = 2 + encoder.finish()
        return finish(out, written: written, checksum: libdeflate_adler32(1, data, count))
    }

    /// The zlib stream of the `count` bytes at `data` (a label's filtered rows: scratch for
    /// their tokens only, on the stack where it fits).
    package static func zlibStream(_ data: UnsafePointer<UInt8>, count: Int) -> [UInt8] {
        let bound = zlibBound(count: count)
        let tokens = max(1, min(count, RunDeflateEncoder.blockBytes))
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: tokens) { scratch in
            [UInt8].uninitialized(count: bound) { out, initialized in
                initialized = zlibCompress(
                    data,
                    count: count,
                    into: out.baseAddress!,
                    scratch: UnsafeMutableRawPointer(scratch.baseAddress!)
                )
            }
        }
    }

    /// Rows of opaque RGB made a block at a time: `blockRows` rows, at most one block's bytes.
    static func blockRows(width: Int) -> Int { max(1, RunDeflateEncoder.blockBytes / (width * 3 + 1)) }

    /// Scratch bytes `zlibCompressRGBRows` needs: the tokens, then a block of filtered rows.
    static func rgbScratchBytes(width: Int) -> Int { scratchBytes + blockRows(width: width) * (width * 3 + 1) }

    /// The most bytes `zlibCompressRGBRows` writes for `image`.
    static func rgbBound(_ image: Image) -> Int {
        let rowBytes = image.width * 3 + 1
        let rowsPerBlock = blockRows(width: image.width)
        let blocks = (image.height + rowsPerBlock - 1) / rowsPerBlock
        let pieces = blocks * ((rowBytes * rowsPerBlock) / RunDeflateEncoder.blockBytes + 1)
        return 6 + RunDeflateEncoder.bound(count: image.height * rowBytes, blocks: pieces)
    }

    /// The zlib stream of an opaque `image`'s PNG RGB rows, Paeth-filtered, made a block of rows
    /// at a time (straight from the RGBA pixels: `PNGRowFilter.paethRGB`), so neither the packed
    /// nor the filtered picture exists whole; written to `out` (`rgbBound` bytes) with `scratch`
    /// (`rgbScratchBytes`, 2-byte aligned). Its length.
    static func zlibCompressRGBRows(
        _ image: Image,
        into out: UnsafeMutablePointer<UInt8>,
        scratch: UnsafeMutableRawPointer
    ) -> Int {
        let (width, height) = (image.width, image.height)
        let rowBytes = width * 3 + 1
        let rowsPerBlock = blockRows(width: width)
        let tokens = scratch.bindMemory(to: UInt16.self, capacity: RunDeflateEncoder.blockBytes)
        let block = (scratch + scratchBytes).bindMemory(to: UInt8.self, capacity: rowsPerBlock * rowBytes)
        var encoder = RunDeflateEncoder(out: out + 2)
        var checksum: UInt32 = 1
        var y = 0
        while y < height {
            let rows = min(rowsPerBlock, height - y)
            PNGRowFilter.paethRGB(fromRGBA: image, rows: y..<(y + rows), into: block)
            let count = rows * rowBytes
            checksum = UInt32(libdeflate_adler32(checksum, block, count))
            append(block, count: count, to: &encoder, last: y + rows == height, tokens: tokens)
            y += rows
        }
        return finish(out, written: 2 + encoder.finish(), checksum: checksum)
    }

    /// The `count` bytes at `data` given to `encoder` in pieces of at most a block (at least
    /// one, so an empty input still makes a block); the last piece ends the stream if `last`.
    private static func append(
        _ data: UnsafePointer<UInt8>,
        count: Int,
        to encoder: inout RunDeflateEncoder,
        last: Bool,
        tokens: UnsafeMutablePointer<UInt16>
    ) {
        var start = 0
        repeat {
            let piece = min(count - start, RunDeflateEncoder.blockBytes)
            encoder.append(data + start, count: piece, final: last && start + piece == count, tokens: tokens)
            start += piece
        } while start < count
    }

    /// The zlib header before the `written - 2` bytes of deflate at `out + 2`, and the checksum
    /// after them; the stream's length.
    private static func finish(_ out: UnsafeMutablePointer<UInt8>, written: Int, checksum: UInt32) -> Int {
        // CMF: deflate, 32 KB window; FLG: the fastest level, no dictionary, check bits.
        out[0] = 0x78
        out[1] = 0x01
        for k in 0..<4 { out[written + k] = UInt8(truncatingIfNeeded: checksum >> (24 - 8 * k)) }
        return written + 4
    }
}
