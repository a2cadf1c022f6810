import BlurLabelSystem

/// Large buffers on 2 MB pages (Linux transparent huge pages, `madvise(MADV_HUGEPAGE)`, as numpy
/// does for its large arrays). A fresh 64 MB picture is otherwise 16,384 page faults of 4 KB, each
/// a trap into the kernel: a 4096² RGBA blur spent about as long faulting its output in as blurring
/// (σ 1, one thread: 65–91 ms with 4 KB pages, 33–40 ms with 2 MB ones; Benchmarks/README.md, "Blur"). Only
/// buffers of `threshold` bytes or more, and only their 2 MB-aligned part, are advised, so a
/// label-sized picture never maps (and faults in) megabytes it does not use. Where the kernel has
/// huge pages off, nothing changes; the bytes never do.
package enum HugePages {
    /// Buffers from this size on are advised (a 1448² mask, 724² RGBA; labels need well under 1 MB).
    package static let threshold = 8 << 20
    /// The huge page size of x86-64 and of most arm64 kernels.
    package static let size = 2 << 20

    /// Advises the 2 MB-aligned part of the `byteCount` bytes at `start`, which should not have
    /// been written yet, when none of it is in memory yet.
    package static func advise(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
        guard byteCount >= threshold else { return }
        let address = UInt(bitPattern: start)
        let first = (address + UInt(size) - 1) / UInt(size) * UInt(size)
        let end = (address + UInt(byteCount)) / UInt(size) * UInt(size)
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        // Only memory no page of which is in yet (fresh from mmap, as malloc gives buffers above
        // its threshold): memory that malloc hands out again is already faulted in, and advising
        // it only sets the kernel merging those pages in the background while they are written
        // (measured: 16 MB mask blurs 10–30% slower).
        let pages = Int(end - first) / Int(getpagesize())
        var resident = [UInt8](repeating: 0, count: pages)
        guard mincore(aligned, Int(end - first), &resident) == 0, !resident.contains(where: { $0 & 1 != 0 }) else {
            return
        }
        _ = madvise(aligned, Int(end - first), MADV_HUGEPAGE)
        #endif
    }

    /// Writes a zero on every 4 KB page of the `byteCount` bytes at `start`, so that the kernel's
    /// faults for fresh memory (a cleared page each; in a virtual machine the host's too) happen
    /// now, on this thread, until `stop` says to (asked every 2 MB); the rest is left to fault
    /// when first written. The other bytes are left as they were. Returns whether it touched all.
    @discardableResult
    package static func touch(_ start: UnsafeMutableRawPointer, byteCount: Int, until stop: () -> Bool) -> Bool {
        let page = 4096
        for block in stride(from: 0, to: byteCount, by: size) {
            if stop() { return false }
            for offset in stride(from: block, to: min(byteCount, block + size), by: page) {
                start.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
            }
        }
        return true
    }

    /// `count` bytes of storage for a writer that will set every one before anything reads them
    /// (a blur's destination), advised first, its pages touched (`touch`) until `stop` says to
    /// (nil: none touched); until written, its bytes are whatever the memory held.
    package static func storage(count: Int, touchingUntil stop: (() -> Bool)? = nil) -> [UInt8] {
        [UInt8].uninitialized(count: count) { buffer, initialized in
            if let base = buffer.baseAddress {
                advise(base, byteCount: count)
                if let stop { touch(base, byteCount: count, until: stop) }
            }
            initialized = count
        }
    }

    /// `count` bytes made by `initialize`, which must set every one, in storage advised first.
    package static func bytes(count: Int, _ initialize: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> [UInt8] {
        [UInt8].uninitialized(count: count) { buffer, initialized in
            if let base = buffer.baseAddress { advise(base, byteCount: count) }
            initialize(buffer)
            initialized = count
        }
    }
}
