import BlurLabelSystem
import CFontconfig

/// Whether text falls back to the system's installed fonts after the chosen font and the
/// embedded ones.
public enum SystemFontFallback: String, Sendable, CaseIterable {
    /// Ask fontconfig for an installed font that has a character no font in the chain has
    /// (the default: a label should show what it says).
    case fontconfig
    /// Only the chosen font and the embedded ones: the same bytes on every machine, whatever is
    /// installed (golden images use this).
    case off
}

/// The installed fonts as fontconfig ranks them for `sans-serif`, read once per process and only
/// when some character is missing from the chain (a label that needs no fallback never starts
/// fontconfig). A character's answer is the first font in that ranking whose character set has it
/// and which opens: a function of the character alone, so the order in which labels of a batch
/// are made never changes which font draws what.
enum SystemFonts {
    /// A font fontconfig listed.
    struct Candidate: @unchecked Sendable {
        // @unchecked: the character set is a private copy, only read (FcCharSetHasChar) after init.
        let file: String
        let index: Int
        let charset: OpaquePointer
        /// fontconfig says its glyphs are in colour (CBDT, COLR, sbix, SVG).
        let colour: Bool
    }

    /// The answer for one character: the font, or nil; and the listed fonts skipped on the way
    /// because they could not be opened (with the reason, one line each), or why no installed
    /// font could be asked at all.
    struct Answer: Sendable {
        let font: Font?
        let skipped: [String]
    }

    /// The ranked candidates, made once (Swift runs a global's initializer once, safely).
    private static let ranked: [Candidate] = rank()

    /// Listed fonts that could not be opened, with the reason, by `file#index`: tried once a
    /// process. (Fonts that open are kept by `FontLibrary.file`'s own cache.)
    private static let unusable = LockedValue([String: FontError]())

    /// The first ranked font that has `scalar` (with `colour`, the first colour font, or nil when
    /// no colour font has it), skipping those that cannot be opened.
    static func font(for scalar: Unicode.Scalar, colour: Bool = false) -> Answer {
        let fc: Fontconfig
        switch Fontconfig.shared {
        case let .success(library): fc = library
        case let .failure(failure):
            return Answer(
                font: nil,
                skipped: ["no system fonts to fall back on: fontconfig is not available (\(failure))"]
            )
        }
        var skipped: [String] = []
        for candidate in ranked
        where (!colour || candidate.colour) && fc.charSetHasChar(candidate.charset, scalar.value) != 0 {
            switch open(candidate) {
            case let .success(font):
                // fontconfig's charset is a claim; the font's own cmap decides.
                if font.glyph(for: scalar) != nil { return Answer(font: font, skipped: skipped) }
            case let .failure(error):
                skipped.append("skipped system font \(candidate.file): \(error)")
            }
        }
        return Answer(font: nil, skipped: skipped)
    }

    private static func open(_ candidate: Candidate) -> Result<Font, FontError> {
        let key = "\(candidate.file)#\(candidate.index)"
        if let known = unusable.withLock({ $0[key] }) { return .failure(known) }
        let reason: FontError
        do { return .success(try FontLibrary.file(candidate.file, index: candidate.index)) } catch let error
            as FontError
        {
            reason = error
        } catch {
            reason = .notAFont(name: candidate.file, reason: "\(error)")
        }
        unusable.withLock { $0[key] = reason }
        return .failure(reason)
    }

    /// Every installed font, best first for `sans-serif` in the configured order (fontconfig's
    /// `FcFontSort`, not trimmed), with its character set.
    private static func rank() -> [Candidate] {
        guard case let .success(fc) = Fontconfig.shared, let pattern = fc.nameParse("sans-serif") else { return [] }
        defer { fc.patternDestroy(pattern) }
        _ = fc.configSubstitute(nil, pattern, FcMatchPattern)
        fc.defaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = fc.fontSort(nil, pattern, 0, nil, &result) else { return [] }
        defer { fc.fontSetDestroy(set) }
        var candidates: [Candidate] = []
        var seen = Set<String>()
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            var charset: OpaquePointer?
            var index: Int32 = 0
            var colour: FcBool = 0
            guard fc.patternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file,
                fc.patternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset,
                let copy = fc.charSetCopy(charset)
            else { continue }
            _ = fc.patternGetInteger(font, FC_INDEX, 0, &index)
            _ = fc.patternGetBool(font, FC_COLOR, 0, &colour)
            // A variable font's named instances (index above 0xFFFF) repeat its default face.
            guard index >= 0, index <= 0xFFFF else {
                fc.charSetDestroy(copy)
                continue
            }
            let path = String(cString: file)
            guard seen.insert("\(path)#\(index)").inserted else {
                fc.charSetDestroy(copy)
                continue
            }
            candidates.append(Candidate(file: path, index: Int(index), charset: copy, colour: colour != 0))
        }
        return candidates
    }
}
