import BlurLabelPixels
import CAVIF

/// Writes images as AVIF with libavif and libaom (Debian's libavif15, opened at run time:
/// `AVIFLibrary`): lossy at a quality from 0 to 100 (colour and alpha alike), in 4:4:4, or 4:0:0
/// when every pixel is grey; or lossless (4:4:4, the identity matrix, quantizer 0). One thread
/// and the AOM encoder named, not libavif's first available one: the same image gives the same
/// bytes on every run.
package struct AVIFEncoder: Equatable, Sendable {
    /// How the pixels are compressed.
    package var quality: PictureFormat.Quality
    /// libaom's speed, 0 (slowest, smallest) to 10 (fastest).
    package var speed: Int

    /// The quality a lossy file gets when none is asked for: the lowest at which each look of the
    /// issue 42 page (plain, light tag σ 6 at 1× and 2×, white on transparent) keeps 99.9% of its
    /// pixels within 2 levels of the PNG (quantizer 4; 93 gives the same). 13–46% of the PNG's
    /// bytes; quantizer 5 (quality 92) leaves 0.13–0.17% of pixels further on three looks
    /// (docs/formats.md).
    package static let defaultQuality = 94
    /// libaom's speed for labels: 6 makes files 3–27% smaller than 8 (imgproxy's default) and
    /// keeps more pixels within 2 levels, for 1.6–3.5× the time; 5 is smaller still (the
    /// transparent look 28.3% of the PNG against 29.8%) for about 3× 6's time (docs/formats.md).
    package static let defaultSpeed = 6

    /// libaom's options for a smooth alpha plane (`hasSmoothAlpha`) in a lossy file: the screen
    /// content tuning searches rectangular blocks that the default prunes at fine quantizers, and
    /// its palette and intra block copy searches (which save nothing on a blurred alpha) are off;
    /// no block below 8×8, which a smooth alpha does not need, keeps the time near the default's.
    /// On the issue 42 page's white-on-transparent labels, the alpha plane 8% smaller (0.05% of
    /// pixels off as before) for 1.04× the instructions; the screen tuning alone gives nearly the
    /// same bytes for 1.4× (docs/formats.md).
    static let smoothAlphaOptions = [
        ("a:tune-content", "screen"), ("a:enable-palette", "0"), ("a:enable-intrabc", "0"),
        ("a:min-partition-size", "8"),
    ]
    /// The steepest step between neighbouring alpha values that `hasSmoothAlpha` allows: a
    /// Gaussian blur of σ makes a hard edge's steepest step about 255 / (σ √(2π)), so σ 1.3 and
    /// more (labels at σ 1.5: 59–66; at σ 1: 95–101, and σ 0: up to 254, whose files the options
    /// made 1% and 8% larger, docs/formats.md).
    static let smoothAlphaStep = 80

    package init(quality: PictureFormat.Quality = .standard, speed: Int = AVIFEncoder.defaultSpeed) {
        self.quality = quality
        self.speed = speed
    }

    /// libavif 1.0's mapping of a quality 0…100 to AV1's quantizer 63…0 (0.11 takes quantizers).
    static func quantizer(quality: Int) -> Int32 {
        Int32(((100 - min(100, max(0, quality))) * 63 + 50) / 100)
    }

    /// The AVIF file for `image`, with `smoothAlphaOptions` for a smooth alpha plane. Options
    /// libaom refuses (one without `aom_codec_set_option`, before 3.x) are dropped: the file is
    /// then written with libaom's defaults.
    package func encode(
        _ image: Image,
        smoothAlphaOptions: [(String, String)] = AVIFEncoder.smoothAlphaOptions
    ) throws -> [UInt8] {
        let library = try AVIFLibrary.shared.get()
        guard !image.isEmpty else {
            throw EncodeError(
                format: "AVIF",
                reason: "an empty image (\(image.width)x\(image.height)) cannot be stored"
            )
        }
        guard image.width <= 65_536, image.height <= 65_536 else {
            throw EncodeError(
                format: "AVIF",
                reason: "\(image.width)x\(image.height) is larger than AV1's 65536 pixels a side"
            )
        }
        let lossless = quality == .lossless
        let opaque = StraightPixels.isOpaque(image)
        var (rows, rowBytes) = StraightPixels.rows(image, opaque: opaque)
        // 4:2:0 shifts a coloured label's red and blue by 3 levels on 0.1% more pixels. A grey
        // picture needs no colour planes: 4:0:0 gives back R = G = B = Y, and its one plane is
        // stored in the alpha plane's format, so the file shares the alpha's properties.
        let grey = !lossless && Self.isGrey(rows, channels: opaque ? 3 : 4)
        guard
            let avif = library.imageCreate(
                UInt32(image.width),
                UInt32(image.height),
                8,
                grey ? AVIF_PIXEL_FORMAT_YUV400 : AVIF_PIXEL_FORMAT_YUV444
            )
        else { throw EncodeError(format: "AVIF", reason: "out of memory") }
        defer { library.imageDestroy(avif) }
        avif.pointee.yuvRange = AVIF_RANGE_FULL
        if lossless { avif.pointee.matrixCoefficients = avifMatrixCoefficients(AVIF_MATRIX_COEFFICIENTS_IDENTITY) }

        try library.convert(
            avif,
            &rows,
            format: opaque ? AVIF_RGB_FORMAT_RGB : AVIF_RGB_FORMAT_RGBA,
            rowBytes: rowBytes,
            toYUV: true
        )

        let options = !lossless && !opaque && Self.hasSmoothAlpha(image) ? smoothAlphaOptions : []
        return try write(avif, library, alphaOptions: options)
    }

    /// The file libaom makes of `avif` with `alphaOptions`; without them if it refuses one.
    private func write(
        _ avif: UnsafeMutablePointer<avifImage>,
        _ library: AVIFLibrary,
        alphaOptions: [(String, String)]
    ) throws -> [UInt8] {
        guard let encoder = library.encoderCreate() else { throw EncodeError(format: "AVIF", reason: "out of memory") }
        defer { library.encoderDestroy(encoder) }
        encoder.pointee.codecChoice = AVIF_CODEC_CHOICE_AOM
        encoder.pointee.maxThreads = 1
        encoder.pointee.speed = Int32(min(10, max(0, speed)))
        let quantizer: Int32
        switch quality {
        case .lossless: quantizer = AVIF_QUANTIZER_LOSSLESS
        case .standard: quantizer = Self.quantizer(quality: Self.defaultQuality)
        case let .lossy(value): quantizer = Self.quantizer(quality: value)
        }
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        for (key, value) in alphaOptions {
            key.withCString { key in value.withCString { library.encoderSetCodecSpecificOption(encoder, key, $0) } }
        }
        var output = avifRWData()
        defer { library.rwDataFree(&output) }
        let written = library.encoderWrite(encoder, avif, &output)
        if written == AVIF_RESULT_INVALID_CODEC_SPECIFIC_OPTION && !alphaOptions.isEmpty {
            return try write(avif, library, alphaOptions: [])
        }
        guard written == AVIF_RESULT_OK, let data = output.data else {
            throw EncodeError(format: "AVIF", reason: library.describe(written))
        }
        return [UInt8](UnsafeBufferPointer(start: data, count: output.size))
    }

    /// True when every pixel of `rows` (`channels` bytes a pixel, red, green and blue first) has
    /// equal red, green and blue.
    static func isGrey(_ rows: [UInt8], channels: Int) -> Bool {
        rows.withUnsafeBufferPointer { p in
            stride(from: 0, to: p.count, by: channels).allSatisfy { p[$0] == p[$0 + 1] && p[$0] == p[$0 + 2] }
        }
    }

    /// True when no two neighbouring pixels (side by side or one above the other) of `image`
    /// differ in alpha by more than `smoothAlphaStep`: a blurred edge, not a sharp one.
    static func hasSmoothAlpha(_ image: Image) -> Bool {
        let width = image.width
        return image.pixels.withUnsafeBufferPointer { p in
            for i in stride(from: 3, to: p.count, by: 4) {
                let alpha = Int(p[i])
                if i % (width * 4) != width * 4 - 1, abs(alpha - Int(p[i + 4])) > smoothAlphaStep { return false }
                if i + width * 4 < p.count, abs(alpha - Int(p[i + width * 4])) > smoothAlphaStep { return false }
            }
            return true
        }
    }
}
