import BlurLabelPixels
import CBlurKernels

/// What lies beyond the picture's edge while blurring.
public enum BlurEdges: Sendable {
    /// Nothing: outside is empty (for padded label canvases).
    case transparent
    /// The edge repeated (for whole images and regions).
    case clamp
}

/// A true Gaussian blur of a ``BlurRadius`` (σ in pixels; `--radius` on the command line and in
/// `BlurredLabel`, as in Core Image's `CIGaussianBlur`); σ 0 is an exact copy.
///
/// Accuracy: within one 8-bit level of a float64 sampled Gaussian everywhere. Cost: flat in sigma
/// from `BlurPlan.recursiveFrom` on. Results are identical for any thread count.
public struct GaussianBlur: Sendable {
    package let radius: BlurRadius
    package let edges: BlurEdges
    /// A veil laid over the blurred image (see `Veil`): `#ffffff4d` is the light frosted look,
    /// `#0000004d` the dark one; nil (the default) for none. Images only: a coverage mask has no
    /// colour to tint, and its blur ignores this.
    package let tint: Color?
    /// The CPU variant that runs the passes: `BlurKernelVariant.active` unless a test forces one.
    var variant: BlurKernelVariant?
    /// Whether an opaque picture with clamped edges is blurred as three colour planes (tests turn
    /// it off to compare with the RGBA passes, whose bytes it gives).
    var opaqueAsPlanes = true
    /// Whether the blur's large scratch is kept for the next blur (`ScratchPool`) or freed when
    /// it is done (labels: see `BlurWork.keepsLargeScratch`).
    package var keepsLargeScratch = true
    /// A kernel table run instead of any variant's (tests: the AVX-512 source built for a CPU
    /// without AVX-512, its instructions emulated).
    var kernelTable: bl_kernels?

    /// The standard deviation in pixels.
    package var sigma: Double { radius.sigma }

    public init(radius: BlurRadius, edges: BlurEdges = .clamp, tint: Color? = nil) {
        self.radius = radius
        self.edges = edges
        self.tint = tint
    }

    /// A blur of σ `sigma`, which must be a valid ``BlurRadius`` (``BlurError/invalidRadius(_:)``
    /// otherwise).
    package init(sigma: Double, edges: BlurEdges = .clamp, tint: Color? = nil) throws {
        self.init(radius: try BlurRadius(sigma: sigma), edges: edges, tint: tint)
    }

    /// The same blur run by the given CPU variant of its kernels (which this CPU must support:
    /// see `BlurKernelVariant.isSupported`), for tests and benchmarks. The bytes are the same.
    package func using(_ variant: BlurKernelVariant) -> GaussianBlur {
        var copy = self
        copy.variant = variant
        return copy
    }

    /// The same blur run by the given kernel table (tests only; see `kernelTable`).
    func using(kernels table: bl_kernels) -> GaussianBlur {
        var copy = self
        copy.kernelTable = table
        return copy
    }

    /// The blurred image (premultiplied RGBA, so no dark fringes), under `tint` if there is one
    /// (also at sigma 0), computed on up to `threads` threads (nil: `defaultThreadCount`, asked for
    /// only when the picture is large enough to share).
    public func apply(to image: Image, threads: Int? = nil) -> Image {
        guard BlurPlan(sigma: sigma) != .copy, !image.isEmpty else {
            guard let tint else { return image }
            return Veil(tint).applied(to: image, threads: threads)
        }
        let pixels = HugePages.bytes(count: image.pixels.count) { destination in
            image.pixels.withUnsafeBufferPointer { source in
                work(
                    rgbaWidth: image.width,
                    height: image.height,
                    source: source.baseAddress!,
                    destination: destination.baseAddress!
                )
                .run(threads: threads)
            }
        }
        var blurred = try! Image(width: image.width, height: image.height, premultipliedRGBA: pixels)
        if let tint { Veil(tint).apply(to: &blurred, threads: threads) }
        return blurred
    }

    /// The blurred coverage mask (threads as for an image).
    package func apply(to mask: CoverageMask, threads: Int? = nil) -> CoverageMask {
        guard BlurPlan(sigma: sigma) != .copy, mask.width > 0, mask.height > 0 else { return mask }
        let values = HugePages.bytes(count: mask.values.count) { destination in
            mask.values.withUnsafeBufferPointer { source in
                work(
                    maskWidth: mask.width,
                    height: mask.height,
                    source: source.baseAddress!,
                    destination: destination.baseAddress!
                )
                .run(threads: threads)
            }
        }
        return try! CoverageMask(width: mask.width, height: mask.height, values: values)
    }

    /// Below this many samples a blur stays on the calling thread: handing a label-sized picture
    /// to other threads costs more than blurring it.
    static let samplesPerThread = 1 << 16
}
