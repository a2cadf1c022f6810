/// The pictures a person looks at after a comparison.
extension ImageComparison {
    /// The diff picture (pixelmatch's): expected as faint grey over white, red where pixels
    /// differ, yellow where the difference is anti-aliasing (and, for pictures of different
    /// sizes, mid grey where neither has pixels: `compareDifferentSizes`).
    public func diffImage(expected: Image, result: Result) throws -> Image {
        var out = try Image(width: result.width, height: result.height, fill: .white)
        let count = result.width * result.height
        expected.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for i in 0..<count {
                    let k = i * 4
                    switch result.classes.isEmpty ? 0 : result.classes[i] {
                    case 1: dst[k] = 255; dst[k + 1] = 0; dst[k + 2] = 0
                    case 2: dst[k] = 255; dst[k + 1] = 255; dst[k + 2] = 0
                    case 3: dst[k] = 160; dst[k + 1] = 160; dst[k + 2] = 160
                    default:
                        // pixelmatch: 255 + (luma − 255)·0.1·a/255 on straight colour, which is
                        // 255 + (luma of the premultiplied bytes − a)·0.1.
                        let luma = Double(src[k]) * 0.29889531 + Double(src[k + 1]) * 0.58662247 + Double(src[k + 2]) * 0.11448223
                        let grey = UInt8(max(0, min(255, 255 + (luma - Double(src[k + 3])) * 0.1)))
                        dst[k] = grey; dst[k + 1] = grey; dst[k + 2] = grey
                    }
                }
            }
        }
        return out
    }

    /// expected | diff | actual, side by side with 4-px grey gaps.
    public func sideBySide(expected: Image, diff: Image, actual: Image) throws -> Image {
        let gap = 4
        let width = expected.width + diff.width + actual.width + 2 * gap
        let height = max(expected.height, diff.height, actual.height)
        var out = try Image(width: width, height: height, fill: Color(red: 128, green: 128, blue: 128))
        var left = 0
        for part in [expected, diff, actual] {
            let flat = part.flattened(over: backdrop)
            for y in 0..<part.height {
                let src = y * part.width * 4, dst = (y * width + left) * 4
                out.pixels.replaceSubrange(dst..<(dst + part.width * 4), with: flat.pixels[src..<(src + part.width * 4)])
            }
            left += part.width + gap
        }
        return out
    }
}
