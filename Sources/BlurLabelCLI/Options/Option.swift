/// One option, declared once: its name (the flag is `--name`; a manifest line's key and a label
/// URL's name are `name`), the kind of value it takes (with its range from `Limits`), its default
/// (taken from the library's own where it has one) and one line of help. The parser's table,
/// `--help`, the man page, the completions, docs/command-line.md's option tables and the manifest
/// keys are made from these; the value is read through it, so the name is written once.
package struct Option<Value: Sendable>: Sendable {
    /// The name without dashes: `radius`.
    package let key: String
    /// A one-letter alias such as `-o`.
    let short: String?
    /// What the value looks like (`SIGMA`); nil for a flag.
    let placeholder: String?
    /// What the option does in a few words, the values it accepts (`0 to 1000`; nil when any of
    /// the kind) and its default as help shows it (`2.5`, `every core`; nil when none). Made only
    /// when asked: the table is built at every start, its help rarely.
    package let describe: @Sendable () -> OptionText
    /// May be given several times (its values are read as a list).
    let repeatable: Bool
    /// The value when the option is not given (false for a flag, nil for an option without a default).
    package let defaultValue: Value
    /// The typed value of what was given.
    private let parse: @Sendable (OptionValue, _ name: String) throws -> Value

    /// The option as typed: `--radius`.
    package var name: String { "--" + key }

    /// This option's row in a command's parser table.
    package var spec: OptionSpec {
        OptionSpec(
            key: key,
            short: short,
            placeholder: placeholder,
            repeatable: repeatable,
            describe: describe
        )
    }

    /// The value `options` give for this option, or its default.
    package func value(in options: GivenOptions) throws -> Value {
        guard let given = options[key] else { return defaultValue }
        return try parse(given, name)
    }

    /// `given` read as this option's value, its messages naming `name` (an environment variable).
    package func value(of given: OptionValue, named name: String) throws -> Value { try parse(given, name) }

    /// True when `options` give this option at all.
    package func isGiven(in options: GivenOptions) -> Bool { options.has(key) }

    /// The same option with other help (a command whose use of it differs).
    package func with(help: @autoclosure @escaping @Sendable () -> String) -> Option {
        let describe = self.describe
        return Option(
            key: key,
            short: short,
            placeholder: placeholder,
            describe: {
                var text = describe()
                text.summary = help()
                return text
            },
            repeatable: repeatable,
            defaultValue: defaultValue,
            parse: parse
        )
    }

    private init(
        key: String,
        short: String?,
        placeholder: String?,
        describe: @escaping @Sendable () -> OptionText,
        repeatable: Bool,
        defaultValue: Value,
        parse: @escaping @Sendable (OptionValue, String) throws -> Value
    ) {
        self.key = key
        self.short = short
        self.placeholder = placeholder
        self.describe = describe
        self.repeatable = repeatable
        self.defaultValue = defaultValue
        self.parse = parse
    }

    /// An option with a value and a default, which help shows (`shown` instead when given: a
    /// default that depends on the machine or on other options).
    package init(
        _ key: String,
        short: String? = nil,
        _ kind: ValueKind<Value>,
        placeholder: String? = nil,
        default value: Value,
        shown: @autoclosure @escaping @Sendable () -> String? = nil,
        help: @autoclosure @escaping @Sendable () -> String
    ) {
        self.init(
            key: key,
            short: short,
            placeholder: placeholder ?? kind.placeholder,
            describe: {
                OptionText(summary: help(), accepted: kind.accepted(), shownDefault: shown() ?? kind.show(value))
            },
            repeatable: kind.repeatable,
            defaultValue: value,
            parse: kind.parse
        )
    }

    /// An option with a value and no default: nil when not given (`shown`: what happens then).
    package init<Wrapped>(
        _ key: String,
        short: String? = nil,
        _ kind: ValueKind<Wrapped>,
        placeholder: String? = nil,
        shown: @autoclosure @escaping @Sendable () -> String? = nil,
        help: @autoclosure @escaping @Sendable () -> String
    ) where Value == Wrapped? {
        self.init(
            key: key,
            short: short,
            placeholder: placeholder ?? kind.placeholder,
            describe: { OptionText(summary: help(), accepted: kind.accepted(), shownDefault: shown()) },
            repeatable: kind.repeatable,
            defaultValue: nil,
            parse: { given, name in try kind.parse(given, name) }
        )
    }
}

extension Option where Value == Bool {
    /// A flag: present or not; from a manifest or a URL only a real boolean, so a typo such as
    /// `"secure": "yes"` fails instead of quietly turning secure mode off.
    package init(flag key: String, help: @autoclosure @escaping @Sendable () -> String) {
        self.init(
            key: key,
            short: nil,
            placeholder: nil,
            describe: { OptionText(summary: help()) },
            repeatable: false,
            defaultValue: false,
            parse: { given, _ in
                switch given {
                case let .flag(on): return on
                case let other:
                    throw UsageError(message: "\"\(key)\" must be true or false (a JSON boolean), got \(other.shown)")
                }
            }
        )
    }
}
