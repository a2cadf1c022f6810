import CHarfBuzz

/// Which font of a chain takes a script (by its index in the chain): the embedded Noto fonts for
/// Arabic, Hebrew, Devanagari and Thai. A handful of pairs searched in order, not a Dictionary: the
/// first Dictionary keyed by a C enum makes the Swift runtime scan every protocol conformance in
/// the binary for its Hashable (about 0.25 M instructions, 5% of a one-label process's start).
struct ScriptFonts: Sendable {
    private var pairs: [(script: hb_script_t, font: Int)] = []

    /// Gives `script` to the chain's font at `font` (a script given twice keeps its first font).
    mutating func add(_ script: hb_script_t, font: Int) {
        if self[script] == nil { pairs.append((script, font)) }
    }

    /// The chain index of the font that takes `script`, if one does.
    subscript(script: hb_script_t) -> Int? {
        pairs.first { $0.script == script }?.font
    }
}
