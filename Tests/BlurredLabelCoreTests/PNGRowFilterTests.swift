import Testing

@testable import BlurredLabelCore

/// The Swift PNG row filter against PNG's definition, written here the plain way: each row's
/// filter undoes to the original bytes, and the chosen filter has the smallest signed-byte sum.
@Suite("PNG row filter")
struct PNGRowFilterTests {
    static func unfilter(_ filtered: [UInt8], rowBytes: Int, bpp: Int) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<(filtered.count / (rowBytes + 1)) {
            let type = filtered[y * (rowBytes + 1)]
            for i in 0..<rowBytes {
                let x = filtered[y * (rowBytes + 1) + 1 + i]
                let a = i >= bpp ? Int(out[y * rowBytes + i - bpp]) : 0
                let b = y > 0 ? Int(out[(y - 1) * rowBytes + i]) : 0
                let c = (i >= bpp && y > 0) ? Int(out[(y - 1) * rowBytes + i - bpp]) : 0
                let predictor: Int
                switch type {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                default:
                    let p = a + b - c
                    let pa = abs(p - a)
                    let pb = abs(p - b)
                    let pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                }
                out.append(UInt8((Int(x) + predictor) & 0xFF))
            }
        }
        return out
    }

    static func cost(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) }
    }

    @Test("undoes to the original and picks a cheapest row", arguments: [1, 2, 3, 4])
    func roundTrip(bpp: Int) {
        var random = TestRandom(state: UInt64(bpp))
        let width = 37
        let height = 23
        let rowBytes = width * bpp
        // Smooth ramps (Sub/Up/Average/Paeth win) mixed with noise rows (None wins).
        let pixels = (0..<(rowBytes * height)).map { i -> UInt8 in
            let y = i / rowBytes
            let x = i % rowBytes
            return y % 5 == 4 ? random.next() : UInt8((x * (y % 3 + 1) + y * 7) & 0xFF)
        }
        var filtered = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        pixels.withUnsafeBufferPointer { source in
            filtered.withUnsafeMutableBufferPointer {
                PNGRowFilter.filter(
                    pixels: source.baseAddress!,
                    rowBytes: rowBytes,
                    bytesPerPixel: bpp,
                    rows: 0..<height,
                    into: $0.baseAddress!
                )
            }
        }
        #expect(Self.unfilter(filtered, rowBytes: rowBytes, bpp: bpp) == pixels)
        var used = Set<UInt8>()
        for y in 0..<height {
            let chosen = filtered[y * (rowBytes + 1)]
            used.insert(chosen)
            let chosenCost = Self.cost(filtered[(y * (rowBytes + 1) + 1)...].prefix(rowBytes))
            // Re-filter this row with each type by re-encoding through the reference unfilter's inverse.
            for type: UInt8 in 0...4 {
                var row: [UInt8] = []
                for i in 0..<rowBytes {
                    let a = i >= bpp ? Int(pixels[y * rowBytes + i - bpp]) : 0
                    let b = y > 0 ? Int(pixels[(y - 1) * rowBytes + i]) : 0
                    let c = (i >= bpp && y > 0) ? Int(pixels[(y - 1) * rowBytes + i - bpp]) : 0
                    let p = a + b - c
                    let pa = abs(p - a)
                    let pb = abs(p - b)
                    let pc = abs(p - c)
                    let predictor = [0, a, b, (a + b) / 2, pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)][Int(type)]
                    row.append(UInt8((Int(pixels[y * rowBytes + i]) - predictor) & 0xFF))
                }
                #expect(chosenCost <= Self.cost(row[...]), "row \(y): type \(chosen) costs more than type \(type)")
            }
        }
        #expect(used.count >= 2, "the picture should make the filter choice vary")
    }
}
