import BlurLabelSystem

/// An entry's file under `.report/`: one JSON object, keys sorted, the date in ISO 8601 UTC
/// (`2026-12-01T14:25:15Z`), absent optionals left out.
extension ComparisonReportEntry {
    /// The entry as the JSON its file holds.
    var json: JSONValue {
        var fields: [String: JSONValue] = [
            "name": .string(name), "outcome": .string(outcome.rawValue), "summary": .string(summary),
            "acceptCommands": .array(acceptCommands.map(JSONValue.string)), "date": .string(Self.iso8601(date)),
        ]
        if let test { fields["test"] = .string(test) }
        if let location { fields["location"] = .string(location) }
        for (key, picture) in [("expected", expected), ("actual", actual), ("diff", diff)] {
            if let picture {
                fields[key] = .object([
                    "file": .string(picture.file), "width": .number(Double(picture.width)),
                    "height": .number(Double(picture.height)),
                ])
            }
        }
        return .object(fields)
    }

    /// The entry an entry file holds; nil for anything that is not one (a damaged or foreign file).
    init?(json: JSONValue) {
        guard case let .string(name)? = json["name"], case let .string(outcomeName)? = json["outcome"],
            let outcome = Outcome(rawValue: outcomeName), case let .string(summary)? = json["summary"],
            case let .string(dateText)? = json["date"], let date = Self.secondsSince1970(iso8601: dateText),
            let commands = json["acceptCommands"]?.strings
        else { return nil }
        func optionalText(_ key: String) -> String?? {
            switch json[key] {
            case nil, .null?: return .some(nil)
            case let .string(text)?: return .some(text)
            default: return nil
            }
        }
        func picture(_ key: String) -> Picture?? {
            switch json[key] {
            case nil, .null?: return .some(nil)
            case let value?:
                guard case let .string(file)? = value["file"], case let .number(width)? = value["width"],
                    case let .number(height)? = value["height"], let w = Int(exactly: width),
                    let h = Int(exactly: height),
                    w >= 0, h >= 0
                else { return nil }
                return .some(Picture(file: file, width: w, height: h))
            }
        }
        guard let test = optionalText("test"), let location = optionalText("location"),
            let expected = picture("expected"), let actual = picture("actual"), let diff = picture("diff")
        else { return nil }
        self.init(
            name: name,
            outcome: outcome,
            test: test,
            location: location,
            summary: summary,
            expected: expected,
            actual: actual,
            diff: diff,
            acceptCommands: commands,
            date: date
        )
    }

    /// `seconds` since 1970 as `YYYY-MM-DDTHH:MM:SSZ`.
    static func iso8601(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "1970-01-01T00:00:00Z" }
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The seconds since 1970 of an ISO 8601 UTC time as `iso8601` writes it; nil for anything else.
    static func secondsSince1970(iso8601 text: String) -> Int? {
        let bytes = Array(text.utf8)
        // YYYY-MM-DDTHH:MM:SSZ: digits where the pattern has 9, the separators exactly.
        let pattern = Array("9999-99-99T99:99:99Z".utf8)
        guard bytes.count == pattern.count else { return nil }
        for (byte, expected) in zip(bytes, pattern) {
            if expected == UInt8(ascii: "9") ? !(0x30...0x39).contains(byte) : byte != expected { return nil }
        }
        func number(_ range: Range<Int>) -> Int32 { bytes[range].reduce(0) { $0 * 10 + Int32($1 - 0x30) } }
        var parts = tm()
        parts.tm_year = number(0..<4) - 1900
        parts.tm_mon = number(5..<7) - 1
        parts.tm_mday = number(8..<10)
        parts.tm_hour = number(11..<13)
        parts.tm_min = number(14..<16)
        parts.tm_sec = number(17..<19)
        guard (0...11).contains(parts.tm_mon), (1...31).contains(parts.tm_mday), parts.tm_hour < 24,
            parts.tm_min < 60, parts.tm_sec < 61
        else { return nil }
        return Int(timegm(&parts))
    }
}
