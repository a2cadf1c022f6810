import BlurredLabelCore
import Foundation
import Testing

/// pixelmatch's own test images (ISC, Fixtures/pixelmatch/LICENSE) with the mismatch counts its
/// JavaScript gives: YIQ from v7.2.0, OKLab from the current source (commit c6fee35a). The counts
/// were recorded by Fixtures/pixelmatch/record-counts.sh (also in counts.txt); ours must equal
/// them pixel for pixel, with anti-aliasing excused and counted, at four thresholds.
@Suite("pixelmatch fixtures, count for count")
struct PixelmatchFixtureTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let a: String, b: String, metric: ComparisonMetric, threshold: Double, countAA: Bool, expected: Int
        init(_ a: String, _ b: String, _ metric: ComparisonMetric, _ threshold: Double, countAA: Bool, _ expected: Int)
        {
            self.a = a
            self.b = b
            self.metric = metric
            self.threshold = threshold
            self.countAA = countAA
            self.expected = expected
        }
        var testDescription: String { "\(a)/\(b) \(metric) t=\(threshold)\(countAA ? " AA counted" : "")" }
    }

    static let cases: [Case] = [
        .init("1a", "1b", .yiq, 0, countAA: false, 10279),
        .init("1a", "1b", .yiq, 0, countAA: true, 12933),
        .init("1a", "1b", .yiq, 0.05, countAA: false, 143),
        .init("1a", "1b", .yiq, 0.05, countAA: true, 251),
        .init("1a", "1b", .yiq, 0.1, countAA: false, 106),
        .init("1a", "1b", .yiq, 0.1, countAA: true, 167),
        .init("1a", "1b", .yiq, 0.2, countAA: false, 69),
        .init("1a", "1b", .yiq, 0.2, countAA: true, 122),
        .init("1a", "1b", .oklab, 0, countAA: false, 10279),
        .init("1a", "1b", .oklab, 0, countAA: true, 12933),
        .init("1a", "1b", .oklab, 0.05, countAA: false, 154),
        .init("1a", "1b", .oklab, 0.05, countAA: true, 273),
        .init("1a", "1b", .oklab, 0.1, countAA: false, 120),
        .init("1a", "1b", .oklab, 0.1, countAA: true, 186),
        .init("1a", "1b", .oklab, 0.2, countAA: false, 94),
        .init("1a", "1b", .oklab, 0.2, countAA: true, 148),
        .init("2a", "2b", .yiq, 0, countAA: false, 26939),
        .init("2a", "2b", .yiq, 0, countAA: true, 31695),
        .init("2a", "2b", .yiq, 0.05, countAA: false, 12437),
        .init("2a", "2b", .yiq, 0.05, countAA: true, 13090),
        .init("2a", "2b", .yiq, 0.1, countAA: false, 9730),
        .init("2a", "2b", .yiq, 0.1, countAA: true, 10010),
        .init("2a", "2b", .yiq, 0.2, countAA: false, 2729),
        .init("2a", "2b", .yiq, 0.2, countAA: true, 2790),
        .init("2a", "2b", .oklab, 0, countAA: false, 26939),
        .init("2a", "2b", .oklab, 0, countAA: true, 31695),
        .init("2a", "2b", .oklab, 0.05, countAA: false, 12821),
        .init("2a", "2b", .oklab, 0.05, countAA: true, 13548),
        .init("2a", "2b", .oklab, 0.1, countAA: false, 10424),
        .init("2a", "2b", .oklab, 0.1, countAA: true, 10756),
        .init("2a", "2b", .oklab, 0.2, countAA: false, 3039),
        .init("2a", "2b", .oklab, 0.2, countAA: true, 3120),
        .init("3a", "3b", .yiq, 0, countAA: false, 374),
        .init("3a", "3b", .yiq, 0, countAA: true, 583),
        .init("3a", "3b", .yiq, 0.05, countAA: false, 212),
        .init("3a", "3b", .yiq, 0.05, countAA: true, 404),
        .init("3a", "3b", .yiq, 0.1, countAA: false, 178),
        .init("3a", "3b", .yiq, 0.1, countAA: true, 344),
        .init("3a", "3b", .yiq, 0.2, countAA: false, 91),
        .init("3a", "3b", .yiq, 0.2, countAA: true, 222),
        .init("3a", "3b", .oklab, 0, countAA: false, 374),
        .init("3a", "3b", .oklab, 0, countAA: true, 583),
        .init("3a", "3b", .oklab, 0.05, countAA: false, 220),
        .init("3a", "3b", .oklab, 0.05, countAA: true, 417),
        .init("3a", "3b", .oklab, 0.1, countAA: false, 200),
        .init("3a", "3b", .oklab, 0.1, countAA: true, 366),
        .init("3a", "3b", .oklab, 0.2, countAA: false, 92),
        .init("3a", "3b", .oklab, 0.2, countAA: true, 223),
        .init("4a", "4b", .yiq, 0, countAA: false, 53975),
        .init("4a", "4b", .yiq, 0, countAA: true, 69117),
        .init("4a", "4b", .yiq, 0.05, countAA: false, 36049),
        .init("4a", "4b", .yiq, 0.05, countAA: true, 41623),
        .init("4a", "4b", .yiq, 0.1, countAA: false, 6889),
        .init("4a", "4b", .yiq, 0.1, countAA: true, 10002),
        .init("4a", "4b", .yiq, 0.2, countAA: false, 252),
        .init("4a", "4b", .yiq, 0.2, countAA: true, 392),
        .init("4a", "4b", .oklab, 0, countAA: false, 53975),
        .init("4a", "4b", .oklab, 0, countAA: true, 69117),
        .init("4a", "4b", .oklab, 0.05, countAA: false, 36563),
        .init("4a", "4b", .oklab, 0.05, countAA: true, 42506),
        .init("4a", "4b", .oklab, 0.1, countAA: false, 7616),
        .init("4a", "4b", .oklab, 0.1, countAA: true, 11078),
        .init("4a", "4b", .oklab, 0.2, countAA: false, 1639),
        .init("4a", "4b", .oklab, 0.2, countAA: true, 2759),
        .init("5a", "5b", .yiq, 0, countAA: false, 6),
        .init("5a", "5b", .yiq, 0, countAA: true, 256),
        .init("5a", "5b", .yiq, 0.05, countAA: false, 6),
        .init("5a", "5b", .yiq, 0.05, countAA: true, 256),
        .init("5a", "5b", .yiq, 0.1, countAA: false, 6),
        .init("5a", "5b", .yiq, 0.1, countAA: true, 208),
        .init("5a", "5b", .yiq, 0.2, countAA: false, 6),
        .init("5a", "5b", .yiq, 0.2, countAA: true, 169),
        .init("5a", "5b", .oklab, 0, countAA: false, 0),
        .init("5a", "5b", .oklab, 0, countAA: true, 256),
        .init("5a", "5b", .oklab, 0.05, countAA: false, 0),
        .init("5a", "5b", .oklab, 0.05, countAA: true, 246),
        .init("5a", "5b", .oklab, 0.1, countAA: false, 0),
        .init("5a", "5b", .oklab, 0.1, countAA: true, 208),
        .init("5a", "5b", .oklab, 0.2, countAA: false, 0),
        .init("5a", "5b", .oklab, 0.2, countAA: true, 167),
        .init("6a", "6b", .yiq, 0, countAA: false, 51),
        .init("6a", "6b", .yiq, 0, countAA: true, 4900),
        .init("6a", "6b", .yiq, 0.05, countAA: false, 51),
        .init("6a", "6b", .yiq, 0.05, countAA: true, 4900),
        .init("6a", "6b", .yiq, 0.1, countAA: false, 51),
        .init("6a", "6b", .yiq, 0.1, countAA: true, 4900),
        .init("6a", "6b", .yiq, 0.2, countAA: false, 51),
        .init("6a", "6b", .yiq, 0.2, countAA: true, 2556),
        .init("6a", "6b", .oklab, 0, countAA: false, 51),
        .init("6a", "6b", .oklab, 0, countAA: true, 4900),
        .init("6a", "6b", .oklab, 0.05, countAA: false, 51),
        .init("6a", "6b", .oklab, 0.05, countAA: true, 4900),
        .init("6a", "6b", .oklab, 0.1, countAA: false, 38),
        .init("6a", "6b", .oklab, 0.1, countAA: true, 4610),
        .init("6a", "6b", .oklab, 0.2, countAA: false, 37),
        .init("6a", "6b", .oklab, 0.2, countAA: true, 3017),
        .init("7a", "7b", .yiq, 0, countAA: false, 6325),
        .init("7a", "7b", .yiq, 0, countAA: true, 7575),
        .init("7a", "7b", .yiq, 0.05, countAA: false, 3016),
        .init("7a", "7b", .yiq, 0.05, countAA: true, 3457),
        .init("7a", "7b", .yiq, 0.1, countAA: false, 2448),
        .init("7a", "7b", .yiq, 0.1, countAA: true, 2737),
        .init("7a", "7b", .yiq, 0.2, countAA: false, 1823),
        .init("7a", "7b", .yiq, 0.2, countAA: true, 1990),
        .init("7a", "7b", .oklab, 0, countAA: false, 6325),
        .init("7a", "7b", .oklab, 0, countAA: true, 7575),
        .init("7a", "7b", .oklab, 0.05, countAA: false, 3032),
        .init("7a", "7b", .oklab, 0.05, countAA: true, 3497),
        .init("7a", "7b", .oklab, 0.1, countAA: false, 2440),
        .init("7a", "7b", .oklab, 0.1, countAA: true, 2728),
        .init("7a", "7b", .oklab, 0.2, countAA: false, 1798),
        .init("7a", "7b", .oklab, 0.2, countAA: true, 1965),
        .init("8a", "5b", .yiq, 0, countAA: false, 32896),
        .init("8a", "5b", .yiq, 0, countAA: true, 32896),
        .init("8a", "5b", .yiq, 0.05, countAA: false, 32896),
        .init("8a", "5b", .yiq, 0.05, countAA: true, 32896),
        .init("8a", "5b", .yiq, 0.1, countAA: false, 32896),
        .init("8a", "5b", .yiq, 0.1, countAA: true, 32896),
        .init("8a", "5b", .yiq, 0.2, countAA: false, 32896),
        .init("8a", "5b", .yiq, 0.2, countAA: true, 32896),
        .init("8a", "5b", .oklab, 0, countAA: false, 32896),
        .init("8a", "5b", .oklab, 0, countAA: true, 32896),
        .init("8a", "5b", .oklab, 0.05, countAA: false, 32896),
        .init("8a", "5b", .oklab, 0.05, countAA: true, 32896),
        .init("8a", "5b", .oklab, 0.1, countAA: false, 32896),
        .init("8a", "5b", .oklab, 0.1, countAA: true, 32896),
        .init("8a", "5b", .oklab, 0.2, countAA: false, 32896),
        .init("8a", "5b", .oklab, 0.2, countAA: true, 32896),
    ]

    static func fixture(_ name: String) throws -> Image {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "png", subdirectory: "Fixtures/pixelmatch")
        )
        return try PNGDecoder.decode(contentsOf: url.path)
    }

    @Test(arguments: cases)
    func countMatchesPixelmatch(_ c: Case) throws {
        let comparison = ImageComparison(threshold: c.threshold, detectAntialiasing: !c.countAA, metric: c.metric)
        let result = try comparison.compare(expected: try Self.fixture(c.a), actual: try Self.fixture(c.b))
        #expect(result.differentPixels == c.expected)
    }

    /// pixelmatch's own diff pictures (its current source, default colours): ours must be the same bytes.
    @Test(
        "diff pictures equal pixelmatch's",
        arguments: [
            ("1a", "1b", 0.05, "1diff"), ("1a", "1b", 0.1, "1diffdefaultthreshold"), ("3a", "3b", 0.05, "3diff"),
            ("4a", "4b", 0.05, "4diff"), ("5a", "5b", 0.05, "5diff"), ("6a", "6b", 0.05, "6diff"),
            ("8a", "5b", 0.05, "8diff"),
        ]
    )
    func diffPictureMatchesPixelmatch(_ a: String, _ b: String, _ threshold: Double, _ picture: String) throws {
        let comparison = ImageComparison(threshold: threshold, metric: .oklab)
        let expected = try Self.fixture(a)
        let diff = try comparison.diffImage(
            expected: expected,
            result: try comparison.compare(expected: expected, actual: try Self.fixture(b))
        )
        let theirs = try Self.fixture(picture)
        var mismatched = 0
        for i in 0..<(diff.width * diff.height) where diff.pixels[i * 4..<i * 4 + 4] != theirs.pixels[i * 4..<i * 4 + 4]
        { mismatched += 1 }
        #expect(mismatched == 0)
    }

    @Test(
        "8a against 5b: 32,896 pixels opaque white in one, transparent in the other, all differ",
        arguments: ComparisonMetric.allCases
    )
    func transparencyCounts(_ metric: ComparisonMetric) throws {
        let result = try ImageComparison(threshold: 0.05, metric: metric).compare(
            expected: try Self.fixture("8a"),
            actual: try Self.fixture("5b")
        )
        #expect(result.differentPixels == 32_896)
        #expect(!result.passes && !result.summary.contains("identical"))
    }
}
