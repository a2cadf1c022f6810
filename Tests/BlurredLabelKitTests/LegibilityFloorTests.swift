import BlurredLabelKit
import Foundation
import Testing

@testable import BlurredLabelCore

/// `BlurRadius.unreadable(forSize:)` against the floors `Benchmarks/run-legibility` measured
/// (Benchmarks/legibility-points.json: for each size, the smallest σ at which Tesseract read at
/// most 5% of the characters): never under a measured floor, and never far above it (a blur much
/// heavier than needed would be a floor no one uses).
@Suite("the legibility floor")
struct LegibilityFloorTests {
    struct Points: Decodable {
        struct Point: Decodable {
            let size: Double
            let sigma: Double
        }
        let limit: Double
        let points: [Point]
    }

    static func measured() throws -> Points {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Benchmarks/legibility-points.json").standardized
        return try JSONDecoder().decode(Points.self, from: Data(contentsOf: file))
    }

    @Test func theFormulaIsOnOrAboveEveryMeasuredFloorAndCloseToIt() throws {
        let data = try Self.measured()
        #expect(data.limit == 0.05 && data.points.count >= 8)
        #expect(Set(data.points.map(\.size)).isSuperset(of: [10, 16, 32, 64]))
        for point in data.points {
            let floor = BlurRadius.unreadable(forSize: point.size).sigma
            #expect(floor >= point.sigma, "\(point.size) px: the formula gives σ \(floor), measured \(point.sigma)")
            #expect(
                floor <= point.sigma * 1.25 + 0.5,
                "\(point.size) px: σ \(floor) is far above the measured \(point.sigma)"
            )
        }
    }

    @Test func theFloorGrowsWithTheSizeInTenths() {
        var previous = 0.0
        for size in stride(from: 1.0, through: 400, by: 0.25) {
            let sigma = BlurRadius.unreadable(forSize: size).sigma
            #expect(sigma >= previous && (sigma * 10 - (sigma * 10).rounded()).magnitude < 1e-9)
            previous = sigma
        }
        #expect(BlurRadius.unreadable(forSize: 32).sigma == 4.9)
        #expect(BlurRadius.unreadable(forSize: Limits.maximumFontSize) <= BlurRadius(checked: Limits.maximumRadius))
    }
}
