import BlurLabelCodecs
import BlurLabelPixels
import BlurLabelSystem

extension ImageBlurLevelPlan {
    /// The plan for the picture at `path` (`-`: standard input), decoded on this thread while
    /// another readies the memory the levels will be made in: the scratch of the largest blur
    /// (`GaussianBlur.prepareScratch`) and storage for the levels `encodeLevels` has in flight
    /// (`spareStorage`), every page touched. Decoding is one thread's work (inflating is serial),
    /// and fresh memory costs the kernel a cleared page a page on first touch (in a virtual
    /// machine, the host's faults too: up to a fifth of a 4K animation's time), better paid on a
    /// core that would wait. A picture too small to share, or a single thread, is just decoded.
    /// Errors are the decoder's, or `LabelError.badSteps`.
    package init(
        decoding path: String,
        maxPixels: Int = PNGDecoder.defaultMaxPixels,
        maxRadius: BlurRadius,
        steps: Int,
        edges: BlurEdges = .clamp,
        tint: Color? = nil,
        threads: Int = defaultThreadCount
    ) throws {
        guard steps >= 1, steps <= Limits.maximumSteps else { throw LabelError.badSteps(steps) }
        let bytes = try FileIO.read(path)
        let source = PNGDecoder.sourceName(path)
        guard threads > 1, let header = PNGDecoder.peek(bytes), header.width * header.height <= maxPixels,
            Self.keepsEveryThreadBusy(pixels: header.width * header.height, threads: threads)
        else {
            let image = try PNGDecoder.decode(bytes, source: source, maxPixels: maxPixels)
            try self.init(image: image, maxRadius: maxRadius, steps: steps, edges: edges, tint: tint)
            return
        }
        let decoded = LockedValue<Result<Image, any Error>?>(nil)
        let prepared = LockedValue<[[UInt8]]>([])
        concurrentPerform(2) { task in
            if task == 0 {
                let result = Result { try PNGDecoder.decode(bytes, source: source, maxPixels: maxPixels) }
                decoded.withLock { $0 = result }
                return
            }
            // Only while the picture decodes: where the host is slow to back fresh memory, pages
            // left untouched then fault in the passes, on every thread at once, not on this one
            // while the others wait.
            let stop = { decoded.withLock { $0 != nil } }
            guard
                GaussianBlur(radius: maxRadius, edges: edges).prepareScratch(
                    width: header.width,
                    height: header.height,
                    opaque: header.noAlphaChannel,
                    until: stop
                )
            else { return }
            // One level's storage for each level `encodeLevels` keeps in flight (one a thread, 4 at
            // most of 4K), no more than there are levels: more, on two threads, cost more memory
            // than they saved (4K animate: 314 MB and slower with four, 202 MB with none).
            let pixels = header.width * header.height
            let count = pixels * 4
            for _ in 0..<min(steps, Self.levelsInFlight(pixels: pixels, threads: threads)) where !stop() {
                let storage = HugePages.storage(count: count, touchingUntil: stop)
                prepared.withLock { $0.append(storage) }
            }
        }
        try self.init(
            image: try decoded.withLock { $0! }.get(),
            maxRadius: maxRadius,
            steps: steps,
            edges: edges,
            tint: tint
        )
        let storage = prepared.withLock { $0 }
        spareStorage.withLock { $0 = storage }
    }
}
