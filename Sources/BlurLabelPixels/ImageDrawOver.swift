extension Image {
    /// Premultiplied `source` (`width`×`height`) drawn over this image with its top-left at
    /// (`left`, `top`); what falls outside is clipped. Each channel: s + d·(255 − sa)/255, rounded.
    package mutating func drawOver(_ source: [UInt8], width: Int, height: Int, left: Int, top: Int) {
        let x0 = max(0, left)
        let x1 = min(self.width, left + width)
        let y0 = max(0, top)
        let y1 = min(self.height, top + height)
        guard x0 < x1, y0 < y1 else { return }
        let imageWidth = self.width
        withUnsafeMutablePixels { out in
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let s = ((y - top) * width + (x - left)) * 4
                    let d = (y * imageWidth + x) * 4
                    let inverse = 255 - UInt32(source[s + 3])
                    for k in 0..<4 {
                        out[d + k] = UInt8(min(255, UInt32(source[s + k]) + (UInt32(out[d + k]) * inverse + 127) / 255))
                    }
                }
            }
        }
    }
}
