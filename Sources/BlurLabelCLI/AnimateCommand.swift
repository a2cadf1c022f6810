import BlurredLabelCore

/// `blurlabel animate TEXT --steps N --max-radius R -o OUT.png`: the blur stepping from sharp to
/// full as an animated PNG, or as numbered PNGs with `--frames DIR`. Frames are made a few at a
/// time (one per core) and written as they come, so memory does not grow with the frame count.
enum AnimateCommand {
    static let listing: CommandLineTool.Listing = .init(
        name: "animate",
        summary: "animate a label's blur from sharp to full (APNG or numbered frames)"
    ) { command }

    static let spec = CommandSpec(
        name: listing.name,
        summary: listing.summary,
        positionals: ["TEXT"],
        options: [
            CommonOptions.output,
            OptionSpec(name: "--frames", value: "DIR", help: "write numbered PNGs frame-000.png... into DIR instead"),
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
        ] + LabelOptions.specs.filter { $0.name != "--radius" },
        details: """
            Step i has sigma = R * i / N. Every frame has the canvas of the largest radius, so nothing jumps.
            With --secure every frame is blurred from a decoy of the --format, and the sharp frame is left
            out: the animation starts at the first blur step (sigma R/N), so no frame holds anything of TEXT.
            """
    )

    /// What an animation request asks for, checked before any frame is made.
    struct Request {
        let text: String
        let style: LabelStyle
        let steps: Int
        let maxRadius: Double
        let duration: Double
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
            text = arguments.positionals[0]
            style = try LabelOptions.style(options, text: text, fitRadius: maxRadius)
            // Secure: no sharp frame, which would be the real text.
            var order = Array((style.secure == nil ? 0 : 1)...steps)
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
        if let warning = secureFormatWarning(request.style) { output.standardError("blurlabel animate: \(warning)\n") }
        let plan = try BlurLevelPlan(
            text: request.text,
            style: request.style,
            maxRadius: request.maxRadius,
            steps: request.steps
        )
        let framePixels = plan.width * plan.height
        guard
            framePixels.multipliedReportingOverflow(by: request.order.count).partialValue
                <= Limits.maximumAnimationPixels,
            framePixels <= Limits.maximumPixels
        else {
            throw UsageError(
                message:
                    "\(request.order.count) frames of \(plan.width)x\(plan.height) exceed the limit of \(Limits.maximumAnimationPixels) frame pixels; give fewer --steps or a smaller --max-radius"
            )
        }
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
            try forEachFrame(request.order, plan: plan) { frame in
                try writePNG(frame, to: names[index], followingLinks: false)
                index += 1
            }
            if let warning = staleFramesWarning(in: folder, count: index) {
                output.standardError("blurlabel animate: \(warning)\n")
            }
        } else if let path {
            // Pass 1 settles the colour plan every frame shares; pass 2 makes the frames again and
            // writes each as it comes: straight to standard output for '-'; for a file, only the
            // compressed file is kept (blurred labels compress about 100:1), then written atomically.
            var builder = PNGColorPlan.Builder()
            var seen = Set<Int>()
            try forEachFrame(request.order.filter { seen.insert($0).inserted }, plan: plan) { builder.add($0) }
            var file: [UInt8] = []
            let toStandardOutput = path == "-"
            var stream = try APNGStream(plan: builder.plan, frameCount: request.order.count, delay: request.delay) {
                bytes in
                if toStandardOutput { try FileIO.write(bytes, to: "-") } else { file += bytes }
            }
            try forEachFrame(request.order, plan: plan) { try stream.append($0) }
            try stream.finish()
            if !toStandardOutput { try FileIO.write(file, to: path) }
        }
        return 0
    }

    /// Makes the levels `order` names, in that order, one per core at a time, and hands each to `body`.
    static func forEachFrame(_ order: [Int], plan: BlurLevelPlan, _ body: (Image) throws -> Void) throws {
        let window = max(1, defaultThreadCount)
        var start = 0
        while start < order.count {
            let chunk = Array(order[start..<min(order.count, start + window)])
            for frame in try plan.levels(chunk, threads: window) { try body(frame) }
            start += chunk.count
        }
    }
}
