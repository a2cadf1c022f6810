import BlurLabelPixels

/// Animated PNG (APNG) files: every frame compressed by libpng as an ordinary PNG, then its
/// image data re-wrapped in the animation chunks (acTL, fcTL, fdAT) that Debian's libpng cannot
/// write itself. All frames share one size and one colour plan.
package struct APNGWriter: Sendable {
    /// One frame's delay in seconds: its numerator is 16-bit milliseconds (`Limits.maximumFrameDelay`).
    package static let maximumFrameDelay = 65.535

    package var encoder: PNGEncoder
    /// How many times to play; 0 loops forever.
    package var plays: Int

    package init(encoder: PNGEncoder = PNGEncoder(), plays: Int = 0) {
        self.encoder = encoder
        self.plays = plays
    }

    /// The APNG file for `frames`, each shown for `delay` seconds (at 1/1000 s precision).
    package func encode(_ frames: [Image], delay: Double) throws -> [UInt8] {
        guard !frames.isEmpty else { throw PNGError.encodeFailed(reason: "an animation needs at least one frame") }
        var out: [UInt8] = []
        var stream = try APNGStream(writer: self, plan: .smallest(for: frames), frameCount: frames.count, delay: delay)
        { out += $0 }
        for frame in frames { try stream.append(frame) }
        try stream.finish()
        return out
    }

    /// The chunks of a PNG file, in order.
    static func chunks(of png: [UInt8]) throws -> [(type: String, data: [UInt8])] {
        var chunks: [(String, [UInt8])] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length =
                Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            guard offset + 12 + length <= png.count else {
                throw PNGError.corrupt(source: "<memory>", reason: "chunk overruns the file")
            }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append((type, Array(png[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return chunks
    }

    /// One chunk on its own (`PNGFileLayout.appendChunk`).
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var chunk: [UInt8] = []
        chunk.reserveCapacity(data.count + 12)
        data.withUnsafeBufferPointer { PNGFileLayout.appendChunk(type, $0, to: &chunk) }
        return chunk
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
}

/// An APNG written frame by frame: each frame is compressed and handed to `sink` as soon as it is
/// appended, so no more than one frame is held. The colour plan and the frame count are fixed up
/// front (every frame must fit the plan: build it with `PNGColorPlan.Builder`).
package struct APNGStream {
    private let writer: APNGWriter
    private let plan: PNGColorPlan
    private let frameCount: Int
    private let delayMilliseconds: UInt16
    private let sink: ([UInt8]) throws -> Void
    private var appended = 0
    private var sequence: UInt32 = 0
    private var size: (width: Int, height: Int)? = nil

    package init(
        writer: APNGWriter = APNGWriter(),
        plan: PNGColorPlan,
        frameCount: Int,
        delay: Double,
        sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        guard frameCount >= 1, frameCount <= Int(UInt32.max) else {
            throw PNGError.encodeFailed(reason: "an animation needs at least one frame")
        }
        guard delay.isFinite, delay >= 0, delay <= APNGWriter.maximumFrameDelay else {
            throw PNGError.encodeFailed(reason: "frame delay must be 0 to \(APNGWriter.maximumFrameDelay) s")
        }
        guard UInt32(exactly: writer.plays) != nil else {
            throw PNGError.encodeFailed(reason: "plays must be from 0 (for ever) to \(UInt32.max), got \(writer.plays)")
        }
        self.writer = writer
        self.plan = plan
        self.frameCount = frameCount
        self.delayMilliseconds = UInt16((delay * 1000).rounded())
        self.sink = sink
        try sink([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// Compresses `frame` and writes it out.
    package mutating func append(_ frame: Image) throws {
        guard appended < frameCount else {
            throw PNGError.encodeFailed(reason: "more frames than the \(frameCount) declared")
        }
        if let size, size.width != frame.width || size.height != frame.height {
            throw PNGError.encodeFailed(reason: "every frame of an animation must have the same size")
        }
        let chunks = try APNGWriter.chunks(of: try writer.encoder.encode(frame, plan: plan))
        var out: [UInt8] = []
        if appended == 0 {
            size = (frame.width, frame.height)
            for chunk in chunks where chunk.type != "IDAT" && chunk.type != "IEND" {
                out += APNGWriter.chunk(chunk.type, chunk.data)
                if chunk.type == "IHDR" {
                    out += APNGWriter.chunk(
                        "acTL",
                        APNGWriter.be32(UInt32(frameCount)) + APNGWriter.be32(UInt32(writer.plays))
                    )
                }
            }
        }
        out += APNGWriter.chunk(
            "fcTL",
            APNGWriter.be32(sequence) + APNGWriter.be32(UInt32(frame.width)) + APNGWriter.be32(UInt32(frame.height))
                + APNGWriter.be32(0) + APNGWriter.be32(0) + APNGWriter.be16(delayMilliseconds) + APNGWriter.be16(1000)
                + [0, 0]
        )
        sequence += 1
        for chunk in chunks where chunk.type == "IDAT" {
            if appended == 0 {
                out += APNGWriter.chunk("IDAT", chunk.data)
            } else {
                out += APNGWriter.chunk("fdAT", APNGWriter.be32(sequence) + chunk.data)
                sequence += 1
            }
        }
        appended += 1
        try sink(out)
    }

    /// Ends the file (every declared frame must have been appended).
    package mutating func finish() throws {
        guard appended == frameCount else {
            throw PNGError.encodeFailed(reason: "\(appended) frames appended, \(frameCount) declared")
        }
        try sink(APNGWriter.chunk("IEND", []))
    }
}
