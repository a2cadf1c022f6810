import CZlib
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

/// `SmallPNGWriter` compresses with runs or libdeflate, libpng with zlib: for the images the writer takes
/// the two files must hold the same chunks before the image data (IHDR, PLTE, tRNS), the same
/// filtered rows once inflated (so the same row filters), and decode to the same pixels: every
/// colour plan and bit depth, sizes from one pixel to the small-image limit (several IDAT
/// chunks), smooth, noisy and label content, levels 1 to 9, and data around the sizes where
/// zlib's buffers change. Labels' files are no larger than libpng's.
@Suite("Small PNG writer: libpng's data through runs and libdeflate")
struct SmallPNGWriterTests {
    /// Premultiplied RGBA from straight colours.
    static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> Color) throws -> Image {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y).premultiplied
                pixels += [p.0, p.1, p.2, p.3]
            }
        }
        return try Image(width: width, height: height, premultipliedRGBA: pixels)
    }

    /// One picture of each colour plan (and palette / grey bit depth) at the given size; `noisy`
    /// picks values at random (incompressible) instead of smooth ramps.
    static func pictures(_ w: Int, _ h: Int, noisy: Bool, seed: UInt64) throws -> [(String, Image)] {
        var random = TestRandom(state: seed)
        func value(_ x: Int, _ y: Int, _ levels: Int) -> Int {
            if noisy { return Int(random.next()) % levels }
            let position = (x * 7 + y * 3) * levels / max(1, w * 7 + h * 3)
            return position % levels
        }
        var result: [(String, Image)] = []
        for (depth, levels) in [(1, 2), (2, 4), (4, 16), (8, 256)] {
            result.append(
                (
                    "grey \(depth)",
                    try image(w, h) { x, y in
                        let level = value(x, y, levels) * 255 / (levels - 1)
                        return Color(red: UInt8(level), green: UInt8(level), blue: UInt8(level))
                    }
                )
            )
        }
        for (depth, colours) in [(1, 2), (2, 4), (4, 16), (8, 200)] {
            result.append(
                (
                    "palette \(depth)",
                    try image(w, h) { x, y in
                        let i = value(x, y, colours)
                        return Color(
                            red: UInt8(i * 37 % 256),
                            green: UInt8(i * 91 % 256),
                            blue: 17,
                            alpha: i % 3 == 0 ? 128 : 255
                        )
                    }
                )
            )
        }
        result.append(
            (
                "grey + alpha",
                try image(w, h) { x, y in
                    let v = UInt8(value(x, y, 256))
                    return Color(red: v, green: v, blue: v, alpha: UInt8(value(x, y, 255) + 1))
                }
            )
        )
        result.append(
            (
                "rgb",
                try image(w, h) { x, y in
                    Color(red: UInt8(value(x, y, 256)), green: UInt8(value(y, x, 256)), blue: UInt8((x ^ y) & 0xFF))
                }
            )
        )
        result.append(
            (
                "rgba",
                try image(w, h) { x, y in
                    Color(
                        red: UInt8(value(x, y, 256)),
                        green: UInt8(value(y, x, 256)),
                        blue: 99,
                        alpha: UInt8(value(x, y, 255) + 1)
                    )
                }
            )
        )
        return result
    }

    /// A PNG file's chunks: type and data.
    static func chunks(_ file: [UInt8]) -> [(type: String, data: [UInt8])] {
        var result: [(String, [UInt8])] = []
        var offset = 8
        while offset + 12 <= file.count {
            let length = file[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: file[offset + 4..<offset + 8], as: UTF8.self)
            result.append((type, Array(file[offset + 8..<offset + 8 + length])))
            offset += 12 + length
        }
        return result
    }

    /// The inflated IDAT data of a PNG file (`expected` bytes), nil if it does not inflate to them.
    static func inflated(_ file: [UInt8], expected: Int) -> [UInt8]? {
        let stream = chunks(file).filter { $0.type == "IDAT" }.flatMap(\.data)
        var out = [UInt8](repeating: 0, count: expected + 1)
        var length = uLongf(out.count)
        let status = uncompress(&out, &length, stream, uLong(stream.count))
        guard status == Z_OK, Int(length) == expected else { return nil }
        return Array(out.prefix(expected))
    }

    /// The encoder, through SmallPNGWriter where it applies, against libpng alone: the same
    /// header chunks, filtered data and pixels; with `noLarger`, a file no larger than libpng's.
    /// Returns the two sizes.
    @discardableResult
    static func expectLibpngData(
        _ image: Image,
        _ name: String,
        level: Int = 6,
        filters: PNGEncoder.RowFilters? = nil,
        strategy: PNGEncoder.Strategy = .automatic,
        noLarger: Bool = false
    ) throws -> (ours: Int, libpng: Int) {
        let encoder = PNGEncoder(compressionLevel: level, filters: filters, strategy: strategy)
        var libpng = encoder
        libpng.libpngOnly = true
        let ours = try encoder.encode(image)
        let theirs = try libpng.encode(image)
        let what = "\(name) \(image.width)x\(image.height) level \(level) filters \(String(describing: filters))"
        let header = { (file: [UInt8]) in chunks(file).filter { $0.type != "IDAT" }.map { "\($0.type)\($0.data)" } }
        #expect(header(ours) == header(theirs), "\(what): chunks")
        #expect(ours.prefix(8) == theirs.prefix(8), "\(what): signature")
        let ihdr = chunks(theirs)[0].data
        let bits = Int(ihdr[8]) * [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(ihdr[9])]!
        let dataCount = image.height * ((image.width * bits + 7) / 8 + 1)
        let theirData = inflated(theirs, expected: dataCount)
        #expect(theirData != nil, "\(what): libpng's data")
        #expect(inflated(ours, expected: dataCount) == theirData, "\(what): filtered data")
        #expect(try PNGDecoder.decode(ours).pixels == image.pixels, "\(what): pixels")
        if noLarger { #expect(ours.count <= theirs.count, "\(what): \(ours.count) bytes, libpng \(theirs.count)") }
        return (ours.count, theirs.count)
    }

    @Test(
        "every colour plan, small to the small-image limit, smooth and noisy",
        arguments: [
            (1, 1), (5, 1), (1, 5), (3, 2), (7, 5), (33, 17), (135, 42), (200, 100), (256, 256),
        ]
    )
    func everyPlan(size: (Int, Int)) throws {
        for noisy in [false, true] {
            for (name, picture) in try Self.pictures(size.0, size.1, noisy: noisy, seed: UInt64(size.0 * 1000 + size.1))
            {
                try Self.expectLibpngData(picture, "\(name)\(noisy ? " noisy" : "")")
            }
        }
    }

    @Test("compression levels 1 to 9, Paeth or None asked for explicitly", arguments: [1, 2, 5, 6, 9])
    func levelsAndFilters(level: Int) throws {
        for (name, picture) in try Self.pictures(45, 31, noisy: true, seed: UInt64(level)) {
            try Self.expectLibpngData(picture, name, level: level)
            try Self.expectLibpngData(picture, name, level: level, filters: .paeth, strategy: .runLength)
            try Self.expectLibpngData(
                picture,
                name,
                level: level,
                filters: PNGEncoder.RowFilters.none,
                strategy: .runLength
            )
        }
    }

    @Test("data around the sizes where zlib's buffers change, every byte a literal")
    func memoryLevelBoundaries() throws {
        // Grey noise: (width + 1) * height bytes of filtered data around 2^(level + 6) - 2.
        var random = TestRandom(state: 99)
        for boundary in [126, 254, 510, 1022, 2046, 4094, 8190, 16382] {
            for count in [boundary - 1, boundary, boundary + 1, boundary + 2] {
                let height = 2
                let width = count / height - 1
                guard width > 0, (width + 1) * height == count else { continue }
                let picture = try Self.image(width, height) { _, _ in
                    let v = random.next()
                    return Color(red: v, green: v, blue: v)
                }
                try Self.expectLibpngData(picture, "grey noise, \(count) bytes of data")
            }
        }
    }

    @Test(
        "blurred price tags are written by the small writer, no larger than libpng's",
        arguments: [("56.00 €", 32.0), ("0.99 €", 48.0), ("1234.50 €", 48.0), ("7.25 €", 20.0)]
    )
    func blurredPriceTags(text: String, size: Double) throws {
        let label = BlurredLabel(text: text, style: LabelStyle(typography: TextStyle(size: size)))
        try label.blur()
        let image = try label.image
        let plan = PNGColorPlan.smallest(for: [image])
        let pixels = image.width * image.height
        #expect(
            EncodingPlan.choose(.png, pixels: pixels, colors: plan, encoder: PNGEncoder(), caller: .singleFile)
                == .png(.small(.paeth, .runs))
        )
        for level in [1, 6, 7, 9] { try Self.expectLibpngData(image, "price tag", level: level, noLarger: true) }
    }

    @Test("the same bytes from every thread and every call: each thread's kept compressor starts afresh")
    func sameBytesOnEveryThread() throws {
        let pictures = try [("56.00 €", 48.0), ("0.99 €", 20.0)].map { text, size in
            let label = BlurredLabel(text: text, style: LabelStyle(typography: TextStyle(size: size)))
            try label.blur()
            return try label.image
        }
        let expected = try pictures.map { try PNGEncoder().encode($0) }
        // Four threads, each encoding the pictures in turn, its compressor reused from call to call.
        let files = parallelMap(4, threads: 4) { _ in
            (0..<6).map { i in (try? PNGEncoder().encode(pictures[i % 2])) ?? [] }
        }
        for (thread, made) in files.enumerated() {
            for (i, file) in made.enumerated() { #expect(file == expected[i % 2], "thread \(thread), call \(i)") }
        }
    }

    @Test func levelsMapToDeflaters() {
        let above6 = (7...9).map { PNGDeflater.libdeflate(level: Int32($0)) }
        for colors in [PNGColorPlan.grey(bitDepth: 8), .greyAlpha, .rgb, .rgba] {
            let paeth = (1...9).map { SmallPNGWriter.deflater($0, filter: .paeth, colors: colors) }
            #expect(paeth == [PNGDeflater](repeating: .runs, count: 6) + above6, "\(colors)")
        }
        let libdeflate1 = [PNGDeflater](repeating: .libdeflate(level: 1), count: 6) + above6
        for (filter, colors) in [
            (SmallPNGWriter.RowFilter.none, PNGColorPlan.grey(bitDepth: 8)), (.paeth, .grey(bitDepth: 1)),
            (.paeth, .grey(bitDepth: 4)), (.none, .palette(entries: [0, 1], bitDepth: 8)),
        ] {
            #expect(
                (1...9).map { SmallPNGWriter.deflater($0, filter: filter, colors: colors) } == libdeflate1,
                "\(colors)"
            )
        }
    }

    @Test func largerImagesAndOtherSettingsStayWithLibpng() {
        #expect(PNGWritePlan.singleFilter(nil, colors: .rgb) == nil)  // libpng's adaptive filters
        #expect(PNGWritePlan.singleFilter([.sub, .up], colors: .grey(bitDepth: 8)) == nil)
        #expect(PNGWritePlan.singleFilter(nil, colors: .grey(bitDepth: 4)) == SmallPNGWriter.RowFilter.none)
        #expect(
            PNGWritePlan.singleFilter(nil, colors: .palette(entries: [0], bitDepth: 1))
                == SmallPNGWriter.RowFilter.none
        )
    }

    @Test func theNarrowedHeaderIsAValidZlibHeader() {
        for count in [2, 100, 300, 1000, 5712, 16384] {
            var stream: [UInt8] = [0x78, 0x01]  // 32 KB window, no preset dictionary
            SmallPNGWriter.narrowHeader(&stream, dataCount: count)
            #expect((Int(stream[0]) << 8 | Int(stream[1])) % 31 == 0)
            #expect(1 << ((Int(stream[0]) >> 4) + 8) >= count || stream[0] >> 4 == 0)
        }
    }
}
