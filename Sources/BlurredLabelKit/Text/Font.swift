import CEmbeddedFonts
import CFreeType
import CHarfBuzz
import FoundationEssentials
import Synchronization

/// A font face: the file's bytes, a HarfBuzz font for shaping, and the metrics read once.
///
/// A `Font` is immutable after it is made, so one instance is shared by every thread: the bytes
/// are never written, and the HarfBuzz font is made immutable (HarfBuzz's rule for sharing).
/// FreeType faces are not shared at all: FreeType's rule is one `FT_Face` per thread, so each
/// thread opens its own over these bytes in its `GlyphWorkspace`.
public final class Font: @unchecked Sendable {
    // @unchecked: every stored property is a `let` set in init; the raw bytes and the immutable
    // hb_font_t are only read after that, which HarfBuzz and FreeType allow from any thread.

    /// What the font was loaded from, for messages.
    public let name: String
    /// Design units per em.
    public let unitsPerEm: Int
    /// Ascender and descender (positive down) in design units, from the font's metrics.
    public let ascender: Int
    public let descender: Int
    public let lineGap: Int

    let hbFont: OpaquePointer
    /// The file's bytes, which every thread's FreeType face reads: a copy this font owns, or
    /// an embedded font's bytes in the binary itself (never copied, never freed).
    let bytes: UnsafeRawBufferPointer
    private let ownsBytes: Bool
    /// The face's number in a collection.
    let faceIndex: Int
    /// Which embedded font this is, if it is one (decides the built-in script fallbacks).
    let embedded: FontLibrary.Embedded?
    /// Distinguishes fonts in glyph-cache keys (never reused).
    let identity: Int

    private static let counter = Atomic<Int>(0)

    /// Loads face `index` of a font file (TTF, OTF, or a TTC collection).
    public convenience init(path: String, index: Int = 0) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FontError.cannotRead(path: path)
        }
        try self.init(bytes: [UInt8](data), index: index, name: path)
    }

    /// Loads a font from its bytes.
    public convenience init(bytes data: [UInt8], index: Int = 0, name: String) throws {
        try self.init(bytes: data, index: index, name: name, embedded: nil)
    }

    convenience init(bytes data: [UInt8], index: Int, name: String, embedded: FontLibrary.Embedded?) throws {
        guard index >= 0 else { throw FontError.badFaceIndex(name: name, index: index) }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        copy.copyBytes(from: data)
        do {
            try self.init(bytes: UnsafeRawBufferPointer(copy), count: data.count, owned: true, index: index, name: name, embedded: embedded)
        } catch {
            copy.deallocate()
            throw error
        }
    }

    /// A font over bytes that live as long as the process (an embedded font's, in the binary):
    /// nothing is copied, and only the pages FreeType and HarfBuzz read are ever touched.
    convenience init(staticBytes: UnsafeRawBufferPointer, index: Int, name: String, embedded: FontLibrary.Embedded?) throws {
        try self.init(bytes: staticBytes, count: staticBytes.count, owned: false, index: index, name: name, embedded: embedded)
    }

    /// Checks the face and reads its metrics; on a throw the caller still owns `bytes`.
    private init(bytes: UnsafeRawBufferPointer, count: Int, owned: Bool, index: Int, name: String,
                 embedded: FontLibrary.Embedded?) throws {
        guard index >= 0 else { throw FontError.badFaceIndex(name: name, index: index) }
        // A face of its own, only to check the font and read its metrics.
        let metrics = try FreeTypeFace.withTemporaryFace(bytes: UnsafeRawBufferPointer(start: bytes.baseAddress, count: count),
                                                         index: index, name: name) { face in
            (unitsPerEm: Int(face.pointee.units_per_EM), ascender: Int(face.pointee.ascender),
             descender: -Int(face.pointee.descender), height: Int(face.pointee.height))
        }
        self.bytes = bytes
        self.ownsBytes = owned
        self.name = name
        self.byteCount = count
        self.faceIndex = index
        self.embedded = embedded
        unitsPerEm = metrics.unitsPerEm
        ascender = metrics.ascender
        descender = metrics.descender
        lineGap = max(0, metrics.height - ascender - descender)
        let blob = hb_blob_create(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(count),
                                  HB_MEMORY_MODE_READONLY, nil, nil)
        let hbFace = hb_face_create(blob, UInt32(index))
        hbFont = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        hb_blob_destroy(blob)
        hb_font_set_scale(hbFont, Int32(unitsPerEm), Int32(unitsPerEm))
        hb_font_make_immutable(hbFont)
        identity = Self.counter.add(1, ordering: .relaxed).newValue
    }

    /// The font file's bytes (without the allocation's spare byte for an empty file).
    var fileBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes.baseAddress, count: byteCount) }
    private let byteCount: Int

    deinit {
        hb_font_destroy(hbFont)
        if ownsBytes { bytes.deallocate() }
    }

    /// The glyph for a code point, or nil when this font lacks it.
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar.value, &glyph) != 0 ? glyph : nil
    }
}

/// Opening FreeType faces over font bytes, with errors in words.
enum FreeTypeFace {
    /// Opens face `index` of `bytes` in `library`; the caller closes it with `FT_Done_Face`.
    static func open(_ library: FT_Library, bytes: UnsafeRawBufferPointer, index: Int, name: String) throws -> FT_Face {
        var face: FT_Face?
        let error = FT_New_Memory_Face(library, bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self),
                                       FT_Long(bytes.count), FT_Long(index), &face)
        guard error == 0, let face else {
            throw error == 0x06 /* FT_Err_Invalid_Argument */ || error == 0x10
                ? FontError.badFaceIndex(name: name, index: index)
                : FontError.notAFont(name: name, reason: FreeTypeErrorText.describe(error))
        }
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            FT_Done_Face(face)
            throw FontError.notAFont(name: name, reason: "not a scalable (outline) font")
        }
        return face
    }

    /// Runs `body` on a face opened for this call only, in a FreeType library of its own.
    static func withTemporaryFace<T>(bytes: UnsafeRawBufferPointer, index: Int, name: String,
                                     _ body: (FT_Face) throws -> T) throws -> T {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw FontError.notAFont(name: name, reason: "FreeType could not start")
        }
        defer { FT_Done_FreeType(library) }
        let face = try open(library, bytes: bytes, index: index, name: name)
        defer { FT_Done_Face(face) }
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
