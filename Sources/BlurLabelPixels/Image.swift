/// A picture: premultiplied RGBA, 8 bits a channel, rows top to bottom.
///
/// A value type; copies share storage until one of them is written (copy-on-write through `[UInt8]`).
public struct Image: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel, colour already multiplied by alpha.
    /// Always that many: they are changed only in place (`subscript(byte:)`,
    /// `withUnsafeMutablePixels(_:)`), never added or removed, so no reader needs to check.
    public var pixels: [UInt8] {
        @inlinable get { storage }
        @inlinable _modify { yield &storage }
    }
    /// The bytes themselves, `@usableFromInline` so that the accessors below inline into the
    /// engine's modules (a call per pixel otherwise: 2.7% more instructions in a redaction).
    @usableFromInline package var storage: [UInt8]

    /// An image filled with one colour.
    public init(width: Int, height: Int, fill: Color = .transparent) throws {
        try Self.checkSize(width: width, height: height)
        self.width = width
        self.height = height
        let p = fill.premultiplied
        storage = HugePages.bytes(count: width * height * 4) { buffer in
            // One 32-bit pattern per pixel, R G B A in memory order (a vectorized fill; byte by byte
            // it was a twentieth of a one-label process's instructions in our own code).
            let pixel = (UInt32(p.0) | UInt32(p.1) << 8 | UInt32(p.2) << 16 | UInt32(p.3) << 24).littleEndian
            guard let base = buffer.baseAddress else { return }
            base.withMemoryRebound(to: UInt32.self, capacity: width * height) { words in
                words.initialize(repeating: pixel, count: width * height)
            }
        }
    }

    /// An image over existing premultiplied RGBA bytes.
    public init(width: Int, height: Int, premultipliedRGBA: [UInt8]) throws {
        try Self.checkSize(width: width, height: height)
        guard premultipliedRGBA.count == width * height * 4 else {
            throw ImageError.pixelCountMismatch(expected: width * height * 4, actual: premultipliedRGBA.count)
        }
        self.width = width
        self.height = height
        self.storage = premultipliedRGBA
    }

    /// The largest side and area an image may have (2^28 pixels is 1 GiB of RGBA); beyond them
    /// memory use is unreasonable.
    package static let maximumSide = 1 << 20
    package static let maximumPixels = 1 << 28

    package static func checkSize(width: Int, height: Int) throws {
        guard width >= 0, height >= 0, width <= maximumSide, height <= maximumSide,
            width.multipliedReportingOverflow(by: height).partialValue <= maximumPixels
        else { throw ImageError.invalidSize(width: width, height: height) }
    }

    /// Byte `index` of `pixels`, read or written in place.
    @inlinable
    package subscript(byte index: Int) -> UInt8 {
        get { storage[index] }
        set { storage[index] = newValue }
    }

    /// Overwrites the bytes from `offset` on with `bytes` (which must fit inside `pixels`).
    @inlinable
    package mutating func overwrite(at offset: Int, with bytes: ArraySlice<UInt8>) {
        storage.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    }

    /// Runs `body` with the pixels' bytes to change in place; their count cannot change.
    @inlinable
    package mutating func withUnsafeMutablePixels<Result>(
        _ body: (UnsafeMutableBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try storage.withUnsafeMutableBufferPointer { buffer in try body(buffer) }
    }

    /// The pixels' storage, handed over without a copy: for a caller that reuses a finished
    /// image's memory for the next one (fresh memory costs the kernel a cleared page a page).
    @inlinable
    package consuming func takePixels() -> [UInt8] { storage }

    /// The premultiplied pixel at (x, y).
    @inlinable
    package subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (storage[i], storage[i + 1], storage[i + 2], storage[i + 3])
    }

    /// This image composited over an opaque colour.
    package func flattened(over backdrop: Color) -> Image {
        var out = self
        let b = backdrop.premultiplied
        let back = [UInt32(b.0), UInt32(b.1), UInt32(b.2)]
        for k in stride(from: 0, to: out.pixels.count, by: 4) {
            let inverse = 255 - UInt32(out.pixels[k + 3])
            for c in 0..<3 {
                out.pixels[k + c] = UInt8(min(255, UInt32(out.pixels[k + c]) + (back[c] * inverse + 127) / 255))
            }
            out.pixels[k + 3] = 255
        }
        return out
    }

    /// True when there are no pixels.
    @inlinable
    package var isEmpty: Bool { width == 0 || height == 0 }
}

/// Problems with image sizes and buffers.
public enum ImageError: Error, Equatable, CustomStringConvertible {
    case invalidSize(width: Int, height: Int)
    case pixelCountMismatch(expected: Int, actual: Int)

    public var description: String {
        switch self {
        case let .invalidSize(width, height):
            return
                "invalid image size \(width)x\(height) (each side 0...\(Image.maximumSide), at most \(Image.maximumPixels) pixels)"
        case let .pixelCountMismatch(expected, actual):
            return "pixel buffer has \(actual) bytes, expected \(expected)"
        }
    }
}
