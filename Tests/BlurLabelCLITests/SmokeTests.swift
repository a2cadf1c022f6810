import Testing
@testable import BlurLabelCLI
@Test func smoke() { #expect(CommandLineTool.run([]) == 0) }
