/// The picture of text with colour glyphs (emoji): the coverage mask in the text colour with the
/// colour layer over it, as one premultiplied RGBA image, padded, blurred (premultiplied, so no
/// dark fringes) and composited on the background. Text without colour glyphs never comes here:
/// it keeps the mask path and its exact bytes.
enum ColorLabelComposer {
    /// Premultiplied `source` (`width`×`height`) drawn over `image` with its top-left at
    /// (`left`, `top`); what falls outside is clipped. Each channel: s + d·(255 − sa)/255, rounded.
    static func drawOver(_ image: inout Image, _ source: [UInt8], width: Int, height: Int, left: Int, top: Int) {
        let x0 = max(0, left)
        let x1 = min(image.width, left + width)
        let y0 = max(0, top)
        let y1 = min(image.height, top + height)
        guard x0 < x1, y0 < y1 else { return }
        let imageWidth = image.width
        image.withUnsafeMutablePixels { out in
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

    /// The rendered text's ink as premultiplied RGBA: the mask in `color`, the colour layer over it.
    static func ink(_ text: RenderedText, color: Color) throws -> Image {
        let mask = text.mask
        let f = color.premultiplied
        let fill = [UInt32(f.0), UInt32(f.1), UInt32(f.2), UInt32(f.3)]
        var image = try Image(width: mask.width, height: mask.height)
        for i in 0..<(mask.width * mask.height) {
            let coverage = UInt32(mask.values[i])
            guard coverage > 0 else { continue }
            for k in 0..<4 { image[byte: i * 4 + k] = UInt8((fill[k] * coverage + 127) / 255) }
        }
        if let layer = text.colorLayer {
            drawOver(&image, layer.pixels, width: layer.width, height: layer.height, left: 0, top: 0)
        }
        return image
    }

    /// `image` centered on a transparent `width`×`height` image (each side at least the image's).
    static func centered(_ image: Image, width: Int, height: Int) throws -> Image {
        if width == image.width && height == image.height { return image }
        var out = try Image(width: width, height: height)
        let left = (width - image.width) / 2
        let top = (height - image.height) / 2
        for y in 0..<image.height {
            let dst = ((y + top) * width + left) * 4
            let src = y * image.width * 4
            out.overwrite(at: dst, with: image.pixels[src..<(src + image.width * 4)])
        }
        return out
    }

    /// `image` (premultiplied) over `background` on a `width`×`height` canvas, centered, and
    /// whether some of it fell outside.
    static func place(
        _ image: Image,
        background: Color,
        width: Int,
        height: Int
    ) throws -> (image: Image, clipped: Bool) {
        var out = try Image(width: width, height: height, fill: background)
        let left = (width - image.width) / 2
        let top = (height - image.height) / 2
        drawOver(&out, image.pixels, width: image.width, height: image.height, left: left, top: top)
        let clipped = Composite.clips(
            contentWidth: image.width,
            contentHeight: image.height,
            width: width,
            height: height,
            left: left,
            top: top
        ) { image.pixels[$0 * 4 + 3] != 0 }
        return (out, clipped)
    }
}
