import BlurLabelPixels

/// PNG files for pictures larger than a label, written on the calling thread: every row
/// Paeth-filtered (palette and grey below 8 bits: libpng's minimum-sum heuristic, `PNGRowFilter`;
/// on a 3840×2160 screenshot's blurred frames the heuristic chose Paeth for nearly every row and
/// cost four times as much), then compressed: at level 1 by `RunDeflate` (runs of the byte
/// before, each block's own Huffman tables: on those frames about 3× as fast as libdeflate's
/// level 1, and 6% smaller), and by libdeflate's level 1 as well when runs shrink the rows less
/// than `runsEnough`-fold (sharp or patterned pictures, where longer matches win), the smaller
/// kept; at levels 2–9 by libdeflate at that level, the whole filtered picture in one call.
/// For callers that encode several pictures at once, one per core (`ImageBlurLevelPlan`'s
/// frames), where `ParallelPNGWriter` spreads one picture over the cores with zlib: libdeflate
/// cannot be primed with the data before a piece, so its pieces could not be joined into one
/// stream, but a whole picture in one call is smaller than zlib's stream.
///
/// An opaque picture at level 1 (an animation's frames, usually) is filtered straight from its
/// RGBA pixels and compressed a block of rows at a time: neither its packed nor its filtered
/// rows exist whole. Otherwise the filtered rows and the compressed stream live in one buffer (an
/// opaque picture's rows filtered straight from RGBA, other plans' packed first). Either scratch is taken from `scratch` and given back: frames encoded one after
/// another reuse it, where fresh memory for each (75 MB for a 3840×2160 RGB frame) cost a fifth
/// of an animation's time in the kernel clearing pages. The bytes depend only on the image and
/// the level.
enum WholePNGWriter {
    /// Scratch buffers kept between files (at most four, as the blur's planes).
    static let scratch = ScratchPool(capacity: 4)
    /// At level 1, a stream of runs at most 1/`runsEnough` of the filtered bytes is kept as it
    /// is; a larger one is compared with libdeflate's level 1.
    static let runsEnough = 8

    static func encode(
        _ image: Image,
        plan: PNGColorPlan,
        paletteRGB: [UInt8],
        paletteAlpha: [UInt8],
        deflater: PNGDeflater
    ) throws -> [UInt8] {
        var stream: [UInt8]
        switch deflater {
        case .runs where plan == .rgb:
            // Opaque frames, the usual case, are filtered and compressed a block of rows at a
            // time: no packed or filtered copy of the picture (50 MB at 3840×2160).
            let filteredCount = image.height * (image.width * 3 + 1)
            stream = runsOfRGBRows(image)
            SmallPNGWriter.narrowHeader(&stream, dataCount: filteredCount)
            if stream.count > filteredCount / Self.runsEnough {
                let other = try wholeStream(image, plan: plan, deflateLevel: 1, runs: false)
                if other.count < stream.count { stream = other }
            }
        case .runs:
            stream = try wholeStream(image, plan: plan, deflateLevel: 1, runs: true)
        case let .libdeflate(level):
            stream = try wholeStream(image, plan: plan, deflateLevel: level, runs: false)
        }
        return PNGFileLayout.file(
            width: image.width,
            height: image.height,
            plan: plan,
            paletteRGB: paletteRGB,
            paletteAlpha: paletteAlpha,
            stream: stream,
            idatBytes: ParallelPNGWriter.pieceSize
        )
    }

    /// `RunDeflate`'s stream of an opaque picture's RGB rows, made in scratch from `scratch`.
    private static func runsOfRGBRows(_ image: Image) -> [UInt8] {
        let bound = RunDeflate.rgbBound(image)
        let scratchBytes = RunDeflate.rgbScratchBytes(width: image.width)
        let buffer = scratch.take(bytes: scratchBytes + bound)
        defer { scratch.recycle(buffer) }
        let out = (buffer.pointer + scratchBytes).assumingMemoryBound(to: UInt8.self)
        let written = RunDeflate.zlibCompressRGBRows(image, into: out, scratch: buffer.pointer)
        return [UInt8](UnsafeBufferPointer(start: out, count: written))
    }

    /// The zlib stream of the whole filtered picture: `RunDeflate`'s if `runs` (and libdeflate's
    /// level 1 where runs shrink it less than `runsEnough`-fold, the smaller kept), else
    /// libdeflate's at `deflateLevel`.
    private static func wholeStream(
        _ image: Image,
        plan: PNGColorPlan,
        deflateLevel: Int32,
        runs: Bool
    ) throws -> [UInt8] {
        let height = image.height
        // RGB, the plan of opaque pictures, is filtered straight from the RGBA pixels; others are
        // packed by `packRows` first.
        let packed: [UInt8]?
        let rowBytes: Int
        if case .rgb = plan {
            (packed, rowBytes) = (nil, image.width * 3)
        } else {
            let (rows, bytes) = PNGEncoder.packRows(image, plan: plan)
            (packed, rowBytes) = (rows, bytes)
        }
        let filteredCount = height * (rowBytes + 1)
        guard let libdeflateBound = DeflateCompressors.zlibBound(count: filteredCount, level: deflateLevel) else {
            throw PNGError.encodeFailed(reason: "libdeflate could not make a compressor")
        }
        let bound = runs ? max(libdeflateBound, RunDeflate.zlibBound(count: filteredCount)) : libdeflateBound
        // The run encoder's tokens first (aligned), then the filtered rows, the stream.
        let tokenBytes = runs ? RunDeflate.scratchBytes : 0
        let buffer = scratch.take(bytes: tokenBytes + filteredCount + bound)
        defer { scratch.recycle(buffer) }
        let filtered = buffer.pointer.assumingMemoryBound(to: UInt8.self) + tokenBytes
        let compressed = filtered + filteredCount
        if let packed {
            packed.withUnsafeBufferPointer { source in
                let pixels = source.baseAddress!
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
        } else {
            PNGRowFilter.paethRGB(fromRGBA: image, rows: 0..<height, into: filtered)
        }
        func libdeflate() -> Int {
            DeflateCompressors.zlibCompress(
                filtered,
                count: filteredCount,
                level: deflateLevel,
                into: compressed,
                capacity: bound
            )
        }
        var stream: [UInt8]
        if runs {
            let written = RunDeflate.zlibCompress(
                filtered,
                count: filteredCount,
                into: compressed,
                scratch: buffer.pointer
            )
            stream = [UInt8](UnsafeBufferPointer(start: compressed, count: written))
            // Runs alone suit blurred pictures (1/12 of the filtered bytes or less on the 4K
            // screenshot's frames); a picture they shrink less than 8-fold may repeat longer
            // patterns, so libdeflate tries too and the smaller stream is kept.
            if written > filteredCount / Self.runsEnough {
                let other = libdeflate()
                if other > 0 && other < written {
                    stream = [UInt8](UnsafeBufferPointer(start: compressed, count: other))
                }
            }
        } else {
            let written = libdeflate()
            guard written > 0 else {
                throw PNGError.encodeFailed(reason: "libdeflate could not compress the image")
            }
            stream = [UInt8](UnsafeBufferPointer(start: compressed, count: written))
        }
        SmallPNGWriter.narrowHeader(&stream, dataCount: filteredCount)
        return stream
    }
}
