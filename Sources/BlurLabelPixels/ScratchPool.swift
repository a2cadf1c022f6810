import BlurLabelSystem

/// Keeps the blur's large float planes between calls, so repeated blurs (levels, animations,
/// batches, benchmarks) do not pay the kernel's page faults for fresh memory every time.
/// At most `capacity` buffers are kept; each is used by one blur at a time.
///
/// Small pictures get small scratch: a buffer is exactly the size asked for (rounded to 64
/// bytes), and only planes of `HugePages.threshold` bytes or more go on 2 MB pages, so a
/// label-sized blur never maps (and faults in) megabytes it does not use.
package final class ScratchPool: Sendable {
    package static let shared = ScratchPool(capacity: 4)

    /// A buffer of the pool: 64-byte aligned, `bytes` long.
    package struct Buffer: @unchecked Sendable {  // a raw address, used by one blur at a time
        package let pointer: UnsafeMutableRawPointer
        package let bytes: Int
        /// Whether the buffer was placed on 2 MB pages.
        package var onHugePages: Bool { bytes >= HugePages.threshold }
    }

    /// A buffer at least this large is "large": a label's blur frees it instead of keeping it
    /// (`BlurWork.keepsLargeScratch`).
    package static let largeBytes = 1 << 20

    private let free = LockedValue<[Buffer]>([])
    private let capacity: Int

    package init(capacity: Int) { self.capacity = capacity }

    /// A 64-byte aligned buffer of at least `bytes` bytes; give it back with `recycle`.
    package func take(bytes: Int) -> Buffer {
        let reused = free.withLock { free -> Buffer? in
            guard
                let index = free.indices.filter({ free[$0].bytes >= bytes })
                    .min(by: { free[$0].bytes < free[$1].bytes })
            else { return nil }
            return free.remove(at: index)
        }
        return reused ?? Self.allocate(bytes: max(64, (bytes + 63) / 64 * 64))
    }

    private static func allocate(bytes: Int) -> Buffer {
        guard bytes >= HugePages.threshold else {
            return Buffer(pointer: UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64), bytes: bytes)
        }
        // The passes touch every strip of such a plane in turn: with 4 KB pages, one TLB miss a strip.
        let rounded = (bytes + HugePages.size - 1) / HugePages.size * HugePages.size
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: rounded, alignment: HugePages.size)
        HugePages.advise(pointer, byteCount: rounded)
        return Buffer(pointer: pointer, bytes: rounded)
    }

    package func recycle(_ buffer: Buffer) {
        let dropped = free.withLock { free -> Buffer? in
            free.append(buffer)
            free.sort { $0.bytes > $1.bytes }
            return free.count > capacity ? free.removeLast() : nil
        }
        dropped?.pointer.deallocate()
    }
}
