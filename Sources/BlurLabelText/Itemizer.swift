import CFriBiDi
import CHarfBuzz

/// Splits a paragraph into runs of one bidi level, one script and one font.
///
/// Levels come from FriBiDi (HarfBuzz does no bidi); scripts from HarfBuzz's Unicode functions,
/// with common and inherited characters joining their neighbours; fonts from per-character
/// coverage through the chain (primary font first, then the built-in fallbacks).
enum Itemizer {
    struct Paragraph {
        let scalars: [UInt32]
        let levels: [UInt8]
        let isRightToLeft: Bool
        /// Runs in logical order.
        let runs: [TextRun]
        /// Characters no font in the chain has (drawn as the primary font's .notdef).
        let missing: [Unicode.Scalar]
    }

    /// `fonts` may be a lazy `FontChain`: a font is only loaded when a character is looked up in it.
    /// `system` is asked only for a character no font of `fonts` has (the system's fonts come last);
    /// the fonts it gives join the chain after `fonts` for the rest of the paragraph.
    static func itemize<Fonts: RandomAccessCollection<Font>>(
        _ scalars: [UInt32],
        direction: TextDirection,
        fonts: Fonts,
        scriptFonts: ScriptFonts = ScriptFonts(),
        system: (_ scalar: Unicode.Scalar, _ colour: Bool) -> Font? = { _, _ in nil }
    ) -> Paragraph where Fonts.Index == Int {
        let (levels, rtl) = bidiLevels(scalars, direction: direction)
        let scripts = resolvedScripts(scalars)
        var missing: [Unicode.Scalar] = []
        var fontIndices: [Int] = []
        // System fonts found for this paragraph, numbered after the chain's.
        var found: [Font] = []
        func font(_ index: Int) -> Font { index < fonts.count ? fonts[index] : found[index - fonts.count] }
        func index(of systemFont: Font) -> Int {
            if let known = found.firstIndex(where: { $0 === systemFont }) { return fonts.count + known }
            found.append(systemFont)
            return fonts.count + found.count - 1
        }
        for (position, value) in scalars.enumerated() {
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            let previous = fontIndices.last
            // An emoji shown as emoji by default, or asked for with U+FE0F, takes a colour font
            // first, as browsers do (Unicode TS #51); without one it falls back as any character.
            let wantsColour =
                isEmojiPresentation(scalar)
                || (position + 1 < scalars.count && scalars[position + 1] == 0xFE0F && scalar.properties.isEmoji)
            if wantsColour, let colourFont = system(scalar, true) {
                fontIndices.append(index(of: colourFont))
            } else if let preferred = scriptFonts[scripts[position]], fonts[preferred].glyph(for: scalar) != nil {
                fontIndices.append(preferred)
            } else if let previous, joinsPrevious(scalar), font(previous).glyph(for: scalar) != nil {
                fontIndices.append(previous)
            } else if let previous, isNeutral(scalar), !font(previous).isColorFont,
                font(previous).glyph(for: scalar) != nil
            {
                // (Not in a colour font: an emoji font's digits and spaces are keycap bases.)
                fontIndices.append(previous)
            } else if let previous, previous >= fonts.count, isIgnorable(scalar) {
                // A joiner or selector inside a system font's run (an emoji sequence) stays in it.
                fontIndices.append(previous)
            } else if let index = fonts.firstIndex(where: { $0.glyph(for: scalar) != nil }) {
                fontIndices.append(index)
            } else if !isIgnorable(scalar), let systemFont = system(scalar, false) {
                fontIndices.append(index(of: systemFont))
            } else {
                if !isIgnorable(scalar) { missing.append(scalar) }
                fontIndices.append(previous ?? 0)
            }
        }
        var runs: [TextRun] = []
        var start = 0
        for i in scalars.indices.dropFirst() + (scalars.isEmpty ? [] : [scalars.count])
        where i == scalars.count
            || levels[i] != levels[start] || scripts[i] != scripts[start] || fontIndices[i] != fontIndices[start]
        {
            runs.append(
                TextRun(range: start..<i, level: levels[start], script: scripts[start], font: font(fontIndices[start]))
            )
            start = i
        }
        return Paragraph(scalars: scalars, levels: levels, isRightToLeft: rtl, runs: runs, missing: missing)
    }

    /// Embedding levels per character and the paragraph's direction.
    static func bidiLevels(_ scalars: [UInt32], direction: TextDirection) -> ([UInt8], Bool) {
        guard !scalars.isEmpty else { return ([], direction == .rtl) }
        let types = bidiTypes(scalars)
        // Not right to left, and nothing right to left, Arabic or explicit in it (a price, a Latin
        // text): the paragraph is left to right and every character's level is 0 (rules P2-P3, W7,
        // N1-N2, I1), so FriBiDi's resolution is not run. `BidiFastPathTests` holds the two equal.
        if direction != .rtl && !types.contains(where: { bl_fribidi_type_may_raise_level($0) != 0 }) {
            return ([UInt8](repeating: 0, count: scalars.count), false)
        }
        return resolvedLevels(scalars, types: types, direction: direction)
    }

    /// FriBiDi's bidi type of each character.
    static func bidiTypes(_ scalars: [UInt32]) -> [FriBidiCharType] {
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: scalars.count)
        scalars.withUnsafeBufferPointer { text in
            fribidi_get_bidi_types(text.baseAddress, FriBidiStrIndex(scalars.count), &types)
        }
        return types
    }

    /// FriBiDi's resolution of the levels and the paragraph's direction, for any text.
    static func resolvedLevels(
        _ scalars: [UInt32],
        types: [FriBidiCharType],
        direction: TextDirection
    ) -> ([UInt8], Bool) {
        let count = scalars.count
        var base: FriBidiParType
        switch direction {
        case .auto: base = bl_fribidi_par_on()
        case .ltr: base = bl_fribidi_par_ltr()
        case .rtl: base = bl_fribidi_par_rtl()
        }
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        let ok = scalars.withUnsafeBufferPointer { text -> Bool in
            fribidi_get_bracket_types(text.baseAddress, FriBidiStrIndex(count), types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(count), &base, &levels) != 0
        }
        let rtl = bl_fribidi_dir_is_rtl(base) != 0
        guard ok else { return ([UInt8](repeating: rtl ? 1 : 0, count: count), rtl) }
        return (levels.map { UInt8(bitPattern: $0) }, rtl)
    }

    /// Scripts per character; common and inherited ones take the script before them (or, at the
    /// start, the first real script after them).
    static func resolvedScripts(_ scalars: [UInt32]) -> [hb_script_t] {
        let funcs = hb_unicode_funcs_get_default()
        var scripts = scalars.map { hb_unicode_script(funcs, $0) }
        var last: hb_script_t? = nil
        for i in scripts.indices {
            if scripts[i] == HB_SCRIPT_COMMON || scripts[i] == HB_SCRIPT_INHERITED || scripts[i] == HB_SCRIPT_UNKNOWN {
                if let last { scripts[i] = last }
            } else {
                last = scripts[i]
            }
        }
        let first =
            scripts.first { $0 != HB_SCRIPT_COMMON && $0 != HB_SCRIPT_INHERITED && $0 != HB_SCRIPT_UNKNOWN }
            ?? HB_SCRIPT_COMMON
        for i in scripts.indices {
            if scripts[i] == HB_SCRIPT_COMMON || scripts[i] == HB_SCRIPT_INHERITED || scripts[i] == HB_SCRIPT_UNKNOWN {
                scripts[i] = first
            } else {
                break
            }
        }
        return scripts
    }

    /// Marks, joiners and selectors stay with the character before them.
    static func joinsPrevious(_ s: Unicode.Scalar) -> Bool {
        s.value < 256 ? Latin1.traits[Int(s.value)] & Latin1.joinsPrevious != 0 : slowJoinsPrevious(s)
    }

    /// Spaces, digits and punctuation keep the current font when it has them.
    static func isNeutral(_ s: Unicode.Scalar) -> Bool {
        s.value < 256 ? Latin1.traits[Int(s.value)] & Latin1.isNeutral != 0 : slowIsNeutral(s)
    }

    /// Shown as emoji by default (Unicode's Emoji_Presentation).
    static func isEmojiPresentation(_ s: Unicode.Scalar) -> Bool {
        s.value < 256 ? Latin1.traits[Int(s.value)] & Latin1.isEmojiPresentation != 0 : s.properties.isEmojiPresentation
    }

    /// The three answers above for U+0000 to U+00FF, written out (`BidiFastPathTests` holds them to
    /// the Unicode properties they came from): a price tag's characters are nearly all there, one
    /// property lookup in the standard library costs about 300 instructions (7 K a serve request
    /// before), and making the table at the first label would cost a one-label `render` 8% more.
    enum Latin1 {
        static let joinsPrevious: UInt8 = 1
        static let isNeutral: UInt8 = 2
        static let isEmojiPresentation: UInt8 = 4
        static let traits: [UInt8] = [
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
            2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            2, 2, 2, 2, 2, 2, 0, 2, 0, 0, 0, 0, 2, 1, 0, 0, 0, 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 2,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0,
        ]
    }

    static func slowJoinsPrevious(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark, .format: return true
        default: return (0xFE00...0xFE0F).contains(s.value)
        }
    }

    static func slowIsNeutral(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .spaceSeparator, .decimalNumber, .otherPunctuation, .dashPunctuation, .openPunctuation,
            .closePunctuation, .mathSymbol, .currencySymbol:
            return true
        default: return false
        }
    }

    private static func isIgnorable(_ s: Unicode.Scalar) -> Bool {
        s.properties.isDefaultIgnorableCodePoint || s.properties.generalCategory == .control
    }

    /// Run indices in visual (left to right) order, by rule L2 of the bidi algorithm.
    static func visualOrder(_ runs: [TextRun]) -> [Int] {
        var order = Array(runs.indices)
        guard let highest = runs.map(\.level).max() else { return order }
        let lowestOdd = runs.map(\.level).filter { $0 & 1 == 1 }.min() ?? (highest + 1)
        var level = highest
        while level >= lowestOdd && level > 0 {
            var i = 0
            while i < order.count {
                if runs[order[i]].level >= level {
                    var j = i
                    while j < order.count && runs[order[j]].level >= level { j += 1 }
                    order[i..<j].reverse()
                    i = j
                } else {
                    i += 1
                }
            }
            level -= 1
        }
        return order
    }
}
