import Testing

@testable import BlurLabelServe

/// A label path is cut at its `/` and `.` bytes, as a URL's segments are, whatever Unicode
/// characters a segment holds (a combining mark after a `/` does not hide it).
@Suite("Label paths cut at their bytes")
struct LabelPathSplitTests {
    @Test func signatureAndRest() throws {
        let (signature, rest) = try #require(LabelPath.split("/SIG/size:32/MTIz.png"))
        #expect(signature == "SIG")
        #expect(rest == "/size:32/MTIz.png")
        #expect(LabelPath.split("SIG/size:32") == nil)
        #expect(LabelPath.split("/SIG-without-rest") == nil)
        let (empty, emptyRest) = try #require(LabelPath.split("//x"))
        #expect(empty.isEmpty && emptyRest == "/x")
    }

    @Test func segmentsKeepEmptyOnesAndSplitBeforeCombiningMarks() {
        #expect(LabelPath.segments("/a/b//c.png") == ["a", "b", "", "c.png"])
        #expect(LabelPath.segments("/") == [""])
        #expect(LabelPath.segments("") == [])
        // "/" + U+0301 is one Character; the URL still has a segment boundary there.
        #expect(LabelPath.segments("/é/\u{301}x/t.png") == ["é", "\u{301}x", "t.png"])
        #expect(LabelPath.split("/S/\u{301}a/t.png")?.rest == "/\u{301}a/t.png")
    }

    @Test func formatFromTheLastDot() {
        #expect(LabelPath.textAndFormat("MTIz.webp")?.format == .webp())
        #expect(LabelPath.textAndFormat("MTIz.png")?.text == "MTIz")
        #expect(LabelPath.textAndFormat("a.b.avif")?.text == "a.b")
        #expect(LabelPath.textAndFormat("MTIz")?.format == nil)
        #expect(LabelPath.textAndFormat("MTIz.auto")?.format == nil)
        #expect(LabelPath.textAndFormat("MTIz.gif") == nil)
        #expect(LabelPath.textAndFormat(".png") == nil)
        #expect(LabelPath.negotiates("/S/size:32/MTIz"))
        #expect(!LabelPath.negotiates("/S/size:32/MTIz.png"))
    }
}
