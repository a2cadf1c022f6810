import BlurLabelPixels
import BlurLabelSystem
import CPNGShim

/// Writes images as PNG in the smallest colour type that stores them exactly.
public struct PNGEncoder: Sendable {
    /// zlib level, 0 (store) to 9 (smallest).
    package var compressionLevel: Int
    /// PNG row filters to try; `nil` lets libpng choose.
    package var filters: RowFilters?
    /// zlib's strategy. `.automatic` (the default) sends small images such as labels, Paeth-filtered,
    /// to `SmallPNGWriter`, which compresses them whole with libdeflate (smaller and faster than
    /// zlib's run-length matching, which it replaced), and uses the standard search with libpng's
    /// adaptive row filters for anything larger, where compression matters more than per-file speed
    /// (`EncodingPlan.choose` decides).
    package var strategy: Strategy

    package enum Strategy: Int32, Sendable {
        case automatic = -1
        case standard = 0
        case filtered = 1
        case runLength = 3
    }

    /// Tests: every image through libpng, even those `SmallPNGWriter` writes (the same bytes).
    var libpngOnly = false

    /// Images up to this many pixels count as small for `.automatic`.
    package static let smallImagePixels = 65_536
    /// From this many pixels `.automatic` compresses on every core (see `ParallelPNGWriter`).
    package static let parallelImagePixels = 1 << 20

    /// PNG's row filters, as a set.
    package struct RowFilters: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        package static let none = RowFilters(rawValue: 0x08)
        package static let sub = RowFilters(rawValue: 0x10)
        package static let up = RowFilters(rawValue: 0x20)
        package static let average = RowFilters(rawValue: 0x40)
        package static let paeth = RowFilters(rawValue: 0x80)
        package static let all: RowFilters = [.none, .sub, .up, .average, .paeth]
    }

    /// An encoder at zlib level `compressionLevel` (clamped to 0…9; 6 by default).
    public init(compressionLevel: Int = 6) {
        self.init(compressionLevel: compressionLevel, filters: nil, strategy: .automatic)
    }

    /// The same, with the row filters to try and zlib's strategy chosen (benchmarks, tests).
    package init(compressionLevel: Int = 6, filters: RowFilters? = nil, strategy: Strategy = .automatic) {
        self.compressionLevel = min(9, max(0, compressionLevel))
        self.filters = filters
        self.strategy = strategy
    }

    /// The PNG file for `image`.
    public func encode(_ image: Image) throws -> [UInt8] {
        try encode(image, as: .png)
    }

    /// The file for `image` in `format`, a PNG with this encoder's settings: the plan
    /// `EncodingPlan.choose` makes, written.
    package func encode(_ image: Image, as format: PictureFormat) throws -> [UInt8] {
        try encode(image, as: format, exactPlan: .smallest(for: [image]))
    }

    /// The PNG file for `image` in a given colour plan, which must hold its pixels exactly
    /// (`PNGColorPlan.smallest(for:)` or `Builder` make such plans); one that does not is
    /// refused, never written with other pixels.
    package func encode(_ image: Image, plan: PNGColorPlan) throws -> [UInt8] {
        guard plan.holds(image) else {
            throw PNGError.encodeFailed(reason: "the colour plan \(plan.name) cannot hold this image's pixels exactly")
        }
        return try encode(image, as: .png, exactPlan: plan)
    }

    /// The PNG file for `image`, compressed on the calling thread alone, for callers that encode
    /// several images at once (a picture's animation frames, one per core): a picture larger than
    /// a label goes to `WholePNGWriter` (libdeflate, the whole image in one call) instead of
    /// `ParallelPNGWriter` or libpng; smaller images get what `encode` writes. The bytes do not
    /// depend on the thread count, but differ from `encode`'s for such pictures (the same pixels):
    /// `EncodingPlan.Caller.oneOfMany` says why.
    package func encodeOnCallingThread(_ image: Image) throws -> [UInt8] {
        try encode(image, as: .png, exactPlan: .smallest(for: [image]), caller: .oneOfMany)
    }

    /// The encoding itself, for a colour plan known to hold the image: what `EncodingPlan.choose`
    /// plans, written.
    private func encode(
        _ image: Image,
        as format: PictureFormat,
        exactPlan colors: PNGColorPlan,
        caller: EncodingPlan.Caller = .singleFile
    ) throws -> [UInt8] {
        try EncodingPlan.choose(
            format,
            pixels: image.width * image.height,
            colors: colors,
            encoder: self,
            caller: caller
        )
        .write(image, colors: colors, encoder: self)
    }

    /// The PNG file for `image`, held exactly by `colors`, by the writer `plan` names.
    func write(_ image: Image, colors: PNGColorPlan, plan: PNGWritePlan) throws -> [UInt8] {
        guard !image.isEmpty else {
            throw PNGError.encodeFailed(reason: "PNG cannot store an empty image (\(image.width)x\(image.height))")
        }
        let (paletteRGB, paletteAlpha) = Self.paletteEntries(colors)
        switch plan {
        case let .whole(deflater):
            return try WholePNGWriter.encode(
                image,
                plan: colors,
                paletteRGB: paletteRGB,
                paletteAlpha: paletteAlpha,
                deflater: deflater
            )
        case let .parallel(level):
            let (rows, rowBytes) = Self.packRows(image, plan: colors)
            return try ParallelPNGWriter.encode(
                rows: rows,
                rowBytes: rowBytes,
                width: image.width,
                height: image.height,
                plan: colors,
                paletteRGB: paletteRGB,
                paletteAlpha: paletteAlpha,
                level: level,
                threads: defaultThreadCount
            )
        case let .small(filter, deflater):
            let (rows, rowBytes) = Self.packRows(image, plan: colors)
            guard
                let file = SmallPNGWriter.encode(
                    rows: rows,
                    rowBytes: rowBytes,
                    width: image.width,
                    height: image.height,
                    plan: colors,
                    filter: filter,
                    paletteRGB: paletteRGB,
                    paletteAlpha: paletteAlpha,
                    deflater: deflater
                )
            else { throw PNGError.encodeFailed(reason: "libdeflate could not make a compressor") }
            return file
        case let .libpng(filters, strategy, level):
            return try Self.libpng(
                image,
                colors: colors,
                palette: (paletteRGB, paletteAlpha),
                filters: filters,
                strategy: strategy,
                level: level
            )
        }
    }

    /// A palette plan's PLTE entries (straight RGB) and tRNS entries (the alpha of each entry that
    /// is not opaque: the plan puts those first); empty for other plans.
    private static func paletteEntries(_ plan: PNGColorPlan) -> (rgb: [UInt8], alpha: [UInt8]) {
        var paletteRGB: [UInt8] = []
        var paletteAlpha: [UInt8] = []
        if case let .palette(entries, _) = plan {
            for entry in entries {
                let a = UInt8(entry >> 24)
                let channels = [UInt8(entry & 0xFF), UInt8((entry >> 8) & 0xFF), UInt8((entry >> 16) & 0xFF)]
                paletteRGB += channels.map { a == 0 ? 0 : unpremultiply($0, a) }
                if a != 255 { paletteAlpha.append(a) }
            }
        }
        return (paletteRGB, paletteAlpha)
    }

    /// The file libpng writes for `image` in `colors` with these filters, zlib strategy and level.
    private static func libpng(
        _ image: Image,
        colors plan: PNGColorPlan,
        palette: (rgb: [UInt8], alpha: [UInt8]),
        filters: RowFilters?,
        strategy: Strategy,
        level: Int
    ) throws -> [UInt8] {
        let (rows, rowBytes) = packRows(image, plan: plan)
        let (width, height) = (image.width, image.height)
        let (paletteRGB, paletteAlpha) = palette
        var out = blpng_encoded()
        let status = rows.withUnsafeBufferPointer { rowBuffer in
            paletteRGB.withUnsafeBufferPointer { rgb in
                paletteAlpha.withUnsafeBufferPointer { alpha in
                    var request = blpng_encode_request(
                        width: UInt32(width),
                        height: UInt32(height),
                        color_type: plan.colorType,
                        bit_depth: Int32(plan.bitDepth),
                        rows: rowBuffer.baseAddress,
                        row_bytes: rowBytes,
                        palette_rgb: rgb.baseAddress,
                        palette_count: Int32(rgb.count / 3),
                        palette_alpha: alpha.baseAddress,
                        trans_count: Int32(alpha.count),
                        compression_level: Int32(level),
                        filters: filters?.rawValue ?? 0,
                        strategy: strategy.rawValue,
                        window_bits: windowBits(dataCount: height * (rowBytes + 1))
                    )
                    return blpng_encode(&request, &out)
                }
            }
        }
        defer { blpng_free(out.bytes) }
        guard status == BLPNG_OK else {
            let message = withUnsafeBytes(of: out.message) {
                String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            throw PNGError.encodeFailed(reason: message.isEmpty ? "libpng status \(status.rawValue)" : message)
        }
        return [UInt8](UnsafeBufferPointer(start: out.bytes, count: out.count))
    }

    /// The zlib window asked of libpng for `dataCount` bytes of filtered rows: the smallest power of
    /// two from 2^9 that holds them (2^15 at most). Small images (labels) need no 32 KB window: one
    /// the size of the data compresses the same and spares zlib allocating and clearing its largest
    /// tables for every file. `SmallPNGWriter` starts from the same value.
    static func windowBits(dataCount: Int) -> Int32 {
        var bits: Int32 = 9
        while bits < 15 && (1 << bits) < dataCount { bits += 1 }
        return bits
    }

    /// The image's rows in the plan's layout, and the bytes per row.
    static func packRows(_ image: Image, plan: PNGColorPlan) -> ([UInt8], Int) {
        let w = image.width
        let h = image.height
        return image.pixels.withUnsafeBufferPointer { p -> ([UInt8], Int) in
            switch plan {
            case .rgba:
                var out = [UInt8](repeating: 0, count: w * h * 4)
                for i in 0..<(w * h) {
                    let a = p[i * 4 + 3]
                    out[i * 4 + 3] = a
                    if a == 255 {
                        out[i * 4] = p[i * 4]
                        out[i * 4 + 1] = p[i * 4 + 1]
                        out[i * 4 + 2] = p[i * 4 + 2]
                    } else if a != 0 {
                        out[i * 4] = unpremultiply(p[i * 4], a)
                        out[i * 4 + 1] = unpremultiply(p[i * 4 + 1], a)
                        out[i * 4 + 2] = unpremultiply(p[i * 4 + 2], a)
                    }
                }
                return (out, w * 4)
            case .rgb:
                var out = [UInt8](repeating: 0, count: w * h * 3)
                for i in 0..<(w * h) {
                    out[i * 3] = p[i * 4]
                    out[i * 3 + 1] = p[i * 4 + 1]
                    out[i * 3 + 2] = p[i * 4 + 2]
                }
                return (out, w * 3)
            case .greyAlpha:
                var out = [UInt8](repeating: 0, count: w * h * 2)
                for i in 0..<(w * h) {
                    let a = p[i * 4 + 3]
                    out[i * 2] = a == 0 ? 0 : unpremultiply(p[i * 4], a)
                    out[i * 2 + 1] = a
                }
                return (out, w * 2)
            case .grey(8):
                let out = [UInt8].uninitialized(count: w * h) { buffer, count in
                    for i in 0..<(w * h) { buffer[i] = p[i * 4] }
                    count = w * h
                }
                return (out, w)
            case let .grey(depth):
                let scale = 255 / ((1 << depth) - 1)
                return packIndices(w, h, depth) { UInt8(Int(p[$0 * 4]) / scale) }
            case let .palette(entries, depth):
                var index: [UInt32: UInt8] = [:]
                for (i, entry) in entries.enumerated() { index[entry] = UInt8(i) }
                return p.withMemoryRebound(to: UInt32.self) { words in
                    var lastWord: UInt32 = entries[0]
                    var lastIndex: UInt8 = 0
                    return packIndices(w, h, depth) { i in
                        let word = words[i]
                        if word != lastWord {
                            lastWord = word
                            lastIndex = index[word]!
                        }
                        return lastIndex
                    }
                }
            }
        }
    }

    /// Rows of `depth`-bit samples, most significant bits first, from a per-pixel function.
    private static func packIndices(_ w: Int, _ h: Int, _ depth: Int, _ sample: (Int) -> UInt8) -> ([UInt8], Int) {
        let rowBytes = (w * depth + 7) / 8
        var out = [UInt8](repeating: 0, count: rowBytes * h)
        let perByte = 8 / depth
        for y in 0..<h {
            for x in 0..<w {
                let v = sample(y * w + x)
                if depth == 8 {
                    out[y * rowBytes + x] = v
                } else {
                    let shift = 8 - depth * (x % perByte + 1)
                    out[y * rowBytes + x / perByte] |= v << UInt8(shift)
                }
            }
        }
        return (out, rowBytes)
    }
}
