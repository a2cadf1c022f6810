/// The options a command line, a manifest line or a URL gave, by name without dashes (`size`,
/// `secure`...), each as given (`OptionValue`); an `Option` reads its own, typed and checked.
package struct GivenOptions: Equatable, Sendable {
    /// Name and value pairs, one per name, sorted by name. A short list searched in order, not a
    /// Dictionary: the first Dictionary keyed by String makes the Swift runtime scan every protocol
    /// conformance in the binary (about 0.2 M instructions of a one-label process's start).
    private var entries: [(name: String, value: OptionValue)]

    package init() { entries = [] }

    package init(_ values: [String: OptionValue]) {
        entries = values.map { ($0.key, $0.value) }.sorted { $0.name < $1.name }
    }

    /// A parsed command line's options: a value as text (a repeated option's as a list of them),
    /// a flag as `true`.
    package init(_ arguments: ParsedArguments) {
        entries = []
        for option in arguments.given {
            let name = String(option.name.dropFirst(2))
            let value = option.value.map { OptionValue.text($0) } ?? .flag(true)
            guard let at = entries.firstIndex(where: { $0.name == name }) else {
                entries.append((name, value))
                continue
            }
            // Only a repeatable option gets here with a value (the parser refuses others).
            switch (entries[at].value, option.value) {
            case let (.text(first), next?): entries[at].value = .list([first, next])
            case let (.list(items), next?): entries[at].value = .list(items + [next])
            default: entries[at].value = value
            }
        }
        entries.sort { $0.name < $1.name }
    }

    subscript(name: String) -> OptionValue? { entries.first { $0.name == name }?.value }

    func has(_ name: String) -> Bool { self[name] != nil }

    /// Every value given as text (lists' items too), for `SecureMessages`.
    var textValues: [String] {
        entries.flatMap { entry -> [String] in
            switch entry.value {
            case let .text(text): return [text]
            case let .list(items): return items
            case .number, .flag: return []
            }
        }
    }

    package static func == (a: GivenOptions, b: GivenOptions) -> Bool {
        a.entries.elementsEqual(b.entries) { $0.name == $1.name && $0.value == $1.value }
    }
}
