import CDeflate
import CRunDeflate

/// zlib streams of filtered picture rows by `bl_run_deflate` (CRunDeflate): matches only as runs
/// of the byte before, each block's own Huffman tables. `WholePNGWriter`'s level 1: on a
/// 3840×2160 screenshot's Paeth-filtered blur frames about 3× as fast as libdeflate's level 1,
/// with files no larger (Benchmarks/README.md, "Animate"). The bytes depend only on the input.
enum RunDeflate {
    /// Scratch bytes `zlibCompress` needs beside its output (the tokens of one block).
    static let scratchBytes = Int(BL_RUN_DEFLATE_BLOCK) * MemoryLayout<UInt16>.stride

    /// The most bytes `zlibCompress` writes for `count` bytes.
    static func zlibBound(count: Int) -> Int { 2 + bl_run_deflate_bound(count) + 4 }

    /// The zlib stream of the `count` bytes at `data`, written to `out` (at least `zlibBound`
    /// bytes), with `scratch` (`scratchBytes`, 2-byte aligned); its length.
    static func zlibCompress(
        _ data: UnsafePointer<UInt8>,
        count: Int,
        into out: UnsafeMutablePointer<UInt8>,
        scratch: UnsafeMutableRawPointer
    ) -> Int {
        // CMF: deflate, 32 KB window; FLG: the fastest level, no dictionary, check bits.
        out[0] = 0x78
        out[1] = 0x01
        let tokens = scratch.bindMemory(to: UInt16.self, capacity: Int(BL_RUN_DEFLATE_BLOCK))
        let written = 2 + bl_run_deflate(data, count, out + 2, tokens)
        let checksum = libdeflate_adler32(1, data, count)
        for k in 0..<4 { out[written + k] = UInt8(truncatingIfNeeded: checksum >> (24 - 8 * k)) }
        return written + 4
    }
}
