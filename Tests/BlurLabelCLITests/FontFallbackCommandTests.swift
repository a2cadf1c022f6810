import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelCLI

/// Runs the built tool as a child with extra environment variables; returns status and stderr.
private func runTool(
    _ arguments: [String],
    environment: [String: String],
    in folder: String? = nil
) throws -> (status: Int32, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try BuiltExecutable.path())
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A BDF bitmap font with one glyph, 价 (fontconfig lists it; blurlabel cannot scale it).
private let bitmapFont = """
    STARTFONT 2.1
    FONT -misc-brokentest-medium-r-normal--16-160-75-75-c-160-iso10646-1
    SIZE 16 75 75
    FONTBOUNDINGBOX 16 16 0 -2
    STARTPROPERTIES 4
    FAMILY_NAME "BrokenTest"
    CHARSET_REGISTRY "ISO10646"
    CHARSET_ENCODING "1"
    DEFAULT_CHAR 20215
    ENDPROPERTIES
    CHARS 1
    STARTCHAR uni4EF7
    ENCODING 20215
    SWIDTH 1000 0
    DWIDTH 16 0
    BBX 16 16 0 -2
    BITMAP
    \(String(repeating: "FFFF\n", count: 16))ENDCHAR
    ENDFONT

    """

@Suite("Font fallback on the command line")
struct FontFallbackCommandTests {
    @Test func noSystemFontsGivesTheBoxAndOneWarning() throws {
        let folder = try temporaryFolder()
        let off = run(["render", "价 56", "--no-system-fonts", "--radius", "0", "-o", folder + "/off.png"])
        #expect(off.status == 0)
        #expect(off.err == "blurlabel render: warning: no font has U+4EF7 '价'; drawn as the font's missing-glyph box\n")
        try #require(
            FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
            "run scripts/ensure-deps (fonts-droid-fallback)"
        )
        let on = run(["render", "价 56", "--radius", "0", "-o", folder + "/on.png"])
        #expect(on.status == 0 && on.err.isEmpty)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: folder + "/on.png"))
                != Data(contentsOf: URL(fileURLWithPath: folder + "/off.png"))
        )
    }

    @Test func manifestFlagsMustBeBooleans() throws {
        let line = try ManifestLine(bytes: Array(#"{"text":"价","output":"a.png","no-system-fonts":true}"#.utf8))
        #expect(try line.style().typography.systemFallback == .off)
        #expect(throws: LineError.self) {
            try ManifestLine(bytes: Array(#"{"text":"价","output":"a.png","no-system-fonts":"yes"}"#.utf8)).style()
        }
        #expect(throws: LineError.self) {
            try ManifestLine(bytes: Array(#"{"text":"5","output":"a.png","canvas":"100x40","fit":1}"#.utf8)).style()
        }
        let fitted = try ManifestLine(
            bytes: Array(#"{"text":"5","output":"a.png","canvas":"100x40","fit":true,"padding":2}"#.utf8)
        ).style()
        #expect(fitted.typography.size > 6 && fitted.padding == 2)
    }

    @Test(
        "fit errors: one line, exit 2",
        arguments: [
            (["--canvas", "20x10", "--fit"], "does not fit a 20x10 canvas even at the minimum size of 6.0 px"),
            (["--fit"], "--fit needs --canvas WxH"),
            (["--min-size", "8"], "--min-size only applies with --fit"),
            (["--canvas", "200x60", "--fit", "--size", "10", "--min-size", "12"], "--min-size 12 is above --size 10"),
            (["--padding", "-1"], "--padding must be from 0 to 4096"),
        ]
    )
    func fitErrors(extra: [String], message: String) throws {
        let folder = try temporaryFolder()
        let result = run(["render", "56.00 €", "-o", folder + "/x.png"] + extra)
        #expect(result.status == 2)
        #expect(
            result.err.hasPrefix("blurlabel render: ") && result.err.contains(message)
                && result.err.split(separator: "\n").count == 1,
            "\(result.err)"
        )
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.png"))
    }

    @Test func fitGivesTheCanvasSizeAndAtMostTheGivenSize() throws {
        let folder = try temporaryFolder()
        #expect(run(["render", "56.00 €", "--canvas", "200x60", "--fit", "-o", folder + "/a.png"]).status == 0)
        let image = try PNGDecoder.decode(contentsOf: folder + "/a.png")
        #expect(image.width == 200 && image.height == 60)
        // --size caps the search: a small cap gives the same picture as that size on the canvas.
        #expect(
            run(["render", "56.00 €", "--canvas", "200x60", "--fit", "--size", "12", "-o", folder + "/b.png"]).status
                == 0
        )
        #expect(run(["render", "56.00 €", "--canvas", "200x60", "--size", "12", "-o", folder + "/c.png"]).status == 0)
        #expect(
            try PNGDecoder.decode(contentsOf: folder + "/b.png") == PNGDecoder.decode(contentsOf: folder + "/c.png")
        )
    }

    /// fontconfig starts only when a character is missing from the chain (start-up
    /// stays small): with a configuration file that does not exist, fontconfig complains on
    /// stderr when it starts, and a label the embedded fonts cover never makes it start.
    /// `--font FILE#INDEX` names a face of a file in the current folder too (without a slash it
    /// was taken for a family name and sent to fontconfig).
    @Test func faceIndexOfAFileInTheCurrentFolder() throws {
        let folder = try temporaryFolder()
        let fonts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fonts")
        try FileManager.default.copyItem(
            atPath: fonts.appendingPathComponent("DejaVuSans.ttf").path,
            toPath: folder + "/d.ttf"
        )
        #expect(
            try runTool(["render", "hi", "--font", "d.ttf#0", "-o", "a.png"], environment: [:], in: folder).status == 0
        )
        let missing = try runTool(["render", "hi", "--font", "d.ttf#3", "-o", "b.png"], environment: [:], in: folder)
        #expect(missing.status == 2 && missing.err.contains("has no face number 3"), "\(missing.err)")
    }

    @Test func fontconfigStartsOnlyWhenNeeded() throws {
        let folder = try temporaryFolder()
        let environment = ["FONTCONFIG_FILE": folder + "/missing.conf"]
        let covered = try runTool(["render", "56.00 € שלום", "-o", folder + "/a.png"], environment: environment)
        #expect(covered.status == 0 && covered.err.isEmpty, "\(covered.err)")
        let needsFallback = try runTool(["render", "56.00 价", "-o", folder + "/b.png"], environment: environment)
        #expect(needsFallback.status == 0 && needsFallback.err.contains("Fontconfig"), "\(needsFallback.err)")
    }

    /// The library itself is opened only then too (the executable does not link it): glibc's
    /// loader, asked with LD_DEBUG=files, names every library it loads.
    @Test func fontconfigLibraryLoadsOnlyWhenNeeded() throws {
        let folder = try temporaryFolder()
        let environment = ["LD_DEBUG": "files"]
        let covered = try runTool(["render", "56.00 €", "-o", folder + "/a.png"], environment: environment)
        #expect(covered.status == 0 && covered.err.contains("libharfbuzz.so.0"), "the loader's report is missing")
        #expect(!covered.err.contains("libfontconfig"), "\(covered.err)")
        let family = try runTool(
            ["render", "56.00 €", "--font", "DejaVu Sans", "-o", folder + "/b.png"],
            environment: environment
        )
        #expect(family.err.contains("file=libfontconfig.so.1"), "\(family.err)")  // found or not: it asked
        let fallback = try runTool(["render", "56.00 价", "-o", folder + "/c.png"], environment: environment)
        #expect(fallback.status == 0 && fallback.err.contains("file=libfontconfig.so.1"), "\(fallback.err)")
    }

    /// A machine where fontconfig cannot be loaded (here: a broken `libfontconfig.so.1` found
    /// first on the library path): `--font FAMILY` fails with the loader's reason, a character no
    /// embedded font has is the box with a warning that says why no system font was asked, and
    /// labels the embedded fonts cover are made as always.
    @Test func withoutFontconfigTheRestWorks() throws {
        let folder = try temporaryFolder()
        try "not a library".write(toFile: folder + "/libfontconfig.so.1", atomically: false, encoding: .utf8)
        let path = [folder, ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"]].compactMap { $0 }.joined(
            separator: ":"
        )
        let environment = ["LD_LIBRARY_PATH": path]
        let family = try runTool(
            ["render", "x", "--font", "DejaVu Sans", "-o", folder + "/a.png"],
            environment: environment
        )
        #expect(
            family.status == 2
                && family.err.contains("cannot look up font family 'DejaVu Sans': fontconfig is not available ("),
            "\(family.err)"
        )
        #expect(family.err.contains(folder + "/libfontconfig.so.1"), "\(family.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.png"))
        let missing = try runTool(["render", "56 价", "-o", folder + "/b.png"], environment: environment)
        #expect(missing.status == 0, "\(missing.err)")
        #expect(
            missing.err.contains("warning: no system fonts to fall back on: fontconfig is not available ("),
            "\(missing.err)"
        )
        #expect(missing.err.contains("no font has U+4EF7"), "\(missing.err)")
        let covered = try runTool(["render", "56.00 €", "-o", folder + "/c.png"], environment: environment)
        #expect(covered.status == 0 && covered.err.isEmpty, "\(covered.err)")
    }

    /// fontconfig lists a font that blurlabel then cannot use: first a bitmap font it cannot scale,
    /// then the same file emptied after fontconfig cached it (listed, but no longer a font). Each
    /// time: one warning naming the file, the box for the character, exit 0, no crash.
    @Test func unusableListedFontIsSkippedWithAWarning() throws {
        let folder = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/fonts", withIntermediateDirectories: true)
        let font = folder + "/fonts/broken.bdf"
        try bitmapFont.write(toFile: font, atomically: false, encoding: .utf8)
        try """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
        <fontconfig><dir>\(folder)/fonts</dir><cachedir>\(folder)/cache</cachedir></fontconfig>
        """.write(toFile: folder + "/fonts.conf", atomically: false, encoding: .utf8)
        let environment = ["FONTCONFIG_FILE": folder + "/fonts.conf"]
        let first = try runTool(["render", "价", "--radius", "0", "-o", folder + "/a.png"], environment: environment)
        #expect(first.status == 0)
        #expect(
            first.err.contains(
                "warning: skipped system font \(font): \(font) is not a usable font: not a scalable (outline) font"
            ),
            "\(first.err)"
        )
        #expect(first.err.contains("no font has U+4EF7"))
        #expect(first.err.split(separator: "\n").count == 2)
        // Emptied in place: the folder's time does not change, so fontconfig keeps listing it.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: font))
        try handle.truncate(atOffset: 0)
        try handle.close()
        let second = try runTool(["render", "价", "--radius", "0", "-o", folder + "/b.png"], environment: environment)
        #expect(second.status == 0)
        #expect(
            second.err.contains("warning: skipped system font \(font): \(font) is not a usable font"),
            "\(second.err)"
        )
        #expect(second.err.contains("no font has U+4EF7"))
        // Asked for by name, the same font is an error, not a warning.
        let named = try runTool(
            ["render", "价", "--font", "BrokenTest", "-o", folder + "/c.png"],
            environment: environment
        )
        #expect(named.status == 2 && named.err.hasPrefix("blurlabel render: --font: "), "\(named.err)")
    }
}
