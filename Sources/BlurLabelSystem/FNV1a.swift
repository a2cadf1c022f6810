/// FNV-1a, 64 bits, over a string's UTF-8: a short name for any text that is the same on every
/// run and machine (report file names, batch duplicate checks). Not for secrets or adversaries.
package func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}
