import BlurLabelPixels

/// The pictures a person looks at after a comparison.
extension ImageComparison {
    /// The diff picture (pixelmatch's): expected as faint grey over white, red where pixels
    /// differ, yellow where the difference is anti-aliasing (and, for pictures of different
    /// sizes, mid grey where neither has pixels: `compareDifferentSizes`).
    package func diffImage(expected: Image, result: Result) throws -> Image {
        guard expected.width == result.width, expected.height == result.height else {
            throw SizeMismatch(expected: (expected.width, expected.height), actual: (result.width, result.height))
        }
        var out = try Image(width: result.width, height: result.height, fill: .white)
        let count = result.width * result.height
        expected.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutablePixels { dst in
                for i in 0..<count {
                    let k = i * 4
                    switch result.classes.isEmpty ? 0 : result.classes[i] {
                    case 1:
                        dst[k] = 255
                        dst[k + 1] = 0
                        dst[k + 2] = 0
                    case 2:
                        dst[k] = 255
                        dst[k + 1] = 255
                        dst[k + 2] = 0
                    case 3:
                        dst[k] = 160
                        dst[k + 1] = 160
                        dst[k + 2] = 160
                    default:
                        // pixelmatch: 255 + (luma − 255)·0.1·a/255 on straight colour, which is
                        // 255 + (luma of the premultiplied bytes − a)·0.1.
                        let luma =
                            Double(src[k]) * 0.29889531 + Double(src[k + 1]) * 0.58662247 + Double(src[k + 2])
                            * 0.11448223
                        let grey = UInt8(max(0, min(255, 255 + (luma - Double(src[k + 3])) * 0.1)))
                        dst[k] = grey
                        dst[k + 1] = grey
                        dst[k + 2] = grey
                    }
                }
            }
        }
        return out
    }

    /// expected | diff | actual, side by side with 4-px grey gaps; one above the other when side
    /// by side would be wider than an image may be (very wide, short pictures). Refused
    /// (`DiffPictureTooLarge`) when neither fits.
    package func sideBySide(expected: Image, diff: Image, actual: Image) throws -> Image {
        let gap = 4
        let parts = [expected, diff, actual]
        let across = (width: parts.map(\.width).reduce(2 * gap, +), height: parts.map(\.height).max()!)
        let down = (width: parts.map(\.width).max()!, height: parts.map(\.height).reduce(2 * gap, +))
        let horizontal = (try? Image.checkSize(width: across.width, height: across.height)) != nil
        let size = horizontal ? across : down
        try DiffPictureTooLarge.check(width: size.width, height: size.height, what: "the side-by-side picture")
        var out = try Image(width: size.width, height: size.height, fill: Color(red: 128, green: 128, blue: 128))
        var offset = 0
        for part in parts {
            let flat = part.flattened(over: backdrop)
            for y in 0..<part.height {
                let src = y * part.width * 4
                let dst = horizontal ? (y * size.width + offset) * 4 : ((y + offset) * size.width) * 4
                out.overwrite(at: dst, with: flat.pixels[src..<(src + part.width * 4)])
            }
            offset += (horizontal ? part.width : part.height) + gap
        }
        return out
    }
}
