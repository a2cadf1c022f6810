/// One channel of coverage, 0 (nothing) to 255 (fully covered): rasterized text before it is coloured.
package struct CoverageMask: Equatable, Sendable {
    package let width: Int
    package let height: Int
    /// `width * height` bytes, rows top to bottom. Always that many: they are changed only in place
    /// (`subscript(x:y:)`, `withUnsafeMutableValues(_:)`), so no reader needs to check.
    /// `@usableFromInline` so those inline into the engine's modules.
    @usableFromInline package private(set) var values: [UInt8]

    /// An empty (all zero) mask.
    package init(width: Int, height: Int) throws {
        try Image.checkSize(width: width, height: height)
        self.width = width
        self.height = height
        self.values = [UInt8](repeating: 0, count: width * height)
    }

    /// A mask over existing coverage bytes.
    package init(width: Int, height: Int, values: [UInt8]) throws {
        try Image.checkSize(width: width, height: height)
        guard values.count == width * height else {
            throw ImageError.pixelCountMismatch(expected: width * height, actual: values.count)
        }
        self.width = width
        self.height = height
        self.values = values
    }

    /// Runs `body` with the coverage bytes to change in place; their count cannot change.
    @inlinable
    package mutating func withUnsafeMutableValues<Result>(
        _ body: (UnsafeMutableBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try values.withUnsafeMutableBufferPointer { buffer in try body(buffer) }
    }

    @inlinable
    package subscript(x: Int, y: Int) -> UInt8 {
        get { values[y * width + x] }
        set { values[y * width + x] = newValue }
    }

    /// This mask with `pad` empty pixels added on every side.
    /// A negative or overflowing `pad` is refused as an invalid size.
    package func padded(by pad: Int) throws -> CoverageMask {
        let grow = pad.multipliedReportingOverflow(by: 2)
        guard pad >= 0, !grow.overflow, width <= Int.max - grow.partialValue, height <= Int.max - grow.partialValue
        else {
            throw ImageError.invalidSize(width: pad < 0 ? width - 1 : Int.max, height: pad < 0 ? height - 1 : Int.max)
        }
        var out = try CoverageMask(width: width + grow.partialValue, height: height + grow.partialValue)
        let (rowBytes, outWidth) = (width, out.width)
        values.withUnsafeBufferPointer { source in
            out.values.withUnsafeMutableBufferPointer { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                for y in 0..<height {
                    (to + (y + pad) * outWidth + pad).update(from: from + y * rowBytes, count: rowBytes)
                }
            }
        }
        return out
    }

    /// This mask centered on a larger empty one (each side at least this mask's).
    /// A size smaller than the mask's is refused as an invalid size.
    package func centered(inWidth newWidth: Int, height newHeight: Int) throws -> CoverageMask {
        if newWidth == width && newHeight == height { return self }
        guard newWidth >= width, newHeight >= height else {
            throw ImageError.invalidSize(width: newWidth, height: newHeight)
        }
        var out = try CoverageMask(width: newWidth, height: newHeight)
        let left = (newWidth - width) / 2
        let top = (newHeight - height) / 2
        for y in 0..<height {
            let dst = (y + top) * newWidth + left
            out.values.replaceSubrange(dst..<(dst + width), with: values[(y * width)..<((y + 1) * width)])
        }
        return out
    }
}
