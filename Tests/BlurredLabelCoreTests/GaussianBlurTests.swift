import Foundation
import Testing

@testable import BlurredLabelCore

/// The float64 reference: a sampled Gaussian over ±ceil(6σ) (12σ of support), normalized,
/// applied separably to one channel; outside is the edge (clamp) or zero (transparent).
func referenceBlur(_ samples: [Double], width: Int, height: Int, sigma: Double, clamp: Bool) -> [Double] {
    let radius = Int((6 * sigma).rounded(.up))
    var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let total = kernel.reduce(0, +)
    kernel = kernel.map { $0 / total }
    func pass(_ input: [Double], along horizontal: Bool) -> [Double] {
        var output = [Double](repeating: 0, count: input.count)
        let length = horizontal ? width : height
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                let position = horizontal ? x : y
                for k in -radius...radius {
                    var p = position + k
                    if p < 0 || p >= length {
                        if !clamp { continue }
                        p = min(max(p, 0), length - 1)
                    }
                    sum += kernel[k + radius] * (horizontal ? input[y * width + p] : input[p * width + x])
                }
                output[y * width + x] = sum
            }
        }
        return output
    }
    return pass(pass(samples, along: true), along: false)
}

/// Hard-edged test content: 1-px lines, a square, text-like strokes and noise.
func hardEdgedMask(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var random = TestRandom(state: seed)
    var values = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            var v: UInt8 = 0
            if x == width / 3 || y == height / 4 { v = 255 }  // 1-px lines
            if x > width / 2 && x < width * 3 / 4 && y > height / 2 && y < height - 3 { v = 220 }  // square
            if (x + 2 * y) % 11 < 2 && y < height / 2 && x > width / 2 { v = 255 }  // strokes
            if x < width / 4 && y > height / 2 { v = random.next() }  // noise
            values[y * width + x] = v
        }
    }
    return values
}

@Suite("Gaussian blur")
struct GaussianBlurTests {
    static let sigmas: [Double] = [0.1, 0.5, 1, 2.5, 2.99, 3, 5, 8, 8.99, 9, 20, 50, 100, 500]

    @Test("within one level of a float64 Gaussian, mean under 0.1", arguments: sigmas, [BlurEdges.clamp, .transparent])
    func accuracy(sigma: Double, edges: BlurEdges) throws {
        let width = 53
        let height = 41  // odd sizes: partial strips and blocks
        let values = hardEdgedMask(width: width, height: height, seed: UInt64(sigma * 10))
        let mask = try CoverageMask(width: width, height: height, values: values)
        let blurred = try GaussianBlur(sigma: sigma, edges: edges).apply(to: mask)
        let reference = referenceBlur(
            values.map(Double.init),
            width: width,
            height: height,
            sigma: sigma,
            clamp: edges == .clamp
        )
        var worst = 0
        var total = 0
        for (ours, exact) in zip(blurred.values, reference) {
            let difference = abs(Int(ours) - Int(min(255, max(0, (exact + 0.5).rounded(.down)))))
            worst = max(worst, difference)
            total += difference
        }
        #expect(worst <= 1, "σ \(sigma) \(edges): max \(worst) levels off")
        #expect(
            Double(total) / Double(values.count) < 0.1,
            "σ \(sigma) \(edges): mean \(Double(total) / Double(values.count))"
        )
    }

    @Test("RGBA channels blur like masks", arguments: [1.0, 8.0])
    func rgbaMatchesMask(sigma: Double) throws {
        let width = 37
        let height = 29
        let values = hardEdgedMask(width: width, height: height, seed: 3)
        let image = try Image(width: width, height: height, premultipliedRGBA: values.flatMap { [$0, $0, $0, $0] })
        let blurredImage = try GaussianBlur(sigma: sigma, edges: .transparent).apply(to: image)
        let blurredMask = try GaussianBlur(sigma: sigma, edges: .transparent).apply(
            to: try CoverageMask(width: width, height: height, values: values)
        )
        #expect(blurredImage.pixels == blurredMask.values.flatMap { [$0, $0, $0, $0] })
    }

    /// Pictures large enough to be split (`GaussianBlur.samplesPerThread`): RGBA over up to eight
    /// workers, the mask over two. Row ranges of odd length make the small-σ FIR compute some
    /// rows alone and pair the others differently from one thread (radius 1 to 4 run unrolled
    /// copies of it, hence σ 0.25 and 0.7).
    /// Below about 1e-162 a sigma's square underflows to 0; the kernel's centre tap was then
    /// 0 / 0 and the blur stopped the process. It is a blur like σ 0.1: each level kept, ±1.
    @Test(
        "a sigma whose square underflows is a blur like any tiny one",
        arguments: [1e-162, 1e-200, Double.leastNonzeroMagnitude]
    )
    func underflowingSigma(sigma: Double) throws {
        var random = TestRandom(state: 5)
        let values = (0..<(37 * 23)).map { _ in random.next() }
        let mask = try CoverageMask(width: 37, height: 23, values: values)
        let tiny = try GaussianBlur(sigma: sigma, edges: .clamp).apply(to: mask)
        #expect(tiny == (try GaussianBlur(sigma: 0.1, edges: .clamp).apply(to: mask)))
        #expect(zip(tiny.values, values).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test("identical bytes whatever the thread count", arguments: [0.25, 0.7, 1.0, 2.5, 8.0, 50.0])
    func threadCountInvariance(sigma: Double) throws {
        var random = TestRandom(state: 11)
        let width = 421
        let height = 317
        #expect(
            width * height * 4 >= 4 * GaussianBlur.samplesPerThread
                && width * height >= 2 * GaussianBlur.samplesPerThread
        )
        let pixels = (0..<(width * height)).flatMap { _ -> [UInt8] in
            let a = random.next() | 1
            return [random.next() % a, random.next() % a, 0, a]
        }
        let image = try Image(width: width, height: height, premultipliedRGBA: pixels)
        let blur = try GaussianBlur(sigma: sigma, edges: .clamp)
        let one = blur.apply(to: image, threads: 1)
        for threads in [2, 3, 8, 64] {
            #expect(blur.apply(to: image, threads: threads) == one, "threads \(threads)")
        }
        let mask = try CoverageMask(width: width, height: height, values: Array(pixels.prefix(width * height)))
        #expect(blur.apply(to: mask, threads: 1) == blur.apply(to: mask, threads: 5))
    }

    /// An opaque picture with clamped edges is blurred as three colour planes: the same bytes
    /// as the RGBA passes, at FIR and recursive sigmas, odd sizes, 1×N and N×1, one thread and
    /// several, with a tint too; a picture with one translucent pixel takes the RGBA passes.
    @Test(
        "an opaque picture's colour planes give the RGBA passes' bytes",
        arguments: [0.5, 2.5, 8.99, 9.0, 20.0, 60.0]
    )
    func opaquePlanes(sigma: Double) throws {
        var random = TestRandom(state: 23)
        for (width, height) in [(203, 71), (1, 90), (90, 1), (421, 317)] {
            var pixels = (0..<(width * height)).flatMap { i -> [UInt8] in
                // Noise, flat runs and hard edges: every clamp and rounding path.
                let flat = (i / 37) % 3 == 0
                return [flat ? 250 : random.next(), flat ? 3 : random.next(), random.next() / 2, 255]
            }
            let image = try Image(width: width, height: height, premultipliedRGBA: pixels)
            for tint in [nil, Color(red: 255, green: 255, blue: 255, alpha: 77)] {
                let blur = try GaussianBlur(sigma: sigma, edges: .clamp, tint: tint)
                var rgba = blur
                rgba.opaqueAsPlanes = false
                let expected = rgba.apply(to: image, threads: 1)
                #expect(blur.apply(to: image, threads: 1) == expected, "\(width)x\(height)")
                #expect(blur.apply(to: image, threads: 3) == expected, "\(width)x\(height), 3 threads")
            }
            pixels[3] = 254
            let translucent = try Image(width: width, height: height, premultipliedRGBA: pixels)
            var rgba = try GaussianBlur(sigma: sigma, edges: .clamp)
            rgba.opaqueAsPlanes = false
            #expect(try GaussianBlur(sigma: sigma, edges: .clamp).apply(to: translucent) == rgba.apply(to: translucent))
        }
    }

    @Test("no dark fringes: a red square on transparency stays pure red", arguments: [1.0, 2.5, 20.0])
    func noDarkFringes(sigma: Double) throws {
        var image = try Image(width: 60, height: 60)
        for y in 20..<40 {
            for x in 20..<40 {
                let i = (y * 60 + x) * 4
                image[byte: i] = 255
                image[byte: i + 3] = 255
            }
        }
        let blurred = try GaussianBlur(sigma: sigma, edges: .transparent).apply(to: image)
        var translucent = 0
        for i in stride(from: 0, to: blurred.pixels.count, by: 4) where blurred.pixels[i + 3] > 0 {
            #expect(
                blurred.pixels[i] == blurred.pixels[i + 3] && blurred.pixels[i + 1] == 0 && blurred.pixels[i + 2] == 0
            )
            if blurred.pixels[i + 3] < 255 { translucent += 1 }
        }
        #expect(translucent > 0)
    }

    @Test("transparent edges: a mask blurs the same whatever empty margin it has", arguments: [0.7, 2.5, 4, 8.5, 12])
    func emptyMarginChangesNothing(sigma: Double) throws {
        let width = 45
        let height = 31
        let narrow = 3 * Int(sigma.rounded(.up))
        let extra = 17
        let mask = try CoverageMask(
            width: width,
            height: height,
            values: hardEdgedMask(width: width, height: height, seed: 9)
        )
        let blur = try GaussianBlur(sigma: sigma, edges: .transparent)
        let small = blur.apply(to: try mask.padded(by: narrow))
        let large = blur.apply(to: try mask.padded(by: narrow + extra))
        var cropped: [UInt8] = []
        for y in extra..<(extra + small.height) {
            cropped += large.values[(y * large.width + extra)..<(y * large.width + extra + small.width)]
        }
        #expect(cropped == small.values)
    }

    @Test func sigmaZeroIsAnExactCopy() throws {
        let image = try Image(width: 5, height: 4, premultipliedRGBA: (0..<80).map { UInt8($0) })
        #expect(try GaussianBlur(sigma: 0).apply(to: image) == image)
    }

    @Test("flat images stay flat at any sigma", arguments: [0.1, 3, 500])
    func flatStaysFlat(sigma: Double) throws {
        let image = try Image(width: 40, height: 7, fill: Color(red: 10, green: 200, blue: 77))
        #expect(try GaussianBlur(sigma: sigma, edges: .clamp).apply(to: image) == image)
    }

    @Test func emptyImagesComeBackUnchanged() throws {
        let empty = try Image(width: 0, height: 10)
        #expect(try GaussianBlur(sigma: 3).apply(to: empty) == empty)
    }

    @Test("bad radii are refused", arguments: [Double.nan, .infinity, -1, -0.001, 1e6])
    func badRadius(sigma: Double) {
        #expect(throws: BlurError.self) { try GaussianBlur(sigma: sigma) }
    }

    @Test func overflowingSizesAreRefused() {
        #expect(throws: ImageError.self) { try Image(width: 1 << 40, height: 1 << 40) }
        #expect(throws: ImageError.self) { try CoverageMask(width: -1, height: 3) }
    }
}
