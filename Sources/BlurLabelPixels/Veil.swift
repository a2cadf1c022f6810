import BlurLabelSystem

/// A translucent colour laid over a picture: the tint of a tinted blur (`#ffffff4d` gives the light
/// "frosted" look, `#0000004d` the dark one).
///
/// Source-over in premultiplied RGBA, with one rounding: every channel becomes
/// `round((v·a + p·(255 − a)) / 255)`, where `a` is the veil's alpha, `v` the veil's straight
/// channel (255 for the alpha channel) and `p` the pixel's premultiplied channel. So over an opaque
/// pixel the result is `pixel·(1 − a) + colour·a` and stays opaque; a fully transparent pixel
/// becomes the veil itself (its colour at its alpha); a translucent one gains opacity
/// (`alpha + (1 − alpha)·a`), as a tinted pane over a partly see-through picture would look.
/// A veil of alpha 0 changes nothing; one of alpha 255 paints over.
package struct Veil: Equatable, Sendable {
    package let color: Color

    package init(_ color: Color) { self.color = color }

    /// The 256 results for each channel (R, G, B, A, one after the other).
    var table: [UInt8] {
        let a = UInt32(color.alpha)
        let straight = [UInt32(color.red), UInt32(color.green), UInt32(color.blue), 255]
        var table = [UInt8](repeating: 0, count: 4 * 256)
        for channel in 0..<4 {
            for p in 0..<256 {
                // x / 255 is never exactly n + ½, so + 127 rounds to nearest.
                table[channel * 256 + p] = UInt8((straight[channel] * a + UInt32(p) * (255 - a) + 127) / 255)
            }
        }
        return table
    }

    /// Lays the veil over `image` in place, on up to `threads` threads (nil: every core, asked
    /// for only when the picture is large enough to share). Same bytes for any thread count.
    package func apply(to image: inout Image, threads: Int? = nil) {
        precondition(
            image.pixels.count == image.width * image.height * 4,
            "Image.pixels must hold width * height * 4 bytes"
        )
        guard color.alpha > 0, !image.isEmpty else { return }
        let pixelCount = image.width * image.height
        let table = UnsafeSendableArray(self.table)
        defer { table.free() }
        let sharable = max(1, pixelCount / Self.pixelsPerThread)
        let workers = sharable == 1 ? 1 : min(threads ?? defaultThreadCount, sharable)
        image.withUnsafeMutablePixels { buffer in
            let pixels = UnsafeSendable(buffer.baseAddress!)
            parallelRanges(pixelCount, threads: workers) { range in
                let t = UnsafePointer(table.pointer)
                var p = pixels.pointer + range.lowerBound * 4
                for _ in range {
                    p[0] = t[Int(p[0])]
                    p[1] = t[256 + Int(p[1])]
                    p[2] = t[512 + Int(p[2])]
                    p[3] = t[768 + Int(p[3])]
                    p += 4
                }
            }
        }
    }

    /// `image` under the veil.
    package func applied(to image: Image, threads: Int? = nil) -> Image {
        var out = image
        apply(to: &out, threads: threads)
        return out
    }

    /// Below this many pixels the veil stays on the calling thread.
    static let pixelsPerThread = 1 << 18
}
