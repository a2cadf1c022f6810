import BlurredLabelKit
import Foundation

/// `blurlabel animate TEXT --steps N --max-radius R -o OUT.png`: the blur stepping from sharp to
/// full as an animated PNG, or as numbered PNGs with `--frames DIR`.
enum AnimateCommand {
    static let spec = CommandSpec(
        name: "animate",
        summary: "animate a label's blur from sharp to full (APNG or numbered frames)",
        positionals: ["TEXT"],
        options: [
            CommonOptions.output,
            OptionSpec(name: "--frames", value: "DIR", help: "write numbered PNGs frame-000.png... into DIR instead"),
            OptionSpec(name: "--steps", value: "N", help: "blur steps after the sharp frame, 1 to 1000 (default 20)"),
            OptionSpec(name: "--max-radius", value: "R", help: "sigma of the last step in pixels (default 20)"),
            OptionSpec(name: "--duration", value: "S", help: "seconds for one pass through the frames (default 1)"),
            OptionSpec(name: "--reverse", help: "run from full blur to sharp"),
            OptionSpec(name: "--bounce", help: "run sharp to full and back"),
        ] + LabelOptions.specs.filter { !["--radius", "--secure", "--format", "--seed"].contains($0.name) },
        details: "Step i has sigma = R * i / N. Every frame has the canvas of the largest radius, so nothing jumps."
    )

    static let command = CommandLineTool.Command(spec: spec) { arguments, output in
        let path = arguments.value("--output"), folder = arguments.value("--frames")
        guard (path == nil) != (folder == nil) else {
            throw UsageError(message: path == nil ? "missing -o OUT.png or --frames DIR" : "give -o or --frames, not both")
        }
        guard !(arguments.has("--reverse") && arguments.has("--bounce")) else {
            throw UsageError(message: "--reverse and --bounce cannot be combined")
        }
        let steps = try OptionValues.integer(arguments.value("--steps") ?? "20", option: "--steps", range: 1...1000)
        let maxRadius = try OptionValues.number(arguments.value("--max-radius") ?? "20", option: "--max-radius", range: 0...1000)
        let duration = try OptionValues.number(arguments.value("--duration") ?? "1", option: "--duration", range: 0...3600)
        let style = try LabelOptions.style(from: arguments)
        let levels = try BlurLevels.build(text: arguments.positionals[0], style: style, maxRadius: maxRadius, steps: steps)
        var order = Array(levels.indices)
        if arguments.has("--reverse") { order.reverse() }
        if arguments.has("--bounce") { order += order.dropFirst().dropLast().reversed() }
        let frames = order.map { levels[$0] }
        if let folder {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let digits = max(3, String(frames.count - 1).count)
            for (index, frame) in frames.enumerated() {
                let number = String(repeating: "0", count: digits - String(index).count) + String(index)
                try writePNG(frame, to: "\(folder)/frame-\(number).png")
            }
        } else if let path {
            try FileIO.write(try APNGWriter().encode(frames, delay: duration / Double(frames.count)), to: path)
        }
        return 0
    }
}
