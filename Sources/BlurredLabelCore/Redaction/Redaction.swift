import BlurLabelPixels

/// An image and an ordered list of rectangles to obscure, as a person drags them over a
/// screenshot: made from a drag (sizes may be negative), moved and resized afterwards, each with
/// its own mode. Rendering applies them in order.
///
/// Honest modes: `blur` and `pixelate` are cosmetic (text under them can often be recovered by
/// rendering candidates and matching); `secure` looks like a blur but is computed only from pixels
/// outside every secure region; `fill` paints over.
public struct Redaction: Sendable {
    public var image: Image
    public private(set) var regions: [Region] = []
    /// Pixels a `secure` or `blur` region grows by on every side before it is applied, so a box
    /// drawn tight to the text also covers its antialiased edge (whose faint ink a secure region
    /// would otherwise rebuild its inside from). `defaultMargin` unless set; see `effectiveRect(_:)`.
    /// (The library's `Redaction.margin`.)
    package var regionMargin: Int = Redaction.defaultMargin

    /// The margin unless told otherwise: 2 px, the antialiased fringe of text drawn at any size.
    package static let defaultMargin = 2
    /// The largest margin accepted.
    package static let maximumMargin = 10_000

    public init(image: Image) { self.image = image }

    /// How a region is obscured.
    public enum Mode: Equatable, Sendable {
        /// Gaussian blur (σ in pixels) of what lies under and around the region. Cosmetic.
        case blur(radius: BlurRadius)
        /// Blocks of `block` pixels, aligned to the region, each its average. Cosmetic.
        case pixelate(block: Int)
        /// A solid colour over the region.
        case fill(Color)
        /// A blur-like picture made only from pixels outside the secure regions.
        case secure(radius: BlurRadius)

        /// True for the modes whose output still carries information about what they cover.
        package var isCosmetic: Bool {
            switch self {
            case .blur, .pixelate: return true
            case .fill, .secure: return false
            }
        }
    }

    /// A rectangle in image pixels (normalized: width and height are never negative).
    public struct Rect: Equatable, Sendable, CustomStringConvertible {
        public var x: Int, y: Int, width: Int, height: Int

        /// Coordinates and sizes are kept within ±2^40 (images are at most 2^20 a side), so no
        /// drag, move or size, however large, overflows the arithmetic on them.
        static let coordinateLimit = 1 << 40
        static func clamp(_ value: Int) -> Int { min(max(value, -coordinateLimit), coordinateLimit) }

        /// A rectangle from a drag's origin and size; a negative size (dragging up or left) is
        /// turned around so the rectangle covers the same pixels.
        public init(x: Int, y: Int, width: Int, height: Int) {
            let (x, y, width, height) = (Self.clamp(x), Self.clamp(y), Self.clamp(width), Self.clamp(height))
            self.x = width < 0 ? x + width : x
            self.y = height < 0 ? y + height : y
            self.width = abs(width)
            self.height = abs(height)
        }

        public var description: String { "\(x),\(y),\(width),\(height)" }

        /// The part of the rectangle inside a `width`×`height` image, or nil if none is.
        func clipped(toWidth imageWidth: Int, height imageHeight: Int) -> Rect? {
            let (x, y) = (Self.clamp(self.x), Self.clamp(self.y))
            let (width, height) = (max(0, Self.clamp(self.width)), max(0, Self.clamp(self.height)))
            let x0 = max(0, x)
            let y0 = max(0, y)
            let x1 = min(imageWidth, x + width)
            let y1 = min(imageHeight, y + height)
            guard x0 < x1, y0 < y1 else { return nil }
            return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }

        func contains(_ px: Int, _ py: Int) -> Bool {
            let (x, y) = (Self.clamp(self.x), Self.clamp(self.y))
            return px >= x && px < x + Self.clamp(width) && py >= y && py < y + Self.clamp(height)
        }
    }

    /// One obscured rectangle.
    public struct Region: Equatable, Sendable {
        public var rect: Rect
        public var mode: Mode
        /// A veil over a `blur` or `secure` region's blurred pixels (see `Veil`; `#ffffff4d` is
        /// the light frosted look, `#0000004d` the dark one); nil for none. Other modes ignore it.
        public var tint: Color? = nil
    }

    /// Adds a region as a drag makes it, blur and secure regions under `tint` if one is given;
    /// returns its index.
    @discardableResult
    public mutating func add(_ rect: Rect, mode: Mode, tint: Color? = nil) -> Int {
        regions.append(Region(rect: rect, mode: mode, tint: tint))
        return regions.count - 1
    }

    /// Changes the veil over region `index` (nil: none).
    public mutating func setTint(_ index: Int, _ tint: Color?) { regions[index].tint = tint }

    /// Moves region `index` by a drag's translation.
    public mutating func move(_ index: Int, dx: Int, dy: Int) {
        let r = regions[index].rect
        regions[index].rect.x = Rect.clamp(Rect.clamp(r.x) + Rect.clamp(dx))
        regions[index].rect.y = Rect.clamp(Rect.clamp(r.y) + Rect.clamp(dy))
    }

    /// Resizes region `index` from its origin, as dragging its far corner does (negative sizes flip it).
    public mutating func resize(_ index: Int, width: Int, height: Int) {
        let r = regions[index].rect
        regions[index].rect = Rect(x: r.x, y: r.y, width: width, height: height)
    }

    /// Changes how region `index` is obscured.
    public mutating func setMode(_ index: Int, _ mode: Mode) { regions[index].mode = mode }

    /// Removes region `index`.
    public mutating func remove(_ index: Int) { regions.remove(at: index) }

    /// The rectangle region `index` actually changes: its own, grown by `regionMargin` on every
    /// side for `secure` and `blur` (not clipped to the image).
    package func effectiveRect(_ index: Int) -> Rect {
        let region = regions[index]
        switch region.mode {
        case .secure, .blur:
            let m = min(max(regionMargin, 0), Self.maximumMargin)
            let r = region.rect
            return Rect(x: r.x - m, y: r.y - m, width: r.width + 2 * m, height: r.height + 2 * m)
        case .pixelate, .fill:
            return region.rect
        }
    }

    /// The image with every region applied in order. Throws for a region with no area, one
    /// entirely outside the image, a margin out of range, or a radius, block or colour that is
    /// invalid or would leave the region as it was (a blur of σ 0, a block of 1, a fill that is
    /// not opaque).
    public func render() throws -> Image {
        let w = image.width
        let h = image.height
        guard regionMargin >= 0, regionMargin <= Self.maximumMargin else {
            throw RedactionError.badMargin(regionMargin)
        }
        var clipped: [(Rect, Mode, Color?)] = []
        for (index, region) in regions.enumerated() {
            guard region.rect.width > 0, region.rect.height > 0 else {
                throw RedactionError.emptyRegion(index: index, rect: region.rect)
            }
            guard let rect = effectiveRect(index).clipped(toWidth: w, height: h) else {
                throw RedactionError.outsideImage(index: index, rect: region.rect, width: w, height: h)
            }
            try Self.validate(region.mode, index: index)
            clipped.append((rect, region.mode, region.tint))
        }
        // Secret pixels (under any secure region) are replaced first, from the pixels around
        // them, so nothing computed afterwards can depend on them.
        let secure = clipped.filter { if case .secure = $0.1 { return true } else { return false } }.map(\.0)
        var out = secure.isEmpty ? image : RegionSynthesis.replacingSecrets(in: image, secrets: secure)
        for (rect, mode, tint) in clipped {
            switch mode {
            case let .blur(radius), let .secure(radius):
                try RegionBlur.blur(&out, rect: rect, radius: radius, tint: tint)
            case let .pixelate(block):
                RegionPixelate.pixelate(&out, rect: rect, block: block)
            case let .fill(color):
                RegionFill.fill(&out, rect: rect, color: color)
            }
        }
        return out
    }

    private static func validate(_ mode: Mode, index: Int) throws {
        switch mode {
        case let .pixelate(block):
            guard block >= Limits.minimumPixelateBlock, block <= Limits.maximumPixelateBlock else {
                throw RedactionError.badBlock(index: index, block: block)
            }
        case let .blur(radius):
            guard radius.sigma > 0 else { throw RedactionError.blurOfZero(index: index) }
        case let .fill(color):
            guard color.alpha == 255 else { throw RedactionError.fillNotOpaque(index: index) }
        case .secure:
            break
        }
    }
}

/// A region that cannot be applied.
public enum RedactionError: Error, Equatable, CustomStringConvertible {
    case emptyRegion(index: Int, rect: Redaction.Rect)
    case outsideImage(index: Int, rect: Redaction.Rect, width: Int, height: Int)
    case badBlock(index: Int, block: Int)
    /// A blur of σ 0: the region would be left as it was.
    case blurOfZero(index: Int)
    /// A fill colour that is not opaque: the text would show through.
    case fillNotOpaque(index: Int)
    case badMargin(Int)

    public var description: String {
        switch self {
        case let .emptyRegion(index, rect): return "region \(index + 1) (\(rect)) has no area"
        case let .outsideImage(index, rect, w, h):
            return "region \(index + 1) (\(rect)) lies entirely outside the \(w)x\(h) image"
        case let .badBlock(index, block):
            let range = "\(Limits.minimumPixelateBlock) to \(Limits.maximumPixelateBlock)"
            return "region \(index + 1): block size must be from \(range) (a block of 1 changes nothing), got \(block)"
        case let .blurOfZero(index):
            return "region \(index + 1): a blur of sigma 0 changes nothing; give a radius above 0, or use secure"
        case let .fillNotOpaque(index):
            return "region \(index + 1): a fill colour that is not opaque lets what is under it show through; "
                + "give an opaque colour (alpha ff)"
        case let .badMargin(margin):
            return "the margin must be from 0 to \(Redaction.maximumMargin) px, got \(margin)"
        }
    }
}
