import GoldenImage
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurredLabelCore

/// Splits an APNG back into ordinary PNG files, one per frame, for checking what was written.
func apngFrames(_ file: [UInt8]) throws -> (frames: [[UInt8]], delays: [Double], declared: Int) {
    let chunks = try APNGWriter.chunks(of: file)
    let header = chunks.filter { ["IHDR", "PLTE", "tRNS"].contains($0.type) }
    var frames: [[UInt8]] = []
    var delays: [Double] = []
    var current: [[UInt8]] = []
    var declared = 0
    func flush() {
        guard !current.isEmpty else { return }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for c in header { png += APNGWriter.chunk(c.type, c.data) }
        for data in current { png += APNGWriter.chunk("IDAT", data) }
        png += APNGWriter.chunk("IEND", [])
        frames.append(png)
        current = []
    }
    for chunk in chunks {
        switch chunk.type {
        case "acTL": declared = Int(chunk.data[3]) | Int(chunk.data[2]) << 8
        case "fcTL":
            flush()
            let num = Double(Int(chunk.data[20]) << 8 | Int(chunk.data[21]))
            let den = Double(Int(chunk.data[22]) << 8 | Int(chunk.data[23]))
            delays.append(num / den)
        case "IDAT": current.append(chunk.data)
        case "fdAT": current.append(Array(chunk.data.dropFirst(4)))
        default: break
        }
    }
    flush()
    return (frames, delays, declared)
}

/// A label's blur levels as an animated PNG.
@Suite("Animation")
struct AnimationTests {
    @Test func apngHoldsEveryFrame() throws {
        let frames = try BlurLevelPlan(text: "56.00 €", style: LabelStyle(), maxRadius: 6, steps: 3).levels(
            Array(0...3)
        )
        let file = try APNGWriter().encode(frames, delay: 0.25)
        let (pngs, delays, declared) = try apngFrames(file)
        #expect(declared == 4 && pngs.count == 4 && delays == [0.25, 0.25, 0.25, 0.25])
        for (png, frame) in zip(pngs, frames) { #expect(try PNGDecoder.decode(png) == frame) }
        #expect(try PNGDecoder.decode(file) == frames[0])  // a plain PNG reader shows the first frame
    }

    @Test func apngRefusesMixedSizes() throws {
        #expect(throws: PNGError.self) {
            try APNGWriter().encode([try Image(width: 2, height: 2), try Image(width: 3, height: 2)], delay: 0.1)
        }
    }

    @Test func firstAndLastFramesAreGolden() throws {
        let frames = try BlurLevelPlan(text: "56.00 €", style: LabelStyle(), maxRadius: 20, steps: 20).levels(
            Array(0...20)
        )
        assertGolden(frames[0], named: "animation-first-frame", options: .exact)
        assertGolden(frames[20], named: "animation-last-frame", options: .exact)
    }
}
