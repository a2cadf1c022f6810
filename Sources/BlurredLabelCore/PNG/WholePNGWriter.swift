/// PNG files for pictures larger than a label, written on the calling thread: every row
/// Paeth-filtered (palette and grey below 8 bits: libpng's minimum-sum heuristic, `PNGRowFilter`;
/// on a 3840×2160 screenshot's blurred frames the heuristic chose Paeth for nearly every row and
/// cost four times as much), then the whole filtered image compressed by
/// libdeflate in one call, at the libdeflate level of the same number as the zlib level asked
/// for. For callers that encode several pictures at once, one per core (`ImageBlurLevelPlan`'s
/// frames), where `ParallelPNGWriter` spreads one picture over the cores with zlib: libdeflate
/// cannot be primed with the data before a piece, so its pieces could not be joined into one
/// stream, but a whole picture in one call is smaller than zlib's stream.
///
/// The packed rows, the filtered rows and the compressed stream live in one scratch buffer taken
/// from `scratch` and given back: frames encoded one after another reuse it, where fresh memory
/// for each (75 MB for a 3840×2160 RGB frame) cost a fifth of an animation's time in the kernel
/// clearing pages. The bytes depend only on the image and the level.
enum WholePNGWriter {
    /// Scratch buffers kept between files (at most four, as the blur's planes).
    static let scratch = ScratchPool(capacity: 4)

    static func encode(
        _ image: Image,
        plan: PNGColorPlan,
        paletteRGB: [UInt8],
        paletteAlpha: [UInt8],
        level: Int
    ) throws -> [UInt8] {
        let (width, height) = (image.width, image.height)
        let deflateLevel = Int32(min(9, max(1, level)))
        // RGB, the plan of opaque pictures, is packed straight into the scratch; others by `packRows`.
        let packed: [UInt8]?
        let rowBytes: Int
        if case .rgb = plan {
            (packed, rowBytes) = (nil, width * 3)
        } else {
            let (rows, bytes) = PNGEncoder.packRows(image, plan: plan)
            (packed, rowBytes) = (rows, bytes)
        }
        let rowsCount = packed == nil ? height * rowBytes : 0
        let filteredCount = height * (rowBytes + 1)
        guard let bound = DeflateCompressors.zlibBound(count: filteredCount, level: deflateLevel) else {
            throw PNGError.encodeFailed(reason: "libdeflate could not make a compressor")
        }
        let buffer = scratch.take(bytes: rowsCount + filteredCount + bound)
        defer { scratch.recycle(buffer) }
        let base = buffer.pointer.assumingMemoryBound(to: UInt8.self)
        let filtered = base + rowsCount
        let compressed = filtered + filteredCount
        func filter(_ pixels: UnsafePointer<UInt8>) {
            if plan.isPalette || plan.bitDepth < 8 {
                PNGRowFilter.filter(
                    pixels: pixels,
                    rowBytes: rowBytes,
                    bytesPerPixel: plan.filterBytesPerPixel,
                    rows: 0..<height,
                    into: filtered
                )
            } else {
                PNGRowFilter.paethRows(
                    pixels: pixels,
                    rowBytes: rowBytes,
                    bytesPerPixel: plan.filterBytesPerPixel,
                    height: height,
                    into: filtered
                )
            }
        }
        if let packed {
            packed.withUnsafeBufferPointer { filter($0.baseAddress!) }
        } else {
            image.pixels.withUnsafeBufferPointer { source in
                let pixels = source.baseAddress!
                for i in 0..<(width * height) {
                    base[i * 3] = pixels[i * 4]
                    base[i * 3 + 1] = pixels[i * 4 + 1]
                    base[i * 3 + 2] = pixels[i * 4 + 2]
                }
            }
            filter(base)
        }
        let written = DeflateCompressors.zlibCompress(
            filtered,
            count: filteredCount,
            level: deflateLevel,
            into: compressed,
            capacity: bound
        )
        guard written > 0 else { throw PNGError.encodeFailed(reason: "libdeflate could not compress the image") }
        var stream = [UInt8](UnsafeBufferPointer(start: compressed, count: written))
        SmallPNGWriter.narrowHeader(&stream, dataCount: filteredCount)
        return PNGFileLayout.file(
            width: width,
            height: height,
            plan: plan,
            paletteRGB: paletteRGB,
            paletteAlpha: paletteAlpha,
            stream: stream,
            idatBytes: ParallelPNGWriter.pieceSize
        )
    }
}
