import CZlib

/// PNG files for small images (labels) compressed with zlib's run-length strategy: the same bytes
/// libpng writes for them, without libpng's per-row path. On a one-label process libpng's scalar
/// Paeth filter and row bookkeeping were about 0.2 M of its 3.4 M instructions (callgrind,
/// Benchmarks/run-oneshot); here the filter is one vectorised Swift loop and zlib gets the whole
/// filtered image in one call. zlib still does all the compressing.
///
/// Same bytes as libpng (`SmallPNGWriterTests` compares the two over every colour plan, bit depth
/// and size class): the chunks libpng writes for these images (IHDR, PLTE and tRNS for a palette,
/// IDAT, IEND), its window size for small data (the one `PNGEncoder.windowBits` asks libpng for,
/// then lowered while the data and zlib's 262-byte lookahead fit in half of it), the zlib header it then rewrites to the smallest window that holds the data, and its
/// IDAT chunks of 8,192 bytes, and its rule that a one-pixel-wide or one-row image is not
/// Paeth-filtered. Handled: images up to `PNGEncoder.smallImagePixels` with the run-length
/// strategy and the Paeth filter or none, at compression levels 1–9 (level 0 stores, and zlib's
/// stored blocks depend on how the input is handed over); `PNGEncoder` sends everything else to
/// libpng.
enum SmallPNGWriter {
    /// libpng's compressed-data buffer (PNG_ZBUF_SIZE): each IDAT holds at most this much.
    static let idatBytes = 8192

    /// The row filter of every row: Paeth (4) or None (0).
    enum RowFilter: UInt8 {
        case none = 0
        case paeth = 4
    }

    static func encode(
        rows: [UInt8],
        rowBytes: Int,
        width: Int,
        height: Int,
        plan: PNGColorPlan,
        filter: RowFilter,
        paletteRGB: [UInt8],
        paletteAlpha: [UInt8],
        level: Int
    ) -> [UInt8]? {
        let dataCount = height * (rowBytes + 1)
        // libpng drops the filters that need a row above (height 1) or a pixel to the left (width 1);
        // Paeth needs both, so such an image is written unfiltered.
        let filter = width == 1 || height == 1 ? RowFilter.none : filter
        let filtered = [UInt8].uninitialized(count: dataCount) { out, count in
            rows.withUnsafeBufferPointer { source in
                guard let pixels = source.baseAddress, let destination = out.baseAddress else { return }
                switch filter {
                case .paeth:
                    PNGRowFilter.paethRows(
                        pixels: pixels,
                        rowBytes: rowBytes,
                        bytesPerPixel: plan.filterBytesPerPixel,
                        height: height,
                        into: destination
                    )
                case .none:
                    for y in 0..<height {
                        destination[y * (rowBytes + 1)] = 0
                        (destination + y * (rowBytes + 1) + 1).update(from: pixels + y * rowBytes, count: rowBytes)
                    }
                }
            }
            count = dataCount
        }
        guard var stream = compress(filtered, level: level, windowBits: windowBits(dataCount: dataCount)) else {
            return nil
        }
        narrowHeader(&stream, dataCount: dataCount)

        return PNGFileLayout.file(
            width: width,
            height: height,
            plan: plan,
            paletteRGB: paletteRGB,
            paletteAlpha: paletteAlpha,
            stream: stream,
            idatBytes: idatBytes
        )
    }

    /// The window libpng compresses with: the one `PNGEncoder.windowBits` asks for, then as libpng
    /// lowers it for data of 16 KB or less: halved while the data plus zlib's 262 bytes of
    /// lookahead still fit in half of it.
    static func windowBits(dataCount: Int) -> Int32 {
        var bits = PNGEncoder.windowBits(dataCount: dataCount)
        if dataCount <= 16384 {
            while dataCount + 262 <= 1 << (bits - 1) { bits -= 1 }
        }
        return bits
    }

    /// zlib's memory level: its symbol buffer (2^(level + 6) symbols) ends a block when it fills,
    /// so a level whose buffer holds more symbols than the data has bytes ends no block early and
    /// gives the bytes level 8 gives (run-length matching never reads the hash table, the other
    /// thing the level sizes). The smallest such level, or 8: a label's 6 KB of data needs 7, and
    /// zlib clears and allocates half as much.
    static func memoryLevel(dataCount: Int) -> Int32 {
        for level in 1...7 where (1 << (level + 6)) - 2 >= dataCount { return Int32(level) }
        return 8
    }

    /// The zlib stream of `data`: run-length strategy, one call.
    static func compress(_ data: [UInt8], level: Int, windowBits: Int32) -> [UInt8]? {
        var z = z_stream()
        guard
            deflateInit2_(
                &z,
                Int32(level),
                Z_DEFLATED,
                windowBits,
                memoryLevel(dataCount: data.count),
                Z_RLE,
                ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)
            ) == Z_OK
        else { return nil }
        defer { deflateEnd(&z) }
        let capacity = Int(deflateBound(&z, uLong(data.count)))
        var out = [UInt8](repeating: 0, count: capacity)
        let status = data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                z.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                z.avail_in = uInt(input.count)
                z.next_out = output.baseAddress
                z.avail_out = uInt(capacity)
                return deflate(&z, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, z.avail_in == 0 else { return nil }
        out.removeLast(Int(z.avail_out))
        return out
    }

    /// The zlib header rewritten to the smallest window that holds `dataCount` bytes (a window a
    /// decoder must allocate; the compressed data is the same), as libpng does for data of 16 KB
    /// or less.
    static func narrowHeader(_ stream: inout [UInt8], dataCount: Int) {
        guard dataCount <= 16384, stream.count >= 2 else { return }
        var cmf = Int(stream[0])
        guard cmf & 0x0F == 8, cmf & 0xF0 <= 0x70 else { return }
        var info = cmf >> 4
        var half = 1 << (info + 7)
        guard dataCount <= half else { return }
        repeat {
            half >>= 1
            info -= 1
        } while info > 0 && dataCount <= half
        cmf = (cmf & 0x0F) | (info << 4)
        var flags = Int(stream[1]) & 0xE0
        flags += 0x1F - ((cmf << 8) + flags) % 0x1F
        stream[0] = UInt8(cmf)
        stream[1] = UInt8(flags)
    }
}
