import BlurredLabelCore
import Foundation

/// Seconds for two copies of `bytes` (into a fresh buffer, then that into another), cut into
/// `threads` equal pieces on the blur's own workers (`parallelRanges`): the memory traffic of a
/// blur's two passes over the picture with no arithmetic, allocation of its output included as a
/// blur's is. `blur_benchmark.py --copies` prints it beside blurlabel's times (issue 44: how far
/// σ 40 is from memory's floor).
func timeTwoCopies(of bytes: [UInt8], threads: Int) -> Double {
    let count = bytes.count
    let t0 = now()
    let first = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
    let second = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
    defer {
        first.deallocate()
        second.deallocate()
    }
    bytes.withUnsafeBufferPointer { source in
        copyInPieces(
            from: UnsafeSendable(source.baseAddress!),
            to: UnsafeSendable(first),
            count: count,
            threads: threads
        )
    }
    copyInPieces(from: UnsafeSendable(first), to: UnsafeSendable(second), count: count, threads: threads)
    return now() - t0
}

/// `memcpy` of `count` bytes in `threads` pieces (each piece touches its own range only).
private func copyInPieces(
    from source: UnsafeSendable<UInt8>,
    to destination: UnsafeSendable<UInt8>,
    count: Int,
    threads: Int
) {
    parallelRanges(count, threads: threads) { range in
        memcpy(destination.pointer + range.lowerBound, source.pointer + range.lowerBound, range.count)
    }
}
