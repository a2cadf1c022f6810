import Synchronization

/// The temporary files being written right now, kept where a signal handler can remove them:
/// a fixed table of C strings and two bit masks (slots claimed, slots holding a whole path).
/// Removing them takes only atomic loads and `unlink`, both async-signal-safe, so SIGINT or
/// SIGTERM in the middle of a large write leaves no `.bl.XXXXXX` file behind. (SIGKILL cannot be
/// caught; nothing can clean up after it.)
///
/// `FileIO` registers every temporary file it creates; `batch`, which lets the files in flight
/// finish on an interrupt, needs nothing more, and any command that wants to stop at once can
/// call `removeAll()` from its own handler.
package enum TemporaryFiles {
    /// At most this many temporary files are tracked at once; beyond that a file is written
    /// untracked (still removed on every ordinary failure, just not on a signal).
    static let slotCount = 64
    /// Longest path (with its NUL) a slot holds; longer paths go untracked.
    static let slotBytes = 4096

    /// Registers `path` as a temporary file being written; returns its slot, or nil when the
    /// table is full or the path too long. Register before creating the file, so there is no
    /// moment when it exists untracked.
    static func register(_ path: String) -> Int? {
        let utf8 = Array(path.utf8)
        guard utf8.count < slotBytes, !utf8.contains(0) else { return nil }
        var claimedMask = claimed.load(ordering: .relaxed)
        while true {
            guard claimedMask != .max else { return nil }
            let slot = (~claimedMask).trailingZeroBitCount
            let (exchanged, original) = claimed.compareExchange(
                expected: claimedMask,
                desired: claimedMask | (1 << slot),
                ordering: .acquiring
            )
            if exchanged {
                let base = storage + slot * slotBytes
                utf8.withUnsafeBufferPointer { bytes in
                    for (i, byte) in bytes.enumerated() { base[i] = CChar(bitPattern: byte) }
                }
                base[utf8.count] = 0
                ready.bitwiseOr(1 << slot, ordering: .releasing)
                return slot
            }
            claimedMask = original
        }
    }

    /// Forgets a slot (after the file was renamed into place or removed).
    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        ready.bitwiseAnd(~(1 << slot), ordering: .relaxed)
        claimed.bitwiseAnd(~(1 << slot), ordering: .releasing)
    }

    /// The paths registered now (for tests).
    static var registered: [String] {
        let mask = ready.load(ordering: .acquiring)
        return (0..<slotCount).filter { mask & (1 << $0) != 0 }.map { String(cString: storage + $0 * slotBytes) }
    }

    /// Removes every registered temporary file. Async-signal-safe: atomic loads and `unlink` only.
    package static func removeAll() {
        let mask = ready.load(ordering: .acquiring)
        guard mask != 0 else { return }
        for slot in 0..<slotCount where mask & (1 << slot) != 0 {
            unlink(storage + slot * slotBytes)
        }
    }

    /// Makes SIGINT and SIGTERM remove the registered temporary files and end the process with
    /// status 128 + the signal's number (130, 143). A signal the process was started ignoring
    /// (`nohup`, a background job) stays ignored. For the command-line tool's `main`; a command
    /// that handles these signals itself (batch) installs its own handler for its run.
    package static func removeOnInterrupt() {
        _ = ready.load(ordering: .relaxed)  // the globals exist before any signal comes
        _ = storage
        for signalNumber in [SIGINT, SIGTERM] {
            let previous = signal(signalNumber) { received in
                TemporaryFiles.removeAll()
                _exit(128 + received)
            }
            if isIgnoredSignalHandler(previous) { signal(signalNumber, SIG_IGN) }
        }
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    }
}

/// True when `handler` (as `signal` returned it) is SIG_IGN: a signal the process was started
/// ignoring, which handlers installed later must leave ignored.
package func isIgnoredSignalHandler(_ handler: __sighandler_t?) -> Bool {
    guard let handler else { return false }
    return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
}

/// Slots claimed by a registration (path being written or written).
private let claimed = Atomic<UInt64>(0)
/// Slots whose path is complete; a handler reads only these.
private let ready = Atomic<UInt64>(0)
/// The table of paths, allocated once and never freed. Each slot is written only by the thread
/// that claimed it in `claimed`, and read only after `ready` publishes it (release/acquire).
nonisolated(unsafe) private let storage: UnsafeMutablePointer<CChar> = {
    // calloc: the table's 256 KiB come zeroed from the system without being written, so a run
    // that registers one file touches one page of it, not all 64.
    calloc(TemporaryFiles.slotCount * TemporaryFiles.slotBytes, 1)!.bindMemory(
        to: CChar.self,
        capacity: TemporaryFiles.slotCount * TemporaryFiles.slotBytes
    )
}()
