import BlurLabelSystem
import CEmbeddedFonts
import CFontconfig
import CHarfBuzz
import Synchronization

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

    /// An embedded font, compiled into the binary (found from any working directory). Each is
    /// loaded on first use only (a label in Latin script never loads the Thai font), once per
    /// process, and read afterwards without a lock.
    public static func embedded(_ which: Embedded) -> Font {
        switch which {
        case .dejaVuSans: return EmbeddedFonts.dejaVuSans
        case .dejaVuSansBold: return EmbeddedFonts.dejaVuSansBold
        case .notoSansArabic: return EmbeddedFonts.notoSansArabic
        case .notoSansHebrew: return EmbeddedFonts.notoSansHebrew
        case .notoSansDevanagari: return EmbeddedFonts.notoSansDevanagari
        case .notoSansThai: return EmbeddedFonts.notoSansThai
        }
    }

    /// Loads an embedded font. The embedded files are part of the build; failing to load one is a
    /// build defect.
    fileprivate static func load(_ which: Embedded) -> Font {
        try! Font(staticBytes: embeddedBuffer(which), index: 0, name: which.rawValue, embedded: which)
    }

    /// The file bytes of an embedded font (a copy).
    package static func embeddedBytes(_ which: Embedded) -> [UInt8] {
        Array(embeddedBuffer(which))
    }

    /// The file bytes of an embedded font where they lie in the binary (read-only, never freed).
    static func embeddedBuffer(_ which: Embedded) -> UnsafeRawBufferPointer {
        for index in 0..<bl_embedded_font_count() where String(cString: bl_embedded_font_name(index)) == which.rawValue
        {
            let font = bl_embedded_font_at(index)
            return UnsafeRawBufferPointer(start: font.bytes, count: font.count)
        }
        return UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// The default font: DejaVu Sans.
    public static var defaultFont: Font { embedded(.dejaVuSans) }

    /// The built-in fallbacks tried after the primary font, in order.
    package static let fallbackOrder: [Embedded] = [
        .dejaVuSans, .notoSansArabic, .notoSansHebrew, .notoSansDevanagari, .notoSansThai,
    ]

    /// The fonts to set text in: the primary font, then the built-in fallbacks, each loaded only
    /// when a character needs it. When the primary font is the embedded default, the built-in
    /// script fonts (Noto Sans Arabic, Hebrew, Devanagari, Thai) take their scripts even where
    /// DejaVu has a few of those glyphs.
    static func chain(primary: Font) -> (fonts: FontChain, scriptFonts: ScriptFonts) {
        let fonts = FontChain(
            primary: primary,
            fallbacks: fallbackOrder.filter { $0 != primary.embedded }.map { .embedded($0) }
        )
        guard primary.embedded == .dejaVuSans else { return (fonts, ScriptFonts()) }
        var scriptFonts = ScriptFonts()
        let byScript: [(hb_script_t, Embedded)] = [
            (HB_SCRIPT_ARABIC, .notoSansArabic), (HB_SCRIPT_HEBREW, .notoSansHebrew),
            (HB_SCRIPT_DEVANAGARI, .notoSansDevanagari), (HB_SCRIPT_THAI, .notoSansThai),
        ]
        for (script, which) in byScript {
            if let index = fonts.fallbacks.firstIndex(of: .embedded(which)) { scriptFonts.add(script, font: index + 1) }
        }
        return (fonts, scriptFonts)
    }

    /// A font file, face `index` of it (for collections).
    package static func file(_ path: String, index: Int = 0) throws -> Font {
        try cache.font(key: "file:\(path)#\(index)") { try Font(path: path, index: index) }
    }

    /// The endings of font file names: a name ending so (`Missing.ttf`) is a file, never a family.
    static let fileExtensions = [".ttf", ".otf", ".ttc", ".otc", ".pfb", ".pfa", ".woff", ".woff2", ".dfont"]

    /// A font named on the command line: "default", a file path (with a slash, an existing file,
    /// or a name ending as font files do: `.ttf`, `.otf`, `.ttc`…), or else a family name.
    public static func named(_ spec: String) throws -> Font {
        if spec.isEmpty || spec.lowercased() == "default" { return defaultFont }
        // PATH#INDEX: a face of a collection (the file without "#INDEX" must exist when the
        // path has no slash, or "Name#2" would never reach fontconfig as a family).
        var path = spec
        var index = 0
        if let hash = spec.lastIndex(of: "#"), let i = Int(spec[spec.index(after: hash)...]), !Folders.exists(spec) {
            path = String(spec[..<hash])
            index = i
        }
        let lowercased = path.lowercased()
        if path.contains("/") || Folders.exists(path) || fileExtensions.contains(where: { lowercased.hasSuffix($0) }) {
            return try file(path, index: index)
        }
        return try family(spec)
    }

    /// The best installed match for a family name, through fontconfig.
    package static func family(_ name: String) throws -> Font {
        let match = try cache.path(family: name) {
            let fc: Fontconfig
            switch Fontconfig.shared {
            case let .success(library): fc = library
            case let .failure(failure): throw FontError.fontconfigUnavailable(name, reason: failure.description)
            }
            guard let pattern = fc.nameParse(name) else { throw FontError.familyNotFound(name) }
            defer { fc.patternDestroy(pattern) }
            _ = fc.configSubstitute(nil, pattern, FcMatchPattern)
            fc.defaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let found = fc.fontMatch(nil, pattern, &result) else { throw FontError.familyNotFound(name) }
            defer { fc.patternDestroy(found) }
            var family: UnsafeMutablePointer<FcChar8>?
            var file: UnsafeMutablePointer<FcChar8>?
            var index: Int32 = 0
            guard fc.patternGetString(found, FC_FAMILY, 0, &family) == FcResultMatch,
                fc.patternGetString(found, FC_FILE, 0, &file) == FcResultMatch, let family, let file
            else {
                throw FontError.familyNotFound(name)
            }
            _ = fc.patternGetInteger(found, FC_INDEX, 0, &index)
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

/// The embedded fonts, each made on first use (Swift runs a global's initializer once, safely),
/// then read without a lock.
private enum EmbeddedFonts {
    static let dejaVuSans = FontLibrary.load(.dejaVuSans)
    static let dejaVuSansBold = FontLibrary.load(.dejaVuSansBold)
    static let notoSansArabic = FontLibrary.load(.notoSansArabic)
    static let notoSansHebrew = FontLibrary.load(.notoSansHebrew)
    static let notoSansDevanagari = FontLibrary.load(.notoSansDevanagari)
    static let notoSansThai = FontLibrary.load(.notoSansThai)
}

/// A primary font followed by fallbacks that are loaded only when looked at: a collection of
/// fonts for the itemizer, where index 0 is the primary font. A fallback is an embedded font
/// (loaded on first use) or a font already loaded (other sources of fallbacks append those).
struct FontChain: RandomAccessCollection, Sendable {
    enum Member: Sendable, Equatable {
        case embedded(FontLibrary.Embedded)
        case loaded(Font)
    }

    let primary: Font
    var fallbacks: [Member]

    init(primary: Font, fallbacks: [Member]) {
        self.primary = primary
        self.fallbacks = fallbacks
    }

    var startIndex: Int { 0 }
    var endIndex: Int { 1 + fallbacks.count }
    subscript(position: Int) -> Font {
        if position == 0 { return primary }
        switch fallbacks[position - 1] {
        case let .embedded(which): return FontLibrary.embedded(which)
        case let .loaded(font): return font
        }
    }
}

/// Font files and family look-ups already made, shared between threads behind one lock (`LockedValue`)
/// (touched once per label for a named font, never per glyph).
private final class FontCache: Sendable {
    private struct State {
        var fonts: [String: Font] = [:]
        var families: [String: (path: String, index: Int)] = [:]
    }
    private let state = LockedValue(State())

    func font(key: String, make: () throws -> Font) throws -> Font {
        if let font = state.withLock({ $0.fonts[key] }) { return font }
        // Made outside the lock (reading a file can be slow); the first one stored wins.
        let made = try make()
        return state.withLock { state in
            if let font = state.fonts[key] { return font }
            state.fonts[key] = made
            return made
        }
    }

    func path(family: String, find: () throws -> (String, Int)) throws -> (path: String, index: Int) {
        if let found = state.withLock({ $0.families[family] }) { return found }
        // fontconfig's look-up is not thread-safe before FcInit completes: serialize it too.
        return try state.withLock { state in
            if let found = state.families[family] { return found }
            let found = try find()
            state.families[family] = (found.0, found.1)
            return (found.0, found.1)
        }
    }
}
