import CPNGKernels
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels

@Suite("PNG kernels: every CPU variant writes the Swift filter's bytes")
struct PNGKernelsTests {
    /// The frames' PNG row filter (`paeth_rgb_from_rgba`): every variant this CPU runs writes what
    /// the Swift Paeth filter writes for the packed RGB rows, at widths around its 1,024-pixel
    /// pieces. (Plain C loops, no intrinsics: the AVX-512 variant's code is the compiler's alone.)
    @Test func paethRowsMatchTheSwiftFilter() throws {
        let tables = BlurKernelVariant.allCases.filter(\.isSupported).map { ($0.rawValue, PNGKernels.table(for: $0)) }
        #expect(!tables.isEmpty)
        var random = TestRandom(state: 41)
        for width in [1, 2, 5, 1023, 1024, 1025, 2100] {
            let height = 3
            // Smooth runs and noise, so every Paeth branch is taken.
            var rgba = [UInt8](repeating: 255, count: width * height * 4)
            for i in rgba.indices where i % 4 != 3 {
                rgba[i] = (i / 40) % 3 == 0 ? random.next() : UInt8((i / 8) & 0xFF)
            }
            let rgb = rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
            var expected = [UInt8](repeating: 0, count: height * (width * 3 + 1))
            rgb.withUnsafeBufferPointer { pixels in
                expected.withUnsafeMutableBufferPointer { out in
                    PNGRowFilter.paethRowsInSwift(
                        pixels: pixels.baseAddress!,
                        rowBytes: width * 3,
                        bytesPerPixel: 3,
                        height: height,
                        into: out.baseAddress!
                    )
                }
            }
            for (name, table) in tables {
                var rows = [UInt8](repeating: 0, count: expected.count)
                rgba.withUnsafeBufferPointer { pixels in
                    rows.withUnsafeMutableBufferPointer { out in
                        for y in 0..<height {
                            let row = pixels.baseAddress! + y * width * 4
                            table.paeth_rgb_from_rgba(
                                row,
                                y > 0 ? row - width * 4 : nil,
                                Int32(width),
                                out.baseAddress! + y * (width * 3 + 1)
                            )
                        }
                    }
                }
                #expect(rows == expected, "\(name), width \(width)")
            }
        }
    }

    /// A label's rows (`paeth_row`, 1 to 4 bytes a pixel, with and without a row above): every
    /// variant this CPU runs, and `paethRows`, write what the Swift filter writes.
    @Test func paethRowMatchesTheSwiftFilter() throws {
        let tables = BlurKernelVariant.allCases.filter(\.isSupported).map { ($0.rawValue, PNGKernels.table(for: $0)) }
        var random = TestRandom(state: 7)
        for bytesPerPixel in [1, 2, 3, 4] {
            for width in [1, 2, 3, 17, 64, 134, 1000] {
                let rowBytes = width * bytesPerPixel
                let height = 4
                // A blurred label's smooth ramps with noise, so every Paeth branch is taken.
                var pixels = [UInt8](repeating: 0, count: rowBytes * height)
                for i in pixels.indices {
                    let ramp = UInt8(truncatingIfNeeded: i * 3 / 5)
                    pixels[i] = i % 7 == 0 ? random.next() : ramp
                }
                var expected = [UInt8](repeating: 0, count: height * (rowBytes + 1))
                var viaActive = expected
                pixels.withUnsafeBufferPointer { source in
                    expected.withUnsafeMutableBufferPointer { out in
                        PNGRowFilter.paethRowsInSwift(
                            pixels: source.baseAddress!,
                            rowBytes: rowBytes,
                            bytesPerPixel: bytesPerPixel,
                            height: height,
                            into: out.baseAddress!
                        )
                    }
                    viaActive.withUnsafeMutableBufferPointer { out in
                        PNGRowFilter.paethRows(
                            pixels: source.baseAddress!,
                            rowBytes: rowBytes,
                            bytesPerPixel: bytesPerPixel,
                            height: height,
                            into: out.baseAddress!
                        )
                    }
                }
                #expect(viaActive == expected, "paethRows, \(bytesPerPixel) bytes a pixel, width \(width)")
                for (name, table) in tables {
                    var rows = [UInt8](repeating: 0, count: expected.count)
                    pixels.withUnsafeBufferPointer { source in
                        rows.withUnsafeMutableBufferPointer { out in
                            for y in 0..<height {
                                let row = source.baseAddress! + y * rowBytes
                                out[y * (rowBytes + 1)] = 4
                                table.paeth_row(
                                    row,
                                    y > 0 ? row - rowBytes : nil,
                                    Int32(rowBytes),
                                    Int32(bytesPerPixel),
                                    out.baseAddress! + y * (rowBytes + 1) + 1
                                )
                            }
                        }
                    }
                    #expect(rows == expected, "\(name), \(bytesPerPixel) bytes a pixel, width \(width)")
                }
            }
        }
    }
}
