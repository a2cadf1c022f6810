import BlurLabelPixels

/// Pictures of different sizes, shown rather than only refused: `compare` throws `SizeMismatch`
/// for them, and a person still needs to see where they differ.
extension ImageComparison {
    /// What two pictures of different sizes have in common, and the diff picture of both.
    package struct SizeMismatchComparison: Sendable {
        /// The mismatch itself (both sizes).
        package let mismatch: SizeMismatch
        /// The comparison of the part they share: both laid from the top-left corner, the
        /// narrower width by the lower height.
        package let overlap: Result
        /// The diff picture, as large as both: the shared part as `diffImage` shows it, red where
        /// only one of the pictures has pixels, grey where neither has. nil when not asked for.
        package let diff: Image?

        /// One line: both sizes, then what differs where they overlap.
        package var summary: String {
            "\(mismatch); where they overlap (\(overlap.width)x\(overlap.height)): "
                + (overlap.isIdentical ? "identical" : overlap.summary)
        }
    }

    /// Compares pictures of different sizes over the part they share and, with `drawing`, draws
    /// the diff picture of both (`diffImage` for pictures of the same size). That picture is as
    /// wide as the wider and as tall as the taller: a 1000000×1 and a 1×1000000 picture would need
    /// 10^12 pixels, so a canvas over the image limits is refused (`DiffPictureTooLarge`) before
    /// anything is allocated for it. The comparison itself needs only the shared part.
    package func compareDifferentSizes(
        expected: Image,
        actual: Image,
        drawing: Bool = true
    ) throws -> SizeMismatchComparison {
        let width = max(expected.width, actual.width)
        let height = max(expected.height, actual.height)
        let shared = (width: min(expected.width, actual.width), height: min(expected.height, actual.height))
        let mismatch = SizeMismatch(expected: (expected.width, expected.height), actual: (actual.width, actual.height))
        if drawing {
            try DiffPictureTooLarge.check(width: width, height: height, what: "the diff picture of \(mismatch.sizes)")
        }
        let overlap = try compare(
            expected: try expected.topLeft(width: shared.width, height: shared.height),
            actual: try actual.topLeft(width: shared.width, height: shared.height)
        )
        guard drawing else { return SizeMismatchComparison(mismatch: mismatch, overlap: overlap, diff: nil) }
        // Classes over the whole canvas: the overlap's own, 1 where one picture has a pixel and
        // the other has none, 3 where neither has.
        var classes = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let inExpected = x < expected.width && y < expected.height
                let inActual = x < actual.width && y < actual.height
                classes[y * width + x] =
                    inExpected && inActual
                    ? (overlap.classes.isEmpty ? 0 : overlap.classes[y * shared.width + x])
                    : (inExpected || inActual ? 1 : 3)
            }
        }
        let canvas = Result(
            width: width,
            height: height,
            differentPixels: 0,
            antialiasedPixels: 0,
            changedPixels: 0,
            maxDistance: 0,
            allowedPixels: 0,
            metric: metric,
            threshold: threshold,
            classes: classes
        )
        let diff = try diffImage(expected: try expected.topLeft(width: width, height: height), result: canvas)
        return SizeMismatchComparison(mismatch: mismatch, overlap: overlap, diff: diff)
    }
}

/// A picture about a comparison (a diff, a side-by-side) that would be larger than an image may be.
package struct DiffPictureTooLarge: Error, CustomStringConvertible {
    package let what: String
    package let width: Int, height: Int
    package var description: String {
        "\(what) would be \(width)x\(height) pixels, over the limit of \(Image.maximumSide) a side and \(Image.maximumPixels) in all"
    }

    /// `Image.checkSize`, with the picture named in its error.
    static func check(width: Int, height: Int, what: @autoclosure () -> String) throws {
        do { try Image.checkSize(width: width, height: height) } catch {
            throw DiffPictureTooLarge(what: what(), width: width, height: height)
        }
    }
}

extension Image {
    /// The picture cut or extended (transparent) to `width` × `height`, its top-left corner kept.
    func topLeft(width: Int, height: Int) throws -> Image {
        if width == self.width && height == self.height { return self }
        var out = try Image(width: width, height: height)
        let run = min(width, self.width) * 4
        out.withUnsafeMutablePixels { dst in
            pixels.withUnsafeBufferPointer { src in
                for y in 0..<min(height, self.height) {
                    (dst.baseAddress! + y * width * 4).update(from: src.baseAddress! + y * self.width * 4, count: run)
                }
            }
        }
        return out
    }
}
