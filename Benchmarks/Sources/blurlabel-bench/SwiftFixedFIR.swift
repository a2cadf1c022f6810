import BenchPictures
import BlurredLabelCore
import Foundation

/// The small-σ fixed-point FIR (Sources/CBlurKernels/kernels_body.h, `fixed_fir_rows`) written in
/// Swift, with the same arithmetic, so `blurlabel-bench kernels` can time it beside the C variants
/// and check it gives the same bytes. The C version stays in the package while this one is slower
/// or only as fast as the C baseline: Swift compiles one instruction set per build, the C target
/// one per CPU variant chosen at run time.
struct SwiftFixedFIR {
    let radius: Int
    var horizontal: [UInt16], vertical: [UInt16]
    let horizontalBias: UInt16, verticalBias: UInt16, verticalCentreWhole: Bool

    /// The same weights as `FIRKernel.fixedPoint` (Sources/BlurredLabelCore/Blur/BlurPlan.swift).
    init(sigma: Double) {
        radius = max(1, Int((3.5 * sigma).rounded(.up)))
        let raw = (0...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw[0] + 2 * raw.dropFirst().reduce(0, +)
        let side = raw.dropFirst().map { $0 / total }
        let h = side.map { Int(($0 * 65536).rounded()) }
        let v = side.map { Int(($0 * 131_072).rounded()) }
        let hc = 65536 - 2 * h.reduce(0, +)
        let vc = 131_072 - 2 * v.reduce(0, +)
        horizontal = [UInt16(min(65535, hc))] + h.map { UInt16($0) }
        verticalCentreWhole = vc >= 65536
        vertical = [UInt16(min(65535, vc >= 65536 ? vc - 65536 : vc))] + v.map { UInt16($0) }
        horizontalBias = UInt16((radius + 1) / 2)
        verticalBias = horizontalBias  // + 128 to round, - 2 × 64 for the offset
    }

    /// Blurs `source` (width × height × channels, edges repeated) into `destination`, one thread.
    func apply(
        width: Int,
        height: Int,
        channels: Int,
        source: UnsafePointer<UInt8>,
        destination: UnsafeMutablePointer<UInt8>
    ) {
        let n = width * channels
        let pad = radius * channels
        let block = 128
        let stride = (n + 2 * block) & ~(block - 1)
        let slots = 2 * radius + 1
        let ring = UnsafeMutablePointer<UInt16>.allocate(capacity: stride * slots)
        let padded = UnsafeMutablePointer<UInt16>.allocate(capacity: stride + 2 * pad + block + 32)
        defer {
            ring.deallocate()
            padded.deallocate()
        }
        let p = padded + pad
        var filteredUpTo = -radius - 1
        var rows = [UnsafePointer<UInt16>](repeating: UnsafePointer(ring), count: slots)
        for y in 0..<height {
            let first = max(y - radius, filteredUpTo + 1)
            if first <= y + radius {
                for k in first...(y + radius) where k >= 0 && k < height {
                    horizontalRow(source + k * n, n: n, channels: channels, p: p, out: ring + (k % slots) * stride)
                }
            }
            filteredUpTo = y + radius
            for k in -radius...radius {
                let r = min(max(y + k, 0), height - 1)
                rows[k + radius] = UnsafePointer(ring + (r % slots) * stride)
            }
            verticalRow(rows, n: n, out: destination + y * n)
        }
    }

    @inline(__always)
    private func horizontalRow(
        _ row: UnsafePointer<UInt8>,
        n: Int,
        channels: Int,
        p: UnsafeMutablePointer<UInt16>,
        out: UnsafeMutablePointer<UInt16>
    ) {
        for i in 0..<n { p[i] = (UInt16(row[i]) &<< 7) &+ 64 }  // the offset: BL_FIXED_OFFSET
        for i in n..<(n + radius * channels + 128) { p[i] = 0 }
        for i in 0..<(radius * channels) {
            let k = i % channels
            p[i - radius * channels] = (UInt16(row[k]) &<< 7) &+ 64
            p[n + i] = (UInt16(row[n - channels + k]) &<< 7) &+ 64
        }
        let centre = UInt32(horizontal[0])
        let bias = horizontalBias
        for j in 0..<n { out[j] = bias &+ UInt16(truncatingIfNeeded: (UInt32(p[j]) &* centre) &>> 16) }
        for k in 1...radius {
            let w = UInt32(horizontal[k])
            let left = p - k * channels
            let right = p + k * channels
            for j in 0..<n {
                out[j] &+= UInt16(truncatingIfNeeded: (UInt32(left[j] &+ right[j]) &* w) &>> 16)
            }
        }
    }

    @inline(__always)
    private func verticalRow(_ rows: [UnsafePointer<UInt16>], n: Int, out: UnsafeMutablePointer<UInt8>) {
        let mid = rows[radius]
        let centre = UInt32(vertical[0])
        let bias = verticalBias
        let whole: UInt16 = verticalCentreWhole ? 0xFFFF : 0
        let acc = UnsafeMutablePointer<UInt16>.allocate(capacity: n)
        defer { acc.deallocate() }
        for j in 0..<n {
            acc[j] = bias &+ (mid[j] & whole) &+ UInt16(truncatingIfNeeded: (UInt32(mid[j]) &* centre) &>> 16)
        }
        for k in 1...radius {
            let a = rows[radius - k]
            let b = rows[radius + k]
            let w = UInt32(vertical[k])
            for j in 0..<n { acc[j] &+= UInt16(truncatingIfNeeded: (UInt32(a[j] &+ b[j]) &* w) &>> 16) }
        }
        for j in 0..<n { out[j] = UInt8(truncatingIfNeeded: acc[j] &>> 8) }
    }
}

/// `blurlabel-bench kernels [SIGMAS]`: the Swift fixed-point FIR beside the C one (every CPU
/// variant this machine runs), one thread, 2048² RGBA and mask; checks the bytes are the same.
func benchmarkKernels(sigmas: [Double], size: Int, repeats: Int) throws {
    print("one thread, \(size)x\(size), best of \(repeats); ms")
    print(
        "picture sigma  Swift(\(swiftISA))  "
            + BlurKernelVariant.allCases.filter(\.isSupported).map { "C \($0.rawValue)" }.joined(separator: "  ")
    )
    for channels in [4, 1] {
        let input = testPicture(width: size, height: size, channels: channels)
        for sigma in sigmas where sigma < 9 {
            let swift = SwiftFixedFIR(sigma: sigma)
            var swiftOut = [UInt8](repeating: 0, count: input.count)
            let swiftTime = best(repeats) {
                input.withUnsafeBufferPointer { s in
                    swiftOut.withUnsafeMutableBufferPointer { d in
                        swift.apply(
                            width: size,
                            height: size,
                            channels: channels,
                            source: s.baseAddress!,
                            destination: d.baseAddress!
                        )
                    }
                }
            }
            var line = String(format: "%-7@ %5g  %9.2f", channels == 4 ? "rgba" : "mask", sigma, swiftTime * 1000)
            let blur = try GaussianBlur(sigma: sigma, edges: .clamp)
            for variant in BlurKernelVariant.allCases where variant.isSupported {
                var cOut: [UInt8] = []
                let cTime = try best(repeats) {
                    if channels == 4 {
                        cOut =
                            blur.using(variant).apply(
                                to: try Image(width: size, height: size, premultipliedRGBA: input),
                                threads: 1
                            ).pixels
                    } else {
                        cOut =
                            blur.using(variant).apply(
                                to: try CoverageMask(width: size, height: size, values: input),
                                threads: 1
                            ).values
                    }
                }
                line += String(format: "  %8.2f%@", cTime * 1000, cOut == swiftOut ? "" : " (bytes differ!)")
            }
            print(line)
        }
    }
}

private func best(_ repeats: Int, _ body: () throws -> Void) rethrows -> Double {
    var fastest = Double.infinity
    for _ in 0..<repeats {
        let t0 = now()
        try body()
        fastest = min(fastest, now() - t0)
    }
    return fastest
}

/// The instruction set the Swift code was compiled for.
let swiftISA: String = {
    #if arch(x86_64)
    return "x86-64 baseline"
    #else
    return "native"
    #endif
}()
