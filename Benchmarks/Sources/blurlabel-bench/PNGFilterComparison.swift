import BenchPictures
import BlurredLabelCore
import CReferencePNGFilter
import Foundation

/// `blurlabel-bench png-filter`: the PNG row filter in Swift (the package's, PNGRowFilter.swift)
/// beside the C version it replaced (CReferencePNGFilter), one thread, on a test picture per
/// pixel size; checks both give the same bytes and prints the ratio Swift / C.
func benchmarkPNGFilter(size: Int, repeats: Int) throws {
    for channels in [4, 3, 1] {
        let pixels = testPicture(width: size, height: size, channels: channels)
        let rowBytes = size * channels
        var swiftOut = [UInt8](repeating: 0, count: size * (rowBytes + 1))
        var cOut = swiftOut
        var swiftBest = Double.infinity
        var cBest = Double.infinity
        pixels.withUnsafeBufferPointer { source in
            for _ in 0..<repeats {
                var t0 = now()
                swiftOut.withUnsafeMutableBufferPointer {
                    PNGRowFilter.filter(
                        pixels: source.baseAddress!,
                        rowBytes: rowBytes,
                        bytesPerPixel: channels,
                        rows: 0..<size,
                        into: $0.baseAddress!
                    )
                }
                swiftBest = min(swiftBest, now() - t0)
                t0 = now()
                cOut.withUnsafeMutableBufferPointer {
                    reference_png_filter_rows(
                        source.baseAddress!,
                        rowBytes,
                        Int32(channels),
                        0,
                        UInt32(size),
                        $0.baseAddress!
                    )
                }
                cBest = min(cBest, now() - t0)
            }
        }
        guard swiftOut == cOut else { throw BenchError("png-filter: Swift and C differ for \(channels) channel(s)") }
        print(
            String(
                format: "png-filter %dx%d %d channel(s): Swift %.2f ms, C %.2f ms, Swift/C %.2f (same bytes)",
                size,
                size,
                channels,
                swiftBest * 1000,
                cBest * 1000,
                swiftBest / cBest
            )
        )
    }
}

/// A benchmark that found its subjects disagree.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
