import BlurLabelCLI
import BlurLabelServeSettings
import Testing

@testable import BlurLabelServe

/// `blurlabel sign --encrypt -`: the secret comes from standard input, never argv.
@Suite("sign TEXT from standard input")
struct SignStandardInputTests {
    @Test func dashReadsTheTextFromStandardInput() throws {
        for given in ["12.99 €\n", "12.99 €", "12.99 €\r\n"] {
            guard
                case let .sign(request) = try SignRequest.parse(
                    ["-", "--encrypt"],
                    standardInput: { Array(given.utf8) }
                )
            else {
                Issue.record("no request")
                return
            }
            #expect(request.text == "12.99 €" && request.encrypt)
        }
        // Only one final line break goes: a two-line label keeps its inner one.
        guard case let .sign(twoLines) = try SignRequest.parse(["-"], standardInput: { Array("a\nb\n\n".utf8) })
        else { return }
        #expect(twoLines.text == "a\nb\n")
        // A text given in argv is not read from standard input.
        var read = false
        _ = try SignRequest.parse(
            ["9.99"],
            standardInput: {
                read = true
                return []
            }
        )
        #expect(!read)
    }

    @Test func badStandardInputIsOneClearError() {
        let cases: [([UInt8], String)] = [
            ([0xFF, 0xFE], "not valid UTF-8"), (Array("\n".utf8), "is empty"), ([], "is empty"),
        ]
        for (bytes, message) in cases {
            do {
                _ = try SignRequest.parse(["-", "--encrypt"], standardInput: { bytes })
                Issue.record("\(bytes) was taken")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
        // The options are checked as for a text in argv.
        #expect(throws: (any Error).self) {
            try SignRequest.parse(["-", "--size", "5000"], standardInput: { Array("1".utf8) })
        }
    }
}
