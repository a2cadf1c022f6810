import Foundation
import Testing

@testable import BlurLabelServe
@testable import HTTPServer

/// The access log's JSON line: its fields and their formats, and nothing of the request's path.
@Suite("access log line")
struct AccessLogTests {
    @Test func fieldsAndFormats() throws {
        for (seconds, written) in [
            (0.0, "0.000000"), (0.0123456, "0.012346"), (1.5, "1.500000"), (12.000_000_4, "12.000000"),
        ] {
            let record = HTTPExchangeRecord(method: "GET", status: 200, bytes: 2617, seconds: seconds, completed: true)
            let line = AccessLog.line(record)
            #expect(line.hasSuffix("}\n"))
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            )
            #expect(object["method"] as? String == "GET")
            #expect(object["status"] as? Int == 200)
            #expect(object["bytes"] as? Int == 2617)
            #expect(object["complete"] as? Bool == true)
            #expect(line.contains("\"seconds\":\(written),"), "\(line)")
            let time = try #require(object["time"] as? String)
            #expect(
                time.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#, options: .regularExpression) != nil,
                "\(time)"
            )
            // Close to now.
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let when = try #require(formatter.date(from: time))
            #expect(abs(when.timeIntervalSinceNow) < 60)
        }
        let other = AccessLog.line(
            HTTPExchangeRecord(method: "BREW", status: 405, bytes: 0, seconds: 0, completed: false)
        )
        #expect(other.contains("\"method\":\"other\"") && other.contains("\"complete\":false"))
        #expect(AccessLog.digits(7, 3) == "007" && AccessLog.digits(12345, 3) == "12345")
    }
}
