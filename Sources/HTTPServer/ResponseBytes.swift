import BlurLabelSystem

/// A response body's bytes, immutable once made and shared by every response that sends them: a
/// cached label sent to a hundred slow readers is one allocation, not a hundred copies.
/// libmicrohttpd reads them straight from here (it keeps a reference until the connection is done
/// with the response, `HTTPServer` releases it in the free callback).
package final class ResponseBytes: Sendable {
    /// The first byte's address, as a number: written once in `init`, freed in `deinit`, never
    /// written in between (so any thread may read the bytes without a lock).
    private let address: UInt
    /// How many bytes.
    package let count: Int

    /// A copy of `bytes` (the one copy a rendered picture is ever given).
    package init(_ bytes: [UInt8]) {
        let storage = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { storage.copyMemory(from: base, byteCount: source.count) }
        }
        address = UInt(bitPattern: storage)
        count = bytes.count
    }

    deinit { UnsafeMutableRawPointer(bitPattern: address)!.deallocate() }

    /// The bytes, for libmicrohttpd; valid while this object lives.
    var pointer: UnsafeRawPointer { UnsafeRawPointer(bitPattern: address)! }

    /// The bytes as an array (a copy: for tests and handlers that look inside).
    package var array: [UInt8] { Array(UnsafeRawBufferPointer(start: pointer, count: count)) }
}
