import BlurredLabelCore

/// One manifest line: `text`, `output` (a file name under the output folder) and any option
/// `render` takes, by the same names (`size`, `radius`, `color`, `secure`...).
package struct ManifestLine {
    let text: String
    /// The output's path under the folder, normalised (`./a//b.png` is `a/b.png`).
    let output: String
    /// The line's options, typed as JSON gave them: a number stays a number.
    let options: GivenOptions

    static let notAnObject = "invalid JSON (each line must be one JSON object)"
    static let unsupportedType = "a value has an unsupported type (objects and nulls are not options)"

    /// Keys a line may carry: its text and output (whose extension picks PNG, WebP or AVIF), the
    /// options `render` declares, and WebP's and AVIF's quality.
    static let keys: Set<String> = Set(["text", "output", OutputEncoding.quality.key] + optionKeys)

    /// The options a line (and a label URL) may give: the label options and the compression.
    package static let optionKeys = LabelOptions.keys + [CommonOptions.compression.key]

    /// Parses and checks one line; the error says what is wrong with it.
    init(bytes: [UInt8]) throws {
        _ = try decodeUTF8(bytes)
        let parsed: JSONValue
        do { parsed = try JSONValue(parsing: bytes) } catch {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                throw LineError(
                    "the line starts with a byte order mark (U+FEFF), which JSON does not allow: save the manifest as UTF-8 without one"
                )
            }
            throw LineError(
                error.kind == .duplicateKey ? "a key appears twice (each may be given once)" : Self.notAnObject
            )
        }
        guard case let .object(fields) = parsed else { throw LineError(Self.notAnObject) }
        if let unknown = fields.keys.sorted().first(where: { !Self.keys.contains($0) }) {
            throw LineError("unknown option '\(unknown)'")
        }
        guard case let .string(text)? = fields["text"] else {
            throw LineError(fields["text"] == nil ? "missing \"text\"" : "\"text\" must be a string")
        }
        guard case let .string(output)? = fields["output"], !output.isEmpty else {
            throw LineError("missing \"output\" (a file name)")
        }
        self.text = text
        self.output = try Self.normalisedOutput(output)
        var options: [String: OptionValue] = [:]
        for (key, value) in fields where key != "text" && key != "output" {
            switch value {
            case let .string(string): options[key] = .text(string)
            case let .number(number): options[key] = .number(number)
            case let .bool(flag): options[key] = .flag(flag)
            case .array:
                guard let list = value.strings else { throw LineError(Self.unsupportedType) }
                options[key] = .list(list)
            case .object, .null: throw LineError(Self.unsupportedType)
            }
        }
        self.options = GivenOptions(options)
    }

    /// An output name as a clean relative path: no absolute path, no `..`, no NUL, not a folder;
    /// `.` components and repeated slashes dropped, so `./b.png` and `b.png` are one output.
    static func normalisedOutput(_ output: String) throws -> String {
        guard !output.utf8.contains(0) else { throw LineError("\"output\" must not contain a NUL character") }
        let parts = output.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !output.hasPrefix("/"), !parts.contains(".."), !output.hasSuffix("/"), !parts.isEmpty,
            output.split(separator: "/", omittingEmptySubsequences: false).last != "."
        else {
            throw LineError("\"output\" must be a file name under the output folder, got '\(output)'")
        }
        return parts.joined(separator: "/")
    }

    /// The `output` of a line without decoding all of it, for the pass that looks for duplicates
    /// before rendering: exact for lines without escapes (a string followed by a colon can only be
    /// a key), nil otherwise (the caller then decodes the line in full).
    static func quickOutput(_ bytes: [UInt8]) -> String? {
        guard !bytes.contains(0x5C) else { return nil }  // a backslash: decode properly
        let key = Array("\"output\"".utf8)
        var i = 0
        var found: String? = nil
        while i + key.count <= bytes.count {
            guard bytes[i..<(i + key.count)].elementsEqual(key) else {
                i += 1
                continue
            }
            var j = i + key.count
            while j < bytes.count && (bytes[j] == 0x20 || bytes[j] == 0x09) { j += 1 }
            guard j < bytes.count, bytes[j] == 0x3A else {
                i += key.count
                continue
            }  // not a key
            j += 1
            while j < bytes.count && (bytes[j] == 0x20 || bytes[j] == 0x09) { j += 1 }
            guard j < bytes.count, bytes[j] == 0x22, found == nil else { return nil }
            guard let close = bytes[(j + 1)...].firstIndex(of: 0x22) else { return nil }
            found = String(decoding: bytes[(j + 1)..<close], as: UTF8.self)
            i = close + 1
        }
        return found.flatMap { try? normalisedOutput($0) }
    }

    /// The label style the line asks for.
    func style(budget: RenderBudget = .standard) throws -> LabelStyle {
        do { return try LabelOptions.style(options, text: text, budget: budget) } catch let error as UsageError {
            throw LineError(error.message)
        }
    }
}

/// What is wrong with one manifest line.
struct LineError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
