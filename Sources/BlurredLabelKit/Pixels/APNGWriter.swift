import CZlib

/// Animated PNG (APNG) files: every frame compressed by libpng as an ordinary PNG, then its
/// image data re-wrapped in the animation chunks (acTL, fcTL, fdAT) that Debian's libpng cannot
/// write itself. All frames share one size and one colour plan.
public struct APNGWriter: Sendable {
    public var encoder: PNGEncoder
    /// How many times to play; 0 loops forever.
    public var plays: Int

    public init(encoder: PNGEncoder = PNGEncoder(), plays: Int = 0) {
        self.encoder = encoder
        self.plays = plays
    }

    /// The APNG file for `frames`, each shown for `delay` seconds (at 1/1000 s precision).
    public func encode(_ frames: [Image], delay: Double) throws -> [UInt8] {
        guard let first = frames.first else { throw PNGError.encodeFailed(reason: "an animation needs at least one frame") }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw PNGError.encodeFailed(reason: "every frame of an animation must have the same size")
        }
        guard delay.isFinite, delay >= 0, delay <= 65 else { throw PNGError.encodeFailed(reason: "frame delay must be 0 to 65 s") }
        let plan = PNGColorPlan.smallest(for: frames)
        let delayMilliseconds = UInt16((delay * 1000).rounded())
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            let chunks = try Self.chunks(of: try encoder.encode(frame, plan: plan))
            if index == 0 {
                for chunk in chunks where chunk.type != "IDAT" && chunk.type != "IEND" {
                    out += Self.chunk(chunk.type, chunk.data)
                    if chunk.type == "IHDR" {
                        out += Self.chunk("acTL", Self.be32(UInt32(frames.count)) + Self.be32(UInt32(plays)))
                    }
                }
            }
            out += Self.chunk("fcTL", Self.be32(sequence) + Self.be32(UInt32(frame.width)) + Self.be32(UInt32(frame.height))
                              + Self.be32(0) + Self.be32(0) + Self.be16(delayMilliseconds) + Self.be16(1000) + [0, 0])
            sequence += 1
            for chunk in chunks where chunk.type == "IDAT" {
                if index == 0 {
                    out += Self.chunk("IDAT", chunk.data)
                } else {
                    out += Self.chunk("fdAT", Self.be32(sequence) + chunk.data)
                    sequence += 1
                }
            }
        }
        out += Self.chunk("IEND", [])
        return out
    }

    /// The chunks of a PNG file, in order.
    static func chunks(of png: [UInt8]) throws -> [(type: String, data: [UInt8])] {
        var chunks: [(String, [UInt8])] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            guard offset + 12 + length <= png.count else { throw PNGError.corrupt(source: "<memory>", reason: "chunk overruns the file") }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append((type, Array(png[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return chunks
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var crc = crc32(0, typeBytes, UInt32(typeBytes.count))
        crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
        return be32(UInt32(data.count)) + typeBytes + data + be32(UInt32(crc))
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
}
