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
                    PNGRowFilter.paethRows(
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
}
