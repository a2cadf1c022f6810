import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

@Suite("Colour parsing")
struct ColorTests {
    @Test(
        "forms that parse",
        arguments: [
            ("#fff", Color(red: 255, green: 255, blue: 255)),
            ("#F0a", Color(red: 255, green: 0, blue: 170)),
            ("#1234", Color(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x44)),
            ("#102030", Color(red: 16, green: 32, blue: 48)),
            ("#10203080", Color(red: 16, green: 32, blue: 48, alpha: 128)),
            ("rebeccapurple", Color(red: 0x66, green: 0x33, blue: 0x99)),
            ("White", Color.white),
            ("transparent", Color.transparent),
            (" navy ", Color(red: 0, green: 0, blue: 128)),
        ]
    )
    func parses(text: String, expected: Color) throws {
        #expect(try Color(parsing: text) == expected)
    }

    @Test(
        "forms that do not",
        arguments: ["", "#", "#12", "#12345", "#1234567", "#gggggg", "blurple", "rgb(1,2,3)", "123456"]
    )
    func rejects(text: String) {
        #expect(throws: ColorError.self) { try Color(parsing: text) }
    }

    @Test func errorsSayWhatIsAccepted() {
        do {
            _ = try Color(parsing: "blurple")
            Issue.record("parsed")
        } catch {
            #expect("\(error)".contains("blurple") && "\(error)".contains("#RRGGBB"))
        }
    }

    @Test func allCSSNamesAreThere() { #expect(cssColorNames.count == 148) }

    @Test func premultiplicationRoundsToNearest() {
        #expect(Color(red: 255, green: 128, blue: 1, alpha: 128).premultiplied == (128, 64, 1, 128))
        #expect(Color(red: 200, green: 0, blue: 0, alpha: 0).premultiplied == (0, 0, 0, 0))
        for v in 0...255 {
            for a in [1, 2, 127, 128, 254] {
                let exact = (Double(v) * Double(a) / 255).rounded()
                #expect(Int(premultiply(UInt8(v), UInt8(a))) == Int(exact))
            }
        }
    }
}
