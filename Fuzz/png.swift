import BlurredLabelCore

/// libFuzzer target: PNG decoding. Every chunk's CRC is recomputed first (mutations would
/// otherwise almost all stop at the CRC check), and whatever decodes must survive a round trip
/// through the encoder unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    fixCRCs(&bytes)
    guard let image = try? PNGDecoder.decode(bytes, maxPixels: 1 << 22) else { return 0 }
    let again = try! PNGDecoder.decode(try! PNGEncoder().encode(image), maxPixels: 1 << 22)
    precondition(again == image, "a decoded PNG did not survive a round trip")
    return 0
}

private let crcTable: [UInt32] = (0..<256).map { n in
    (0..<8).reduce(UInt32(n)) { c, _ in c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
}

/// Rewrites the CRC of every whole chunk after the signature.
private func fixCRCs(_ bytes: inout [UInt8]) {
    var offset = 8
    while offset + 12 <= bytes.count {
        let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        guard length <= bytes.count - offset - 12 else { return }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes[(offset + 4)..<(offset + 8 + length)] {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        crc = ~crc
        for i in 0..<4 { bytes[offset + 8 + length + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * i)) }
        offset += length + 12
    }
}
