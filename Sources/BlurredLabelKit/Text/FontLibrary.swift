import CEmbeddedFonts
import CFontconfig
import CHarfBuzz
import Foundation

/// Where fonts come from: the embedded defaults, files, and installed families (fontconfig).
/// Loaded fonts are kept and shared, so a batch loads each font once.
public enum FontLibrary {
    /// The embedded fonts by file name.
    public enum Embedded: String, CaseIterable, Sendable {
        case dejaVuSans = "DejaVuSans.ttf"
        case dejaVuSansBold = "DejaVuSans-Bold.ttf"
        case notoSansArabic = "NotoSansArabic-Regular.ttf"
        case notoSansHebrew = "NotoSansHebrew-Regular.ttf"
        case notoSansDevanagari = "NotoSansDevanagari-Regular.ttf"
        case notoSansThai = "NotoSansThai-Regular.ttf"
    }

    private static let cache = FontCache()

    /// An embedded font, compiled into the binary (found from any working directory).
    public static func embedded(_ which: Embedded) -> Font {
        // The embedded files are part of the build; failing to load one is a build defect.
        try! cache.font(key: "embedded:\(which.rawValue)") {
            try Font(bytes: embeddedBytes(which), name: which.rawValue)
        }!
    }

    /// The file bytes of an embedded font.
    public static func embeddedBytes(_ which: Embedded) -> [UInt8] {
        for index in 0..<bl_embedded_font_count() where String(cString: bl_embedded_font_name(index)) == which.rawValue {
            let font = bl_embedded_font_at(index)
            return [UInt8](UnsafeBufferPointer(start: font.bytes, count: font.count))
        }
        return []
    }

    /// The default font: DejaVu Sans.
    public static var defaultFont: Font { embedded(.dejaVuSans) }

    /// The built-in fallback chain tried after the primary font, in order.
    public static var fallbackChain: [Font] {
        [embedded(.dejaVuSans), embedded(.notoSansArabic), embedded(.notoSansHebrew),
         embedded(.notoSansDevanagari), embedded(.notoSansThai)]
    }

    /// The fonts to set text in: the primary font, then the built-in fallbacks. When the primary
    /// font is the embedded default, the built-in script fonts (Noto Sans Arabic, Hebrew,
    /// Devanagari, Thai) take their scripts even where DejaVu has a few of those glyphs.
    static func chain(primary: Font) -> (fonts: [Font], scriptFonts: [hb_script_t: Int]) {
        let fonts = [primary] + fallbackChain.filter { $0 !== primary }
        guard primary === defaultFont else { return (fonts, [:]) }
        var scriptFonts: [hb_script_t: Int] = [:]
        let byScript: [(hb_script_t, Embedded)] = [(HB_SCRIPT_ARABIC, .notoSansArabic), (HB_SCRIPT_HEBREW, .notoSansHebrew),
                                                    (HB_SCRIPT_DEVANAGARI, .notoSansDevanagari), (HB_SCRIPT_THAI, .notoSansThai)]
        for (script, which) in byScript {
            let font = embedded(which)
            scriptFonts[script] = fonts.firstIndex { $0 === font }
        }
        return (fonts, scriptFonts)
    }

    /// A font file, face `index` of it (for collections).
    public static func file(_ path: String, index: Int = 0) throws -> Font {
        try cache.font(key: "file:\(path)#\(index)") { try Font(path: path, index: index) }!
    }

    /// A font named on the command line: an existing file path, "default", or a family name.
    public static func named(_ spec: String) throws -> Font {
        if spec.isEmpty || spec.lowercased() == "default" { return defaultFont }
        if spec.contains("/") || FileManager.default.fileExists(atPath: spec) {
            var path = spec, index = 0
            if let hash = spec.lastIndex(of: "#"), let i = Int(spec[spec.index(after: hash)...]) {
                path = String(spec[..<hash]); index = i
            }
            return try file(path, index: index)
        }
        return try family(spec)
    }

    /// The best installed match for a family name, through fontconfig.
    public static func family(_ name: String) throws -> Font {
        let match = try cache.path(family: name) {
            guard FcInit() != 0 else { throw FontError.fontconfigUnavailable(name) }
            guard let pattern = FcNameParse(name) else { throw FontError.familyNotFound(name) }
            defer { FcPatternDestroy(pattern) }
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let found = FcFontMatch(nil, pattern, &result) else { throw FontError.familyNotFound(name) }
            defer { FcPatternDestroy(found) }
            var family: UnsafeMutablePointer<FcChar8>?
            var file: UnsafeMutablePointer<FcChar8>?
            var index: Int32 = 0
            guard FcPatternGetString(found, FC_FAMILY, 0, &family) == FcResultMatch,
                  FcPatternGetString(found, FC_FILE, 0, &file) == FcResultMatch, let family, let file else {
                throw FontError.familyNotFound(name)
            }
            _ = FcPatternGetInteger(found, FC_INDEX, 0, &index)
            // fontconfig always answers with something; accept it only if the family matches.
            let requested = name.split(separator: ":").first.map { $0.lowercased() } ?? ""
            guard !requested.isEmpty, String(cString: family).lowercased().hasPrefix(requested) else {
                throw FontError.familyNotFound(name)
            }
            return (String(cString: file), Int(index))
        }
        return try file(match.path, index: match.index)
    }
}

/// Fonts and family look-ups already made, shared between threads.
private final class FontCache: @unchecked Sendable {
    private let lock = NSLock()
    private var fonts: [String: Font] = [:]
    private var families: [String: (path: String, index: Int)] = [:]

    func font(key: String, make: () throws -> Font) rethrows -> Font? {
        lock.lock(); defer { lock.unlock() }
        if let font = fonts[key] { return font }
        let font = try make()
        fonts[key] = font
        return font
    }

    func path(family: String, find: () throws -> (String, Int)) throws -> (path: String, index: Int) {
        lock.lock(); defer { lock.unlock() }
        if let found = families[family] { return found }
        let found = try find()
        families[family] = (found.0, found.1)
        return (found.0, found.1)
    }
}
