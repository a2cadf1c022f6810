import CEmbeddedFonts
import CFreeType
import CHarfBuzz
import Foundation

/// A font face: the file's bytes, a HarfBuzz font for shaping and a FreeType face for outlines.
///
/// Shaping is thread-safe; FreeType is not, so glyph rasterization goes through `withFace`,
/// which serialises access (the glyph cache makes that rare).
public final class Font: @unchecked Sendable {
    /// What the font was loaded from, for messages.
    public let name: String
    /// Design units per em.
    public let unitsPerEm: Int
    /// Ascender and descender (positive down) in design units, from the font's metrics.
    public let ascender: Int
    public let descender: Int
    public let lineGap: Int

    let hbFont: OpaquePointer
    private let bytes: UnsafeMutableRawBufferPointer
    private let library: FT_Library
    private let face: FT_Face
    private let lock = NSLock()
    /// Distinguishes fonts in glyph-cache keys.
    let identity: Int

    private static let counter = Counter()

    /// Loads face `index` of a font file (TTF, OTF, or a TTC collection).
    public convenience init(path: String, index: Int = 0) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FontError.cannotRead(path: path)
        }
        try self.init(bytes: [UInt8](data), index: index, name: path)
    }

    /// Loads a font from its bytes.
    public init(bytes data: [UInt8], index: Int = 0, name: String) throws {
        guard index >= 0 else { throw FontError.badFaceIndex(name: name, index: index) }
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        bytes.copyBytes(from: data)
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            bytes.deallocate()
            throw FontError.notAFont(name: name, reason: "FreeType could not start")
        }
        var face: FT_Face?
        let error = FT_New_Memory_Face(library, bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self),
                                       FT_Long(data.count), FT_Long(index), &face)
        guard error == 0, let face else {
            FT_Done_FreeType(library)
            bytes.deallocate()
            throw error == 0x06 /* FT_Err_Invalid_Argument */ || error == 0x10
                ? FontError.badFaceIndex(name: name, index: index)
                : FontError.notAFont(name: name, reason: FreeTypeErrorText.describe(error))
        }
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            FT_Done_Face(face); FT_Done_FreeType(library); bytes.deallocate()
            throw FontError.notAFont(name: name, reason: "not a scalable (outline) font")
        }
        self.library = library
        self.face = face
        self.name = name
        unitsPerEm = Int(face.pointee.units_per_EM)
        ascender = Int(face.pointee.ascender)
        descender = -Int(face.pointee.descender)
        lineGap = max(0, Int(face.pointee.height) - ascender - descender)
        let blob = hb_blob_create(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(data.count),
                                  HB_MEMORY_MODE_READONLY, nil, nil)
        let hbFace = hb_face_create(blob, UInt32(index))
        hbFont = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        hb_blob_destroy(blob)
        hb_font_set_scale(hbFont, Int32(unitsPerEm), Int32(unitsPerEm))
        hb_font_make_immutable(hbFont)
        identity = Self.counter.next()
    }

    deinit {
        hb_font_destroy(hbFont)
        FT_Done_Face(face)
        FT_Done_FreeType(library)
        bytes.deallocate()
    }

    /// The glyph for a code point, or nil when this font lacks it.
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar.value, &glyph) != 0 ? glyph : nil
    }

    /// Runs `body` with exclusive use of the FreeType face.
    func withFace<T>(_ body: (FT_Face) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(face)
    }
}

/// Why a font could not be had.
public enum FontError: Error, Equatable, CustomStringConvertible {
    case cannotRead(path: String)
    case notAFont(name: String, reason: String)
    case badFaceIndex(name: String, index: Int)
    case familyNotFound(String)
    case fontconfigUnavailable(String)

    public var description: String {
        switch self {
        case let .cannotRead(path): return "cannot read font file \(path) (missing or unreadable)"
        case let .notAFont(name, reason): return "\(name) is not a usable font: \(reason)"
        case let .badFaceIndex(name, index): return "\(name) has no face number \(index)"
        case let .familyNotFound(family): return "no installed font family matches '\(family)' (fontconfig); give a font file path instead"
        case let .fontconfigUnavailable(family): return "cannot look up font family '\(family)': fontconfig is not available"
        }
    }
}

/// A thread-safe increasing counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}
