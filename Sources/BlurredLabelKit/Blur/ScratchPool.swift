import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Keeps the blur's large float planes between calls, so repeated blurs (levels, animations,
/// batches, benchmarks) do not pay the kernel's page faults for fresh memory every time.
/// At most `capacity` buffers are kept; each is used by one blur at a time.
final class ScratchPool: @unchecked Sendable {
    static let shared = ScratchPool(capacity: 4)

    private let lock = NSLock()
    private var free: [(pointer: UnsafeMutableRawPointer, bytes: Int)] = []
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// A 64-byte aligned buffer of at least `bytes` bytes; give it back with `recycle`.
    func take(bytes: Int) -> (pointer: UnsafeMutableRawPointer, bytes: Int) {
        lock.lock()
        if let index = free.indices.filter({ free[$0].bytes >= bytes }).min(by: { free[$0].bytes < free[$1].bytes }) {
            let buffer = free.remove(at: index)
            lock.unlock()
            return buffer
        }
        lock.unlock()
        return (Self.allocate(bytes: max(64, bytes)), max(64, bytes))
    }

    /// Large planes go on 2 MB pages where the kernel allows it: the passes touch every strip of
    /// a plane in turn, and with 4 KB pages that is one TLB miss per strip.
    private static func allocate(bytes: Int) -> UnsafeMutableRawPointer {
        let huge = 2 << 20
        guard bytes >= 2 * huge else { return UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64) }
        let rounded = (bytes + huge - 1) / huge * huge
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: rounded, alignment: huge)
        #if os(Linux)
        _ = madvise(pointer, rounded, MADV_HUGEPAGE)
        #endif
        return pointer
    }

    func recycle(_ buffer: (pointer: UnsafeMutableRawPointer, bytes: Int)) {
        lock.lock()
        free.append(buffer)
        free.sort { $0.bytes > $1.bytes }
        let dropped = free.count > capacity ? free.removeLast() : nil
        lock.unlock()
        dropped?.pointer.deallocate()
    }
}
