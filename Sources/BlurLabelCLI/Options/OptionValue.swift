/// One option's value as it was given: text (a command line's word, a manifest string or a URL's
/// value), a number (a manifest number stays a number), a flag, or a list (a manifest's JSON list,
/// or a repeated command-line option's values). An `Option` turns it into its typed value.
package enum OptionValue: Equatable, Sendable {
    case text(String)
    case number(Double)
    case flag(Bool)
    case list([String])

    /// How the value reads in a message.
    var shown: String {
        switch self {
        case let .text(t): return "'\(t)'"
        case let .number(n): return formatNumber(n)
        case let .flag(f): return String(f)
        case let .list(l): return "[" + l.map { "'\($0)'" }.joined(separator: ", ") + "]"
        }
    }
}

/// `value` as help and messages show it: whole numbers without a decimal point.
func formatNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
