import CBlurKernels
import CBlurKernelsAVX512Emulated
import Foundation
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

/// Every CPU variant of the blur kernels must give the baseline's bytes. A variant this CPU lacks
/// cannot run here: its test is skipped, with the reason shown in the test output.
@Suite("Blur kernel variants")
struct BlurKernelVariantTests {
    /// FIR radius 1, 2, 3, 4, 5, …
    static let sigmas: [Double] = [0.25, 0.5, 0.7, 1, 1.2, 1.7, 2.5, 2.99, 3, 8, 8.99, 9, 20, 60]

    /// RGBA (premultiplied, random) and mask pictures at odd sizes, wide enough for several FIR
    /// blocks and recursive strips (the widest variant's blocks are 256 samples), blurred by
    /// `variant` and by the baseline.
    static func expectSameBytes(as variant: BlurKernelVariant) throws {
        try expectSameBytes(named: variant.rawValue) { $0.using(variant) }
    }

    static func expectSameBytes(named name: String, _ run: (GaussianBlur) -> GaussianBlur) throws {
        var random = TestRandom(state: 29)
        for (width, height) in [(203, 71), (517, 29)] {
            let pixels = random.premultipliedRGBA(count: width * height)
            let image = try Image(width: width, height: height, premultipliedRGBA: pixels)
            // Opaque: blurred as three colour planes (clamped edges), through split_rgb/join_rgb.
            let opaque = try Image(
                width: width,
                height: height,
                premultipliedRGBA: pixels.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
            )
            let mask = try CoverageMask(
                width: width,
                height: height,
                values: hardEdgedMask(width: width, height: height, seed: 5)
            )
            for sigma in sigmas {
                for edges in [BlurEdges.clamp, .transparent] {
                    let blur = try GaussianBlur(sigma: sigma, edges: edges)
                    let reference = blur.using(.baseline)
                    #expect(
                        run(blur).apply(to: image, threads: 1) == reference.apply(to: image, threads: 1),
                        "\(name) RGBA \(width)×\(height) σ \(sigma) \(edges)"
                    )
                    #expect(
                        run(blur).apply(to: opaque, threads: 2) == reference.apply(to: opaque, threads: 1),
                        "\(name) opaque RGBA \(width)×\(height) σ \(sigma) \(edges)"
                    )
                    #expect(
                        run(blur).apply(to: mask, threads: 3) == reference.apply(to: mask, threads: 1),
                        "\(name) mask \(width)×\(height) σ \(sigma) \(edges)"
                    )
                }
            }
        }
    }

    @Test(
        "x86-64-v2 gives the baseline's bytes",
        .enabled(if: BlurKernelVariant.v2.isSupported, "this CPU lacks SSE4.2")
    )
    func v2() throws { try Self.expectSameBytes(as: .v2) }

    @Test("AVX gives the baseline's bytes", .enabled(if: BlurKernelVariant.avx.isSupported, "this CPU lacks AVX"))
    func avx() throws { try Self.expectSameBytes(as: .avx) }

    @Test("AVX2 gives the baseline's bytes", .enabled(if: BlurKernelVariant.avx2.isSupported, "this CPU lacks AVX2"))
    func avx2() throws { try Self.expectSameBytes(as: .avx2) }

    @Test(
        "AVX-512 gives the baseline's bytes",
        .enabled(if: BlurKernelVariant.avx512.isSupported, "this CPU lacks AVX-512 (F, BW, DQ, VL, CD)")
    )
    func avx512() throws { try Self.expectSameBytes(as: .avx512) }

    /// The table a blur runs when nothing is forced: the active variant with this CPU's tuning
    /// (on Zen 4 with AVX-512, the AVX2 FIR for radius 1 to 4 in the AVX-512 table).
    @Test func theTableThisProcessRunsGivesTheBaselinesBytes() throws {
        try Self.expectSameBytes(named: "active (\(BlurKernelVariant.activeName))") {
            $0.using(kernels: BlurKernelVariant.activeKernels)
        }
    }

    /// Every tuning, on every variant it changes that this CPU runs (Zen 4's needs AVX-512).
    @Test(
        "every tuned table gives the baseline's bytes",
        .enabled(if: BlurKernelVariant.avx512.isSupported, "this CPU lacks AVX-512, the one variant a tuning changes")
    )
    func tunedTables() throws {
        for tuning in BlurKernelVariant.Tuning.allCases where tuning != .none {
            try Self.expectSameBytes(named: "avx512+\(tuning.rawValue)") {
                $0.using(kernels: BlurKernelVariant.avx512.kernels(tuning: tuning))
            }
        }
    }

    /// What the Zen 4 table is made of, checked without running it (so on any x86-64): a FIR of
    /// its own, which runs the AVX2 build's up to radius 4 and the AVX-512 build's beyond, the
    /// AVX-512 build's other kernels; and a tuning changes no other variant.
    @Test(.enabled(if: bl_kernels_for(Int32(BL_ISA_AVX512.rawValue)) != nil, "not x86-64"))
    func zen4TableSplitsTheFIRByRadius() throws {
        func table(_ isa: bl_isa, _ tuning: bl_tuning) -> bl_kernels {
            bl_kernels_tuned(Int32(isa.rawValue), Int32(tuning.rawValue))
        }
        func address(_ pointer: (some Any)?) -> UInt {
            guard let pointer else { return 0 }
            return unsafeBitCast(pointer, to: UInt.self)
        }
        let zen4 = table(BL_ISA_AVX512, BL_TUNING_ZEN4)
        let avx512 = table(BL_ISA_AVX512, BL_TUNING_NONE)
        let avx2 = table(BL_ISA_AVX2, BL_TUNING_NONE)
        #expect(address(zen4.fixed_fir_rows) != address(avx2.fixed_fir_rows))
        #expect(address(zen4.fixed_fir_rows) != address(avx512.fixed_fir_rows))
        for radius in 1...4 {
            #expect(bl_zen4_fir_isa(Int32(radius)) == Int32(BL_ISA_AVX2.rawValue), "radius \(radius)")
        }
        for radius in [5, 9, 28, Int(BL_FIXED_MAX_RADIUS)] {
            #expect(bl_zen4_fir_isa(Int32(radius)) == Int32(BL_ISA_AVX512.rawValue), "radius \(radius)")
        }
        #expect(address(zen4.deriche_horizontal) == address(avx512.deriche_horizontal))
        #expect(address(zen4.deriche_vertical) == address(avx512.deriche_vertical))
        #expect(address(zen4.split_rgb) == address(avx512.split_rgb))
        #expect(address(zen4.join_rgb) == address(avx512.join_rgb))
        for isa in [BL_ISA_BASELINE, BL_ISA_V2, BL_ISA_AVX, BL_ISA_AVX2] {
            #expect(
                address(table(isa, BL_TUNING_ZEN4).fixed_fir_rows) == address(table(isa, BL_TUNING_NONE).fixed_fir_rows)
            )
        }
        // Only AVX-512 is ever tuned: the other variants never ask the CPU's family.
        for variant in BlurKernelVariant.allCases where variant != .avx512 {
            #expect(BlurKernelVariant.Tuning.forThisCPU(running: variant) == .none)
        }
    }

    /// The AVX-512 variant's source (64-byte vectors: its blocks, tails and packing order) built
    /// for this CPU with its AVX-512 instructions emulated by SIMDe, so it is checked on machines
    /// without AVX-512 too (`Tests/CBlurKernelsAVX512Emulated`). What only an AVX-512 CPU checks
    /// is the compiler's AVX-512 code for the same source: the test above.
    @Test(
        "the AVX-512 source, its instructions emulated, gives the baseline's bytes",
        .enabled(if: bl_kernels_avx512_emulated_table() != nil, "not x86-64, or SIMDe (libsimde-dev) missing")
    )
    func avx512Emulated() throws {
        let table = try #require(bl_kernels_avx512_emulated_table()).assumingMemoryBound(to: bl_kernels.self).pointee
        try Self.expectSameBytes(named: "avx512 (emulated)") { $0.using(kernels: table) }
        // and its column tiles, as the test below does for the variant that runs here
        for sigma in [1.0, 2.5, 8.99] {
            let kernel = FIRKernel(sigma: sigma)
            let width = kernel.tileSamples / 4 * 2 + 37
            let height = 23
            let values = hardEdgedMask(width: width, height: height, seed: 17)
            let image = try Image(width: width, height: height, premultipliedRGBA: values.flatMap { [$0, $0, $0, $0] })
            let blur = try GaussianBlur(sigma: sigma, edges: .transparent)
            #expect(
                blur.using(kernels: table).apply(to: image, threads: 2)
                    == blur.using(.baseline).apply(to: image, threads: 1),
                "σ \(sigma)"
            )
        }
    }

    /// The small-σ FIR works in column tiles (`FIRKernel.tileSamples`) counted in samples, so an
    /// RGBA picture is cut at a quarter of the pixels a mask of the same width is: equal bytes
    /// prove the tiling changes nothing.
    @Test("column tiles of the small-σ FIR change no byte", arguments: [1.0, 2.5, 8.99])
    func columnTiles(sigma: Double) throws {
        let kernel = FIRKernel(sigma: sigma)
        let width = kernel.tileSamples / 4 * 2 + 37
        let height = 23
        #expect(width * 4 > 2 * kernel.tileSamples && width < kernel.tileSamples)  // RGBA: 3 tiles; mask: 1
        let values = hardEdgedMask(width: width, height: height, seed: 17)
        let image = try Image(width: width, height: height, premultipliedRGBA: values.flatMap { [$0, $0, $0, $0] })
        let mask = try CoverageMask(width: width, height: height, values: values)
        for edges in [BlurEdges.clamp, .transparent] {
            let blur = try GaussianBlur(sigma: sigma, edges: edges)
            #expect(
                blur.apply(to: image, threads: 2).pixels
                    == blur.apply(to: mask, threads: 1).values.flatMap { [$0, $0, $0, $0] },
                "σ \(sigma) \(edges)"
            )
        }
    }

    @Test func variantsAreOrderedNarrowestFirst() {
        #expect(BlurKernelVariant.baseline.isSupported)
        // A CPU that runs a variant runs every narrower one.
        let supported = BlurKernelVariant.allCases.map(\.isSupported)
        #expect(supported == supported.sorted(by: { $0 && !$1 }))
        #expect(BlurKernelVariant.active.isSupported)
    }

    /// The variants are chosen from glibc's CPU survey (no CPUID of our own); the kernel's list
    /// of the CPU's flags is an independent answer, and the two must agree on every variant.
    @Test(
        "the supported variants match the CPU flags Linux reports",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/cpuinfo"), "no /proc/cpuinfo")
    )
    func matchesCPUInfo() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flagsLine = try #require(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") })
        let flags = Set(flagsLine.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ":" }).map(String.init))
        let needs: [(BlurKernelVariant, [String])] = [
            (.v2, ["sse4_2", "popcnt", "ssse3"]),
            (.avx, ["avx"]),
            (.avx2, ["avx2", "fma", "bmi1", "bmi2"]),
            (.avx512, ["avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512cd"]),
        ]
        var expected = true
        for (variant, features) in needs {
            expected = expected && features.allSatisfy(flags.contains)
            #expect(variant.isSupported == expected, "\(variant): /proc/cpuinfo says \(expected)")
        }
    }

    @Test("BLURLABEL_ISA: honoured when the CPU has it, refused with a warning otherwise")
    func choosing() {
        let upToAVX2: (BlurKernelVariant) -> Bool = { $0 != .avx512 }
        #expect(BlurKernelVariant.choose(requested: nil, supports: upToAVX2) == (.avx2, nil))
        #expect(BlurKernelVariant.choose(requested: "", supports: upToAVX2) == (.avx2, nil))
        #expect(BlurKernelVariant.choose(requested: "v2", supports: upToAVX2) == (.v2, nil))
        #expect(BlurKernelVariant.choose(requested: "BASELINE", supports: upToAVX2) == (.baseline, nil))
        let lacking = BlurKernelVariant.choose(requested: "avx512", supports: upToAVX2)
        #expect(lacking.variant == .avx2)
        #expect(lacking.warning == "BLURLABEL_ISA=avx512: this CPU lacks that variant; using avx2")
        let unknown = BlurKernelVariant.choose(requested: "sse9", supports: upToAVX2)
        #expect(unknown.variant == .avx2)
        #expect(unknown.warning?.contains("is not one of baseline, v2, avx, avx2, avx512") == true)
    }
}
