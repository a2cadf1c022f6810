import Testing
@testable import BlurredLabelKit
@Test func smoke() { #expect(Color.white.alpha == 255) }
