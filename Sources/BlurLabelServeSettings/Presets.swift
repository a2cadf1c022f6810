import BlurLabelCLI

/// Named sets of label options a server is configured with (`--preset tag=size:32/radius:6`,
/// `BLURLABEL_PRESETS`), which a URL names with `preset:tag`; with `only` (`--only-presets`) a URL
/// may name a preset and nothing else, so σ and size are fixed by configuration (imgproxy's
/// presets and `ONLY_PRESETS`).
package struct Presets: Sendable {
    package typealias Failure = URLLabelOptions.Failure

    /// The URL option that names a preset.
    package static let option = "preset"

    private var definitions: [(name: String, pairs: [URLPairs.Pair])] = []
    /// Refuse every URL option but `preset`.
    package var only = false

    package init() {}

    /// The presets' names, in the order defined.
    package var names: [String] { definitions.map(\.name) }

    /// Adds `NAME=name:value/name:value…` (values percent-encoded as in a URL); a later
    /// definition of a name replaces an earlier one. `source` names the option or variable.
    package mutating func add(_ definition: String, from source: String) throws(Failure) {
        guard let equals = definition.firstIndex(of: "=") else {
            throw Failure("\(source) needs NAME=name:value/..., got '\(definition)'")
        }
        let name = String(definition[..<equals])
        guard Self.isName(name) else {
            throw Failure(
                "\(source): a preset's name is letters, digits, '-' and '_' (at most 64), got '\(name)'"
            )
        }
        let body = definition[definition.index(after: equals)...]
        let pairs: [URLPairs.Pair]
        do throws(Failure) {
            pairs = try URLPairs.parse(body.split(separator: "/", omittingEmptySubsequences: true))
            guard !pairs.contains(where: { $0.name == Self.option }) else {
                throw Failure("a preset cannot name another preset")
            }
            // Checked as a label's options are, with a one-character text: a value out of its range
            // stops the server now rather than every request later.
            try URLLabelOptions.check(try URLLabelOptions.options(pairs), text: "0")
        } catch {
            throw Failure("\(source): preset '\(name)': \(error.description)")
        }
        definitions.removeAll { $0.name == name }
        definitions.append((name, pairs))
    }

    /// Adds each `;`-separated definition of an environment variable's `text`.
    package mutating func add(list text: String, from source: String) throws(Failure) {
        for definition in text.split(separator: ";", omittingEmptySubsequences: true) {
            try add(String(definition), from: source)
        }
    }

    /// A URL's pairs with its `preset:NAME` replaced by the preset's options; the URL's own
    /// options override the preset's. With `only`, any option but `preset` is refused.
    package func expanded(_ pairs: [URLPairs.Pair]) throws(Failure) -> [URLPairs.Pair] {
        if only, let other = pairs.first(where: { $0.name != Self.option }) {
            throw Failure("option '\(other.name)' refused: this server takes preset:NAME only (--only-presets)")
        }
        let named = pairs.filter { $0.name == Self.option }
        guard let preset = named.first else { return pairs }
        guard named.count == 1 else { throw Failure("option 'preset' given more than once") }
        guard let definition = definitions.first(where: { $0.name == preset.value }) else {
            throw Failure("unknown preset '\(Self.isName(preset.value) ? preset.value : "?")'")
        }
        let own = pairs.filter { $0.name != Self.option }
        return definition.pairs.filter { given in !own.contains { $0.name == given.name } } + own
    }

    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { c in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "-")
                    || c == UInt8(ascii: "_")
            }
    }
}
