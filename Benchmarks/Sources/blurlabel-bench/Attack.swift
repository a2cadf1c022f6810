import BlurredLabelCore
import Foundation

/// The candidate-matching attack on blurred prices: the attacker knows the code, the fonts, the
/// size, the radius, the colours, the canvas and the format `\d{1,2}\.\d{2} €`, renders all 11,000
/// candidates through the same public pipeline, and picks the nearest by L2 distance.
enum Attack {
    static func candidates() -> [String] {
        var out: [String] = []
        let integers = (0...9).map { String($0) } + (0...99).map { $0 < 10 ? "0\($0)" : String($0) }
        for i in integers { for f in 0...99 { out.append("\(i).\(f < 10 ? "0" : "")\(f) €") } }
        return out
    }

    /// One grey channel of a label rendered with `style`.
    static func grey(_ text: String, style: LabelStyle) throws -> [UInt8] {
        let label = BlurredLabel(text: text, style: style)
        try label.blur(radius: style.radius)
        let image = try label.image
        return stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] }
    }

    /// Sum of squared differences, giving up once it passes `limit`.
    @inline(__always)
    static func distance(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int, limit: Int) -> Int {
        var total = 0
        var i = 0
        while i < count {
            let end = min(count, i + 1024)
            var chunk: Int32 = 0
            for k in i..<end {
                let d = Int32(a[k]) - Int32(b[k])
                chunk &+= d &* d
            }
            total += Int(chunk)
            if total > limit { return total }
            i = end
        }
        return total
    }

    /// 4×4 box averages, for ordering candidates before the exact search.
    static func coarse(_ image: [UInt8], width: Int, height: Int) -> [UInt8] {
        let w = width / 4
        let h = height / 4
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var s = 0
                for dy in 0..<4 { for dx in 0..<4 { s += Int(image[(y * 4 + dy) * width + x * 4 + dx]) } }
                out[y * w + x] = UInt8(s / 16)
            }
        }
        return out
    }

    /// Wilson score interval for k successes in n trials, 95%.
    static func wilson(_ k: Int, _ n: Int) -> (Double, Double) {
        let z = 1.959964
        let p = Double(k) / Double(n)
        let nn = Double(n)
        let centre = (p + z * z / (2 * nn)) / (1 + z * z / nn)
        let half = z * ((p * (1 - p) + z * z / (4 * nn)) / nn).squareRoot() / (1 + z * z / nn)
        return (max(0, centre - half), min(1, centre + half))
    }

    static func run(sigmas: [Double], trials: Int) throws {
        let all = candidates()
        print(
            "candidate-matching attack: \(all.count) candidates of \\d{1,2}\\.\\d{2} €, \(trials) random secrets per row, \(ProcessInfo.processInfo.activeProcessorCount) cores"
        )
        print("mode    sigma  recovered  top-1 rate  95% interval         chance   seconds")
        for sigma in sigmas {
            let start = Date()
            // The fixed canvas a shop would use: the widest candidate's padded ink box.
            let radius = try BlurRadius(sigma: sigma)
            let widest = BlurredLabel(text: "88.88 €", style: LabelStyle(radius: radius))
            try widest.blur(radius: radius)
            let size = try widest.image
            var fixed = LabelStyle(radius: radius)
            fixed.canvas = try CanvasSize(width: size.width + 8, height: size.height + 4)
            let style = fixed
            let width = style.canvas!.width
            let height = style.canvas!.height
            let count = width * height
            // Render every candidate (in parallel: one label per thread).
            let rendered = Renders(count: all.count)
            DispatchQueue.concurrentPerform(iterations: ProcessInfo.processInfo.activeProcessorCount) { worker in
                let n = ProcessInfo.processInfo.activeProcessorCount
                for i in stride(from: worker, to: all.count, by: n) { rendered.set(i, try! grey(all[i], style: style)) }
            }
            let images = rendered.values
            let flat = images.flatMap { $0 }
            let coarseImages = images.map { coarse($0, width: width, height: height) }
            var random = SplitMix64(state: 2026)
            let secrets = (0..<trials).map { _ in Int(random.next() % UInt64(all.count)) }
            for mode in ["plain", "secure"] {
                // Secure mode refuses a blur under the legibility floor (σ 4.9 at 32 px).
                if mode == "secure" && radius < BlurRadius.unreadable(forSize: style.typography.size) {
                    print("secure  \(sigma): refused, under the legibility floor (BlurRadius.unreadable)")
                    continue
                }
                var secureStyle = style
                secureStyle.secure = SecureOptions(format: try SecretFormat("##.## €"), seed: .system)
                let observed = try secrets.map { mode == "plain" ? images[$0] : try grey(all[$0], style: secureStyle) }
                let hits = Counter()
                DispatchQueue.concurrentPerform(iterations: trials) { t in
                    let target = observed[t]
                    let targetCoarse = coarse(target, width: width, height: height)
                    let order = (0..<all.count).map { c -> (Int, Int) in
                        var d = 0
                        for k in 0..<targetCoarse.count {
                            let e = Int(targetCoarse[k]) - Int(coarseImages[c][k])
                            d += e * e
                        }
                        return (d, c)
                    }.sorted { $0 < $1 }
                    var best = Int.max
                    var bestIndex = -1
                    target.withUnsafeBufferPointer { a in
                        flat.withUnsafeBufferPointer { all in
                            for (_, c) in order {
                                let d = distance(
                                    a.baseAddress!,
                                    all.baseAddress! + c * count,
                                    count: count,
                                    limit: best
                                )
                                if d < best {
                                    best = d
                                    bestIndex = c
                                }
                            }
                        }
                    }
                    if bestIndex == secrets[t] { hits.add() }
                }
                let (low, high) = wilson(hits.value, trials)
                print(
                    String(
                        format: "%@ %5.1f  %4d/%-4d  %9.2f%%  [%6.2f%%, %6.2f%%]  %6.3f%%  %7.1f",
                        mode.padding(toLength: 7, withPad: " ", startingAt: 0) as NSString,
                        sigma,
                        hits.value,
                        trials,
                        100 * Double(hits.value) / Double(trials),
                        100 * low,
                        100 * high,
                        100.0 / Double(all.count),
                        Date().timeIntervalSince(start)
                    )
                )
            }
        }
    }
}

/// Results filled in by worker threads, each in its own slot.
final class Renders: @unchecked Sendable {
    private var slots: [[UInt8]]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: [], count: count) }
    func set(_ i: Int, _ value: [UInt8]) {
        lock.lock()
        slots[i] = value
        lock.unlock()
    }
    var values: [[UInt8]] { slots }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var value = 0
    func add() {
        lock.lock()
        value += 1
        lock.unlock()
    }
}
