/// `printf`-style formatting through the C library, as `String(format:)` of full Foundation
/// did for these messages (same conversions, C locale), without linking full Foundation.
/// Only C conversions (`%d`, `%f`, `%g`, `%x`, …); pass Swift strings by interpolation.
package func cFormat(_ format: String, _ arguments: any CVarArg...) -> String {
    withVaList(arguments) { list in
        // A first pass measures, a second writes (vsnprintf consumes the list, so one each).
        let length = withVaList(arguments) { vsnprintf(nil, 0, format, $0) }
        guard length > 0 else { return "" }
        var bytes = [CChar](repeating: 0, count: Int(length) + 1)
        _ = bytes.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, list) }
        return String(decoding: bytes.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
