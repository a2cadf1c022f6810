import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

@Suite("PNG encoding")
struct PNGEncoderTests {
    static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> Color) throws -> Image {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y).premultiplied
                pixels += [p.0, p.1, p.2, p.3]
            }
        }
        return try Image(width: width, height: height, premultipliedRGBA: pixels)
    }

    static let cases: [(String, Image, PNGColorPlan)] = {
        let greyRamp = try! image(16, 16) { x, y in
            let v = UInt8(x * 16 + y)
            return Color(red: v, green: v, blue: v)
        }
        let blackWhite = try! image(9, 3) { x, _ in x % 2 == 0 ? .black : .white }
        let fourLevels = try! image(8, 2) { x, _ in
            let v = UInt8((x % 4) * 85)
            return Color(red: v, green: v, blue: v)
        }
        let twoColours = try! image(10, 10) { x, y in
            (x + y) % 2 == 0 ? Color(red: 200, green: 30, blue: 30) : Color(red: 240, green: 240, blue: 200)
        }
        let translucentGrey = try! image(20, 20) { x, y in
            Color(red: UInt8(x * 12), green: UInt8(x * 12), blue: UInt8(x * 12), alpha: UInt8(y * 12 + 10))
        }
        let manyColours = try! image(32, 32) { x, y in
            Color(red: UInt8(x * 8), green: UInt8(y * 8), blue: UInt8((x ^ y) * 8))
        }
        let manyTranslucent = try! image(32, 32) { x, y in
            Color(red: UInt8(x * 8), green: UInt8(y * 8), blue: 77, alpha: UInt8(x * 8 + 3))
        }
        return [
            ("grey ramp", greyRamp, .grey(bitDepth: 8)),
            ("black and white", blackWhite, .grey(bitDepth: 1)),
            ("four grey levels", fourLevels, .grey(bitDepth: 2)),
            ("two colours", twoColours, .palette(entries: [], bitDepth: 1)),
            ("translucent grey", translucentGrey, .greyAlpha),
            ("many opaque colours", manyColours, .rgb),
            ("many translucent colours", manyTranslucent, .rgba),
        ]
    }()

    @Test("picks the smallest exact colour type and round-trips exactly", arguments: 0..<cases.count)
    func roundTrip(index: Int) throws {
        let (name, image, expected) = Self.cases[index]
        let plan = PNGColorPlan.smallest(for: [image])
        switch (plan, expected) {
        case let (.palette(_, depth), .palette(_, expectedDepth)): #expect(depth == expectedDepth, "\(name)")
        default: #expect(plan == expected, "\(name)")
        }
        let bytes = try PNGEncoder().encode(image)
        let (decoded, header) = try PNGDecoder.decodeWithHeader(bytes)
        #expect(decoded == image, "\(name) did not round-trip")
        #expect(header.colorType == Int(plan.colorType))
    }

    @Test func everyPremultipliedValueRoundTripsThroughRGBA() throws {
        // All (value ≤ alpha) pairs: unpremultiplying for the file and premultiplying back is exact.
        var pixels: [UInt8] = []
        for a in 0...255 { for v in 0...a { pixels += [UInt8(v), UInt8(v / 2), 0, UInt8(a)] } }
        let width = 256
        let height = pixels.count / 4 / width
        let image = try Image(width: width, height: height, premultipliedRGBA: Array(pixels.prefix(width * height * 4)))
        #expect(try PNGDecoder.decode(try PNGEncoder().encode(image)) == image)
    }

    @Test func aBlurredBlackOnWhiteLabelIsGrey() throws {
        var image = try Image(width: 40, height: 20, fill: .white)
        for x in 10..<30 {
            for y in 8..<12 {
                let i = (y * 40 + x) * 4
                image[byte: i] = 0
                image[byte: i + 1] = 0
                image[byte: i + 2] = 0
            }
        }
        let blurred = try GaussianBlur(sigma: 2.5).apply(to: image)
        #expect(PNGColorPlan.smallest(for: [blurred]) == .grey(bitDepth: 8))
    }

    @Test func compressionLevelIsHonoured() throws {
        var random = TestRandom(state: 7)
        let pixels = (0..<(64 * 64 * 4)).map { i in i % 4 == 3 ? 255 : random.next() & 0xF0 }
        let image = try Image(width: 64, height: 64, premultipliedRGBA: pixels)
        let stored = try PNGEncoder(compressionLevel: 0).encode(image)
        let best = try PNGEncoder(compressionLevel: 9).encode(image)
        #expect(stored.count > best.count)
        #expect(try PNGDecoder.decode(stored) == image && PNGDecoder.decode(best) == image)
    }

    @Test func emptyImagesCannotBePNG() throws {
        #expect(throws: PNGError.self) { try PNGEncoder().encode(try Image(width: 0, height: 5)) }
    }
}

@Suite("Parallel PNG compression of large images")
struct ParallelPNGTests {
    static func large(_ kind: String) throws -> Image {
        let width = 1100
        let height = 1000
        var random = TestRandom(state: 3)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let v = UInt8((x * 3 + y * 5) & 0xFF) ^ (x % 97 == 0 ? random.next() : 0)
                switch kind {
                case "grey":
                    pixels[i] = v
                    pixels[i + 1] = v
                    pixels[i + 2] = v
                case "rgb":
                    pixels[i] = v
                    pixels[i + 1] = random.next()
                    pixels[i + 2] = UInt8(y & 0xFF)
                case "palette":
                    let c: UInt8 = v < 128 ? 30 : 200
                    pixels[i] = c
                    pixels[i + 1] = 60
                    pixels[i + 2] = c
                default:
                    let a = UInt8(128 + Int(v) / 2)
                    pixels[i + 3] = a
                    pixels[i] = min(v, a)
                    pixels[i + 1] = min(random.next(), a)
                    pixels[i + 2] = min(UInt8(y & 0xFF), a)
                }
            }
        }
        return try Image(width: width, height: height, premultipliedRGBA: pixels)
    }

    @Test("round-trips exactly", arguments: ["grey", "palette", "rgba"])
    func roundTrip(kind: String) throws {
        let image = try Self.large(kind)
        #expect(image.width * image.height >= PNGEncoder.parallelImagePixels)
        let bytes = try PNGEncoder().encode(image)
        #expect(try PNGDecoder.decode(bytes) == image)
    }

    @Test func bytesDoNotDependOnThreads() throws {
        let image = try Self.large("rgba")
        let plan = PNGColorPlan.smallest(for: [image])
        let (rows, rowBytes) = PNGEncoder.packRows(image, plan: plan)
        func encode(_ threads: Int) throws -> [UInt8] {
            try ParallelPNGWriter.encode(
                rows: rows,
                rowBytes: rowBytes,
                width: image.width,
                height: image.height,
                plan: plan,
                paletteRGB: [],
                paletteAlpha: [],
                level: 6,
                threads: threads
            )
        }
        let one = try encode(1)
        #expect(try encode(2) == one && encode(5) == one)
    }
}

@Suite("Whole-picture PNG compression on one thread (animation frames)")
struct WholePNGTests {
    /// Every colour plan (RGB packed by the writer itself, the others by `packRows`) decodes to
    /// the same pixels, sharp and blurred, at the frames' default level 1 (`RunDeflate`, and
    /// libdeflate's level 1 where runs shrink the rows less than 8-fold, as on all of these) and
    /// at 6 (libdeflate); the file differs from `encode`'s (zlib), and at level 1 it is no larger.
    @Test("round-trips exactly", arguments: ["grey", "palette", "rgb", "rgba"])
    func roundTrip(kind: String) throws {
        let sharp = try ParallelPNGTests.large(kind)
        for image in [sharp, GaussianBlur(radius: try BlurRadius(sigma: 3)).apply(to: sharp)] {
            for level in [1, 6] {
                let encoder = PNGEncoder(compressionLevel: level)
                let whole = try encoder.encodeOnCallingThread(image)
                #expect(try PNGDecoder.decode(whole) == image)
                let parallel = try encoder.encode(image)
                #expect(whole != parallel)
                if level == 1 { #expect(whole.count <= parallel.count, "\(kind): \(whole.count) vs \(parallel.count)") }
            }
        }
    }

    /// A blurred picture of flat panels, as a screenshot's frames: runs shrink it well past
    /// 8-fold, so level 1 keeps `RunDeflate`'s stream of rows filtered a block at a time straight
    /// from RGBA (the kernels' `paeth_rgb_from_rgba`), which inflates to exactly what the Swift Paeth filter
    /// makes of the packed RGB rows; the file decodes to the same pixels.
    @Test func blurredPanelsKeepTheRuns() throws {
        let panels = try PNGEncoderTests.image(700, 400) { x, y in
            (x / 100 + y / 80) % 3 == 0 ? Color(red: 240, green: 236, blue: 230) : Color(red: 40, green: 90, blue: 160)
        }
        let image = GaussianBlur(radius: try BlurRadius(sigma: 6)).apply(to: panels)
        let file = try PNGEncoder(compressionLevel: 1).encodeOnCallingThread(image)
        #expect(try PNGDecoder.decode(file) == image)
        let rowBytes = image.width * 3
        let rgb = image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        var filtered = [UInt8](repeating: 0, count: image.height * (rowBytes + 1))
        rgb.withUnsafeBufferPointer { pixels in
            filtered.withUnsafeMutableBufferPointer { out in
                PNGRowFilter.paethRows(
                    pixels: pixels.baseAddress!,
                    rowBytes: rowBytes,
                    bytesPerPixel: 3,
                    height: image.height,
                    into: out.baseAddress!
                )
            }
        }
        #expect(SmallPNGWriterTests.inflated(file, expected: filtered.count) == filtered)
        var runs = [UInt8](repeating: 0, count: RunDeflate.rgbBound(image))
        let scratch = UnsafeMutableRawPointer.allocate(
            byteCount: RunDeflate.rgbScratchBytes(width: image.width),
            alignment: 64
        )
        defer { scratch.deallocate() }
        let written = runs.withUnsafeMutableBufferPointer { out in
            RunDeflate.zlibCompressRGBRows(image, into: out.baseAddress!, scratch: scratch)
        }
        #expect(written < filtered.count / WholePNGWriter.runsEnough)
        let idat = SmallPNGWriterTests.chunks(file).filter { $0.type == "IDAT" }.flatMap(\.data)
        #expect(idat == Array(runs.prefix(written)), "the IDAT data is not RunDeflate's stream")
    }

    /// A picture between a label and the parallel writer's size, and an opaque one wider than
    /// tall, through the same path; a label-sized image gets exactly what `encode` writes.
    @Test func middleSizesAndLabels() throws {
        let middle = try PNGEncoderTests.image(400, 300) { x, y in
            Color(red: UInt8(x & 0xFF), green: UInt8(y & 0xFF), blue: UInt8((x * y) & 0xFF))
        }
        #expect(middle.width * middle.height > PNGEncoder.smallImagePixels)
        #expect(try PNGDecoder.decode(try PNGEncoder().encodeOnCallingThread(middle)) == middle)
        let label = try PNGEncoderTests.image(90, 30) { x, y in
            Color(red: UInt8(x & 0xFF), green: UInt8(y & 0xFF), blue: 7, alpha: UInt8(128 + x))
        }
        #expect(try PNGEncoder().encodeOnCallingThread(label) == (try PNGEncoder().encode(label)))
    }

    /// The writer's scratch buffers are reused: two different pictures one after the other on
    /// one thread, then the first again, give the same bytes as the first time.
    @Test func reusedScratchGivesTheSameBytes() throws {
        let first = try ParallelPNGTests.large("rgb")
        let second = try ParallelPNGTests.large("rgba")
        let encoder = PNGEncoder(compressionLevel: 1)
        let once = try encoder.encodeOnCallingThread(first)
        _ = try encoder.encodeOnCallingThread(second)
        #expect(try encoder.encodeOnCallingThread(first) == once)
    }
}
