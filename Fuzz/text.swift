import BlurredLabelCore

/// libFuzzer target: text layout and rasterization. The first bytes choose the options, the
/// rest (as UTF-8, repaired) is the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard bytes.count >= 6 else { return 0 }
    let features = [[], ["-liga"], ["tnum", "smcp"], ["kern=0"], ["liga", "-kern", "ss01"]][Int(bytes[4]) % 5]
    let style = TextStyle(
        size: Double(1 + Int(bytes[0]) % 64),
        features: features,
        language: ["en", "ar", "he", "hi", "th", nil][Int(bytes[5]) % 6],
        direction: TextDirection.allCases[Int(bytes[1]) % TextDirection.allCases.count],
        alignment: TextAlignment.allCases[Int(bytes[1] / 16) % TextAlignment.allCases.count],
        lineSpacing: 0.5 + Double(bytes[2] % 8) / 4,
        letterSpacing: Double(Int(bytes[3]) - 128) / 8,
        maxWidth: bytes[2] & 0x80 != 0 ? Double(bytes[3]) + 1 : nil,
        outlineWidth: bytes[4] & 0x80 != 0 ? Double(bytes[5] % 8) : 0
    )
    let text = String(decoding: bytes.dropFirst(6).prefix(400), as: UTF8.self)
    _ = try? TextRenderer.render(text, style: style)
    return 0
}
