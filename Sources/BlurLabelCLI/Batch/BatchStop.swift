import BlurLabelSystem
import BlurredLabelCore
import Synchronization

/// How many SIGINT and SIGTERM signals this process has had while a batch listened (the handler
/// only counts: an atomic add is safe in a signal handler).
private let stopSignalCount = Atomic<Int>(0)

/// One run's stop request: set by whoever owns the run (`request()`), or by SIGINT/SIGTERM arriving
/// after the run began. Owned by one run, so two batches in one process never stop each other.
final class BatchStop: Sendable {
    private let requested = Atomic<Bool>(false)
    private let signalsAtStart: Int

    init() { signalsAtStart = stopSignalCount.load(ordering: .relaxed) }

    /// Asks the run to stop taking lines.
    func request() { requested.store(true, ordering: .relaxed) }

    var isRequested: Bool {
        requested.load(ordering: .relaxed) || stopSignalCount.load(ordering: .relaxed) != signalsAtStart
    }
}

/// Runs `body` with SIGINT and SIGTERM counted for `BatchStop` (and unblocked: a parent may have
/// started us with them blocked), restoring the previous handling afterwards. A signal the
/// process was started ignoring (`nohup`, a background job of a script) stays ignored, as in
/// every other command.
func catchingStopSignals<T>(_ body: () throws -> T) rethrows -> T {
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGINT)
    sigaddset(&stopSignals, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    let previousInt = signal(SIGINT) { _ in stopSignalCount.add(1, ordering: .relaxed) }
    let previousTerm = signal(SIGTERM) { _ in stopSignalCount.add(1, ordering: .relaxed) }
    if isIgnoredSignalHandler(previousInt) { signal(SIGINT, SIG_IGN) }
    if isIgnoredSignalHandler(previousTerm) { signal(SIGTERM, SIG_IGN) }
    defer {
        signal(SIGINT, previousInt)
        signal(SIGTERM, previousTerm)
    }
    return try body()
}
