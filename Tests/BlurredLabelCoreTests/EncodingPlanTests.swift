import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurredLabelCore

/// `EncodingPlan.choose`, the one decision every write path follows: every outcome (each format;
/// for PNG each writer with each deflater) and each boundary it draws (pixels, level, caller,
/// settings), and `write` following it.
@Suite("Encoding plan")
struct EncodingPlanTests {
    static let label = PNGEncoder.smallImagePixels
    static let large = PNGEncoder.parallelImagePixels

    /// The plan for `pixels` pixels in `colors` at `level`, for `caller`, with settings changed by
    /// `configure`.
    func plan(
        _ pixels: Int,
        _ colors: PNGColorPlan = .rgb,
        level: Int = 6,
        caller: EncodingPlan.Caller = .singleFile,
        configure: (inout PNGEncoder) -> Void = { _ in }
    ) -> PNGWritePlan? {
        var encoder = PNGEncoder(compressionLevel: level)
        configure(&encoder)
        let chosen = EncodingPlan.choose(.png, pixels: pixels, colors: colors, encoder: encoder, caller: caller)
        guard case let .png(plan) = chosen else {
            Issue.record("a PNG asked for, \(chosen) planned")
            return nil
        }
        return plan
    }

    @Test func labelsGoToTheSmallWriterWithRunsOrLibdeflate() {
        for pixels in [1, 3_000, Self.label] {
            for caller in [EncodingPlan.Caller.singleFile, .oneOfMany] {
                #expect(plan(pixels, caller: caller) == .small(.paeth, .runs))
                #expect(plan(pixels, .grey(bitDepth: 8), caller: caller) == .small(.paeth, .runs))
            }
        }
        // Palettes keep libpng's unfiltered indices; grey under 8 bits is Paeth as `.automatic` asks;
        // both are sharp patterns, which libdeflate's matches shrink better than runs.
        #expect(plan(100, .palette(entries: [0, 0xFFFF_FFFF], bitDepth: 1)) == .small(.none, .libdeflate(level: 1)))
        #expect(plan(100, .grey(bitDepth: 4)) == .small(.paeth, .libdeflate(level: 1)))
        // zlib's levels 1–6 are runs for 8-bit Paeth rows; 7–9 ask for small files before speed.
        for level in 1...6 { #expect(plan(100, level: level) == .small(.paeth, .runs)) }
        for level in 7...9 { #expect(plan(100, level: level) == .small(.paeth, .libdeflate(level: Int32(level)))) }
    }

    @Test func aPictureLargerThanALabelGoesToLibpngUntilItIsLarge() {
        #expect(plan(Self.label + 1) == .libpng(filters: nil, strategy: .standard, zlibLevel: 6))
        #expect(
            plan(Self.label + 1, .palette(entries: [0], bitDepth: 1))
                == .libpng(filters: nil, strategy: .standard, zlibLevel: 6)
        )
        #expect(plan(Self.large - 1, level: 9) == .libpng(filters: nil, strategy: .standard, zlibLevel: 9))
    }

    @Test func aLargePictureOnItsOwnIsCompressedOnEveryCore() {
        #expect(plan(Self.large) == .parallel(zlibLevel: 6))
        #expect(plan(Self.large, .grey(bitDepth: 2), level: 1) == .parallel(zlibLevel: 1))
        #expect(plan(1 << 28, level: 9) == .parallel(zlibLevel: 9))
    }

    /// Frames encoded one a core: the whole picture on the calling thread, other bytes than a
    /// single file of the same picture (`Caller.oneOfMany`), runs at level 1.
    @Test func oneOfManyLargerThanALabelIsWrittenWholeOnTheCallingThread() {
        #expect(plan(Self.label + 1, level: 1, caller: .oneOfMany) == .whole(.runs))
        #expect(plan(Self.large, .palette(entries: [0], bitDepth: 8), level: 1, caller: .oneOfMany) == .whole(.runs))
        for level in 2...9 {
            #expect(plan(Self.label + 1, level: level, caller: .oneOfMany) == .whole(.libdeflate(level: Int32(level))))
            #expect(plan(Self.large, level: level, caller: .oneOfMany) == .whole(.libdeflate(level: Int32(level))))
        }
    }

    @Test func levelZeroIsStoredByLibpngAtAnySizeForAnyCaller() {
        for caller in [EncodingPlan.Caller.singleFile, .oneOfMany] {
            #expect(plan(100, level: 0, caller: caller) == .libpng(filters: .paeth, strategy: .runLength, zlibLevel: 0))
            #expect(
                plan(Self.label + 1, level: 0, caller: caller)
                    == .libpng(filters: nil, strategy: .standard, zlibLevel: 0)
            )
            #expect(
                plan(Self.large, level: 0, caller: caller) == .libpng(filters: nil, strategy: .standard, zlibLevel: 0)
            )
        }
    }

    /// Levels outside 0…9 set after `init` are clamped, as `init` clamps them.
    @Test func levelsSetLaterAreClamped() {
        #expect(plan(100) { $0.compressionLevel = 12 } == .small(.paeth, .libdeflate(level: 9)))
        #expect(
            plan(Self.large) { $0.compressionLevel = -3 } == .libpng(filters: nil, strategy: .standard, zlibLevel: 0)
        )
    }

    /// Filters or a strategy asked for (benchmarks, tests) leave the automatic writers: libpng,
    /// except where the small writer makes libpng's bytes (run-length, one filter it writes).
    @Test func chosenSettingsGoToLibpngOrTheSmallWriterThatMatchesIt() {
        #expect(plan(100) { $0.strategy = .standard } == .libpng(filters: nil, strategy: .standard, zlibLevel: 6))
        #expect(plan(100) { $0.filters = PNGEncoder.RowFilters.none } == .small(.none, .libdeflate(level: 1)))
        #expect(
            plan(100) { $0.filters = [.sub, .up] } == .libpng(filters: [.sub, .up], strategy: .runLength, zlibLevel: 6)
        )
        #expect(
            plan(100) {
                $0.strategy = .runLength
                $0.filters = .paeth
            } == .small(.paeth, .runs)
        )
        #expect(plan(100, .grey(bitDepth: 4)) { $0.strategy = .runLength } == .small(.none, .libdeflate(level: 1)))
        #expect(plan(100) { $0.strategy = .runLength } == .libpng(filters: nil, strategy: .runLength, zlibLevel: 6))
        #expect(
            plan(Self.label + 1) {
                $0.strategy = .runLength
                $0.filters = .paeth
            } == .libpng(filters: .paeth, strategy: .runLength, zlibLevel: 6)
        )
        for caller in [EncodingPlan.Caller.singleFile, .oneOfMany] {
            #expect(
                plan(Self.large, caller: caller) { $0.filters = .all }
                    == .libpng(filters: .all, strategy: .standard, zlibLevel: 6)
            )
            #expect(
                plan(Self.large, caller: caller) { $0.strategy = .filtered }
                    == .libpng(filters: nil, strategy: .filtered, zlibLevel: 6)
            )
        }
        #expect(plan(100) { $0.libpngOnly = true } == .libpng(filters: .paeth, strategy: .runLength, zlibLevel: 6))
    }

    /// The grey label rows (`encodeGrey`) are written only where the plan is the small writer's.
    @Test func greyLabelRowsFollowThePlan() throws {
        let mask = try CoverageMask(width: 20, height: 10, values: (0..<200).map { UInt8($0 % 251) })
        let levels = (0...255).map { ~UInt8($0) }
        #expect(PNGEncoder().encodeGrey(mask, levels: levels) != nil)
        #expect(PNGEncoder(compressionLevel: 0).encodeGrey(mask, levels: levels) == nil)
        var libpngOnly = PNGEncoder()
        libpngOnly.libpngOnly = true
        #expect(libpngOnly.encodeGrey(mask, levels: levels) == nil)
        let wide = try CoverageMask(
            width: Self.label + 1,
            height: 1,
            values: [UInt8](repeating: 7, count: Self.label + 1)
        )
        #expect(PNGEncoder().encodeGrey(wide, levels: levels) == nil)
    }

    /// WebP and AVIF: their encoder at the quality asked for, the format's default (a number,
    /// never `.standard`) when none is, whatever the picture, the caller or PNG's settings.
    @Test func webpAndAVIFGetTheirEncoderAtTheQualityAskedFor() {
        var settings = [PNGEncoder(), PNGEncoder(compressionLevel: 0), PNGEncoder(compressionLevel: 9, filters: .all)]
        settings[0].libpngOnly = true
        for pixels in [1, Self.label, Self.label + 1, Self.large] {
            for colors in [PNGColorPlan.rgb, .rgba, .grey(bitDepth: 1), .palette(entries: [0], bitDepth: 1)] {
                for caller in [EncodingPlan.Caller.singleFile, .oneOfMany] {
                    for encoder in settings {
                        func choose(_ format: PictureFormat) -> EncodingPlan {
                            EncodingPlan.choose(
                                format,
                                pixels: pixels,
                                colors: colors,
                                encoder: encoder,
                                caller: caller
                            )
                        }
                        #expect(choose(.webp()) == .webp(WebPEncoder(quality: .lossy(100), method: 4)))
                        #expect(choose(.webp(.lossy(80))) == .webp(WebPEncoder(quality: .lossy(80), method: 4)))
                        #expect(choose(.webp(.lossless)) == .webp(WebPEncoder(quality: .lossless, method: 4)))
                        #expect(choose(.avif()) == .avif(AVIFEncoder(quality: .lossy(94), speed: 6)))
                        #expect(choose(.avif(.lossy(50))) == .avif(AVIFEncoder(quality: .lossy(50), speed: 6)))
                        #expect(choose(.avif(.lossless)) == .avif(AVIFEncoder(quality: .lossless, speed: 6)))
                    }
                }
            }
        }
        #expect(WebPEncoder.defaultQuality == 100 && AVIFEncoder.defaultQuality == 94)
    }

    /// `encode(_:as:)` writes what the plan says: the WebP and AVIF encoders' files, and for PNG
    /// `encode`'s bytes.
    @Test func encodingAFormatWritesThePlannedFile() throws {
        let image = try Image(
            width: 40,
            height: 12,
            premultipliedRGBA: (0..<(40 * 12)).flatMap { i -> [UInt8] in
                let v = UInt8((i * 7) % 256)
                return [v, v / 2, 255 - v, 255]
            }
        )
        for level in [0, 6, 9] {
            let encoder = PNGEncoder(compressionLevel: level)
            #expect(try encoder.encode(image, as: .png) == encoder.encode(image))
            #expect(try encoder.encode(image, as: .webp()) == WebPEncoder(quality: .lossy(100)).encode(image))
            #expect(try encoder.encode(image, as: .webp(.lossy(30))) == WebPEncoder(quality: .lossy(30)).encode(image))
            #expect(try encoder.encode(image, as: .avif()) == AVIFEncoder(quality: .lossy(94)).encode(image))
        }
        let webp = try PNGEncoder().encode(image, as: .webp())
        let avif = try PNGEncoder().encode(image, as: .avif())
        #expect(Array(webp[0..<4]) == Array("RIFF".utf8) && Array(webp[8..<12]) == Array("WEBP".utf8))
        #expect(Array(avif[4..<12]) == Array("ftypavif".utf8))
        #expect(try PictureFormat.webp().encode(image) == webp)
    }
}
