/// Whether every pixel of RGBA `words` (one pixel a little-endian word, alpha in the top byte)
/// is opaque: one AND over the words, which vectorises. The blur's opaque-picture path and the
/// PNG colour survey ask it.
package func allOpaque(_ words: UnsafeBufferPointer<UInt32>) -> Bool {
    var all: UInt32 = 0xFF00_0000
    for word in words { all &= word }
    return all >> 24 == 255
}

extension Image {
    /// Whether every pixel is opaque.
    package var isOpaque: Bool { pixels.withUnsafeBytes { allOpaque($0.bindMemory(to: UInt32.self)) } }
}
