import Testing

@testable import BlurredLabelCore

/// A screenshot-like picture: bars, text-like strokes and noise.
func screenshot(width: Int = 120, height: Int = 80, grey: Bool = false, seed: UInt64 = 5) throws -> Image {
    var random = TestRandom(state: seed)
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            var c: (UInt8, UInt8, UInt8) = y < 12 ? (40, 80, 160) : (250, 250, 250)
            if (x / 3 + y / 5) % 4 == 0 && y > 20 { c = (20, 20, 20) }
            if y > 60 {
                let v = random.next()
                c = (v, v / 2, 255 - v)
            }
            if grey {
                let g = UInt8((Int(c.0) + Int(c.1) + Int(c.2)) / 3)
                c = (g, g, g)
            }
            pixels += [c.0, c.1, c.2, 255]
        }
    }
    return try Image(width: width, height: height, premultipliedRGBA: pixels)
}

@Suite("Redaction")
struct RedactionTests {
    static let modes: [Redaction.Mode] = [
        .blur(radius: 4), .pixelate(block: 5), .fill(Color(red: 10, green: 20, blue: 30)), .secure(radius: 4),
    ]

    @Test("pixels outside every region are unchanged", arguments: modes)
    func outsideUnchanged(mode: Redaction.Mode) throws {
        let image = try screenshot()
        var redaction = Redaction(image: image)
        redaction.add(.init(x: 10, y: 5, width: 30, height: 20), mode: mode)
        redaction.add(.init(x: 100, y: 70, width: 40, height: 40), mode: mode)  // partly outside
        let out = try redaction.render()
        var changedInside = false
        for y in 0..<image.height {
            for x in 0..<image.width {
                // Secure and blur regions change their margin too (`effectiveRect`).
                let inside = redaction.regions.indices.contains { redaction.effectiveRect($0).contains(x, y) }
                if !inside {
                    #expect(out[x, y] == image[x, y], "(\(x),\(y)) changed")
                } else if out[x, y] != image[x, y] {
                    changedInside = true
                }
            }
        }
        #expect(changedInside)
    }

    @Test("secure: changing any pixel inside leaves the output identical", arguments: [1, 2, 3, 4, 5])
    func secureIsNonInterfering(seed: UInt64) throws {
        let image = try screenshot()
        let rects = [
            Redaction.Rect(x: 20, y: 15, width: 40, height: 25), Redaction.Rect(x: 50, y: 30, width: 30, height: 30),
        ]
        func render(_ picture: Image) throws -> Image {
            var redaction = Redaction(image: picture)
            redaction.add(.init(x: 0, y: 0, width: 25, height: 70), mode: .blur(radius: 3))  // overlaps, applied first
            for r in rects { redaction.add(r, mode: .secure(radius: 5)) }
            redaction.add(.init(x: 55, y: 10, width: 40, height: 10), mode: .pixelate(block: 4))
            return try redaction.render()
        }
        var changed = image
        var random = TestRandom(state: seed)
        for y in 0..<image.height {
            for x in 0..<image.width where rects.contains(where: { $0.contains(x, y) }) {
                let v = random.next()
                for (k, byte) in [v, v, v, 255].enumerated() { changed[byte: (y * image.width + x) * 4 + k] = byte }
            }
        }
        #expect(changed != image)
        #expect(try render(changed) == render(image))
    }

    @Test func plainBlurDoesDependOnWhatItCovers() throws {
        // The contrast that makes the secure test meaningful.
        let image = try screenshot()
        var changed = image
        changed[byte: (30 * image.width + 30) * 4] = 0
        func render(_ p: Image) throws -> Image {
            var r = Redaction(image: p)
            r.add(.init(x: 20, y: 20, width: 20, height: 20), mode: .blur(radius: 4))
            return try r.render()
        }
        #expect(try render(changed) != render(image))
    }

    @Test func negativeDragsMovesAndResizes() throws {
        #expect(
            Redaction.Rect(x: 50, y: 40, width: -20, height: -10) == Redaction.Rect(x: 30, y: 30, width: 20, height: 10)
        )
        var redaction = Redaction(image: try screenshot())
        let i = redaction.add(.init(x: 50, y: 40, width: -20, height: 10), mode: .fill(.black))
        redaction.move(i, dx: 5, dy: -3)
        #expect(redaction.regions[i].rect == .init(x: 35, y: 37, width: 20, height: 10))
        redaction.resize(i, width: -10, height: 4)
        #expect(redaction.regions[i].rect == .init(x: 25, y: 37, width: 10, height: 4))
        let out = try redaction.render()
        #expect(out[25, 37] == (0, 0, 0, 255) && out[34, 40] == (0, 0, 0, 255))
        #expect(out[35, 37] != (0, 0, 0, 255) || redaction.image[35, 37] == (0, 0, 0, 255))
    }

    @Test func overlapsComposeInOrder() throws {
        var redaction = Redaction(image: try screenshot())
        redaction.add(.init(x: 0, y: 0, width: 30, height: 30), mode: .fill(Color(red: 255, green: 0, blue: 0)))
        redaction.add(.init(x: 20, y: 20, width: 30, height: 30), mode: .fill(Color(red: 0, green: 0, blue: 255)))
        let out = try redaction.render()
        #expect(out[25, 25] == (0, 0, 255, 255) && out[5, 5] == (255, 0, 0, 255))
        redaction.setMode(1, .pixelate(block: 10))
        let pixelated = try redaction.render()
        #expect(pixelated[25, 25] != (0, 0, 255, 255))
    }

    /// A fill that is not opaque would leave the text showing through (at 75% contrast for
    /// alpha 0x40; not at all changed for transparent): refused, as are a blur of σ 0 and blocks of 1.
    @Test func noOpSettingsAreRefused() throws {
        let image = try Image(width: 4, height: 4, fill: .white)
        let rect = Redaction.Rect(x: 0, y: 0, width: 4, height: 4)
        for (mode, error) in [
            (
                Redaction.Mode.fill(Color(red: 0, green: 0, blue: 0, alpha: 0x40)),
                RedactionError.fillNotOpaque(index: 0)
            ),
            (.fill(.transparent), .fillNotOpaque(index: 0)), (.blur(radius: 0), .blurOfZero(index: 0)),
            (.pixelate(block: 1), .badBlock(index: 0, block: 1)),
        ] {
            var redaction = Redaction(image: image)
            redaction.add(rect, mode: mode)
            #expect(throws: error) { try redaction.render() }
        }
        var opaque = Redaction(image: image)
        opaque.add(rect, mode: .fill(Color(red: 0, green: 0, blue: 0)))
        #expect(try opaque.render()[1, 1] == (0, 0, 0, 255))
    }

    @Test func pixelateUsesBlockAverages() throws {
        var pixels: [UInt8] = []
        for x in 0..<4 {
            let v = UInt8(x * 10)
            pixels += [v, v, v, 255]
        }
        var redaction = Redaction(image: try Image(width: 4, height: 1, premultipliedRGBA: pixels))
        redaction.add(.init(x: 0, y: 0, width: 4, height: 1), mode: .pixelate(block: 2))
        let out = try redaction.render()
        #expect(out[0, 0].r == 5 && out[1, 0].r == 5 && out[2, 0].r == 25 && out[3, 0].r == 25)
    }

    @Test(
        "bad regions are named",
        arguments: [
            (Redaction.Rect(x: 500, y: 0, width: 10, height: 10), Redaction.Mode.blur(radius: 2), "entirely outside"),
            (Redaction.Rect(x: 5, y: 5, width: 0, height: 10), .blur(radius: 2), "no area"),
            (Redaction.Rect(x: 5, y: 5, width: 10, height: 10), .pixelate(block: 0), "block size"),
        ]
    )
    func badRegions(rect: Redaction.Rect, mode: Redaction.Mode, message: String) throws {
        var redaction = Redaction(image: try screenshot())
        redaction.add(.init(x: 1, y: 1, width: 2, height: 2), mode: .fill(.black))
        redaction.add(rect, mode: mode)
        #expect { try redaction.render() } throws: { "\($0)".contains("region 2") && "\($0)".contains(message) }
    }

    @Test(
        "every mode keeps a grey picture grey",
        arguments: modes.filter {
            if case .fill = $0 { return false }
            return true
        }
    )
    func greyStaysGrey(mode: Redaction.Mode) throws {
        var redaction = Redaction(image: try screenshot(grey: true))
        redaction.add(.init(x: 10, y: 10, width: 50, height: 50), mode: mode)
        #expect(PNGColorPlan.smallest(for: [try redaction.render()]) == .grey(bitDepth: 8))
    }

    @Test("every mode on palette, grey and RGBA inputs", arguments: modes)
    func everyInputKind(mode: Redaction.Mode) throws {
        var palette = try Image(width: 60, height: 40, fill: .white)
        for y in 10..<20 {
            for x in 5..<50 {
                for (k, byte) in [200, 30, 30, 255].enumerated() { palette[byte: (y * 60 + x) * 4 + k] = UInt8(byte) }
            }
        }
        var rgba = try screenshot(width: 60, height: 40)
        for i in stride(from: 3, to: rgba.pixels.count, by: 8) {
            rgba[byte: i] = 128
            for c in 1...3 { rgba[byte: i - c] = min(rgba.pixels[i - c], 128) }
        }
        for input in [palette, try screenshot(width: 60, height: 40, grey: true), rgba] {
            let bytes = try PNGEncoder().encode(input)
            var redaction = Redaction(image: try PNGDecoder.decode(bytes))
            redaction.add(.init(x: 8, y: 8, width: 30, height: 20), mode: mode)
            let out = try redaction.render()
            #expect(try PNGDecoder.decode(try PNGEncoder().encode(out)) == out)
            #expect(out[0, 0] == input[0, 0] && out[59, 39] == input[59, 39])
        }
    }
}
