import Foundation
import Testing

@testable import BlurredLabelCore

/// The package's own replacements for full Foundation's string helpers (so the shipped binary
/// links only FoundationEssentials) give what Foundation gives, checked against Foundation here.
@Suite("Text helpers match full Foundation")
struct FoundationFreeTextTests {
    @Test func cFormatMatchesStringFormat() {
        #expect(cFormat("%.4f", 0.123456) == String(format: "%.4f", 0.123456))
        #expect(cFormat("threshold %g)", 0.1) == String(format: "threshold %g)", 0.1))
        #expect(cFormat("%g", 1e-7) == String(format: "%g", 1e-7))
        #expect(
            cFormat("%ld of %ld pixels differ (%.4f%%), ", 3, 12, 25.0)
                == String(format: "%d of %d pixels differ (%.4f%%), ", 3, 12, 25.0)
        )
        #expect(
            cFormat("%016llx.json", UInt64(0xcbf2_9ce4_8422_2325))
                == String(format: "%016llx.json", UInt64(0xcbf2_9ce4_8422_2325))
        )
        #expect(cFormat("%04X", UInt32(0x20AC)) == "20AC")
        #expect(cFormat("\\u%04x", UInt32(7)) == "\\u0007")
        #expect(cFormat("%.0f labels/s", 1234.5) == String(format: "%.0f labels/s", 1234.5))
        #expect(cFormat("no conversions") == "no conversions")
        #expect(cFormat("") == "")
    }

    @Test func whitespaceIsFoundationsWhitespaceSet() {
        let differing = (UInt32(0)..<0x11_0000).compactMap(Unicode.Scalar.init).filter { scalar in
            let text = "a" + String(scalar)
            return (text.trimmingWhitespace() == "a") != CharacterSet.whitespaces.contains(scalar)
        }
        #expect(differing.isEmpty, "\(differing.map { String($0.value, radix: 16) })")
    }

    @Test(arguments: ["", "  ", " a ", "\tx y\t", "\u{00A0}€\u{3000}", "\n a \n", "a\u{200B}", "\u{2003}\u{202F}b"])
    func trimmingMatchesWhitespaceSet(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text[...].trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: [
        "a.png", "it's <here>.png", "d/é f.png", "x:y;z?#%.png", "~!$&'()*+,-./=@_", "日本.png", "a\u{0}b", "[]{}|\\^`\"",
    ])
    func percentEncodingMatchesURLPathAllowed(name: String) {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":;?#%")
        #expect(percentEncodedFileName(name) == name.addingPercentEncoding(withAllowedCharacters: allowed))
    }

    @Test func shellQuotingEscapesQuotes() {
        #expect(shellQuoted("a'b") == #"'a'\''b'"#)
        #expect(shellQuoted("é") == "'é'")
        #expect(shellQuoted("A-z_0.9") == "A-z_0.9")
    }
}
