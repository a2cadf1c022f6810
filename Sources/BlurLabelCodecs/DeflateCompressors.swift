import BlurLabelSystem
import CDeflate

/// libdeflate compressors kept between files: each thread keeps its own, one per level it has
/// used, until it exits. A compressor holds its match finder's tables (200 KB at level 1, 656 KB
/// at levels 2–9): allocated for every label, they were fresh memory for the kernel to fault in,
/// and malloc handed it back (`madvise`) once the file was written, two calls a label. Kept per
/// thread rather than in a shared pool, so workers never meet on a lock for them.
enum DeflateCompressors {
    /// The levels a thread may keep a compressor for (libdeflate's 1 to 9; `SmallPNGWriter` asks
    /// for no others).
    static let levels: ClosedRange<Int32> = 1...9

    /// The thread's compressors, one slot per level, freed when the thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { slots in
            guard let slots = slots?.assumingMemoryBound(to: OpaquePointer?.self) else { return }
            for level in 0..<DeflateCompressors.levels.count {
                if let compressor = slots[level] { libdeflate_free_compressor(compressor) }
            }
            slots.deallocate()
        }
        precondition(status == 0, "pthread_key_create failed")
        return key
    }()

    /// This thread's compressor for `level`, made on first use; nil when libdeflate cannot
    /// allocate one.
    private static func compressor(level: Int32) -> OpaquePointer? {
        precondition(levels.contains(level))
        var slots = pthread_getspecific(key)?.assumingMemoryBound(to: OpaquePointer?.self)
        if slots == nil {
            let fresh = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: levels.count)
            fresh.initialize(repeating: nil, count: levels.count)
            guard pthread_setspecific(key, fresh) == 0 else {
                fresh.deallocate()
                return nil
            }
            slots = fresh
        }
        guard let slots else { return nil }
        let index = Int(level - levels.lowerBound)
        if slots[index] == nil { slots[index] = libdeflate_alloc_compressor(level) }
        return slots[index]
    }

    /// The zlib stream of the `count` bytes at `data` at libdeflate's `level` (`levels`), or nil
    /// when libdeflate could not allocate a compressor.
    static func zlibStream(_ data: UnsafeRawPointer, count: Int, level: Int32) -> [UInt8]? {
        guard let compressor = compressor(level: level) else { return nil }
        let bound = libdeflate_zlib_compress_bound(compressor, count)
        var written = 0
        let stream = [UInt8].uninitialized(count: bound) { out, initialized in
            written = libdeflate_zlib_compress(compressor, data, count, out.baseAddress, bound)
            initialized = written
        }
        return written > 0 ? stream : nil
    }

    /// The most bytes `zlibCompress` may write for `count` bytes at `level`; nil when libdeflate
    /// could not allocate a compressor.
    static func zlibBound(count: Int, level: Int32) -> Int? {
        guard let compressor = compressor(level: level) else { return nil }
        return libdeflate_zlib_compress_bound(compressor, count)
    }

    /// The zlib stream of the `count` bytes at `data` at `level`, written to `out` (`capacity`
    /// bytes, at least `zlibBound`); its length, or 0 when it could not be made.
    static func zlibCompress(
        _ data: UnsafeRawPointer,
        count: Int,
        level: Int32,
        into out: UnsafeMutableRawPointer,
        capacity: Int
    ) -> Int {
        guard let compressor = compressor(level: level) else { return 0 }
        return libdeflate_zlib_compress(compressor, data, count, out, capacity)
    }
}
