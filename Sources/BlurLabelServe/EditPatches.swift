import BlurredLabelCore

/// What a preview sends instead of the whole redacted picture: the parts of it that may differ
/// from the original (the rectangles), stacked top to bottom in one small image, and where each
/// part goes. The page keeps the original and draws the parts over it, so a preview of a
/// 1920×1080 picture encodes and decodes a few rectangles, not two million pixels.
struct EditPatches: Equatable {
    /// The parts, each at the left edge, one below the other, in the order of `regions`.
    let atlas: Image
    /// Where each part goes in the picture.
    let regions: [Redaction.Rect]

    /// The parts of `picture` under `regions`. When they would hold more pixels than the picture
    /// itself (large or overlapping rectangles), one part, their bounding box, is sent instead.
    init(of picture: Image, regions: [Redaction.Rect]) throws {
        var regions = regions
        let area = regions.reduce(0) { $0 + $1.width * $1.height }
        if area > picture.width * picture.height, let first = regions.first {
            var (x0, y0, x1, y1) = (first.x, first.y, first.x + first.width, first.y + first.height)
            for r in regions {
                (x0, y0) = (min(x0, r.x), min(y0, r.y))
                (x1, y1) = (max(x1, r.x + r.width), max(y1, r.y + r.height))
            }
            regions = [Redaction.Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)]
        }
        let width = max(1, regions.map(\.width).max() ?? 1)
        let height = max(1, regions.reduce(0) { $0 + $1.height })
        var atlas = try Image(width: width, height: height)
        atlas.withUnsafeMutablePixels { target in
            picture.pixels.withUnsafeBufferPointer { source in
                guard let target = target.baseAddress, let source = source.baseAddress else { return }
                var top = 0
                for r in regions {
                    for row in 0..<r.height {
                        let from = ((r.y + row) * picture.width + r.x) * 4
                        (target + (top + row) * width * 4).update(from: source + from, count: r.width * 4)
                    }
                    top += r.height
                }
            }
        }
        self.atlas = atlas
        self.regions = regions
    }

    /// The `X-Regions` header's value: `X,Y,W,H` of each part, separated by `;`.
    var header: String { regions.map(\.description).joined(separator: ";") }
}
