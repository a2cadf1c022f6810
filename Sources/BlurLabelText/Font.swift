import BlurLabelSystem
import CEmbeddedFonts
import CFreeType
import CHarfBuzz
import Synchronization

/// A font face: the file's bytes, a HarfBuzz font for shaping, and the metrics read once.
///
/// A `Font` is immutable after it is made, so one instance is shared by every thread: the bytes
/// are never written, and the HarfBuzz font is made immutable (HarfBuzz's rule for sharing).
/// FreeType faces are not shared at all: FreeType's rule is one `FT_Face` per thread, so each
/// thread opens its own over these bytes in its `GlyphWorkspace`.
public final class Font: @unchecked Sendable {
    /// A font file's bytes (read whole into memory; the largest CJK collections are about 130 MB):
    /// `Limits.maximumFontFileBytes`.
    package static let maximumFileBytes = 512 << 20

    // @unchecked: every stored property is a `let` set in init; the raw bytes and the immutable
    // hb_font_t are only read after that, which HarfBuzz and FreeType allow from any thread;
    // the spare face is behind its lock.

    /// What the font was loaded from, for messages: the file's path, an embedded font's file
    /// name, or the name given with the bytes.
    package let name: String
    /// The font file's path; nil for an embedded font and a font made from bytes.
    public let path: String?
    /// The family name the font declares (`DejaVu Sans`), empty when it declares none.
    public let familyName: String
    /// Design units per em.
    package let unitsPerEm: Int
    /// Ascender and descender (positive down) in design units, from the font's metrics.
    package let ascender: Int
    package let descender: Int
    package let lineGap: Int

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

    /// The FreeType face `init` opened to check the font and read its metrics, kept (for an
    /// embedded font) for the first thread that needs a face: a one-label process then starts
    /// FreeType and opens the face once, not twice (0.13 M instructions). Taken at most once.
    private let spare: LockedValue<OwnedFace?>

    /// Loads face `index` of a font file (TTF, OTF, or a TTC collection), of at most
    /// `Font.maximumFileBytes`. The file is read once, straight into the font's own buffer
    /// (not mapped: a file truncated by someone else while it is in use would stop the process
    /// with SIGBUS; a copy cannot change under it).
    package convenience init(path: String, index: Int = 0) throws {
        let (buffer, count) = try FontFile.read(path)
        do {
            try self.init(
                bytes: UnsafeRawBufferPointer(buffer),
                count: count,
                owned: true,
                index: index,
                name: path,
                embedded: nil,
                path: path
            )
        } catch {
            buffer.deallocate()
            throw error
        }
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
            try self.init(
                bytes: UnsafeRawBufferPointer(copy),
                count: data.count,
                owned: true,
                index: index,
                name: name,
                embedded: embedded
            )
        } catch {
            copy.deallocate()
            throw error
        }
    }

    /// A font over bytes that live as long as the process (an embedded font's, in the binary):
    /// nothing is copied, and only the pages FreeType and HarfBuzz read are ever touched.
    convenience init(
        staticBytes: UnsafeRawBufferPointer,
        index: Int,
        name: String,
        embedded: FontLibrary.Embedded?
    ) throws {
        try self.init(
            bytes: staticBytes,
            count: staticBytes.count,
            owned: false,
            index: index,
            name: name,
            embedded: embedded
        )
    }

    /// Checks the face and reads its metrics; on a throw the caller still owns `bytes`.
    private init(
        bytes: UnsafeRawBufferPointer,
        count: Int,
        owned: Bool,
        index: Int,
        name: String,
        embedded: FontLibrary.Embedded?,
        path: String? = nil
    ) throws {
        guard index >= 0, index <= Int(UInt16.max) else { throw FontError.badFaceIndex(name: name, index: index) }
        // A face of its own, to check the font and read its metrics; an embedded font keeps it
        // for the first glyphs drawn, any other closes it (a process may load many fallbacks).
        let opened = try FreeTypeFace.openOwned(
            bytes: UnsafeRawBufferPointer(start: bytes.baseAddress, count: count),
            index: index,
            name: name
        )
        let face = opened.face
        let metrics = (
            unitsPerEm: Int(face.pointee.units_per_EM), ascender: Int(face.pointee.ascender),
            descender: -Int(face.pointee.descender), height: Int(face.pointee.height),
            strikes: face.pointee.face_flags & FT_Long(FT_FACE_FLAG_FIXED_SIZES) != 0
                && face.pointee.num_fixed_sizes > 0
        )
        familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
        if embedded != nil {
            spare = LockedValue(opened)
        } else {
            opened.close()
            spare = LockedValue(nil)
        }
        self.bytes = bytes
        self.ownsBytes = owned
        self.name = name
        self.path = path
        self.byteCount = count
        self.faceIndex = index
        self.embedded = embedded
        let blob = hb_blob_create(
            bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
            UInt32(count),
            HB_MEMORY_MODE_READONLY,
            nil,
            nil
        )
        let hbFace = hb_face_create(blob, UInt32(index))
        hbFont = hb_font_create(hbFace)!
        // FreeType leaves a bitmap-only font's units per em at 0: read the head table's, and the
        // vertical metrics HarfBuzz reads (OS/2 or hhea), instead.
        let upem = metrics.unitsPerEm > 0 ? metrics.unitsPerEm : Int(hb_face_get_upem(hbFace))
        hasColorBitmaps = metrics.strikes && hb_ot_color_has_png(hbFace) != 0
        hasColorLayers = hb_ot_color_has_layers(hbFace) != 0
        hb_face_destroy(hbFace)
        hb_blob_destroy(blob)
        hb_font_set_scale(hbFont, Int32(upem), Int32(upem))
        unitsPerEm = upem
        if metrics.unitsPerEm > 0 {
            ascender = metrics.ascender
            descender = metrics.descender
            lineGap = max(0, metrics.height - metrics.ascender - metrics.descender)
        } else {
            var extents = hb_font_extents_t()
            _ = hb_font_get_h_extents(hbFont, &extents)
            ascender = Int(extents.ascender)
            descender = -Int(extents.descender)
            lineGap = max(0, Int(extents.line_gap))
        }
        hb_font_make_immutable(hbFont)
        identity = Self.counter.add(1, ordering: .relaxed).newValue
    }

    /// The font file's bytes (without the allocation's spare byte for an empty file).
    var fileBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes.baseAddress, count: byteCount) }
    private let byteCount: Int

    deinit {
        spare.withLock { $0?.close() }
        hb_font_destroy(hbFont)
        if ownsBytes { bytes.deallocate() }
    }

    /// The face `init` opened, for the caller to own from now on; nil after the first call.
    func takeSpareFace() -> OwnedFace? {
        spare.withLock { spare in
            defer { spare = nil }
            return spare
        }
    }

    /// True for a font whose glyphs are colour bitmaps (CBDT/CBLC), drawn from a fixed strike.
    package let hasColorBitmaps: Bool
    /// True for a font with colour layers (COLR v0 with CPAL palettes).
    package let hasColorLayers: Bool
    /// True for a font with colour glyphs of either kind.
    var isColorFont: Bool { hasColorBitmaps || hasColorLayers }

    /// The glyph for a code point, or nil when this font lacks it.
    package func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar.value, &glyph) != 0 ? glyph : nil
    }
}

/// Reading a font file into a buffer of its own size.
enum FontFile {
    /// The file's bytes in a new buffer (alignment 16) and their count. Only a regular file of
    /// one byte to `Font.maximumFileBytes` is read: a FIFO, device or folder is refused
    /// before anything waits on it (the open does not block), and a huge file before a byte of
    /// it is read.
    static func read(_ path: String) throws -> (UnsafeMutableRawBufferPointer, Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            throw errno == ENOENT ? FontError.fileNotFound(path: path) : FontError.cannotRead(path: path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FontError.cannotRead(path: path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw FontError.notAFile(path: path) }
        guard info.st_size <= Font.maximumFileBytes else {
            throw FontError.tooLarge(path: path, limit: Font.maximumFileBytes)
        }
        guard info.st_size > 0 else { throw FontError.notAFont(name: path, reason: "the file is empty") }
        let size = Int(info.st_size)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        // An error, or the file got shorter: refused below.
        let count = (try? SystemCall.read(fd, into: buffer)) ?? -1
        guard count == size else {
            buffer.deallocate()
            throw FontError.cannotRead(path: path)
        }
        return (buffer, count)
    }
}

/// Opening FreeType faces over font bytes, with errors in words.
enum FreeTypeFace {
    /// Opens face `index` of `bytes` in `library`; the caller closes it with `FT_Done_Face`.
    static func open(_ library: FT_Library, bytes: UnsafeRawBufferPointer, index: Int, name: String) throws -> FT_Face {
        var face: FT_Face?
        let error = FT_New_Memory_Face(
            library,
            bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self),
            FT_Long(bytes.count),
            FT_Long(index),
            &face
        )
        guard error == 0, let face else {
            // 0x06 is FT_Err_Invalid_Argument.
            throw error == 0x06 || error == 0x10
                ? FontError.badFaceIndex(name: name, index: index)
                : FontError.notAFont(name: name, reason: FreeTypeErrorText.describe(error))
        }
        // Outline fonts scale; colour bitmap fonts (CBDT/CBLC emoji) are scaled from a strike.
        let flags = face.pointee.face_flags
        let scalable = flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        let colourBitmaps =
            flags & FT_Long(FT_FACE_FLAG_COLOR) != 0 && flags & FT_Long(FT_FACE_FLAG_FIXED_SIZES) != 0
            && face.pointee.num_fixed_sizes > 0
        guard scalable || colourBitmaps else {
            FT_Done_Face(face)
            throw FontError.notAFont(name: name, reason: "not a scalable (outline) font")
        }
        return face
    }

    /// Face `index` of `bytes` in a FreeType library of its own; the caller closes both with
    /// `OwnedFace.close()`.
    static func openOwned(bytes: UnsafeRawBufferPointer, index: Int, name: String) throws -> OwnedFace {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw FontError.notAFont(name: name, reason: "FreeType could not start")
        }
        do {
            return OwnedFace(library: library, face: try open(library, bytes: bytes, index: index, name: name))
        } catch {
            FT_Done_FreeType(library)
            throw error
        }
    }
}

/// A FreeType face and the library it was opened in, owned together: whoever holds it closes
/// both. `@unchecked Sendable` because it only moves from one owner to the next through
/// `Font`'s lock on its spare face, and one thread at a time uses it (FreeType's rule).
struct OwnedFace: @unchecked Sendable {
    let library: FT_Library
    let face: FT_Face

    func close() {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }
}

/// Why a font could not be had.
public enum FontError: Error, Equatable, CustomStringConvertible {
    case cannotRead(path: String)
    case fileNotFound(path: String)
    case notAFile(path: String)
    case tooLarge(path: String, limit: Int)
    case notAFont(name: String, reason: String)
    case badFaceIndex(name: String, index: Int)
    case familyNotFound(String)
    case fontconfigUnavailable(String, reason: String)

    public var description: String {
        switch self {
        case let .cannotRead(path): return "cannot read font file \(path) (unreadable)"
        case let .fileNotFound(path): return "cannot read font file \(path): no such file"
        case let .notAFile(path): return "font file \(path) is not a regular file (a folder, FIFO or device)"
        case let .tooLarge(path, limit):
            return "font file \(path) is larger than \(limit >> 20) MiB, more than any font needs"
        case let .notAFont(name, reason): return "\(name) is not a usable font: \(reason)"
        case let .badFaceIndex(name, index): return "\(name) has no face number \(index)"
        case let .familyNotFound(family):
            return "no installed font family matches '\(family)' (fontconfig); give a font file path instead"
        case let .fontconfigUnavailable(family, reason):
            return
                "cannot look up font family '\(family)': fontconfig is not available (\(reason)); give a font file path instead"
        }
    }
}
