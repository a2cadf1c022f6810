import BlurLabelPixels
import CWebP

/// Writes images as WebP with libwebp (Debian's `libwebp-dev`, linked from its static archive):
/// lossy (VP8, alpha losslessly beside it) at a quality from 0 to 100, or lossless (VP8L). One
/// thread, libwebp's defaults otherwise: the same image gives the same bytes on every run.
package struct WebPEncoder: Equatable, Sendable {
    /// How the pixels are compressed.
    package var quality: PictureFormat.Quality
    /// libwebp's effort, 0 (fastest) to 6 (smallest files).
    package var method: Int

    /// The quality a lossy file gets when none is asked for. No lossy quality keeps 99.9% of a
    /// blurred label's pixels within 2 levels of the PNG (VP8's limited-range YUV and its finest
    /// quantizer lose up to 3 levels, 5 in red and blue: 0.17–0.78% of pixels at 100 on the
    /// issue 42 page, 1.3–2.8% at 95), so the default is the closest it gets: 18–52% of the PNG's
    /// bytes, 44% on white-on-transparent labels with none off (docs/formats.md). Lower it with
    /// `--quality` where the look is enough.
    package static let defaultQuality = 100
    /// libwebp's method for labels: 6 saves 2–20% more bytes but costs 1.7× (30× on a
    /// transparent label), 2 costs 10–20% more bytes for 10% less time (docs/formats.md).
    package static let defaultMethod = 4

    package init(quality: PictureFormat.Quality = .standard, method: Int = WebPEncoder.defaultMethod) {
        self.quality = quality
        self.method = method
    }

    /// The WebP file for `image`.
    package func encode(_ image: Image) throws -> [UInt8] {
        guard !image.isEmpty else {
            throw EncodeError(
                format: "WebP",
                reason: "an empty image (\(image.width)x\(image.height)) cannot be stored"
            )
        }
        guard image.width <= Int(WEBP_MAX_DIMENSION), image.height <= Int(WEBP_MAX_DIMENSION) else {
            throw EncodeError(
                format: "WebP",
                reason: "\(image.width)x\(image.height) is larger than WebP's \(WEBP_MAX_DIMENSION) pixels a side"
            )
        }
        let opaque = StraightPixels.isOpaque(image)
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw EncodeError(format: "WebP", reason: "libwebp's version") }
        switch quality {
        case .lossless:
            // Lossless "quality" is effort; libwebp's own default (75) with the chosen method.
            config.lossless = 1
            config.quality = 75
            config.exact = 0
        case .standard:
            config.quality = Float(Self.defaultQuality)
        case let .lossy(value):
            config.quality = Float(min(100, max(0, value)))
        }
        config.method = Int32(min(6, max(0, method)))
        config.thread_level = 0
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw EncodeError(format: "WebP", reason: "libwebp's version") }
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        picture.use_argb = config.lossless
        defer { WebPPictureFree(&picture) }
        let (rows, rowBytes) = StraightPixels.rows(image, opaque: opaque)
        let imported = rows.withUnsafeBufferPointer { buffer in
            opaque
                ? WebPPictureImportRGB(&picture, buffer.baseAddress, Int32(rowBytes))
                : WebPPictureImportRGBA(&picture, buffer.baseAddress, Int32(rowBytes))
        }
        guard imported != 0 else { throw EncodeError(format: "WebP", reason: "out of memory importing the pixels") }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        picture.writer = WebPMemoryWrite
        let encoded = withUnsafeMutablePointer(to: &writer) { pointer in
            picture.custom_ptr = UnsafeMutableRawPointer(pointer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let bytes = writer.mem else {
            throw EncodeError(format: "WebP", reason: "libwebp error \(picture.error_code.rawValue)")
        }
        return [UInt8](UnsafeBufferPointer(start: bytes, count: writer.size))
    }
}

/// Why a picture could not be written in a format other than PNG.
package struct EncodeError: Error, Equatable, CustomStringConvertible {
    package let format: String
    package let reason: String

    package var description: String { "\(format) encoding failed: \(reason)" }
}
