import BlurLabelCodecs
import BlurLabelPixels
import BlurLabelSystem

/// The levels of a picture's blur, from the picture itself to σ `maxRadius` in `steps` steps:
/// what `BlurLevels(image:)` keeps and `blurlabel animate --image` streams. Level `i` is the
/// picture blurred directly at σ = `maxRadius`·i/`steps` (under `tint` for i ≥ 1), byte for byte
/// what `GaussianBlur(sigma:edges:tint:)` makes of it; level 0 is the picture itself.
///
/// Levels are made straight from the picture, never from the level before: blurring level i−1
/// by √(σᵢ² − σᵢ₋₁²) would be the same blur for the continuous Gaussian, but sampled Gaussians of
/// small σ do not compose (even in float64, σ 1 then √3 is up to 15 levels from σ 2 on noise),
/// each level would be rounded to 8 bits again, and a clamped edge is not a Gaussian's fixed
/// point. `blurlabel-bench cascade` measured it on the benchmarks' test picture (960×540, σ to 20
/// in 20 steps): 27 levels off at step 2 and 143 at step 20 with clamped edges, 66 with
/// transparent ones, where one level is the bound. So levels run side by side instead.
package struct ImageBlurLevelPlan: Sendable {
    package let image: Image
    package let maxRadius: BlurRadius
    package let steps: Int
    /// What lies beyond the picture's border: `.clamp` (the default) repeats it, as a view's
    /// snapshot does not fade at its edge; `.transparent` lets the blur fade out there.
    package let edges: BlurEdges
    /// The veil over every blurred level (see `Veil`), nil for none; level 0 is never veiled.
    package let tint: Color?
    /// Storage of levels `encodeLevels` has finished with (or made ready beforehand), for the
    /// next blurs to write into instead of fresh memory; shared by copies of the plan.
    let spareStorage = LockedValue<[[UInt8]]>([])
    /// Every level has the picture's size.
    package var width: Int { image.width }
    package var height: Int { image.height }

    package init(image: Image, maxRadius: BlurRadius, steps: Int, edges: BlurEdges = .clamp, tint: Color? = nil) throws
    {
        guard steps >= 1, steps <= Limits.maximumSteps else { throw LabelError.badSteps(steps) }
        self.image = image
        self.maxRadius = maxRadius
        self.steps = steps
        self.edges = edges
        self.tint = tint
    }

    /// σ of step `index`.
    package func radius(ofStep index: Int) -> BlurRadius { maxRadius.step(index, of: steps) }

    /// Level `index` (0 is the picture; 1…steps are blurred), its blur on up to `threads` threads.
    package func level(_ index: Int, threads: Int? = nil) throws -> Image {
        guard index >= 0, index <= steps else { throw LabelError.badLevel(index, steps: steps) }
        if index == 0 { return image }
        return GaussianBlur(radius: radius(ofStep: index), edges: edges, tint: tint).apply(
            to: image,
            threads: threads
        )
    }

    /// How many levels `levels(_:threads:)` makes side by side: 1 for a picture large enough to
    /// keep `threads` threads busy on its own, else `threads` (a streaming caller asks for this
    /// many at a time, so memory holds that many levels).
    package func levelsAtOnce(threads: Int) -> Int {
        Self.keepsEveryThreadBusy(pixels: width * height, threads: threads) ? 1 : max(1, threads)
    }

    /// Whether a picture of `pixels` pixels is large enough to keep `threads` threads busy on its
    /// own (blurred a level at a time on all of them, its files through `LevelFileScheduler`).
    static func keepsEveryThreadBusy(pixels: Int, threads: Int) -> Bool {
        pixels * 4 >= GaussianBlur.samplesPerThread * max(1, threads)
    }

    /// The levels `indices` names, in that order, on up to `threads` threads: a picture large
    /// enough to keep every thread busy is blurred one level at a time on all of them (so only
    /// one level is being made at once); smaller ones a level per thread. The bytes are the same.
    package func levels(_ indices: [Int], threads: Int = defaultThreadCount) throws -> [Image] {
        for index in indices where index < 0 || index > steps { throw LabelError.badLevel(index, steps: steps) }
        if levelsAtOnce(threads: threads) == 1 {
            return try indices.map { try level($0, threads: threads) }
        }
        return try parallelMap(indices.count, threads: threads) { i in Result { try level(indices[i], threads: 1) } }
            .map { try $0.get() }
    }

    /// How many levels `encodeLevels` has between starting one and handing its file over, at
    /// most, for a picture large enough to keep every thread busy on its own: one a thread (one
    /// blurred while the others are encoded; two more on two cores were no faster, 4K animate),
    /// as many as fit in `filesInFlightBytes` at `bytesPerFramePixel` each (4 of a 3840×2160
    /// picture), at least one.
    package func levelsInFlight(threads: Int) -> Int { Self.levelsInFlight(pixels: width * height, threads: threads) }

    /// `levelsInFlight(threads:)` of a picture of `pixels` pixels.
    static func levelsInFlight(pixels: Int, threads: Int) -> Int {
        let perFile = max(1, pixels * Self.bytesPerFramePixel)
        return max(1, min(max(1, threads), Self.filesInFlightBytes / perFile))
    }

    /// Memory for the levels `encodeLevels` has in flight at once.
    static let filesInFlightBytes = 1 << 30
    /// What one level in flight may hold a pixel: the level (4 bytes), its share of a blur's
    /// scratch (colour planes 6, float plane 4, 16 for an RGBA picture's), of an encoder's
    /// scratch and the compressed file (4 each at most).
    static let bytesPerFramePixel = 32

    /// The same levels as PNG files made by `encoder` (`PNGEncoder.encodeOnCallingThread`: each
    /// compressed on one thread), handed to `deliver` with their place in `indices`, one at a
    /// time, in order, from any of the threads. A picture large enough to keep every thread busy
    /// goes through `LevelFileScheduler`: blurs shared by every thread, encodings one a thread,
    /// and whichever is ready taken next, `levelsInFlight(threads:)` at a time; smaller ones are
    /// blurred and encoded a level per thread, `threads` at a time. The bytes do not depend on
    /// `threads`. Rethrows the first error of an encoding or of `deliver`, making no more levels.
    package func encodeLevels(
        _ indices: [Int],
        encoder: PNGEncoder,
        threads: Int = defaultThreadCount,
        deliver: @escaping @Sendable (Int, [UInt8]) throws -> Void
    ) throws {
        for index in indices where index < 0 || index > steps { throw LabelError.badLevel(index, steps: steps) }
        let threads = max(1, threads)
        guard levelsAtOnce(threads: threads) == 1 else {
            var start = 0
            while start < indices.count {
                let chunk = Array(indices[start..<min(indices.count, start + threads)])
                let files = parallelMap(chunk.count, threads: threads) { i in
                    Result { try encoder.encodeOnCallingThread(try level(chunk[i], threads: 1)) }
                }
                for (offset, file) in files.enumerated() { try deliver(start + offset, try file.get()) }
                start += chunk.count
            }
            return
        }
        try LevelFileScheduler(
            plan: self,
            indices: indices,
            encoder: encoder,
            threads: threads,
            window: levelsInFlight(threads: threads),
            opaque: image.isOpaque
        )
        .run(deliver: deliver)
    }

    /// `encodeLevels`'s files, collected in order.
    package func encodedLevels(
        _ indices: [Int],
        encoder: PNGEncoder,
        threads: Int = defaultThreadCount
    ) throws
        -> [[UInt8]]
    {
        let files = LockedValue([[UInt8]]())
        try encodeLevels(indices, encoder: encoder, threads: threads) { _, file in files.withLock { $0.append(file) } }
        return files.withLock { $0 }
    }
}
