import BlurredLabelCore

/// What an option's value is: how it looks in help, what it accepts, and how a given value
/// (command-line text, or a manifest's typed JSON) becomes it, with messages that name the option.
package struct ValueKind<T>: Sendable {
    let placeholder: String
    /// The accepted values as help shows them (`0 to 1000`), nil for any; made when help asks.
    var accepted: @Sendable () -> String? = { nil }
    var repeatable = false
    let parse: @Sendable (OptionValue, _ name: String) throws -> T
    let show: @Sendable (T) -> String?
}

extension ValueKind where T == Double {
    /// A decimal number in `range`; a manifest's number is taken as it is.
    static func number(_ placeholder: String, _ range: ClosedRange<Double>) -> Self {
        ValueKind(
            placeholder: placeholder,
            accepted: { "\(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound))" },
            parse: { given, name in
                switch given {
                case let .text(text): return try ValueText.number(text, option: name, range: range)
                case let .number(value):
                    guard range.contains(value) else {
                        throw UsageError(
                            message:
                                "\(name) must be from \(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound)), got \(formatNumber(value))"
                        )
                    }
                    return value
                case let other: throw UsageError(message: "\(name) needs a number, got \(other.shown)")
                }
            },
            show: {
                formatNumber($0)
            }
        )
    }
}

extension ValueKind where T == BlurRadius {
    /// A blur's σ in pixels, as `BlurRadius` accepts it (0 to `Limits.maximumRadius`): the type
    /// checks the range, once, and `FlagMessages` says its refusal in the option's name.
    package static var sigma: Self {
        let number = ValueKind<Double>.number("SIGMA", -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        return ValueKind(
            placeholder: number.placeholder,
            accepted: { "0 to \(formatNumber(Limits.maximumRadius))" },
            parse: { given, name in
                let sigma = try number.parse(given, name)
                do { return try BlurRadius(sigma: sigma) } catch let error as BlurError {
                    throw UsageError(message: FlagMessages.message(for: error, option: name, given: given))
                }
            },
            show: { formatNumber($0.sigma) }
        )
    }
}

extension ValueKind where T == Int {
    /// A whole number in `range`.
    package static func integer(_ placeholder: String, _ range: ClosedRange<Int>) -> Self {
        ValueKind(
            placeholder: placeholder,
            accepted: { "\(range.lowerBound) to \(range.upperBound)" },
            parse: { given, name in
                switch given {
                case let .text(text): return try ValueText.integer(text, option: name, range: range)
                case let .number(value):
                    guard value == value.rounded(), let whole = Int(exactly: value) else {
                        throw UsageError(message: "\(name) needs a whole number, got \(formatNumber(value))")
                    }
                    guard range.contains(whole) else {
                        throw UsageError(
                            message: "\(name) must be from \(range.lowerBound) to \(range.upperBound), got \(whole)"
                        )
                    }
                    return whole
                case let other: throw UsageError(message: "\(name) needs a whole number, got \(other.shown)")
                }
            },
            show: {
                String($0)
            }
        )
    }
}

extension ValueKind where T == UInt64 {
    /// A whole number from 0 to 2^64 - 1 (as text for values a JSON number cannot hold exactly).
    static func unsigned(_ placeholder: String) -> Self {
        ValueKind(
            placeholder: placeholder,
            accepted: { "0 to 2^64 - 1" },
            parse: { given, name in
                switch given {
                case let .text(text):
                    guard let value = UInt64(text) else {
                        throw UsageError(message: "\(name) needs a whole number from 0 to \(UInt64.max), got '\(text)'")
                    }
                    return value
                case let .number(value):
                    guard value >= 0, value <= 9_007_199_254_740_992, let whole = UInt64(exactly: value) else {
                        throw UsageError(
                            message:
                                "\(name) needs a whole number from 0 to 2^53 (give larger ones as a string), got \(formatNumber(value))"
                        )
                    }
                    return whole
                case let other: throw UsageError(message: "\(name) needs a whole number, got \(other.shown)")
                }
            },
            show: {
                String($0)
            }
        )
    }
}

extension ValueKind where T == String {
    /// Text, taken as it is.
    package static func text(_ placeholder: String) -> Self {
        ValueKind(placeholder: placeholder, parse: ValueText.text) { $0 }
    }
}

extension ValueKind where T == [String] {
    /// A list: a manifest's JSON list of strings, or comma-separated text.
    static func list(_ placeholder: String) -> Self {
        ValueKind(placeholder: placeholder) { given, name in
            switch given {
            case let .list(items): return items
            case let .text(text): return text.split(separator: ",").map(String.init)
            case let other: throw UsageError(message: "\(name) needs a list, got \(other.shown)")
            }
        } show: {
            $0.joined(separator: ",")
        }
    }

    /// An option given once for each value (`--rect A --rect B`), each value whole.
    package static func repeated(_ placeholder: String) -> Self {
        ValueKind(placeholder: placeholder, repeatable: true) { given, name in
            switch given {
            case let .list(items): return items
            case let .text(text): return [text]
            case let other: throw UsageError(message: "\(name) needs text, got \(other.shown)")
            }
        } show: {
            $0.isEmpty ? nil : $0.joined(separator: " ")
        }
    }
}

extension ValueKind where T: RawRepresentable & CaseIterable & Sendable, T.RawValue == String {
    /// One of an enumeration's names.
    package static func choice(_ placeholder: String) -> Self {
        ValueKind(
            placeholder: placeholder,
            accepted: { listed },
            parse: { given, name in
                let text = try ValueText.text(given, name)
                guard let value = T(rawValue: text) else {
                    throw UsageError(message: "\(name) must be \(listed), got '\(text)'")
                }
                return value
            },
            show: {
                $0.rawValue
            }
        )
    }

    /// The names as help and messages list them: `a, b or c`. Written out by hand: `joined` on a
    /// slice and a key path made at run time each cost a type lookup at every start.
    private static var listed: String {
        var text = ""
        var index = 0
        let count = T.allCases.count
        for value in T.allCases {
            text += (index == 0 ? "" : index == count - 1 ? " or " : ", ") + value.rawValue
            index += 1
        }
        return text
    }
}

extension ValueKind where T == Color {
    /// A colour: `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`, a CSS name or `transparent`.
    static func color(_ placeholder: String = "C") -> Self {
        ValueKind(
            placeholder: placeholder,
            accepted: { "#RGB, #RGBA, #RRGGBB, #RRGGBBAA, a CSS name or transparent" },
            parse: { given, name in try ValueText.color(try ValueText.text(given, name), option: name) },
            show: {
                $0 == .black ? "black" : $0 == .white ? "white" : $0 == .transparent ? "transparent" : $0.description
            }
        )
    }
}

extension ValueKind where T == CanvasSize {
    /// `WxH` with both sides from 1 to `Limits.maximumCanvasSide`.
    static func canvasSize(_ placeholder: String = "WxH") -> Self {
        ValueKind(
            placeholder: placeholder,
            accepted: { "sides 1 to \(Limits.maximumCanvasSide)" },
            parse: { given, name in
                let size = try ValueText.size(try ValueText.text(given, name), option: name)
                return try CanvasSize(width: size.width, height: size.height)
            },
            show: {
                "\($0.width)x\($0.height)"
            }
        )
    }
}

/// Reading option text: numbers, colours and sizes, with messages that name the option.
enum ValueText {
    /// Text as given; anything else is refused.
    @Sendable static func text(_ given: OptionValue, _ name: String) throws -> String {
        guard case let .text(text) = given else { throw UsageError(message: "\(name) needs text, got \(given.shown)") }
        return text
    }

    static func number(_ text: String, option: String, range: ClosedRange<Double>) throws -> Double {
        // Decimal only, as whole-number options are: Swift's Double also reads hexadecimal ("0x10").
        guard !text.contains(where: { $0 == "x" || $0 == "X" }), let value = Double(text), value.isFinite else {
            throw UsageError(message: "\(option) needs a finite decimal number, got '\(text)'")
        }
        guard range.contains(value) else {
            throw UsageError(
                message:
                    "\(option) must be from \(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound)), got \(text)"
            )
        }
        return value
    }

    package static func integer(_ text: String, option: String, range: ClosedRange<Int>) throws -> Int {
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
}
