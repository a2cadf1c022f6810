import BlurredLabelCore
import Foundation
import Testing

@testable import GoldenImage

func square(size: Int = 20, at offset: Double = 6, fill: Color = .black) throws -> Image {
    // A square with anti-aliased edges at a sub-pixel offset.
    var image = try Image(width: size, height: size, fill: .white)
    for y in 0..<size {
        for x in 0..<size {
            let cover =
                max(0, min(1, Double(x) + 1 - offset)) * max(0, min(1, offset + 8 - Double(x)))
                * max(0, min(1, Double(y) + 1 - 6)) * max(0, min(1, 14 - Double(y)))
            let v = UInt8((255 * (1 - cover)).rounded())
            let i = (y * size + x) * 4
            image[byte: i] = v
            image[byte: i + 1] = v
            image[byte: i + 2] = v
        }
    }
    _ = fill
    return image
}

func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("golden-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite("Image comparison")
struct ComparisonTests {
    @Test func identicalImagesTakeTheFastPath() throws {
        let image = try square()
        let result = try ImageComparison().compare(expected: image, actual: image)
        #expect(result.isIdentical && result.passes && result.differentPixels == 0)
    }

    @Test("threshold edges: a grey step just under and just over the threshold")
    func thresholdEdges() throws {
        let white = try Image(width: 4, height: 4, fill: .white)
        // Grey g against white differs in Y only: distance (255-g)·sqrt(0.5053/35215), 0.0038 a level.
        func grey(_ v: UInt8) throws -> Image { try Image(width: 4, height: 4, fill: Color(red: v, green: v, blue: v)) }
        let comparison = ImageComparison(threshold: 0.1, detectAntialiasing: false, metric: .yiq)
        let under = try comparison.compare(expected: white, actual: try grey(235))  // 0.076
        let over = try comparison.compare(expected: white, actual: try grey(225))  // 0.114
        #expect(under.passes && under.differentPixels == 0)
        #expect(!over.passes && over.differentPixels == 16)
        #expect(abs(over.maxDistance - 30 * (0.5053 / 35215).squareRoot()) < 1e-6)
    }

    @Test("summary: identical only for identical bytes; below-threshold differences are counted")
    func summaryWording() throws {
        let white = try Image(width: 4, height: 4, fill: .white)
        var nearly = white
        nearly[byte: 0] = 254
        nearly[byte: 4] = 253
        #expect(try ImageComparison().compare(expected: white, actual: white).summary == "images are identical")
        let within = try ImageComparison().compare(expected: white, actual: nearly)
        #expect(within.passes && !within.isIdentical && within.differentPixels == 0)
        #expect(within.summary.hasPrefix("equal within the threshold: 2 pixels differ below it"))
        #expect(!within.summary.contains("identical"))
    }

    @Test(
        "transparency counts: a transparent label does not pass against a white one",
        arguments: ComparisonMetric.allCases
    )
    func transparentIsNotWhite(_ metric: ComparisonMetric) throws {
        let white = try Image(width: 5, height: 3, fill: .white)
        let clear = try Image(width: 5, height: 3)
        let result = try ImageComparison(metric: metric).compare(expected: white, actual: clear)
        #expect(result.differentPixels == 15 && !result.passes)
        // Blended over white instead of the checkerboard, they are the same colour (pixelmatch's checkerboard: false).
        let overWhite = try ImageComparison(metric: metric, checkerboard: false).compare(expected: white, actual: clear)
        #expect(overWhite.differentPixels == 0 && overWhite.summary.hasPrefix("equal within the threshold: 15 pixels"))
    }

    @Test("OKLab: pixelmatch's own single-pixel cases (near-black toe, issue #127 colour pairs)")
    func oklabSinglePixels() throws {
        func pair(_ p: (UInt8, UInt8, UInt8), _ q: (UInt8, UInt8, UInt8)) throws -> Int {
            try ImageComparison(metric: .oklab).compare(
                expected: try Image(width: 1, height: 1, fill: Color(red: p.0, green: p.1, blue: p.2)),
                actual: try Image(width: 1, height: 1, fill: Color(red: q.0, green: q.1, blue: q.2))
            ).differentPixels
        }
        #expect(try pair((0, 0, 0), (13, 13, 13)) == 0)
        #expect(try pair((0, 0, 0), (23, 23, 23)) == 1)
        #expect(try pair((41, 56, 157), (41, 56, 0)) == 1)
        #expect(try pair((39, 44, 92), (39, 44, 14)) == 1)
        #expect(try pair((0, 254, 252), (94, 254, 252)) == 0)
        #expect(try pair((0, 254, 252), (47, 254, 252)) == 0)
    }

    @Test func tolerancesInPixelsAndRatio() throws {
        let a = try Image(width: 10, height: 10, fill: .white)
        var b = a
        for i in 0..<5 {
            b[byte: i * 4] = 0
            b[byte: i * 4 + 1] = 0
            b[byte: i * 4 + 2] = 0
        }
        #expect(
            try !ImageComparison(maxDiffPixels: 4, detectAntialiasing: false).compare(expected: a, actual: b).passes
        )
        #expect(try ImageComparison(maxDiffPixels: 5, detectAntialiasing: false).compare(expected: a, actual: b).passes)
        #expect(
            try ImageComparison(maxDiffRatio: 0.05, detectAntialiasing: false).compare(expected: a, actual: b).passes
        )
        #expect(
            try !ImageComparison(maxDiffRatio: 0.04, detectAntialiasing: false).compare(expected: a, actual: b).passes
        )
    }

    @Test func aSubPixelShiftOfAnEdgeIsAntialiasing() throws {
        let a = try square(at: 6.0)
        let b = try square(at: 6.4)
        let strict = try ImageComparison(threshold: 0.05, detectAntialiasing: false).compare(expected: a, actual: b)
        let lenient = try ImageComparison(threshold: 0.05).compare(expected: a, actual: b)
        #expect(strict.differentPixels > 0)
        #expect(lenient.antialiasedPixels > 0)
        #expect(lenient.differentPixels < strict.differentPixels)
    }

    @Test func sizeMismatchNamesBothSizes() throws {
        #expect {
            try ImageComparison().compare(
                expected: try Image(width: 3, height: 4),
                actual: try Image(width: 5, height: 6)
            )
        } throws: { error in
            "\(error)" == "size mismatch: expected 3x4, actual 5x6"
        }
    }

    @Test func diffPictureMarksDifferencesRed() throws {
        let a = try Image(width: 3, height: 1, fill: .white)
        var b = a
        b[byte: 4] = 0
        b[byte: 5] = 0
        b[byte: 6] = 0
        let comparison = ImageComparison(detectAntialiasing: false)
        let result = try comparison.compare(expected: a, actual: b)
        let diff = try comparison.diffImage(expected: a, result: result)
        #expect(diff[1, 0] == (255, 0, 0, 255))
        // One red pixel is hard to find in a picture: the summary says where it is.
        #expect(result.bounds == DifferenceBounds(minX: 1, minY: 0, maxX: 1, maxY: 0))
        #expect(
            result.summary.hasPrefix("1 of 3 pixels differ (33.3333%) at (1, 0), largest distance"),
            "\(result.summary)"
        )
        var c = b
        c[byte: 4 * 2] = 0
        c[byte: 4 * 2 + 1] = 0
        #expect(try comparison.compare(expected: a, actual: c).summary.contains(" within x 1–2, y 0–0, "))
        #expect(diff[0, 0].r == diff[0, 0].g && diff[0, 0].g == diff[0, 0].b)
    }

    @Test func fourKComparisonRuns() throws {
        // Speed is measured by the benchmark; this pins that a 4K comparison works at all.
        let a = try Image(width: 3840, height: 2160, fill: .white)
        var b = a
        b[byte: 1000] = 0
        #expect(try ImageComparison(detectAntialiasing: false).compare(expected: a, actual: b).differentPixels == 1)
    }
}

@Suite("Golden assertions and record modes")
struct GoldenAssertionTests {
    func options(_ mode: RecordMode, _ golden: URL, _ artifacts: URL) -> GoldenOptions {
        GoldenOptions(folder: golden.path, record: mode, artifacts: artifacts.path)
    }

    @Test func missingWritesTheReferenceAndFails() throws {
        let golden = try folder()
        let artifacts = try folder()
        let outcome = GoldenChecker(options: options(.missing, golden, artifacts), filePath: #filePath).check(
            try square(),
            named: "sq"
        )
        #expect(!outcome.passed && outcome.referenceWritten)
        #expect(FileManager.default.fileExists(atPath: golden.appendingPathComponent("sq.png").path))
        let again = GoldenChecker(options: options(.missing, golden, artifacts), filePath: #filePath).check(
            try square(),
            named: "sq"
        )
        #expect(again.passed && !again.referenceWritten)
    }

    @Test func neverWritesNothing() throws {
        let golden = try folder()
        let artifacts = try folder()
        let outcome = GoldenChecker(options: options(.never, golden, artifacts), filePath: #filePath).check(
            try square(),
            named: "sq"
        )
        #expect(!outcome.passed && !outcome.referenceWritten && outcome.message.contains("never"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: golden.path).isEmpty)
    }

    @Test func failedRewritesOnlyFailures() throws {
        let golden = try folder()
        let artifacts = try folder()
        _ = GoldenChecker(options: options(.missing, golden, artifacts), filePath: #filePath).check(
            try square(at: 3),
            named: "a"
        )
        _ = GoldenChecker(options: options(.missing, golden, artifacts), filePath: #filePath).check(
            try square(at: 3),
            named: "b"
        )
        let pass = GoldenChecker(options: options(.failed, golden, artifacts), filePath: #filePath).check(
            try square(at: 3),
            named: "a"
        )
        let fail = GoldenChecker(options: options(.failed, golden, artifacts), filePath: #filePath).check(
            try square(at: 9),
            named: "b"
        )
        #expect(pass.passed && !pass.referenceWritten)
        #expect(!fail.passed && fail.referenceWritten)
        #expect(try PNGDecoder.decode(contentsOf: golden.appendingPathComponent("b.png").path) == square(at: 9))
    }

    @Test func allRewritesEverythingThatChanged() throws {
        let golden = try folder()
        let artifacts = try folder()
        _ = GoldenChecker(options: options(.missing, golden, artifacts), filePath: #filePath).check(
            try square(at: 3),
            named: "a"
        )
        let same = GoldenChecker(options: options(.all, golden, artifacts), filePath: #filePath).check(
            try square(at: 3),
            named: "a"
        )
        let changed = GoldenChecker(options: options(.all, golden, artifacts), filePath: #filePath).check(
            try square(at: 8),
            named: "a"
        )
        #expect(same.passed && !same.referenceWritten)
        #expect(!changed.passed && changed.referenceWritten)
    }

    @Test func failureWritesArtifactsAndSaysHowMuch() throws {
        let golden = try folder()
        let artifacts = try folder()
        _ = GoldenChecker(options: options(.missing, golden, artifacts), filePath: #filePath).check(
            try square(at: 3),
            named: "sq"
        )
        let outcome = GoldenChecker(options: options(.never, golden, artifacts), filePath: #filePath).check(
            try square(at: 9),
            named: "sq"
        )
        #expect(!outcome.passed)
        #expect(outcome.message.contains("pixels differ") && outcome.message.contains("largest distance"))
        #expect(outcome.artifactPaths.count == 4)
        for path in outcome.artifactPaths {
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(outcome.message.contains(path))
        }
    }

    /// A golden's name cannot lead its reference or artifacts out of their folders.
    @Test func namesStayInsideTheirFolders() throws {
        let golden = try folder()
        let artifacts = try folder()
        for name in ["../escape", "/tmp/x", "", "a/../b", "a//b", "./a"] {
            let outcome = GoldenChecker(options: options(.missing, golden, artifacts), filePath: #filePath).check(
                try square(size: 4),
                named: name
            )
            #expect(
                !outcome.passed && !outcome.referenceWritten
                    && outcome.message.contains("a name must be a relative path"),
                "\(name)"
            )
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: golden.deletingLastPathComponent().appendingPathComponent("escape.png").path
            )
        )
    }

    @Test func sizeMismatchIsItsOwnMessage() throws {
        let golden = try folder()
        let artifacts = try folder()
        _ = GoldenChecker(options: options(.missing, golden, artifacts), filePath: #filePath).check(
            try square(size: 20),
            named: "sq"
        )
        let outcome = GoldenChecker(options: options(.never, golden, artifacts), filePath: #filePath).check(
            try square(size: 24),
            named: "sq"
        )
        #expect(outcome.message.contains("size mismatch: expected 20x20, actual 24x24; where they overlap (20x20): "))
        // The pictures are written as for any failure, the diff as large as both.
        #expect(outcome.artifactPaths.count == 4)
        let diff = try PNGDecoder.decode(
            contentsOf: try #require(outcome.artifactPaths.first { $0.hasSuffix("-diff.png") })
        )
        #expect(diff.width == 24 && diff.height == 24 && diff[23, 23] == (255, 0, 0, 255))
    }

    @Test func defaultFolderIsGoldenBesideThePackage() {
        let checker = GoldenChecker(options: GoldenOptions(), filePath: #filePath)
        #expect(checker.folder.hasSuffix("/Golden"))
        #expect(FileManager.default.fileExists(atPath: checker.folder.dropLast(6) + "Package.swift"))
    }

    @Test func reportsThroughSwiftTesting() throws {
        let golden = try folder()
        let artifacts = try folder()
        #expect(GoldenReporter.swiftTestingIsRunning)
        withKnownIssue {
            assertGolden(try square(), named: "reported", options: options(.never, golden, artifacts))
        }
    }

    @Test func pngDataOverload() throws {
        let golden = try folder()
        let artifacts = try folder()
        let data = try PNGEncoder().encode(try square())
        _ = GoldenChecker(options: options(.missing, golden, artifacts), filePath: #filePath).check(
            try square(),
            named: "data"
        )
        #expect(assertGolden(pngData: data, named: "data", options: options(.never, golden, artifacts)).passed)
    }
}
