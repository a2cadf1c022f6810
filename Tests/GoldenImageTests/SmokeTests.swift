import Testing
@testable import GoldenImage
@Test func smoke() { #expect(true) }
