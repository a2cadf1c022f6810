import BlurLabelCodecs
import BlurredLabelCore
import CDeflate
import CZlib
import Foundation

/// `label-phases [COUNT] [SIZE] [FOLDER]`: where one batch label's time goes, phase by phase, over
/// COUNT random price tags ("NN.NN €") at SIZE px: shape (HarfBuzz layout), raster (glyph bitmaps
/// into the ink mask), blur (padding and the Gaussian), grey rows + encode (the blurred mask
/// coloured into the PNG's grey rows, row filter, compression, chunks: what `batch` does for a
/// grey label) and write (a file of FOLDER, temporary file and
/// rename, as `FileIO.write`). Each phase is timed over all labels in a row, so each runs warm,
/// in the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), so that other processes on a busy
/// machine count less. The compression inside encode is also timed alone on the same filtered
/// rows: runs of the byte before (`RunDeflate`, what encode uses), libdeflate's level 1 (the
/// writer before) and zlib's run-length strategy (the one before that).
enum LabelPhases {
    /// This thread's CPU time in seconds.
    static func cpuNow() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func run(count: Int, size: Double, folder: String) throws {
        var random = SystemRandomNumberGenerator()
        let texts = (0..<count).map { _ in
            String(format: "%d.%02d €", Int.random(in: 0...99, using: &random), Int.random(in: 0...99, using: &random))
        }
        let style = LabelStyle(typography: TextStyle(size: size))
        let pipeline = LabelPipeline(style: style)
        let padding = pipeline.padding(radius: style.radius)
        var phases: [(String, Double)] = []
        func timed<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
            let t0 = cpuNow()
            let result = try body()
            phases.append((name, (cpuNow() - t0) / Double(count) * 1e6))
            return result
        }
        try timed("shape") { for text in texts { _ = try TextLayout(text: text, style: style.typography) } }
        let rendered = try timed("shape + raster") { try texts.map { try pipeline.renderText($0) } }
        phases[1].1 -= phases[0].1
        phases[1].0 = "raster"
        let blurred = try timed("blur") {
            try rendered.map { text in
                pipeline.blurred(try pipeline.ink(of: text, padding: padding), radius: style.radius)
            }
        }
        // What batch and serve do with a grey label: the blurred mask coloured straight into the
        // PNG's grey rows, filtered, compressed and put in chunks (`PNGEncoder.encodeGrey`).
        guard let levels = Composite.greyTable(color: style.color, background: style.background) else { return }
        let encoder = PNGEncoder()
        let files = try timed("grey rows + encode") {
            try blurred.map { ink -> [UInt8] in
                guard case let .coverage(mask) = ink, let file = encoder.encodeGrey(mask, levels: levels) else {
                    return try encoder.encode(try pipeline.composite(ink).image)
                }
                return file
            }
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try timed("write") {
            for (i, file) in files.enumerated() { try FileIO.write(file, to: "\(folder)/t\(i).png") }
        }
        // The same filtered rows through zlib's run-length strategy, in one call, as before, and
        // through libdeflate's level 1, as now.
        let filtered = files.map { inflatedData($0) }
        var zlibBytes = 0
        let zlibTime = timedSeconds {
            for data in filtered { zlibBytes += runLengthStream(data) }
        }
        var deflateBytes = 0
        let compressor = libdeflate_alloc_compressor(1)
        defer { libdeflate_free_compressor(compressor) }
        var scratch = [UInt8](repeating: 0, count: 1 << 20)
        let deflateTime = timedSeconds {
            for data in filtered {
                deflateBytes += libdeflate_zlib_compress(compressor, data, data.count, &scratch, scratch.count)
            }
        }
        var runBytes = 0
        let runTime = timedSeconds {
            for data in filtered {
                runBytes += data.withUnsafeBufferPointer {
                    RunDeflate.zlibStream($0.baseAddress!, count: $0.count).count
                }
            }
        }
        print(String(format: "%d price tags at %.0f px, CPU microseconds per label:", count, size))
        var total = 0.0
        for (name, micros) in phases {
            print("  " + name.padding(toLength: 20, withPad: " ", startingAt: 0) + String(format: "%8.1f", micros))
            total += micros
        }
        print("  total               " + String(format: "%8.1f", total))
        let perLabel = { (seconds: Double) in seconds / Double(count) * 1e6 }
        print(
            String(
                format:
                    "compression alone: runs %.1f us, %.0f bytes (as encode now); libdeflate level 1 %.1f us, %.0f bytes; zlib run-length %.1f us, %.0f bytes",
                perLabel(runTime),
                Double(runBytes) / Double(count),
                perLabel(deflateTime),
                Double(deflateBytes) / Double(count),
                perLabel(zlibTime),
                Double(zlibBytes) / Double(count)
            )
        )
    }

    private static func timedSeconds(_ body: () -> Void) -> Double {
        let t0 = cpuNow()
        body()
        return cpuNow() - t0
    }

    /// The filtered rows of a PNG file (its IDAT data inflated).
    private static func inflatedData(_ file: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = []
        var offset = 8
        while offset + 12 <= file.count {
            let length = file[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if file[offset + 4..<offset + 8].elementsEqual("IDAT".utf8) {
                stream += file[offset + 8..<offset + 8 + length]
            }
            offset += 12 + length
        }
        var out = [UInt8](repeating: 0, count: 1 << 22)
        var length = uLongf(out.count)
        guard uncompress(&out, &length, stream, uLong(stream.count)) == Z_OK else { return [] }
        return Array(out.prefix(Int(length)))
    }

    /// The size of zlib's run-length stream of `data` as the old writer made it (window and
    /// memory level sized to the data, one call).
    private static func runLengthStream(_ data: [UInt8]) -> Int {
        var z = z_stream()
        var bits: Int32 = 9
        while bits < 15 && (1 << bits) < data.count { bits += 1 }
        var memoryLevel: Int32 = 8
        for level in 1...7 where (1 << (level + 6)) - 2 >= data.count {
            memoryLevel = Int32(level)
            break
        }
        guard
            deflateInit2_(&z, 6, Z_DEFLATED, bits, memoryLevel, Z_RLE, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { return 0 }
        defer { deflateEnd(&z) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&z, uLong(data.count))))
        let capacity = out.count
        return data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                z.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                z.avail_in = uInt(input.count)
                z.next_out = output.baseAddress
                z.avail_out = uInt(capacity)
                return deflate(&z, Z_FINISH) == Z_STREAM_END ? capacity - Int(z.avail_out) : 0
            }
        }
    }
}
