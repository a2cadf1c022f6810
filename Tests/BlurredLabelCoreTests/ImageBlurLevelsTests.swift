import Foundation
import GoldenImage
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

/// A picture's levels 0…`steps`, made as `BlurLevels.build(image:…)` makes them (without its
/// limit on all levels together, which `BlurLevelsRulesTests` checks).
func pictureLevels(
    _ image: Image,
    maxRadius: BlurRadius,
    steps: Int,
    edges: BlurEdges = .clamp,
    tint: Color? = nil,
    threads: Int = defaultThreadCount
) throws -> [Image] {
    try ImageBlurLevelPlan(image: image, maxRadius: maxRadius, steps: steps, edges: edges, tint: tint)
        .levels(Array(0...steps), threads: threads)
}

/// A premultiplied RGBA picture with hard edges, noise and translucent parts (alpha from 0 up),
/// the same every run.
func translucentPicture(width: Int, height: Int, seed: UInt64 = 31) throws -> Image {
    var random = TestRandom(state: seed)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            // Left third opaque stripes, middle noise of any alpha, right third transparent to opaque.
            let alpha: UInt8 =
                x < width / 3 ? 255 : x < 2 * width / 3 ? random.next() : UInt8(255 * y / max(1, height - 1))
            pixels[i + 3] = alpha
            for c in 0..<3 {
                let straight: UInt8 = (x / 3 + y / 2 + c) % 2 == 0 ? 240 : random.next()
                pixels[i + c] = premultiply(straight, alpha)
            }
        }
    }
    return try Image(width: width, height: height, premultipliedRGBA: pixels)
}

/// The largest difference between two pictures' bytes, in 8-bit levels.
func largestDifference(_ a: Image, _ b: Image) -> Int {
    precondition(a.width == b.width && a.height == b.height)
    return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
}

@Suite("A picture's blur levels")
struct ImageBlurLevelsTests {
    @Test(
        "every level is the direct blur at its sigma, within one level",
        arguments: [(37, 23), (1, 50), (50, 1), (64, 64), (1, 1)]
    )
    func levelsAreTheDirectBlur(width: Int, height: Int) throws {
        let picture = try translucentPicture(width: width, height: height)
        for edges in [BlurEdges.clamp, .transparent] {
            let levels = try pictureLevels(picture, maxRadius: 12, steps: 6, edges: edges)
            #expect(levels.count == 7)
            #expect(levels[0] == picture)
            for (i, level) in levels.enumerated().dropFirst() {
                let direct = try GaussianBlur(sigma: 12 * Double(i) / 6, edges: edges).apply(to: picture)
                #expect(largestDifference(level, direct) <= 1, "\(width)x\(height) level \(i) \(edges)")
            }
        }
    }

    @Test func sameBytesForAnyThreadCount() throws {
        // 300x300 is large enough that 4 threads blur one level at a time on all of them, and a
        // 40x30 picture is blurred a level per thread: both ways, the same bytes as one thread.
        for (width, height) in [(300, 300), (40, 30)] {
            let picture = try translucentPicture(width: width, height: height)
            let tint = Color(red: 255, green: 255, blue: 255, alpha: 0x4d)
            let one = try pictureLevels(picture, maxRadius: 20, steps: 4, tint: tint, threads: 1)
            for threads in [2, 3, 4, 7] {
                #expect(
                    try pictureLevels(picture, maxRadius: 20, steps: 4, tint: tint, threads: threads) == one
                )
            }
        }
    }

    /// The frames `animate --image` writes: the same files for any thread count, whether the
    /// levels go through `LevelFileScheduler` (300×300 keeps up to 5 threads busy a level at a
    /// time: 1, 2, 3 and 4 threads) or are made a level per thread (8), each the encoding of the
    /// level (under the tint, but for level 0): a translucent picture (RGBA) and an opaque one (its
    /// blur as colour planes, packed RGB by the writer), in the order asked for, repeats included.
    @Test(arguments: [false, true])
    func encodedLevelsAreTheSameFilesForAnyThreadCount(opaque: Bool) throws {
        var picture = try translucentPicture(width: 300, height: 300)
        if opaque {
            picture = try Image(
                width: 300,
                height: 300,
                premultipliedRGBA: picture.pixels.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
            )
        }
        let order = [0, 1, 2, 3, 2, 0]
        for tint in [nil, Color(red: 0, green: 0, blue: 0, alpha: 0x4d)] {
            let plan = try ImageBlurLevelPlan(image: picture, maxRadius: 12, steps: 3, tint: tint)
            #expect(plan.levelsAtOnce(threads: 4) == 1 && plan.levelsAtOnce(threads: 8) == 8)
            let encoder = PNGEncoder(compressionLevel: 1)
            let one = try plan.encodedLevels(order, encoder: encoder, threads: 1)
            for threads in [2, 3, 4, 8] {
                #expect(try plan.encodedLevels(order, encoder: encoder, threads: threads) == one)
            }
            for (position, level) in order.enumerated() {
                #expect(try PNGDecoder.decode(one[position]) == (try plan.level(level)))
            }
        }
    }

    /// An error handing a file over stops the run: it is rethrown, no file after it is handed
    /// over, and the files before it were, in order.
    @Test(arguments: [1, 2, 4])
    func aFailedHandOverStopsTheLevels(threads: Int) throws {
        struct Refused: Error {}
        let plan = try ImageBlurLevelPlan(
            image: try translucentPicture(width: 300, height: 300),
            maxRadius: 12,
            steps: 8
        )
        let handed = LockedValue([Int]())
        #expect(throws: Refused.self) {
            try plan.encodeLevels(Array(0...8), encoder: PNGEncoder(compressionLevel: 1), threads: threads) {
                position,
                _ in
                if position == 3 { throw Refused() }
                handed.withLock { $0.append(position) }
            }
        }
        #expect(handed.withLock { $0 } == [0, 1, 2])
    }

    /// A plan made from a file decodes it as `PNGDecoder` does and makes the same files; on
    /// several threads a picture large enough to share may also have up to a level's storage a
    /// thread ready (made while it decoded), one thread none. Bad steps are refused before the
    /// file is read.
    @Test func aPlanDecodingAFileMakesTheSameLevels() throws {
        let picture = try translucentPicture(width: 300, height: 300)
        let path = try Fixtures.temporaryFolder().appendingPathComponent("picture.png").path
        try FileIO.write(try PNGEncoder().encode(picture), to: path)
        let direct = try ImageBlurLevelPlan(image: picture, maxRadius: 12, steps: 3)
        let encoder = PNGEncoder(compressionLevel: 1)
        let expected = try direct.encodedLevels([0, 1, 2, 3], encoder: encoder, threads: 2)
        for threads in [1, 2, 4] {
            let plan = try ImageBlurLevelPlan(decoding: path, maxRadius: 12, steps: 3, threads: threads)
            #expect(plan.image == picture)
            // Storage is readied only while the picture decodes: at most one a thread, none on one.
            #expect(plan.spareStorage.withLock { $0.count } <= (threads == 1 ? 0 : min(3, threads)))
            #expect(try plan.encodedLevels([0, 1, 2, 3], encoder: encoder, threads: threads) == expected)
        }
        #expect(throws: LabelError.badSteps(0)) {
            try ImageBlurLevelPlan(decoding: path + ".missing", maxRadius: 12, steps: 0)
        }
        #expect(throws: (any Error).self) {
            try ImageBlurLevelPlan(decoding: path + ".missing", maxRadius: 12, steps: 3)
        }
    }

    /// Levels in flight are bounded by memory, not by the step count or only by the cores: four
    /// of a 3840×2160 picture (a gigabyte at 32 bytes a pixel) even with 16 threads, one a thread
    /// where that fits.
    @Test func levelsInFlightAreBoundedByMemory() throws {
        let plan = try ImageBlurLevelPlan(image: try Image(width: 3840, height: 2160), maxRadius: 20, steps: 100)
        #expect(plan.levelsInFlight(threads: 16) == 4 && plan.levelsInFlight(threads: 2) == 2)
        #expect(plan.levelsInFlight(threads: 1) == 1)
        let huge = try ImageBlurLevelPlan(image: try Image(width: 8192, height: 8192), maxRadius: 20, steps: 100)
        #expect(huge.levelsInFlight(threads: 16) == 1)
    }

    /// Clamped edges (the default) keep a uniform picture uniform, as a view's snapshot does not
    /// fade at its border; transparent edges let the blur fade out there.
    @Test func edgesAreClampedUnlessTransparentIsAsked() throws {
        let picture = try Image(width: 24, height: 16, fill: Color(red: 200, green: 40, blue: 90))
        let clamped = try pictureLevels(picture, maxRadius: 6, steps: 2)
        #expect(clamped[2] == picture)
        let faded = try pictureLevels(picture, maxRadius: 6, steps: 2, edges: .transparent)
        #expect(faded[2][0, 0].a < 255 && faded[2][12, 8].a > faded[2][0, 0].a)
    }

    @Test func aTintVeilsEveryBlurredLevelButNotThePicture() throws {
        let picture = try translucentPicture(width: 33, height: 21)
        let tint = Color(red: 0, green: 0, blue: 0, alpha: 0x4d)
        let levels = try pictureLevels(picture, maxRadius: 6, steps: 3, tint: tint)
        #expect(levels[0] == picture)
        for i in 1...3 {
            let blurred = try GaussianBlur(sigma: Double(2 * i)).apply(to: picture)
            #expect(levels[i] == Veil(tint).applied(to: blurred))
            #expect(levels[i] == (try GaussianBlur(sigma: Double(2 * i), tint: tint).apply(to: picture)))
        }
    }
}

@Suite("A tinted blur")
struct VeilTests {
    /// Over an opaque picture the result is blur·(1 − a) + colour·a, rounded once.
    @Test(arguments: ["#ffffff4d", "#0000004d", "#3388cc80", "#ff000001", "#12345678"])
    func opaqueBlurMatchesTheFormula(tint text: String) throws {
        let tint = try Color(parsing: text)
        let picture = try translucentPicture(width: 40, height: 30).flattened(over: .white)
        let blurred = try GaussianBlur(sigma: 3).apply(to: picture)
        let tinted = try GaussianBlur(sigma: 3, tint: tint).apply(to: picture)
        let a = Double(tint.alpha) / 255
        let colour = [tint.red, tint.green, tint.blue].map(Double.init)
        var largest = 0.0
        for p in 0..<(picture.width * picture.height) {
            for c in 0..<3 {
                let expected = Double(blurred.pixels[p * 4 + c]) * (1 - a) + colour[c] * a
                largest = max(largest, abs(Double(tinted.pixels[p * 4 + c]) - expected))
            }
            #expect(tinted.pixels[p * 4 + 3] == 255)
        }
        #expect(largest <= 0.5, "one rounding: within half a level of the exact value, got \(largest)")
    }

    /// Over transparent pixels the veil is all there is; over translucent ones it adds opacity;
    /// alpha 0 changes nothing, alpha 255 paints over; the result is valid premultiplied RGBA.
    @Test func overTransparentAndTranslucentPixels() throws {
        let tint = Color(red: 255, green: 255, blue: 255, alpha: 0x4d)
        let clear = try Image(width: 3, height: 2)
        let veiled = Veil(tint).applied(to: clear)
        #expect(veiled[1, 1] == (0x4d, 0x4d, 0x4d, 0x4d))
        let picture = try translucentPicture(width: 40, height: 30)
        let out = Veil(tint).applied(to: picture)
        for p in 0..<(picture.width * picture.height) {
            let a = Int(picture.pixels[p * 4 + 3])
            #expect(Int(out.pixels[p * 4 + 3]) == (255 * 0x4d + a * (255 - 0x4d) + 127) / 255)
            for c in 0..<3 { #expect(out.pixels[p * 4 + c] <= out.pixels[p * 4 + 3]) }
        }
        #expect(Veil(.transparent).applied(to: picture) == picture)
        #expect(Veil(.black).applied(to: picture) == (try Image(width: 40, height: 30, fill: .black)))
    }

    @Test func sameBytesForAnyThreadCount() throws {
        let picture = try translucentPicture(width: 700, height: 400)
        let veil = Veil(Color(red: 10, green: 200, blue: 30, alpha: 99))
        let one = veil.applied(to: picture, threads: 1)
        for threads in [2, 5] { #expect(veil.applied(to: picture, threads: threads) == one) }
    }

    @Test func redactionTintsItsBlurAndSecureRegionsOnly() throws {
        let picture = try translucentPicture(width: 60, height: 40).flattened(over: .white)
        let tint = Color(red: 255, green: 255, blue: 255, alpha: 0x4d)
        let rect = Redaction.Rect(x: 10, y: 5, width: 30, height: 20)
        var plain = Redaction(image: picture)
        plain.add(rect, mode: .blur(radius: 4))
        var tinted = Redaction(image: picture)
        tinted.add(rect, mode: .blur(radius: 4), tint: tint)
        let (a, b) = (try plain.render(), try tinted.render())
        for y in 0..<40 {
            for x in 0..<60 {
                let inside = tinted.effectiveRect(0).contains(x, y)  // the region and its margin
                let i = (y * 60 + x) * 4
                for c in 0..<4 {
                    let expected = inside ? Veil(tint).table[c * 256 + Int(a.pixels[i + c])] : a.pixels[i + c]
                    #expect(b.pixels[i + c] == expected)
                }
            }
        }
        var fill = Redaction(image: picture)
        fill.add(rect, mode: .fill(.black), tint: tint)
        var untinted = Redaction(image: picture)
        untinted.add(rect, mode: .fill(.black))
        #expect(try fill.render() == untinted.render())
        tinted.setTint(0, nil)
        #expect(try tinted.render() == a)
    }
}

@Suite("Tinted blur goldens")
struct TintedBlurGoldenTests {
    /// A picture behind a price: a diagonal gradient with stripes, and sharp white text over it.
    static func picture() throws -> Image {
        let (width, height) = (240, 90)
        var picture = try Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let t = Double(x + y) / Double(width + height)
                let stripe = (x / 12) % 2 == 0 ? 0.0 : 30.0
                let i = (y * width + x) * 4
                picture[byte: i] = UInt8(46 + (232 - 46) * t)
                picture[byte: i + 1] = UInt8(134 + (67 - 134) * t + stripe)
                picture[byte: i + 2] = UInt8(222 + (147 - 222) * t)
                picture[byte: i + 3] = 255
            }
        }
        let text = try GoldenTests.label("SALE 19.99 €", radius: nil) {
            $0.color = .white
            $0.background = .transparent
            $0.typography.size = 36
        }
        // Source-over, premultiplied, the text centred.
        let (dx, dy) = ((width - text.width) / 2, (height - text.height) / 2)
        for y in 0..<text.height {
            for x in 0..<text.width where x + dx >= 0 && x + dx < width && y + dy >= 0 && y + dy < height {
                let s = (y * text.width + x) * 4
                let d = ((y + dy) * width + x + dx) * 4
                let inverse = 255 - Int(text.pixels[s + 3])
                for c in 0..<4 {
                    picture[byte: d + c] = UInt8(
                        Int(text.pixels[s + c]) + (Int(picture.pixels[d + c]) * inverse + 127) / 255
                    )
                }
            }
        }
        return picture
    }

    @Test func frostedAndDark() throws {
        let picture = try Self.picture()
        for (name, tint) in [("picture-frosted", "#ffffff4d"), ("picture-dark", "#0000004d")] {
            let blurred = try GaussianBlur(sigma: 6, tint: try Color(parsing: tint)).apply(to: picture)
            assertGolden(blurred, named: name, options: .exact)
        }
    }
}
