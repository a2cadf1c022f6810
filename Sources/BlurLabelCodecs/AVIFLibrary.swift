import BlurLabelSystem
import CAVIF

/// libavif's functions, found in `libavif.so.15` (Debian 12's libavif 0.11, whose header
/// `CAVIF` compiles against) the first time an AVIF file is written or read (`dlopen`, as
/// Text/Fontconfig.swift opens fontconfig). Debian ships no static libavif, and linking the shared
/// one would make every process start load it and its AV1 codecs (libaom, dav1d, rav1e, SVT-AV1:
/// about 20 MB): a PNG label never needs them, and the static `blurlabel` keeps its list of
/// libraries (scripts/checks/check-static-binary). A machine without libavif writes PNG and WebP
/// and says why it cannot write AVIF.
struct AVIFLibrary: Sendable {
    let imageCreate:
        @Sendable @convention(c) (UInt32, UInt32, UInt32, avifPixelFormat) -> UnsafeMutablePointer<avifImage>?
    let imageCreateEmpty: @Sendable @convention(c) () -> UnsafeMutablePointer<avifImage>?
    let imageDestroy: @Sendable @convention(c) (UnsafeMutablePointer<avifImage>?) -> Void
    let rgbImageSetDefaults:
        @Sendable @convention(c) (UnsafeMutablePointer<avifRGBImage>?, UnsafePointer<avifImage>?) -> Void
    let imageRGBToYUV:
        @Sendable @convention(c) (UnsafeMutablePointer<avifImage>?, UnsafePointer<avifRGBImage>?) -> avifResult
    let imageYUVToRGB:
        @Sendable @convention(c) (UnsafePointer<avifImage>?, UnsafeMutablePointer<avifRGBImage>?) -> avifResult
    let encoderCreate: @Sendable @convention(c) () -> UnsafeMutablePointer<avifEncoder>?
    let encoderWrite:
        @Sendable @convention(c) (
            UnsafeMutablePointer<avifEncoder>?, UnsafePointer<avifImage>?, UnsafeMutablePointer<avifRWData>?
        ) -> avifResult
    let encoderDestroy: @Sendable @convention(c) (UnsafeMutablePointer<avifEncoder>?) -> Void
    let encoderSetCodecSpecificOption:
        @Sendable @convention(c) (UnsafeMutablePointer<avifEncoder>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) ->
            Void
    let decoderCreate: @Sendable @convention(c) () -> UnsafeMutablePointer<avifDecoder>?
    let decoderReadMemory:
        @Sendable @convention(c) (
            UnsafeMutablePointer<avifDecoder>?, UnsafeMutablePointer<avifImage>?, UnsafePointer<UInt8>?, Int
        ) -> avifResult
    let decoderDestroy: @Sendable @convention(c) (UnsafeMutablePointer<avifDecoder>?) -> Void
    let rwDataFree: @Sendable @convention(c) (UnsafeMutablePointer<avifRWData>?) -> Void
    let resultToString: @Sendable @convention(c) (avifResult) -> UnsafePointer<CChar>?

    /// The library file this build's header belongs to.
    static let fileName = "libavif.so.15"

    /// The library, loaded on first use, or why it could not be (Swift runs a global's initializer
    /// once, safely, so every thread sees the same answer).
    static let shared: Result<AVIFLibrary, EncodeError> = load(from: fileName)

    /// Opens the library `name` and finds libavif's functions in it.
    static func load(from name: String) -> Result<AVIFLibrary, EncodeError> {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "\(name) could not be loaded"
            return .failure(EncodeError(format: "AVIF", reason: "\(reason) (install Debian's libavif15)"))
        }
        // The handle stays open for the life of the process: the functions are used until exit.
        func symbol<F>(_ symbol: String) throws(EncodeError) -> F {
            guard let address = dlsym(handle, symbol) else {
                throw EncodeError(format: "AVIF", reason: "\(name) has no \(symbol)")
            }
            return unsafeBitCast(address, to: F.self)
        }
        do throws(EncodeError) {
            // Each function's type is the field's, written from avif.h.
            return .success(
                try AVIFLibrary(
                    imageCreate: symbol("avifImageCreate"),
                    imageCreateEmpty: symbol("avifImageCreateEmpty"),
                    imageDestroy: symbol("avifImageDestroy"),
                    rgbImageSetDefaults: symbol("avifRGBImageSetDefaults"),
                    imageRGBToYUV: symbol("avifImageRGBToYUV"),
                    imageYUVToRGB: symbol("avifImageYUVToRGB"),
                    encoderCreate: symbol("avifEncoderCreate"),
                    encoderWrite: symbol("avifEncoderWrite"),
                    encoderDestroy: symbol("avifEncoderDestroy"),
                    encoderSetCodecSpecificOption: symbol("avifEncoderSetCodecSpecificOption"),
                    decoderCreate: symbol("avifDecoderCreate"),
                    decoderReadMemory: symbol("avifDecoderReadMemory"),
                    decoderDestroy: symbol("avifDecoderDestroy"),
                    rwDataFree: symbol("avifRWDataFree"),
                    resultToString: symbol("avifResultToString")
                )
            )
        } catch {
            dlclose(handle)
            return .failure(error)
        }
    }

    /// Converts between `avif`'s YUV planes and 8-bit `pixels` in `format` (`rowBytes` a row):
    /// into the planes when `toYUV`, out of them otherwise.
    func convert(
        _ avif: UnsafeMutablePointer<avifImage>,
        _ pixels: inout [UInt8],
        format: avifRGBFormat,
        rowBytes: Int,
        toYUV: Bool
    ) throws(EncodeError) {
        var rgb = avifRGBImage()
        rgbImageSetDefaults(&rgb, avif)
        rgb.format = format
        rgb.depth = 8
        rgb.rowBytes = UInt32(rowBytes)
        let result = pixels.withUnsafeMutableBufferPointer { buffer in
            rgb.pixels = buffer.baseAddress
            defer { rgb.pixels = nil }
            return toYUV ? imageRGBToYUV(avif, &rgb) : imageYUVToRGB(avif, &rgb)
        }
        guard result == AVIF_RESULT_OK else { throw EncodeError(format: "AVIF", reason: describe(result)) }
    }

    /// libavif's name for a result.
    func describe(_ result: avifResult) -> String {
        resultToString(result).map { String(cString: $0) } ?? "libavif result \(result.rawValue)"
    }
}
