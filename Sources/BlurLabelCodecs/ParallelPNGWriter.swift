import BlurLabelPixels
import BlurLabelSystem
import CZlib

/// PNG files for large images, compressed on every core: rows are filtered (libpng's
/// minimum-sum heuristic) and fixed 1 MiB pieces of the filtered data are deflated in parallel,
/// each primed with the 32 KB before it, then joined into the one zlib stream PNG wants (the way
/// pigz does it). Piece boundaries depend only on the image, so the bytes never depend on the
/// thread count. libpng, which compresses on one thread, still writes every smaller image.
enum ParallelPNGWriter {
    static let pieceSize = 1 << 20
    static let window = 32 * 1024

    static func encode(
        rows: [UInt8],
        rowBytes: Int,
        width: Int,
        height: Int,
        plan: PNGColorPlan,
        paletteRGB: [UInt8],
        paletteAlpha: [UInt8],
        level: Int,
        threads: Int
    ) throws -> [UInt8] {
        let bytesPerPixel = plan.filterBytesPerPixel
        let filteredCount = height * (rowBytes + 1)
        let filtered = HugePages.bytes(count: filteredCount) { out in
            rows.withUnsafeBufferPointer { source in
                let src = UnsafeSendable(source.baseAddress!)
                let dst = UnsafeSendable(out.baseAddress!)
                parallelRanges(height, threads: threads) { range in
                    PNGRowFilter.filter(
                        pixels: src.pointer,
                        rowBytes: rowBytes,
                        bytesPerPixel: bytesPerPixel,
                        rows: range,
                        into: dst.pointer + range.lowerBound * (rowBytes + 1)
                    )
                }
            }
        }
        let pieceCount = (filteredCount + pieceSize - 1) / pieceSize
        let results = filtered.withUnsafeBufferPointer { data in
            let base = UnsafeSendable(data.baseAddress!)
            return parallelMap(pieceCount, threads: threads) { index -> [UInt8]? in
                let start = index * pieceSize
                let end = min(filteredCount, start + pieceSize)
                let dictionaryStart = max(0, start - window)
                return deflatePiece(
                    UnsafeBufferPointer(start: base.pointer + start, count: end - start),
                    dictionary: UnsafeBufferPointer(
                        start: base.pointer + dictionaryStart,
                        count: start - dictionaryStart
                    ),
                    level: level,
                    last: index == pieceCount - 1
                )
            }
        }
        guard results.allSatisfy({ $0 != nil }) else {
            throw PNGError.encodeFailed(reason: "zlib could not compress the image")
        }
        let compressed = results.map { $0! }
        let checksum = filtered.withUnsafeBufferPointer { adler32(1, $0.baseAddress, UInt32($0.count)) }
        var stream: [UInt8] = [0x78, level >= 6 ? 0x9C : (level >= 2 ? 0x5E : 0x01)]
        for piece in compressed { stream += piece }
        stream += APNGWriter.be32(UInt32(checksum))

        return PNGFileLayout.file(
            width: width,
            height: height,
            plan: plan,
            paletteRGB: paletteRGB,
            paletteAlpha: paletteAlpha,
            stream: stream,
            idatBytes: pieceSize
        )
    }

    /// One piece of a raw deflate stream: primed with `dictionary` (the data just before it),
    /// ended with a sync flush so the next piece starts on a byte boundary, or finished if `last`.
    static func deflatePiece(
        _ data: UnsafeBufferPointer<UInt8>,
        dictionary: UnsafeBufferPointer<UInt8>,
        level: Int,
        last: Bool
    ) -> [UInt8]? {
        var z = z_stream()
        guard
            deflateInit2_(
                &z,
                Int32(level),
                Z_DEFLATED,
                -15,
                8,
                Z_DEFAULT_STRATEGY,
                ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)
            ) == Z_OK
        else { return nil }
        defer { deflateEnd(&z) }
        if dictionary.count > 0, deflateSetDictionary(&z, dictionary.baseAddress, uInt(dictionary.count)) != Z_OK {
            return nil
        }
        let capacity = Int(deflateBound(&z, uLong(data.count))) + 64
        var out = [UInt8](repeating: 0, count: capacity)
        z.next_in = UnsafeMutablePointer(mutating: data.baseAddress)
        z.avail_in = uInt(data.count)
        let status = out.withUnsafeMutableBufferPointer { buffer in
            z.next_out = buffer.baseAddress
            z.avail_out = uInt(capacity)
            return deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH)
        }
        guard last ? status == Z_STREAM_END : status == Z_OK, z.avail_in == 0 else { return nil }
        out.removeLast(Int(z.avail_out))
        return out
    }
}
