import Foundation

/// Seconds for two copies of `bytes` (into a fresh buffer, then that into another), cut into
/// `threads` equal pieces run at once: the memory traffic of a blur's two passes over the picture
/// with no arithmetic, allocation of its output included as a blur's is. `blur_benchmark.py
/// --copies` prints it beside blurlabel's times (issue 44: how far σ 40 is from memory's floor).
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
            from: UInt(bitPattern: source.baseAddress!),
            to: UInt(bitPattern: first),
            count: count,
            threads: threads
        )
    }
    copyInPieces(from: UInt(bitPattern: first), to: UInt(bitPattern: second), count: count, threads: threads)
    return now() - t0
}

/// `memcpy` of `count` bytes in `threads` pieces on `DispatchQueue.concurrentPerform` (addresses as
/// integers: each piece touches its own range only).
private func copyInPieces(from source: UInt, to destination: UInt, count: Int, threads: Int) {
    let piece = (count + threads - 1) / threads
    DispatchQueue.concurrentPerform(iterations: threads) { index in
        let start = index * piece
        let length = min(piece, count - start)
        guard length > 0 else { return }
        memcpy(
            UnsafeMutableRawPointer(bitPattern: destination)! + start,
            UnsafeRawPointer(bitPattern: source)! + start,
            length
        )
    }
}
