import BlurLabelPixels
import BlurLabelSystem
import CBlurKernels

/// One blur cut into passes that threads share: any range of a pass's pieces (rows, row groups or
/// column strips) may run on any thread, at the same time as the rest of that pass, and a pass
/// starts only once the one before it is done. Each piece is computed the same way whatever range
/// it falls in, so the bytes never depend on who runs what.
///
/// `GaussianBlur.apply` runs the passes in turn on every core; `LevelFileScheduler` fills the
/// waits between them with other work. The source and destination must stay put until the last
/// pass is done; the scratch the passes use is held until `release()`.
struct BlurWork: Sendable {
    struct Pass: Sendable {
        /// How many pieces the pass has.
        let count: Int
        /// The fewest pieces worth handing to a thread at once (work with a fixed cost a chunk).
        let minimumChunk: Int
        /// Does pieces `range`.
        let run: @Sendable (Range<Int>) -> Void
    }

    private(set) var passes: [Pass] = []
    /// Samples the passes go through: how many threads the blur is worth.
    fileprivate(set) var samples = 0
    fileprivate var cleanups: [@Sendable () -> Void] = []
    /// A recursive blur's float plane, shared by the planes of one picture (their passes run in turn).
    private var floatScratch: ScratchPool.Buffer?
    /// Every buffer taken from `ScratchPool`, given back by `release()`.
    private var scratch: [ScratchPool.Buffer] = []

    /// Whether large scratch goes back to `ScratchPool` for the next blur (levels, animations)
    /// or is freed (a label's blur: a server's memory is then its renders' budgets alone).
    var keepsLargeScratch = true

    /// Gives back the scratch and frees the kernels' parameters.
    func release() {
        for cleanup in cleanups.reversed() { cleanup() }
        for buffer in scratch {
            if keepsLargeScratch || buffer.bytes < ScratchPool.largeBytes {
                ScratchPool.shared.recycle(buffer)
            } else {
                buffer.pointer.deallocate()
            }
        }
    }

    /// Touches every page of the scratch (`HugePages.touch`) until `stop` says to, so that fresh
    /// memory's faults happen now instead of in the passes, which overwrite whatever is there.
    /// Returns whether it touched all.
    func touchScratch(until stop: () -> Bool) -> Bool {
        scratch.allSatisfy { HugePages.touch($0.pointer, byteCount: $0.bytes, until: stop) }
    }

    /// A buffer of at least `bytes` bytes from `ScratchPool`, given back by `release()`.
    fileprivate mutating func takeScratch(bytes: Int) -> ScratchPool.Buffer {
        let buffer = ScratchPool.shared.take(bytes: bytes)
        scratch.append(buffer)
        return buffer
    }

    /// Runs every pass in turn on up to `threads` threads (nil: every core, asked for only when
    /// the blur is large enough to share: reading the core count costs a label-sized blur more
    /// than it saves), then releases the scratch.
    func run(threads requested: Int?) {
        let sharable = max(1, samples / GaussianBlur.samplesPerThread)
        let threads = sharable == 1 ? 1 : min(requested ?? defaultThreadCount, sharable)
        runPasses(threads: threads)
        release()
    }

    /// Runs every pass in turn on up to `threads` threads, keeping the scratch.
    func runPasses(threads: Int) {
        let promptly = samples >= Self.promptSamples
        for pass in passes {
            parallelChunks(pass.count, threads: threads, minimumChunk: pass.minimumChunk, promptly: promptly, pass.run)
        }
    }

    /// From this many samples (a 2048² mask, a 1024² RGBA picture: a millisecond or more of a σ 1
    /// blur on one core) a pass's workers are made to start at once (`concurrentPerform`'s
    /// `promptly`); a smaller blur would pay more for that than it gains.
    static let promptSamples = 1 << 22

    /// A float plane of at least `count` values for the passes, taken from the pool once.
    fileprivate mutating func floatPlane(count: Int) -> UnsafeSendable<Float> {
        if floatScratch == nil || floatScratch!.bytes < count * 4 { floatScratch = takeScratch(bytes: count * 4) }
        return UnsafeSendable(floatScratch!.pointer.bindMemory(to: Float.self, capacity: count))
    }

    fileprivate mutating func add(count: Int, minimumChunk: Int = 1, _ run: @escaping @Sendable (Range<Int>) -> Void) {
        passes.append(Pass(count: count, minimumChunk: minimumChunk, run: run))
    }
}

extension GaussianBlur {
    /// Whether an opaque picture (`opaque`) is blurred as its three colour planes (see `work`).
    func blursPlanes(opaque: Bool) -> Bool { opaqueAsPlanes && edges == .clamp && opaque }

    /// The passes that blur premultiplied RGBA `source` (`width`×`height`) into `destination`:
    /// an opaque picture with clamped edges as its three colour planes (`opaque`: nil to look),
    /// any other as RGBA. `planes`: the picture already split into them (`splitting`), for a
    /// caller blurring one picture many times; nil to split it here. The plan must not be `.copy`.
    func work(
        rgbaWidth width: Int,
        height: Int,
        source: UnsafePointer<UInt8>,
        destination: UnsafeMutablePointer<UInt8>,
        opaque: Bool? = nil,
        planes: UnsafePointer<UInt8>? = nil
    ) -> BlurWork {
        var work = BlurWork()
        work.keepsLargeScratch = keepsLargeScratch
        let count = width * height
        let asPlanes = blursPlanes(
            opaque: opaque
                ?? allOpaque(
                    UnsafeBufferPointer(
                        start: UnsafeRawPointer(source).assumingMemoryBound(to: UInt32.self),
                        count: count
                    )
                )
        )
        guard asPlanes else {
            addPasses(to: &work, width: width, height: height, channels: 4, source: source, destination: destination)
            return work
        }
        // An opaque picture's red, green and blue each blurred as a plane of its own, alpha left
        // 255: a quarter fewer samples through the passes than RGBA (4K animate: the blur's share
        // of the run fell by about a quarter). Each colour sample goes through the same arithmetic
        // as in the RGBA passes, and their clamp of colour to alpha changes no byte when alpha is
        // 255 everywhere (its blur stays within a float's rounding of 255), so the bytes are the
        // same (GaussianBlurTests).
        let split = planes ?? UnsafePointer(addSplit(to: &work, width: width, height: height, source: source))
        let blurred = UnsafeSendable(work.takeScratch(bytes: 3 * count).pointer.assumingMemoryBound(to: UInt8.self))
        let join = kernels.join_rgb!
        let dst = UnsafeSendable(destination)
        for c in 0..<3 {
            addPasses(
                to: &work,
                width: width,
                height: height,
                channels: 1,
                source: split + c * count,
                destination: blurred.pointer + c * count
            )
        }
        work.add(count: height) { rows in
            let start = rows.lowerBound * width
            let p = blurred.pointer + start
            join(p, p + count, p + 2 * count, rows.count * width, dst.pointer + 4 * start)
        }
        work.samples = 3 * count
        return work
    }

    /// The pass that splits opaque RGBA `source` into its red, green and blue planes (`width`×
    /// `height` bytes each, in that order, at the pointer returned), in scratch the work holds:
    /// for `work(…planes:)`, run before it and released after.
    func splitting(rgbaWidth width: Int, height: Int, source: UnsafePointer<UInt8>) -> (BlurWork, UnsafePointer<UInt8>)
    {
        var work = BlurWork()
        let planes = addSplit(to: &work, width: width, height: height, source: source)
        return (work, UnsafePointer(planes))
    }

    /// Appends the split of opaque RGBA `source` into three planes, in scratch taken here.
    private func addSplit(
        to work: inout BlurWork,
        width: Int,
        height: Int,
        source: UnsafePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        let count = width * height
        let planes = UnsafeSendable(work.takeScratch(bytes: 3 * count).pointer.assumingMemoryBound(to: UInt8.self))
        let split = kernels.split_rgb!
        let src = UnsafeSendable(source)
        work.add(count: height) { rows in
            let start = rows.lowerBound * width
            let p = planes.pointer + start
            split(src.pointer + 4 * start, rows.count * width, p, p + count, p + 2 * count)
        }
        work.samples = max(work.samples, 3 * count)
        return planes.pointer
    }

    /// Readies the scratch this blur of a `width`×`height` picture will take (`opaque`: whether
    /// it is, which decides the kind): takes it from `ScratchPool`, fresh if the pool has none,
    /// touches its pages (`BlurWork.touchScratch`) until `stop` says to, and gives it back, for a
    /// thread that would otherwise wait (`ImageBlurLevelPlan(decoding:)`). The passes are made,
    /// not run: the scratch depends on the size alone, and no pixel is read or written. Returns
    /// whether it touched all.
    @discardableResult
    func prepareScratch(width: Int, height: Int, opaque: Bool, until stop: () -> Bool = { false }) -> Bool {
        guard width > 0, height > 0, BlurPlan(sigma: sigma) != .copy else { return true }
        var unused: UInt8 = 0
        return withUnsafeMutablePointer(to: &unused) { nowhere in
            // As `LevelFileScheduler` takes it: the picture's planes once, then each blur's scratch.
            let split: (work: BlurWork, planes: UnsafePointer<UInt8>)? =
                blursPlanes(opaque: opaque) ? splitting(rgbaWidth: width, height: height, source: nowhere) : nil
            let work = self.work(
                rgbaWidth: width,
                height: height,
                source: nowhere,
                destination: nowhere,
                opaque: opaque,
                planes: split?.planes
            )
            let all = [split?.work, work].compactMap { $0 }.allSatisfy { $0.touchScratch(until: stop) }
            work.release()
            split?.work.release()
            return all
        }
    }

    /// The passes that blur a coverage mask's `width`×`height` values into `destination`.
    func work(
        maskWidth width: Int,
        height: Int,
        source: UnsafePointer<UInt8>,
        destination: UnsafeMutablePointer<UInt8>
    ) -> BlurWork {
        var work = BlurWork()
        work.keepsLargeScratch = keepsLargeScratch
        addPasses(to: &work, width: width, height: height, channels: 1, source: source, destination: destination)
        return work
    }

    /// The kernels that run the passes: `kernelTable`, else `variant`'s, else this CPU's best
    /// (`BlurKernelVariant.activeKernels`).
    private var kernels: bl_kernels { kernelTable ?? variant?.kernels ?? BlurKernelVariant.activeKernels }

    /// Appends the passes of one interleaved picture of `channels` samples a pixel; a recursive
    /// blur's float plane is taken once and shared by the planes of one `work` (they run in turn).
    private func addPasses(
        to work: inout BlurWork,
        width: Int,
        height: Int,
        channels: Int,
        source: UnsafePointer<UInt8>,
        destination: UnsafeMutablePointer<UInt8>
    ) {
        let plan = BlurPlan(sigma: sigma)
        guard width > 0, height > 0, plan != .copy else { return }
        work.samples = max(work.samples, width * height * channels)
        let kernels = self.kernels
        let lanes = Int(BL_LANES)
        let rowLength = width * channels
        let shape = UnsafeSendableArray(
            one: bl_layout(
                width: Int32(width),
                height: Int32(height),
                channels: Int32(channels),
                row_length: Int32(rowLength),
                float_stride: Int32((rowLength + lanes - 1) / lanes * lanes),
                clamp: edges == .clamp ? 1 : 0
            )
        )
        work.cleanups.append { shape.free() }
        // Raw addresses cross into the workers; each worker touches only its own rows or strips.
        let src = UnsafeSendable(source)
        let dst = UnsafeSendable(destination)
        switch plan {
        case .copy:
            return
        case let .fir(kernel):
            let fixed = UnsafeSendableArray(one: kernel.fixedPoint)
            work.cleanups.append { fixed.free() }
            let firRows = kernels.fixed_fir_rows!
            // Each chunk of rows filters the 2r rows above it again: chunks of 24r rows or more
            // keep that under about 4% of the work.
            work.add(count: height, minimumChunk: 24 * kernel.halfWidth) { rows in
                firRows(
                    shape.pointer,
                    fixed.pointer,
                    src.pointer,
                    dst.pointer,
                    Int32(rows.lowerBound),
                    Int32(rows.upperBound)
                )
            }
        case let .recursive(coefficients):
            // The intermediate plane, strip-major (see blur_kernels.h), reused between calls.
            let mid = work.floatPlane(count: Int(shape.pointer.pointee.float_stride) * height)
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
            work.cleanups.append { sections.free() }
            let (horizontal, vertical) = (kernels.deriche_horizontal!, kernels.deriche_vertical!)
            let rowsPerGroup = lanes / channels
            work.add(count: (height + rowsPerGroup - 1) / rowsPerGroup) { groups in
                horizontal(
                    shape.pointer,
                    sections.pointer,
                    src.pointer,
                    mid.pointer,
                    Int32(groups.lowerBound),
                    Int32(groups.upperBound)
                )
            }
            work.add(count: (rowLength + lanes - 1) / lanes) { strips in
                vertical(
                    shape.pointer,
                    sections.pointer,
                    mid.pointer,
                    dst.pointer,
                    Int32(strips.lowerBound),
                    Int32(strips.upperBound)
                )
            }
        }
    }
}
