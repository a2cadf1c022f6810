import BlurLabelPixels

/// The picture of text with colour glyphs (emoji): the coverage mask in the text colour with the
/// colour layer over it, as one premultiplied RGBA image, padded, blurred (premultiplied, so no
/// dark fringes) and composited on the background. Text without colour glyphs never comes here:
/// it keeps the mask path and its exact bytes.
enum ColorLabelComposer {
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
            image.drawOver(layer.pixels, width: layer.width, height: layer.height, left: 0, top: 0)
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
        out.drawOver(image.pixels, width: image.width, height: image.height, left: left, top: top)
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
