import Foundation
import Testing

@testable import BlurredLabelCore

/// Secure mode never lays out the secret: one longer than the format is refused before anything
/// else, in a time and with a message that do not depend on its length; and its blur is at least
/// the legibility floor for its size, so the decoy never reads as a value.
@Suite("Secure labels: the format's length and the legibility floor")
struct SecureLimitsTests {
    func secureStyle(_ format: String = "##.## €", size: Double = 32) throws -> LabelStyle {
        var style = LabelStyle(typography: TextStyle(size: size), radius: .legibilityFloor(forSize: size))
        style.secure = SecureOptions(format: try SecretFormat(format), seed: .seed(7))
        return style
    }

    /// The least of `runs` timings of `body`, in seconds: the least is what the work costs, free
    /// of the other processes on the machine.
    func leastTime(runs: Int = 30, _ body: () -> Void) -> Double {
        var least = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            least = min(least, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return least
    }

    @Test func aSecretLongerThanTheFormatIsRefusedInTimeThatDoesNotDependOnIt() throws {
        let pipeline = LabelPipeline(style: try secureStyle("#####"))
        let short = "123456"
        let long = String(repeating: "7", count: 60_000)
        for secret in [short, long] {
            #expect(throws: SecureLabelError.textLongerThanFormat) { try pipeline.picture(of: secret) }
        }
        // Laying out 50,000 characters took 70 ms more than 6 (issue 45); the check reads at most
        // the format's length plus one.
        let shortTime = leastTime { _ = try? pipeline.picture(of: short) }
        let longTime = leastTime { _ = try? pipeline.picture(of: long) }
        #expect(longTime < shortTime * 3 + 0.000_2, "60,000 characters: \(longTime) s, 6: \(shortTime) s")
        // The message names no size: neither the text's nor the format's.
        let message = SecureLabelError.textLongerThanFormat.description
        #expect(message.filter(\.isNumber).isEmpty, "\(message)")
    }

    @Test func theFormatCountsUnicodeScalarsUpToItsOwnLength() throws {
        let format = try SecretFormat("##.## €")
        for admitted in ["56.00 €", "1.00 €", "", "99.99 €"] { try format.check(admitted) }
        for refused in ["100.00 €", "56.00 €!", "5\u{301}6.00 €"] {
            #expect(throws: SecureLabelError.textLongerThanFormat) { try format.check(refused) }
        }
    }

    @Test func aBlurUnderTheFloorIsRefusedWithTheFloorNamed() throws {
        var style = try secureStyle()
        style.radius = 2.5
        let floor = BlurRadius.legibilityFloor(forSize: 32)
        let expected = SecureLabelError.radiusBelowFloor(radius: 2.5, floor: floor.sigma, size: 32)
        #expect(throws: expected) { try LabelPipeline(style: style).picture(of: "80.18 €") }
        #expect(throws: expected) { try BlurredLabel(text: "80.18 €", style: style).blur() }
        #expect(throws: SecureLabelError.self) {
            try BlurLevelPlan(text: "80.18 €", style: style, maxRadius: 2.5, steps: 4)
        }
        #expect(expected.description.contains("at least \(floor.sigma)"), "\(expected.description)")
        // At the floor, and above it, the label is made; so is a plain label at 2.5.
        style.radius = floor
        _ = try LabelPipeline(style: style).picture(of: "80.18 €")
        _ = try BlurLevelPlan(text: "80.18 €", style: style, maxRadius: floor, steps: 4)
        _ = try LabelPipeline(style: LabelStyle(radius: 2.5)).picture(of: "80.18 €")
    }
}
