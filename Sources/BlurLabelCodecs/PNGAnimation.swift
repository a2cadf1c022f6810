extension PNGDecoder {
    /// True when `data` is an animated PNG (APNG): an `acTL` chunk before the first `IDAT`. The
    /// decoder reads only the default image (the first frame, or a still shown by viewers that
    /// cannot animate), so a caller that changes pixels must refuse such a file instead of
    /// silently dropping its other frames. Reads chunk headers only; false for what is not a PNG.
    package static func isAnimated(_ data: [UInt8]) -> Bool {
        var offset = 8  // the signature
        while offset + 8 <= data.count {
            let length = data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "acTL" { return true }
            if type == "IDAT" || type == "IEND" { return false }
            offset += 12 + length
        }
        return false
    }
}
