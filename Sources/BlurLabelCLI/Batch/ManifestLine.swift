import BlurredLabelKit
import Foundation

/// One manifest line: `text`, `output` (a file name under the output folder) and any option
/// `render` takes, by the same names (`size`, `radius`, `color`, `secure`...).
struct ManifestLine {
    let text: String
    let output: String
    let options: [String: String]

    /// Keys a line may carry.
    static let keys: Set<String> = Set(["text", "output", "compression"] + LabelOptions.keys)

    /// Parses and checks one line; the error says what is wrong with it.
    init(bytes: [UInt8]) throws {
        _ = try decodeUTF8(bytes)
        let fields: [String: JSONValue]
        do { fields = try JSONDecoder().decode([String: JSONValue].self, from: Data(bytes)) } catch {
            let isObject = (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any]
            throw LineError(isObject ? "a value has an unsupported type (objects and nulls are not options)" : "invalid JSON (each line must be one JSON object)")
        }
        if let unknown = fields.keys.sorted().first(where: { !Self.keys.contains($0) }) {
            throw LineError("unknown option '\(unknown)'")
        }
        guard case let .string(text)? = fields["text"] else {
            throw LineError(fields["text"] == nil ? "missing \"text\"" : "\"text\" must be a string")
        }
        guard case let .string(output)? = fields["output"], !output.isEmpty else { throw LineError("missing \"output\" (a file name)") }
        guard !output.hasPrefix("/"), !output.split(separator: "/").contains(".."), !output.hasSuffix("/") else {
            throw LineError("\"output\" must be a file name under the output folder, got '\(output)'")
        }
        var options: [String: String] = [:]
        for (key, value) in fields where key != "text" && key != "output" {
            switch value {
            case let .string(string): options[key] = string
            case let .number(number):
                options[key] = number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            case let .bool(flag):
                guard LabelOptions.flags.contains(key) else { throw LineError("\"\(key)\" must not be true/false") }
                if flag { options[key] = "true" }
            case let .list(items):
                guard key == "features" else { throw LineError("\"\(key)\" must not be a list") }
                options[key] = items.joined(separator: ",")
            }
        }
        self.text = text
        self.output = output
        self.options = options
    }

    /// The `output` of a line without decoding all of it, for the pass that looks for duplicates
    /// before rendering: exact for lines without escapes (a string followed by a colon can only be
    /// a key), nil otherwise (the caller then decodes the line in full).
    static func quickOutput(_ bytes: [UInt8]) -> String? {
        guard !bytes.contains(0x5C) else { return nil } // a backslash: decode properly
        let key = Array("\"output\"".utf8)
        var i = 0
        var found: String? = nil
        while i + key.count <= bytes.count {
            guard bytes[i..<(i + key.count)].elementsEqual(key) else { i += 1; continue }
            var j = i + key.count
            while j < bytes.count && (bytes[j] == 0x20 || bytes[j] == 0x09) { j += 1 }
            guard j < bytes.count, bytes[j] == 0x3A else { i += key.count; continue } // not a key
            j += 1
            while j < bytes.count && (bytes[j] == 0x20 || bytes[j] == 0x09) { j += 1 }
            guard j < bytes.count, bytes[j] == 0x22, found == nil else { return nil }
            guard let close = bytes[(j + 1)...].firstIndex(of: 0x22) else { return nil }
            found = String(decoding: bytes[(j + 1)..<close], as: UTF8.self)
            i = close + 1
        }
        return found
    }

    /// The label style the line asks for.
    func style() throws -> LabelStyle {
        do { return try LabelOptions.style { options[$0] } } catch let error as UsageError {
            throw LineError(error.message)
        }
    }
}

/// The JSON values a manifest line may hold.
enum JSONValue: Decodable {
    case string(String), number(Double), bool(Bool), list([String])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let string = try? container.decode(String.self) { self = .string(string) }
        else { self = .list(try container.decode([String].self)) }
    }
}

/// What is wrong with one manifest line.
struct LineError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
