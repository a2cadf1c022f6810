import Foundation

@testable import BlurredLabelCore

/// Paths and helpers shared by the kit's tests.
enum Fixtures {
    static var pngFolder: URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("png")
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: pngFolder.appendingPathComponent(name)))
    }

    /// A fresh empty folder under the system's temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("blurlabel-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// CRC-32 as PNG uses it, for building deliberately odd files in tests.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
    }
    return ~crc
}

/// A PNG chunk with its length and CRC.
func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typeBytes = Array(type.utf8)
    let length = UInt32(data.count)
    let crc = crc32(typeBytes + data)
    return withUnsafeBytes(of: length.bigEndian, Array.init) + typeBytes + data
        + withUnsafeBytes(of: crc.bigEndian, Array.init)
}

/// A deterministic pseudo-random byte stream.
struct TestRandom {
    var state: UInt64
    mutating func next() -> UInt8 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
    }

    /// `count` premultiplied RGBA pixels: alpha random and odd (never 0), each colour below it.
    mutating func premultipliedRGBA(count: Int) -> [UInt8] {
        (0..<count).flatMap { _ -> [UInt8] in
            let a = next() | 1
            return [next() % a, next() % a, next() % a, a]
        }
    }
}
