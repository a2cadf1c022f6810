import BlurLabelPixels
import CPNGKernels

/// The PNG codec's own per-CPU kernels (CPNGKernels), of the variant the CPU survey chose for the
/// blur (`BlurKernelVariant.active`): every variant gives the same bytes, the widest is fastest.
package enum PNGKernels {
    /// The table this process runs.
    package static let active = table(for: BlurKernelVariant.active)

    /// `variant`'s table (the variant must be supported: `BlurKernelVariant.isSupported`).
    package static func table(for variant: BlurKernelVariant) -> png_kernels {
        precondition(variant.isSupported, "PNG kernel variant \(variant.rawValue) is not supported by this CPU")
        return png_kernels_for(variant.number)!.pointee
    }
}
