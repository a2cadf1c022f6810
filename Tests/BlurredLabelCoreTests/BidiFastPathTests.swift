import Testing

@testable import BlurLabelText
@testable import BlurredLabelCore

/// The itemizer's shortcuts give what the slow ways give: bidi levels without FriBiDi's
/// resolution for left-to-right text, and Latin-1's character traits from a table.
@Suite("Itemizer shortcuts")
struct BidiFastPathTests {
    /// FriBiDi's own levels, as `bidiLevels` computed them for every text before its shortcut.
    static func fribidiLevels(_ scalars: [UInt32], direction: TextDirection) -> ([UInt8], Bool) {
        Itemizer.resolvedLevels(scalars, types: Itemizer.bidiTypes(scalars), direction: direction)
    }

    @Test func levelsEqualFriBiDisForMixedTexts() {
        // Digits, separators, currency, brackets, Latin, marks, spaces and tabs, and now and then
        // Hebrew, Arabic, Arabic digits or an explicit embedding or isolate.
        let pool: [UInt32] =
            Array(0x20...0x7E) + [0x09, 0xA0, 0xA3, 0xA5, 0xE9, 0x20AC, 0x2212, 0x0301, 0x00AD, 0x2009, 0x3000]
        let rare: [UInt32] = [0x5D0, 0x5E9, 0x627, 0x644, 0x661, 0x6F1, 0x200F, 0x202B, 0x202E, 0x2067, 0x202A, 0x2066]
        var generator = SplitMix64(state: 44)  // the same texts every run
        var fast = 0
        for round in 0..<4000 {
            let length = Int.random(in: 1...12, using: &generator)
            let text = (0..<length).map { _ in
                round % 3 == 0 && Int.random(in: 0..<6, using: &generator) == 0
                    ? rare.randomElement(using: &generator)! : pool.randomElement(using: &generator)!
            }
            for direction in [TextDirection.auto, .ltr, .rtl] {
                let got = Itemizer.bidiLevels(text, direction: direction)
                let want = Self.fribidiLevels(text, direction: direction)
                #expect(got.0 == want.0 && got.1 == want.1, "\(text.map { String($0, radix: 16) }) \(direction)")
                if direction != .rtl && !text.contains(where: rare.contains) { fast += 1 }
            }
        }
        #expect(fast > 4000)  // the shortcut was taken, and often
    }

    @Test func latin1TraitsEqualThePropertiesTheyCameFrom() {
        for value in 0..<256 {
            let scalar = Unicode.Scalar(UInt8(value))
            #expect(Itemizer.joinsPrevious(scalar) == Itemizer.slowJoinsPrevious(scalar), "\(value)")
            #expect(Itemizer.isNeutral(scalar) == Itemizer.slowIsNeutral(scalar), "\(value)")
            #expect(Itemizer.isEmojiPresentation(scalar) == scalar.properties.isEmojiPresentation, "\(value)")
        }
        // Beyond Latin-1 the properties themselves answer: a combining mark, the euro, an emoji.
        #expect(Itemizer.joinsPrevious("\u{301}") && !Itemizer.isNeutral("\u{301}"))
        #expect(Itemizer.isNeutral("€") && !Itemizer.joinsPrevious("€"))
        #expect(Itemizer.isEmojiPresentation("😀") && !Itemizer.isEmojiPresentation("©"))
        #expect(Itemizer.joinsPrevious("\u{AD}"))  // the soft hyphen is a format character
    }
}
