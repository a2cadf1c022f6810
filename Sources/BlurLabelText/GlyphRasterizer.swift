import BlurLabelSystem
import CFreeType

/// One rasterized glyph: coverage and where its top-left sits relative to the pen's whole pixel.
struct GlyphBitmap: Sendable {
    let width: Int
    let height: Int
    let left: Int
    let top: Int
    let coverage: [UInt8]
}

/// FreeType rasterization of glyph outlines: anti-aliased, unhinted (so no machine's hinting
/// settings change the result), translated by the pen's sub-pixel offset before rendering.
/// Results are cached, since price tags reuse the same few glyphs endlessly.
enum GlyphRasterizer {
    struct Key: Hashable {
        let font: Int, glyph: UInt32, size: Int, subX: Int, subY: Int, outline: Int
    }

    /// The glyph's coverage at `size` px, drawn with its origin at (subX/64, subY/64) of a pixel;
    /// `outline` (in 1/64 px) adds a stroked border around the outline. Uses the calling thread's
    /// own FreeType faces and glyph cache, so threads never wait for each other.
    static func bitmap(font: Font, glyph: UInt32, size: Double, subX: Int, subY: Int, outline: Int) -> GlyphBitmap {
        let key = Key(
            font: font.identity,
            glyph: glyph,
            size: Int((size * 64).rounded()),
            subX: subX,
            subY: subY,
            outline: outline
        )
        return GlyphWorkspace.current.bitmap(key: key, font: font)
    }

    static let empty = GlyphBitmap(width: 0, height: 0, left: 0, top: 0, coverage: [])

    static func render(face: FT_Face, key: Key) -> GlyphBitmap {
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6(key.size), 72, 72) == 0,
            FT_Load_Glyph(face, key.glyph, FT_Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
            face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE
        else { return empty }
        let slot = face.pointee.glyph!
        FT_Outline_Translate(&slot.pointee.outline, FT_Pos(key.subX), FT_Pos(-key.subY))
        // The border is stroked from the outline before the slot is rendered (which replaces it).
        let border = key.outline > 0 ? stroked(slot: slot, library: slot.pointee.library, width: key.outline) : empty
        return union(renderSlot(slot), border)
    }

    private static func renderSlot(_ slot: FT_GlyphSlot) -> GlyphBitmap {
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return empty }
        return copy(slot.pointee.bitmap, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top))
    }

    private static func stroked(slot: FT_GlyphSlot, library: FT_Library?, width: Int) -> GlyphBitmap {
        var stroker: FT_Stroker?
        guard FT_Stroker_New(library, &stroker) == 0, let stroker else { return empty }
        defer { FT_Stroker_Done(stroker) }
        FT_Stroker_Set(stroker, FT_Fixed(width), FT_STROKER_LINECAP_ROUND, FT_STROKER_LINEJOIN_ROUND, 0)
        var glyph: FT_Glyph?
        guard FT_Get_Glyph(slot, &glyph) == 0 else { return empty }
        defer { FT_Done_Glyph(glyph) }
        guard FT_Glyph_StrokeBorder(&glyph, stroker, 0, 1) == 0,
            FT_Glyph_To_Bitmap(&glyph, FT_RENDER_MODE_NORMAL, nil, 1) == 0, let glyph
        else { return empty }
        let bitmapGlyph = UnsafeMutableRawPointer(glyph).assumingMemoryBound(to: FT_BitmapGlyphRec.self)
        return copy(bitmapGlyph.pointee.bitmap, left: Int(bitmapGlyph.pointee.left), top: Int(bitmapGlyph.pointee.top))
    }

    private static func copy(_ bitmap: FT_Bitmap, left: Int, top: Int) -> GlyphBitmap {
        let width = Int(bitmap.width)
        let height = Int(bitmap.rows)
        let pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, let buffer = bitmap.buffer else { return empty }
        var coverage = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = pitch >= 0 ? buffer + y * pitch : buffer + (height - 1 - y) * -pitch
            for x in 0..<width { coverage[y * width + x] = row[x] }
        }
        return GlyphBitmap(width: width, height: height, left: left, top: top, coverage: coverage)
    }

    /// The pixel-wise maximum of two bitmaps placed by their own offsets.
    private static func union(_ a: GlyphBitmap, _ b: GlyphBitmap) -> GlyphBitmap {
        if a.width == 0 { return b }
        if b.width == 0 { return a }
        let left = min(a.left, b.left)
        let top = max(a.top, b.top)
        let right = max(a.left + a.width, b.left + b.width)
        let bottom = min(a.top - a.height, b.top - b.height)
        let width = right - left
        let height = top - bottom
        var coverage = [UInt8](repeating: 0, count: width * height)
        for g in [a, b] {
            for y in 0..<g.height {
                for x in 0..<g.width {
                    let i = (top - g.top + y) * width + (g.left - left + x)
                    coverage[i] = max(coverage[i], g.coverage[y * g.width + x])
                }
            }
        }
        return GlyphBitmap(width: width, height: height, left: left, top: top, coverage: coverage)
    }
}

/// One thread's FreeType state: a FreeType library, a face per font over the font's shared bytes
/// (FreeType's rule: one `FT_Face` per thread), and a bounded glyph cache (cleared when full:
/// simple and enough for labels). Each thread gets its own on first use and keeps it until it
/// ends, so batch workers never share a face, a cache or a lock.
package final class GlyphWorkspace {
    /// The workspace's FreeType library, started when a face is first opened here (a font's
    /// spare face, which comes with its own library, needs none).
    private var library: FT_Library?
    /// The faces opened so far (at most `faceLimit`, searched in order: a label uses one or two),
    /// each with its font, which keeps the bytes the face reads alive as long as the face, and
    /// the library of its own when it was the font's spare.
    private var faces: [(font: Font, face: FT_Face, ownLibrary: FT_Library?)] = []
    /// Glyphs drawn so far, bounded by entries and by bytes (what a thread keeps between labels).
    private var cache: [GlyphRasterizer.Key: GlyphBitmap] = [:]
    private var cacheBytes = 0
    /// Colour glyphs drawn so far (nil for a glyph of a colour font that has no colour form),
    /// bounded by entries and by bytes (one emoji at 2000 px is 16 MB: not kept, drawn again).
    private var colorCache: [GlyphRasterizer.Key: ColorGlyphBitmap?] = [:]
    private var colorCacheBytes = 0
    /// Glyph extents measured so far (`GlyphExtent.of`), a few words each.
    private var extents: [GlyphRasterizer.Key: GlyphExtent] = [:]
    private static let cacheLimit = 20_000
    private static let colorCacheLimit = 4096
    /// The bytes of bitmaps each cache keeps between labels: with the colour cache's, what a
    /// rendering thread holds beyond a render's own working memory (docs/serve.md, "Under load").
    package static let cacheByteLimit = 8 << 20
    package static let colorCacheByteLimit = 8 << 20
    private static let faceLimit = 64

    init() {}

    deinit {
        closeFaces()
        if let library { FT_Done_FreeType(library) }
    }

    private func closeFaces() {
        for open in faces {
            FT_Done_Face(open.face)
            if let own = open.ownLibrary { FT_Done_FreeType(own) }
        }
        faces.removeAll()
    }

    /// The calling thread's workspace.
    static var current: GlyphWorkspace {
        if let raw = pthread_getspecific(workspaceKey) {
            return Unmanaged<GlyphWorkspace>.fromOpaque(raw).takeUnretainedValue()
        }
        let made = GlyphWorkspace()
        pthread_setspecific(workspaceKey, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// Runs `body` with the workspace at `address` (a retained `Unmanaged` one, kept by its
    /// caller) as the calling thread's `current`, then gives the thread back its own (or none).
    static func withCurrent<Result, E: Error>(
        _ address: UnsafeMutableRawPointer,
        _ body: () throws(E) -> Result
    ) throws(E) -> Result {
        let own = pthread_getspecific(workspaceKey)
        pthread_setspecific(workspaceKey, address)
        defer { pthread_setspecific(workspaceKey, own) }
        return try body()
    }

    func bitmap(key: GlyphRasterizer.Key, font: Font) -> GlyphBitmap {
        if let hit = cache[key] { return hit }
        guard let face = face(for: font) else { return GlyphRasterizer.empty }
        let made = GlyphRasterizer.render(face: face, key: key)
        // A bitmap larger than the whole cache is not kept (drawn again when asked again).
        guard made.coverage.count <= Self.cacheByteLimit else { return made }
        if cache.count >= Self.cacheLimit || cacheBytes + made.coverage.count > Self.cacheByteLimit {
            cache.removeAll(keepingCapacity: true)
            cacheBytes = 0
        }
        cache[key] = made
        cacheBytes += made.coverage.count
        return made
    }

    /// A glyph's extent: cached, or measured by `make` with this thread's face for `font`.
    func extent(key: GlyphRasterizer.Key, font: Font, make: (FT_Face) -> GlyphExtent) -> GlyphExtent {
        if let hit = extents[key] { return hit }
        let made = face(for: font).map(make) ?? .empty
        if extents.count >= Self.cacheLimit { extents.removeAll(keepingCapacity: true) }
        extents[key] = made
        return made
    }

    /// The colour form of a glyph: cached, or made by `make` with this thread's face for `font`.
    func colorBitmap(key: GlyphRasterizer.Key, font: Font, make: (FT_Face) -> ColorGlyphBitmap?) -> ColorGlyphBitmap? {
        if let hit = colorCache[key] { return hit }
        let made = face(for: font).flatMap(make)
        let bytes = made?.rgba.count ?? 0
        guard bytes <= Self.colorCacheByteLimit else { return made }
        if colorCache.count >= Self.colorCacheLimit || colorCacheBytes + bytes > Self.colorCacheByteLimit {
            colorCache.removeAll(keepingCapacity: true)
            colorCacheBytes = 0
        }
        colorCache[key] = .some(made)
        colorCacheBytes += bytes
        return made
    }

    /// This thread's face for `font`, opened on first use.
    func face(for font: Font) -> FT_Face? {
        if let open = faces.first(where: { $0.font.identity == font.identity }) { return open.face }
        if faces.count >= Self.faceLimit {
            closeFaces()
            cache.removeAll()
            cacheBytes = 0
            colorCache.removeAll()
            colorCacheBytes = 0
            extents.removeAll()
        }
        if let spare = font.takeSpareFace() {
            faces.append((font, spare.face, spare.library))
            return spare.face
        }
        if library == nil {
            var started: FT_Library?
            library = FT_Init_FreeType(&started) == 0 ? started : nil
        }
        guard let library else { return nil }
        // The font opened once already (when it was made), so this cannot fail but for memory.
        guard let face = try? FreeTypeFace.open(library, bytes: font.fileBytes, index: font.faceIndex, name: font.name)
        else { return nil }
        faces.append((font, face, nil))
        return face
    }
}

/// The key under which each thread keeps its `GlyphWorkspace`; the workspace is released when
/// its thread ends.
private let workspaceKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { raw in
        if let raw { Unmanaged<GlyphWorkspace>.fromOpaque(raw).release() }
    }
    return key
}()
