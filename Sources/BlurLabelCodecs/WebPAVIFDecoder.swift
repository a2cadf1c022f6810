import BlurLabelPixels
import CAVIF
import CPNGShim
import CWebP

/// Reads WebP and AVIF files back into premultiplied RGBA8, with the same libraries that write
/// them: for tests and the format benchmark, which compare them with the PNG's pixels.
package enum WebPAVIFDecoder {
    /// The picture in WebP `bytes`.
    package static func decodeWebP(_ bytes: [UInt8]) throws -> Image {
        var width: Int32 = 0
        var height: Int32 = 0
        guard let rgba = WebPDecodeRGBA(bytes, bytes.count, &width, &height) else {
            throw EncodeError(format: "WebP", reason: "not a WebP file libwebp can decode")
        }
        defer { WebPFree(rgba) }
        return try premultiplied(rgba, width: Int(width), height: Int(height))
    }

    /// The picture in AVIF `bytes`.
    package static func decodeAVIF(_ bytes: [UInt8]) throws -> Image {
        let library = try AVIFLibrary.shared.get()
        guard let decoder = library.decoderCreate(), let avif = library.imageCreateEmpty() else {
            throw EncodeError(format: "AVIF", reason: "out of memory")
        }
        defer {
            library.imageDestroy(avif)
            library.decoderDestroy(decoder)
        }
        decoder.pointee.maxThreads = 1
        let read = library.decoderReadMemory(decoder, avif, bytes, bytes.count)
        guard read == AVIF_RESULT_OK else { throw EncodeError(format: "AVIF", reason: library.describe(read)) }
        let width = Int(avif.pointee.width)
        var pixels = [UInt8](repeating: 0, count: width * Int(avif.pointee.height) * 4)
        try library.convert(avif, &pixels, format: AVIF_RGB_FORMAT_RGBA, rowBytes: width * 4, toYUV: false)
        return try pixels.withUnsafeMutableBufferPointer {
            try premultiplied($0.baseAddress!, width: Int(avif.pointee.width), height: Int(avif.pointee.height))
        }
    }

    /// An image from straight RGBA8, premultiplied as the PNG decoder does.
    private static func premultiplied(_ rgba: UnsafeMutablePointer<UInt8>, width: Int, height: Int) throws -> Image {
        blpng_premultiply(rgba, width * height)
        return try Image(
            width: width,
            height: height,
            premultipliedRGBA: [UInt8](UnsafeBufferPointer(start: rgba, count: width * height * 4))
        )
    }
}
