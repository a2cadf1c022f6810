import BenchPictures
import BlurredLabelCore
import Foundation

/// Benchmark driver. `blur` times the Gaussian blur on a 2048² test picture and writes what it
/// blurred so the Python side can compare every library against one float64 reference.
func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

let args = CommandLine.arguments
let mode = args.count > 1 ? args[1] : "blur"
do {
    switch mode {
    case "blur":
        let size = Int(ProcessInfo.processInfo.environment["BENCH_SIZE"] ?? "2048")!
        let sigmas = (args.count > 2 ? args[2] : "1,2.5,8,20,50").split(separator: ",").map { Double($0)! }
        let repeats = Int(ProcessInfo.processInfo.environment["BENCH_REPEATS"] ?? "5")!
        let outDir = args.count > 3 ? args[3] : nil
        // BENCH_THREADS: worker threads per blur (default: every core); BLURLABEL_ISA forces a CPU variant;
        // BENCH_KINDS: the pictures to blur (default rgba,mask), e.g. one alone under valgrind.
        let threads = Int(ProcessInfo.processInfo.environment["BENCH_THREADS"] ?? "") ?? defaultThreadCount
        let (rgba, mask) = try testPictures(size: size)
        if let dir = outDir {
            try FileIO.write(rgba.pixels, to: "\(dir)/input-rgba.raw")
            try FileIO.write(mask.values, to: "\(dir)/input-mask.raw")
        }
        for sigma in sigmas {
            let blur = try GaussianBlur(sigma: sigma, edges: .clamp)
            for kind in (ProcessInfo.processInfo.environment["BENCH_KINDS"] ?? "rgba,mask").split(separator: ",").map(
                String.init
            ) {
                var best = Double.infinity
                var output: [UInt8] = []
                for _ in 0..<repeats {
                    let t0 = now()
                    if kind == "rgba" {
                        output = blur.apply(to: rgba, threads: threads).pixels
                    } else {
                        output = blur.apply(to: mask, threads: threads).values
                    }
                    best = min(best, now() - t0)
                }
                print(
                    "blurlabel \(kind) sigma=\(sigma) ms=\(String(format: "%.2f", best * 1000)) threads=\(threads) isa=\(BlurKernelVariant.activeName)"
                )
                if let dir = outDir { try FileIO.write(output, to: "\(dir)/blurlabel-\(kind)-\(sigma).raw") }
            }
        }
    case "serve":
        // One blur per line of standard input, `KIND SIGMA THREADS [OUTPUT]` (KIND rgba or mask), each
        // answered with its time in ms on one line of standard output, after a first line naming the
        // CPU variant: blur_benchmark.py runs blurlabel and each peer in turn, run after run, so a
        // machine whose load changes affects both alike. The test pictures are as in `blur`; the
        // optional first argument is a folder to write them to (input-rgba.raw, input-mask.raw).
        let size = Int(ProcessInfo.processInfo.environment["BENCH_SIZE"] ?? "2048")!
        let (rgba, mask) = try testPictures(size: size)
        if args.count > 2 {
            try FileIO.write(rgba.pixels, to: "\(args[2])/input-rgba.raw")
            try FileIO.write(mask.values, to: "\(args[2])/input-mask.raw")
        }
        print("isa=\(BlurKernelVariant.activeName)")
        fflush(nil)
        while let line = readLine() {
            let fields = line.split(separator: " ").map(String.init)
            // `copies KIND THREADS`: two copies of the picture instead (`timeTwoCopies`).
            if fields.count == 3, fields[0] == "copies", ["rgba", "mask"].contains(fields[1]),
                let threads = Int(fields[2])
            {
                let elapsed = timeTwoCopies(of: fields[1] == "rgba" ? rgba.pixels : mask.values, threads: threads)
                print(String(format: "%.4f", elapsed * 1000))
                fflush(nil)
                continue
            }
            guard fields.count >= 3, ["rgba", "mask"].contains(fields[0]), let sigma = Double(fields[1]),
                let threads = Int(fields[2])
            else {
                FileHandle.standardError.write(
                    "blurlabel-bench serve: not KIND SIGMA THREADS [OUTPUT] or copies KIND THREADS: \(line)\n".data(
                        using: .utf8
                    )!
                )
                exit(2)
            }
            let blur = try GaussianBlur(sigma: sigma, edges: .clamp)
            let t0 = now()
            let output =
                fields[0] == "rgba"
                ? blur.apply(to: rgba, threads: threads).pixels : blur.apply(to: mask, threads: threads).values
            let elapsed = now() - t0
            if fields.count > 3 { try FileIO.write(output, to: fields[3]) }
            print(String(format: "%.4f", elapsed * 1000))
            fflush(nil)  // every stream: the answer goes out now
        }
    case "kernels":
        let sigmas = (args.count > 2 ? args[2] : "0.5,1,2.5").split(separator: ",").map { Double($0)! }
        try benchmarkKernels(
            sigmas: sigmas,
            size: Int(ProcessInfo.processInfo.environment["BENCH_SIZE"] ?? "2048")!,
            repeats: Int(ProcessInfo.processInfo.environment["BENCH_REPEATS"] ?? "5")!
        )
    case "png-filter":
        try benchmarkPNGFilter(
            size: Int(ProcessInfo.processInfo.environment["BENCH_SIZE"] ?? "2048")!,
            repeats: Int(ProcessInfo.processInfo.environment["BENCH_REPEATS"] ?? "5")!
        )
    case "run-deflate":
        try benchmarkRunDeflate(
            width: args.count > 4 ? Int(args[3])! : 3840,
            height: args.count > 4 ? Int(args[4])! : 2160,
            repeats: args.count > 2 ? Int(args[2])! : 5
        )
    case "png":
        // Encoding settings on typical labels: bytes and time per image.
        var images: [Image] = []
        for i in 0..<2000 {
            let label = BlurredLabel(text: "\(i % 97).\(10 + i % 89) €")
            try label.blur()
            images.append(try label.image)
        }
        let settings: [(String, PNGEncoder)] = [
            ("level 6, libpng's filters", PNGEncoder(compressionLevel: 6)),
            ("level 6, paeth", PNGEncoder(compressionLevel: 6, filters: .paeth)),
            ("level 6, up", PNGEncoder(compressionLevel: 6, filters: .up)),
            ("level 6, sub", PNGEncoder(compressionLevel: 6, filters: .sub)),
            ("level 6, none", PNGEncoder(compressionLevel: 6, filters: PNGEncoder.RowFilters.none)),
            ("level 9, libpng's filters", PNGEncoder(compressionLevel: 9)),
            ("level 3, paeth", PNGEncoder(compressionLevel: 3, filters: .paeth)),
            ("level 1, paeth", PNGEncoder(compressionLevel: 1, filters: .paeth)),
            ("level 6, paeth, rle", PNGEncoder(compressionLevel: 6, filters: .paeth, strategy: .runLength)),
            ("level 6, up, rle", PNGEncoder(compressionLevel: 6, filters: .up, strategy: .runLength)),
            ("level 6, libpng's, rle", PNGEncoder(compressionLevel: 6, strategy: .runLength)),
            ("level 6, paeth, filtered", PNGEncoder(compressionLevel: 6, filters: .paeth, strategy: .filtered)),
        ]
        do {
            var t0 = now()
            var plans: [PNGColorPlan] = []
            for image in images { plans.append(PNGColorPlan.smallest(for: [image])) }
            print(String(format: "choosing the colour type: %.1f µs", (now() - t0) / 2000 * 1e6))
            t0 = now()
            for (image, plan) in zip(images, plans) {
                _ = try PNGEncoder(compressionLevel: 6, filters: .paeth, strategy: .runLength).encode(image, plan: plan)
            }
            print(String(format: "encoding with a known plan (paeth, rle): %.1f µs", (now() - t0) / 2000 * 1e6))
        }
        for (name, encoder) in settings {
            let t0 = now()
            var bytes = 0
            for image in images { bytes += try encoder.encode(image).count }
            print(
                String(
                    format: "%-28@ %7.1f bytes  %6.1f µs",
                    name as NSString,
                    Double(bytes) / 2000,
                    (now() - t0) / 2000 * 1e6
                )
            )
        }
    case "compare":
        // Golden-image comparison of two 3840×2160 pictures: identical, and differing in a band.
        // BENCH_REPEATS: runs of each, the best kept (default 5).
        let repeats = Int(ProcessInfo.processInfo.environment["BENCH_REPEATS"] ?? "5")!
        let width = 3840
        let height = 2160
        let a = try Image(
            width: width,
            height: height,
            premultipliedRGBA: testPicture(width: width, height: height, channels: 4)
        )
        // Separate buffers, as two decoded files would be.
        let same = try Image(width: width, height: height, premultipliedRGBA: a.pixels.map { $0 })
        var b = same
        for y in 1000..<1040 { for x in 0..<width { b[byte: (y * width + x) * 4] /= 2 } }
        for metric in ComparisonMetric.allCases {
            let comparison = ImageComparison(metric: metric)
            for (name, other) in [("identical", same), ("different", b)] {
                var best = Double.infinity
                var summary = ""
                for _ in 0..<repeats {
                    let t0 = now()
                    let result = try comparison.compare(expected: a, actual: other)
                    best = min(best, now() - t0)
                    summary = result.summary
                }
                print(
                    String(
                        format: "compare 3840x2160 %@ %@: %.1f ms, best of %d (%@)",
                        metric.rawValue,
                        name as NSString,
                        best * 1000,
                        repeats,
                        summary as NSString
                    )
                )
            }
        }
    case "phases":
        // Where an end-to-end redaction spends its time (args: PNG path).
        let path = args[2]
        var t0 = now()
        let bytes = try FileIO.read(path)
        let image = try PNGDecoder.decode(bytes)
        print(String(format: "read + decode: %.1f ms", (now() - t0) * 1000))
        t0 = now()
        var redaction = Redaction(image: image)
        for (x, y, w, h) in [
            (40, 20, 600, 60), (900, 300, 400, 200), (100, 700, 800, 120), (1500, 50, 380, 900), (700, 950, 500, 100),
        ] {
            redaction.add(.init(x: x, y: y, width: w, height: h), mode: .blur(radius: 8))
        }
        let out = try redaction.render()
        print(String(format: "redact: %.1f ms", (now() - t0) * 1000))
        t0 = now()
        let plan = PNGColorPlan.smallest(for: [out])
        print(String(format: "colour plan: %.1f ms (%@)", (now() - t0) * 1000, "\(plan)" as NSString))
        t0 = now()
        let encoded = try PNGEncoder().encode(out, plan: plan)
        print(String(format: "encode: %.1f ms, %d bytes", (now() - t0) * 1000, encoded.count))
        for (name, encoder) in [
            ("parallel level 5", PNGEncoder(compressionLevel: 5)),
            ("parallel level 4", PNGEncoder(compressionLevel: 4)),
            ("parallel level 3", PNGEncoder(compressionLevel: 3)),
            ("level 6 paeth", PNGEncoder(compressionLevel: 6, filters: .paeth, strategy: .standard)),
            ("level 6 sub", PNGEncoder(compressionLevel: 6, filters: .sub, strategy: .standard)),
            ("level 6 up", PNGEncoder(compressionLevel: 6, filters: .up, strategy: .standard)),
            ("level 4 adaptive", PNGEncoder(compressionLevel: 4, strategy: .standard)),
            ("level 3 adaptive", PNGEncoder(compressionLevel: 3, strategy: .standard)),
            ("level 6 filtered", PNGEncoder(compressionLevel: 6, strategy: .filtered)),
            ("level 6 rle", PNGEncoder(compressionLevel: 6, strategy: .runLength)),
            ("level 6 sub+paeth", PNGEncoder(compressionLevel: 6, filters: [.sub, .paeth], strategy: .standard)),
            ("level 6 none+sub+up", PNGEncoder(compressionLevel: 6, filters: [.none, .sub, .up], strategy: .standard)),
            ("level 5 sub", PNGEncoder(compressionLevel: 5, filters: .sub, strategy: .standard)),
        ] {
            t0 = now()
            let e = try encoder.encode(out, plan: plan)
            print(String(format: "  %@: %.1f ms, %d bytes", name as NSString, (now() - t0) * 1000, e.count))
        }
    case "label-phases":
        // Where one batch label's time goes (args: COUNT SIZE FOLDER).
        try LabelPhases.run(
            count: args.count > 2 ? Int(args[2]) ?? 2000 : 2000,
            size: args.count > 3 ? Double(args[3]) ?? 48 : 48,
            folder: args.count > 4 ? args[4] : NSTemporaryDirectory() + "blurlabel-phases"
        )
    case "secure-redact":
        // A full-frame secure region on a 1920×1080 picture (fill from outside + blur), in-process.
        let width = 1920
        let height = 1080
        let repeats = Int(ProcessInfo.processInfo.environment["BENCH_REPEATS"] ?? "7")!
        let picture = try Image(
            width: width,
            height: height,
            premultipliedRGBA: testPicture(width: width, height: height, channels: 4)
        )
        let full = Redaction.Rect(x: 0, y: 0, width: width, height: height)
        for (name, rect, sigma) in [
            ("full frame", full, 8.0), ("full frame (fill only)", full, 0),
            ("centre 1280x720", Redaction.Rect(x: 320, y: 180, width: 1280, height: 720), 8),
            ("centre 1280x720 (fill only)", Redaction.Rect(x: 320, y: 180, width: 1280, height: 720), 0),
        ] {
            var redaction = Redaction(image: picture)
            redaction.add(rect, mode: .secure(radius: try BlurRadius(sigma: sigma)))
            var best = Double.infinity
            for _ in 0..<repeats {
                let t0 = now()
                _ = try redaction.render()
                best = min(best, now() - t0)
            }
            print(
                String(
                    format: "secure redact 1920x1080, %@, sigma %g: %.1f ms (best of %d)",
                    name as NSString,
                    sigma,
                    best * 1000,
                    repeats
                )
            )
        }
    case "cascade":
        let size = (args.count > 2 ? args[2] : "1920x1080").split(separator: "x").map { Int($0)! }
        try Cascade.run(
            width: size[0],
            height: size[1],
            maxRadius: args.count > 3 ? Double(args[3])! : 20,
            steps: args.count > 4 ? Int(args[4])! : 20
        )
    case "formats":
        try Formats.run(folder: args.count > 2 ? args[2] : nil)
    case "attack":
        let sigmas = (args.count > 2 ? args[2] : "2.5,5,10").split(separator: ",").map { Double($0)! }
        let trials = args.count > 3 ? Int(args[3])! : 500
        try Attack.run(sigmas: sigmas, trials: trials)
    default:
        FileHandle.standardError.write(
            "usage: blurlabel-bench blur [SIGMAS] [OUTDIR] | serve [OUTDIR] | kernels [SIGMAS] | png-filter | png | compare | phases PNG | label-phases [COUNT] [SIZE] [FOLDER] | secure-redact | attack [SIGMAS] [TRIALS] | cascade [WxH] [R] [N] | formats [FOLDER]\n"
                .data(using: .utf8)!
        )
        exit(2)
    }
} catch {
    // A missing output folder, an unreadable PNG: one line, not a crash report.
    FileHandle.standardError.write("blurlabel-bench: \(error)\n".data(using: .utf8)!)
    exit(1)
}
