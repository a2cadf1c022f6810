import CJansson

/// A JSON value, read and written by jansson (strict RFC 8259: UTF-8 only, no comments, no NaN,
/// duplicate keys rejected). Every number is a `Double`, as JavaScript reads them.
package enum JSONValue: Sendable, Equatable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// Parses one JSON text. `topLevelObject` (the default) accepts only an object, as manifest
    /// lines and report entries are. The error gives the kind of problem and its position, never
    /// the text itself (a line may carry a secret).
    package init(parsing bytes: [UInt8], topLevelObject: Bool = true) throws(JSONError) {
        var error = json_error_t()
        let flags = Int(
            JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL
                | (topLevelObject ? 0 : JSON_DECODE_ANY)
        )
        let root = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { json_loadb($0.baseAddress, $0.count, flags, &error) }
        }
        guard let root else {
            let duplicate = json_error_code(&error) == json_error_duplicate_key
            throw JSONError(kind: duplicate ? .duplicateKey : .syntax, line: Int(error.line), column: Int(error.column))
        }
        defer { json_decref(root) }
        guard !topLevelObject || root.pointee.type == JSON_OBJECT else {
            throw JSONError(kind: .notAnObject, line: 1, column: 1)
        }
        self = Self.value(of: root)
    }

    /// The text: object keys sorted, no spaces, so the same value always gives the same bytes.
    /// Whole numbers of magnitude below 2^53 are written without a fraction (`3`, not `3.0`);
    /// others with the shortest form that reads back to the same `Double`.
    package func serialized() -> [UInt8] {
        guard let root = Self.node(for: self) else { return Array("null".utf8) }
        defer { json_decref(root) }
        let flags = Int(JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) | Self.realPrecision17
        let count = json_dumpb(root, nil, 0, flags)
        var bytes = [UInt8](repeating: 0, count: count)
        _ = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { json_dumpb(root, $0.baseAddress, count, flags) }
        }
        return bytes
    }

    /// The strings of an array whose every element is a string; nil for anything else.
    package var strings: [String]? {
        guard case let .array(items) = self else { return nil }
        var strings: [String] = []
        for item in items {
            guard case let .string(text) = item else { return nil }
            strings.append(text)
        }
        return strings
    }

    /// The value under `key` of an object (nil for a missing key or a non-object).
    package subscript(key: String) -> JSONValue? {
        if case let .object(fields) = self { return fields[key] }
        return nil
    }

    // MARK: - jansson values

    /// `JSON_REAL_PRECISION(17)`, a macro Swift cannot call: enough digits to read back the same `Double`.
    private static let realPrecision17 = (17 & 0x1F) << 11

    private static func value(of node: UnsafeMutablePointer<json_t>) -> JSONValue {
        switch node.pointee.type {
        case JSON_OBJECT:
            var fields: [String: JSONValue] = [:]
            var iterator = json_object_iter(node)
            while let current = iterator {
                let key = String(
                    decoding: UnsafeRawBufferPointer(
                        start: json_object_iter_key(current),
                        count: json_object_iter_key_len(current)
                    ),
                    as: UTF8.self
                )
                if let child = json_object_iter_value(current) { fields[key] = value(of: child) }
                iterator = json_object_iter_next(node, current)
            }
            return .object(fields)
        case JSON_ARRAY:
            return .array((0..<json_array_size(node)).compactMap { json_array_get(node, $0).map(value(of:)) })
        case JSON_STRING:
            return .string(
                String(
                    decoding: UnsafeRawBufferPointer(
                        start: json_string_value(node),
                        count: json_string_length(node)
                    ),
                    as: UTF8.self
                )
            )
        case JSON_INTEGER, JSON_REAL:
            return .number(json_number_value(node))
        case JSON_TRUE:
            return .bool(true)
        case JSON_FALSE:
            return .bool(false)
        default:
            return .null
        }
    }

    /// A new jansson node holding `value` (one reference, the caller's); nil only when jansson
    /// cannot allocate, or for a NaN or infinite number (JSON has none).
    private static func node(for value: JSONValue) -> UnsafeMutablePointer<json_t>? {
        switch value {
        case let .object(fields):
            guard let object = json_object() else { return nil }
            for (key, field) in fields {
                guard let child = node(for: field) else {
                    json_decref(object)
                    return nil
                }
                let status = key.utf8CString.withUnsafeBufferPointer {
                    json_object_setn_new_nocheck(object, $0.baseAddress, $0.count - 1, child)
                }
                guard status == 0 else {
                    json_decref(object)
                    return nil
                }
            }
            return object
        case let .array(items):
            guard let array = json_array() else { return nil }
            for item in items {
                guard let child = node(for: item), json_array_append_new(array, child) == 0 else {
                    json_decref(array)
                    return nil
                }
            }
            return array
        case let .string(text):
            var text = text
            return text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    chars.isEmpty ? json_string_nocheck("") : json_stringn_nocheck(chars.baseAddress, chars.count)
                }
            }
        case let .number(number):
            guard number.isFinite else { return nil }
            if number == number.rounded(), abs(number) < 9_007_199_254_740_992 {
                return json_integer(json_int_t(number))
            }
            return json_real(number)
        case let .bool(flag):
            return flag ? json_true() : json_false()
        case .null:
            return json_null()
        }
    }
}

/// A JSON text that could not be read: what kind of problem, and where (not the text: it may be
/// a secret).
package struct JSONError: Error, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// Not JSON: a syntax error, invalid UTF-8, a number out of range, or text cut short.
        case syntax
        /// An object names one key twice.
        case duplicateKey
        /// Valid JSON, but not the object that was asked for.
        case notAnObject
    }

    package let kind: Kind
    /// 1-based line and column of the problem, as jansson counts them (0 when it gave none).
    package let line: Int
    package let column: Int

    package var description: String {
        switch kind {
        case .syntax: "invalid JSON at line \(line), column \(column)"
        case .duplicateKey: "a key appears twice in one JSON object (line \(line), column \(column))"
        case .notAnObject: "the JSON text is not an object"
        }
    }
}
