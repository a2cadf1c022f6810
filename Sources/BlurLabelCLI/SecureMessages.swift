import BlurredLabelCore

/// Messages in secure mode quote nothing the user typed: the secret might be any of it (a TEXT
/// mistaken for an option value, a value that is the secret by mistake). The parser already
/// names misplaced arguments by position; this takes every value out of any other message.
package enum SecureMessages {
    /// `message` with each of `values` replaced by '…': quoted ('value') always, and anywhere
    /// when three characters or longer (shorter ones would also match inside numbers and words).
    package static func withoutValues(_ message: String, _ values: [String]) -> String {
        var text = message
        for value in values.filter({ !$0.isEmpty }).sorted(by: { $0.count > $1.count }) {
            text = text.replacingText("'" + value + "'", with: "'…'")
            if value.unicodeScalars.count >= 3 { text = text.replacingText(value, with: "…") }
        }
        return text
    }
}
