import BlurLabelPixels
import BlurLabelSystem
import CPNGShim

/// Reads PNG files of every colour type and bit depth (interlaced too) into premultiplied RGBA8.
public enum PNGDecoder {
    /// The default cap on width × height, a guard against decompression bombs.
    public static let defaultMaxPixels = 100_000_000

    /// What the file itself declared, besides its pixels.
    package struct Header: Equatable, Sendable {
        package let colorType: Int
        package let bitDepth: Int
        package let interlaced: Bool
        /// True for grey and grey+alpha files.
        package var isGrey: Bool {
            colorType == Int(PNGColorPlan.ColorType.grey) || colorType == Int(PNGColorPlan.ColorType.greyAlpha)
        }
    }

    /// Decodes PNG bytes. `source` only names the data in errors.
    public static func decode(
        _ data: [UInt8],
        source: String = "<memory>",
        maxPixels: Int = defaultMaxPixels
    ) throws -> Image {
        try decodeWithHeader(data, source: source, maxPixels: maxPixels).image
    }

    /// Decodes PNG bytes and reports the file's own colour type.
    package static func decodeWithHeader(
        _ data: [UInt8],
        source: String = "<memory>",
        maxPixels: Int = defaultMaxPixels
    ) throws -> (image: Image, header: Header) {
        var result = blpng_decoded()
        var width: UInt32 = 0
        var height: UInt32 = 0
        // Decode straight into the image's own storage when the declared size is acceptable
        // (anything odd goes through the plain path, which reports it).
        let direct =
            data.withUnsafeBufferPointer { blpng_peek_size($0.baseAddress, $0.count, &width, &height) } == 0
            && UInt64(width) * UInt64(height) <= UInt64(max(0, maxPixels)) && width > 0 && height > 0
        var status = BLPNG_OK
        var pixels: [UInt8] = []
        if direct {
            let count = Int(width) * Int(height) * 4
            pixels = [UInt8].uninitialized(count: count) { buffer, initialized in
                if let base = buffer.baseAddress { HugePages.advise(base, byteCount: count) }
                status = data.withUnsafeBufferPointer { input in
                    blpng_decode_into(
                        input.baseAddress,
                        input.count,
                        UInt64(max(0, maxPixels)),
                        buffer.baseAddress,
                        count,
                        &result
                    )
                }
                // A file without alpha (no alpha channel, no tRNS) decodes to alpha 255 throughout:
                // nothing to premultiply (8 ms of a 3840×2160 screenshot's decode).
                if status == BLPNG_OK && result.opaque == 0 {
                    blpng_premultiply(buffer.baseAddress, Int(width) * Int(height))
                }
                initialized = status == BLPNG_OK ? count : 0
            }
        } else {
            status = data.withUnsafeBufferPointer { buffer in
                blpng_decode(buffer.baseAddress, buffer.count, UInt64(max(0, maxPixels)), &result)
            }
        }
        defer { blpng_free(result.rgba) }
        let message = withUnsafeBytes(of: result.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        switch status {
        case BLPNG_OK: break
        case BLPNG_NOT_PNG: throw PNGError.notPNG(source: source)
        case BLPNG_TRUNCATED: throw PNGError.truncated(source: source)
        case BLPNG_TOO_LARGE:
            throw PNGError.tooLarge(
                source: source,
                width: Int(result.width),
                height: Int(result.height),
                limit: maxPixels
            )
        case BLPNG_NO_MEMORY: throw PNGError.outOfMemory(source: source)
        default: throw PNGError.corrupt(source: source, reason: message.isEmpty ? "unreadable" : message)
        }
        if !direct {
            let count = Int(result.width) * Int(result.height) * 4
            pixels = [UInt8](UnsafeBufferPointer(start: result.rgba, count: count))
            if result.opaque == 0 {
                pixels.withUnsafeMutableBufferPointer { blpng_premultiply($0.baseAddress, count / 4) }
            }
        }
        let header = Header(
            colorType: Int(result.color_type),
            bitDepth: Int(result.bit_depth),
            interlaced: result.interlaced != 0
        )
        return (try Image(width: Int(result.width), height: Int(result.height), premultipliedRGBA: pixels), header)
    }

    /// The size a PNG file's header declares, and whether its colour type has no alpha channel
    /// (grey or RGB: opaque unless a tRNS chunk says otherwise); nil for what is not a readable
    /// PNG (decoding it says why).
    package static func peek(_ data: [UInt8]) -> (width: Int, height: Int, noAlphaChannel: Bool)? {
        var width: UInt32 = 0
        var height: UInt32 = 0
        guard data.withUnsafeBufferPointer({ blpng_peek_size($0.baseAddress, $0.count, &width, &height) }) == 0
        else { return nil }
        let colorType = Int(data[25])  // IHDR: width, height, bit depth, colour type (peek checked it is there)
        return (Int(width), Int(height), colorType == 0 || colorType == 2)
    }

    /// Reads and decodes a file; `-` reads standard input.
    public static func decode(contentsOf path: String, maxPixels: Int = defaultMaxPixels) throws -> Image {
        try decodeWithHeader(contentsOf: path, maxPixels: maxPixels).image
    }

    /// Reads and decodes a file, reporting its colour type; `-` reads standard input.
    package static func decodeWithHeader(
        contentsOf path: String,
        maxPixels: Int = defaultMaxPixels
    ) throws -> (image: Image, header: Header) {
        let bytes = try FileIO.read(path)
        return try decodeWithHeader(bytes, source: sourceName(path), maxPixels: maxPixels)
    }

    /// How errors name the file at `path`.
    package static func sourceName(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}
