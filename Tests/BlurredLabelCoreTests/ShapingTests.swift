import Foundation
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

/// One line of the shaping corpus with what hb-shape produced for it.
struct ShapingCase: CustomStringConvertible, Sendable {
    let id, font, direction, script, language, text, before, after: String
    let features: [String]
    let expected: [[Int]]  // g, cl, dx, dy, ax, ay
    var description: String { id }

    static func load() -> [ShapingCase] {
        let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("shaping")
        guard let corpus = try? String(contentsOf: folder.appendingPathComponent("corpus.tsv"), encoding: .utf8),
            let expected = try? String(contentsOf: folder.appendingPathComponent("expected.jsonl"), encoding: .utf8)
        else { return [] }
        var glyphs: [String: [[Int]]] = [:]
        for line in expected.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let id = object["id"] as? String, let list = object["glyphs"] as? [[String: Int]]
            else { continue }
            glyphs[id] = list.map { [$0["g"]!, $0["cl"]!, $0["dx"]!, $0["dy"]!, $0["ax"]!, $0["ay"]!] }
        }
        return corpus.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            var f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            while f.count < 9 { f.append("") }
            let text = unescape(f[6])
            return ShapingCase(
                id: f[0],
                font: f[1],
                direction: f[2],
                script: f[3],
                language: f[4],
                text: text,
                before: f[7],
                after: f[8],
                features: f[5].split(separator: ",").map(String.init),
                expected: glyphs[f[0]] ?? []
            )
        }
    }

    static func unescape(_ s: String) -> String {
        var out = ""
        var rest = Substring(s)
        while let range = rest.range(of: "\\u") {
            out += rest[..<range.lowerBound]
            let hex = rest[range.upperBound...].prefix(4)
            out.unicodeScalars.append(Unicode.Scalar(UInt32(hex, radix: 16)!)!)
            rest = rest[rest.index(range.upperBound, offsetBy: 4)...]
        }
        return out + rest
    }
}

@Suite("Shaping matches hb-shape")
struct ShapingTests {
    static let cases = ShapingCase.load()

    @Test func corpusIsBigEnough() {
        #expect(Self.cases.count >= 30)
        #expect(Self.cases.allSatisfy { !$0.expected.isEmpty })
    }

    @Test("glyph ids, clusters and positions", arguments: cases)
    func matchesHBShape(_ c: ShapingCase) throws {
        let font = FontLibrary.embedded(try #require(FontLibrary.Embedded(rawValue: c.font)))
        let ours = try Shaper.shapeInDesignUnits(
            c.text,
            before: c.before,
            after: c.after,
            font: font,
            direction: c.direction == "rtl" ? .rtl : .ltr,
            script: c.script,
            language: c.language,
            features: c.features
        )
        #expect(ours.map { [Int($0.glyph), $0.cluster, $0.dx, $0.dy, $0.ax, $0.ay] } == c.expected, "\(c.id)")
        #expect(!ours.contains { $0.glyph == 0 }, "\(c.id) has .notdef")
    }
}

@Suite("Itemization and bidi")
struct ItemizationTests {
    func runs(_ text: String, _ direction: TextDirection = .auto) -> [(String, UInt8, String)] {
        let scalars = text.unicodeScalars.map(\.value)
        let chain = FontLibrary.chain(primary: FontLibrary.defaultFont)
        let paragraph = Itemizer.itemize(
            scalars,
            direction: direction,
            fonts: chain.fonts,
            scriptFonts: chain.scriptFonts
        )
        return paragraph.runs.map { run in
            (String(String.UnicodeScalarView(scalars[run.range].map { Unicode.Scalar($0)! })), run.level, run.font.name)
        }
    }

    @Test func hebrewInsideEnglish() {
        let r = runs("Total: שלום עולם 56.00")
        // The space before the number sits between R and EN, so it joins the Hebrew (rule N1);
        // the number after Hebrew in an LTR paragraph gets level 2 (rule I1).
        #expect(r.map(\.0) == ["Total: ", "שלום עולם ", "56.00"])
        #expect(r.map(\.1) == [0, 1, 2])
        #expect(r[1].2 == "NotoSansHebrew-Regular.ttf")
        #expect(r.first?.0 == "Total: " && r.first?.1 == 0)
    }

    @Test func englishInsideArabicIsAnLTRRunAtLevelTwo() {
        let r = runs("السعر iPhone جديد")
        #expect(r.contains { $0.0 == "iPhone" && $0.1 == 2 && $0.2 == "DejaVuSans.ttf" })
        #expect(r.first?.2 == "NotoSansArabic-Regular.ttf" && r.first?.1 == 1)
    }

    @Test func arabicInsideEnglish() {
        let r = runs("Say مرحبا to all")
        #expect(r.contains { $0.0 == "مرحبا" && $0.1 == 1 && $0.2 == "NotoSansArabic-Regular.ttf" })
    }

    @Test func paragraphDirection() {
        #expect(Itemizer.bidiLevels([0x5D0, 0x20, 0x41], direction: .auto).1 == true)
        #expect(Itemizer.bidiLevels([0x41, 0x20, 0x5D0], direction: .auto).1 == false)
        #expect(Itemizer.bidiLevels([0x41], direction: .rtl).1 == true)
        #expect(Itemizer.bidiLevels([0x31, 0x32], direction: .auto).1 == false)  // no strong character: LTR
    }

    @Test func scriptsAndFontsSplitRuns() {
        let r = runs("ราคา 56 बाट")
        #expect(r.map(\.2) == ["NotoSansThai-Regular.ttf", "NotoSansDevanagari-Regular.ttf"] || r.count >= 2)
        #expect(r.first?.0.hasPrefix("ราคา") == true)
    }

    @Test func visualOrderReversesRightToLeftRuns() {
        let font = FontLibrary.defaultFont
        let runs = [
            TextRun(range: 0..<1, level: 0, script: .init(0), font: font),
            TextRun(range: 1..<2, level: 1, script: .init(0), font: font),
            TextRun(range: 2..<3, level: 2, script: .init(0), font: font),
            TextRun(range: 3..<4, level: 1, script: .init(0), font: font),
            TextRun(range: 4..<5, level: 0, script: .init(0), font: font),
        ]
        #expect(Itemizer.visualOrder(runs) == [0, 3, 2, 1, 4])
    }
}

@Suite("Text rendering")
struct TextRenderingTests {
    @Test func missingCharactersAreReported() throws {
        // Without the system's fonts (which may well have it): only the embedded ones.
        let rendered = try TextRenderer.render("a漢b", style: TextStyle(systemFallback: .off))
        #expect(rendered.missingCharacters == ["漢"])
    }

    @Test func emptyTextIsAnEmptyMask() throws {
        let rendered = try TextRenderer.render("", style: TextStyle())
        #expect(rendered.mask.width == 0 && rendered.lineCount == 1)
    }

    @Test("bad sizes are refused", arguments: [0, -1, 2001, Double.nan, .infinity])
    func badSize(size: Double) {
        #expect(throws: TextError.self) {
            try TextRenderer.render("x", style: TextStyle(size: size))
        }
    }

    @Test func inkBoundsIncludeAccentsAndDescenders() throws {
        let plain = try TextRenderer.render("ace", style: TextStyle())
        let marked = try TextRenderer.render("Ấgý", style: TextStyle())
        #expect(marked.inkOriginY < 0 || marked.mask.height > plain.mask.height)
        #expect(marked.mask.height > Int(TextStyle().size))  // accent above the ascender and a descender
    }

    @Test func fractionalPenPositionsAreHonoured() throws {
        // The same glyph at two sub-pixel offsets rasterizes differently.
        let font = FontLibrary.defaultFont
        let glyph = try #require(font.glyph(for: "l"))
        let a = GlyphRasterizer.bitmap(font: font, glyph: glyph, size: 20, subX: 0, subY: 0, outline: 0)
        let b = GlyphRasterizer.bitmap(font: font, glyph: glyph, size: 20, subX: 32, subY: 0, outline: 0)
        #expect(a.coverage != b.coverage)
    }

    @Test func wrappingAtMaximumWidth() throws {
        var style = TextStyle()
        style.maxWidth = 120
        let rendered = try TextRenderer.render("one two three four five", style: style)
        #expect(rendered.lineCount >= 3)
        #expect(rendered.layoutWidth <= 120 + 1)
        #expect(try TextRenderer.render("one\ntwo", style: TextStyle()).lineCount == 2)
    }

    @Test func outlineWidensTheInk() throws {
        var style = TextStyle()
        let plain = try TextRenderer.render("O", style: style)
        style.outlineWidth = 3
        let outlined = try TextRenderer.render("O", style: style)
        #expect(outlined.mask.width >= plain.mask.width + 5)
    }

    @Test func invalidUTF8NamesTheOffset() throws {
        #expect(throws: TextError.invalidUTF8(offset: 2)) { try decodeUTF8([0x61, 0x62, 0xFF]) }
        #expect(throws: TextError.invalidUTF8(offset: 1)) { try decodeUTF8([0x61, 0xC0, 0x80]) }
        #expect(throws: TextError.invalidUTF8(offset: 0)) { try decodeUTF8([0xED, 0xA0, 0x80]) }
        #expect(throws: TextError.invalidUTF8(offset: 1)) { try decodeUTF8([0x61, 0xE2, 0x82]) }
        #expect(try decodeUTF8(Array("56.00 €".utf8)) == "56.00 €")
    }

    @Test func fontsFromFilesAndErrors() throws {
        #expect(throws: FontError.fileNotFound(path: "/no/font.ttf")) { try Font(path: "/no/font.ttf") }
        #expect(throws: FontError.self) { try Font(bytes: Array("not a font".utf8), name: "junk") }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dv-\(UUID().uuidString).ttf").path
        try FileIO.write(FontLibrary.embeddedBytes(.dejaVuSans), to: path)
        #expect(try Font(path: path).unitsPerEm == 2048)
        #expect(throws: FontError.self) { try Font(path: path, index: 3) }
    }
}

@Suite("Sharp rendering against Pillow with Raqm")
struct ReferenceRenderTests {
    static let names = ["price", "latin", "bold", "arabic", "hebrew", "devanagari"]

    /// Pillow hints glyphs (FreeType's default) and we do not, so edges move by a fraction of a
    /// pixel: compared with anti-aliasing tolerance, after aligning the two ink boxes.
    @Test("same ink, aligned, within tolerance", arguments: names)
    func matchesPillow(name: String) throws {
        let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("reference")
        let lines = try String(contentsOf: folder.appendingPathComponent(name + ".txt"), encoding: .utf8).split(
            separator: "\n"
        )
        let reference = try PNGDecoder.decode(contentsOf: folder.appendingPathComponent(name + ".png").path)
        var style = LabelStyle(radius: 0)
        style.typography.size = 48
        style.typography.font = FontLibrary.embedded(try #require(FontLibrary.Embedded(rawValue: String(lines[0]))))
        let ours = try BlurredLabel(text: String(lines[1]), style: style).image
        #expect(
            abs(ours.width - reference.width) <= 2 && abs(ours.height - reference.height) <= 2,
            "\(name): ink \(ours.width)x\(ours.height) vs \(reference.width)x\(reference.height)"
        )
        // Align the two ink boxes: try every shift of up to two pixels, keep the best.
        let width = max(ours.width, reference.width) + 4
        let height = max(ours.height, reference.height) + 4
        func placed(_ image: Image, dx: Int, dy: Int) throws -> Image {
            var out = try Image(width: width, height: height, fill: .white)
            for y in 0..<image.height {
                let src = y * image.width * 4
                let dst = ((y + dy) * width + dx) * 4
                for k in 0..<(image.width * 4) { out[byte: dst + k] = image.pixels[src + k] }
            }
            return out
        }
        let comparison = ImageComparison(threshold: 0.25, maxDiffRatio: 0.01)
        let expected = try placed(reference, dx: 2, dy: 2)
        var best: ImageComparison.Result? = nil
        for dy in 0...4 {
            for dx in 0...4 {
                let result = try comparison.compare(expected: expected, actual: try placed(ours, dx: dx, dy: dy))
                if best == nil || result.differentPixels < best!.differentPixels { best = result }
            }
        }
        let result = try #require(best)
        let passes = result.passes
        #expect(passes, "\(name): \(result.summary)")
    }
}

@Suite("Font sources")
struct FontSourceTests {
    static var collection: String {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("HebrewThai.ttc").path
    }

    @Test func collectionFacesByIndex() throws {
        let hebrew = try Font(path: Self.collection, index: 0)
        let thai = try Font(path: Self.collection, index: 1)
        #expect(hebrew.glyph(for: "ש") != nil && hebrew.glyph(for: "ร") == nil)
        #expect(thai.glyph(for: "ร") != nil && thai.glyph(for: "ש") == nil)
        #expect(throws: FontError.self) { try Font(path: Self.collection, index: 2) }
        #expect(try FontLibrary.named(Self.collection + "#1").glyph(for: "ร") != nil)
    }

    @Test func unknownFamiliesAreAClearError() {
        #expect(throws: FontError.familyNotFound("Zzyzx Nonexistent Sans")) {
            try FontLibrary.family("Zzyzx Nonexistent Sans")
        }
    }

    /// A name that ends as font files do is a file: missing, it says so, not "no family matches".
    @Test func aMissingFontFileSaysTheFileIsMissing() {
        for name in ["Missing.ttf", "Missing.OTF", "fonts.ttc#2"] {
            let path = name.hasSuffix("#2") ? "fonts.ttc" : name
            #expect(throws: FontError.fileNotFound(path: path)) { try FontLibrary.named(name) }
        }
        #expect("\(FontError.fileNotFound(path: "Missing.ttf"))" == "cannot read font file Missing.ttf: no such file")
    }

    @Test func aFontSaysItsPathAndFamily() throws {
        let embedded = FontLibrary.defaultFont
        #expect(embedded.path == nil && embedded.familyName == "DejaVu Sans")
        let file = try FontLibrary.file(Self.collection, index: 1)
        #expect(file.path == Self.collection && !file.familyName.isEmpty)
    }

    /// Needs an installed DejaVu Sans (Debian's fonts-dejavu-core) for fontconfig to find.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")))
    func installedFamilyThroughFontconfig() throws {
        let font = try FontLibrary.family("DejaVu Sans")
        #expect(font.glyph(for: "€") != nil && font.unitsPerEm == 2048)
    }

    @Test func theDefaultFontIsEmbedded() {
        // Found without any file on disk: the bytes are linked into the binary.
        #expect(FontLibrary.embeddedBytes(.dejaVuSans).count > 700_000)
        #expect(FontLibrary.Embedded.allCases.allSatisfy { !FontLibrary.embeddedBytes($0).isEmpty })
        #expect(FontLibrary.defaultFont.name == "DejaVuSans.ttf")
    }
}
