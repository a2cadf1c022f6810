import BlurredLabelCore
import Foundation

/// `blurlabel-bench formats [FOLDER]`: the issue 42 page, 60 price labels in four looks, written as
/// PNG (the served bytes), WebP and AVIF at their defaults and at the qualities the issue's table
/// used (WebP 80, AVIF 80 and 50). Prints, per look and format, the bytes
/// against the PNG's, the share of channel values and of pixels (any channel) more than 2 levels
/// from the PNG's, premultiplied (read back by libwebp/libavif), and the CPU time of one label's
/// encode (this thread's, so other processes' load does not count).
/// With FOLDER, the PNGs are written there for Benchmarks/formats_pillow.py.
enum Formats {
    /// The looks of the issue's table: plain, a light tag at σ 6 (1x and 2x), white on transparent.
    static let looks: [(name: String, style: LabelStyle)] = {
        let light = LabelStyle(
            color: try! Color(parsing: "#5a4a3a"),
            background: try! Color(parsing: "#f6efe6"),
            radius: 6,
            padding: 4
        )
        var light2x = light
        light2x.typography.size *= 2
        light2x.radius = 12
        light2x.padding = 8
        return [
            ("plain 1x", LabelStyle()),
            ("light tag s6 1x", light),
            ("light tag s6 2x", light2x),
            ("dark transparent 1x", LabelStyle(color: .white, background: .transparent)),
        ]
    }()

    static let texts = (0..<60).map { "\(($0 * 37) % 1250 + 1).\(String(format: "%02d", ($0 * 53) % 100)) €" }

    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func run(folder: String?) throws {
        let formats: [(String, PictureFormat?)] = [
            ("PNG", nil), ("WebP default", .webp()), ("WebP q80", .webp(.lossy(80))),
            ("WebP lossless", .webp(.lossless)), ("AVIF default", .avif()), ("AVIF q80", .avif(.lossy(80))),
            ("AVIF q50", .avif(.lossy(50))),
        ]
        print("60 labels a look; bytes (share of PNG), values and pixels > 2 levels off, CPU ms per label encode")
        for (lookIndex, (look, style)) in looks.enumerated() {
            let images = try texts.map { try LabelPipeline(style: style).picture(of: $0).image }
            if let folder {
                for (i, image) in images.enumerated() {
                    try FileIO.write(try PNGEncoder().encode(image), to: "\(folder)/look\(lookIndex)-\(i).png")
                }
            }
            var pngBytes = 0
            print(look)
            for (name, format) in formats {
                var bytes = 0
                var far = 0
                var farPixels = 0
                var values = 0
                var cpu = 0.0
                for image in images {
                    let start = cpuSeconds()
                    let file = try format?.encode(image) ?? PNGEncoder().encode(image)
                    cpu += cpuSeconds() - start
                    bytes += file.count
                    if let format, format != .png {
                        let back =
                            format.name == "webp"
                            ? try WebPAVIFDecoder.decodeWebP(file) : try WebPAVIFDecoder.decodeAVIF(file)
                        for pixel in stride(from: 0, to: image.pixels.count, by: 4) {
                            let off = (pixel..<pixel + 4).filter {
                                abs(Int(image.pixels[$0]) - Int(back.pixels[$0])) > 2
                            }
                            far += off.count
                            farPixels += off.isEmpty ? 0 : 1
                        }
                    }
                    values += image.pixels.count
                }
                if format == nil { pngBytes = bytes }
                let share = String(format: "%.0f%%", 100 * Double(bytes) / Double(pngBytes))
                let off = String(
                    format: "%.3f%% values, %.3f%% pixels",
                    100 * Double(far) / Double(values),
                    400 * Double(farPixels) / Double(values)
                )
                let ms = String(format: "%.3f", cpu * 1000 / Double(images.count))
                print(
                    "  \(name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(bytes) B (\(share)), \(off) off, \(ms) ms"
                )
            }
        }
    }
}
