/// FreeType's error codes (fterrdef.h) in words, for messages about a font file. Debian's
/// FreeType is built without its own error strings, so `FT_Error_String` returns nothing.
enum FreeTypeErrorText {
    /// What went wrong, for a person: "too short or damaged to be a font (... 0x55)".
    static func describe(_ code: Int32) -> String {
        let words: String
        switch code {
        case 0x01, 0x51: words = "the file cannot be opened"
        case 0x02: words = "not a font FreeType can read (an unknown format, or a font file cut short)"
        case 0x03: words = "the file is not a valid font (broken header)"
        case 0x04, 0x05: words = "an unsupported version of the font format"
        case 0x07: words = "the font uses a feature FreeType does not support"
        case 0x08, 0x09, 0x0A: words = "a table of the font is damaged"
        case 0x14, 0x15, 0x80...0x8F: words = "the font's glyph data is damaged"
        case 0x40: words = "out of memory while loading it"
        case 0x52...0x58: words = "too short or damaged to be a font (it ends where a font would go on)"
        default: words = "FreeType cannot load it"
        }
        return words + " (FreeType error 0x" + String(code, radix: 16) + ")"
    }
}
