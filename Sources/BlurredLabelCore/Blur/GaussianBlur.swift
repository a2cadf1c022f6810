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
                if opaqueAsPlanes && edges == .clamp
                    && allOpaque(UnsafeRawBufferPointer(source).bindMemory(to: UInt32.self))
                {
                    runPlanes(
                        width: image.width,
                        height: image.height,
                        source: source.baseAddress!,
                        destination: destination.baseAddress!,
                        threads: threads
                    )
                } else {
                    run(
                        width: image.width,
                        height: image.height,
                        channels: 4,
                        source: source.baseAddress!,
                        destination: destination.baseAddress!,
                        threads: threads
                    )
                }
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
                run(
                    width: mask.width,
                    height: mask.height,
                    channels: 1,
                    source: source.baseAddress!,
                    destination: destination.baseAddress!,
                    threads: threads
                )
            }
        }
        return try! CoverageMask(width: mask.width, height: mask.height, values: values)
    }

    /// An opaque picture's blur with edges clamped: its red, green and blue each blurred as a
    /// plane of its own, alpha left 255, a quarter fewer samples through the passes than RGBA
    /// (4K animate: the blur's share of the run fell by about a quarter). Each colour sample
    /// goes through the same arithmetic as in the RGBA passes, and their clamp of colour to alpha
    /// changes no byte when alpha is 255 everywhere (its blur stays within a float's rounding of
    /// 255), so the bytes are the same (GaussianBlurTests).
    private func runPlanes(
        width: Int,
        height: Int,
        source: UnsafePointer<UInt8>,
        destination: UnsafeMutablePointer<UInt8>,
        threads: Int?
    ) {
        let count = width * height
        let buffer = ScratchPool.shared.take(bytes: 6 * count)
        defer { ScratchPool.shared.recycle(buffer) }
        let planes = UnsafeSendable(buffer.pointer.assumingMemoryBound(to: UInt8.self))
        let kernels = kernelTable ?? (variant ?? .active).kernels
        let (split, join) = (kernels.split_rgb!, kernels.join_rgb!)
        let (src, dst) = (UnsafeSendable(source), UnsafeSendable(destination))
        // As in `run`: a label-sized picture stays on this thread without asking for the cores.
        let sharable = max(1, 3 * count / Self.samplesPerThread)
        let sharing = sharable == 1 ? 1 : min(threads ?? defaultThreadCount, sharable)
        parallelChunks(height, threads: sharing) { rows in
            let start = rows.lowerBound * width
            let p = planes.pointer + start
            split(src.pointer + 4 * start, rows.count * width, p, p + count, p + 2 * count)
        }
        for c in 0..<3 {
            run(
                width: width,
                height: height,
                channels: 1,
                source: planes.pointer + c * count,
                destination: planes.pointer + (3 + c) * count,
                threads: threads
            )
        }
        parallelChunks(height, threads: sharing) { rows in
            let start = rows.lowerBound * width
            let p = planes.pointer + 3 * count + start
            join(p, p + count, p + 2 * count, rows.count * width, dst.pointer + 4 * start)
        }
    }

    /// Below this many samples a blur stays on the calling thread: handing a label-sized picture
    /// to other threads costs more than blurring it.
    static let samplesPerThread = 1 << 16

    private func run(
        width: Int,
        height: Int,
        channels: Int,
        source: UnsafePointer<UInt8>,
        destination: UnsafeMutablePointer<UInt8>,
        threads requested: Int?
    ) {
        let plan = BlurPlan(sigma: sigma)
        // A label-sized picture stays on this thread without asking how many cores there are
        // (that reads cgroup files: about 20 µs of a one-label process).
        let sharable = max(1, width * height * channels / Self.samplesPerThread)
        let threads = sharable == 1 ? 1 : min(requested ?? defaultThreadCount, sharable)
        guard width > 0, height > 0, plan != .copy else { return }
        let kernels = kernelTable ?? (variant ?? .active).kernels
        let lanes = Int(BL_LANES)
        let rowLength = width * channels
        let layout = bl_layout(
            width: Int32(width),
            height: Int32(height),
            channels: Int32(channels),
            row_length: Int32(rowLength),
            float_stride: Int32((rowLength + lanes - 1) / lanes * lanes),
            clamp: edges == .clamp ? 1 : 0
        )
        // Raw addresses cross into the workers; each worker touches only its own rows or strips.
        let src = UnsafeSendable(source)
        let dst = UnsafeSendable(destination)
        let shape = UnsafeSendableArray([layout])
        defer { shape.free() }
        switch plan {
        case .copy:
            return
        case let .fir(kernel):
            let fixed = UnsafeSendableArray([kernel.fixedPoint])
            let firRows = kernels.fixed_fir_rows!
            // Each chunk of rows filters the 2r rows above it again: chunks of 24r rows or more
            // keep that under about 4% of the work.
            parallelChunks(height, threads: threads, minimumChunk: 24 * kernel.halfWidth) { rows in
                firRows(
                    shape.pointer,
                    fixed.pointer,
                    src.pointer,
                    dst.pointer,
                    Int32(rows.lowerBound),
                    Int32(rows.upperBound)
                )
            }
            fixed.free()
        case let .recursive(coefficients):
            // The intermediate plane, strip-major (see blur_kernels.h), reused between calls.
            let planeCount = Int(layout.float_stride) * height
            let buffer = ScratchPool.shared.take(bytes: planeCount * 4)
            defer { ScratchPool.shared.recycle(buffer) }
            let mid = UnsafeSendable(buffer.pointer.bindMemory(to: Float.self, capacity: planeCount))
            let sections = UnsafeSendableArray(
                coefficients.sections.map {
                    bl_section(
                        n0: $0.n0,
                        n1: $0.n1,
                        m1: $0.m1,
                        m2: $0.m2,
                        p1: $0.p1,
                        p2: $0.p2,
                        causal_gain: $0.causalGain,
                        anticausal_gain: $0.anticausalGain
                    )
                }
            )
            let rowsPerGroup = lanes / channels
            parallelRanges((height + rowsPerGroup - 1) / rowsPerGroup, threads: threads) { groups in
                kernels.deriche_horizontal!(
                    shape.pointer,
                    sections.pointer,
                    src.pointer,
                    mid.pointer,
                    Int32(groups.lowerBound),
                    Int32(groups.upperBound)
                )
            }
            parallelRanges((rowLength + lanes - 1) / lanes, threads: threads) { strips in
                kernels.deriche_vertical!(
                    shape.pointer,
                    sections.pointer,
                    mid.pointer,
                    dst.pointer,
                    Int32(strips.lowerBound),
                    Int32(strips.upperBound)
                )
            }
            sections.free()
        }
    }
}

/// A copy of an array in memory that worker threads may read; freed by its owner.
struct UnsafeSendableArray<Element>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Element>
    init(_ elements: [Element]) {
        pointer = .allocate(capacity: max(1, elements.count))
        pointer.initialize(from: elements, count: elements.count)
    }
    func free() { pointer.deallocate() }
}

/// A raw pointer handed to worker threads that each touch a disjoint part of its memory.
struct UnsafeSendable<Pointee>: @unchecked Sendable {
    let raw: UnsafeMutablePointer<Pointee>
    init(_ pointer: UnsafeMutablePointer<Pointee>) { raw = pointer }
    init(_ pointer: UnsafePointer<Pointee>) { raw = UnsafeMutablePointer(mutating: pointer) }
    var pointer: UnsafeMutablePointer<Pointee> { raw }
}
