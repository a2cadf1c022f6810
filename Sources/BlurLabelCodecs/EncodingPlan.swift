import BlurLabelPixels

/// How a picture is written: its format and, for PNG, the writer and the deflater with its level;
/// for WebP and AVIF the encoder with its settings. Chosen in one place,
/// `choose(_:pixels:colors:encoder:caller:)`, from the format asked for, the picture, the PNG
/// encoder's settings and what the caller needs, and written by `write(_:colors:encoder:)`: every
/// write path follows it (`PNGEncoder.encode` and `encode(_:as:)`, `encodeOnCallingThread`,
/// `encodeGrey`'s grey label rows, and through `encode` APNG's frames), so a new format is a new
/// case here, its choice and its writer.
enum EncodingPlan: Equatable, Sendable {
    /// A PNG file.
    case png(PNGWritePlan)
    /// A WebP file, by this encoder (its quality never `.standard`: the plan names the number).
    case webp(WebPEncoder)
    /// An AVIF file, by this encoder (its quality never `.standard`).
    case avif(AVIFEncoder)

    /// What a file is written for.
    enum Caller: Equatable, Sendable {
        /// A file on its own (`PNGEncoder.encode`): a large picture may be compressed on every core.
        case singleFile
        /// One of several files encoded at once, one a core (a picture's animation frames,
        /// `PNGEncoder.encodeOnCallingThread`): compressed on the calling thread alone.
        case oneOfMany
    }

    /// The plan for a `pixels`-pixel picture stored (as PNG) in `colors`, in `format`, written by
    /// `encoder` (PNG's settings) for `caller`. WebP and AVIF: their encoder at the quality asked
    /// for, `.standard` being the format's default quality (`WebPEncoder.defaultQuality`,
    /// `AVIFEncoder.defaultQuality`), with the default method or speed. PNG: `pngPlan`.
    static func choose(
        _ format: PictureFormat,
        pixels: Int,
        colors: PNGColorPlan,
        encoder: PNGEncoder,
        caller: Caller
    ) -> EncodingPlan {
        switch format {
        case .png:
            return .png(pngPlan(pixels: pixels, colors: colors, encoder: encoder, caller: caller))
        case let .webp(quality):
            return .webp(WebPEncoder(quality: quality == .standard ? .lossy(WebPEncoder.defaultQuality) : quality))
        case let .avif(quality):
            return .avif(AVIFEncoder(quality: quality == .standard ? .lossy(AVIFEncoder.defaultQuality) : quality))
        }
    }

    /// The file for `image`, whose pixels `colors` holds exactly, as planned (`encoder` writes
    /// the PNG).
    func write(_ image: Image, colors: PNGColorPlan, encoder: PNGEncoder) throws -> [UInt8] {
        switch self {
        case let .png(plan): return try encoder.write(image, colors: colors, plan: plan)
        case let .webp(webp): return try webp.encode(image)
        case let .avif(avif): return try avif.encode(image)
        }
    }

    /// A PNG's writer. With `.automatic` settings, no filters asked for and a level from 1 to 9:
    /// - one of many, larger than a label (`PNGEncoder.smallImagePixels`): `WholePNGWriter`. Its
    ///   whole-picture libdeflate stream is smaller than zlib's and, at level 1, its runs are about
    ///   3× as fast, so these files have other bytes than a single file of the same picture: a
    ///   single file spreads over the cores (zlib's pieces can be joined, libdeflate's cannot),
    ///   one of many already has its own core;
    /// - from `PNGEncoder.parallelImagePixels` pixels: `ParallelPNGWriter`, zlib on every core;
    /// - otherwise as below.
    /// Then libpng's settings (`.automatic`: run-length with Paeth for a label, palettes
    /// unfiltered; the standard strategy above), written by `SmallPNGWriter` (runs for 8-bit
    /// Paeth rows at levels 1–6, else libdeflate; the same filtered rows) where they are
    /// run-length with one filter it writes, a level from 1 and a label's size at most, else by
    /// libpng (level 0, other strategies or filters, `libpngOnly`).
    private static func pngPlan(pixels: Int, colors: PNGColorPlan, encoder: PNGEncoder, caller: Caller) -> PNGWritePlan
    {
        let level = min(9, max(0, encoder.compressionLevel))
        let small = pixels <= PNGEncoder.smallImagePixels
        let automatic = encoder.strategy == .automatic && encoder.filters == nil && level > 0
        if automatic && caller == .oneOfMany && !small {
            return .whole(level == 1 ? .runs : .libdeflate(level: Int32(level)))
        }
        if automatic && pixels >= PNGEncoder.parallelImagePixels {
            return .parallel(zlibLevel: level)
        }
        var strategy = encoder.strategy
        var filters = encoder.filters
        if strategy == .automatic {
            strategy = small ? .runLength : .standard
            if small && filters == nil && !colors.isPalette { filters = .paeth }
        }
        if strategy == .runLength, level > 0, small, !encoder.libpngOnly,
            let filter = PNGWritePlan.singleFilter(filters, colors: colors)
        {
            return .small(filter, SmallPNGWriter.deflater(level, filter: filter, colors: colors))
        }
        return .libpng(filters: filters, strategy: strategy, zlibLevel: level)
    }
}

/// A PNG file's writer, with the deflater and level it compresses the filtered rows at.
enum PNGWritePlan: Equatable, Sendable {
    /// `SmallPNGWriter`: every row with this filter, the whole image compressed in one call by
    /// this deflater (libpng's chunks and filtered rows).
    case small(SmallPNGWriter.RowFilter, PNGDeflater)
    /// `WholePNGWriter`: Paeth (minimum-sum for palettes and grey under 8 bits), on the calling
    /// thread.
    case whole(PNGDeflater)
    /// `ParallelPNGWriter`: libpng's minimum-sum filters, 1 MiB pieces deflated by zlib at this
    /// level on every core, joined.
    case parallel(zlibLevel: Int)
    /// libpng, trying these filters (nil: its choice), zlib at this strategy and level (0 stores).
    case libpng(filters: PNGEncoder.RowFilters?, strategy: PNGEncoder.Strategy, zlibLevel: Int)

    /// The one row filter libpng would use, when it is one `SmallPNGWriter` writes: Paeth when
    /// asked for alone, None when asked for alone or when no filter is asked for and libpng's
    /// default is None (a palette, or fewer than 8 bits a sample); nil otherwise (libpng's
    /// adaptive choice).
    static func singleFilter(_ filters: PNGEncoder.RowFilters?, colors: PNGColorPlan) -> SmallPNGWriter.RowFilter? {
        switch filters {
        case .some(.paeth): return .paeth
        case .some(.none): return SmallPNGWriter.RowFilter.none
        case nil where colors.isPalette || colors.bitDepth < 8: return SmallPNGWriter.RowFilter.none
        default: return nil
        }
    }
}
