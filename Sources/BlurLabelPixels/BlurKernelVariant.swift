import BlurLabelSystem
import CBlurKernels

/// Which CPU variant of the blur's inner loops runs. Chosen once, on the first blur, from the
/// CPU's features — the widest the CPU runs — or forced with the environment variable
/// `BLURLABEL_ISA` (`baseline`, `v2`, `avx`, `avx2`, `avx512`), read once. A forced variant this
/// CPU lacks, or an unknown name, is refused with one line on standard error, and the widest
/// variant the CPU runs is used instead. Every variant gives the same bytes.
package enum BlurKernelVariant: String, CaseIterable, Sendable {
    /// x86-64 with SSE2 only (any other architecture: its plain build).
    case baseline
    /// x86-64-v2: SSE4.2 and POPCNT.
    case v2
    /// x86-64-v2 plus AVX, without AVX2 (Sandy Bridge, Ivy Bridge).
    case avx
    /// x86-64-v3: AVX2 (with FMA on the CPU, never used: it would change the bytes).
    case avx2
    /// x86-64-v4: AVX-512 F, BW, DQ, VL and CD.
    case avx512

    /// The environment variable that forces a variant.
    package static let environmentVariable = "BLURLABEL_ISA"

    /// The variant in use by this process.
    package static var active: BlurKernelVariant { chosen.variant }

    /// The kernel table a blur runs unless a variant is forced on it: the active variant's,
    /// tuned for this CPU's micro-architecture (`Tuning.forThisCPU`) unless `BLURLABEL_ISA` chose
    /// the variant. Every table gives the same bytes.
    package static var activeKernels: bl_kernels { tuned.kernels }

    /// The tuning applied to the active variant's table (`.none` when the variant was forced).
    package static var activeTuning: Tuning { tuned.tuning }

    /// The active variant and its tuning, as benchmarks print them: `avx2`, `avx512+zen4`.
    package static var activeName: String {
        activeTuning == .none ? active.rawValue : "\(active.rawValue)+\(activeTuning.rawValue)"
    }

    private static let chosen: (variant: BlurKernelVariant, forced: Bool) = {
        let requested = getenv(environmentVariable).map { String(cString: $0) }
        let (variant, warning) = choose(requested: requested)
        if let warning {
            let line = Array("blurlabel: \(warning)\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        }
        return (variant, warning == nil && !(requested ?? "").isEmpty)
    }()

    private static let tuned: (tuning: Tuning, kernels: bl_kernels) = {
        let tuning = chosen.forced ? Tuning.none : Tuning.forThisCPU(running: chosen.variant)
        return (tuning, chosen.variant.kernels(tuning: tuning))
    }()

    /// A micro-architecture whose fastest kernel table mixes variants (`bl_tuning`): a table per
    /// CPU family, fixed, so the choice is the same on every run (and, like every variant, gives
    /// the same bytes). Intel CPUs, and AMD's other families, run their variant's own table.
    package enum Tuning: String, CaseIterable, Sendable {
        /// The variant's own table.
        case none
        /// AMD Zen 4 with AVX-512 (512-bit instructions run as two 256-bit halves): the
        /// fixed-point FIR from the AVX2 build up to radius 4 (`bl_zen4_fir_isa`), the rest AVX-512.
        case zen4

        var cValue: bl_tuning {
            switch self {
            case .none: BL_TUNING_NONE
            case .zen4: BL_TUNING_ZEN4
            }
        }

        /// The tuning for this CPU when it runs `variant` (asks the CPU's vendor and family only
        /// for AVX-512, the one variant a tuning changes).
        static func forThisCPU(running variant: BlurKernelVariant) -> Tuning {
            bl_tuning_for(Int32(variant.isa.rawValue)) == Int32(BL_TUNING_ZEN4.rawValue) ? .zen4 : .none
        }
    }

    /// Whether this CPU runs the variant.
    package var isSupported: Bool { bl_isa_supported(Int32(isa.rawValue)) != 0 }

    /// The variant for a `BLURLABEL_ISA` value (nil or empty: the widest supported), and the
    /// warning to print when the request cannot be honoured.
    static func choose(
        requested: String?,
        supports: (BlurKernelVariant) -> Bool = { $0.isSupported }
    )
        -> (variant: BlurKernelVariant, warning: String?)
    {
        let widest = allCases.last(where: supports) ?? .baseline
        guard let requested, !requested.isEmpty else { return (widest, nil) }
        guard let variant = BlurKernelVariant(rawValue: requested.lowercased()) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            return (widest, "\(environmentVariable)=\(requested) is not one of \(names); using \(widest.rawValue)")
        }
        guard supports(variant) else {
            return (
                widest, "\(environmentVariable)=\(requested): this CPU lacks that variant; using \(widest.rawValue)"
            )
        }
        return (variant, nil)
    }

    var isa: bl_isa {
        switch self {
        case .baseline: BL_ISA_BASELINE
        case .v2: BL_ISA_V2
        case .avx: BL_ISA_AVX
        case .avx2: BL_ISA_AVX2
        case .avx512: BL_ISA_AVX512
        }
    }

    /// The variant's number as the C kernels count them (`bl_isa`; CPNGKernels' `png_kernels_for`
    /// takes the same), for the codecs' own per-CPU kernels.
    package var number: Int32 { Int32(isa.rawValue) }

    /// The variant's kernel table (the variant must be supported).
    package var kernels: bl_kernels { kernels(tuning: .none) }

    /// The variant's kernel table with `tuning` applied (the variant, and for `.zen4` AVX2, must
    /// be supported).
    package func kernels(tuning: Tuning) -> bl_kernels {
        precondition(isSupported, "blur kernel variant \(rawValue) is not supported by this CPU")
        return bl_kernels_tuned(Int32(isa.rawValue), Int32(tuning.cValue.rawValue))
    }
}
