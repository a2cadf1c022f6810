import BlurredLabelCore

/// One option's value as it was given: text (a command line's word or a manifest string), a
/// number (a manifest number stays a number), a flag, or a list. Parsed once from the command
/// line or the manifest line, then read through `Options`' typed accessors.
enum OptionValue: Equatable, Sendable {
    case text(String)
    case number(Double)
    case flag(Bool)
    case list([String])

    /// How the value reads in a message.
    var shown: String {
        switch self {
        case let .text(t): return "'\(t)'"
        case let .number(n): return OptionValues.format(n)
        case let .flag(f): return String(f)
        case let .list(l): return "[" + l.map { "'\($0)'" }.joined(separator: ", ") + "]"
        }
    }
}

/// Options by name without dashes (`size`, `secure`...), from a command line or a manifest line,
/// with typed accessors that say which option is wrong and why. Flags are strict: only a real
/// boolean (a command-line flag, or JSON `true`/`false`) counts, so a typo such as
/// `"secure": "yes"` fails instead of quietly turning secure mode off.
package struct Options: Equatable, Sendable {
    /// Name and value pairs, one per name, sorted by name. A short list searched in order, not a
    /// Dictionary: the first Dictionary keyed by String makes the Swift runtime scan every protocol
    /// conformance in the binary (about 0.2 M instructions of a one-label process's start).
    private var entries: [(name: String, value: OptionValue)]

    init() { entries = [] }

    init(_ values: [String: OptionValue]) {
        entries = values.map { ($0.key, $0.value) }.sorted { $0.name < $1.name }
    }

    /// A parsed command line's options: values as text (the last one given), flags as `true`.
    init(_ arguments: ParsedArguments) {
        entries = []
        for option in arguments.given {
            let name = String(option.name.dropFirst(2))
            let value = option.value.map { OptionValue.text($0) } ?? .flag(true)
            if let at = entries.firstIndex(where: { $0.name == name }) {
                entries[at].value = value
            } else {
                entries.append((name, value))
            }
        }
        entries.sort { $0.name < $1.name }
    }

    subscript(name: String) -> OptionValue? { entries.first { $0.name == name }?.value }

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
    func has(_ name: String) -> Bool { self[name] != nil }

    package static func == (a: Options, b: Options) -> Bool {
        a.entries.elementsEqual(b.entries) { $0.name == $1.name && $0.value == $1.value }
    }

    /// A number in `range` (text is read as the command line would read it).
    func number(_ name: String, range: ClosedRange<Double>) throws -> Double? {
        switch self[name] {
        case nil: return nil
        case let .text(text)?: return try OptionValues.number(text, option: "--" + name, range: range)
        case let .number(value)?:
            guard range.contains(value) else {
                throw UsageError(
                    message:
                        "--\(name) must be from \(OptionValues.format(range.lowerBound)) to \(OptionValues.format(range.upperBound)), got \(OptionValues.format(value))"
                )
            }
            return value
        case let other?: throw UsageError(message: "--\(name) needs a number, got \(other.shown)")
        }
    }

    /// A whole number in `range`.
    func integer(_ name: String, range: ClosedRange<Int>) throws -> Int? {
        switch self[name] {
        case nil: return nil
        case let .text(text)?: return try OptionValues.integer(text, option: "--" + name, range: range)
        case let .number(value)?:
            guard value == value.rounded(), let whole = Int(exactly: value) else {
                throw UsageError(message: "--\(name) needs a whole number, got \(OptionValues.format(value))")
            }
            guard range.contains(whole) else {
                throw UsageError(
                    message: "--\(name) must be from \(range.lowerBound) to \(range.upperBound), got \(whole)"
                )
            }
            return whole
        case let other?: throw UsageError(message: "--\(name) needs a whole number, got \(other.shown)")
        }
    }

    /// Text.
    func string(_ name: String) throws -> String? {
        switch self[name] {
        case nil: return nil
        case let .text(text)?: return text
        case let other?: throw UsageError(message: "--\(name) needs text, got \(other.shown)")
        }
    }

    /// A list: a JSON list of strings, or comma-separated text.
    func list(_ name: String) throws -> [String]? {
        switch self[name] {
        case nil: return nil
        case let .list(items)?: return items
        case let .text(text)?: return text.split(separator: ",").map(String.init)
        case let other?: throw UsageError(message: "--\(name) needs a list, got \(other.shown)")
        }
    }

    /// A flag: present (true) or not; from a manifest only JSON `true` or `false`.
    func flag(_ name: String) throws -> Bool {
        switch self[name] {
        case nil: return false
        case let .flag(on)?: return on
        case let other?:
            throw UsageError(message: "\"\(name)\" must be true or false (a JSON boolean), got \(other.shown)")
        }
    }

    /// A seed: a whole number from 0 to 2^64 - 1 (as text for values a JSON number cannot hold exactly).
    func unsigned(_ name: String) throws -> UInt64? {
        switch self[name] {
        case nil: return nil
        case let .text(text)?:
            guard let value = UInt64(text) else {
                throw UsageError(message: "--\(name) needs a whole number from 0 to \(UInt64.max), got '\(text)'")
            }
            return value
        case let .number(value)?:
            guard value >= 0, value <= 9_007_199_254_740_992, let whole = UInt64(exactly: value) else {
                throw UsageError(
                    message:
                        "--\(name) needs a whole number from 0 to 2^53 (give larger ones as a string), got \(OptionValues.format(value))"
                )
            }
            return whole
        case let other?: throw UsageError(message: "--\(name) needs a whole number, got \(other.shown)")
        }
    }
}

/// Turning option text into checked values, with messages that name the option.
enum OptionValues {
    static func number(_ text: String, option: String, range: ClosedRange<Double>) throws -> Double {
        // Decimal only, as whole-number options are: Swift's Double also reads hexadecimal ("0x10").
        guard !text.contains(where: { $0 == "x" || $0 == "X" }), let value = Double(text), value.isFinite else {
            throw UsageError(message: "\(option) needs a finite decimal number, got '\(text)'")
        }
        guard range.contains(value) else {
            throw UsageError(
                message:
                    "\(option) must be from \(format(range.lowerBound)) to \(format(range.upperBound)), got \(text)"
            )
        }
        return value
    }

    static func integer(_ text: String, option: String, range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text) else { throw UsageError(message: "\(option) needs a whole number, got '\(text)'") }
        guard range.contains(value) else {
            throw UsageError(message: "\(option) must be from \(range.lowerBound) to \(range.upperBound), got \(text)")
        }
        return value
    }

    static func color(_ text: String, option: String) throws -> Color {
        do { return try Color(parsing: text) } catch { throw UsageError(message: "\(option): \(error)") }
    }

    /// `WxH` with both sides positive.
    static func size(_ text: String, option: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw UsageError(message: "\(option) needs WIDTHxHEIGHT, got '\(text)'")
        }
        guard w > 0, h > 0, w <= CanvasSize.maximumSide, h <= CanvasSize.maximumSide else {
            throw UsageError(message: "\(option) sides must be from 1 to \(CanvasSize.maximumSide), got '\(text)'")
        }
        return (w, h)
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// Writes an image as PNG to a path (atomically) or to standard output for `-`.
func writePNG(_ image: Image, to path: String, compressionLevel: Int = 6, followingLinks: Bool = true) throws {
    let bytes = try PNGEncoder(compressionLevel: compressionLevel).encode(image)
    try FileIO.write(bytes, to: path, followingLinks: followingLinks)
}
