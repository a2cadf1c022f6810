import BenchPictures
import BlurredLabelCore
import CReferenceRunDeflate
import Foundation

/// `blurlabel-bench run-deflate [REPEATS [WIDTH HEIGHT]]`: the run-length deflate encoder in Swift (the package's,
/// RunDeflateEncoder.swift) beside the C version it replaced (CReferenceRunDeflate), one thread, on
/// the Paeth-filtered RGB rows of a test picture (3840×2160 by default) blurred at σ 0, 4 and 20 (an animation's
/// frames); checks both give the same bytes and prints the ratio Swift / C.
func benchmarkRunDeflate(width: Int, height: Int, repeats: Int) throws {
    let picture = try Image(
        width: width,
        height: height,
        premultipliedRGBA: testPicture(width: width, height: height, channels: 4)
    )
    let blockBytes = RunDeflateEncoder.blockBytes
    var tokens = [UInt16](repeating: 0, count: blockBytes)
    for sigma in [0.0, 4, 20] {
        let blurred = sigma == 0 ? picture : try GaussianBlur(sigma: sigma, edges: .clamp).apply(to: picture)
        let rgb = stride(from: 0, to: blurred.pixels.count, by: 4).flatMap { blurred.pixels[$0..<$0 + 3] }
        let rowBytes = width * 3
        var filtered = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        rgb.withUnsafeBufferPointer { source in
            filtered.withUnsafeMutableBufferPointer {
                PNGRowFilter.paethRows(
                    pixels: source.baseAddress!,
                    rowBytes: rowBytes,
                    bytesPerPixel: 3,
                    height: height,
                    into: $0.baseAddress!
                )
            }
        }
        let blocks = filtered.count / blockBytes + 1
        let bound = RunDeflateEncoder.bound(count: filtered.count, blocks: blocks)
        var swiftOut = [UInt8](repeating: 0, count: bound)
        var cOut = [UInt8](repeating: 0, count: Int(bl_run_deflate_bound(filtered.count, blocks)))
        var (swiftCount, cCount) = (0, 0)
        var (swiftBest, cBest) = (Double.infinity, Double.infinity)
        filtered.withUnsafeBufferPointer { input in
            tokens.withUnsafeMutableBufferPointer { tokens in
                for _ in 0..<repeats {
                    var t0 = now()
                    swiftCount = swiftOut.withUnsafeMutableBufferPointer { out in
                        var encoder = RunDeflateEncoder(out: out.baseAddress!)
                        var start = 0
                        repeat {
                            let piece = min(blockBytes, input.count - start)
                            encoder.append(
                                input.baseAddress! + start,
                                count: piece,
                                final: start + piece == input.count,
                                tokens: tokens.baseAddress!
                            )
                            start += piece
                        } while start < input.count
                        return encoder.finish()
                    }
                    swiftBest = min(swiftBest, now() - t0)
                    t0 = now()
                    cCount = cOut.withUnsafeMutableBufferPointer {
                        bl_run_deflate(input.baseAddress!, input.count, $0.baseAddress!, tokens.baseAddress!)
                    }
                    cBest = min(cBest, now() - t0)
                }
            }
        }
        guard swiftOut.prefix(swiftCount) == cOut.prefix(cCount) else {
            throw BenchError("run-deflate: Swift and C differ at sigma \(sigma) (\(swiftCount) and \(cCount) bytes)")
        }
        print(
            String(
                format:
                    "run-deflate %ldx%ld RGB, sigma %4.1f: %.1f MB -> %.2f MB; Swift %.1f ms, C %.1f ms, Swift/C %.2f (same bytes)",
                width,
                height,
                sigma,
                Double(filtered.count) / 1e6,
                Double(swiftCount) / 1e6,
                swiftBest * 1000,
                cBest * 1000,
                swiftBest / cBest
            )
        )
    }
}
