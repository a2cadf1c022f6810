import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

/// `LabelPipeline.png(of:encoder:)`, which batch and serve write: always the bytes of
/// `encode(picture(of:).image)`, whether the grey rows are composited straight from the mask
/// (opaque grey on opaque grey, no fixed canvas) or the picture is made and encoded.
@Suite("A label's PNG, straight from the mask or through the picture")
struct LabelPNGTests {
    static func style(_ configure: (inout LabelStyle) throws -> Void) rethrows -> LabelStyle {
        var style = LabelStyle()
        style.typography.systemFallback = .off
        try configure(&style)
        return style
    }

    /// Name, text, the way it must take (true: grey rows, false: the picture, nil: either), style.
    static let cases: [(String, String, Bool?, LabelStyle)] = {
        let secure = try! SecretFormat("##.## €")
        return [
            ("black on white", "56.00 €", true, style { _ in }),
            (
                "grey on grey, σ 6", "9.99", true,
                style {
                    $0.color = try! Color(parsing: "#505050")
                    $0.background = try! Color(parsing: "#e6e6e6")
                    $0.radius = 6
                }
            ),
            (
                "white on black, large", "1234.56 € SALE", true,
                style {
                    $0.color = .white
                    $0.background = .black
                    $0.typography.size = 72
                }
            ),
            (
                "secure", "56.00 €", true,
                style {
                    $0.secure = SecureOptions(format: secure, seed: .seed(7))
                    $0.radius = .legibilityFloor(forSize: 32)
                }
            ),
            (
                "sharp (a few grey levels fall back)", "I", nil,
                style {
                    $0.radius = 0
                    $0.typography.size = 8
                }
            ),
            ("coloured", "56.00 €", false, style { $0.color = try! Color(parsing: "#c0392b") }),
            ("transparent background", "56.00 €", false, style { $0.background = .transparent }),
            ("fixed canvas", "56.00 €", false, style { $0.canvas = try! CanvasSize(width: 60, height: 30) }),
            ("colour glyphs where a colour font is installed", "😀 9.99", nil, style { _ in }),
            ("empty", "", false, style { _ in }),
        ]
    }()

    @Test("the same bytes as encoding the picture", arguments: cases.indices)
    func sameBytesAsThePicture(index: Int) throws {
        let (_, text, way, style) = Self.cases[index]
        let pipeline = LabelPipeline(style: style)
        for level in [1, 6, 9] {
            let encoder = PNGEncoder(compressionLevel: level)
            let encoded = try pipeline.png(of: text, encoder: encoder)
            let picture = try pipeline.picture(of: text)
            #expect(encoded.bytes == (try encoder.encode(picture.image)))
            #expect(encoded.clipped == picture.clipped)
            #expect(encoded.missingCharacters == picture.missingCharacters)
            if let way { #expect(encoded.viaGreyRows == way) }
        }
    }

    @Test func greyLabelsTakeTheGreyRows() throws {
        // The price tag and the other grey cases must take the short way, or the test above
        // proves nothing about it.
        for (name, text, way, style) in Self.cases where way == true {
            let encoded = try LabelPipeline(style: style).png(of: text, encoder: PNGEncoder())
            #expect(encoded.viaGreyRows, "\(name)")
        }
        // A level that cannot take it (stored) goes the long way, with the same bytes.
        let stored = PNGEncoder(compressionLevel: 0)
        let encoded = try LabelPipeline().png(of: "56.00 €", encoder: stored)
        #expect(!encoded.viaGreyRows)
        #expect(encoded.bytes == (try stored.encode(try LabelPipeline().picture(of: "56.00 €").image)))
    }

    @Test func eightBitsWhereverTheOffStepGreyIs() throws {
        // Inversion: coverage c is grey 255 - c, a multiple of 17 exactly where c is.
        let levels = (0..<256).map { UInt8(255 - $0) }
        for spot in [0, 4 * 5 + 2, 6 * 5, 11 * 5 + 4] {  // the first row, an inner one, the middle one, the last
            var values = [UInt8](repeating: 34, count: 5 * 12)
            values[spot] = 35
            #expect(PNGEncoder.needsEightBits(try CoverageMask(width: 5, height: 12, values: values), levels: levels))
        }
        let steps = try CoverageMask(width: 5, height: 12, values: (0..<60).map { UInt8($0 % 16 * 17) })
        #expect(!PNGEncoder.needsEightBits(steps, levels: levels))
        #expect(!PNGEncoder.needsEightBits(try CoverageMask(width: 1, height: 1, values: [255]), levels: levels))
    }

    @Test func greyTableIsTheCompositeTableWhereThatIsGrey() {
        // Every pair of a few greys, colours and alphas: greyTable is nil exactly where some pixel
        // of the table is not opaque grey, and otherwise holds each pixel's grey.
        let values: [UInt8] = [0, 1, 80, 128, 200, 254, 255]
        var colours: [Color] = []
        for v in values {
            for alpha in [0, 1, 128, 255] as [UInt8] {
                colours.append(Color(red: v, green: v, blue: v, alpha: alpha))
                colours.append(Color(red: v, green: 255 &- v, blue: v, alpha: alpha))
            }
        }
        var greyPairs = 0
        for colour in colours {
            for background in colours {
                let table = Composite.table(color: colour, background: background)
                let allGrey = table.allSatisfy { $0 == ($0 & 0xFF) &* 0x01_0101 | 0xFF00_0000 }
                let grey = Composite.greyTable(color: colour, background: background)
                #expect((grey != nil) == allGrey, "\(colour) over \(background)")
                if let grey {
                    greyPairs += 1
                    #expect(grey == table.map { UInt8($0 & 0xFF) }, "\(colour) over \(background)")
                }
            }
        }
        #expect(greyPairs > 50)
        // Black on white takes the inverting loop; other greys the table.
        #expect(PNGEncoder.isInversion(Composite.greyTable(color: .black, background: .white)!))
        #expect(!PNGEncoder.isInversion(Composite.greyTable(color: .white, background: .black)!))
        #expect(
            !PNGEncoder.isInversion(
                Composite.greyTable(color: .black, background: Color(red: 250, green: 250, blue: 250))!
            )
        )
    }
}
