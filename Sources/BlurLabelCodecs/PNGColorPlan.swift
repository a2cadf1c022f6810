import BlurLabelPixels

/// The PNG colour type chosen for some pixels: the smallest one that stores them exactly.
package enum PNGColorPlan: Equatable, Sendable {
    /// Opaque grey, at the smallest bit depth whose levels hold every value.
    case grey(bitDepth: Int)
    /// At most 256 distinct colours; entries are premultiplied RGBA packed as `r | g<<8 | b<<16 | a<<24`.
    case palette(entries: [UInt32], bitDepth: Int)
    case greyAlpha
    case rgb
    case rgba

    /// PNG's colour type numbers (the IHDR byte), by name.
    enum ColorType {
        static let grey: Int32 = 0
        static let rgb: Int32 = 2
        static let palette: Int32 = 3
        static let greyAlpha: Int32 = 4
        static let rgba: Int32 = 6
    }

    /// PNG's colour type number.
    var colorType: Int32 {
        switch self {
        case .grey: return ColorType.grey
        case .rgb: return ColorType.rgb
        case .palette: return ColorType.palette
        case .greyAlpha: return ColorType.greyAlpha
        case .rgba: return ColorType.rgba
        }
    }

    /// True for a palette plan (whose rows libpng leaves unfiltered).
    var isPalette: Bool {
        if case .palette = self { return true }
        return false
    }

    var bitDepth: Int {
        switch self {
        case let .grey(depth), let .palette(_, depth): return depth
        default: return 8
        }
    }

    /// The distance in bytes from a byte to the same byte of the pixel before, as PNG's row filters
    /// use it: whole bytes a pixel, at least one (packed low-bit-depth samples count as one byte).
    var filterBytesPerPixel: Int {
        switch self {
        case .rgba: return 4
        case .rgb: return 3
        case .greyAlpha: return 2
        case .grey, .palette: return 1
        }
    }

    /// Its name in messages.
    var name: String {
        switch self {
        case let .grey(depth): return "grey(bitDepth: \(depth))"
        case let .palette(entries, depth): return "palette(\(entries.count) entries, bitDepth: \(depth))"
        case .greyAlpha: return "greyAlpha"
        case .rgb: return "rgb"
        case .rgba: return "rgba"
        }
    }

    /// True when this plan stores every pixel of `image` exactly, at a bit depth PNG allows.
    func holds(_ image: Image) -> Bool {
        let count = image.width * image.height
        return image.pixels.withUnsafeBufferPointer { p -> Bool in
            switch self {
            case .rgba:
                return true
            case .rgb:
                return (0..<count).allSatisfy { p[$0 * 4 + 3] == 255 }
            case .greyAlpha:
                for i in 0..<count where p[i * 4] != p[i * 4 + 1] || p[i * 4] != p[i * 4 + 2] { return false }
                return true
            case let .grey(depth):
                guard [1, 2, 4, 8].contains(depth) else { return false }
                let scale: Int = 255 / ((1 << depth) - 1)
                for i in 0..<count {
                    let r: UInt8 = p[i * 4]
                    let g: UInt8 = p[i * 4 + 1]
                    let b: UInt8 = p[i * 4 + 2]
                    let a: UInt8 = p[i * 4 + 3]
                    if a != 255 || r != g || r != b || Int(r) % scale != 0 { return false }
                }
                return true
            case let .palette(entries, depth):
                guard [1, 2, 4, 8].contains(depth), !entries.isEmpty, entries.count <= 1 << depth else { return false }
                let known = Set(entries)
                return p.withMemoryRebound(to: UInt32.self) { words in
                    (0..<count).allSatisfy { known.contains(words[$0]) }
                }
            }
        }
    }

    /// The smallest exact plan for all of `images` together (an animation's frames share one).
    package static func smallest(for images: [Image]) -> PNGColorPlan {
        // First the cheap question most labels answer yes to: opaque grey?
        var survey = GreySurvey()
        for image in images { survey.add(image) }
        var palette = PaletteCounter()
        if !(survey.opaque && survey.grey) {
            for image in images { palette.add(image) }
        }
        return decide(survey, palette: palette)
    }

    /// The plan once pixels are surveyed: opaque grey at its smallest depth, else a palette
    /// (translucent entries first, so the tRNS chunk can stop at the last of them), else the
    /// smallest direct colour type.
    fileprivate static func decide(_ survey: GreySurvey, palette: PaletteCounter) -> PNGColorPlan {
        if survey.opaque && survey.grey { return .grey(bitDepth: smallestGreyDepth(survey.greyLevels)) }
        if let entries = palette.entries {
            let ordered = entries.filter { $0 >> 24 != 255 } + entries.filter { $0 >> 24 == 255 }
            let depth = ordered.count <= 2 ? 1 : ordered.count <= 4 ? 2 : ordered.count <= 16 ? 4 : 8
            return .palette(entries: ordered, bitDepth: depth)
        }
        if survey.grey { return .greyAlpha }
        return survey.opaque ? .rgb : .rgba
    }

    static func smallestGreyDepth(_ used: [Bool]) -> Int {
        for (depth, step) in [(1, 255), (2, 85), (4, 17)] {
            if used.indices.allSatisfy({ !used[$0] || $0 % step == 0 }) { return depth }
        }
        return 8
    }
}

extension PNGColorPlan {
    /// The plan of `smallest(for:)` built one image at a time, so frames can be looked at and
    /// dropped (an animation streams them): adding the same images in the same order gives the
    /// same plan.
    package struct Builder: Sendable {
        private var survey = GreySurvey()
        private var palette = PaletteCounter()

        package init() {}

        package mutating func add(_ image: Image) {
            survey.add(image)
            palette.add(image)
        }

        package var plan: PNGColorPlan { PNGColorPlan.decide(survey, palette: palette) }
    }
}

/// Whether every pixel seen is opaque, whether every one is grey, and which grey levels occur.
private struct GreySurvey: Sendable {
    private(set) var opaque = true, grey = true
    private(set) var greyLevels = [Bool](repeating: false, count: 256)

    /// Looks at `image`'s pixels, stopping once they are known to be neither opaque nor grey.
    /// (Locals and one pointer to the levels in the loop: no uniqueness or bounds check a pixel.)
    /// Once a colour pixel is seen the grey levels no longer matter: the rest is only asked
    /// whether it is opaque, one AND over the words (vectorised; on a 3840×2160 colour frame the
    /// pixel-by-pixel loop was 6% of an animation's time).
    mutating func add(_ image: Image) {
        guard opaque || grey else { return }
        var isOpaque = opaque
        var isGrey = grey
        greyLevels.withUnsafeMutableBufferPointer { levels in
            image.pixels.withUnsafeBytes { raw in
                let words = raw.bindMemory(to: UInt32.self)
                var index = 0
                if isGrey {
                    while index < words.count {
                        let word = words[index]
                        index += 1
                        let r = word & 0xFF
                        if word == r &* 0x01_0101 | 0xFF00_0000 {
                            levels[Int(r)] = true
                            continue
                        }  // opaque grey, the usual pixel
                        if word >> 24 != 255 { isOpaque = false }
                        if r != (word >> 8) & 0xFF || r != (word >> 16) & 0xFF {
                            isGrey = false
                            break
                        }
                        levels[Int(r)] = true
                    }
                }
                guard isOpaque, index < words.count else { return }
                isOpaque = allOpaque(UnsafeBufferPointer(rebasing: words[index...]))
            }
        }
        opaque = isOpaque
        grey = isGrey
    }
}

/// Counts distinct colours in first-seen order, giving up past 256.
private struct PaletteCounter: Sendable {
    private var slots = [UInt32](repeating: 0, count: 1024)
    private var filled = [Bool](repeating: false, count: 1024)
    private var order: [UInt32] = []
    private var overflowed = false

    mutating func add(_ color: UInt32) {
        if overflowed { return }
        var h = Int((color &* 0x9E37_79B1) >> 22)
        while filled[h] {
            if slots[h] == color { return }
            h = (h + 1) & 1023
        }
        if order.count == 256 {
            overflowed = true
            return
        }
        filled[h] = true
        slots[h] = color
        order.append(color)
    }

    /// Every colour of `image`, stopping as soon as there are more than 256.
    mutating func add(_ image: Image) {
        guard !overflowed else { return }
        image.pixels.withUnsafeBytes { raw in
            var previous: UInt32? = nil
            for word in raw.bindMemory(to: UInt32.self) where word != previous {
                previous = word
                add(word)
                if overflowed { break }
            }
        }
    }

    var entries: [UInt32]? { overflowed ? nil : order }
}
