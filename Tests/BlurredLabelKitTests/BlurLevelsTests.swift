import BlurredLabelKit
import Foundation
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

@Suite("Blur levels")
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
}
