import BlurLabelPixels

extension PNGEncoder {
    /// `mask` coloured through `levels` (coverage → 8-bit grey) and written as a PNG of 8-bit grey
    /// rows: the bytes `encode` gives for the opaque grey image `Composite` makes of it, without
    /// making that image, surveying its colours or packing its rows. nil where `encode` would
    /// write it another way (a lower bit depth, a large image, another writer):
    /// then `encode` of the composited image is the way.
    package func encodeGrey(_ mask: CoverageMask, levels: [UInt8]) -> [UInt8]? {
        let width = mask.width
        let height = mask.height
        // Only where `encode` would hand this image to `SmallPNGWriter` too: the same plan.
        guard levels.count == 256, width > 0, height > 0,
            case let .png(.small(filter, deflater)) = EncodingPlan.choose(
                .png,
                pixels: width * height,
                colors: .grey(bitDepth: 8),
                encoder: self,
                caller: .singleFile
            )
        else { return nil }
        // `encode` would store fewer bits a pixel if every grey were a multiple of 17: let it.
        // The first grey that is not settles it (a blurred label has one in its first rows), so
        // this is a short scan, kept out of the colouring loop below.
        guard Self.needsEightBits(mask, levels: levels) else { return nil }
        let count = width * height
        let rows = [UInt8].uninitialized(count: count) { out, initialized in
            mask.values.withUnsafeBufferPointer { coverage in
                levels.withUnsafeBufferPointer { grey in
                    guard let to = out.baseAddress, let from = coverage.baseAddress, let table = grey.baseAddress
                    else { return }
                    if Self.isInversion(levels) {
                        // Black on white, the common price tag: a loop that vectorises.
                        for i in 0..<count { to[i] = ~from[i] }
                    } else {
                        for i in 0..<count { to[i] = table[Int(from[i])] }
                    }
                    initialized = count
                }
            }
        }
        return SmallPNGWriter.encode(
            rows: rows,
            rowBytes: width,
            width: width,
            height: height,
            plan: .grey(bitDepth: 8),
            filter: filter,
            paletteRGB: [],
            paletteAlpha: [],
            deflater: deflater
        )
    }

    /// Whether `mask` coloured through `levels` has a grey that is not a multiple of 17 (so needs
    /// 8 bits a pixel: `PNGColorPlan.smallestGreyDepth`).
    /// The middle row is read first: a label's ink is there, where the top rows are its padding.
    static func needsEightBits(_ mask: CoverageMask, levels: [UInt8]) -> Bool {
        var offStep = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &offStep) { bits in
            for (coverage, grey) in levels.enumerated() where grey % 17 != 0 {
                bits[coverage >> 3] |= UInt8(1) << UInt8(coverage & 7)
            }
        }
        return withUnsafeBytes(of: &offStep) { bits in
            mask.values.withUnsafeBufferPointer { values in
                let isOff = { (coverage: UInt8) in bits[Int(coverage >> 3)] & (UInt8(1) << (coverage & 7)) != 0 }
                let middle = mask.height / 2 * mask.width
                return values[middle..<min(values.count, middle + mask.width)].contains(where: isOff)
                    || values.contains(where: isOff)
            }
        }
    }

    /// Whether `levels` maps each coverage c to 255 − c (black text on white).
    static func isInversion(_ levels: [UInt8]) -> Bool {
        levels.indices.allSatisfy { levels[$0] == ~UInt8(truncatingIfNeeded: $0) }
    }
}
