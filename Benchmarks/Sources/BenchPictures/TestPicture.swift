import BlurredLabelCore

/// The benchmarks' test picture, shared by `blurlabel-bench` and `blurlabel-device`: hard-edged
/// content (a grid of 1-px lines, noise, stripes in 64-px blocks), deterministic, premultiplied
/// when it has four channels (colour at or below alpha).
package func testPicture(width: Int, height: Int, channels: Int) -> [UInt8] {
    // Hard-edged content: squares, 1-px lines and noise, deterministic.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt8 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(state >> 56)
    }
    var out = [UInt8](repeating: 0, count: width * height * channels)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * channels
            let block = ((x / 64) + (y / 64)) % 3
            for c in 0..<channels {
                let value: UInt8
                switch block {
                case 0: value = (x % 16 == 0 || y % 16 == 0) ? 255 : 0
                case 1: value = next()
                default: value = UInt8((x * 7 + y * 3 + c * 50) & 0xFF) > 128 ? 230 : 20
                }
                out[i + c] = value
            }
            if channels == 4 {
                // premultiplied: colour at or below alpha
                let a = out[i + 3] | 0x80
                out[i + 3] = a
                for c in 0..<3 { out[i + c] = min(out[i + c], a) }
            }
        }
    }
    return out
}

/// The square RGBA picture and mask the blur benchmarks time, `size` pixels a side.
package func testPictures(size: Int) throws -> (rgba: Image, mask: CoverageMask) {
    (
        try Image(width: size, height: size, premultipliedRGBA: testPicture(width: size, height: size, channels: 4)),
        try CoverageMask(width: size, height: size, values: testPicture(width: size, height: size, channels: 1))
    )
}
