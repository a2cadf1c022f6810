import BlurLabelSystem

/// Seconds since it was started, on the monotonic clock (a change of the system date does not move it).
struct Stopwatch {
    private let start = Stopwatch.now()

    /// Seconds since `init`.
    var seconds: Double { Self.now() - start }

    /// Seconds on the monotonic clock, from an unspecified origin.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
