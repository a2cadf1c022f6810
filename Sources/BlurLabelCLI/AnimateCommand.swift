import BlurredLabelCore

/// `blurlabel animate TEXT [--steps N] [--max-radius R] -o OUT.png`: the blur stepping from sharp to
/// full as an animated PNG, or as numbered PNGs with `--frames DIR`; `--image IN.png` animates a
/// picture's blur instead of a label's. Frames are made a few at a time (one per core; a large
/// picture's blurred one at a time on every core, then compressed side by side) and written as
/// they come, so memory does not grow with the frame count.
enum AnimateCommand {
    static let listing: CommandLineTool.Listing = .init(
        name: "animate",
        summary: "animate a label's or a picture's blur from sharp to full (APNG or numbered frames)"
    ) { command }

    static let frames = Option<String?>(
        "frames",
        .text("DIR"),
        help: "write numbered PNGs frame-000.png... into DIR instead"
    )
    static let image = Option<String?>(
        "image",
        .text("IN.png"),
        help: "animate this picture's blur instead of a TEXT ('-' for standard input)"
    )
    static let tint = CommonOptions.tint.with(
        help: "with --image: a veil of COLOR over every blurred frame (#ffffff4d frosted, #0000004d dark)"
    )
    /// Steps and the last sigma default to `BlurLevels`' own (`BlurLevelDefaults`).
    static let steps = Option(
        "steps",
        .integer("N", 1...Limits.maximumSteps),
        default: BlurLevelDefaults.steps,
        help: "blur steps after the sharp frame"
    )
    static let maxRadius = Option(
        "max-radius",
        .sigma,
        placeholder: "R",
        default: BlurLevelDefaults.maxRadius,
        help: "sigma of the last step in pixels"
    )
    static let duration = Option(
        "duration",
        .number("S", 0...Limits.maximumDuration),
        default: 1,
        help: "seconds for one pass through the frames, at most \(Limits.maximumFrameDelay) s a frame"
    )
    static let reverse = Option(flag: "reverse", help: "run from full blur to sharp")
    static let bounce = Option(flag: "bounce", help: "run sharp to full and back")
    static let compression = Option(
        "compression",
        .integer("0-9", 0...9),
        default: PNGEncoder().compressionLevel,
        shown: "\(PNGEncoder().compressionLevel); \(pictureCompression) with --image",
        help: "compression level of the frames: 0 stored, 1 fastest, 9 smallest"
    )
    /// A picture's frames default to level 1 (RunDeflate's runs, each frame on its own core; see
    /// WholePNGWriter): on a 3840x2160 screenshot's blur, files a third smaller than OpenCV's
    /// default, about three times as fast (Benchmarks/run-animate).
    static let pictureCompression = 1

    static let spec = CommandSpec(
        name: listing.name,
        summary: listing.summary,
        positionals: ["TEXT"],
        optionalPositionals: 1,
        options: [
            CommonOptions.output.spec, frames.spec, image.spec, tint.spec, steps.spec, maxRadius.spec, duration.spec,
            reverse.spec, bounce.spec, CommonOptions.maxPixels.spec, compression.spec,
        ]
            + LabelOptions.specs.filter {
                $0.key != LabelOptions.radius.key && $0.key != DevicePixelRatio.option.key
            },
        details: """
            Step i has sigma = R * i / N. Every frame has the canvas of the largest radius, so nothing jumps.
            With --secure every frame is blurred from a decoy of the --format, and the sharp frame is left
            out: the animation starts at the first blur step (sigma R/N), so no frame holds anything of TEXT.
            With --image, frame i is what 'blurlabel blur IN.png --radius sigma_i [--tint C]' writes (edges
            repeat the border pixels) and frame 0 the picture itself; the label options do not apply.
            """
    )

    /// What the frames are made from.
    enum Source {
        case text(String, LabelStyle)
        /// A picture's path ('-': standard input) and the veil over its blurred frames.
        case image(path: String, tint: Color?)
    }

    /// What an animation request asks for, checked before any frame is made.
    struct Request {
        let source: Source
        let steps: Int
        let maxRadius: BlurRadius
        let duration: Double
        let maxPixels: Int
        let compression: Int
        /// Level indices in the order they are shown.
        let order: [Int]
        var delay: Double { duration / Double(order.count) }

        init(_ arguments: ParsedArguments) throws {
            let options = GivenOptions(arguments)
            let reverse = try AnimateCommand.reverse.value(in: options)
            let bounce = try AnimateCommand.bounce.value(in: options)
            guard !(reverse && bounce) else {
                throw UsageError(
                    message: "\(AnimateCommand.reverse.name) and \(AnimateCommand.bounce.name) cannot be combined"
                )
            }
            steps = try AnimateCommand.steps.value(in: options)
            maxRadius = try AnimateCommand.maxRadius.value(in: options)
            duration = try AnimateCommand.duration.value(in: options)
            maxPixels = try CommonOptions.maxPixels.value(in: options)
            let image = try AnimateCommand.image.value(in: options)
            compression =
                AnimateCommand.compression.isGiven(in: options)
                ? try AnimateCommand.compression.value(in: options)
                : image == nil ? PNGEncoder().compressionLevel : AnimateCommand.pictureCompression
            var secure = false
            if let path = image {
                guard arguments.positionals.isEmpty else {
                    throw UsageError(message: "give a TEXT or --image IN.png, not both")
                }
                if let label = LabelOptions.specs.first(where: { options.has($0.key) }) {
                    throw UsageError(message: "\(label.name) is a label option; it does not apply to --image")
                }
                source = .image(path: path, tint: try AnimateCommand.tint.value(in: options))
            } else {
                guard let text = arguments.positionals.first else {
                    throw UsageError(message: "give a TEXT to animate, or --image IN.png")
                }
                if AnimateCommand.tint.isGiven(in: options) {
                    throw UsageError(message: "--tint applies to --image, not to a TEXT")
                }
                let style = try LabelOptions.style(options, text: text, fitRadius: maxRadius)
                secure = style.secure != nil
                source = .text(text, style)
            }
            // Secure: no sharp frame, which would be the real text.
            var order = Array((secure ? 1 : 0)...steps)
            if reverse { order.reverse() }
            if bounce { order += order.dropFirst().dropLast().reversed() }
            self.order = order
            if delay > Limits.maximumFrameDelay {
                throw UsageError(
                    message: "--duration \(formatNumber(duration)) over "
                        + cFormat("%ld frames is %.4g s a frame; ", order.count, delay)
                        + "a frame may last at most \(String(Limits.maximumFrameDelay)) s (give more --steps or a shorter --duration)"
                )
            }
        }
    }

    /// Frames numbered `count` and up left in `folder` by an earlier, longer run (this one did
    /// not write them and does not delete what it did not write): a glob of the folder would
    /// take them for part of this animation.
    static func staleFramesWarning(in folder: String, count: Int) -> String? {
        let stale = (Folders.names(in: folder) ?? []).filter { name in
            guard name.hasPrefix("frame-"), name.hasSuffix(".png"),
                let number = Int(name.dropFirst(6).dropLast(4)), name.dropFirst(6).dropLast(4).allSatisfy(\.isNumber)
            else { return false }
            return number >= count
        }
        guard let first = stale.first else { return nil }
        return
            "\(folder) also holds \(stale.count) frame file\(stale.count == 1 ? "" : "s") from an earlier run (\(first)\(stale.count > 1 ? " …" : "")), not part of these \(count) frames"
    }

    static let command = CommandLineTool.Command(spec: spec) { arguments, output in
        let options = GivenOptions(arguments)
        let path = try CommonOptions.output.value(in: options)
        let folder = try frames.value(in: options)
        guard (path == nil) != (folder == nil) else {
            throw UsageError(
                message: path == nil ? "missing -o OUT.png or --frames DIR" : "give -o or --frames, not both"
            )
        }
        if let path, let named = PictureFormat(fileName: path), named != .png {
            // An animation is an APNG: a .webp or .avif name would hold PNG bytes.
            throw UsageError(message: "animate writes an animated PNG, not \(named.name): name the output .png")
        }
        let request = try Request(arguments)
        let frames = try FrameMaker(request, output: output)
        if let folder {
            try Folders.create(folder)
            let digits = max(3, String(request.order.count - 1).count)
            let names = request.order.indices.map { index in
                "\(folder)/frame-" + String(repeating: "0", count: digits - String(index).count) + String(index)
                    + ".png"
            }
            // A link planted in the folder is refused, not followed out of it, and before any frame
            // is written, so a refused run leaves the folder as it was.
            for name in names where FileIO.isSymbolicLink(name) {
                throw FileError.cannotWrite(path: name, reason: "is a symbolic link (not followed here)")
            }
            try frames.forEachFile(request.order, encoder: PNGEncoder(compressionLevel: request.compression)) {
                try FileIO.write($1, to: names[$0], followingLinks: false)
            }
            if let warning = staleFramesWarning(in: folder, count: names.count) {
                output.standardError("blurlabel animate: \(warning)\n")
            }
        } else if let path {
            // Pass 1 settles the colour plan every frame shares (stopping early once nothing could
            // widen it); pass 2 makes the frames again and writes each as it comes, to standard
            // output for '-', else to a temporary file renamed into place at the end.
            let plan = try frames.colorPlan(request.order)
            let encoder = PNGEncoder(compressionLevel: request.compression)
            try FileIO.write(to: path) { sink in
                try withoutActuallyEscaping(sink) { sink in
                    var stream = try APNGStream(
                        writer: APNGWriter(encoder: encoder),
                        plan: plan,
                        frameCount: request.order.count,
                        delay: request.delay,
                        sink: sink
                    )
                    try frames.forEach(request.order) { frame in
                        try stream.append(frame)
                        return true
                    }
                    try stream.finish()
                }
            }
        }
        return 0
    }

    /// Makes the frames: a label's through `BlurLevelPlan`, a picture's through `ImageBlurLevelPlan`.
    struct FrameMaker {
        let width: Int
        let height: Int
        /// Frames made at once.
        let window: Int
        let levels: ([Int]) throws -> [Image]
        /// A picture's frames as PNG files, made and encoded side by side and handed over in order
        /// with their place (`ImageBlurLevelPlan.encodeLevels`); nil for a label's.
        let files: (([Int], PNGEncoder, @escaping @Sendable (Int, [UInt8]) throws -> Void) throws -> Void)?

        init(_ request: Request, output: CommandLineTool.Output) throws {
            let threads = max(1, defaultThreadCount)
            switch request.source {
            case let .text(text, style):
                let plan = try BlurLevelPlan(
                    text: text,
                    style: style,
                    maxRadius: request.maxRadius,
                    steps: request.steps
                )
                (width, height, window) = (plan.width, plan.height, threads)
                levels = { try plan.levels($0, threads: threads) }
                files = nil
            case let .image(path, tint):
                let plan = try ImageBlurLevelPlan(
                    decoding: path,
                    maxPixels: request.maxPixels,
                    maxRadius: request.maxRadius,
                    steps: request.steps,
                    edges: .clamp,
                    tint: tint,
                    threads: threads
                )
                // A picture that keeps every core busy on its own is made one frame at a time.
                (width, height, window) = (plan.width, plan.height, plan.levelsAtOnce(threads: threads))
                levels = { try plan.levels($0, threads: threads) }
                files = { try plan.encodeLevels($0, encoder: $1, threads: threads, deliver: $2) }
            }
            let framePixels = width * height
            guard
                framePixels.multipliedReportingOverflow(by: request.order.count).partialValue
                    <= Limits.maximumAnimationPixels,
                framePixels <= Limits.maximumPixels
            else {
                throw UsageError(
                    message:
                        "\(request.order.count) frames of \(width)x\(height) exceed the limit of \(Limits.maximumAnimationPixels) frame pixels; give fewer --steps or a smaller --max-radius"
                )
            }
        }

        /// Makes the levels `order` names, in that order, `window` at a time, and hands each to
        /// `body`, until it returns false.
        func forEach(_ order: [Int], _ body: (Image) throws -> Bool) throws {
            var start = 0
            while start < order.count {
                let chunk = Array(order[start..<min(order.count, start + window)])
                for frame in try levels(chunk) { guard try body(frame) else { return } }
                start += chunk.count
            }
        }

        /// The same as PNG files made by `encoder`, handed to `body` with their place in `order`,
        /// one at a time and in order (from any thread, for a picture's).
        func forEachFile(
            _ order: [Int],
            encoder: PNGEncoder,
            _ body: @escaping @Sendable (Int, [UInt8]) throws -> Void
        ) throws {
            if let files { return try files(order, encoder, body) }
            var position = 0
            try forEach(order) { frame in
                try body(position, try encoder.encode(frame))
                position += 1
                return true
            }
        }

        /// The colour plan every frame of `order` fits: each level looked at once, stopping (and
        /// making no more) once the plan is RGBA, which holds anything.
        func colorPlan(_ order: [Int]) throws -> PNGColorPlan {
            var builder = PNGColorPlan.Builder()
            var seen = Set<Int>()
            try forEach(order.filter { seen.insert($0).inserted }) { frame in
                builder.add(frame)
                return builder.plan != .rgba
            }
            return builder.plan
        }
    }
}
