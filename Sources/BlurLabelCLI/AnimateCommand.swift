import BlurredLabelCore

/// `blurlabel animate TEXT --steps N --max-radius R -o OUT.png`: the blur stepping from sharp to
/// full as an animated PNG, or as numbered PNGs with `--frames DIR`; `--image IN.png` animates a
/// picture's blur instead of a label's. Frames are made a few at a time (one per core; a large
/// picture's one at a time, each on every core) and written as they come, so memory does not
/// grow with the frame count.
enum AnimateCommand {
    static let listing: CommandLineTool.Listing = .init(
        name: "animate",
        summary: "animate a label's or a picture's blur from sharp to full (APNG or numbered frames)"
    ) { command }

    static let spec = CommandSpec(
        name: listing.name,
        summary: listing.summary,
        positionals: ["TEXT"],
        optionalPositionals: 1,
        options: [
            CommonOptions.output,
            OptionSpec(name: "--frames", value: "DIR", help: "write numbered PNGs frame-000.png... into DIR instead"),
            OptionSpec(
                name: "--image",
                value: "IN.png",
                help: "animate this picture's blur instead of a TEXT ('-' for standard input)"
            ),
            OptionSpec(
                name: "--tint",
                value: "COLOR",
                help: "with --image: a veil of COLOR over every blurred frame (#ffffff4d frosted, #0000004d dark)"
            ),
            OptionSpec(
                name: "--steps",
                value: "N",
                help: "blur steps after the sharp frame, 1 to \(Limits.maximumSteps) (default 20)"
            ),
            OptionSpec(
                name: "--max-radius",
                value: "R",
                help: "sigma of the last step in pixels, 0 to \(Int(Limits.maximumRadius)) (default 20)"
            ),
            OptionSpec(
                name: "--duration",
                value: "S",
                help:
                    "seconds for one pass through the frames, 0 to \(Int(Limits.maximumDuration)), at most \(Limits.maximumFrameDelay) s a frame (default 1)"
            ),
            OptionSpec(name: "--reverse", help: "run from full blur to sharp"),
            OptionSpec(name: "--bounce", help: "run sharp to full and back"),
            CommonOptions.maxPixels,
            OptionSpec(
                name: "--compression",
                value: "0-9",
                help: "zlib level of the frames (default 6; 1 with --image)"
            ),
        ] + LabelOptions.specs.filter { $0.name != "--radius" },
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
        let maxRadius: Double
        let duration: Double
        let maxPixels: Int
        let compression: Int
        /// Level indices in the order they are shown.
        let order: [Int]
        var delay: Double { duration / Double(order.count) }

        init(_ arguments: ParsedArguments) throws {
            let options = Options(arguments)
            guard !(arguments.has("--reverse") && arguments.has("--bounce")) else {
                throw UsageError(message: "--reverse and --bounce cannot be combined")
            }
            steps = try options.integer("steps", range: 1...Limits.maximumSteps) ?? 20
            maxRadius = try options.number("max-radius", range: 0...Limits.maximumRadius) ?? 20
            duration = try options.number("duration", range: 0...Limits.maximumDuration) ?? 1
            maxPixels = try CommonOptions.maxPixels(arguments)
            // A picture's frames default to zlib level 1: twice as fast as 6 and, on a 1920x1080
            // screenshot's blur, files a quarter smaller than OpenCV's default (Benchmarks/run-animate).
            compression = try CommonOptions.compression(arguments, default: arguments.has("--image") ? 1 : 6)
            var secure = false
            if let path = arguments.value("--image") {
                guard arguments.positionals.isEmpty else {
                    throw UsageError(message: "give a TEXT or --image IN.png, not both")
                }
                if let label = LabelOptions.specs.first(where: { arguments.has($0.name) }) {
                    throw UsageError(message: "\(label.name) is a label option; it does not apply to --image")
                }
                source = .image(path: path, tint: try CommonOptions.tint(arguments))
            } else {
                guard let text = arguments.positionals.first else {
                    throw UsageError(message: "give a TEXT to animate, or --image IN.png")
                }
                if arguments.has("--tint") { throw UsageError(message: "--tint applies to --image, not to a TEXT") }
                let style = try LabelOptions.style(options, text: text, fitRadius: maxRadius)
                secure = style.secure != nil
                source = .text(text, style)
            }
            // Secure: no sharp frame, which would be the real text.
            var order = Array((secure ? 1 : 0)...steps)
            if arguments.has("--reverse") { order.reverse() }
            if arguments.has("--bounce") { order += order.dropFirst().dropLast().reversed() }
            self.order = order
            if delay > Limits.maximumFrameDelay {
                throw UsageError(
                    message: "--duration \(OptionValues.format(duration)) over "
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
        let path = arguments.value("--output")
        let folder = arguments.value("--frames")
        guard (path == nil) != (folder == nil) else {
            throw UsageError(
                message: path == nil ? "missing -o OUT.png or --frames DIR" : "give -o or --frames, not both"
            )
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
            var index = 0
            try frames.forEachFile(request.order, encoder: PNGEncoder(compressionLevel: request.compression)) { file in
                try FileIO.write(file, to: names[index], followingLinks: false)
                index += 1
            }
            if let warning = staleFramesWarning(in: folder, count: index) {
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
        /// The same as PNG files, encoded side by side.
        let files: ([Int], PNGEncoder) throws -> [[UInt8]]

        init(_ request: Request, output: CommandLineTool.Output) throws {
            let threads = max(1, defaultThreadCount)
            switch request.source {
            case let .text(text, style):
                if let warning = secureFormatWarning(style) { output.standardError("blurlabel animate: \(warning)\n") }
                let plan = try BlurLevelPlan(
                    text: text,
                    style: style,
                    maxRadius: request.maxRadius,
                    steps: request.steps
                )
                (width, height, window) = (plan.width, plan.height, threads)
                levels = { try plan.levels($0, threads: threads) }
                files = { indices, encoder in try plan.levels(indices, threads: threads).map { try encoder.encode($0) }
                }
            case let .image(path, tint):
                let image = try PNGDecoder.decode(contentsOf: path, maxPixels: request.maxPixels)
                let plan = try ImageBlurLevelPlan(
                    image: image,
                    maxRadius: request.maxRadius,
                    steps: request.steps,
                    edges: .clamp,
                    tint: tint
                )
                // A picture that keeps every core busy on its own is made one frame at a time.
                (width, height, window) = (plan.width, plan.height, plan.levelsAtOnce(threads: threads))
                levels = { try plan.levels($0, threads: threads) }
                files = { indices, encoder in try plan.encodedLevels(indices, encoder: encoder, threads: threads) }
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

        /// The same as PNG files made by `encoder`, encoded side by side as they are made.
        func forEachFile(_ order: [Int], encoder: PNGEncoder, _ body: ([UInt8]) throws -> Void) throws {
            var start = 0
            while start < order.count {
                let chunk = Array(order[start..<min(order.count, start + window)])
                for file in try files(chunk, encoder) { try body(file) }
                start += chunk.count
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
