import CDeflate

/// The chunks of the PNG files blurlabel assembles itself (`SmallPNGWriter`, `ParallelPNGWriter`)
/// around a zlib stream it compressed: the signature, IHDR, PLTE and tRNS for a palette, the
/// stream in IDAT chunks, IEND — in the order and form libpng writes them.
enum PNGFileLayout {
    static func file(
        width: Int,
        height: Int,
        plan: PNGColorPlan,
        paletteRGB: [UInt8],
        paletteAlpha: [UInt8],
        stream: [UInt8],
        idatBytes: Int
    ) -> [UInt8] {
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file.reserveCapacity(
            stream.count + (stream.count / idatBytes + 4) * 12 + 64 + paletteRGB.count + paletteAlpha.count
        )
        let header =
            APNGWriter.be32(UInt32(width)) + APNGWriter.be32(UInt32(height))
            + [UInt8(plan.bitDepth), UInt8(plan.colorType), 0, 0, 0]
        header.withUnsafeBufferPointer { appendChunk("IHDR", $0, to: &file) }
        if case .palette = plan {
            paletteRGB.withUnsafeBufferPointer { appendChunk("PLTE", $0, to: &file) }
            if !paletteAlpha.isEmpty { paletteAlpha.withUnsafeBufferPointer { appendChunk("tRNS", $0, to: &file) } }
        }
        stream.withUnsafeBufferPointer { stream in
            var offset = 0
            repeat {  // a zlib stream is never empty: at least one IDAT
                let end = min(stream.count, offset + idatBytes)
                appendChunk("IDAT", UnsafeBufferPointer(rebasing: stream[offset..<end]), to: &file)
                offset = end
            } while offset < stream.count
        }
        appendChunk("IEND", UnsafeBufferPointer(start: nil, count: 0), to: &file)
        return file
    }

    /// Appends one chunk to `file`: the length of `data`, `type`, `data`, and the CRC-32 of type
    /// and data (libdeflate's, the same value as zlib's `crc32` in a fifth of the time).
    static func appendChunk(_ type: String, _ data: UnsafeBufferPointer<UInt8>, to file: inout [UInt8]) {
        precondition(type.utf8.count == 4, "a PNG chunk type is four letters")
        let start = file.count
        appendBE32(UInt32(data.count), to: &file)
        file.append(contentsOf: type.utf8)
        file.append(contentsOf: data)
        let crc = file.withUnsafeBufferPointer { all in
            libdeflate_crc32(0, all.baseAddress.map { $0 + start + 4 }, 4 + data.count)
        }
        appendBE32(crc, to: &file)
    }

    private static func appendBE32(_ value: UInt32, to file: inout [UInt8]) {
        file.append(UInt8(value >> 24))
        file.append(UInt8((value >> 16) & 0xFF))
        file.append(UInt8((value >> 8) & 0xFF))
        file.append(UInt8(value & 0xFF))
    }
}
