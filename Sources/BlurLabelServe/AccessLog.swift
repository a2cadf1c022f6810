import BlurredLabelCore
import HTTPServer

#if canImport(Glibc)
import Glibc
#endif

/// One JSON line per request on standard error: time, method, status, seconds, bytes. Never the
/// path (it carries the text, which may be the secret) nor any header.
enum AccessLog {
    static func line(_ record: HTTPExchangeRecord) -> String {
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
        let method =
            ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"].contains(record.method)
            ? record.method : "other"
        let micros = Int((max(0, record.seconds) * 1e6).rounded())
        return "{\"time\":\"\(time)\",\"method\":\"\(method)\",\"status\":\(record.status),\"seconds\":"
            + "\(micros / 1_000_000).\(digits(micros % 1_000_000, 6)),\"bytes\":\(record.bytes),\"complete\":\(record.completed)}\n"
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
