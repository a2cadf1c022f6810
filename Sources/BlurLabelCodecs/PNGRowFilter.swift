import BlurLabelPixels

/// PNG's per-row filters (None, Sub, Up, Average, Paeth) with libpng's choice heuristic: each row
/// gets the filter whose output has the smallest sum of absolute values (bytes read as signed).
/// Used by `ParallelPNGWriter`, which filters rows on several threads before deflating; the Paeth
/// filter alone by `SmallPNGWriter`.
///
/// Written in Swift over unsafe pointers; each filter is its own simple loop so the optimiser
/// vectorises it. `blurlabel-bench png-filter` times it beside the C version it replaced and
/// checks both give the same bytes.
package enum PNGRowFilter {
    /// Filters rows `rows` of the image at `pixels` (`rowBytes` apart, `bytesPerPixel` per pixel)
    /// into `out`: one filter-type byte then `rowBytes` filtered bytes per row, starting with the
    /// range's first row at `out`.
    package static func filter(
        pixels: UnsafePointer<UInt8>,
        rowBytes: Int,
        bytesPerPixel: Int,
        rows: Range<Int>,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        guard rowBytes > 0, !rows.isEmpty else { return }
        let p = min(bytesPerPixel, rowBytes)
        let zero = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        zero.initialize(repeating: 0, count: rowBytes)
        let candidates = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * 4)
        defer {
            zero.deallocate()
            candidates.deallocate()
        }
        let sub = candidates
        let up = candidates + rowBytes
        let average = candidates + 2 * rowBytes
        let paeth = candidates + 3 * rowBytes
        for y in rows {
            let row = pixels + y * rowBytes
            let above = y > 0 ? UnsafePointer(row - rowBytes) : UnsafePointer(zero)
            // The first pixel has no left neighbour (a = c = 0): Sub keeps it, Paeth predicts b.
            for i in 0..<p {
                sub[i] = row[i]
                up[i] = row[i] &- above[i]
                average[i] = row[i] &- (above[i] >> 1)
            }
            for i in p..<rowBytes { sub[i] = row[i] &- row[i &- p] }
            for i in p..<rowBytes { up[i] = row[i] &- above[i] }
            for i in p..<rowBytes {
                average[i] = row[i] &- UInt8(truncatingIfNeeded: (UInt16(row[i &- p]) &+ UInt16(above[i])) >> 1)
            }
            paethRow(row, above: above, count: rowBytes, bytesPerPixel: p, into: paeth)
            var best = 0
            var bestCost = cost(row, rowBytes)
            for k in 1...4 {
                let sum = cost(candidates + (k - 1) * rowBytes, rowBytes)
                if sum < bestCost {
                    bestCost = sum
                    best = k
                }
            }
            let destination = out + (y - rows.lowerBound) * (rowBytes + 1)
            destination[0] = UInt8(best)
            (destination + 1).update(
                from: best == 0 ? row : UnsafePointer(candidates + (best - 1) * rowBytes),
                count: rowBytes
            )
        }
    }

    /// Every row Paeth-filtered (PNG filter type 4), as libpng writes them when Paeth is the only
    /// filter allowed: one type byte then `rowBytes` bytes per row, from `out`. `SmallPNGWriter`.
    /// By the CPU's widest kernel variant (`paeth_row`: AVX2 here, twice the baseline build's
    /// width); the same bytes as `paethRowsInSwift` (PNGKernelsTests).
    package static func paethRows(
        pixels: UnsafePointer<UInt8>,
        rowBytes: Int,
        bytesPerPixel: Int,
        height: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let paeth = PNGKernels.active.paeth_row!
        let p = Int32(min(bytesPerPixel, rowBytes))
        forEachRow(pixels: pixels, rowBytes: rowBytes, height: height, into: out) { row, above, destination in
            paeth(row, above, Int32(rowBytes), p, destination)
        }
    }

    /// `paethRows` in Swift, compiled for the build's baseline: the kernels' reference.
    package static func paethRowsInSwift(
        pixels: UnsafePointer<UInt8>,
        rowBytes: Int,
        bytesPerPixel: Int,
        height: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let p = min(bytesPerPixel, rowBytes)
        let zero = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        zero.initialize(repeating: 0, count: rowBytes)
        defer { zero.deallocate() }
        forEachRow(pixels: pixels, rowBytes: rowBytes, height: height, into: out) { row, above, destination in
            paethRow(row, above: above ?? UnsafePointer(zero), count: rowBytes, bytesPerPixel: p, into: destination)
        }
    }

    /// Each row's type byte (4, Paeth) written, then `filter` called with the row, the row above
    /// (nil for the first) and where its `rowBytes` filtered bytes go.
    private static func forEachRow(
        pixels: UnsafePointer<UInt8>,
        rowBytes: Int,
        height: Int,
        into out: UnsafeMutablePointer<UInt8>,
        _ filter: (UnsafePointer<UInt8>, UnsafePointer<UInt8>?, UnsafeMutablePointer<UInt8>) -> Void
    ) {
        guard rowBytes > 0 else { return }
        for y in 0..<height {
            let row = pixels + y * rowBytes
            let destination = out + y * (rowBytes + 1)
            destination[0] = 4
            filter(row, y > 0 ? row - rowBytes : nil, destination + 1)
        }
    }

    /// Rows `rows` of an opaque `image` as PNG RGB rows, Paeth-filtered straight from its RGBA
    /// pixels (alpha dropped) by the CPU's widest kernel variant (`paeth_rgb_from_rgba`): one type
    /// byte then 3·width bytes per row, the range's first row at `out`. The same bytes as
    /// `paethRows` of the packed RGB rows (BlurKernelVariantTests), without packing them.
    package static func paethRGB(fromRGBA image: Image, rows: Range<Int>, into out: UnsafeMutablePointer<UInt8>) {
        let width = image.width
        let paeth = PNGKernels.active.paeth_rgb_from_rgba!
        image.pixels.withUnsafeBufferPointer { source in
            guard let pixels = source.baseAddress else { return }
            for y in rows {
                let row = pixels + y * width * 4
                paeth(row, y > 0 ? row - width * 4 : nil, Int32(width), out + (y - rows.lowerBound) * (width * 3 + 1))
            }
        }
    }

    /// One row through the Paeth filter. The first pixel has no left neighbour (a = c = 0), so its
    /// predictor is the byte above.
    @inline(__always)
    private static func paethRow(
        _ row: UnsafePointer<UInt8>,
        above: UnsafePointer<UInt8>,
        count: Int,
        bytesPerPixel p: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        for i in 0..<p { out[i] = row[i] &- above[i] }
        for i in p..<count {
            // Wrapping arithmetic and a branch-free absolute value keep this loop vectorisable.
            let a = Int16(row[i &- p])
            let b = Int16(above[i])
            let c = Int16(above[i &- p])
            let pa = magnitude(b &- c)
            let pb = magnitude(a &- c)
            let pc = magnitude(a &+ b &- c &- c)
            let predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
            out[i] = row[i] &- UInt8(truncatingIfNeeded: predictor)
        }
    }

    @inline(__always)
    private static func magnitude(_ x: Int16) -> Int16 {
        let sign = x &>> 15
        return (x ^ sign) &- sign
    }

    /// libpng's "minimum sum of absolute differences": each byte read as a signed value.
    @inline(__always)
    private static func cost(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> UInt32 {
        var sum: UInt32 = 0
        for i in 0..<count {
            let v = bytes[i]
            sum &+= UInt32(v < 128 ? v : 0 &- v)
        }
        return sum
    }
}
