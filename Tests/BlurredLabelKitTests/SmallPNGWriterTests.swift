import Testing

@testable import BlurredLabelCore

/// `SmallPNGWriter` must write exactly the bytes libpng writes for the images it takes: every
/// colour plan and bit depth, sizes from one pixel to the small-image limit (several IDAT chunks),
/// smooth, noisy and label content, levels 1 to 9, and the data sizes where zlib's memory level
/// changes (all-literal data, the most symbols a block can hold).
@Suite("Small PNG writer: libpng's bytes")
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

    /// The encoder's bytes, through SmallPNGWriter where it applies, must equal libpng's.
    static func expectLibpngBytes(
        _ image: Image,
        _ name: String,
        level: Int = 6,
        filters: PNGEncoder.RowFilters? = nil,
        strategy: PNGEncoder.Strategy = .automatic
    ) throws {
        let encoder = PNGEncoder(compressionLevel: level, filters: filters, strategy: strategy)
        var libpng = encoder
        libpng.libpngOnly = true
        let ours = try encoder.encode(image)
        let theirs = try libpng.encode(image)
        #expect(
            ours == theirs,
            "\(name) \(image.width)x\(image.height) level \(level) filters \(String(describing: filters)): \(ours.count) bytes, libpng \(theirs.count)"
        )
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
                try Self.expectLibpngBytes(picture, "\(name)\(noisy ? " noisy" : "")")
            }
        }
    }

    @Test("compression levels 1 to 9, Paeth or None asked for explicitly", arguments: [1, 2, 5, 6, 9])
    func levelsAndFilters(level: Int) throws {
        for (name, picture) in try Self.pictures(45, 31, noisy: true, seed: UInt64(level)) {
            try Self.expectLibpngBytes(picture, name, level: level)
            try Self.expectLibpngBytes(picture, name, level: level, filters: .paeth, strategy: .runLength)
            try Self.expectLibpngBytes(
                picture,
                name,
                level: level,
                filters: PNGEncoder.RowFilters.none,
                strategy: .runLength
            )
        }
    }

    @Test("the data sizes where zlib's memory level changes, every byte a literal")
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
                try Self.expectLibpngBytes(picture, "grey noise, \(count) bytes of data")
            }
        }
        #expect(SmallPNGWriter.memoryLevel(dataCount: 5712) == 7)  // the price tag: 135x42 grey
        #expect(SmallPNGWriter.memoryLevel(dataCount: 8190) == 7)
        #expect(SmallPNGWriter.memoryLevel(dataCount: 8191) == 8)
        #expect(SmallPNGWriter.memoryLevel(dataCount: 100) == 1)
    }

    @Test func aBlurredPriceTagIsWrittenByTheSmallWriterWithLibpngsBytes() throws {
        let label = BlurredLabel(text: "56.00 €")
        try label.blur()
        let image = try label.image
        let plan = PNGColorPlan.smallest(for: [image])
        #expect(PNGEncoder.smallWriterFilter(.paeth, plan: plan) == .paeth)
        try Self.expectLibpngBytes(image, "price tag")
        try Self.expectLibpngBytes(image, "price tag", level: 9)
    }

    @Test func largerImagesAndOtherSettingsStayWithLibpng() {
        #expect(PNGEncoder.smallWriterFilter(nil, plan: .rgb) == nil)  // libpng's adaptive filters
        #expect(PNGEncoder.smallWriterFilter([.sub, .up], plan: .grey(bitDepth: 8)) == nil)
        #expect(PNGEncoder.smallWriterFilter(nil, plan: .grey(bitDepth: 4)) == SmallPNGWriter.RowFilter.none)
        #expect(
            PNGEncoder.smallWriterFilter(nil, plan: .palette(entries: [0], bitDepth: 1))
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
