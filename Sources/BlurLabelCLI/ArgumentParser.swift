/// A small, table-driven argument parser: each command's table is made from its `Option`
/// declarations, and parsing, `--help`, the man page, the completions and error messages all come
/// from that table.
package struct OptionSpec: Sendable {
    /// The name without dashes (`radius`), as a manifest line's key.
    let key: String
    /// A one-letter alias such as `-o`.
    var short: String? = nil
    /// What the value looks like in help (`SIGMA`); nil for a flag.
    var placeholder: String? = nil
    var repeatable = false
    /// The help text, made only when help, the man page, the completions or the docs ask: a
    /// command's table is built at every start, its help rarely.
    let describe: @Sendable () -> OptionText

    /// The long name, with its dashes: `--radius`.
    package var name: String { "--" + key }
    /// What the option does.
    var summary: String { describe().summary }
    /// The accepted values as help shows them (`0 to 1000`), nil for any.
    var accepted: String? { describe().accepted }
    /// The default as help shows it, nil for none.
    var shownDefault: String? { describe().shownDefault }

    /// The option's help line: what it does, then the values it accepts and its default.
    package var help: String {
        let text = describe()
        let facts = [text.accepted, text.shownDefault.map { "default " + $0 }].compactMap { $0 }
        return facts.isEmpty ? text.summary : text.summary + " (" + facts.joined(separator: "; ") + ")"
    }
}

/// An option's help text in its parts.
package struct OptionText: Sendable {
    package var summary: String
    var accepted: String? = nil
    var shownDefault: String? = nil
}

extension OptionSpec {
    /// A row written directly (tests): `name` with its dashes.
    init(
        name: String,
        short: String? = nil,
        value: String? = nil,
        repeatable: Bool = false,
        help: @autoclosure @escaping @Sendable () -> String
    ) {
        self.init(key: String(name.dropFirst(2)), short: short, placeholder: value, repeatable: repeatable) {
            OptionText(summary: help())
        }
    }
}

package struct CommandSpec: Sendable {
    package let name: String
    package let summary: String
    /// Names of the positional arguments, in order, as shown in usage.
    let positionals: [String]
    /// How many trailing positionals may be left out.
    var optionalPositionals = 0
    package let options: [OptionSpec]
    var details: String = ""

    package init(
        name: String,
        summary: String,
        positionals: [String],
        optionalPositionals: Int = 0,
        options: [OptionSpec],
        details: String = ""
    ) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.optionalPositionals = optionalPositionals
        self.options = options
        self.details = details
    }

    /// `--help`, which every command takes.
    static let helpOption = OptionSpec(name: "--help", short: "-h", help: "show this help")

    var usage: String {
        let positional = positionals.enumerated().map { i, p in
            i >= positionals.count - optionalPositionals ? "[\(p)]" : p
        }
        return (["blurlabel", name] + positional + ["[options]"]).joined(separator: " ")
    }

    package var help: String {
        var lines = ["usage: \(usage)", "", summary]
        if !details.isEmpty { lines += ["", details] }
        lines += ["", "options:"]
        let all = options + [Self.helpOption]
        for option in all {
            var left = option.short.map { "\($0), \(option.name)" } ?? "    \(option.name)"
            if let value = option.placeholder { left += " \(value)" }
            lines.append("  " + left.padded(to: max(left.count + 2, 28)) + option.help)
        }
        return lines.joined(separator: "\n")
    }
}

/// What a command line said, by option name. The options are a short list kept in the order
/// given, not a Dictionary or Set: the first Dictionary keyed by String makes the Swift runtime
/// scan every protocol conformance in the binary (about 0.2 M instructions at every start).
package struct ParsedArguments {
    /// An option as given: its canonical name and its value (nil for a flag).
    package struct Given {
        package let name: String
        package let value: String?
    }

    package var positionals: [String] = []
    package var given: [Given] = []
    package var wantsHelp = false

    /// The last value given for `name`.
    func value(_ name: String) -> String? { given.last { $0.name == name && $0.value != nil }?.value }
    /// Every value given for `name`, in order.
    func all(_ name: String) -> [String] { given.compactMap { $0.name == name ? $0.value : nil } }
    /// Whether `name` was given, as a flag or with a value.
    package func has(_ name: String) -> Bool { given.contains { $0.name == name } }
}

/// A command line that cannot be understood; the tool prints it and exits 2.
package struct UsageError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
    package init(message: String) { self.message = message }
}

extension CommandSpec {
    /// True when this command has `--secure` and `arguments` give it: then no message quotes an
    /// argument (the parser names them by position, `SecureMessages` takes values out of others).
    func hidesArguments(_ arguments: [String]) -> Bool {
        options.contains { $0.name == "--secure" } && arguments.contains("--secure")
    }

    /// Parses `arguments` (after the command name) against this table.
    package func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        // With --secure the text is a secret: no message may quote an argument, which might be it.
        let secret = hidesArguments(arguments)
        let textHint = positionals.contains("TEXT") ? "; a TEXT that starts with '-' goes after '--'" : ""
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") || Double(argument) != nil {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                parsed.wantsHelp = true
                continue
            }
            var name = argument
            var inline: String? = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name || $0.short == name }) else {
                if secret {
                    throw UsageError(
                        message:
                            "argument \(index) is not an option of '\(self.name)' (not quoted: --secure never shows the arguments\(textHint))"
                    )
                }
                throw UsageError(
                    message:
                        "unknown option '\(name)' for '\(self.name)' (see 'blurlabel \(self.name) --help'\(textHint))"
                )
            }
            if let valueName = option.placeholder {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else {
                        throw UsageError(message: "option \(option.name) needs a value (\(valueName))")
                    }
                    value = arguments[index]
                    index += 1
                }
                if !option.repeatable && parsed.has(option.name) {
                    throw UsageError(message: "option \(option.name) given more than once")
                }
                parsed.given.append(.init(name: option.name, value: value))
            } else {
                if inline != nil { throw UsageError(message: "option \(option.name) takes no value") }
                if !parsed.has(option.name) { parsed.given.append(.init(name: option.name, value: nil)) }
            }
        }
        if parsed.wantsHelp { return parsed }
        let required = positionals.count - optionalPositionals
        if parsed.positionals.count < required {
            throw UsageError(message: "'\(name)' needs \(positionals[parsed.positionals.count]) (usage: \(usage))")
        }
        if parsed.positionals.count > positionals.count {
            if secret {
                throw UsageError(
                    message:
                        "\(parsed.positionals.count) arguments where '\(name)' takes \(positionals.count) (not quoted: --secure never shows the arguments; quote a TEXT with spaces) (usage: \(usage))"
                )
            }
            throw UsageError(
                message: "unexpected argument '\(parsed.positionals[positionals.count])' (usage: \(usage))"
            )
        }
        return parsed
    }
}
