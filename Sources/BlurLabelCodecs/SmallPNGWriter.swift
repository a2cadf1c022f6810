/// PNG files for small images (labels), compressed whole in one call, without libpng's per-row
/// path: the row filter is one vectorised Swift loop, and the filtered image is compressed
/// straight from memory, where zlib streamed it: Paeth-filtered 8-bit rows at levels 1–6 (the default)
/// by `RunDeflate` (runs of the byte before, as zlib's run-length strategy that libpng used here,
/// with each block's optimal Huffman tables), everything else by libdeflate (Debian's
/// libdeflate-dev, linked from its static archive): `deflater` chooses. On blurred grey price
/// tags runs take about 40% less time than libdeflate's level 1 for 3–4% more bytes
/// (Benchmarks/README.md, "A label's deflate").
///
/// The same pixels and the same filtered data as libpng (`SmallPNGWriterTests` decodes both over
/// every colour plan, bit depth and size class): the chunks libpng writes for these images (IHDR,
/// PLTE and tRNS for a palette, IDAT, IEND), the zlib header narrowed to the smallest window that
/// holds the data (as libpng does), IDAT chunks of 8,192 bytes, and libpng's rule that a
/// one-pixel-wide or one-row image is not Paeth-filtered; files no larger than libpng's with
/// zlib's run-length strategy at levels 7–9. Handled: images up to `PNGEncoder.smallImagePixels`
/// with the Paeth filter or none, at compression levels 1–9 (`deflater` maps them); level 0
/// (stored) and everything else go to libpng (`EncodingPlan.choose`). nil when libdeflate could
/// not make a compressor.
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
        deflater: PNGDeflater
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
        let compressed = filtered.withUnsafeBytes { data -> [UInt8]? in
            guard let base = data.baseAddress else { return nil }
            switch deflater {
            case .runs: return RunDeflate.zlibStream(base.assumingMemoryBound(to: UInt8.self), count: data.count)
            case let .libdeflate(level): return DeflateCompressors.zlibStream(base, count: data.count, level: level)
            }
        }
        guard var stream = compressed else { return nil }
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

    /// The deflater for a zlib level (1–9), the rows' filter and colours. Levels 1 to 6, the
    /// default included: runs for Paeth-filtered rows of 8-bit samples, continuous tone (a
    /// blurred grey price tag in about 60% of libdeflate level 1's time, for 3–4% more bytes),
    /// libdeflate's level 1 for the rest (palette indices, samples under 8 bits: sharp patterns,
    /// which longer matches shrink; runs made 10,000 labels' palette files 27% larger and their
    /// 1-bit greys 58%); libdeflate at the same level for 7 to 9, which ask for small files
    /// before speed. (libdeflate's levels 10–12 would each keep 8.8 MB a thread for 3% less.)
    /// Measured on labels: Benchmarks/README.md, "A label's deflate".
    static func deflater(_ zlibLevel: Int, filter: RowFilter, colors: PNGColorPlan) -> PNGDeflater {
        if zlibLevel > 6 { return .libdeflate(level: Int32(min(zlibLevel, 9))) }
        let continuousTone = filter == .paeth && !colors.isPalette && colors.bitDepth == 8
        return continuousTone ? .runs : .libdeflate(level: 1)
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
