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
        file += APNGWriter.chunk(
            "IHDR",
            APNGWriter.be32(UInt32(width)) + APNGWriter.be32(UInt32(height))
                + [UInt8(plan.bitDepth), UInt8(plan.colorType), 0, 0, 0]
        )
        if case .palette = plan {
            file += APNGWriter.chunk("PLTE", paletteRGB)
            if !paletteAlpha.isEmpty { file += APNGWriter.chunk("tRNS", paletteAlpha) }
        }
        var offset = 0
        repeat {  // a zlib stream is never empty: at least one IDAT
            let end = min(stream.count, offset + idatBytes)
            file += APNGWriter.chunk("IDAT", Array(stream[offset..<end]))
            offset = end
        } while offset < stream.count
        file += APNGWriter.chunk("IEND", [])
        return file
    }
}
