extension PNGEncoder {
    /// `mask` coloured through `levels` (coverage → 8-bit grey) and written as a PNG of 8-bit grey
    /// rows: the bytes `encode` gives for the opaque grey image `Composite` makes of it, without
    /// making that image, surveying its colours or packing its rows. nil where `encode` would
    /// write it another way (a lower bit depth, a large image, another writer):
    /// then `encode` of the composited image is the way.
    package func encodeGrey(_ mask: CoverageMask, levels: [UInt8]) -> [UInt8]? {
        let width = mask.width
        let height = mask.height
        // Only where `encode` would hand this image to `SmallPNGWriter` too, with the same filter.
        guard levels.count == 256, width > 0, height > 0,
            let filter = smallWriterFilter(pixels: width * height, plan: .grey(bitDepth: 8))
        else { return nil }
        var used = [Bool](repeating: false, count: 256)
        let rows = [UInt8].uninitialized(count: width * height) { out, count in
            mask.values.withUnsafeBufferPointer { coverage in
                levels.withUnsafeBufferPointer { grey in
                    used.withUnsafeMutableBufferPointer { used in
                        for i in 0..<(width * height) {
                            let value = grey[Int(coverage[i])]
                            out[i] = value
                            used[Int(value)] = true
                        }
                    }
                }
            }
            count = width * height
        }
        // `encode` would store fewer bits a pixel: let it.
        guard PNGColorPlan.smallestGreyDepth(used) == 8 else { return nil }
        return SmallPNGWriter.encode(
            rows: rows,
            rowBytes: width,
            width: width,
            height: height,
            plan: .grey(bitDepth: 8),
            filter: filter,
            paletteRGB: [],
            paletteAlpha: [],
            level: min(9, max(0, compressionLevel))
        )
    }
}
