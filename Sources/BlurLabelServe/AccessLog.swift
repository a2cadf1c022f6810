import BlurLabelSystem
import BlurredLabelCore
import HTTPServer

/// One JSON line per request on standard error: time, method, status, seconds, bytes. Never the
/// path (it carries the text, which may be the secret) nor any header. The server's start and stop
/// are lines of the same form (`event`), so once it listens every line on standard error is JSON.
enum AccessLog {
    static func line(_ record: HTTPExchangeRecord) -> String {
        let method =
            ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"].contains(record.method)
            ? record.method : "other"
        let micros = Int((max(0, record.seconds) * 1e6).rounded())
        return "{\"time\":\"\(timestamp())\",\"method\":\"\(method)\",\"status\":\(record.status),\"seconds\":"
            + "\(micros / 1_000_000).\(digits(micros % 1_000_000, 6)),\"bytes\":\(record.bytes),\"complete\":\(record.completed)}\n"
    }

    /// A server event (start, stopping, stopped) as a line of the same JSON form, so one parser
    /// reads all of standard error: the time, `event`, the human `message`, then `fields` (each
    /// value already JSON: a number, `true`, or a `quoted` string).
    static func eventLine(_ event: String, _ message: String, _ fields: [(String, String)] = []) -> String {
        let rest = fields.map { ",\(quoted($0.0)):\($0.1)" }.joined()
        return "{\"time\":\"\(timestamp())\",\"event\":\(quoted(event)),\"message\":\(quoted(message))\(rest)}\n"
    }

    /// Writes `eventLine` to standard error.
    static func event(_ event: String, _ message: String, _ fields: [(String, String)] = []) {
        ServeMain.say(eventLine(event, message, fields), to: STDERR_FILENO)
    }

    /// Now, in UTC, to the millisecond: `2026-12-03T10:24:39.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        // Written out digit by digit, not with cFormat: this runs on a connection thread after
        // every response, and printf's variadic casts cost more than the rest of the line.
        let time =
            digits(Int(parts.tm_year) + 1900, 4) + "-" + digits(Int(parts.tm_mon) + 1, 2) + "-"
            + digits(Int(parts.tm_mday), 2) + "T" + digits(Int(parts.tm_hour), 2) + ":" + digits(Int(parts.tm_min), 2)
            + ":" + digits(Int(parts.tm_sec), 2) + "." + digits(now.tv_nsec / 1_000_000, 3) + "Z"
        return time
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `value` (not negative) in decimal with leading zeros to at least `width` digits.
    static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    static func write(_ record: HTTPExchangeRecord) {
        let text = line(record)
        text.utf8CString.withUnsafeBufferPointer { buffer in
            _ = Glibc.write(STDERR_FILENO, buffer.baseAddress, buffer.count - 1)
        }
    }
}
