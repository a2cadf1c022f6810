import Foundation
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

@Suite("FreeType faces: the metrics face is reused once")
struct FontFaceReuseTests {
    /// The package's DejaVu Sans file, read as `ErrorTextTests` reads it.
    static var dejaVu: [UInt8] { get throws { try ErrorTextTests.dejaVu } }

    @Test("an embedded font hands its metrics face to the first thread that draws, once")
    func embeddedFontKeepsOneSpare() throws {
        let font = try Font(bytes: try Self.dejaVu, index: 0, name: "DejaVuSans.ttf", embedded: .dejaVuSans)
        let spare = try #require(font.takeSpareFace())
        #expect(Int(spare.face.pointee.units_per_EM) == font.unitsPerEm)
        #expect(font.takeSpareFace() == nil)
        spare.close()
    }

    @Test("a font from a file keeps none (a process may load many fallbacks)")
    func fileFontKeepsNone() throws {
        let font = try Font(bytes: try Self.dejaVu, name: "DejaVuSans.ttf")
        #expect(font.takeSpareFace() == nil)
    }

    @Test("glyphs drawn on several threads, spare face or not, are the same")
    func sameGlyphsOnEveryThread() throws {
        let font = try Font(bytes: try Self.dejaVu, index: 0, name: "DejaVuSans.ttf", embedded: .dejaVuSans)
        let style = LabelStyle(typography: TextStyle(font: font))
        let pictures = parallelMap(4, threads: 4) { _ in
            (try? LabelPipeline(style: style).picture(of: "56.00 €").image.pixels) ?? []
        }
        #expect(!pictures[0].isEmpty && pictures.allSatisfy { $0 == pictures[0] })
    }
}
