import BlurredLabelKit
import Foundation
import GoldenImage
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
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

@Suite("Blur levels and animation")
struct BlurLevelsTests {
    @Test func amountMapsToTheNearestStep() throws {
        let levels = try BlurLevels(text: "56", maxRadius: 20, steps: 20)
        #expect(try levels.step(for: 0) == 0 && levels.step(for: 1) == 20 && levels.step(for: 0.5) == 10)
        #expect(try levels.step(for: 0.524) == 10 && levels.step(for: 0.526) == 11)
        #expect(levels.radius(ofStep: 5) == 5)
        #expect(throws: LabelError.badAmount(1.5)) { try levels.step(for: 1.5) }
        #expect(throws: LabelError.self) { try levels.step(for: .nan) }
        #expect(throws: LabelError.badSteps(0)) { try BlurLevels(text: "x", steps: 0) }
    }

    @Test func levelsAreBuiltOnceAndShareOneCanvas() async throws {
        let levels = try BlurLevels(text: "56.00 €", maxRadius: 8, steps: 4)
        #expect(await !levels.isReady)
        try await levels.prepare()
        #expect(await levels.isReady)
        let all = try await levels.all()
        #expect(all.count == 5)
        #expect(Set(all.map { "\($0.width)x\($0.height)" }).count == 1)
        // Each level equals a label blurred at that radius, centered on the largest canvas.
        var style = LabelStyle()
        style.canvas = try CanvasSize(width: all[0].width, height: all[0].height)
        let label = BlurredLabel(text: "56.00 €", style: style)
        try label.blur(radius: 4)
        #expect(try await levels.image(amount: 0.5) == label.image)
        label.unblur()
        #expect(try await levels.image(amount: 0) == label.image)
        #expect(try await levels.image(amount: 0.55) == all[2])
    }

    @Test func levelsDoNotDependOnThreads() throws {
        let one = try BlurLevels.build(text: "56", style: LabelStyle(), maxRadius: 6, steps: 3, threads: 1)
        let many = try BlurLevels.build(text: "56", style: LabelStyle(), maxRadius: 6, steps: 3, threads: 4)
        #expect(one == many)
    }

    @Test func apngHoldsEveryFrame() throws {
        let frames = try BlurLevels.build(text: "56.00 €", style: LabelStyle(), maxRadius: 6, steps: 3)
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
        let frames = try BlurLevels.build(text: "56.00 €", style: LabelStyle(), maxRadius: 20, steps: 20)
        assertGolden(frames[0], named: "animation-first-frame", options: .exact)
        assertGolden(frames[20], named: "animation-last-frame", options: .exact)
    }
}
