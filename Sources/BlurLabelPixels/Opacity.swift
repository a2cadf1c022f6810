/// Whether every pixel of RGBA `words` (one pixel a little-endian word, alpha in the top byte)
/// is opaque: an AND over blocks of words (which vectorises), stopping at the first block with a
/// pixel that is not, so a picture with transparency is not read to its end (a 2048² RGBA
/// picture is 16 MB: reading it whole was a tenth of a σ 1 blur). The blur's opaque-picture
/// path and the PNG colour survey ask it.
package func allOpaque(_ words: UnsafeBufferPointer<UInt32>) -> Bool {
    let blockWords = 2048
    var start = 0
    while start < words.count {
        let end = min(start + blockWords, words.count)
        var all: UInt32 = 0xFF00_0000
        for index in start..<end { all &= words[index] }
        if all >> 24 != 255 { return false }
        start = end
    }
    return true
}

extension Image {
    /// Whether every pixel is opaque.
    package var isOpaque: Bool { pixels.withUnsafeBytes { allOpaque($0.bindMemory(to: UInt32.self)) } }
}
