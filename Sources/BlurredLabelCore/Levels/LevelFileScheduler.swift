import BlurLabelCodecs
import BlurLabelPixels
import BlurLabelSystem

/// Blurs a large picture's levels and encodes them as PNG files with no thread left waiting while
/// there is work: `ImageBlurLevelPlan.encodeLevels` for a picture that keeps every core busy on
/// its own (a 4K screenshot's animation).
///
/// The work is a level's blur, cut into passes of pieces (`BlurWork`) that every thread shares,
/// and a level's encoding, one thread's job. Run a level at a time, each pass ends with threads
/// waiting for the last piece, and the encodings of two frames of different sizes end with one
/// thread waiting for the other: on two cores a fifth of the threads' time went that way. Here
/// each thread takes, in this order: a piece of a level being blurred; a blurred level to encode;
/// a new level to blur (up to `maximumBlurs` at once). A thread that finds nothing sleeps until
/// another finishes something. The thread that starts a level's blur owns its memory and stays
/// with it, taking pieces and encodings, until its last pass is done.
///
/// Memory: at most `window` levels between being started and being handed over, each the level
/// and then its file; the scratch of up to `maximumBlurs` blurs; one encoder's scratch a thread.
/// A level's storage, once encoded, goes to the plan's `spareStorage` for the next blur to write
/// into: fresh memory is a page the kernel clears (and here the host first backs) on first touch,
/// which took up to a fifth of the threads' time on a 4K animation. Storage is new only when none
/// is spare, so there are never more than `window` of them, spare or in flight.
/// Files are handed to `deliver` one at a time, in order. Every level is blurred and encoded the
/// same way whoever runs it, so the bytes never depend on the thread count or the timing.
struct LevelFileScheduler: Sendable {
    let plan: ImageBlurLevelPlan
    let indices: [Int]
    let encoder: PNGEncoder
    let threads: Int
    /// Levels started and not yet handed over.
    let window: Int
    /// Whether the picture is opaque (asked once, not by every level's blur).
    let opaque: Bool

    /// Blurs under way at once, at most. One: a second blur started while the first waits for the
    /// last piece of a pass needs scratch of its own (83 MB for 3840×2160), and fresh memory cost
    /// more than the wait (4K animate, 5 runs each: 1.40 s and 331 MB with two, 1.20 s and 219 MB
    /// with one); the waits are filled with encodings instead.
    static let maximumBlurs = 1

    /// One blur being shared out.
    private struct Blur {
        let position: Int
        let passes: [BlurWork.Pass]
        let workers: Int
        var pass = 0
        var chunks = Chunks.none
        var nextChunk = 0
        var running = 0

        init(position: Int, passes: [BlurWork.Pass], workers: Int) {
            (self.position, self.passes, self.workers) = (position, passes, workers)
            startPass()
        }

        var isDone: Bool { pass == passes.count }

        /// Sets up the chunks of pass `pass` (none once every pass is done).
        mutating func startPass() {
            (chunks, nextChunk) = (Chunks.none, 0)
            guard pass < passes.count else { return }
            let current = passes[pass]
            chunks = Chunks(
                current.count,
                workers: max(1, min(workers, current.count)),
                minimumChunk: current.minimumChunk
            )
        }

        /// The next piece to run, if the current pass has one left.
        mutating func take() -> Task? {
            guard nextChunk < chunks.count else { return nil }
            let current = passes[pass]
            let range = chunks.range(nextChunk)
            nextChunk += 1
            running += 1
            return .piece(position: position, pass: pass, range: range, run: current.run)
        }

        /// A piece of pass `finished` is done; the next pass starts when all of this one are.
        mutating func pieceDone() {
            running -= 1
            if running == 0 && nextChunk == chunks.count {
                pass += 1
                startPass()
            }
        }
    }

    private enum Task {
        case piece(position: Int, pass: Int, range: Range<Int>, run: @Sendable (Range<Int>) -> Void)
        case encode(position: Int, level: Image)
        case start(position: Int)
        case finished
    }

    private struct State {
        var nextStart = 0
        /// Levels started and not yet handed over.
        var unfinished = 0
        var blurs: [Blur] = []
        /// Blurred levels waiting for a thread to encode them, oldest first.
        var made: [(position: Int, level: Image)] = []
        /// Files waiting for their turn to be handed over.
        var files: [Int: [UInt8]] = [:]
        var nextDelivery = 0
        var delivering = false
        var failure: (any Error)?

        /// What a thread should do next; nil to wait. Only a thread owning no blur may start one.
        mutating func task(mayStart: Bool, window: Int, count: Int) -> Task? {
            for index in blurs.indices {
                if let piece = blurs[index].take() { return piece }
            }
            guard failure == nil else { return mayStart ? .finished : nil }
            if !made.isEmpty {
                let next = made.removeFirst()
                return .encode(position: next.position, level: next.level)
            }
            if mayStart && nextStart < count && unfinished < window && blurs.count < LevelFileScheduler.maximumBlurs {
                nextStart += 1
                unfinished += 1
                return .start(position: nextStart - 1)
            }
            return mayStart && nextDelivery == count ? .finished : nil
        }
    }

    /// Runs the work on `threads` threads, handing each file to `deliver`; rethrows the first
    /// error an encoding or `deliver` throws (levels started by then are finished, no more begin).
    func run(deliver: @escaping @Sendable (Int, [UInt8]) throws -> Void) throws {
        let state = WaitableValue(State())
        plan.image.pixels.withUnsafeBufferPointer { source in
            // An opaque picture is split into its colour planes once, for every level's blur.
            let gaussian = GaussianBlur(radius: plan.maxRadius, edges: plan.edges)
            let split =
                gaussian.blursPlanes(opaque: opaque) && indices.indices.contains(where: blurs)
                ? gaussian.splitting(rgbaWidth: plan.width, height: plan.height, source: source.baseAddress!) : nil
            split?.0.runPasses(threads: threads)
            let shared = Shared(
                state: state,
                deliver: deliver,
                source: UnsafeSendable(source.baseAddress!),
                planes: split.map { UnsafeSendable($0.1) }
            )
            concurrentPerform(max(1, threads)) { _ in
                while true {
                    let task = state.next { $0.task(mayStart: true, window: window, count: indices.count) }
                    if case .finished = task { return }
                    perform(task, shared)
                }
            }
            split?.0.release()
        }
        if let failure = state.update({ $0.failure }) { throw failure }
    }

    /// What every task of one run shares.
    private struct Shared: Sendable {
        let state: WaitableValue<State>
        let deliver: @Sendable (Int, [UInt8]) throws -> Void
        /// The picture's pixels, for as long as the run lasts.
        let source: UnsafeSendable<UInt8>
        /// The picture split into its red, green and blue planes (`GaussianBlur.splitting`),
        /// when its blurs go by colour plane: split once, not again for every level.
        let planes: UnsafeSendable<UInt8>?
    }

    private func perform(_ task: Task, _ shared: Shared) {
        let state = shared.state
        switch task {
        case .finished:
            return
        case let .piece(position, pass, range, run):
            run(range)
            state.update { state in
                if let index = state.blurs.firstIndex(where: { $0.position == position }) {
                    precondition(state.blurs[index].pass == pass)
                    state.blurs[index].pieceDone()
                }
            }
        case let .encode(position, level):
            do {
                var level = level
                if let tint = plan.tint, indices[position] != 0 { Veil(tint).apply(to: &level, threads: 1) }
                let file = try encoder.encodeOnCallingThread(level)
                if blurs(position) {
                    let storage = level.takePixels()
                    plan.spareStorage.withLock { $0.append(storage) }
                }
                try handOver(file, position: position, state: state, deliver: shared.deliver)
            } catch {
                state.update { if $0.failure == nil { $0.failure = error } }
            }
        case let .start(position):
            let level = blur(position: position, shared)
            state.update { $0.made.append((position, level)) }
        }
    }

    /// Whether level `position` is blurred (not the picture itself: level 0, or σ 0).
    private func blurs(_ position: Int) -> Bool {
        indices[position] != 0 && BlurPlan(sigma: plan.radius(ofStep: indices[position]).sigma) != .copy
    }

    /// Level `position`, blurred by every thread that finds nothing else to do, this one staying
    /// with it (its memory lives here) until it is done; the picture itself for level 0.
    private func blur(position: Int, _ shared: Shared) -> Image {
        let (image, state) = (plan.image, shared.state)
        guard blurs(position) else { return image }
        let gaussian = GaussianBlur(radius: plan.radius(ofStep: indices[position]), edges: plan.edges)
        // Spare storage is only ever a level of this picture: made for it, or a finished level.
        var pixels = plan.spareStorage.withLock { $0.popLast() } ?? HugePages.storage(count: image.pixels.count)
        precondition(pixels.count == image.pixels.count, "spare level storage of another size")
        pixels.withUnsafeMutableBufferPointer { destination in
            let work = gaussian.work(
                rgbaWidth: image.width,
                height: image.height,
                source: shared.source.pointer,
                destination: destination.baseAddress!,
                opaque: opaque,
                planes: shared.planes.map { UnsafePointer($0.pointer) }
            )
            state.update { $0.blurs.append(Blur(position: position, passes: work.passes, workers: threads)) }
            while true {
                let task = state.next { state -> Task? in
                    if let mine = state.blurs.firstIndex(where: { $0.position == position }),
                        state.blurs[mine].isDone
                    {
                        state.blurs.remove(at: mine)
                        return .finished
                    }
                    return state.task(mayStart: false, window: window, count: indices.count)
                }
                if case .finished = task { break }
                perform(task, shared)
            }
            work.release()
        }
        return try! Image(width: image.width, height: image.height, premultipliedRGBA: pixels)
    }

    /// Files are handed over in order: this one waits its turn, and whichever thread holds the
    /// turn hands over every file that is ready.
    private func handOver(
        _ file: [UInt8],
        position: Int,
        state: WaitableValue<State>,
        deliver: @Sendable (Int, [UInt8]) throws -> Void
    ) throws {
        var next: (position: Int, file: [UInt8])? = state.update { state in
            state.files[position] = file
            guard !state.delivering, let ready = state.files.removeValue(forKey: state.nextDelivery) else { return nil }
            state.delivering = true
            return (state.nextDelivery, ready)
        }
        while let current = next {
            do {
                try deliver(current.position, current.file)
            } catch {
                state.update { $0.delivering = false }
                throw error
            }
            next = state.update { state in
                state.nextDelivery += 1
                state.unfinished -= 1
                guard let ready = state.files.removeValue(forKey: state.nextDelivery) else {
                    state.delivering = false
                    return nil
                }
                return (state.nextDelivery, ready)
            }
        }
    }
}
