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
        let time = cFormat(
            "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
            parts.tm_year + 1900,
            parts.tm_mon + 1,
            parts.tm_mday,
            parts.tm_hour,
            parts.tm_min,
            parts.tm_sec,
            Int32(now.tv_nsec / 1_000_000)
        )
        let method =
            ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"].contains(record.method)
            ? record.method : "other"
        return "{\"time\":\"\(time)\",\"method\":\"\(method)\",\"status\":\(record.status),\"seconds\":"
            + cFormat("%.6f", record.seconds) + ",\"bytes\":\(record.bytes),\"complete\":\(record.completed)}\n"
    }

    static func write(_ record: HTTPExchangeRecord) {
        let text = line(record)
        text.utf8CString.withUnsafeBufferPointer { buffer in
            _ = Glibc.write(STDERR_FILENO, buffer.baseAddress, buffer.count - 1)
        }
    }
}
